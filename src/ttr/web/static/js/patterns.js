// The colour-blind setting: each card colour also gets a pattern (stripes, hatching, dots), on every route
// space of the board and every card chip, so that colours apart from their letters still differ in grey or
// to a colour-blind eye. One description per colour draws both (SVG patterns, CSS gradients).
const SVGNS = "http://www.w3.org/2000/svg";
const KEY = "ttr.patterns";

// kind of mark per colour (gray, the colour of no colour, stays plain); `light`: marks in white on a dark colour
export const PATTERNS = {
  red: { kind: "diag-up" }, blue: { kind: "diag-down", light: true }, green: { kind: "horizontal" },
  orange: { kind: "vertical" }, purple: { kind: "cross", light: true }, pink: { kind: "grid" },
  yellow: { kind: "dots" }, black: { kind: "dots", light: true }, white: { kind: "rings" },
};

export function patternsOn() {
  return localStorage.getItem(KEY) === "1";
}

/** Turn the patterns on or off everywhere on the page (a class on the root element) and remember it. */
export function setPatterns(on) {
  localStorage.setItem(KEY, on ? "1" : "0");
  applyPatterns();
}

export function applyPatterns() {
  document.documentElement.classList.toggle("patterns", patternsOn());
}

function ink(p) {
  return p.light ? "rgba(255,255,255,0.85)" : "rgba(0,0,0,0.55)";
}

/** The SVG marks of one pattern tile (6 units square). */
function tile(p) {
  const stroke = `stroke="${ink(p)}" stroke-width="1.3"`;
  switch (p.kind) {
    case "diag-up": return `<path d="M-1,7 L7,-1 M-1,1 L1,-1 M5,7 L7,5" ${stroke}/>`;
    case "diag-down": return `<path d="M-1,-1 L7,7 M-1,5 L1,7 M5,-1 L7,1" ${stroke}/>`;
    case "horizontal": return `<path d="M0,3 H6" ${stroke}/>`;
    case "vertical": return `<path d="M3,0 V6" ${stroke}/>`;
    case "cross": return `<path d="M-1,7 L7,-1 M-1,-1 L7,7" ${stroke}/>`;
    case "grid": return `<path d="M0,3 H6 M3,0 V6" ${stroke}/>`;
    case "dots": return `<circle cx="3" cy="3" r="1.3" fill="${ink(p)}"/>`;
    case "rings": return `<circle cx="3" cy="3" r="1.6" fill="none" stroke="${ink(p)}" stroke-width="0.8"/>`;
    default: return "";
  }
}

/** A CSS background for a card chip with the same marks. */
export function cssPattern(color) {
  const p = PATTERNS[color];
  if (!p) return "";
  const c = ink(p);
  switch (p.kind) {
    case "diag-up": return `repeating-linear-gradient(-45deg, ${c} 0 2px, transparent 2px 6px)`;
    case "diag-down": return `repeating-linear-gradient(45deg, ${c} 0 2px, transparent 2px 6px)`;
    case "horizontal": return `repeating-linear-gradient(0deg, ${c} 0 2px, transparent 2px 6px)`;
    case "vertical": return `repeating-linear-gradient(90deg, ${c} 0 2px, transparent 2px 6px)`;
    case "cross": return `repeating-linear-gradient(45deg, ${c} 0 1.5px, transparent 1.5px 6px), repeating-linear-gradient(-45deg, ${c} 0 1.5px, transparent 1.5px 6px)`;
    case "grid": return `repeating-linear-gradient(0deg, ${c} 0 1.5px, transparent 1.5px 6px), repeating-linear-gradient(90deg, ${c} 0 1.5px, transparent 1.5px 6px)`;
    case "dots": return `radial-gradient(${c} 1.6px, transparent 1.8px) 0 0 / 6px 6px`;
    case "rings": return `radial-gradient(transparent 1.2px, ${c} 1.4px 2.2px, transparent 2.4px) 0 0 / 6px 6px`;
    default: return "";
  }
}

/** Add the patterns to a board SVG and a patterned layer to each route space (shown with the setting). */
export function patternBoard(svg) {
  const defs = document.createElementNS(SVGNS, "defs");
  defs.innerHTML = Object.entries(PATTERNS).map(([color, p]) =>
    `<pattern id="pat-${color}" patternUnits="userSpaceOnUse" width="6" height="6">${tile(p)}</pattern>`).join("");
  svg.insertBefore(defs, svg.firstChild);
  for (const g of svg.querySelectorAll("g.route")) {
    const color = g.dataset.color;
    if (!PATTERNS[color]) continue;
    for (const space of g.querySelectorAll("g.space")) {
      const rect = space.querySelector("rect");
      const layer = rect.cloneNode(false);
      layer.setAttribute("class", "space-pattern");
      layer.setAttribute("fill", `url(#pat-${color})`);
      layer.setAttribute("stroke", "none");
      layer.setAttribute("data-pattern", color);
      rect.after(layer);
    }
  }
}
