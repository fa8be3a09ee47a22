// Motion, never in the way: a card drawn slides from the face-up row or the deck to the hand, a refilled
// face-up slot turns over, a claim lays its pieces along the route one by one, the final round's line
// announces itself. Each is a short animation on a copy or a class, never awaited: the next click works at
// once. Nothing moves when the system asks for reduced motion.
import { play } from "./sound.js";

export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The motion of game view `gv`: `sent(entry)` before a move goes, `after(msg, before)` once it is drawn. */
export class Motion {
  constructor(gv) {
    this.gv = gv;
    this.from = null; // where the card of a draw just sent starts: a screen rectangle
  }

  sent(entry) {
    const a = entry.action;
    this.from = null;
    if (a.action !== "draw_card") return;
    const el = a.from === "deck" ? document.getElementById("draw-deck")
      : this.gv.drawBox.querySelector(`button.slot[data-card="${CSS.escape(a.card)}"]`);
    if (el) this.from = el.getBoundingClientRect();
  }

  /** After an update is drawn: `before` is the previous view (null on the first). */
  after(msg, before) {
    const gv = this.gv;
    const v = msg.view;
    const last = msg.last;
    const move = !reducedMotion();
    if (last && last.action) {
      const a = last.action;
      if (a.action === "draw_card" && last.seat === gv.seat && this.from && move) {
        const own = (v.log || [])[(v.log || []).length - 1]; // the seat's own log names a card from the deck too
        this.slide((own && own.card) || a.card);
      }
      if (a.action === "claim_route" || a.action === "pay_tunnel") {
        const name = a.action === "claim_route" ? a.route : (before && before.turn && before.turn.tunnel_route);
        const r = name && gv.board.byName.get(name);
        const owned = r && v.players.some((p) => (p.routes || []).includes(r.name));
        if (owned) {
          if (move) this.lay(r.index);
          play("claim");
        }
      }
    }
    this.from = null;
    if (before && move) this.refills(before.face_up || [], v.face_up || []);
    if (before && !before.final_turns && v.final_turns) {
      gv.finalRoundBox.classList.remove("announce");
      if (move) {
        void gv.finalRoundBox.offsetWidth; // restart the animation
        gv.finalRoundBox.classList.add("announce");
      }
      play("final_round");
    }
    if (before && !before.final && v.final) play("end");
    const mine = gv.myTurn();
    if (mine && !this.wasMine) play("turn");
    this.wasMine = mine;
  }

  /** A copy of the card flies from where it was taken to the hand. */
  slide(card) {
    const to = this.gv.handBox.querySelector(`[data-card="${CSS.escape(card || "")}"]`) || this.gv.handBox;
    const end = to.getBoundingClientRect();
    const start = this.from;
    if (!end.width || !start.width) return;
    const chip = to.matches("[data-card]") ? to.cloneNode(true) : document.createElement("div");
    chip.classList.add("flying-card");
    chip.setAttribute("aria-hidden", "true");
    Object.assign(chip.style, { left: `${start.left}px`, top: `${start.top}px`, width: `${start.width}px` });
    document.body.append(chip);
    const dx = end.left - start.left;
    const dy = end.top - start.top;
    const anim = chip.animate([{ transform: "translate(0, 0)", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px)`, opacity: 0.6 }],
      { duration: 450, easing: "ease-in-out" });
    anim.onfinish = () => chip.remove();
    setTimeout(() => chip.remove(), 1000);
  }

  /** The slots of the face-up row whose card changed turn over. */
  refills(old, now) {
    const slots = this.gv.drawBox.querySelectorAll(".face-up > .slot");
    now.forEach((card, i) => {
      if (old[i] !== card && slots[i]) slots[i].classList.add("refilled");
    });
  }

  /** The claimed route's pieces go down one after the other. */
  lay(index) {
    const pieces = this.gv.board.routeGroup(index).querySelectorAll(".owner-piece");
    pieces.forEach((piece, i) => {
      piece.style.animationDelay = `${i * 90}ms`;
      piece.classList.add("laying");
    });
  }
}
