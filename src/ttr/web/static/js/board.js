// The board: the server's SVG (ttr.maps.render) made live: city names translated, claimed routes in
// their owner's colour and symbol, stations, claimable routes highlighted, details on hover, focus or tap.
import { city, colorName, t, tOr, pairName } from "./i18n.js";
import { playerStyle, textOn } from "./colors.js";
import { h } from "./dom.js";
import { patternBoard } from "./patterns.js";

const SVGNS = "http://www.w3.org/2000/svg";
const ZOOM_STEP = 1.25;
const MAX_SCALE = 3;
const LETTER_SIZE = 11; // route letters, in board units (a space is 11 high; a capital 8)
const LETTER_BASELINE = 4; // centres a capital of LETTER_SIZE in its space
// The default zoom is at least READABLE screen pixels per board unit: city names (13 units) at least 11 px
// high and route letters (11 units) at least 9 px, as font sizes and as drawn (tests/web/test_board_view.py)
export const READABLE = 0.85;

/** Set an attribute only where it differs: an update redraws only what changed. */
function setAttr(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

function svgEl(tag, attrs) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** Route facts read from the SVG: index, name, cities, length, colour, tunnel, ferry locomotives, double. */
export function routeFacts(svg) {
  const routes = [];
  for (const g of svg.querySelectorAll("g.route")) {
    const index = Number(g.id.replace("route-", ""));
    routes[index] = {
      index,
      name: g.dataset.route,
      a: g.dataset.a,
      b: g.dataset.b,
      length: Number(g.dataset.length),
      color: g.dataset.color,
      tunnel: g.classList.contains("tunnel"),
      ferry: g.querySelectorAll(".ferry-loco").length,
      double: g.classList.contains("double"),
    };
  }
  return routes;
}

export class Board {
  /**
   * @param {HTMLElement} container where the board goes
   * @param {string} svgText the server's board SVG
   * @param {{onRoute?: (index:number) => void, onCity?: (name:string) => void, pieceName?: string}} options
   */
  constructor(container, svgText, options = {}) {
    this.options = options;
    this.container = container;
    this.wrap = h("div", { class: "board-wrap" }); // the scrolling viewport: drag, swipe or pinch to move and zoom
    this.tip = h("div", { class: "board-tip", role: "status", hidden: true });
    const zoomBar = h("div", { class: "zoom" },
      h("button", { type: "button", class: "icon zoom-in", "aria-label": t("board.zoom_in"), onclick: () => this.zoomBy(ZOOM_STEP) }, "+"),
      h("button", { type: "button", class: "icon zoom-out", "aria-label": t("board.zoom_out"), onclick: () => this.zoomBy(1 / ZOOM_STEP) }, "−"));
    this.zoomBar = zoomBar;
    container.append(zoomBar, this.wrap, this.tip);
    const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
    this.svg = document.importNode(doc.documentElement, true);
    this.svg.removeAttribute("width");
    this.svg.removeAttribute("height");
    this.svg.classList.add("board");
    this.svg.setAttribute("role", "group");
    this.wrap.append(this.svg);
    const vb = (this.svg.getAttribute("viewBox") || "0 0 1000 1000").split(/[\s,]+/).map(Number);
    this.vb = { w: vb[2] || 1000, h: vb[3] || 1000 };
    this.scale = null; // screen pixels per board unit; null until the board is first laid out
    this.userZoomed = false;
    for (const text of this.svg.querySelectorAll("text.space-letter")) {
      // route letters as large as a space allows (the board draws them at 8): readable at the default zoom
      text.setAttribute("font-size", String(LETTER_SIZE));
      text.setAttribute("y", String(LETTER_BASELINE));
    }
    patternBoard(this.svg); // the colour-blind setting's patterns, shown with it (patterns.js)
    wirePanZoom(this);
    const heading = this.svg.querySelector("text.map-title");
    this.mapTitle = heading ? heading.textContent : ""; // the map's own title: the fallback for a map the page does not know
    this.routes = routeFacts(this.svg);
    this.byName = new Map(this.routes.filter(Boolean).map((r) => [r.name, r]));
    this.state = { owners: new Map(), stations: new Map(), claimable: new Set(), path: new Set(), names: [] };
    this.routeGroups = new Map([...this.svg.querySelectorAll("g.route")].map((g) => [g.id, g])); // found once: update reads them all
    this.cities = [...this.svg.querySelectorAll("g.city")];
    for (const r of this.routes) if (r) this.wireRoute(r);
    for (const g of this.cities) this.wireCity(g);
    this.relabel();
  }

  routeGroup(index) {
    return this.routeGroups.get(`route-${index}`);
  }

  wireRoute(route) {
    const g = this.routeGroup(route.index);
    g.setAttribute("tabindex", "-1"); // in the Tab order only while claimable (see update)
    g.setAttribute("role", "button");
    const title = g.querySelector("title");
    if (title) title.remove(); // our own tooltip replaces the browser's
    // a wide invisible stroke along the route, so that a tap between two spaces still hits it
    const centers = [...g.querySelectorAll("g.space")].map((sp) => /translate\(([-\d.]+) ([-\d.]+)\)/.exec(sp.getAttribute("transform")));
    if (centers.length && centers[0] && centers[centers.length - 1]) {
      const [a, b] = [centers[0], centers[centers.length - 1]];
      g.insertBefore(svgEl("line", { class: "route-hit", x1: a[1], y1: a[2], x2: b[1], y2: b[2], stroke: "transparent",
        "stroke-width": 14, "stroke-linecap": "round" }), g.firstChild);
    }
    const show = () => this.showTip(route.index);
    g.addEventListener("mouseenter", show);
    g.addEventListener("focus", show);
    g.addEventListener("mouseleave", () => this.hideTip());
    g.addEventListener("blur", () => this.hideTip());
    g.addEventListener("click", () => {
      show();
      if (this.options.onRoute) this.options.onRoute(route.index);
    });
    g.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        if (this.options.onRoute) this.options.onRoute(route.index);
      } else if (ev.key === "Escape") this.hideTip();
    });
  }

  wireCity(g) {
    const name = g.dataset.city;
    const title = g.querySelector("title");
    if (title) title.remove();
    g.addEventListener("click", () => {
      if (this.options.onCity) this.options.onCity(name);
    });
    g.addEventListener("keydown", (ev) => {
      if ((ev.key === "Enter" || ev.key === " ") && this.options.onCity) {
        ev.preventDefault();
        this.options.onCity(name);
      }
    });
  }

  /** Put the board's title, city names and route labels in the current language. */
  relabel() {
    const title = tOr(`board.title.${this.svg.dataset.map}`, this.mapTitle);
    const heading = this.svg.querySelector("text.map-title");
    if (heading) heading.textContent = title;
    const tooltip = this.svg.querySelector(":scope > title");
    if (tooltip) tooltip.textContent = title;
    this.zoomBar.querySelector(".zoom-in").setAttribute("aria-label", t("board.zoom_in"));
    this.zoomBar.querySelector(".zoom-out").setAttribute("aria-label", t("board.zoom_out"));
    for (const g of this.svg.querySelectorAll("g.city")) {
      const name = city(g.dataset.city);
      for (const text of g.querySelectorAll("text.city-name, text.city-halo")) text.textContent = name;
      g.setAttribute("aria-label", name);
    }
    for (const r of this.routes) if (r) this.routeGroup(r.index).setAttribute("aria-label", this.describe(r.index));
  }

  /** Who holds what in a view: route index -> seat, and station city -> seat. */
  holdings(view) {
    const owners = new Map();
    const stations = new Map();
    view.players.forEach((p, seat) => {
      for (const name of p.routes || []) {
        const r = this.byName.get(name);
        if (r) owners.set(r.index, seat);
      }
      for (const c of p.station_cities || []) stations.set(c, seat);
    });
    return { owners, stations };
  }

  /** A route in words: cities, length, colour, kind, owner or whether you can claim it. */
  describe(index) {
    const r = this.routes[index];
    const parts = [pairName(r.name), t("route.spaces", { n: r.length }), colorName(r.color)];
    if (r.tunnel) parts.push(t("route.tunnel"));
    if (r.ferry) parts.push(t("route.ferry", { n: r.ferry }));
    if (r.double) parts.push(t("route.double"));
    const owner = this.state.owners.get(index);
    if (owner !== undefined) parts.push(t("route.claimed_by", { name: this.state.names[owner] || owner + 1 }));
    else if (this.state.claimable.has(index)) parts.push(t("route.claimable"));
    return parts.join(", ");
  }

  showTip(index) {
    const g = this.routeGroup(index);
    this.tip.textContent = this.describe(index);
    this.tip.hidden = false;
    const box = g.getBoundingClientRect();
    const outer = this.container.getBoundingClientRect();
    const x = Math.max(4, Math.min(box.left - outer.left + box.width / 2, outer.width - 200));
    const top = box.top - outer.top - 36;
    // above the route, or below it when that is off the top of the viewport
    this.tip.style.left = `${x}px`;
    this.tip.style.top = `${Math.max(0, top < 0 ? box.bottom - outer.top + 6 : top)}px`;
  }

  hideTip() {
    this.tip.hidden = true;
  }

  // ---- zoom and pan ----
  /** The scale at which the whole board fits its viewport. */
  fitScale() {
    const w = this.wrap.clientWidth || this.vb.w;
    const hgt = this.wrap.clientHeight || this.vb.h;
    return Math.min(w / this.vb.w, hgt / this.vb.h);
  }

  /** The default zoom: the whole board where that is readable, else readable (and panned). */
  defaultScale() {
    return Math.max(this.fitScale(), READABLE);
  }

  /** Zoom to `scale` (clamped), keeping the board point under the viewport point (`cx`, `cy`: pixels from
   * the viewport's top left; default its centre) where it is. */
  setScale(scale, cx = null, cy = null) {
    const min = Math.min(this.fitScale(), READABLE);
    const next = Math.min(MAX_SCALE, Math.max(min, scale));
    const ax = cx ?? this.wrap.clientWidth / 2;
    const ay = cy ?? this.wrap.clientHeight / 2;
    const old = this.scale || next;
    const bx = (this.wrap.scrollLeft + ax) / old;
    const by = (this.wrap.scrollTop + ay) / old;
    this.scale = next;
    this.svg.style.width = `${Math.round(this.vb.w * next)}px`;
    this.svg.style.height = `${Math.round(this.vb.h * next)}px`;
    this.wrap.scrollLeft = bx * next - ax;
    this.wrap.scrollTop = by * next - ay;
    this.container.dataset.scale = next.toFixed(3);
  }

  zoomBy(k) {
    this.userZoomed = true;
    this.setScale((this.scale || this.defaultScale()) * k);
  }

  /** Centre the viewport on board point (x, y) (board units). */
  centerOn(x, y) {
    this.wrap.scrollLeft = x * this.scale - this.wrap.clientWidth / 2;
    this.wrap.scrollTop = y * this.scale - this.wrap.clientHeight / 2;
  }

  /** A city's centre in board units (its dot), or null. */
  cityPoint(name) {
    const dot = this.svg.querySelector(`g.city[data-city="${CSS.escape(name)}"] circle.city-dot`);
    return dot ? { x: Number(dot.getAttribute("cx")), y: Number(dot.getAttribute("cy")) } : null;
  }

  /** Bring cities into the viewport (centred on their middle) when any of them is out of it; with `fit`, zoom
   * out as far as needed for all of them to fit (a tapped ticket's two cities on a phone). */
  showCities(cities, { fit = false } = {}) {
    if (!this.scale) return;
    const points = cities.map((c) => this.cityPoint(c)).filter(Boolean);
    if (!points.length) return;
    const w = this.wrap;
    if (fit && points.length > 1) {
      const margin = 40; // board units around the cities, for their names
      const spanX = Math.max(...points.map((p) => p.x)) - Math.min(...points.map((p) => p.x)) + 2 * margin;
      const spanY = Math.max(...points.map((p) => p.y)) - Math.min(...points.map((p) => p.y)) + 2 * margin;
      const need = Math.min(w.clientWidth / spanX, w.clientHeight / spanY);
      if (need < this.scale) this.setScale(need);
    }
    const out = points.some((p) => p.x * this.scale < w.scrollLeft || p.x * this.scale > w.scrollLeft + w.clientWidth
      || p.y * this.scale < w.scrollTop || p.y * this.scale > w.scrollTop + w.clientHeight);
    if (!out) return;
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    this.centerOn((Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2);
  }

  /** The first view: the default zoom, centred on the middle of `cities` (the ones that matter to this
   * seat: its tickets' cities; none: the whole board's middle). Again on a resize, until the player zooms. */
  startView(cities = []) {
    this.startCities = cities;
    const apply = () => {
      if (!this.wrap.clientWidth) return;
      this.setScale(this.defaultScale());
      const points = this.startCities.map((c) => this.cityPoint(c)).filter(Boolean);
      if (points.length) {
        const xs = points.map((p) => p.x);
        const ys = points.map((p) => p.y);
        this.centerOn((Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2);
      } else this.centerOn(this.vb.w / 2, this.vb.h / 2);
    };
    apply();
    if (!this.resizer && typeof ResizeObserver !== "undefined") {
      let width = this.wrap.clientWidth;
      this.resizer = new ResizeObserver(() => {
        if (this.wrap.clientWidth === width) return;
        width = this.wrap.clientWidth;
        if (!this.userZoomed) apply();
      });
      this.resizer.observe(this.wrap);
    }
  }

  /**
   * Draw a state.
   * @param {{owners: Map<number, number>, stations: Map<string, number>, claimable: Set<number>,
   *          path?: Set<number>, recentRoutes?: Set<number>, recentCities?: Set<string>, names: string[],
   *          quiet?: Set<number>, pathTodo?: Set<number>, marked?: Set<string>, hinted?: Set<number>,
   *          hintedCities?: Set<string>, quietCities?: Set<string>}} state
   * (`recent*`: what the others did since this seat's last move, outlined; `quiet`: claimable routes drawn
   * without their highlight (off the seat's ticket paths), `quietCities` the station cities likewise; `path`: a ticket's path, `pathTodo` its routes still
   * to claim; `marked`: a ticket's two cities; `hinted`, `hintedCities`: the hint's move)
   */
  update(state) {
    this.state = { path: new Set(), ...state };
    const none = new Set();
    const quiet = state.quiet || none;
    const todo = state.pathTodo || none;
    const hinted = state.hinted || none;
    for (const r of this.routes) {
      if (!r) continue;
      const g = this.routeGroup(r.index);
      const owner = state.owners.get(r.index);
      g.classList.toggle("claimable", state.claimable.has(r.index));
      setAttr(g, "tabindex", state.claimable.has(r.index) ? "0" : "-1");
      g.classList.toggle("on-path", this.state.path.has(r.index));
      g.classList.toggle("path-todo", todo.has(r.index));
      g.classList.toggle("quiet", quiet.has(r.index));
      g.classList.toggle("hinted", hinted.has(r.index));
      g.classList.toggle("taken", owner !== undefined);
      g.classList.toggle("last-move", owner !== undefined && Boolean(state.recentRoutes && state.recentRoutes.has(r.index)));
      const same = owner !== undefined && g.dataset.seat === String(owner) && g.querySelector(".owner-piece");
      if (!same) for (const old of g.querySelectorAll(".owner-piece")) old.remove();
      if (owner !== undefined && !same) {
        g.dataset.seat = String(owner);
        const style = playerStyle(owner);
        for (const space of g.querySelectorAll("g.space")) {
          // a train piece: the whole space in the owner's colour, a thick dark border, and the owner's
          // symbol on a white disc (an unclaimed space shows its colour's letter straight on the colour)
          const rect = space.querySelector("rect");
          const w = Number(rect.getAttribute("width"));
          const hgt = Number(rect.getAttribute("height"));
          const piece = svgEl("g", { class: "owner-piece" });
          piece.append(svgEl("rect", { x: -w / 2 - 0.5, y: -hgt / 2 - 0.5, width: w + 1, height: hgt + 1, rx: 2,
            fill: style.fill, stroke: "#111", "stroke-width": 1.8 }));
          piece.append(svgEl("circle", { class: "owner-disc", cx: 0, cy: 0, r: Math.min(4.2, w / 2), fill: "#fff",
            stroke: "#111", "stroke-width": 0.6 }));
          const mark = svgEl("text", { x: 0, y: 2.5, "font-size": 7, "text-anchor": "middle", fill: "#111" });
          mark.textContent = style.symbol;
          piece.append(mark);
          space.append(piece);
        }
      } else if (owner === undefined) {
        delete g.dataset.seat;
      }
      setAttr(g, "aria-label", this.describe(r.index));
    }
    this.svg.classList.toggle("has-claims", state.owners.size > 0); // unclaimed routes fade a little
    for (const g of this.cities) {
      const owner = state.stations.get(g.dataset.city);
      g.classList.toggle("has-station", owner !== undefined);
      g.classList.toggle("last-move", owner !== undefined && Boolean(state.recentCities && state.recentCities.has(g.dataset.city)));
      g.classList.toggle("station-choice", Boolean(state.stationCities && state.stationCities.has(g.dataset.city)));
      g.classList.toggle("marked", Boolean(state.marked && state.marked.has(g.dataset.city)));
      g.classList.toggle("quiet", Boolean(state.quietCities && state.quietCities.has(g.dataset.city)));
      g.classList.toggle("hinted", Boolean(state.hintedCities && state.hintedCities.has(g.dataset.city)));
      if (state.stationCities && state.stationCities.has(g.dataset.city)) {
        setAttr(g, "tabindex", "0");
        setAttr(g, "role", "button");
      } else {
        if (g.hasAttribute("tabindex")) g.removeAttribute("tabindex");
        if (g.hasAttribute("role")) g.removeAttribute("role");
      }
      // a station stays drawn while its owner is the same (one of another seat, or none, is taken away)
      const old = g.querySelector(":scope > .station-piece");
      if (old && old.dataset.seat === String(owner)) continue;
      if (old) old.remove();
      if (owner === undefined) continue;
      const x = g.dataset.stationX; // beside the dot, clear of the names (the layout chose the side)
      const y = g.dataset.stationY;
      const style = playerStyle(owner);
      const piece = svgEl("g", { class: "station-piece", "data-seat": owner, transform: `translate(${x} ${y})` });
      piece.append(svgEl("path", { d: "M-7,6 V-1 L0,-8 L7,-1 V6 Z", fill: style.fill, stroke: "#000", "stroke-width": 1.2 }));
      const mark = svgEl("text", { x: 0, y: 4, "font-size": 7, "text-anchor": "middle", fill: textOn(style.fill) });
      mark.textContent = style.symbol;
      piece.append(mark);
      g.append(piece);
    }
  }
}

/** Drag with the mouse to pan (a drag is no click); on a touch screen one finger pans (the viewport
 * scrolls) and two pinch to zoom; Ctrl + wheel (a trackpad's pinch) zooms about the pointer. */
function wirePanZoom(board) {
  const wrap = board.wrap;
  let drag = null;
  let dragged = false;
  wrap.addEventListener("pointerdown", (ev) => {
    if (ev.pointerType !== "mouse" || ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, left: wrap.scrollLeft, top: wrap.scrollTop };
    dragged = false;
  });
  wrap.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (!dragged && Math.hypot(dx, dy) < 6) return;
    if (!dragged) wrap.setPointerCapture(ev.pointerId);
    dragged = true;
    wrap.classList.add("dragging");
    wrap.scrollLeft = drag.left - dx;
    wrap.scrollTop = drag.top - dy;
  });
  const end = () => {
    drag = null;
    wrap.classList.remove("dragging");
  };
  wrap.addEventListener("pointerup", end);
  wrap.addEventListener("pointercancel", end);
  // the click that ends a drag opens nothing
  wrap.addEventListener("click", (ev) => {
    if (dragged) {
      ev.stopPropagation();
      ev.preventDefault();
      dragged = false;
    }
  }, true);
  let pinch = null;
  const spread = (ev) => Math.hypot(ev.touches[0].clientX - ev.touches[1].clientX, ev.touches[0].clientY - ev.touches[1].clientY);
  const middle = (ev) => {
    const r = wrap.getBoundingClientRect();
    return [(ev.touches[0].clientX + ev.touches[1].clientX) / 2 - r.left, (ev.touches[0].clientY + ev.touches[1].clientY) / 2 - r.top];
  };
  wrap.addEventListener("touchstart", (ev) => {
    if (ev.touches.length === 2) pinch = { d: spread(ev) || 1, scale: board.scale || board.defaultScale() };
  }, { passive: true });
  wrap.addEventListener("touchmove", (ev) => {
    if (!pinch || ev.touches.length !== 2) return;
    ev.preventDefault();
    board.userZoomed = true;
    board.setScale(pinch.scale * (spread(ev) / pinch.d), ...middle(ev));
  }, { passive: false });
  wrap.addEventListener("touchend", (ev) => {
    if (ev.touches.length < 2) pinch = null;
  });
  wrap.addEventListener("wheel", (ev) => {
    if (!ev.ctrlKey) return;
    ev.preventDefault();
    const r = wrap.getBoundingClientRect();
    board.userZoomed = true;
    board.setScale((board.scale || board.defaultScale()) * Math.exp(-ev.deltaY / 300), ev.clientX - r.left, ev.clientY - r.top);
  }, { passive: false });
}
