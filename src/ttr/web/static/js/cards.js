// Card chips: a colour swatch with its letter (or the wild card's pattern), a name and a count.
import { FILLS, textOn } from "./colors.js";
import { colorName } from "./i18n.js";
import { h } from "./dom.js";
import { cssPattern } from "./patterns.js";

export function cardChip(card, letters, count = null, extra = {}) {
  const fill = FILLS[card] || card;
  const wild = card === "locomotive" || card === "taxi";
  const letter = wild ? "★" : letters[card] || card.slice(0, 1).toUpperCase();
  const swatch = h("span", { class: `swatch card-${card}`, "aria-hidden": "true" }, letter);
  swatch.style.background = fill;
  swatch.style.color = wild ? "#111" : textOn(fill);
  const pattern = cssPattern(card);
  if (pattern) {
    // the colour-blind setting's pattern, under the letter (shown with the setting)
    const layer = h("span", { class: "swatch-pattern", dataset: { pattern: card } });
    layer.style.background = pattern;
    swatch.prepend(layer);
  }
  const label = count === null ? colorName(card) : `${colorName(card)} × ${count}`;
  return h("span", { class: "chip", dataset: { card }, title: label, ...extra }, swatch,
    h("span", { class: "chip-name" }, colorName(card)), count === null ? null : h("span", { class: "chip-count" }, `×${count}`));
}

function wildCount(action, wild) {
  return (action.cards && action.cards[wild]) || 0;
}

/** Card-set choices (legal entries with `action.cards`), cheapest first: fewest wild cards, then fewest cards. */
export function byCost(wild) {
  return (x, y) => wildCount(x.action, wild) - wildCount(y.action, wild)
    || Object.values(x.action.cards || {}).reduce((a, b) => a + b, 0) - Object.values(y.action.cards || {}).reduce((a, b) => a + b, 0);
}
