// The guided first game (`Learn to play` in the lobby): Europe against an easy bot, from a fixed deal, with a
// coach above the board that walks through each kind of move in turn (the tickets, drawing, claiming, more
// tickets, a tunnel, a ferry, a station) and explains the final scoring. A step is done when the log shows
// the player did it; a step the game does not offer yet can be skipped.
import { api, saveSeat } from "./api.js";
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "ttr.tutorial"; // {game, skipped: [lesson ids]}
export const TUTORIAL_SEED = 2027;

const LESSONS = [
  { id: "tickets", done: (c) => c.count((e) => e.action === "keep_tickets") >= 1, target: "#action-panel" },
  { id: "draw", done: (c) => c.count((e) => e.action === "draw_card") >= 2, target: "#draw" },
  { id: "claim", done: (c) => c.routes().length >= 1, target: "#route-list" },
  { id: "more_tickets", done: (c) => c.count((e) => e.action === "draw_tickets") >= 1, target: "#draw-tickets" },
  { id: "tunnel", done: (c) => c.count((e) => e.action === "claim_route" && e.tunnel_reveal) >= 1,
    offered: (c) => c.gv.board.routes.some((r) => r && r.tunnel), target: "#board" },
  { id: "ferry", done: (c) => c.routes().some((r) => r.ferry > 0), offered: (c) => c.gv.board.routes.some((r) => r && r.ferry),
    target: "#board" },
  { id: "station", done: (c) => c.count((e) => e.action === "build_station") >= 1,
    offered: (c) => (c.gv.mapData.rules || {}).stations > 0, target: "#build-station" },
  { id: "final", done: () => false, target: "#final" },
];

/** Start the guided game: create it, remember it, and open its seat. */
export async function startTutorial() {
  const game = await api.createGame({ map: "europe", when_people_leave: "wait",
    seats: [{ type: "human", name: t("lobby.you") }, { type: "bot", level: "easy" }] }, TUTORIAL_SEED);
  const me = game.seats[0];
  saveSeat({ game: game.id, seat: me.seat, token: me.token, name: me.name, map: "europe" });
  localStorage.setItem(KEY, JSON.stringify({ game: game.id, skipped: [] }));
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
  if (!saved || saved.game !== gv.summary.id || gv.seat === null) return null;
  return new Coach(gv, saved);
}

class Coach {
  constructor(gv, saved) {
    this.gv = gv;
    this.saved = saved;
    this.box = h("section", { class: "panel coach", id: "coach", "aria-live": "polite" });
    gv.turnBox.after(this.box);
  }

  /** How many of this seat's log entries satisfy `test`. */
  count(test) {
    return (this.gv.state.view.log || []).filter((e) => e.player === this.gv.seat && test(e)).length;
  }

  routes() {
    return this.gv.ownRoutes(this.gv.seat);
  }

  save() {
    localStorage.setItem(KEY, JSON.stringify(this.saved));
  }

  /** The lesson to show: the first neither done nor skipped nor missing from this map (the final one at the
   * end of the game). */
  current() {
    if (this.gv.state.view.final) return LESSONS[LESSONS.length - 1];
    return LESSONS.find((l) => l.id !== "final" && !(l.offered && !l.offered(this)) && !this.saved.skipped.includes(l.id) && !l.done(this))
      || LESSONS[LESSONS.length - 1];
  }

  render() {
    const lesson = this.current();
    const lessons = LESSONS.filter((l) => !l.offered || l.offered(this));
    const k = lessons.indexOf(lesson) + 1;
    const over = Boolean(this.gv.state.view.final);
    const waiting = lesson.id === "final" && !over;
    clear(this.box).append(
      h("h2", {}, t("coach.step", { k, n: lessons.length, title: t(`coach.${lesson.id}.title`) })),
      h("p", { id: "coach-text", dataset: { lesson: lesson.id } }, t(waiting ? "coach.play_on" : `coach.${lesson.id}`,
        { points: (this.gv.mapData.rules || {}).unbuilt_station_points })),
      h("div", { class: "row" },
        lesson.id !== "final" ? h("button", { type: "button", id: "coach-skip", onclick: () => {
          this.saved.skipped.push(lesson.id);
          this.save();
          this.render();
        } }, t("coach.skip")) : null,
        h("button", { type: "button", id: "coach-end", onclick: () => this.end() }, t(over ? "coach.finish" : "coach.end")),
        h("a", { class: "button", href: "#/rules/europe", target: "_blank" }, t("rules.link"))));
    this.box.dataset.lesson = lesson.id;
    for (const el of this.gv.main.querySelectorAll(".coach-target")) el.classList.remove("coach-target");
    const target = lesson.target && this.gv.main.querySelector(lesson.target);
    if (target && !waiting) target.classList.add("coach-target");
  }

  end() {
    localStorage.removeItem(KEY);
    this.box.remove();
    for (const el of this.gv.main.querySelectorAll(".coach-target")) el.classList.remove("coach-target");
    this.gv.coach = null;
  }
}
