// The replay viewer: step through a finished game, the public view after each action.
import { api, mapBundle } from "./api.js";
import { Board } from "./board.js";
import { h, clear, announce } from "./dom.js";
import { t, translateDom } from "./i18n.js";
import { logText } from "./words.js";
import { renderFinal, expressPaths } from "./final.js";
import { replayChat } from "./chat.js";
import { playerStyle } from "./colors.js";
import { seatName } from "./names.js";

export async function showReplay(main, gameId, step) {
  const summary = await api.game(gameId);
  const bundle = await mapBundle(summary.map);
  const view = new ReplayView(main, summary, bundle);
  try {
    await view.go(step);
  } catch (err) {
    view.stop(); // the page says why instead (main.js); its arrow keys step no more
    throw err;
  }
  return view;
}

class ReplayView {
  constructor(main, summary, bundle) {
    this.main = main;
    this.summary = summary;
    this.mapData = bundle.data;
    this.step = 0;
    this.steps = 0;
    this.want = 0; // the step asked for last (key presses run ahead of the answers)
    this.data = null;
    clear(main);
    this.status = h("p", { id: "replay-status", role: "status" });
    this.slider = h("input", { type: "range", id: "replay-slider", min: 0, max: 0, value: 0, "aria-label": t("replay.step_label"),
      onchange: (ev) => this.go(Number(ev.target.value)) });
    const btn = (id, key, fn) => h("button", { type: "button", id, "data-i18n": key, onclick: fn });
    this.controls = h("div", { class: "row replay-controls" },
      btn("replay-first", "replay.first", () => this.go(0)),
      btn("replay-prev", "replay.prev", () => this.go(this.want - 1)),
      btn("replay-next", "replay.next", () => this.go(this.want + 1)),
      btn("replay-last", "replay.last", () => this.go(this.steps)),
      this.slider);
    this.boardBox = h("div", { class: "board-box" });
    this.players = h("section", { class: "panel" });
    this.finalBox = h("section", { class: "panel final", hidden: true });
    this.chatBox = h("section", { class: "panel chat", id: "replay-chat-panel" });
    this.chatMessages = [];
    fetch(`/api/games/${encodeURIComponent(summary.id)}/chat`).then((r) => (r.ok ? r.json() : { messages: [] }))
      .then((d) => { this.chatMessages = d.messages || []; if (this.data) this.render(); }).catch(() => {});
    main.append(h("h1", { "data-i18n": "replay.title" }), this.controls, this.status,
      h("div", { class: "game" }, h("div", { class: "board-col" }, this.boardBox), h("div", { class: "side-col" }, this.players, this.finalBox, this.chatBox)),
      h("p", { class: "row" }, h("a", { class: "button", href: api.recordUrl(summary.id), download: `ttr-${summary.id}.json` }, t("final.download")),
        h("a", { class: "button", id: "replay-review", href: `#/review/${encodeURIComponent(summary.id)}/0` }, t("review.open"))));
    this.board = new Board(this.boardBox, bundle.svg, {});
    this.board.startView(); // readable, on the board's middle
    translateDom(main);
    // the arrow keys step wherever the focus is (but in a field or a list, whose own keys they are)
    this.onKey = (ev) => {
      if (["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName) || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      if (ev.key === "ArrowRight") this.go(this.want + 1);
      else if (ev.key === "ArrowLeft") this.go(this.want - 1);
      else return;
      ev.preventDefault();
    };
    document.addEventListener("keydown", this.onKey);
  }

  stop() {
    document.removeEventListener("keydown", this.onKey);
  }

  async go(step) {
    if (this.data && (step < 0 || step > this.steps)) return;
    this.want = Math.max(0, step);
    const data = await api.replay(this.summary.id, this.want);
    if (data.step !== this.want) return; // a later step was asked for meanwhile
    this.data = data;
    this.step = data.step;
    this.steps = data.steps;
    this.slider.max = String(data.steps);
    this.slider.value = String(data.step);
    this.render();
  }

  relabel() {
    translateDom(this.main);
    this.board.relabel();
    this.render();
  }

  render() {
    if (!this.data) return;
    const v = this.data.view;
    const names = v.players.map((p, i) => seatName((this.summary.seats || [])[i], p.name, i));
    const last = this.data.last ? logText({ ...(this.data.last.action || {}), player: this.data.last.seat }, names) : t("replay.start");
    this.status.textContent = `${t("replay.step", { step: this.step, steps: this.steps })} · ${last}`;
    announce(this.status.textContent);
    const { owners, stations } = this.board.holdings(v);
    const path = v.final ? expressPaths(v, this.board).all : new Set();
    const lastAction = (this.data.last && this.data.last.action) || {};
    const lastRoute = lastAction.action === "claim_route" ? this.board.byName.get(lastAction.route) : null;
    const recentRoutes = new Set(lastRoute ? [lastRoute.index] : []);
    const recentCities = new Set(lastAction.action === "build_station" ? [lastAction.city] : []);
    this.board.update({ owners, stations, claimable: new Set(), path, names, recentRoutes, recentCities });
    clear(this.players).append(h("h2", {}, t("game.players")), h("ul", { class: "plain" }, v.players.map((p, i) => {
      const mark = h("span", { class: "player-mark", "aria-hidden": "true" }, playerStyle(i).symbol);
      mark.style.background = playerStyle(i).fill;
      return h("li", {}, mark, " ", `${names[i]}: ${t("replay.player_line", { score: p.score, trains: p.trains })}`);
    })));
    this.finalBox.hidden = !v.final;
    if (v.final) renderFinal(this.finalBox, v, this.mapData, this.board, { gameId: null, names, onPath: (set) => this.board.update({ owners, stations, claimable: new Set(), path: set, names }) });
    replayChat(this.chatBox, this.chatMessages, this.step);
    document.getElementById("replay-prev").disabled = this.step <= 0;
    document.getElementById("replay-first").disabled = this.step <= 0;
    document.getElementById("replay-next").disabled = this.step >= this.steps;
    document.getElementById("replay-last").disabled = this.step >= this.steps;
  }
}
