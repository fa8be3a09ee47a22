// A game: the board, the turn line and what just happened, the connection, and every panel kept up to date
// (the side panels: game_panels.js; the action panel: game_actions.js; the claim, station and confirm
// dialogs: game_dialogs.js).
import { api, mapBundle, saveSeat } from "./api.js";
import { Board } from "./board.js";
import { byCost } from "./cards.js";
import { colorLetters } from "./colors.js";
import { h, clear, announce } from "./dom.js";
import { t, translateDom, splitPair } from "./i18n.js";
import { actionText, cardsText, logLines, reasonText } from "./words.js";
import { renderFinal, expressPaths } from "./final.js";
import { renderDraw, renderHand, renderLog, renderPlayers, renderTickets } from "./game_panels.js";
import { renderAction } from "./game_actions.js";
import { confirmMove, openClaim, openStation } from "./game_dialogs.js";
import { loadNameForms, seatName } from "./names.js";
import { renderLegend } from "./legend.js";
import { patternsOn, setPatterns } from "./patterns.js";
import { coachFor } from "./coach.js";
import { Motion } from "./motion.js";
import { play, setSound, soundOn } from "./sound.js";
import { hintMarks, narrowed, routesOnTicketPaths, setNarrowed, ticketMarks } from "./ticket_map.js";
import { claimSeat } from "./account.js";
import { ChatPanel } from "./chat.js";
import { ClockBar } from "./clock_ui.js";
import { notifyButton, resetTurnAlert, turnAlert } from "./turn_alert.js";

const CONFIRM_KEY = "ttr.confirm";
const CHAT_ERRORS = ["chat_empty", "chat_too_long", "not_seated", "rate_limited", "not_logged_in"]; // shown by the chat

/** A game at `#/play/...` or `#/watch/...`; `hooks.onState(msg)` (pass-and-play, table.js) sees each state
 * first and may hold back its drawing (false) while it changes seats; `byAccount` joins the logged-in
 * account's seat (no token in this browser). */
export async function showGame(main, { game, seat, token, hooks = null, byAccount = false }) {
  const summary = await api.game(game);
  const bundle = await mapBundle(summary.map);
  const view = new GameView(main, summary, bundle, seat, token);
  view.byAccount = byAccount;
  // the other languages' bot names, to word them in this one: not waited for (the game connects at once)
  loadNameForms().then(() => { if (view.state && !view.stopped) view.render(); });
  view.hooks = hooks;
  if (hooks && hooks.attach) hooks.attach(view);
  view.connect();
  return view;
}

/** Keep the page's bottom clear of the hand-and-draw bar while it is fixed there: `--dock-h`. */
function watchDock(dock) {
  if (typeof ResizeObserver === "undefined") return;
  const root = document.documentElement;
  new ResizeObserver(() => {
    const fixed = getComputedStyle(dock).position === "fixed";
    root.style.setProperty("--dock-h", fixed ? `${Math.ceil(dock.getBoundingClientRect().height)}px` : "0px");
  }).observe(dock);
}

class GameView {
  constructor(main, summary, bundle, seat, token) {
    this.main = main;
    this.summary = summary;
    this.mapData = bundle.data;
    this.seat = seat;
    this.token = token;
    this.wild = bundle.data.wild;
    this.colors = bundle.data.colors || [];
    this.letters = colorLetters(this.colors);
    this.points = new Map((bundle.data.tickets || []).map((tk) => [`${tk.a}-${tk.b}`, tk.points]));
    this.state = null; // {version, view, legal, seats, status, botsStopped}
    this.pending = false;
    this.stopped = false;
    this.retry = 0;
    this.hint = null;
    this.pathHighlight = null;
    this.ticketShown = null; // {name, pinned}: the ticket whose path the board shows (ticket_map.js)
    this.standIns = new Set(); // people who left, for whom the server's stand-in bot has moved
    this.motion = new Motion(this); // cards sliding, pieces laid, sounds (motion.js, sound.js)
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
    this.legendBox = h("section", { class: "legend", id: "legend" });
    this.playersBox = h("section", { class: "panel", id: "players" });
    this.drawBox = h("section", { class: "panel", id: "draw" });
    this.handBox = h("section", { class: "panel", id: "hand" });
    // the hand and the draw: a bar fixed at the bottom of the screen (phone and desktop), always in reach
    this.dock = h("div", { class: "dock", id: "dock" }, this.handBox, this.drawBox);
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
      this.summary.seed_chosen ? h("span", { class: "tag", id: "seed-chosen", "data-i18n": "seed.chosen",
        "data-i18n-title": "seed.chosen_title" }) : null,
      h("label", { class: "inline" }, confirmBox, h("span", { "data-i18n": "game.confirm" })),
      h("label", { class: "inline" }, h("input", { type: "checkbox", id: "sound-toggle", checked: soundOn(),
        onchange: (ev) => { setSound(ev.target.checked); if (ev.target.checked) play("turn"); } }), h("span", { "data-i18n": "settings.sound" })),
      h("label", { class: "inline" }, h("input", { type: "checkbox", id: "patterns-toggle", checked: patternsOn(),
        onchange: (ev) => setPatterns(ev.target.checked) }), h("span", { "data-i18n": "settings.patterns" })),
      h("a", { class: "button", href: `#/rules/${encodeURIComponent(this.summary.map)}`, target: "_blank", "data-i18n": "rules.link" }),
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
    this.clockBar = new ClockBar(() => this.names(), () => this.seat);
    resetTurnAlert();
    tools.append(notifyButton() || "");
    this.chat = new ChatPanel((m) => { if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(m)); }, this.seat, null);
    this.main.append(h("div", { class: "game" },
      h("div", { class: "board-col" }, this.turnBox, this.clockBar.box, this.finalRoundBox, this.finalBox, this.lastBox, this.errorBox, this.actionBox, this.boardBox, this.legendBox, this.routeList),
      h("div", { class: "side-col" }, tools, this.hintBox, this.playersBox, this.dock,
        this.ticketsBox, this.chat.box, this.logBox)));
    watchDock(this.dock);
    this.board = new Board(this.boardBox, svgText, {
      onRoute: (index) => this.onRoute(index),
      onCity: (name) => this.onCity(name),
    });
    this.dialog = h("dialog", { class: "dialog", id: "dialog", onclose: () => {
      if (!this.dialog.open) this.reopen = null;
      this.board.hideTip(); // a route's details close with its dialog
    } });
    this.reopen = null; // how to open the open dialog again (in another language)
    this.main.append(this.dialog);
    renderLegend(this.legendBox, this.mapData);
    translateDom(this.main);
  }

  // ---- connection ----
  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(this.summary.id)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      ws.send(JSON.stringify(this.token ? { type: "join", token: this.token }
        : this.byAccount ? { type: "join", seat: this.seat } : { type: "join" }));
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

  /** Switch this page's connection to another seat (`token`) or to watching (null): the server answers with a
   * snapshot of that seat's view (docs/web-protocol.md: `join` again on the same socket). */
  joinAs(token) {
    this.token = token;
    if (!token) {
      // leaving the seat (pass and play): its cards, tickets and choice leave the page at once, not when the
      // public view arrives
      for (const box of [this.handBox, this.ticketsBox, this.actionBox]) clear(box);
      this.main.dataset.myTurn = "0";
    }
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(token ? { type: "join", token } : { type: "join" }));
    }
  }

  stop() {
    this.stopped = true;
    for (const key of ["version", "phase", "myTurn", "table"]) delete this.main.dataset[key]; // the next page's own
    document.documentElement.style.setProperty("--dock-h", "0px");
    this.clockBar.stop();
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
    this.main.classList.remove("game-main");
  }

  /** An update carries the log from entry `log_from` on (docs/web-protocol.md): put the entries this page
   * already has before them. False (and a reconnect, whose snapshot is whole) if the page lacks some. */
  joinLog(msg, before) {
    const from = msg.log_from || 0;
    const had = before ? before.log || [] : [];
    if (had.length < from) {
      if (this.ws) this.ws.close();
      return false;
    }
    msg.view.log = had.slice(0, from).concat(msg.view.log || []);
    return true;
  }

  onMessage(raw) {
    let msg;
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    if (this.chat.onMessage(msg)) return; // chat and chat_history: chat.js
    if (this.clockBar.onMessage(msg)) return; // the clock: clock_ui.js
    if (msg.type === "error" && this.state && CHAT_ERRORS.includes(msg.code)) {
      this.chat.showError(msg.code, msg.message);
      return;
    }
    if (msg.type === "snapshot" || msg.type === "update") {
      const first = !this.state;
      const before = this.state ? this.state.view : null;
      if (msg.type === "update" && !this.joinLog(msg, before)) return;
      this.state = { version: msg.version, view: msg.view, legal: msg.legal || [], seats: msg.seats || [], status: msg.status,
        botsStopped: Boolean(msg.bots_stopped) };
      if (msg.type === "snapshot" && msg.seat !== undefined && msg.seat !== null && this.token) {
        // the token is good: this browser holds the seat ("your games")
        this.seat = msg.seat;
        saveSeat({ game: this.summary.id, seat: msg.seat, token: this.token,
          name: (msg.seats[msg.seat] || {}).name || "", map: this.summary.map });
        claimSeat(this.summary.id, msg.seat, this.token); // a logged-in player's seats follow them
      }
      if (msg.type === "snapshot") this.chat.setSeat(msg.seat, msg.seat === null ? null : (msg.seats[msg.seat] || {}).name);
      this.pending = false;
      this.hint = null;
      this.errorBox.textContent = "";
      this.noteStandIns(msg.last);
      if (this.hooks && this.hooks.table && msg.type === "snapshot") this.seat = msg.seat ?? null;
      if (this.hooks && this.hooks.onState && this.hooks.onState(msg) === false) return;
      this.render();
      this.motion.after(msg, msg.type === "update" ? before : null);
      turnAlert(this.myTurn(), this.turnText());
      if (msg.last) announce(this.logWords().at(-1) || "");
      else if (first) announce(this.turnText());
    } else if (msg.type === "seats") {
      if (this.state) {
        this.state.seats = msg.seats || this.state.seats;
        this.noteStandIns(null);
        renderPlayers(this);
        this.turnBox.textContent = this.turnText();
      }
    } else if (msg.type === "hint") {
      if (this.state && msg.version !== undefined && msg.version !== this.state.version) return; // for an older state
      this.hint = msg;
      this.renderHint();
      this.markHint();
    } else if (msg.type === "error") {
      this.pending = false;
      if (["not_found", "bad_token", "not_your_seat", "not_logged_in"].includes(msg.code)) this.stopped = true; // no use reconnecting
      const text = t(`error.${msg.code}`) === `error.${msg.code}` ? msg.message : t(`error.${msg.code}`);
      if (this.stopped && !this.state) {
        this.showRefused(text, msg.code === "bad_token");
        return;
      }
      this.errorBox.textContent = msg.rule ? `${text} (${msg.rule}: ${msg.message})` : text;
      if (this.state) this.render();
    }
  }

  /** A move made for a person who is not here was the stand-in bot's: that seat is played by a bot until
   * its person comes back. */
  noteStandIns(last) {
    const seats = this.state.seats;
    if (last && seats[last.seat] && seats[last.seat].type === "human" && !seats[last.seat].connected) this.standIns.add(last.seat);
    for (const seat of [...this.standIns]) if (!seats[seat] || seats[seat].connected) this.standIns.delete(seat);
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

  /** Send a move; with "Confirm each move" it is asked first, and `change` (the dialog it was chosen in,
   * opened again with this choice) lets the player pick another before anything is sent. */
  send(entry, change = null) {
    if (this.pending || !this.state) return;
    const go = () => {
      this.pending = true;
      this.sentFrom = this.focusKey(document.activeElement); // the control is disabled until the answer
      if (this.motion) this.motion.sent(entry);
      this.ws.send(JSON.stringify({ type: "action", version: this.state.version, id: entry.id }));
      this.renderControlsDisabled();
    };
    if (document.getElementById("confirm-toggle").checked) {
      const ask = () => confirmMove(this, actionText(entry.action), go, change);
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
    renderLegend(this.legendBox, this.mapData);
    this.chat.relabel();
    this.board.relabel();
    if (this.state) this.render();
    if (this.dialog.open && this.reopen) this.reopen(); // an open dialog is worded again, in the new language
  }

  // ---- helpers ----
  /** The cities of this seat's tickets, offered and held (a spectator: none). */
  citiesThatMatter() {
    if (this.seat === null || !this.state) return [];
    const v = this.state.view;
    const mine = v.players[this.seat] || {};
    const offered = (v.turn && v.turn.player === this.seat && v.turn.tickets_offered) || [];
    return [...offered, ...(mine.tickets || [])].flatMap((name) => splitPair(name));
  }

  names() {
    if (!this.state) return [];
    return this.state.view.players.map((p, i) => seatName(this.state.seats[i], p.name, i));
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

  /** Every log entry in words, each read with the ones around it (a tunnel tried, then claimed or given up). */
  logWords() {
    const v = this.state.view;
    return logLines(v.log || [], this.names(), Boolean(v.turn && v.turn.phase === "tunnel_payment"));
  }

  renderLast() {
    const entries = this.recentEntries();
    const all = this.logWords();
    const lines = all.slice(all.length - entries.length);
    const mine = this.seat !== null && entries.length && entries[0].player !== this.seat;
    this.lastBox.hidden = !entries.length;
    this.lastBox.textContent = entries.length
      ? t(mine ? "game.since_yours" : "game.last_move", { moves: lines.join(" ") })
      : "";
  }

  turnText() {
    const v = this.state.view;
    if (!v.turn) return t("game.over");
    if (this.state.botsStopped && !this.myTurn()) return t("game.bots_stopped"); // no bot moves any more
    const name = this.names()[v.turn.player];
    if (this.myTurn()) {
      const noStations = v.turn.phase === "main" && this.mapData.rules && this.mapData.rules.stations === 0;
      return noStations ? t("turn.main_no_stations") : t(`turn.${v.turn.phase}`);
    }
    if (this.standIns.has(v.turn.player)) return t("turn.stand_in", { name });
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
    if (this.scrollToFinal) {
      this.scrollToFinal = false;
      this.finalBox.scrollIntoView({ block: "start" });
    }
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
    if (!this.viewStarted) {
      this.viewStarted = true;
      this.board.startView(this.citiesThatMatter());
    }
    this.renderRouteList();
    renderAction(this);
    renderPlayers(this);
    renderDraw(this);
    renderHand(this);
    renderTickets(this);
    renderLog(this);
    this.renderFinal();
    this.renderHint();
    this.markHint();
    if (this.seat !== null) this.hintButton.disabled = !this.myTurn();
    if (this.coach === undefined) this.coach = coachFor(this); // the guided first game's coach (coach.js)
    if (this.coach) this.coach.render();
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
    // claimable routes off the seat's ticket paths are drawn without their highlight (when narrowed)
    const onPaths = this.myTurn() && narrowed() ? routesOnTicketPaths(this) : null;
    const quiet = onPaths ? new Set([...claimable].filter((i) => !onPaths.has(i))) : new Set();
    // and the cities where a station may go, but for those on the paths (and the tickets' own cities)
    const pathCities = new Set(onPaths ? [...onPaths].flatMap((i) => [this.board.routes[i].a, this.board.routes[i].b]) : []);
    for (const c of this.citiesThatMatter()) pathCities.add(c);
    const quietCities = onPaths ? new Set([...stationCities].filter((c) => !pathCities.has(c))) : new Set();
    const shown = extraPath ? null : ticketMarks(this);
    const hint = this.hintMarks || hintMarks(this, null, null);
    const marked = new Set([...(shown ? shown.marked : []), ...hint.ticketCities]);
    return { owners, stations, claimable, stationCities, path: shown ? shown.path : path, pathTodo: shown ? shown.pathTodo : new Set(),
      marked, quiet, quietCities, hinted: hint.routes, hintedCities: hint.cities,
      recentRoutes: recent.routes, recentCities: recent.cities, names: this.names() };
  }

  renderBoard(extraPath) {
    this.board.update(this.boardState(extraPath || this.pathHighlight));
  }

  renderRouteList() {
    const groups = this.claimsByRoute();
    const open = this.routeList.open;
    clear(this.routeList);
    const onPaths = this.seat !== null ? routesOnTicketPaths(this) : null;
    const count = onPaths ? [...groups.keys()].filter((i) => onPaths.has(i)).length : null;
    this.routeList.append(h("summary", {}, t("game.claimable_routes", { n: groups.size }),
      count !== null && groups.size ? h("span", { class: "on-path-count" }, " ", t("paths.on_paths_count", { n: count })) : null));
    if (this.seat !== null) {
      this.routeList.append(h("label", { class: "inline narrow" },
        h("input", { type: "checkbox", id: "narrow-toggle", checked: narrowed(), onchange: (ev) => { setNarrowed(ev.target.checked); this.renderBoard(); } }),
        h("span", {}, t("paths.narrow"))));
    }
    const list = h("ul", { class: "claim-list" });
    // the routes on your tickets' paths first
    const order = [...groups.entries()].sort(([a], [b]) => Number(Boolean(onPaths && onPaths.has(b))) - Number(Boolean(onPaths && onPaths.has(a))));
    for (const [index, options] of order) {
      list.append(h("li", {}, h("button", { type: "button", "data-act": "claim", dataset: { route: this.board.routes[index].name },
        onclick: () => openClaim(this, index) }, this.board.describe(index), " · ", cardsText(options[0].action.cards),
      onPaths && onPaths.has(index) ? h("span", { class: "on-path-tag" }, t("paths.on_path")) : null)));
    }
    this.routeList.append(list);
    this.routeList.open = open;
    // a seat always has the line (with its count), so that the panels below do not move up and down
    this.routeList.hidden = groups.size === 0 && this.seat === null;
  }

  /** The final result, above the board at the board's width; scrolled into view when the game ends. */
  renderFinal() {
    const v = this.state.view;
    this.finalBox.hidden = !v.final;
    if (!v.final) return;
    renderFinal(this.finalBox, v, this.mapData, this.board, { gameId: this.summary.id, names: this.names(), seat: this.seat,
      onPath: (set) => { this.pathHighlight = set; this.renderBoard(); } });
    if (!this.finalShown) {
      this.finalShown = true;
      this.scrollToFinal = true; // after render() has put the page back where it was
    }
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
  }

  /** Draw the hint's move on the board and the panels: its route, city, face-up card or tickets, and the
   * cities of the tickets its reason serves. */
  markHint() {
    const entry = this.hint && this.state ? this.state.legal.find((l) => l.id === this.hint.id) : null;
    this.hintMarks = this.hint ? hintMarks(this, this.hint, entry) : null;
    const marks = this.hintMarks;
    for (const el of this.main.querySelectorAll(".hinted:not(g)")) el.classList.remove("hinted");
    if (marks && marks.card) {
      const slot = this.drawBox.querySelector(`button.slot[data-card="${CSS.escape(marks.card)}"]`);
      if (slot) slot.classList.add("hinted");
    }
    if (marks) for (const li of this.actionBox.querySelectorAll("li[data-ticket]")) li.classList.toggle("hinted", marks.tickets.has(li.dataset.ticket));
    this.renderBoard();
    if (marks) this.board.showCities([...marks.cities, ...marks.ticketCities,
      ...[...marks.routes].flatMap((i) => [this.board.routes[i].a, this.board.routes[i].b])]);
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

