// A game: the board, your hand and tickets, every action by clicking, the log, hints, the end.
import { api, mapBundle, saveSeat } from "./api.js";
import { Board } from "./board.js";
import { cardChip } from "./cards.js";
import { colorLetters, playerStyle } from "./colors.js";
import { h, clear, announce } from "./dom.js";
import { t, city, levelLabel, pairName, translateDom } from "./i18n.js";
import { ticketPath } from "./graph.js";
import { actionText, cardsText, logText, reasonText } from "./words.js";
import { renderFinal, expressPaths } from "./final.js";

const CONFIRM_KEY = "ttr.confirm";

export async function showGame(main, { game, seat, token }) {
  const summary = await api.game(game);
  const bundle = await mapBundle(summary.map);
  const view = new GameView(main, summary, bundle, seat, token);
  view.connect();
  return view;
}

/** Cheapest first: fewest wild cards, then fewest cards. */
function wildCount(action, wild) {
  return (action.cards && action.cards[wild]) || 0;
}
function byCost(wild) {
  return (x, y) => wildCount(x.action, wild) - wildCount(y.action, wild)
    || Object.values(x.action.cards || {}).reduce((a, b) => a + b, 0) - Object.values(y.action.cards || {}).reduce((a, b) => a + b, 0);
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
        this.renderPlayers();
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
      const ask = () => this.confirm(actionText(entry.action), go);
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
    this.renderAction();
    this.renderPlayers();
    this.renderDraw();
    this.renderHand();
    this.renderTickets();
    this.renderLog();
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
        onclick: () => this.openClaim(index) }, this.board.describe(index), " · ", cardsText(options[0].action.cards))));
    }
    this.routeList.append(list);
    // a seat always has the line (with its count), so that the panels below do not move up and down
    this.routeList.hidden = groups.size === 0 && this.seat === null;
  }

  renderAction() {
    const box = clear(this.actionBox);
    box.hidden = true;
    if (!this.myTurn()) return;
    const phase = this.state.view.turn.phase;
    if (phase === "choose_tickets") {
      box.hidden = false;
      this.renderTicketChoice(box);
    } else if (phase === "tunnel_payment") {
      box.hidden = false;
      this.renderTunnel(box);
    } else if (this.legalOf("pass").length) {
      box.hidden = false;
      const entry = this.legalOf("pass")[0];
      box.append(h("p", {}, t("game.only_pass")), h("button", { type: "button", "data-act": "pass", id: "pass-button", onclick: () => this.send(entry) }, t("act.pass")));
    }
  }

  renderTicketChoice(box) {
    const offered = this.state.view.turn.tickets_offered || [];
    const keeps = this.legalOf("keep_tickets");
    const key = (list) => list.slice().sort().join("|");
    const byKey = new Map(keeps.map((k) => [key(k.action.tickets), k]));
    const minKeep = Math.min(...keeps.map((k) => k.action.tickets.length));
    box.append(h("h2", { id: "choose-h" }, t("tickets.choose")), h("p", {}, t("tickets.keep_min", { n: minKeep })));
    const boxes = [];
    const list = h("ul", { class: "ticket-offer", "aria-labelledby": "choose-h" });
    const keepButton = h("button", { type: "button", class: "primary", id: "keep-tickets", "data-act": "keep" }, t("tickets.keep"));
    const update = () => {
      const chosen = offered.filter((_, i) => boxes[i].checked);
      const entry = byKey.get(key(chosen));
      keepButton.disabled = !entry || this.pending;
      keepButton.onclick = entry ? () => this.send(entry) : null;
    };
    offered.forEach((name, i) => {
      const cb = h("input", { type: "checkbox", id: `offer-${i}`, checked: true, dataset: { ticket: name }, onchange: update });
      boxes.push(cb);
      const pts = this.points.get(name);
      list.append(h("li", {}, h("label", { for: `offer-${i}` }, cb, " ", pairName(name), pts !== undefined ? h("span", { class: "points" }, t("tickets.points", { n: pts })) : null)));
    });
    box.append(list, keepButton);
    update();
  }

  renderTunnel(box) {
    const turn = this.state.view.turn;
    const pays = this.legalOf("pay_tunnel").sort(byCost(this.wild));
    const abandon = this.legalOf("abandon_tunnel")[0];
    box.append(h("h2", {}, t("tunnel.title", { route: pairName(turn.tunnel_route || "") })),
      h("p", { class: "reveal", id: "tunnel-reveal" }, t("tunnel.revealed"), " ",
        (turn.tunnel_reveal || []).map((c) => cardChip(c, this.letters))),
      h("p", { id: "tunnel-extra" }, t("tunnel.extra", { n: turn.tunnel_extra ?? "?" })));
    const row = h("div", { class: "row" });
    pays.forEach((entry, i) => row.append(h("button", { type: "button", class: i === 0 ? "primary" : "", "data-act": "pay",
      onclick: () => this.send(entry) }, t("tunnel.pay", { cards: cardsText(entry.action.cards) }))));
    if (!pays.length) row.append(h("p", {}, t("tunnel.cannot_pay")));
    if (abandon) row.append(h("button", { type: "button", id: "abandon-tunnel", "data-act": "abandon", onclick: () => this.send(abandon) }, t("tunnel.give_up")));
    box.append(row);
  }

  renderPlayers() {
    const v = this.state.view;
    const box = clear(this.playersBox);
    box.append(h("h2", {}, t("game.players")));
    const rules = this.mapData.rules || {};
    const stationsOn = rules.stations !== 0;
    const piecesAreTaxis = rules.piece_name === "taxis";
    const table = h("table", { class: "players" },
      h("thead", {}, h("tr", {}, ["game.player", "game.score", "game.trains", stationsOn ? "game.stations" : null, "game.cards", "game.tickets"]
        .filter(Boolean).map((k) => h("th", { scope: "col" }, k === "game.trains" && piecesAreTaxis ? t("game.taxis") : t(k))))));
    const body = h("tbody");
    v.players.forEach((p, i) => {
      const style = playerStyle(i);
      const seatInfo = this.state.seats[i] || {};
      const isTurn = v.turn && v.turn.player === i;
      const handSize = p.hand ? Object.values(p.hand).reduce((a, b) => a + b, 0) : p.hand_size;
      const tickets = p.tickets ? p.tickets.length : p.ticket_count;
      const marker = h("span", { class: "player-mark", "aria-hidden": "true" }, style.symbol);
      marker.style.background = style.fill;
      marker.style.color = i === 3 ? "#111" : "#fff";
      body.append(h("tr", { class: isTurn ? "current" : "", dataset: { seat: i } },
        h("th", { scope: "row" }, marker, " ", p.name,
          i === this.seat ? h("span", { class: "tag" }, t("game.you")) : null,
          seatInfo.type === "bot" ? h("span", { class: "tag" }, levelLabel(seatInfo.level)) : null,
          seatInfo.type === "human" && !seatInfo.connected && i !== this.seat ? h("span", { class: "tag off" }, t("game.away")) : null,
          isTurn ? h("span", { class: "visually-hidden" }, t("game.their_turn")) : null),
        h("td", { class: "score" }, p.score), h("td", {}, p.trains), stationsOn ? h("td", {}, p.stations) : null,
        h("td", {}, handSize), h("td", {}, tickets)));
    });
    table.append(body);
    box.append(h("div", { class: "table-scroll" }, table));
  }

  renderDraw() {
    const v = this.state.view;
    const box = clear(this.drawBox);
    box.append(h("h2", {}, t("game.draw")));
    const faceUp = new Map(this.legalOf("draw_card").filter((l) => l.action.from === "face_up").map((l) => [l.action.card, l]));
    const row = h("div", { class: "face-up", role: "group", "aria-label": t("game.face_up") });
    v.face_up.forEach((card, i) => {
      if (!card) {
        row.append(h("span", { class: "slot empty" }, t("game.empty_slot")));
        return;
      }
      const entry = faceUp.get(card);
      row.append(h("button", { type: "button", class: "slot", "data-act": "face-up", dataset: { card, slot: i }, disabled: !entry || this.pending,
        "aria-label": t("act.draw_face_up", { card: t(`color.${card}`) }), onclick: () => entry && this.send(entry) }, cardChip(card, this.letters)));
    });
    const deck = this.legalOf("draw_card").find((l) => l.action.from === "deck");
    const tickets = this.legalOf("draw_tickets")[0];
    const stations = this.stationsByCity();
    box.append(row, h("div", { class: "row" },
      h("button", { type: "button", id: "draw-deck", "data-act": "deck", disabled: !deck || this.pending, onclick: () => deck && this.send(deck) },
        t("game.deck", { n: v.deck_size })),
      h("button", { type: "button", id: "draw-tickets", "data-act": "tickets", disabled: !tickets || this.pending, onclick: () => tickets && this.send(tickets) },
        t("game.draw_tickets", { n: v.ticket_deck_size })),
      this.mapData.rules && this.mapData.rules.stations === 0 ? null
        : h("button", { type: "button", id: "build-station", "data-act": "station", disabled: !stations.size || this.pending, onclick: () => this.openStation(null) },
          t("game.build_station"))),
      h("p", { class: "note" }, t("game.discard", { n: v.discard_size })));
  }

  renderHand() {
    const box = clear(this.handBox);
    box.hidden = this.seat === null;
    if (this.seat === null) return;
    const hand = this.state.view.players[this.seat].hand || {};
    box.append(h("h2", {}, t("game.hand")));
    const list = h("ul", { class: "hand", id: "hand-cards" });
    for (const card of [...this.colors, this.wild]) {
      if (hand[card]) list.append(h("li", {}, cardChip(card, this.letters, hand[card])));
    }
    if (!list.children.length) list.append(h("li", {}, t("cards.none")));
    box.append(list);
  }

  renderTickets() {
    const box = clear(this.ticketsBox);
    box.hidden = this.seat === null;
    if (this.seat === null) return;
    const tickets = this.state.view.players[this.seat].tickets || [];
    const routes = this.ownRoutes(this.seat);
    // once the game is over, the final scoring says which tickets were completed (stations' borrowed routes
    // included) and the others have failed; until then, a ticket is done when its own routes join it
    const final = this.state.view.final ? this.state.view.final.players[this.seat] : null;
    box.append(h("h2", {}, t("game.your_tickets")));
    const list = h("ul", { class: "tickets", id: "ticket-list" });
    for (const name of tickets) {
      const path = ticketPath(name, routes);
      const done = final ? final.tickets_completed.includes(name) : path !== null;
      const failed = final !== null && !done;
      const pts = this.points.get(name);
      const show = () => {
        this.pathHighlight = new Set((path || []).map((r) => r.index));
        this.renderBoard();
      };
      const hide = () => {
        this.pathHighlight = null;
        this.renderBoard();
      };
      list.append(h("li", { class: done ? "done" : failed ? "failed" : "open", tabindex: 0,
        dataset: { ticket: name, done: done ? "1" : "0" },
        onmouseenter: show, onfocus: show, onmouseleave: hide, onblur: hide },
        h("span", { class: "mark", "aria-hidden": "true" }, done ? "✔" : failed ? "✘" : "○"), " ", pairName(name),
        pts !== undefined ? h("span", { class: "points" }, t("tickets.points", { n: pts })) : null, " ",
        h("span", { class: "state" }, done ? t("tickets.done") : failed ? t("tickets.failed") : t("tickets.not_yet"))));
    }
    if (!tickets.length) list.append(h("li", {}, t("tickets.none")));
    box.append(list);
  }

  renderLog() {
    const box = clear(this.logBox);
    box.append(h("h2", {}, t("game.log")));
    const names = this.names();
    const list = h("ol", { class: "log", id: "log-list" });
    for (const entry of this.state.view.log || []) list.append(h("li", {}, logText(entry, names)));
    box.append(list);
    list.scrollTop = list.scrollHeight;
  }

  renderFinal() {
    const v = this.state.view;
    this.finalBox.hidden = !v.final;
    if (!v.final) return;
    renderFinal(this.finalBox, v, this.mapData, this.board, { gameId: this.summary.id, onPath: (set) => { this.pathHighlight = set; this.renderBoard(); } });
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

  // ---- dialogs ----
  onRoute(index) {
    if (!this.myTurn()) return;
    const groups = this.claimsByRoute();
    if (groups.has(index)) this.openClaim(index);
  }

  onCity(name) {
    if (!this.myTurn()) return;
    if (this.stationsByCity().has(name)) this.openStation(name);
  }

  openDialog(title, content, buttons) {
    const dlg = clear(this.dialog);
    dlg.append(h("h2", { id: "dialog-title" }, title), content, h("div", { class: "row" }, buttons));
    dlg.setAttribute("aria-labelledby", "dialog-title");
    if (!dlg.open) dlg.showModal();
    const first = dlg.querySelector("input:checked, button.primary, button");
    if (first) first.focus();
  }

  closeDialog() {
    if (this.dialog.open) this.dialog.close();
  }

  /** Card-set choice as radio buttons, the first (cheapest) checked. */
  optionList(options, name) {
    const list = h("ul", { class: "options", role: "radiogroup" });
    options.forEach((entry, i) => {
      const id = `${name}-${i}`;
      list.append(h("li", {}, h("label", { for: id },
        h("input", { type: "radio", name, id, value: String(i), checked: i === 0 }), " ",
        Object.entries(entry.action.cards).map(([c, n]) => cardChip(c, this.letters, n)))));
    });
    return list;
  }

  openClaim(index) {
    const options = this.claimsByRoute().get(index);
    if (!options) return;
    this.reopen = () => this.openClaim(index);
    const r = this.board.routes[index];
    const content = h("div", {}, h("p", {}, this.board.describe(index)),
      r.tunnel ? h("p", { class: "note" }, t("claim.tunnel_note")) : null,
      h("p", {}, t("claim.choose")), this.optionList(options, "claim-option"));
    this.openDialog(t("claim.title", { route: pairName(r.name) }), content, [
      h("button", { type: "button", class: "primary", id: "claim-confirm", onclick: () => {
        const chosen = this.dialog.querySelector("input[name=claim-option]:checked");
        this.closeDialog();
        this.send(options[Number(chosen ? chosen.value : 0)]);
      } }, t("claim.do")),
      h("button", { type: "button", onclick: () => this.closeDialog() }, t("dialog.cancel")),
    ]);
  }

  openStation(cityName) {
    const groups = this.stationsByCity();
    if (!groups.size) return;
    this.reopen = () => this.openStation(cityName);
    const cities = [...groups.keys()].sort((a, b) => city(a).localeCompare(city(b)));
    let chosenCity = cityName && groups.has(cityName) ? cityName : cities[0];
    const optionsBox = h("div");
    const fill = () => clear(optionsBox).append(this.optionList(groups.get(chosenCity), "station-option"));
    const select = h("select", { id: "station-city", onchange: (ev) => { chosenCity = ev.target.value; fill(); } },
      cities.map((c) => h("option", { value: c, selected: c === chosenCity }, city(c))));
    fill();
    const content = h("div", {}, h("p", {}, t("station.note")),
      h("label", { class: "field" }, h("span", {}, t("station.city")), select), optionsBox);
    this.openDialog(t("station.title"), content, [
      h("button", { type: "button", class: "primary", id: "station-confirm", onclick: () => {
        const chosen = this.dialog.querySelector("input[name=station-option]:checked");
        const entry = groups.get(chosenCity)[Number(chosen ? chosen.value : 0)];
        this.closeDialog();
        this.send(entry);
      } }, t("station.do")),
      h("button", { type: "button", onclick: () => this.closeDialog() }, t("dialog.cancel")),
    ]);
  }

  confirm(text, go) {
    this.openDialog(t("confirm.title"), h("p", {}, text), [
      h("button", { type: "button", class: "primary", id: "confirm-yes", onclick: () => { this.closeDialog(); go(); } }, t("confirm.yes")),
      h("button", { type: "button", onclick: () => this.closeDialog() }, t("dialog.cancel")),
    ]);
  }
}

