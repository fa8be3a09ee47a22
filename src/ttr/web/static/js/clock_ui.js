// A game's clock (the `clock` message, docs/web-protocol.md "Clocks"): the time left of the seat to move,
// the seats a bot plays for; and the lobby's clock choice (none, real time, turn-based).
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";

/** "1:05", "2 h 10 min" or "3 d 4 h": seconds as a reader takes them in. */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if (s < 86400) return t("clock.hours", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  return t("clock.days", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
}

/** The clock line of a game, under the turn line. */
export class ClockBar {
  constructor(names, mySeat) {
    this.names = names; // () => the seats' names
    this.mySeat = mySeat; // () => this page's seat (null: a spectator)
    this.clock = null;
    this.box = h("p", { class: "clock-line", id: "clock", hidden: true, "aria-live": "off" });
    this.timer = setInterval(() => this.render(), 1000);
  }

  stop() {
    clearInterval(this.timer);
  }

  onMessage(msg) {
    if (msg.type !== "clock") return false;
    this.clock = { ...msg, until: msg.left === null ? null : performance.now() / 1000 + msg.left };
    this.render();
    return true;
  }

  render() {
    const c = this.clock;
    this.box.hidden = !c;
    if (!c) return;
    const names = this.names();
    const parts = [];
    if (c.seat !== null && c.until !== null) {
      const left = c.until - performance.now() / 1000;
      parts.push(c.seat === this.mySeat() ? t("clock.left_mine", { time: clockText(left) })
        : t("clock.left", { name: names[c.seat] || "", time: clockText(left) }));
      this.box.dataset.left = String(Math.max(0, Math.round(left)));
      this.box.classList.toggle("low", left < 15 && c.mode === "realtime");
    }
    for (const seat of c.autoplay || []) parts.push(t("clock.autoplay", { name: names[seat] || "" }));
    this.box.dataset.seat = c.seat === null ? "" : String(c.seat);
    this.box.dataset.autoplay = (c.autoplay || []).join(",");
    this.box.textContent = parts.join(" · ");
  }
}

/** The lobby's clock fields; `value()` is the create body's `clock` (null: none). */
export function clockFields(state) {
  const box = h("fieldset", { class: "clock-fields", id: "clock-fields" });
  const draw = () => {
    const mode = h("select", { id: "clock-mode", onchange: (ev) => { state.mode = ev.target.value; draw(); } },
      ["none", "realtime", "turn"].map((m) => h("option", { value: m, selected: state.mode === m }, t(`clock.mode.${m}`))));
    clear(box).append(h("legend", {}, t("clock.legend")), h("label", { class: "field inline" }, h("span", {}, t("clock.mode")), mode));
    if (state.mode === "realtime") {
      box.append(
        h("label", { class: "field inline" }, h("span", {}, t("clock.move_seconds")),
          h("input", { id: "clock-move", type: "number", inputmode: "numeric", value: state.move, oninput: (ev) => { state.move = ev.target.value; } })),
        h("label", { class: "field inline" }, h("span", {}, t("clock.reserve_seconds")),
          h("input", { id: "clock-reserve", type: "number", inputmode: "numeric", value: state.reserve, oninput: (ev) => { state.reserve = ev.target.value; } })));
    } else if (state.mode === "turn") {
      box.append(h("label", { class: "field inline" }, h("span", {}, t("clock.move_hours")),
        h("input", { id: "clock-hours", type: "number", inputmode: "numeric", value: state.hours, oninput: (ev) => { state.hours = ev.target.value; } })));
    }
    box.append(h("p", { class: "note" }, t("clock.note")));
  };
  draw();
  return box;
}

/** The create body's `clock` from the lobby's choice (numbers as typed: the server judges the range). */
export function clockValue(state) {
  if (state.mode === "realtime") return { mode: "realtime", move: Number(state.move), reserve: Number(state.reserve) };
  if (state.mode === "turn") return { mode: "turn", move: Number(state.hours) * 3600 };
  return null;
}

export function newClockState() {
  return { mode: "none", move: 90, reserve: 300, hours: 24 };
}
