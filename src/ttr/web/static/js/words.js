// Actions, cards and log entries in words, in the current language.
import { t, tOr, city, colorName, pairName } from "./i18n.js";

/** {"red": 2, "locomotive": 1} -> "2 × red, 1 × locomotive" */
export function cardsText(cards) {
  const parts = Object.entries(cards || {}).filter(([, n]) => n > 0).map(([c, n]) => t("cards.count", { n, card: colorName(c) }));
  return parts.length ? parts.join(t("list.sep")) : t("cards.none");
}

export function cardListText(list) {
  return (list || []).map(colorName).join(t("list.sep"));
}

/** A ticket name "A-B" in words. */
export function ticketText(name) {
  return pairName(name);
}

/** A legal action (record form) in words, for buttons and confirmations. */
export function actionText(action) {
  switch (action.action) {
    case "draw_card":
      return action.from === "deck" ? t("act.draw_deck") : t("act.draw_face_up", { card: colorName(action.card) });
    case "claim_route":
      return t("act.claim", { route: pairName(action.route), cards: cardsText(action.cards) });
    case "pay_tunnel":
      return t("act.pay", { cards: cardsText(action.cards) });
    case "abandon_tunnel":
      return t("act.abandon");
    case "build_station":
      return t("act.station", { city: city(action.city), cards: cardsText(action.cards) });
    case "draw_tickets":
      return t("act.draw_tickets");
    case "keep_tickets":
      return t("act.keep", { tickets: (action.tickets || []).map(ticketText).join(t("list.sep")) });
    case "pass":
      return t("act.pass");
    default:
      return action.action;
  }
}

/** A log entry (docs/records.md form with `player`) in words; `names` are the seats' names. `tunnel` (from
 * `logLines`) says how a tunnel claim went on: "pending" (its extra cards are being decided: only tried),
 * "settled" (paid or given up next: tried) or absent (claimed at once); `route` names a payment's tunnel. */
export function logText(entry, names, { tunnel = null, route = null } = {}) {
  const p = names[entry.player] ?? String(entry.player + 1);
  switch (entry.action) {
    case "draw_card":
      if (entry.from === "deck") return entry.card ? t("log.draw_deck_own", { p, card: colorName(entry.card) }) : t("log.draw_deck", { p });
      return t("log.draw_face_up", { p, card: colorName(entry.card) });
    case "claim_route": {
      const key = entry.tunnel_reveal && tunnel ? "log.tunnel_try" : "log.claim";
      const text = t(key, { p, route: pairName(entry.route), cards: cardsText(entry.cards) });
      return entry.tunnel_reveal ? `${text} ${t("log.revealed", { cards: cardListText(entry.tunnel_reveal) || t("cards.none") })}` : text;
    }
    case "pay_tunnel":
      return route ? t("log.tunnel_paid", { p, route: pairName(route), cards: cardsText(entry.cards) }) : t("log.pay", { p, cards: cardsText(entry.cards) });
    case "abandon_tunnel":
      return route ? t("log.tunnel_gave_up", { p, route: pairName(route) }) : t("log.abandon", { p });
    case "build_station":
      return t("log.station", { p, city: city(entry.city), cards: cardsText(entry.cards) });
    case "draw_tickets":
      return t("log.draw_tickets", { p });
    case "keep_tickets":
      return entry.tickets
        ? t("log.keep_own", { p, tickets: entry.tickets.map(ticketText).join(t("list.sep")) })
        : t("log.keep", { p, n: entry.count });
    case "pass":
      return t("log.pass", { p });
    default:
      return `${p}: ${entry.action}`;
  }
}

/** The words of each entry of a log, each read with the entries around it: a tunnel whose extra cards are
 * due is "tried" (then claimed by its payment, or given up), not "claimed" before it is. `pendingTunnel`: the
 * last entry's tunnel still waits for its payment (the view's turn is `tunnel_payment`). */
export function logLines(log, names, pendingTunnel = false) {
  const entries = log || [];
  return entries.map((entry, i) => {
    if (entry.action === "claim_route" && entry.tunnel_reveal) {
      const next = entries[i + 1];
      const settled = next && next.player === entry.player && (next.action === "pay_tunnel" || next.action === "abandon_tunnel");
      const pending = i === entries.length - 1 && pendingTunnel;
      return logText(entry, names, { tunnel: settled ? "settled" : pending ? "pending" : null });
    }
    if (entry.action === "pay_tunnel" || entry.action === "abandon_tunnel") {
      const prev = entries[i - 1];
      return logText(entry, names, { route: prev && prev.action === "claim_route" ? prev.route : null });
    }
    return logText(entry, names);
  });
}

/** A hint's reason in words: the server's `reason_i18n` ({key, route, tickets, ...}, docs/web-protocol.md)
 * in the current language, or `fallback` (the server's English text) for a reason this page cannot say. */
export function reasonText(data, fallback = "") {
  if (!data || typeof data.key !== "string") return fallback;
  const params = {};
  for (const [name, value] of Object.entries(data)) {
    if (name === "key") continue;
    if (name === "route") params.route = value ? pairName(value) : "";
    else if (name === "routes" || name === "tickets") params[name] = (value || []).map(pairName).join(t("list.sep"));
    else if (name === "city") params.city = city(value);
    else if (name === "card") params.card = colorName(value);
    else if (name === "pieces") params.pieces = tOr(`piece.${value}`, String(value));
    else params[name] = value;
  }
  return tOr(data.key, fallback, params);
}
