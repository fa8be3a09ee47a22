// The review of a finished game (docs/review.md): a seat's decisions rated by the expert search, made by the
// server with a progress bar; the costliest decisions on the board of that moment with the better move, why,
// the seat's estimated standing move by move (an inline SVG chart), and how its game ended.
import { api, mapBundle } from "./api.js";
import { Board } from "./board.js";
import { h, clear, announce } from "./dom.js";
import { t, translateDom, pairName } from "./i18n.js";
import { actionText, reasonText, cardsText } from "./words.js";
import { playerStyle } from "./colors.js";

const POLL_MS = 700; // how often the page asks how far the review is
const SHOWN = 5; // the costliest decisions shown
const STYLE = `
.review-chart { width: 100%; max-width: 640px; height: auto; background: #fff; border: 1px solid #ccc; }
.review-chart .zero { stroke: #888; stroke-dasharray: 4 3; }
.review-chart .curve { fill: none; stroke: #1f5fa8; stroke-width: 2; }
.review-chart .costly { fill: #c0392b; }
.review-list button { text-align: start; width: 100%; }
.review-list button[aria-pressed="true"] { outline: 3px solid #1f5fa8; }
svg.board g.route.review-played path, svg.board g.route.review-played rect { stroke: #c0392b; stroke-width: 3; stroke-dasharray: 5 3; }
`;

export async function showReview(main, gameId, seat) {
  const summary = await api.game(gameId);
  const bundle = await mapBundle(summary.map);
  const view = new ReviewView(main, summary, bundle, Number.isInteger(seat) && seat >= 0 ? seat : 0);
  await view.load();
  return view;
}

class ReviewView {
  constructor(main, summary, bundle, seat) {
    this.main = main;
    this.summary = summary;
    this.bundle = bundle;
    this.seat = seat;
    this.review = null;
    this.progress = null; // the last {status, done, total}
    this.busy = null; // the server's message when another review of this client runs
    this.chosen = 0; // which of the costliest decisions is on the board
    this.position = null; // the replay's view at that decision
    this.timer = null;
    this.stopped = false;
    if (!document.getElementById("review-style")) document.head.append(h("style", { id: "review-style" }, STYLE));
    clear(main);
    this.seats = h("nav", { class: "row", id: "review-seats" });
    this.status = h("div", { id: "review-status", role: "status" });
    this.body = h("div", { id: "review-body" });
    this.boardBox = h("div", { class: "board-box" });
    this.detail = h("section", { class: "panel", id: "review-detail" });
    main.append(h("h1", { "data-i18n": "review.title" }), this.seats, this.status, this.body,
      h("div", { class: "game" }, h("div", { class: "board-col" }, this.boardBox), h("div", { class: "side-col" }, this.detail)),
      h("p", { class: "row" }, h("a", { class: "button", href: `#/replay/${encodeURIComponent(summary.id)}` }, t("final.replay"))));
    this.board = new Board(this.boardBox, bundle.svg, {});
    translateDom(main);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  relabel() {
    translateDom(this.main);
    this.board.relabel();
    this.render();
  }

  async load() {
    const got = await api.review(this.summary.id, this.seat);
    if (got.status === "done") this.done(got.review);
    else await this.ask();
  }

  /** Ask the server to make the review (or join the one under way), then follow its progress. */
  async ask() {
    if (this.stopped) return;
    try {
      this.follow(await api.startReview(this.summary.id, this.seat));
    } catch (err) {
      if (err.code !== "busy") throw err;
      this.busy = err.message; // another review of this browser is being made: ask again in a while
      this.render();
      this.timer = setTimeout(() => this.ask().catch((e) => this.fail(e)), POLL_MS * 3);
    }
  }

  follow(got) {
    if (this.stopped) return;
    if (got.status === "done") return this.done(got.review);
    if (got.status === "failed" || got.status === "none") return this.fail(new Error(got.message || ""));
    this.busy = null;
    this.progress = got;
    this.render();
    this.timer = setTimeout(() => api.review(this.summary.id, this.seat).then((g) => this.follow(g)).catch((e) => this.fail(e)), POLL_MS);
  }

  fail(err) {
    this.failed = err.message || "?";
    this.render();
  }

  done(review) {
    this.review = review;
    this.progress = null;
    this.busy = null;
    this.render();
    announce(t("review.ready"));
    const costly = this.costliest();
    if (costly.length) this.choose(0);
  }

  costliest() {
    if (!this.review) return [];
    const rows = new Map(this.review.decisions.map((d) => [d.index, d]));
    return this.review.costliest.slice(0, SHOWN).map((i) => rows.get(i)).filter(Boolean);
  }

  async choose(k) {
    this.chosen = k;
    const d = this.costliest()[k];
    if (!d) return;
    const data = await api.replay(this.summary.id, d.index);
    if (this.chosen !== k || this.stopped) return;
    this.position = data.view;
    this.render();
  }

  render() {
    clear(this.seats).append(h("span", {}, t("review.seat_pick")), ...this.summary.seats.map((s, i) => {
      const mark = h("span", { class: "player-mark", "aria-hidden": "true" }, playerStyle(i).symbol);
      mark.style.background = playerStyle(i).fill;
      return h("a", { class: "button", href: `#/review/${encodeURIComponent(this.summary.id)}/${i}`,
        "aria-current": i === this.seat ? "page" : null }, mark, " ", s.name);
    }));
    clear(this.status);
    if (this.failed) {
      this.status.append(h("p", { class: "error", id: "review-error" }, t("review.failed"), " ", h("small", {}, this.failed)));
    } else if (this.busy) {
      this.status.append(h("p", { id: "review-busy" }, t("review.busy")));
    } else if (this.progress) {
      const { done, total } = this.progress;
      this.status.append(h("label", { for: "review-progress" }, t("review.progress", { done, total: total || "…" })), " ",
        h("progress", { id: "review-progress", max: String(Math.max(1, total)), value: String(done) }));
    }
    clear(this.body);
    clear(this.detail);
    if (!this.review) return;
    this.body.append(this.summaryBox(), this.chart(), this.listBox());
    this.renderDecision();
  }

  summaryBox() {
    const r = this.review;
    const s = r.summary;
    const pieces = t(`piece.${s.pieces_unused === 1 ? s.piece_name.replace(/s$/, "") : s.piece_name}`);
    const items = [
      t("review.score", { score: s.score, rank: s.rank }),
      t("review.total_loss", { points: r.total_loss.toFixed(1), n: r.decisions.length }),
      t("review.unfinished", { tickets: s.tickets_unfinished.length ? s.tickets_unfinished.map(pairName).join(t("list.sep")) : "–" }),
      t("review.cards_held", { n: s.cards_held_count, cards: s.cards_held_count ? cardsText(s.cards_held) : "–" }),
      t("review.tunnels", { routes: s.tunnels_abandoned.length ? s.tunnels_abandoned.map(pairName).join(t("list.sep")) : "–" }),
      t("review.unused", { n: s.pieces_unused, pieces }),
    ];
    return h("section", { class: "panel", id: "review-summary" }, h("h2", {}, t("review.summary", { name: r.players[r.seat] })),
      h("ul", {}, items.map((x) => h("li", {}, x))));
  }

  /** The seat's estimated standing (its margin over the best other seat) after each of its decisions. */
  chart() {
    const r = this.review;
    const W = 600;
    const H = 200;
    const pad = 28;
    const pts = r.standing;
    const values = pts.map((p) => p.value);
    const top = Math.max(1, ...values);
    const bottom = Math.min(-1, ...values);
    const x = (index) => pad + (W - 2 * pad) * (r.actions > 1 ? index / (r.actions - 1) : 0);
    const y = (v) => pad + (H - 2 * pad) * (top - v) / (top - bottom);
    const svg = (tag, attrs, text) => {
      const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
      if (text !== undefined) el.textContent = text;
      return el;
    };
    const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-chart", id: "review-chart", role: "img",
      "aria-label": t("review.chart_label", { first: (values[0] ?? 0).toFixed(1), last: (values[values.length - 1] ?? 0).toFixed(1) }) });
    box.append(svg("line", { class: "zero", x1: pad, x2: W - pad, y1: y(0), y2: y(0) }));
    box.append(svg("text", { x: 2, y: y(top) + 4, "font-size": 11 }, `+${top.toFixed(0)}`));
    box.append(svg("text", { x: 2, y: y(bottom) + 4, "font-size": 11 }, bottom.toFixed(0)));
    box.append(svg("text", { x: W - pad, y: H - 6, "font-size": 11, "text-anchor": "end" }, t("review.chart_moves")));
    box.append(svg("polyline", { class: "curve", points: pts.map((p) => `${x(p.index).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ") }));
    const costly = new Set(r.costliest.slice(0, SHOWN));
    for (const p of pts) {
      if (costly.has(p.index)) box.append(svg("circle", { class: "costly", cx: x(p.index), cy: y(p.value), r: 4 }));
    }
    return h("section", { class: "panel" }, h("h2", {}, t("review.chart_title")), box);
  }

  listBox() {
    const list = this.costliest();
    if (!list.length) return h("section", { class: "panel" }, h("p", { id: "review-none" }, t("review.no_mistakes")));
    return h("section", { class: "panel" }, h("h2", {}, t("review.costliest")),
      h("ol", { class: "plain review-list", id: "review-list" }, list.map((d, k) => h("li", {},
        h("button", { type: "button", "aria-pressed": k === this.chosen ? "true" : "false", onclick: () => this.choose(k) },
          t("review.item", { move: d.move, played: actionText(d.played), loss: d.loss.toFixed(1) }))))));
  }

  /** The chosen decision on the board of that moment: the better move drawn as a hint is, the played one dashed. */
  renderDecision() {
    const d = this.costliest()[this.chosen];
    if (!d) return;
    const v = this.position;
    const path = new Set();
    const stationCities = new Set();
    const routeOf = (a) => (a.action === "claim_route" ? this.board.byName.get(a.route) : null);
    const best = routeOf(d.best);
    if (best) path.add(best.index);
    if (d.best.action === "build_station") stationCities.add(d.best.city);
    if (v) {
      const { owners, stations } = this.board.holdings(v);
      this.board.update({ owners, stations, claimable: new Set(), path, stationCities, names: v.players.map((p) => p.name) });
    }
    for (const g of this.board.svg.querySelectorAll("g.route.review-played")) g.classList.remove("review-played");
    const played = routeOf(d.played);
    if (played) this.board.routeGroup(played.index).classList.add("review-played");
    const [lo, hi] = d.interval;
    const why = reasonText(d.reason, d.reason_text);
    this.detail.append(h("h2", { id: "review-move" }, t("review.move", { move: d.move })),
      h("p", { id: "review-played" }, t("review.played", { action: actionText(d.played) })),
      h("p", { id: "review-better" }, t("review.better", { action: actionText(d.best) })),
      h("p", { id: "review-loss" }, t("review.loss", { points: d.loss.toFixed(1), lo: lo.toFixed(1), hi: hi.toFixed(1) })),
      h("p", { class: "hint", id: "review-why" }, t("review.why", { reason: why })),
      h("p", {}, t("review.win_chance", { percent: Math.round(d.win_chance * 100) })));
  }
}
