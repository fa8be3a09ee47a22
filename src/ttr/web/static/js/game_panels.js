// The side panels of a game: the players, the draw (face-up cards, deck, tickets, station), your hand,
// your tickets and the log. Each function draws one panel of `gv` (the page's GameView) anew.
import { cardChip } from "./cards.js";
import { playerStyle } from "./colors.js";
import { h, clear } from "./dom.js";
import { t, levelLabel, pairName } from "./i18n.js";
import { ticketPath } from "./graph.js";
import { openStation } from "./game_dialogs.js";
import { isLevelName } from "./names.js";
import { showTicket, ticketPathFor } from "./ticket_map.js";

/** The players table: score, trains (taxis), stations, cards and tickets per seat, whose turn it is. */
export function renderPlayers(gv) {
  const v = gv.state.view;
  const box = clear(gv.playersBox);
  box.append(h("h2", {}, t("game.players")));
  const rules = gv.mapData.rules || {};
  const stationsOn = rules.stations !== 0;
  const piecesAreTaxis = rules.piece_name === "taxis";
  const table = h("table", { class: "players" },
    h("thead", {}, h("tr", {}, ["game.player", "game.score", "game.trains", stationsOn ? "game.stations" : null, "game.cards", "game.tickets"]
      .filter(Boolean).map((k) => h("th", { scope: "col" }, k === "game.trains" && piecesAreTaxis ? t("game.taxis") : t(k))))));
  const body = h("tbody");
  v.players.forEach((p, i) => {
    const style = playerStyle(i);
    const seatInfo = gv.state.seats[i] || {};
    const isTurn = v.turn && v.turn.player === i;
    const handSize = p.hand ? Object.values(p.hand).reduce((a, b) => a + b, 0) : p.hand_size;
    const tickets = p.tickets ? p.tickets.length : p.ticket_count;
    const marker = h("span", { class: "player-mark", "aria-hidden": "true" }, style.symbol);
    marker.style.background = style.fill;
    marker.style.color = i === 3 ? "#111" : "#fff";
    body.append(h("tr", { class: isTurn ? "current" : "", dataset: { seat: i } },
      h("th", { scope: "row" }, marker, " ", gv.names()[i],
        i === gv.seat ? h("span", { class: "tag" }, t("game.you")) : null,
        // the level's tag, unless the name already says it (a program's tag still gives its whole command)
        seatInfo.type === "bot" && (!isLevelName(p.name, i, seatInfo.level) || seatInfo.level.startsWith("cmd:"))
          ? h("span", { class: "tag" }, levelLabel(seatInfo.level)) : null,
        seatInfo.type === "human" && !seatInfo.connected && i !== gv.seat
          ? (gv.standIns.has(i) ? h("span", { class: "tag off stand-in" }, t("game.bot_plays_for", { name: gv.names()[i] }))
            : h("span", { class: "tag off" }, t("game.away"))) : null,
        isTurn ? h("span", { class: "visually-hidden" }, t("game.their_turn")) : null),
      h("td", { class: "score" }, p.score), h("td", {}, p.trains), stationsOn ? h("td", {}, p.stations) : null,
      h("td", {}, handSize), h("td", {}, tickets)));
  });
  table.append(body);
  box.append(h("div", { class: "table-scroll" }, table));
}

/** Face-up cards, the deck, the ticket draw and the station button, each enabled only when legal. */
export function renderDraw(gv) {
  const v = gv.state.view;
  const box = clear(gv.drawBox);
  box.append(h("h2", {}, t("game.draw")));
  const faceUp = new Map(gv.legalOf("draw_card").filter((l) => l.action.from === "face_up").map((l) => [l.action.card, l]));
  const row = h("div", { class: "face-up", role: "group", "aria-label": t("game.face_up") });
  v.face_up.forEach((card, i) => {
    if (!card) {
      row.append(h("span", { class: "slot empty" }, t("game.empty_slot")));
      return;
    }
    const entry = faceUp.get(card);
    row.append(h("button", { type: "button", class: "slot", "data-act": "face-up", dataset: { card, slot: i }, disabled: !entry || gv.pending,
      "aria-label": t("act.draw_face_up", { card: t(`color.${card}`) }), onclick: () => entry && gv.send(entry) }, cardChip(card, gv.letters)));
  });
  const deck = gv.legalOf("draw_card").find((l) => l.action.from === "deck");
  const tickets = gv.legalOf("draw_tickets")[0];
  const stations = gv.stationsByCity();
  box.append(row, h("div", { class: "row" },
    h("button", { type: "button", id: "draw-deck", "data-act": "deck", disabled: !deck || gv.pending, onclick: () => deck && gv.send(deck) },
      ...label(t("game.deck", { n: v.deck_size }), t("game.deck_short", { n: v.deck_size }))),
    h("button", { type: "button", id: "draw-tickets", "data-act": "tickets", disabled: !tickets || gv.pending, onclick: () => tickets && gv.send(tickets) },
      ...label(t("game.draw_tickets", { n: v.ticket_deck_size }), t("game.draw_tickets_short", { n: v.ticket_deck_size }))),
    gv.mapData.rules && gv.mapData.rules.stations === 0 ? null
      : h("button", { type: "button", id: "build-station", "data-act": "station", disabled: !stations.size || gv.pending, onclick: () => openStation(gv, null) },
        ...label(t("game.build_station"), t("game.build_station_short")))),
    h("p", { class: "note" }, t("game.discard", { n: v.discard_size })));
}

/** A button's words: in full, and short for the phone's bar (CSS shows one; a screen reader reads the full). */
function label(long, short) {
  return [h("span", { class: "long" }, long), h("span", { class: "short", "aria-hidden": "true" }, short)];
}

/** The seat's cards (hidden for a spectator). */
export function renderHand(gv) {
  const box = clear(gv.handBox);
  box.hidden = gv.seat === null;
  if (gv.seat === null) return;
  const hand = gv.state.view.players[gv.seat].hand || {};
  box.append(h("h2", {}, t("game.hand")));
  const list = h("ul", { class: "hand", id: "hand-cards" });
  for (const card of [...gv.colors, gv.wild]) {
    if (hand[card]) list.append(h("li", {}, cardChip(card, gv.letters, hand[card])));
  }
  if (!list.children.length) list.append(h("li", {}, t("cards.none")));
  box.append(list);
}

/** The seat's tickets, each done, failed or not yet; hovering or focusing one outlines its path. */
export function renderTickets(gv) {
  const box = clear(gv.ticketsBox);
  box.hidden = gv.seat === null;
  if (gv.seat === null) return;
  const tickets = gv.state.view.players[gv.seat].tickets || [];
  const routes = gv.ownRoutes(gv.seat);
  // once the game is over, the final scoring says which tickets were completed (stations' borrowed routes
  // included) and the others have failed; until then, a ticket is done when its own routes join it
  const final = gv.state.view.final ? gv.state.view.final.players[gv.seat] : null;
  box.append(h("h2", {}, t("game.your_tickets")));
  const list = h("ul", { class: "tickets", id: "ticket-list" });
  const pieces = (gv.mapData.rules || {}).piece_name || "trains";
  for (const name of tickets) {
    const path = ticketPath(name, routes);
    const done = final ? final.tickets_completed.includes(name) : path !== null;
    const failed = final !== null && !done;
    const pts = gv.points.get(name);
    // how far it has come: the spaces of its cheapest open path already yours, of all on it
    const open = done || final ? null : ticketPathFor(gv, name);
    let progress = null;
    if (!done && !final) {
      progress = open
        ? h("span", { class: "ticket-progress", dataset: { built: open.built, total: open.built + open.toBuild } },
          h("span", { class: "progress", "aria-hidden": "true" }, meter(open.built / Math.max(1, open.built + open.toBuild))),
          t("paths.progress", { built: open.built, total: open.built + open.toBuild, n: open.toBuild, pieces: t(`piece.${open.toBuild === 1 ? pieces.replace(/s$/, "") : pieces}`) }))
        : h("span", { class: "ticket-progress blocked" }, t("paths.blocked"));
    }
    list.append(h("li", { class: done ? "done" : failed ? "failed" : "open", tabindex: 0,
      dataset: { ticket: name, done: done ? "1" : "0" },
      onmouseenter: () => showTicket(gv, name), onfocus: () => showTicket(gv, name, { reveal: true }),
      onmouseleave: () => showTicket(gv, null), onblur: () => showTicket(gv, null),
      onclick: () => showTicket(gv, name, { pin: true, reveal: true }) },
      h("span", { class: "mark", "aria-hidden": "true" }, done ? "✔" : failed ? "✘" : "○"), " ", pairName(name),
      pts !== undefined ? h("span", { class: "points" }, t("tickets.points", { n: pts })) : null, " ",
      h("span", { class: "state" }, done ? t("tickets.done") : failed ? t("tickets.failed") : t("tickets.not_yet")),
      progress ? " " : null, progress));
  }
  if (!tickets.length) list.append(h("li", {}, t("tickets.none")));
  box.append(list);
}

function meter(fraction) {
  const bar = h("span");
  bar.style.width = `${Math.round(100 * Math.min(1, Math.max(0, fraction)))}%`;
  return bar;
}

/** The game log in words, scrolled to the latest entry. */
export function renderLog(gv) {
  const box = clear(gv.logBox);
  box.append(h("h2", {}, t("game.log")));
  const list = h("ol", { class: "log", id: "log-list" });
  for (const line of gv.logWords()) list.append(h("li", {}, line));
  box.append(list);
  list.scrollTop = list.scrollHeight;
}
