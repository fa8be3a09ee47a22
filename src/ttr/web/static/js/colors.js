// Card and player colours, each with a letter or symbol so that no information rests on colour alone.

export const FILLS = {
  red: "#d7263d", orange: "#f58a07", yellow: "#f7d038", green: "#3aa655", blue: "#2f6fde",
  purple: "#8a4fbf", pink: "#f28cc3", black: "#2b2b2b", white: "#fbfbf8", gray: "#a9a9a9",
  locomotive: "conic-gradient(#d7263d, #f7d038, #3aa655, #2f6fde, #8a4fbf, #d7263d)",
  taxi: "repeating-linear-gradient(45deg, #f7d038 0 6px, #2b2b2b 6px 9px)",
};
const PREFERRED = { black: "K", blue: "B", brown: "N", gray: "" };

/** The same letters the board uses (ttr.maps.render.color_letters): black K, blue B, ... */
export function colorLetters(colors) {
  const letters = { gray: "" };
  const used = new Set();
  for (const color of colors) {
    const choices = PREFERRED[color] ? [PREFERRED[color]] : [];
    for (const ch of color) if (/[a-z]/i.test(ch)) choices.push(ch.toUpperCase());
    const letter = choices.find((c) => !used.has(c)) || "?";
    letters[color] = letter;
    used.add(letter);
  }
  return letters;
}

/** Dark text on light fills. */
export function textOn(fill) {
  const m = /^#([0-9a-f]{6})$/i.exec(fill || "");
  if (!m) return "#111";
  const n = parseInt(m[1], 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 140 ? "#111" : "#fff";
}

// Players: colour, symbol (shown on every claimed space and station) and a pattern name.
export const PLAYERS = [
  { fill: "#1f5fbf", symbol: "●" },
  { fill: "#c62828", symbol: "▲" },
  { fill: "#2e7d32", symbol: "■" },
  { fill: "#f9c80e", symbol: "◆" },
  { fill: "#212121", symbol: "★" },
];

export function playerStyle(seat) {
  return PLAYERS[seat % PLAYERS.length];
}
