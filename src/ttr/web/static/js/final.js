// The end of a game: the breakdown per player, the winners and the tie-break that decided, the
// European Express path, the record to download and the replay.
import { api } from "./api.js";
import { h, clear } from "./dom.js";
import { t, city, pairName } from "./i18n.js";
import { playerStyle } from "./colors.js";

/** The European Express path of each player who won it (the server's `longest_path_routes`), as route
 * indexes; `all` joins them. */
export function expressPaths(view, board) {
  const all = new Set();
  const per = new Map();
  view.final.players.forEach((p, seat) => {
    if (!p.express_bonus || !p.longest_path_routes) return;
    const set = new Set(p.longest_path_routes.map((n) => board.byName.get(n)).filter(Boolean).map((r) => r.index));
    per.set(seat, set);
    for (const i of set) all.add(i);
  });
  return { all, per };
}

/** The final breakdown into `box`; `names` are the seats' names as the page shows them (default: the view's);
 * `seat` is the page's own seat (its review is offered first). */
export function renderFinal(box, view, mapData, board, { gameId, onPath, names = null, seat = null }) {
  const nameOf = (seat) => (names && names[seat] !== undefined ? names[seat] : view.players[seat].name);
  const final = view.final;
  const rules = mapData.rules || {};
  // the rows this map's rules score (its data, whatever the map's name)
  const stationsOn = Boolean(rules.stations);
  const attractionsOn = Boolean(rules.attraction_points);
  const expressOn = Boolean(rules.longest_path_bonus);
  clear(box);
  const winners = final.winner_seats ? final.winner_seats.map((w) => nameOf(w)) : final.winners;
  box.append(h("h2", { id: "final-h" }, t("final.title")),
    h("p", { class: "winners", id: "winners" }, t(winners.length > 1 ? "final.winners" : "final.winner", { names: winners.join(t("list.sep")) })));
  if (final.decided_by) box.append(h("p", { id: "tiebreak", dataset: { rule: final.decided_by } }, t(`final.tiebreak.${final.decided_by}`)));
  const rows = [
    ["final.routes", (p) => p.route_points],
    ["final.tickets_done", (p) => ticketList(p.tickets_completed)],
    ["final.tickets_failed", (p) => ticketList(p.tickets_failed)],
    ["final.ticket_points", (p) => p.ticket_points],
  ];
  if (stationsOn) {
    rows.push(["final.stations_kept", (p) => t("final.stations_points", { n: p.stations_unbuilt, points: p.station_points })]);
    rows.push(["final.borrowed", (p) => borrowed(p.borrowed_routes)]);
  }
  if (expressOn) {
    rows.push(["final.longest", (p) => p.longest_path]);
    rows.push(["final.express", (p) => p.express_bonus]);
  }
  if (attractionsOn) {
    rows.push(["final.attractions", (p) => (p.attraction_cities && p.attraction_cities.length
      ? h("span", {}, p.attractions, " ", h("ul", { class: "plain" }, p.attraction_cities.map((c) => h("li", {}, city(c)))))
      : p.attractions)]);
  }
  rows.push(["final.total", (p) => h("strong", {}, p.total)]);
  const table = h("table", { class: "breakdown", id: "breakdown" },
    h("thead", {}, h("tr", {}, h("td"), final.players.map((p, i) => {
      const mark = h("span", { class: "player-mark", "aria-hidden": "true" }, playerStyle(i).symbol);
      mark.style.background = playerStyle(i).fill;
      return h("th", { scope: "col" }, mark, " ", p.seat !== undefined ? nameOf(p.seat) : nameOf(i));
    }))),
    h("tbody", {}, rows.map(([key, cell]) => h("tr", { dataset: { row: key } }, h("th", { scope: "row" }, t(key)),
      final.players.map((p) => h("td", {}, cell(p)))))));
  box.append(h("div", { class: "table-scroll" }, table));
  if (expressOn) {
    const paths = expressPaths(view, board);
    if (paths.per.size) {
      const row = h("div", { class: "row" }, h("span", {}, t("final.express_path")));
      for (const [seat, set] of paths.per) {
        row.append(h("button", { type: "button", class: "express-button", onclick: () => onPath(set) }, nameOf(seat)));
      }
      row.append(h("button", { type: "button", onclick: () => onPath(paths.all) }, t("final.show_all")));
      box.append(row);
    }
  }
  if (gameId) {
    box.append(h("div", { class: "row" },
      h("a", { class: "button", id: "download-record", href: api.recordUrl(gameId), download: `ttr-${gameId}.json` }, t("final.download")),
      h("a", { class: "button", id: "open-replay", href: `#/replay/${encodeURIComponent(gameId)}` }, t("final.replay")),
      h("a", { class: "button", id: "open-review", href: `#/review/${encodeURIComponent(gameId)}/${seat ?? 0}` }, t("review.open"))));
  }
}

function ticketList(list) {
  if (!list.length) return "–";
  return h("ul", { class: "plain" }, list.map((n) => h("li", {}, pairName(n))));
}

function borrowed(map) {
  const entries = Object.entries(map || {});
  if (!entries.length) return "–";
  return h("ul", { class: "plain" }, entries.map(([c, r]) => h("li", {}, `${city(c)}: ${r ? pairName(r) : t("final.no_route")}`)));
}
