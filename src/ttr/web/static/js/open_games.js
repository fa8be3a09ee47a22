// Open games in the lobby: open a table (map, seats, clock from the lobby's choice), take a free seat of
// another (logged in, or a guest with a name); when the table is full, the page opens your seat.
import { saveSeat } from "./api.js";
import { h, clear } from "./dom.js";
import { errorLine } from "./errors.js";
import { mapLabel, t } from "./i18n.js";
import { onlineCall, session } from "./online_api.js";
import { accountError } from "./account.js";

const TICKET_KEY = "ttr.table"; // the ticket of the seat this browser holds at an open table
const form = { map: "new_york", seats: 2, name: "" };

function ticket() {
  return localStorage.getItem(TICKET_KEY);
}

/** The lobby's open-games panel; `clock()` gives the lobby's clock choice for a new table. */
export function openGamesPanel(clock) {
  const box = h("section", { class: "panel", id: "open-games", "aria-labelledby": "open-h" });
  let error = null;
  let mine = null; // the status of this browser's seat at a table
  let tables = [];
  let timer = null;

  const load = async () => {
    if (!document.body.contains(box) && timer) { clearInterval(timer); return; }
    try {
      tables = await onlineCall("GET", "/api/open-games");
      if (ticket()) mine = await onlineCall("POST", "/api/open-games/status", { ticket: ticket() });
    } catch (err) {
      if (err.code === "not_found") { localStorage.removeItem(TICKET_KEY); mine = null; } else error = accountError(err);
    }
    if (mine && mine.match) {
      const m = mine.match;
      localStorage.removeItem(TICKET_KEY);
      clearInterval(timer);
      saveSeat({ game: m.game, seat: m.seat, token: m.token, name: m.name, map: m.map });
      location.hash = `#/play/${encodeURIComponent(m.game)}/${m.seat}/${encodeURIComponent(m.token)}`;
      return;
    }
    draw();
  };
  const act = async (method, path, body) => {
    try {
      const answer = await onlineCall(method, path, body);
      error = null;
      if (answer && answer.ticket) localStorage.setItem(TICKET_KEY, answer.ticket);
      if (answer && answer.table === null) localStorage.removeItem(TICKET_KEY);
      mine = answer && answer.ticket ? answer : null;
    } catch (err) {
      error = accountError(err);
    }
    if (!timer) timer = setInterval(load, 1500);
    await load();
  };
  const nameField = () => (session.account ? null : h("label", { class: "field inline" }, h("span", {}, t("open.your_name")),
    h("input", { id: "open-name", type: "text", maxlength: 24, value: form.name, oninput: (ev) => { form.name = ev.target.value; } })));
  const body = (extra) => (session.account ? extra : { ...extra, name: form.name });

  const draw = () => {
    clear(box).append(h("h2", { id: "open-h" }, t("open.title")));
    if (mine && mine.table) {
      box.append(h("p", { id: "open-waiting", role: "status" }, t("open.waiting", { n: mine.table.players.length,
        seats: mine.table.seats, names: mine.table.players.join(t("list.sep")) })),
      h("button", { type: "button", id: "open-leave", onclick: () => act("POST", "/api/open-games/leave", { ticket: ticket() }) }, t("open.leave")));
    } else {
      box.append(nameField() || "");
      const list = h("ul", { class: "game-list", id: "open-list" });
      for (const tb of tables) {
        list.append(h("li", { dataset: { table: tb.id } },
          `${mapLabel(tb.map)} · ${t("open.seats", { n: tb.players.length, seats: tb.seats })} · ${tb.players.join(t("list.sep"))} `,
          h("button", { type: "button", class: "open-take", onclick: () => act("POST", `/api/open-games/${encodeURIComponent(tb.id)}/take`, body({})) }, t("open.take"))));
      }
      box.append(tables.length ? list : h("p", { class: "note" }, t("open.none")));
      const mapSelect = h("select", { id: "open-map", onchange: (ev) => { form.map = ev.target.value; } },
        ["europe", "new_york"].map((m) => h("option", { value: m, selected: form.map === m }, mapLabel(m))));
      const seats = h("input", { id: "open-seats", type: "number", inputmode: "numeric", value: form.seats, oninput: (ev) => { form.seats = ev.target.value; } });
      box.append(h("div", { class: "row" }, h("label", { class: "field inline" }, h("span", {}, t("lobby.map")), mapSelect),
        h("label", { class: "field inline" }, h("span", {}, t("open.players")), seats),
        h("button", { type: "button", id: "open-create", onclick: () => {
          const extra = { map: form.map, seats: Number(form.seats) };
          const c = clock();
          if (c) extra.clock = c;
          act("POST", "/api/open-games", body(extra));
        } }, t("open.create"))));
    }
    box.append(errorLine(error, { id: "open-error" }));
  };
  draw();
  load().then(() => { if (ticket() && !timer) timer = setInterval(load, 1500); });
  return box;
}
