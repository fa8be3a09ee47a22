// The map editor's drawing: cities and routes on an SVG sheet (board units x 10), an optional background
// image, and the pointer: place cities, drag them, draw routes from city to city, pick what to edit.
import { FILLS, colorLetters } from "./colors.js";

const NS = "http://www.w3.org/2000/svg";
const UNIT = 10; // pixels per board unit
const R = 9;

function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

export class EditorCanvas {
  /** `handlers`: {tool(), pick(kind, index|name), addCity(x, y), addRoute(a, b, units), moved(name, x, y, done)} */
  constructor(doc, handlers) {
    this.doc = doc;
    this.handlers = handlers;
    this.background = null;
    this.backgroundOpacity = 0.5;
    this.problems = { cities: new Set(), routes: new Set() };
    this.selected = null; // {kind: "city"|"route", key}
    this.routeStart = null;
    this.svg = el("svg", { class: "editor-sheet", id: "editor-sheet", viewBox: "0 0 1000 700", role: "application" });
    this.svg.addEventListener("pointerdown", (ev) => this.down(ev));
    this.svg.addEventListener("pointermove", (ev) => this.move(ev));
    this.svg.addEventListener("pointerup", (ev) => this.up(ev));
    this.drag = null;
  }

  point(ev) {
    const box = this.svg.getBoundingClientRect();
    const vb = this.svg.viewBox.baseVal;
    const x = ((ev.clientX - box.left) / box.width) * vb.width;
    const y = ((ev.clientY - box.top) / box.height) * vb.height;
    const clamp = (v) => Math.max(0, Math.min(100, Math.round((v / UNIT) * 10) / 10));
    return [clamp(x), clamp(y)];
  }

  cityAt(ev) {
    const g = ev.target.closest && ev.target.closest("g.ed-city");
    return g ? g.dataset.city : null;
  }

  down(ev) {
    const tool = this.handlers.tool();
    const city = this.cityAt(ev);
    const route = ev.target.closest && ev.target.closest("g.ed-route");
    if (tool === "route") {
      if (!city) return;
      if (this.routeStart && this.routeStart !== city) {
        const [ax, ay] = this.doc.place(this.routeStart);
        const [bx, by] = this.doc.place(city);
        this.handlers.addRoute(this.routeStart, city, Math.hypot(ax - bx, ay - by));
        this.routeStart = null;
      } else this.routeStart = city;
      this.draw();
      return;
    }
    if (city) {
      this.handlers.pick("city", city);
      if (tool === "select") {
        this.drag = { name: city, moved: false };
        this.svg.setPointerCapture(ev.pointerId);
      }
      return;
    }
    if (route) {
      this.handlers.pick("route", Number(route.dataset.routeIndex));
      return;
    }
    if (tool === "city") {
      const [x, y] = this.point(ev);
      this.handlers.addCity(x, y);
    }
  }

  move(ev) {
    if (!this.drag) return;
    const [x, y] = this.point(ev);
    this.drag.moved = true;
    this.handlers.moved(this.drag.name, x, y, false);
  }

  up(ev) {
    if (!this.drag) return;
    const drag = this.drag;
    this.drag = null;
    if (drag.moved) {
      const [x, y] = this.point(ev);
      this.handlers.moved(drag.name, x, y, true);
    }
  }

  draw() {
    const d = this.doc.data;
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    let height = 700;
    for (const c of d.cities || []) height = Math.max(height, this.doc.place(c.name)[1] * UNIT + 40);
    svg.setAttribute("viewBox", `0 0 1000 ${Math.ceil(height)}`);
    svg.append(el("rect", { x: 0, y: 0, width: 1000, height, fill: "#f3ecd8" }));
    if (this.background) {
      svg.append(el("image", { href: this.background, x: 0, y: 0, width: 1000, height, opacity: this.backgroundOpacity,
        preserveAspectRatio: "xMidYMid meet", class: "ed-background" }));
    }
    const letters = colorLetters((d.cards && d.cards.colors) || []);
    const pairs = new Map();
    (d.routes || []).forEach((r, i) => {
      const key = [r.a, r.b].sort().join("\u0000");
      if (!pairs.has(key)) pairs.set(key, []);
      pairs.get(key).push(i);
    });
    (d.routes || []).forEach((r, i) => {
      const [ax, ay] = this.doc.place(r.a);
      const [bx, by] = this.doc.place(r.b);
      const group = pairs.get([r.a, r.b].sort().join("\u0000"));
      const k = group.indexOf(i) - (group.length - 1) / 2;
      const len = Math.hypot(bx - ax, by - ay) || 1;
      const [nx, ny] = [(-(by - ay) / len) * 7 * k, ((bx - ax) / len) * 7 * k];
      const x1 = ax * UNIT + nx, y1 = ay * UNIT + ny, x2 = bx * UNIT + nx, y2 = by * UNIT + ny;
      const flagged = this.problems.routes.has(i);
      const chosen = this.selected && this.selected.kind === "route" && this.selected.key === i;
      const g = el("g", { class: `ed-route${flagged ? " problem" : ""}${chosen ? " selected" : ""}`, "data-route-index": i,
        "data-a": r.a, "data-b": r.b, tabindex: 0 });
      if (flagged || chosen) {
        g.append(el("line", { x1, y1, x2, y2, stroke: flagged ? "#d0021b" : "#e0119d", "stroke-width": 13, "stroke-linecap": "round",
          opacity: 0.55 }));
      }
      g.append(el("line", { x1, y1, x2, y2, stroke: "#333", "stroke-width": 8, "stroke-linecap": "round",
        "stroke-dasharray": r.tunnel ? "6 3" : null }));
      g.append(el("line", { x1, y1, x2, y2, stroke: FILLS[r.color] || "#a9a9a9", "stroke-width": 6, "stroke-linecap": "round" }));
      const label = `${r.length}${letters[r.color] || ""}${r.ferry_locomotives ? `·${r.ferry_locomotives}L` : ""}`;
      const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
      g.append(el("rect", { x: mx - 12, y: my - 8, width: 24, height: 15, rx: 4, fill: "#fff", stroke: "#555" }));
      g.append(el("text", { x: mx, y: my + 4, "text-anchor": "middle", "font-size": 11, "font-weight": "bold" }, label));
      svg.append(g);
    });
    (d.cities || []).forEach((c, i) => {
      const [x, y] = this.doc.place(c.name);
      const flagged = this.problems.cities.has(i) || this.problems.cities.has(c.name);
      const chosen = this.selected && this.selected.kind === "city" && this.selected.key === c.name;
      const start = this.routeStart === c.name;
      const g = el("g", { class: `ed-city${flagged ? " problem" : ""}${chosen ? " selected" : ""}`, "data-city": c.name,
        "data-city-index": i, tabindex: 0 });
      if (flagged) g.append(el("circle", { cx: x * UNIT, cy: y * UNIT, r: R + 6, fill: "none", stroke: "#d0021b", "stroke-width": 3 }));
      g.append(el("circle", { cx: x * UNIT, cy: y * UNIT, r: R, fill: start ? "#e0119d" : chosen ? "#1f5fbf" : "#fff",
        stroke: "#3b3b3b", "stroke-width": 2.5 }));
      g.append(el("text", { x: x * UNIT + R + 3, y: y * UNIT - R, "font-size": 13, "font-weight": "bold" }, c.name));
      svg.append(g);
    });
  }
}
