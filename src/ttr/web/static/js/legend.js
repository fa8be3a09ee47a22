// The board's legend, under the board: what its marks mean, only those this map has (tunnels, ferries,
// double routes, stations, tourist attractions with their points).
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";

const SVGNS = "http://www.w3.org/2000/svg";

/** A small drawing of a board mark: markup in the board's own shapes and colours (ttr.maps.render). */
function swatch(markup) {
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", "-14 -9 28 18");
  svg.setAttribute("width", "28");
  svg.setAttribute("height", "18");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "legend-swatch");
  svg.innerHTML = markup;
  return svg;
}

const SPACE = (stroke) => `<rect x="-11" y="-5.5" width="22" height="11" rx="1.5" fill="#a9a9a9" ${stroke}/>`;
const MARKS = {
  tunnel: SPACE('stroke="#111" stroke-width="1.6" stroke-dasharray="3 2"'),
  ferry: `${SPACE('stroke="#3b3b3b" stroke-width="0.8"')}<g fill="#111" stroke="#fff" stroke-width="0.5">`
    + '<path d="M-4.5,1.2 V-1.8 H0.2 V-3.8 H2.8 V-1.8 H4.5 V1.2 Z"/><circle cx="-2.4" cy="2.4" r="1.3"/><circle cx="2.4" cy="2.4" r="1.3"/></g>',
  double: '<rect x="-11" y="-8" width="22" height="7" rx="1.5" fill="#d7263d" stroke="#3b3b3b" stroke-width="0.8"/>'
    + '<rect x="-11" y="1" width="22" height="7" rx="1.5" fill="#2f6fde" stroke="#3b3b3b" stroke-width="0.8"/>',
  station: '<path d="M-7,6 V-1 L0,-8 L7,-1 V6 Z" fill="#1f5fbf" stroke="#000" stroke-width="1.2"/>',
  attraction: '<circle cx="0" cy="0" r="7" fill="#f7c948" stroke="#5a3b1c" stroke-width="2"/><circle cx="0" cy="0" r="2.5" fill="#5a3b1c"/>',
};

/** Fill `box` with the legend of `mapData` (the map data of /api/maps/{name}). */
export function renderLegend(box, mapData) {
  clear(box);
  const rules = mapData.rules || {};
  const routes = mapData.routes || [];
  const items = [];
  if (routes.some((r) => r.tunnel)) items.push(["tunnel", t("legend.tunnel")]);
  if (routes.some((r) => r.locomotives > 0)) items.push(["ferry", t("legend.ferry")]);
  if (routes.some((r) => r.double)) items.push(["double", t("legend.double")]);
  if (rules.stations > 0) items.push(["station", t("legend.station")]);
  if ((mapData.cities || []).some((c) => c.attraction)) {
    items.push(["attraction", t("legend.attraction", { n: rules.attraction_points || 0 })]);
  }
  box.hidden = !items.length;
  box.append(h("h2", { class: "visually-hidden" }, t("legend.title")),
    h("ul", { class: "legend-list" }, items.map(([kind, text]) => h("li", { dataset: { mark: kind } }, swatch(MARKS[kind]), h("span", {}, text)))));
}
