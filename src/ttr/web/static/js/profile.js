// A player's profile (#/player/{name}): ratings by map and table size, totals, the history of finished games
// with their replays; and the leaderboards (#/leaderboard), one per map and table size.
import { h, clear } from "./dom.js";
import { errorLine } from "./errors.js";
import { levelLabel, mapLabel, t, translateDom } from "./i18n.js";
import { onlineCall } from "./online_api.js";
import { accountError } from "./account.js";
import { addOnlineRoute } from "./online_routes.js";

const TABLES = [["europe", [2, 3, 4, 5]], ["new_york", [2, 3, 4]]]; // the maps and their table sizes

function tableName(map, seats) {
  return t("rating.table", { map: mapLabel(map), n: seats });
}

function likeText(like) {
  return like ? t("rating.like", { level: levelLabel(like) }) : "";
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString();
}

/** A seat of a history entry: the account (or "deleted player"), else the seat's name. */
function seatName(p) {
  if (p.deleted) return t("account.deleted_player");
  return p.account || p.name;
}

class ProfilePage {
  constructor(main, name) {
    this.main = main;
    this.name = name;
    this.data = null;
    this.error = null;
  }

  async load() {
    try {
      this.data = await onlineCall("GET", `/api/players/${encodeURIComponent(this.name)}`);
    } catch (err) {
      this.error = err.code === "not_found" ? { key: "profile.not_found", params: { name: this.name } } : accountError(err);
    }
    this.render();
  }

  relabel() {
    this.render();
  }

  render() {
    clear(this.main);
    if (this.error || !this.data) {
      this.main.append(h("h1", {}, this.name), errorLine(this.error, { id: "profile-error" }));
      return;
    }
    const d = this.data;
    this.main.append(h("h1", { id: "profile-name" }, t("profile.title", { name: d.name })));
    this.main.append(h("section", { class: "panel", id: "profile-totals" },
      h("p", {}, t("profile.totals", { games: d.games, won: d.won, tickets: d.tickets_done,
        mean: d.mean_score === null ? "–" : d.mean_score }))));
    const ratings = h("section", { class: "panel", id: "profile-ratings", "aria-labelledby": "ratings-h" },
      h("h2", { id: "ratings-h", "data-i18n": "profile.ratings" }));
    if (!d.ratings.length) ratings.append(h("p", { "data-i18n": "profile.no_ratings" }));
    else {
      ratings.append(h("div", { class: "online-scroll" }, h("table", { class: "online-table" },
        h("thead", {}, h("tr", {}, h("th", { "data-i18n": "rating.table_head" }), h("th", { "data-i18n": "rating.rating" }),
          h("th", { "data-i18n": "rating.games" }), h("th", { "data-i18n": "rating.strength" }))),
        h("tbody", {}, d.ratings.map((r) => h("tr", { dataset: { map: r.map, seats: String(r.seats) } },
          h("td", {}, tableName(r.map, r.seats)), h("td", { class: "rating" }, r.rating.toFixed(1)),
          h("td", {}, String(r.games)), h("td", {}, likeText(r.like))))))));
    }
    const history = h("section", { class: "panel", id: "profile-history", "aria-labelledby": "history-h" },
      h("h2", { id: "history-h", "data-i18n": "profile.history" }));
    if (!d.history.length) history.append(h("p", { "data-i18n": "profile.no_games" }));
    const list = h("ul", { class: "game-list" });
    for (const g of d.history) {
      const others = g.players.filter((p) => p.seat !== g.seat).map(seatName).join(t("list.sep"));
      const change = g.rated && g.mu_before !== null ? t("profile.change", { delta: (g.mu_after - g.mu_before >= 0 ? "+" : "") + (g.mu_after - g.mu_before).toFixed(1) }) : t("profile.unrated");
      list.append(h("li", { dataset: { game: g.game } },
        h("span", {}, `${tableName(g.map, g.seats)} · ${when(g.finished)} · `,
          t(g.won ? "profile.won" : "profile.place", { place: g.place, score: g.score }), " · ",
          t("profile.against", { names: others }), " · ", change, " "),
        h("a", { class: "button", href: `#/replay/${encodeURIComponent(g.game)}` }, t("lobby.replay"))));
    }
    history.append(list);
    this.main.append(ratings, history);
    translateDom(this.main);
  }
}

class LeaderboardPage {
  constructor(main, map, seats) {
    this.main = main;
    this.map = map;
    this.seats = seats;
    this.data = null;
    this.error = null;
  }

  async load() {
    try {
      this.data = await onlineCall("GET", `/api/leaderboard?map=${encodeURIComponent(this.map)}&seats=${this.seats}`);
      this.error = null;
    } catch (err) {
      this.error = accountError(err);
    }
    this.render();
  }

  relabel() {
    this.render();
  }

  render() {
    clear(this.main);
    const choose = h("select", { id: "board-table", "aria-label": t("rating.table_head"), onchange: (ev) => {
      const [map, seats] = ev.target.value.split(":");
      location.hash = `#/leaderboard/${map}/${seats}`;
    } }, TABLES.flatMap(([map, sizes]) => sizes.map((n) => h("option", { value: `${map}:${n}`,
      selected: map === this.map && n === this.seats }, tableName(map, n)))));
    this.main.append(h("h1", { "data-i18n": "nav.leaderboard" }), h("label", { class: "field" }, h("span", { "data-i18n": "rating.table_head" }), choose),
      errorLine(this.error, { id: "leaderboard-error" }));
    if (this.data) {
      const rows = this.data.players.map((p) => h("tr", { dataset: { name: p.name } },
        h("td", {}, String(p.rank)), h("td", {}, h("a", { href: `#/player/${encodeURIComponent(p.name)}` }, p.name)),
        h("td", { class: "rating" }, p.rating.toFixed(1)), h("td", {}, String(p.games)), h("td", {}, likeText(p.like))));
      const bots = this.data.bots.map((b) => h("tr", { class: "bot-row", dataset: { level: b.level } },
        h("td", {}, "–"), h("td", {}, levelLabel(b.level)), h("td", { class: "rating" }, b.rating.toFixed(1)), h("td", {}, "–"), h("td", {}, "")));
      this.main.append(h("section", { class: "panel", id: "leaderboard" },
        this.data.players.length ? null : h("p", { "data-i18n": "rating.nobody" }),
        h("div", { class: "online-scroll" }, h("table", { class: "online-table" },
          h("thead", {}, h("tr", {}, h("th", { "data-i18n": "rating.rank" }), h("th", { "data-i18n": "account.name" }),
            h("th", { "data-i18n": "rating.rating" }), h("th", { "data-i18n": "rating.games" }), h("th", { "data-i18n": "rating.strength" }))),
          h("tbody", {}, rows))),
        h("h2", { "data-i18n": "rating.bots" }), h("p", { class: "note", "data-i18n": "rating.bots_note" }),
        h("div", { class: "online-scroll" }, h("table", { class: "online-table", id: "bot-ratings" }, h("tbody", {}, bots)))));
    }
    translateDom(this.main);
  }
}

addOnlineRoute("player", (parts) => (parts[1] ? { page: "lobby", open: async (main) => {
  const view = new ProfilePage(main, parts[1]);
  await view.load();
  return view;
} } : null));

addOnlineRoute("leaderboard", (parts) => {
  const map = TABLES.some(([m]) => m === parts[1]) ? parts[1] : "europe";
  const sizes = TABLES.find(([m]) => m === map)[1];
  const seats = sizes.includes(Number(parts[2])) ? Number(parts[2]) : 2;
  return { page: "lobby", open: async (main) => {
    const view = new LeaderboardPage(main, map, seats);
    await view.load();
    return view;
  } };
});
