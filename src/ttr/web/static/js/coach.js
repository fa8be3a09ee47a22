// The guided first game (`Learn to play` in the lobby), from the script in `/tutorial/europe.json`: Europe
// against an easy bot from a chosen deal, with a coach above the board that walks through each kind of move
// in turn (the tickets, drawing, claiming, more tickets, a tunnel, a ferry, a station) and explains the final
// scoring. Each step waits until the player has done its thing (its `done` condition, read from the log);
// while the player plays the script's moves, the coach names the next one and marks it on the page (the deal
// was chosen so that those moves reach every step: tests/server/test_tutorial_deal.py).
import { api, saveSeat } from "./api.js";
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { actionText } from "./words.js";

const KEY = "ttr.tutorial"; // {game, script}: the guided game and its script
export const SCRIPT_URL = "/tutorial/europe.json";

/** Start the guided game: create it from the script's deal, remember it, and open its seat. */
export async function startTutorial() {
  const res = await fetch(SCRIPT_URL);
  if (!res.ok) throw new Error(`${SCRIPT_URL}: ${res.status}`);
  const script = await res.json();
  const game = await api.createGame({ map: script.map, when_people_leave: "wait",
    seats: [{ type: "human", name: t("lobby.you") }, { type: "bot", level: script.bot }] }, script.seed);
  const me = game.seats[0];
  saveSeat({ game: game.id, seat: me.seat, token: me.token, name: me.name, map: script.map });
  localStorage.setItem(KEY, JSON.stringify({ game: game.id, script }));
  location.hash = `#/play/${game.id}/${me.seat}/${encodeURIComponent(me.token)}`;
}

/** The coach of game view `gv` when it is the guided game, else null. */
export function coachFor(gv) {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "null");
  } catch {
    saved = null;
  }
  if (!saved || saved.game !== gv.summary.id || gv.seat === null || !saved.script) return null;
  return new Coach(gv, saved.script);
}

/** Whether log entry `entry` (this seat's own) is the script's move `move` (the fields a move names). */
function sameMove(entry, move) {
  if (entry.action !== move.action) return false;
  const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const cards = (c) => Object.fromEntries(Object.entries(c || {}).sort());
  switch (move.action) {
    case "draw_card":
      return entry.from === move.from && (move.from === "deck" || entry.card === move.card);
    case "claim_route":
      return entry.route === move.route && same(cards(entry.cards), cards(move.cards));
    case "build_station":
      return entry.city === move.city && same(cards(entry.cards), cards(move.cards));
    case "pay_tunnel":
      return same(cards(entry.cards), cards(move.cards));
    case "keep_tickets":
      return same([...(entry.tickets || [])].sort(), [...move.tickets].sort());
    default:
      return true;
  }
}

/** Scroll the coach's box into the window when part of it is out (a phone's one column, scrolled to the board). */
function revealBox(box) {
  const r = box.getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight) box.scrollIntoView({ block: "nearest" });
}

/** Scroll the page (not the board) so that a marked route or city is in the window above the bar. */
function revealSpot(el) {
  const r = el.getBoundingClientRect();
  const dock = document.getElementById("dock");
  const bottom = window.innerHeight - (dock ? dock.getBoundingClientRect().height : 0) - 8;
  if (r.bottom > bottom) window.scrollBy(0, Math.min(r.bottom - bottom, Math.max(0, r.top - 8)));
  else if (r.top < 0) window.scrollBy(0, r.top - 8);
}

class Coach {
  constructor(gv, script) {
    this.gv = gv;
    this.script = script;
    this.steps = script.steps;
    this.moves = script.steps.flatMap((s) => s.moves);
    this.shownMove = -1; // the script's move the board was last turned to
    this.box = h("section", { class: "panel coach", id: "coach", "aria-live": "polite" });
    // a wide screen: at the top of the side column, beside the board (which then keeps its whole frame in
    // the window); a phone's one column: under the turn line, above the board
    const side = gv.main.querySelector(".side-col");
    if (side && typeof matchMedia === "function" && matchMedia("(min-width: 821px)").matches) side.prepend(this.box);
    else gv.turnBox.after(this.box);
  }

  /** This seat's own log entries. */
  own() {
    return (this.gv.state.view.log || []).filter((e) => e.player === this.gv.seat);
  }

  /** Whether a step's `done` condition holds: log entries of some actions (with a field), routes of a kind
   * owned, or the game over; never while its decision (`not_while`, a phase) is still open. */
  done(step) {
    const v = this.gv.state.view;
    const d = step.done;
    if (d.over) return Boolean(v.final);
    if (d.not_while && v.turn && v.turn.player === this.gv.seat && v.turn.phase === d.not_while) return false;
    if (d.owns) return this.gv.ownRoutes(this.gv.seat).filter((r) => Boolean(r[d.owns])).length >= d.count;
    return this.own().filter((e) => d.log.includes(e.action) && (!d.with || e[d.with] !== undefined)).length >= d.count;
  }

  /** The step to show: the first not done (the last, the final scoring, once the game is over). */
  current() {
    const last = this.steps[this.steps.length - 1];
    if (this.gv.state.view.final) return last;
    return this.steps.find((s) => s !== last && !this.done(s)) || last;
  }

  /** The index of the script's next move while every move of this seat so far was the script's, else -1. */
  nextMove() {
    const own = this.own();
    if (own.length >= this.moves.length) return -1;
    return own.every((e, i) => sameMove(e, this.moves[i])) ? own.length : -1;
  }

  /** The index among `options` (legal entries) of the script's next move, or -1 (the dialogs preselect it). */
  choiceIn(options) {
    const k = this.nextMove();
    if (k < 0) return -1;
    const move = this.moves[k];
    return options.findIndex((o) => sameMove(o.action, move));
  }

  /** The city the script builds its next station in, or null. */
  stationCity() {
    const k = this.nextMove();
    return k >= 0 && this.moves[k].action === "build_station" ? this.moves[k].city : null;
  }

  render() {
    const gv = this.gv;
    const step = this.current();
    const over = Boolean(gv.state.view.final);
    const last = step === this.steps[this.steps.length - 1];
    const waiting = last && !over;
    const k = this.nextMove();
    const move = k >= 0 && !last ? this.moves[k] : null;
    const mine = gv.myTurn();
    const nextLine = move && mine ? h("p", { id: "coach-next", class: "coach-next" }, t("coach.next", { move: actionText(move) }))
      : !last && k < 0 && this.own().length ? h("p", { id: "coach-own", class: "note" }, t("coach.own_way")) : null;
    clear(this.box).append(...[
      h("h2", {}, t("coach.step", { k: this.steps.indexOf(step) + 1, n: this.steps.length, title: t(`coach.${step.id}.title`) })),
      h("p", { id: "coach-text", dataset: { lesson: step.id } }, t(waiting ? "coach.play_on" : `coach.${step.id}`,
        { points: (gv.mapData.rules || {}).unbuilt_station_points })),
      nextLine,
      h("div", { class: "row" },
        h("button", { type: "button", id: "coach-end", onclick: () => this.end() }, t(over ? "coach.finish" : "coach.end")),
        h("a", { class: "button", href: `#/rules/${encodeURIComponent(this.script.map)}`, target: "_blank" }, t("rules.link"))),
    ].filter(Boolean));
    this.box.dataset.lesson = step.id;
    this.box.dataset.next = move && mine ? JSON.stringify(move) : "";
    this.unmark();
    const target = step.target && gv.main.querySelector(step.target);
    if (target && !waiting) target.classList.add("coach-target");
    if (move && mine) this.mark(move, k);
    if (this.shownStep !== step.id) {
      // a new step: its words into view (after the game view has put the page back where it was)
      const first = this.shownStep === undefined;
      this.shownStep = step.id;
      if (!first) setTimeout(() => revealBox(this.box), 0);
    }
  }

  /** Mark the script's next move where it is done: the card, the deck, the route (turned into view), the
   * tickets to keep, the payment, the station's city. */
  mark(move, k) {
    const gv = this.gv;
    const add = (el) => el && el.classList.add("coach-move");
    const esc = (s) => CSS.escape(s);
    switch (move.action) {
      case "draw_card":
        add(move.from === "deck" ? gv.main.querySelector("#draw-deck")
          : gv.main.querySelector(`#draw button.slot[data-card="${esc(move.card)}"]`));
        break;
      case "claim_route": {
        add(gv.main.querySelector(`svg.board g.route[data-route="${esc(move.route)}"]`));
        add(gv.main.querySelector(`#route-list button[data-route="${esc(move.route)}"]`));
        const r = gv.board.byName.get(move.route);
        if (r && this.shownMove !== k) gv.board.showCities([r.a, r.b]);
        break;
      }
      case "build_station":
        add(gv.main.querySelector("#build-station"));
        add(gv.main.querySelector(`svg.board g.city[data-city="${esc(move.city)}"]`));
        if (this.shownMove !== k) gv.board.showCities([move.city]);
        break;
      case "draw_tickets":
        add(gv.main.querySelector("#draw-tickets"));
        break;
      case "keep_tickets":
        for (const li of gv.actionBox.querySelectorAll("li[data-ticket]")) {
          if (move.tickets.includes(li.dataset.ticket)) add(li);
        }
        break;
      case "pay_tunnel":
        for (const b of gv.actionBox.querySelectorAll("button[data-act=pay]")) {
          if (sameMove({ action: "pay_tunnel", cards: JSON.parse(b.dataset.cards || "{}") }, move)) add(b);
        }
        break;
      default:
        break;
    }
    if (this.shownMove !== k) {
      // a move on the board: its route or city into the window, above the hand-and-draw bar (after the game
      // view has put the page back where it was)
      const spot = gv.main.querySelector("svg.board .coach-move");
      if (spot) setTimeout(() => revealSpot(spot), 0);
    }
    this.shownMove = k;
  }

  unmark() {
    for (const el of this.gv.main.querySelectorAll(".coach-target")) el.classList.remove("coach-target");
    for (const el of this.gv.main.querySelectorAll(".coach-move")) el.classList.remove("coach-move");
  }

  end() {
    localStorage.removeItem(KEY);
    this.box.remove();
    this.unmark();
    this.gv.coach = null;
  }
}
