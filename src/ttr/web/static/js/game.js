// A game: the board, the turn line and what just happened, the connection, and every panel kept up to date
// (the side panels: game_panels.js; the action panel: game_actions.js; the claim, station and confirm
// dialogs: game_dialogs.js).
import { api, mapBundle, saveSeat } from "./api.js";
import { Board } from "./board.js";
import { byCost } from "./cards.js";
import { colorLetters } from "./colors.js";
import { h, clear, announce } from "./dom.js";
import { t, translateDom } from "./i18n.js";
import { actionText, cardsText, logText, reasonText } from "./words.js";
import { renderFinal, expressPaths } from "./final.js";
import { renderDraw, renderHand, renderLog, renderPlayers, renderTickets } from "./game_panels.js";
import { renderAction } from "./game_actions.js";
import { confirmMove, openClaim, openStation } from "./game_dialogs.js";

const CONFIRM_KEY = "ttr.confirm";

export async function showGame(main, { game, seat, token }) {
  const summary = await api.game(game);
  const bundle = await mapBundle(summary.map);
  const view = new GameView(main, summary, bundle, seat, token);
  view.connect();
  return view;
}

class GameView {
  constructor(main, summary, bundle, seat, token) {
    this.main = main;
    this.summary = summary;
    this.mapData = bundle.data;
    this.seat = seat;
    this.token = token;
    this.wild = bundle.data.wild || (summary.map === "new_york" ? "taxi" : "locomotive");
    this.colors = bundle.data.colors || [];
    this.letters = colorLetters(this.colors);
    this.points = new Map((bundle.data.tickets || []).map((tk) => [`${tk.a}-${tk.b}`, tk.points]));
    this.state = null; // {version, view, legal, seats, status, botsStopped}
    this.pending = false;
    this.stopped = false;
    this.retry = 0;
    this.hint = null;
    this.pathHighlight = null;
    this.sentFrom = null; // where the focus was when the last action was sent
    this.build(bundle.svg);
  }

  build(svgText) {
    clear(this.main);
    this.main.classList.add("game-main");
    this.turnBox = h("div", { class: "turn", id: "turn", role: "status", tabindex: -1 });
    this.finalRoundBox = h("p", { class: "final-round", id: "final-round", hidden: true });
    this.lastBox = h("p", { class: "last-line", id: "last-move", "aria-hidden": "true" });
    this.actionBox = h("section", { class: "panel action-panel", id: "action-panel", "aria-live": "polite" });
    this.boardBox = h("div", { class: "board-box", id: "board" });
    this.routeList = h("details", { class: "route-list", id: "route-list" });
    this.playersBox = h("section", { class: "panel", id: "players" });
    this.drawBox = h("section", { class: "panel", id: "draw" });
    this.handBox = h("section", { class: "panel", id: "hand" });
    this.ticketsBox = h("section", { class: "panel", id: "tickets" });
    this.finalBox = h("section", { class: "panel final", id: "final", hidden: true });
    this.logBox = h("section", { class: "panel", id: "log" });
    this.errorBox = h("p", { class: "error", id: "game-error", role: "alert" });
    const confirmBox = h("input", { type: "checkbox", id: "confirm-toggle", checked: localStorage.getItem(CONFIRM_KEY) === "1",
      onchange: (ev) => localStorage.setItem(CONFIRM_KEY, ev.target.checked ? "1" : "0") });
    this.hintButton = h("button", { type: "button", id: "hint-button", onclick: () => this.askHint(), "data-i18n": "game.hint" });
    this.hintBox = h("p", { class: "hint", id: "hint-text", "aria-live": "polite" });
    const tools = h("div", { class: "tools" },
      this.seat !== null ? this.hintButton : null,
      h("label", { class: "inline" }, confirmBox, h("span", { "data-i18n": "game.confirm" })),
      h("a", { class: "button", href: "#/", "data-i18n": "nav.lobby" }));
    // skip links, first in the game's Tab order: past the board's claimable routes and the route list
    // straight to the actions (the panel of a ticket choice or tunnel payment, else the draw panel)
    this.drawBox.setAttribute("tabindex", "-1");
    this.ticketsBox.setAttribute("tabindex", "-1");
    this.actionBox.setAttribute("tabindex", "-1");
    const skipTo = (target) => (ev) => {
      ev.preventDefault(); // not a fragment: the fragment is the page's route
      const el = target();
      el.focus();
      el.scrollIntoView({ block: "nearest" });
    };
    const actionsTarget = () => (!this.actionBox.hidden && this.actionBox.childElementCount ? this.actionBox : this.drawBox);
    this.main.append(h("nav", { class: "skip-links", id: "skip-links", "data-i18n-aria": "nav.skips" },
      h("a", { class: "skip-link", id: "skip-actions", href: "#draw", "data-i18n": "nav.skip_actions",
        onclick: skipTo(actionsTarget) }),
      this.seat !== null ? h("a", { class: "skip-link", id: "skip-tickets", href: "#tickets",
        "data-i18n": "nav.skip_tickets", onclick: skipTo(() => this.ticketsBox) }) : null));
    this.main.append(h("div", { class: "game" },
      h("div", { class: "board-col" }, this.turnBox, this.finalRoundBox, this.lastBox, this.errorBox, this.actionBox, this.boardBox, this.routeList),
      h("div", { class: "side-col" }, tools, this.hintBox, this.finalBox, this.playersBox, this.drawBox,
        this.handBox, this.ticketsBox, this.logBox)));
    this.board = new Board(this.boardBox, svgText, {
      onRoute: (index) => this.onRoute(index),
      onCity: (name) => this.onCity(name),
    });
    this.dialog = h("dialog", { class: "dialog", id: "dialog", onclose: () => { if (!this.dialog.open) this.reopen = null; } });
    this.reopen = null; // how to open the open dialog again (in another language)
    this.main.append(this.dialog);
    translateDom(this.main);
  }

  // ---- connection ----
  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(this.summary.id)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      ws.send(JSON.stringify(this.token ? { type: "join", token: this.token } : { type: "join" }));
    });
    ws.addEventListener("message", (ev) => this.onMessage(ev.data));
    ws.addEventListener("close", () => {
      if (this.stopped) return;
      this.retry = Math.min(this.retry + 1, 6);
      this.turnBox.textContent = t("game.reconnecting");
      setTimeout(() => { if (!this.stopped) this.connect(); }, 500 * this.retry);
    });
    this.pinger = this.pinger || setInterval(() => {
      if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "ping" }));
    }, 25000);
  }

  stop() {
    this.stopped = true;
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
    this.main.classList.remove("game-main");
  }

  onMessage(raw) {
    let msg;
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    if (msg.type === "snapshot" || msg.type === "update") {
      const first = !this.state;
      this.state = { version: msg.version, view: msg.view, legal: msg.legal || [], seats: msg.seats || [], status: msg.status,
        botsStopped: Boolean(msg.bots_stopped) };
      if (msg.type === "snapshot" && msg.seat !== undefined && msg.seat !== null && this.token) {
        // the token is good: this browser holds the seat ("your games")
        this.seat = msg.seat;
        saveSeat({ game: this.summary.id, seat: msg.seat, token: this.token,
          name: (msg.seats[msg.seat] || {}).name || "", map: this.summary.map });
      }
      this.pending = false;
      this.hint = null;
      this.errorBox.textContent = "";
      this.render();
      if (msg.last) announce(logText({ ...msg.last.action, player: msg.last.seat }, this.names()));
      else if (first) announce(this.turnText());
    } else if (msg.type === "seats") {
      if (this.state) {
        this.state.seats = msg.seats || this.state.seats;
        renderPlayers(this);
      }
    } else if (msg.type === "hint") {
      if (this.state && msg.version !== undefined && msg.version !== this.state.version) return; // for an older state
      this.hint = msg;
      this.renderHint();
    } else if (msg.type === "error") {
      this.pending = false;
      if (msg.code === "not_found" || msg.code === "bad_token") this.stopped = true; // no use reconnecting
      const text = t(`error.${msg.code}`) === `error.${msg.code}` ? msg.message : t(`error.${msg.code}`);
      if (this.stopped && !this.state) {
        this.showRefused(text, msg.code === "bad_token");
        return;
      }
      this.errorBox.textContent = msg.rule ? `${text} (${msg.rule}: ${msg.message})` : text;
      if (this.state) this.render();
    }
  }

  /** A link that opens no seat: say so, and offer to watch the game or go back to the lobby, in place of
   * an empty board and panels. */
  showRefused(text, canWatch) {
    clear(this.main);
    this.main.dataset.refused = "1";
    this.main.append(h("section", { class: "panel", id: "refused" },
      h("p", { class: "error", id: "game-error", role: "alert" }, text),
      h("div", { class: "row" },
        canWatch ? h("a", { class: "button", id: "watch-instead", href: `#/watch/${encodeURIComponent(this.summary.id)}` }, t("lobby.watch")) : null,
        h("a", { class: "button", href: "#/" }, t("nav.lobby")))));
  }

  send(entry) {
    if (this.pending || !this.state) return;
    const go = () => {
      this.pending = true;
      this.sentFrom = this.focusKey(document.activeElement); // the control is disabled until the answer
      this.ws.send(JSON.stringify({ type: "action", version: this.state.version, id: entry.id }));
      this.renderControlsDisabled();
    };
    if (document.getElementById("confirm-toggle").checked) {
      const ask = () => confirmMove(this, actionText(entry.action), go);
      ask();
      this.reopen = ask;
    }
    else go();
  }

  askHint() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.hintBox.textContent = t("game.hint_wait");
      this.ws.send(JSON.stringify({ type: "hint" }));
    }
  }

  relabel() {
    translateDom(this.main);
    this.board.relabel();
    if (this.state) this.render();
    if (this.dialog.open && this.reopen) this.reopen(); // an open dialog is worded again, in the new language
  }

  // ---- helpers ----
  names() {
    return this.state ? this.state.view.players.map((p) => p.name) : [];
  }

  myTurn() {
    const turn = this.state && this.state.view.turn;
    return Boolean(turn && this.seat !== null && turn.player === this.seat && this.state.legal.length);
  }

  legalOf(kind) {
    return this.state ? this.state.legal.filter((l) => l.action.action === kind) : [];
  }

  claimsByRoute() {
    const groups = new Map();
    for (const entry of this.legalOf("claim_route")) {
      const route = this.board.byName.get(entry.action.route);
      if (!route) continue;
      if (!groups.has(route.index)) groups.set(route.index, []);
      groups.get(route.index).push(entry);
    }
    for (const list of groups.values()) list.sort(byCost(this.wild));
    return groups;
  }

  stationsByCity() {
    const groups = new Map();
    for (const entry of this.legalOf("build_station")) {
      if (!groups.has(entry.action.city)) groups.set(entry.action.city, []);
      groups.get(entry.action.city).push(entry);
    }
    for (const list of groups.values()) list.sort(byCost(this.wild));
    return groups;
  }

  ownRoutes(seat) {
    const p = this.state.view.players[seat];
    return (p.routes || []).map((name) => this.board.byName.get(name)).filter(Boolean);
  }

  /** The log entries a person at this seat has not seen happen: everyone else's since this seat's last
   * action (a spectator, or a seat that just acted: the last entry), at most 8. */
  recentEntries() {
    const log = this.state.view.log || [];
    let start = log.length;
    if (this.seat !== null) {
      while (start > 0 && log[start - 1].player !== this.seat) start -= 1;
    }
    if (start >= log.length) start = log.length - 1;
    return log.slice(Math.max(0, start, log.length - 8));
  }

  /** The routes claimed and cities built on in `entries` (a tunnel's payment names no route: the claim
   * before it does). */
  recentPlaces(entries) {
    const routes = new Set();
    const cities = new Set();
    for (const e of entries) {
      if (e.action === "claim_route") {
        const r = this.board.byName.get(e.route);
        if (r) routes.add(r.index);
      } else if (e.action === "build_station") cities.add(e.city);
    }
    return { routes, cities };
  }

  renderLast() {
    const entries = this.recentEntries();
    const names = this.names();
    const mine = this.seat !== null && entries.length && entries[0].player !== this.seat;
    this.lastBox.hidden = !entries.length;
    this.lastBox.textContent = entries.length
      ? t(mine ? "game.since_yours" : "game.last_move", { moves: entries.map((e) => logText(e, names)).join(" ") })
      : "";
  }

  turnText() {
    const v = this.state.view;
    if (!v.turn) return t("game.over");
    if (this.state.botsStopped && !this.myTurn()) return t("game.bots_stopped"); // no bot moves any more
    const name = v.players[v.turn.player].name;
    if (this.myTurn()) {
      const noStations = v.turn.phase === "main" && this.mapData.rules && this.mapData.rules.stations === 0;
      return noStations ? t("turn.main_no_stations") : t(`turn.${v.turn.phase}`);
    }
    if (v.turn.phase === "choose_tickets") return t("turn.other_tickets", { name });
    return t("turn.other", { name });
  }

  // ---- rendering ----
  render() {
    const focusKey = this.focusKey(document.activeElement) || this.sentFrom;
    this.sentFrom = null;
    // the page stays where it was (a phone's one column: still at the actions after a move): neither the
    // panels drawn anew nor the focus put back may scroll it
    const [x, y] = [window.scrollX, window.scrollY];
    this.renderAll();
    const now = document.activeElement;
    if (focusKey && (!now || now === document.body || !this.main.contains(now))) this.restoreFocus(focusKey);
    if (window.scrollX !== x || window.scrollY !== y) window.scrollTo(x, y);
  }

  /** A selector for the control that has the focus inside the game (null: none), to find it again after
   * the panels are drawn anew. */
  focusKey(el) {
    if (!el || el === this.main || !this.main.contains(el)) return null;
    if (el.id) return `#${CSS.escape(el.id)}`;
    const d = el.dataset || {};
    if (d.act) {
      let sel = `[data-act="${CSS.escape(d.act)}"]`;
      if (d.slot !== undefined) sel += `[data-slot="${CSS.escape(d.slot)}"]`;
      if (d.route !== undefined) sel += `[data-route="${CSS.escape(d.route)}"]`;
      return sel;
    }
    if (d.route !== undefined) return `svg.board g.route[data-route="${CSS.escape(d.route)}"]`;
    if (d.ticket !== undefined) return `#ticket-list li[data-ticket="${CSS.escape(d.ticket)}"]`;
    return "#turn";
  }

  /** Keyboard users keep their place across updates: the same control if it can still be used, else the
   * turn line (which then says whose turn it is). */
  restoreFocus(key) {
    const el = this.main.querySelector(key);
    if (el && !el.disabled && el.getClientRects().length) el.focus({ preventScroll: true });
    else this.turnBox.focus({ preventScroll: true });
  }

  renderAll() {
    const v = this.state.view;
    this.main.dataset.version = String(this.state.version);
    this.main.dataset.phase = v.turn ? v.turn.phase : "game_over";
    this.main.dataset.myTurn = this.myTurn() ? "1" : "0";
    this.turnBox.textContent = this.turnText();
    this.turnBox.classList.toggle("mine", this.myTurn());
    this.renderLast();
    const left = v.final_turns;
    this.finalRoundBox.hidden = !left;
    this.finalRoundBox.dataset.turns = left ? String(left) : "";
    this.finalRoundBox.textContent = !left ? "" : left === 1 ? t("game.final_turn") : t("game.final_round", { n: left });
    this.renderBoard();
    this.renderRouteList();
    renderAction(this);
    renderPlayers(this);
    renderDraw(this);
    renderHand(this);
    renderTickets(this);
    renderLog(this);
    this.renderFinal();
    this.renderHint();
    if (this.seat !== null) this.hintButton.disabled = !this.myTurn();
  }

  renderControlsDisabled() {
    for (const el of this.main.querySelectorAll("[data-act]")) el.disabled = true;
  }

  boardState(extraPath) {
    const v = this.state.view;
    const { owners, stations } = this.board.holdings(v);
    const claimable = this.myTurn() ? new Set(this.claimsByRoute().keys()) : new Set();
    const stationCities = this.myTurn() ? new Set(this.stationsByCity().keys()) : new Set();
    let path = extraPath || new Set();
    if (!extraPath && v.final) path = expressPaths(v, this.board).all;
    const recent = v.final ? { routes: new Set(), cities: new Set() } : this.recentPlaces(this.recentEntries());
    return { owners, stations, claimable, stationCities, path, recentRoutes: recent.routes, recentCities: recent.cities,
      names: this.names() };
  }

  renderBoard(extraPath) {
    this.board.update(this.boardState(extraPath || this.pathHighlight));
  }

  renderRouteList() {
    const groups = this.claimsByRoute();
    clear(this.routeList);
    this.routeList.append(h("summary", {}, t("game.claimable_routes", { n: groups.size })));
    const list = h("ul", { class: "claim-list" });
    for (const [index, options] of groups) {
      list.append(h("li", {}, h("button", { type: "button", "data-act": "claim", dataset: { route: this.board.routes[index].name },
        onclick: () => openClaim(this, index) }, this.board.describe(index), " · ", cardsText(options[0].action.cards))));
    }
    this.routeList.append(list);
    // a seat always has the line (with its count), so that the panels below do not move up and down
    this.routeList.hidden = groups.size === 0 && this.seat === null;
  }

  renderFinal() {
    const v = this.state.view;
    this.finalBox.hidden = !v.final;
    if (!v.final) return;
    renderFinal(this.finalBox, v, this.mapData, this.board, { gameId: this.summary.id, seat: this.seat, onPath: (set) => { this.pathHighlight = set; this.renderBoard(); } });
  }

  renderHint() {
    if (!this.hint) {
      this.hintBox.textContent = "";
      return;
    }
    const entry = this.state && this.state.legal.find((l) => l.id === this.hint.id);
    const text = entry ? actionText(entry.action) : this.hint.text;
    const reason = reasonText(this.hint.reason_i18n, "");
    // a reason the page can word names the move itself ("Take the face-up red: ..."): no need to say it twice
    this.hintBox.textContent = reason ? t("game.hint_reason", { reason })
      : t("game.hint_is", { action: text, reason: this.hint.reason || "" });
    if (entry && entry.action.action === "claim_route") {
      const r = this.board.byName.get(entry.action.route);
      if (r) this.renderBoard(new Set([r.index]));
    }
  }

  // ---- board clicks ----
  onRoute(index) {
    if (!this.myTurn()) return;
    const groups = this.claimsByRoute();
    if (groups.has(index)) openClaim(this, index);
  }

  onCity(name) {
    if (!this.myTurn()) return;
    if (this.stationsByCity().has(name)) openStation(this, name);
  }

}

