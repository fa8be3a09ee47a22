// The map editor (#/editor): draw a map, see every problem `ttr map check` finds at its place, save and load
// ttr-map/1 files, play the map against bots, and simulate bot games on it into a report.
import { api, ApiError, saveSeat } from "./api.js";
import { clear, h, announce } from "./dom.js";
import { t } from "./i18n.js";
import { EditorDoc, blankMap } from "./editor_model.js";
import { EditorCanvas } from "./editor_canvas.js";

const STARTS = ["blank", "europe", "new_york", "usa"];
const SIM_GAMES = 200;

async function post(path, body) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(res.status, err.code || String(res.status), err.message || res.statusText);
  }
  return data;
}

/** Open the editor in `main`; returns the view ({stop, relabel}). */
export async function showEditor(main) {
  const view = new EditorView(main);
  view.build();
  return view;
}

class EditorView {
  constructor(main) {
    this.main = main;
    this.doc = new EditorDoc();
    this.tool = "select";
    this.selected = null;
    this.problems = [];
    this.checkSeq = 0;
    this.timer = null;
    this.poll = null;
    this.canvas = new EditorCanvas(this.doc, {
      tool: () => this.tool,
      pick: (kind, key) => this.pick(kind, key),
      addCity: (x, y) => this.pick("city", this.doc.addCity(x, y)),
      addRoute: (a, b, units) => this.pick("route", this.doc.addRoute(a, b, this.lengthFor(units))),
      moved: (name, x, y, done) => this.doc.moveCity(name, x, y, done),
    });
    this.doc.onChange(() => this.refresh());
    this.keys = (ev) => {
      if (!(ev.ctrlKey || ev.metaKey) || ev.target.matches("input, textarea, select")) return;
      if (ev.key === "z" && !ev.shiftKey) this.doc.undo();
      else if (ev.key === "y" || (ev.key === "Z" && ev.shiftKey) || (ev.key === "z" && ev.shiftKey)) this.doc.redo();
      else return;
      ev.preventDefault();
    };
    document.addEventListener("keydown", this.keys);
  }

  stop() {
    document.removeEventListener("keydown", this.keys);
    clearTimeout(this.timer);
    clearInterval(this.poll);
  }

  relabel() {
    this.build();
  }

  lengthFor(units) {
    const keys = Object.keys(this.doc.data.rules.route_points || {}).map(Number).filter((n) => n > 0).sort((a, b) => a - b);
    const want = Math.max(1, Math.round(units / 8));
    if (!keys.length) return want;
    return Math.min(keys[keys.length - 1], Math.max(keys[0], want));
  }

  pick(kind, key) {
    this.selected = { kind, key };
    this.canvas.selected = this.selected;
    this.refresh(false);
  }

  setTool(tool) {
    this.tool = tool;
    this.canvas.routeStart = null;
    for (const b of this.main.querySelectorAll("[data-tool]")) b.setAttribute("aria-pressed", String(b.dataset.tool === tool));
    this.canvas.draw();
  }

  build() {
    const main = clear(this.main);
    main.dataset.view = "editor";
    const startSelect = h("select", { id: "ed-start" }, STARTS.map((s) => h("option", { value: s }, t(`editor.start.${s}`))));
    const toolButton = (tool) => h("button", { "data-tool": tool, id: `ed-tool-${tool}`, "aria-pressed": String(this.tool === tool),
      onclick: () => this.setTool(tool) }, t(`editor.tool.${tool}`));
    const fileInput = h("input", { type: "file", id: "ed-load", accept: ".json,application/json", class: "visually-hidden",
      onchange: (ev) => this.loadFile(ev.target.files[0]) });
    const background = h("input", { type: "file", id: "ed-background", accept: "image/*",
      onchange: (ev) => this.setBackground(ev.target.files[0]) });
    this.sidebar = h("div", { class: "editor-side" });
    this.problemList = h("ul", { id: "editor-problems", class: "editor-problems" });
    this.status = h("p", { id: "ed-status", class: "note" });
    main.append(h("h1", {}, t("editor.title")),
      h("div", { class: "row editor-bar" },
        h("label", { class: "inline" }, t("editor.start"), startSelect),
        h("button", { id: "ed-start-go", onclick: () => this.start(startSelect.value) }, t("editor.start.go")),
        toolButton("select"), toolButton("city"), toolButton("route"),
        h("button", { id: "ed-undo", onclick: () => this.doc.undo() }, t("editor.undo")),
        h("button", { id: "ed-redo", onclick: () => this.doc.redo() }, t("editor.redo")),
        h("button", { id: "ed-save", onclick: () => this.save() }, t("editor.save")),
        h("button", { id: "ed-load-button", onclick: () => fileInput.click() }, t("editor.load")), fileInput,
        h("label", { class: "inline" }, t("editor.background"), background)),
      h("p", { class: "note" }, t("editor.help")),
      h("div", { class: "editor" }, h("div", { class: "board-box editor-canvas" }, this.canvas.svg), this.sidebar),
      h("section", { class: "panel" }, h("h2", {}, t("editor.problems")), this.status, this.problemList));
    this.refresh();
  }

  async start(kind) {
    try {
      const data = kind === "blank" ? blankMap() : await mapFile(kind);
      this.selected = null;
      this.canvas.selected = null;
      this.doc.replace(data);
      announce(t("editor.started", { map: data.title || data.name }));
    } catch (err) {
      this.say(err.message);
    }
  }

  say(text) {
    const line = this.main.querySelector("#ed-message");
    if (line) line.textContent = text;
  }

  refresh(check = true) {
    this.canvas.draw();
    this.renderSide();
    if (check) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.check(), 250);
    }
  }

  async check() {
    const seq = ++this.checkSeq;
    this.status.textContent = t("editor.checking");
    let body;
    try {
      body = await post("/api/maps/check", { map: this.doc.data });
    } catch (err) {
      if (seq === this.checkSeq) this.status.textContent = err.message;
      return;
    }
    if (seq !== this.checkSeq) return;
    this.problems = body.problems;
    const cities = new Set();
    const routes = new Set();
    for (const p of body.problems) {
      if (p.section === "cities" && p.index !== null) cities.add(p.index);
      if (p.section === "board" && p.field) cities.add(p.field);
      if (p.section === "routes" && p.index !== null) routes.add(p.index);
    }
    this.canvas.problems = { cities, routes };
    this.canvas.draw();
    const flagged = new Set(body.problems.filter((p) => p.section === "tickets" && p.index !== null).map((p) => p.index));
    for (const li of this.main.querySelectorAll("#ed-tickets li")) li.classList.toggle("problem", flagged.has(Number(li.dataset.ticketIndex)));
    clear(this.problemList).dataset.count = String(body.problems.length);
    this.status.textContent = body.ok ? t("editor.ok") : t("editor.problem_count", { n: body.problems.length });
    this.main.dataset.problems = String(body.problems.length);
    for (const p of body.problems) {
      const item = h("li", { "data-where": p.where, "data-section": p.section },
        h("button", { class: "link", onclick: () => this.goTo(p) }, p.where), ` ${p.message}`);
      this.problemList.append(item);
    }
  }

  goTo(p) {
    const d = this.doc.data;
    if (p.section === "cities" && p.index !== null && d.cities[p.index]) this.pick("city", d.cities[p.index].name);
    else if (p.section === "board" && p.field) this.pick("city", p.field);
    else if (p.section === "routes" && p.index !== null) this.pick("route", p.index);
    else {
      const target = this.main.querySelector(p.section === "tickets" ? `#ed-tickets [data-ticket-index="${p.index}"]` : "#ed-rules");
      if (target) target.focus();
    }
  }

  renderSide() {
    const side = clear(this.sidebar);
    const d = this.doc.data;
    side.append(h("p", { id: "ed-message", class: "error", role: "status" }));
    side.append(h("section", { class: "panel" }, h("h2", {}, t("editor.map")),
      field(t("editor.name"), h("input", { type: "text", id: "ed-name", value: d.name || "",
        onchange: (ev) => this.doc.change((m) => { m.name = ev.target.value.trim(); }) })),
      field(t("editor.map_title"), h("input", { type: "text", id: "ed-title", value: d.title || "",
        onchange: (ev) => this.doc.change((m) => { m.title = ev.target.value; }) }))));
    if (this.selected && this.selected.kind === "city") side.append(this.cityPanel(this.selected.key));
    if (this.selected && this.selected.kind === "route") side.append(this.routePanel(this.selected.key));
    side.append(this.ticketPanel(), this.rulesPanel(), this.playPanel());
  }

  cityPanel(name) {
    const city = this.doc.data.cities.find((c) => c.name === name);
    if (!city) return h("span");
    return h("section", { class: "panel", id: "ed-city-panel" }, h("h2", {}, t("editor.city")),
      field(t("editor.name"), h("input", { type: "text", id: "ed-city-name", value: city.name,
        onchange: (ev) => {
          const next = ev.target.value.trim();
          this.doc.renameCity(name, next);
          this.selected = { kind: "city", key: next };
          this.canvas.selected = this.selected;
          this.refresh(false);
        } })),
      h("button", { id: "ed-city-delete", onclick: () => { this.selected = null; this.doc.deleteCity(name); } }, t("editor.delete")));
  }

  routePanel(i) {
    const r = this.doc.data.routes[i];
    if (!r) return h("span");
    const colors = ["gray", ...(this.doc.data.cards.colors || [])];
    const edit = (fn) => this.doc.change((m) => fn(m.routes[i]));
    return h("section", { class: "panel", id: "ed-route-panel" }, h("h2", {}, t("editor.route", { a: r.a, b: r.b })),
      field(t("editor.length"), h("input", { type: "number", id: "ed-route-length", min: 1, max: 12, value: r.length,
        onchange: (ev) => edit((route) => { route.length = Number(ev.target.value); }) })),
      field(t("editor.color"), h("select", { id: "ed-route-color", onchange: (ev) => edit((route) => { route.color = ev.target.value; }) },
        colors.map((c) => h("option", { value: c, selected: c === r.color }, t(`color.${c}`))))),
      h("label", { class: "inline" }, h("input", { type: "checkbox", id: "ed-route-tunnel", checked: r.tunnel,
        onchange: (ev) => edit((route) => { route.tunnel = ev.target.checked; }) }), t("editor.tunnel")),
      field(t("editor.ferry"), h("input", { type: "number", id: "ed-route-ferry", min: 0, max: 12, value: r.ferry_locomotives,
        onchange: (ev) => edit((route) => { route.ferry_locomotives = Number(ev.target.value); }) })),
      h("div", { class: "row" },
        h("button", { id: "ed-route-double", onclick: () => this.pick("route", this.doc.addTwin(i)) }, t("editor.double")),
        h("button", { id: "ed-route-delete", onclick: () => { this.selected = null; this.doc.change((m) => m.routes.splice(i, 1)); } },
          t("editor.delete"))));
  }

  ticketPanel() {
    const d = this.doc.data;
    const names = d.cities.map((c) => c.name);
    const pickCity = (id, value) => h("select", { id }, names.map((n) => h("option", { value: n, selected: n === value }, n)));
    const form = this.ticketForm || (this.ticketForm = { a: names[0], b: names[1], points: 1 });
    const a = pickCity("ed-ticket-a", names.includes(form.a) ? form.a : names[0]);
    const b = pickCity("ed-ticket-b", names.includes(form.b) ? form.b : names[1]);
    const points = h("input", { type: "number", id: "ed-ticket-points", min: 1, value: form.points,
      onchange: () => { form.points = Number(points.value); } });
    const note = h("span", { id: "ed-ticket-suggestion", class: "note" });
    const suggest = async () => {
      if (!a.value || !b.value || a.value === b.value) return;
      try {
        const s = await post("/api/maps/suggest", { map: d, a: a.value, b: b.value });
        if (s.points !== null) {
          points.value = s.points;
          form.points = s.points;
          note.textContent = t("editor.suggested", { n: s.shortest, points: s.points });
        } else note.textContent = t("editor.not_joined");
      } catch (err) {
        note.textContent = err.message;
      }
    };
    a.addEventListener("change", () => { form.a = a.value; suggest(); });
    b.addEventListener("change", () => { form.b = b.value; suggest(); });
    const flagged = new Set(this.problems.filter((p) => p.section === "tickets" && p.index !== null).map((p) => p.index));
    const list = h("ul", { id: "ed-tickets", class: "editor-list" }, d.tickets.map((tk, i) =>
      h("li", { "data-ticket-index": i, tabindex: -1, class: flagged.has(i) ? "problem" : "" },
        `${tk.a} – ${tk.b}: `,
        h("input", { type: "number", min: 1, value: tk.points, "aria-label": t("editor.points"), class: "ed-ticket-points",
          onchange: (ev) => this.doc.change((m) => { m.tickets[i].points = Number(ev.target.value); }) }),
        h("button", { class: "ed-ticket-delete", onclick: () => this.doc.change((m) => m.tickets.splice(i, 1)) }, t("editor.delete")))));
    return h("section", { class: "panel", id: "ed-ticket-panel" }, h("h2", {}, t("editor.tickets", { n: d.tickets.length })),
      h("div", { class: "row" }, a, b, points,
        h("button", { id: "ed-ticket-suggest", onclick: suggest }, t("editor.suggest")),
        h("button", { id: "ed-ticket-add", onclick: () => a.value && b.value && this.doc.addTicket(a.value, b.value, Number(points.value)) },
          t("editor.add"))), note, list);
  }

  rulesPanel() {
    const d = this.doc.data;
    const area = h("textarea", { id: "ed-rules", rows: 12, spellcheck: "false", class: "editor-rules" },
      JSON.stringify({ cards: d.cards, rules: d.rules }, null, 1));
    const error = h("p", { id: "ed-rules-error", class: "error" });
    area.addEventListener("change", () => {
      try {
        const next = JSON.parse(area.value);
        if (!next || typeof next !== "object") throw new Error(t("editor.rules_object"));
        this.doc.change((m) => {
          if (next.cards) m.cards = next.cards;
          if (next.rules) m.rules = next.rules;
        });
      } catch (err) {
        error.textContent = t("editor.rules_json", { error: err.message });
      }
    });
    const box = h("details", { class: "panel", id: "ed-rules-panel", open: Boolean(this.rulesOpen) },
      h("summary", {}, t("editor.rules")), area, error);
    box.addEventListener("toggle", () => { this.rulesOpen = box.open; });
    return box;
  }

  playPanel() {
    const games = h("input", { type: "number", id: "ed-sim-games", min: 1, max: 1000, value: SIM_GAMES });
    this.progress = this.progress || h("progress", { id: "ed-sim-progress", max: 1, value: 0 });
    this.report = this.report || h("a", { id: "ed-sim-report", target: "_blank", hidden: true }, t("editor.report"));
    return h("section", { class: "panel", id: "ed-play-panel" }, h("h2", {}, t("editor.try")),
      h("div", { class: "row" }, h("button", { id: "ed-play", class: "primary", onclick: () => this.play() }, t("editor.play"))),
      h("div", { class: "row" }, h("label", { class: "inline" }, t("editor.sim_games"), games),
        h("button", { id: "ed-simulate", onclick: () => this.simulate(Number(games.value)) }, t("editor.simulate"))),
      h("div", { class: "row" }, this.progress, this.report));
  }

  async register() {
    const custom = await post("/api/maps/custom", { map: this.doc.data });
    return custom;
  }

  async play() {
    try {
      const custom = await this.register();
      const bots = Math.max(1, custom.players_min - 1);
      const seats = [{ type: "human", name: t("editor.you") }, ...Array.from({ length: bots }, () => ({ type: "bot", level: "greedy" }))];
      const game = await api.createGame({ map: custom.name, seats, bot_delay: 0 });
      const me = game.seats[0];
      saveSeat({ game: game.id, seat: me.seat, token: me.token, name: me.name, map: custom.name });
      location.hash = `#/play/${game.id}/${me.seat}/${me.token}`;
    } catch (err) {
      this.say(err.message);
    }
  }

  async simulate(games) {
    try {
      const custom = await this.register();
      const sim = await post("/api/studio/simulations", { map: custom.name, players: custom.players_min, bots: "greedy", games });
      this.report.hidden = true;
      this.progress.max = games;
      this.progress.value = 0;
      clearInterval(this.poll);
      this.poll = setInterval(async () => {
        const s = await fetch(`/api/studio/simulations/${sim.id}`).then((r) => r.json());
        this.progress.value = s.done;
        this.progress.dataset.status = s.status;
        if (s.status === "running") return;
        clearInterval(this.poll);
        if (s.status === "done") {
          this.report.href = `/api/studio/simulations/${sim.id}/report`;
          this.report.hidden = false;
          announce(t("editor.sim_done", { n: s.done }));
        } else this.say(s.error);
      }, 400);
    } catch (err) {
      this.say(err.message);
    }
  }

  save() {
    const blob = new Blob([JSON.stringify(this.doc.data, null, 1) + "\n"], { type: "application/json" });
    const a = h("a", { href: URL.createObjectURL(blob), download: `${this.doc.data.name || "map"}.json` });
    document.body.append(a);
    a.click();
    a.remove();
  }

  async loadFile(file) {
    if (!file) return;
    try {
      const data = JSON.parse(await file.text());
      this.selected = null;
      this.doc.replace(data);
    } catch (err) {
      this.say(t("editor.load_failed", { error: err.message }));
    }
  }

  setBackground(file) {
    if (!file) return;
    this.canvas.background = URL.createObjectURL(file);
    this.canvas.draw();
  }
}

function field(label, input) {
  return h("label", { class: "field" }, h("span", {}, label), input);
}

async function mapFile(name) {
  const res = await fetch(`/api/maps/${encodeURIComponent(name)}/file`);
  if (!res.ok) throw new ApiError(res.status, "load", `cannot load ${name}`);
  return res.json();
}
