// The board: the server's SVG (ttr.maps.render) made live: city names translated, claimed routes in
// their owner's colour and symbol, stations, claimable routes highlighted, details on hover, focus or tap.
import { city, colorName, t, tOr, pairName } from "./i18n.js";
import { playerStyle, textOn } from "./colors.js";
import { h } from "./dom.js";

const SVGNS = "http://www.w3.org/2000/svg";

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
    this.wrap = h("div", { class: "board-wrap" });
    this.tip = h("div", { class: "board-tip", role: "status", hidden: true });
    this.zoom = 1;
    const zoomBy = (k) => {
      this.zoom = Math.min(3, Math.max(1, this.zoom * k));
      this.svg.style.width = `${Math.round(this.zoom * 100)}%`;
    };
    const zoomBar = h("div", { class: "zoom" },
      h("button", { type: "button", class: "icon zoom-in", "aria-label": t("board.zoom_in"), onclick: () => zoomBy(1.5) }, "+"),
      h("button", { type: "button", class: "icon zoom-out", "aria-label": t("board.zoom_out"), onclick: () => zoomBy(1 / 1.5) }, "−"));
    this.zoomBar = zoomBar;
    container.append(zoomBar, this.wrap, this.tip);
    const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
    this.svg = document.importNode(doc.documentElement, true);
    this.svg.removeAttribute("width");
    this.svg.removeAttribute("height");
    this.svg.classList.add("board");
    this.svg.setAttribute("role", "group");
    this.wrap.append(this.svg);
    const heading = this.svg.querySelector("text.map-title");
    this.mapTitle = heading ? heading.textContent : ""; // the map's own title: the fallback for a map the page does not know
    this.routes = routeFacts(this.svg);
    this.byName = new Map(this.routes.filter(Boolean).map((r) => [r.name, r]));
    this.state = { owners: new Map(), stations: new Map(), claimable: new Set(), path: new Set(), names: [] };
    for (const r of this.routes) if (r) this.wireRoute(r);
    for (const g of this.svg.querySelectorAll("g.city")) this.wireCity(g);
    this.relabel();
  }

  routeGroup(index) {
    return this.svg.querySelector(`#route-${index}`);
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
    this.tip.style.left = `${x}px`;
    this.tip.style.top = `${Math.max(0, box.top - outer.top - 36)}px`;
  }

  hideTip() {
    this.tip.hidden = true;
  }

  /**
   * Draw a state.
   * @param {{owners: Map<number, number>, stations: Map<string, number>, claimable: Set<number>,
   *          path?: Set<number>, recentRoutes?: Set<number>, recentCities?: Set<string>, names: string[]}} state
   * (`recent*`: what the others did since this seat's last move, outlined)
   */
  update(state) {
    this.state = { path: new Set(), ...state };
    for (const r of this.routes) {
      if (!r) continue;
      const g = this.routeGroup(r.index);
      const owner = state.owners.get(r.index);
      g.classList.toggle("claimable", state.claimable.has(r.index));
      g.setAttribute("tabindex", state.claimable.has(r.index) ? "0" : "-1");
      g.classList.toggle("on-path", this.state.path.has(r.index));
      g.classList.toggle("taken", owner !== undefined);
      g.classList.toggle("last-move", owner !== undefined && Boolean(state.recentRoutes && state.recentRoutes.has(r.index)));
      for (const old of g.querySelectorAll(".owner-piece")) old.remove();
      if (owner !== undefined) {
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
      } else {
        delete g.dataset.seat;
      }
      g.setAttribute("aria-label", this.describe(r.index));
    }
    this.svg.classList.toggle("has-claims", state.owners.size > 0); // unclaimed routes fade a little
    for (const old of this.svg.querySelectorAll(".station-piece")) old.remove();
    for (const g of this.svg.querySelectorAll("g.city")) {
      const owner = state.stations.get(g.dataset.city);
      g.classList.toggle("has-station", owner !== undefined);
      g.classList.toggle("last-move", owner !== undefined && Boolean(state.recentCities && state.recentCities.has(g.dataset.city)));
      g.classList.toggle("station-choice", Boolean(state.stationCities && state.stationCities.has(g.dataset.city)));
      if (state.stationCities && state.stationCities.has(g.dataset.city)) {
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
      } else {
        g.removeAttribute("tabindex");
        g.removeAttribute("role");
      }
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
