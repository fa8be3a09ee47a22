// Pass and play (`#/table/{game}`): several people at one device. The page holds the tokens of every seat
// this browser created for the game and joins as the seat to move; between two people's turns it watches
// (the public view: no hand, no ticket in the page at all) behind a "Pass to NAME" screen until that person
// says they hold the device. The ticket choices at setup go the same way, one person after the other.
import { loadSeats } from "./api.js";
import { showGame } from "./game.js";
import { h, clear, announce } from "./dom.js";
import { t } from "./i18n.js";

/** The pass-and-play view of `gameId` (null when this browser holds no seat of it). */
export async function showTable(main, gameId) {
  const seats = loadSeats().filter((s) => s.game === gameId).sort((a, b) => a.seat - b.seat);
  if (!seats.length) return null;
  const table = new Table(seats);
  const view = await showGame(main, { game: gameId, seat: seats[0].seat, token: seats[0].token, hooks: table });
  return { stop: () => { table.hide(); view.stop(); }, relabel: () => { view.relabel(); table.relabel(); } };
}

class Table {
  constructor(seats) {
    this.table = true;
    this.bySeat = new Map(seats.map((s) => [s.seat, s]));
    this.cover = null;
    this.waitingFor = null; // the seat the cover asks for
  }

  attach(gv) {
    this.gv = gv;
    gv.main.dataset.table = "1";
  }

  /** Each state before it is drawn: join as the seat to move when it is one of this table's people (after
   * the pass screen), watch otherwise; false holds the drawing back while the seat changes. */
  onState(msg) {
    const gv = this.gv;
    const v = msg.view;
    const mover = v.turn && msg.status !== "finished" ? v.turn.player : null;
    const held = mover !== null ? this.bySeat.get(mover) : undefined;
    if (mover !== null && held && mover === gv.seat) {
      this.hide(); // the right person holds the device
      return true;
    }
    if (gv.seat !== null) {
      // someone else's turn: first stop showing this seat's cards (watch), then ask for the next person
      gv.joinAs(null);
      if (held) this.show(mover);
      return false;
    }
    if (held) this.show(mover);
    else this.hide(); // a bot or a person elsewhere plays: the board, as everyone sees it
    return true;
  }

  show(seat) {
    this.waitingFor = seat;
    if (!this.cover) {
      this.cover = h("div", { class: "pass-cover", id: "pass-cover", role: "dialog", "aria-modal": "true", "aria-labelledby": "pass-title" });
      document.body.append(this.cover);
      this.gv.main.inert = true;
    }
    this.relabel();
    const button = this.cover.querySelector("#pass-ready");
    if (button) button.focus();
    announce(this.cover.querySelector("#pass-title").textContent);
  }

  relabel() {
    if (!this.cover || this.waitingFor === null) return;
    const name = this.gv.names()[this.waitingFor] || this.bySeat.get(this.waitingFor).name;
    const seat = this.bySeat.get(this.waitingFor);
    const phase = this.gv.state && this.gv.state.view.turn ? this.gv.state.view.turn.phase : "";
    clear(this.cover).append(h("div", { class: "pass-box" },
      h("h2", { id: "pass-title" }, t("table.pass_to", { name })),
      h("p", {}, t(phase === "choose_tickets" ? "table.note_tickets" : "table.note", { name })),
      h("button", { type: "button", class: "primary", id: "pass-ready", onclick: () => {
        this.cover.querySelector("#pass-ready").disabled = true;
        this.gv.joinAs(seat.token);
      } }, t("table.ready", { name }))));
  }

  hide() {
    this.waitingFor = null;
    if (this.cover) {
      this.cover.remove();
      this.cover = null;
    }
    if (this.gv) this.gv.main.inert = false;
  }
}
