// The action panel above the board, on the seat's turn when a choice is pending: the tickets to keep, a
// tunnel's payment, or the only move left (pass).
import { byCost, cardChip } from "./cards.js";
import { h, clear } from "./dom.js";
import { t, pairName } from "./i18n.js";
import { cardsText } from "./words.js";
import { showTicket, ticketPathFor } from "./ticket_map.js";

/** The action panel: shown only on the seat's turn with tickets to choose, a tunnel to pay or only a pass left. */
export function renderAction(gv) {
  const box = clear(gv.actionBox);
  box.hidden = true;
  if (!gv.myTurn()) return;
  const phase = gv.state.view.turn.phase;
  if (phase === "choose_tickets") {
    box.hidden = false;
    renderTicketChoice(gv, box);
  } else if (phase === "tunnel_payment") {
    box.hidden = false;
    renderTunnel(gv, box);
  } else if (gv.legalOf("pass").length) {
    box.hidden = false;
    const entry = gv.legalOf("pass")[0];
    box.append(h("p", {}, t("game.only_pass")), h("button", { type: "button", "data-act": "pass", id: "pass-button", onclick: () => gv.send(entry) }, t("act.pass")));
  }
}

function renderTicketChoice(gv, box) {
  const offered = gv.state.view.turn.tickets_offered || [];
  const keeps = gv.legalOf("keep_tickets");
  const key = (list) => list.slice().sort().join("|");
  const byKey = new Map(keeps.map((k) => [key(k.action.tickets), k]));
  const minKeep = Math.min(...keeps.map((k) => k.action.tickets.length));
  box.append(h("h2", { id: "choose-h" }, t("tickets.choose")), h("p", {}, t("tickets.keep_min", { n: minKeep })));
  const boxes = [];
  const list = h("ul", { class: "ticket-offer", "aria-labelledby": "choose-h" });
  const keepButton = h("button", { type: "button", class: "primary", id: "keep-tickets", "data-act": "keep" }, t("tickets.keep"));
  const update = () => {
    const chosen = offered.filter((_, i) => boxes[i].checked);
    const entry = byKey.get(key(chosen));
    keepButton.disabled = !entry || gv.pending;
    keepButton.onclick = entry ? () => gv.send(entry) : null;
  };
  offered.forEach((name, i) => {
    const cb = h("input", { type: "checkbox", id: `offer-${i}`, checked: true, dataset: { ticket: name }, onchange: update,
      onfocus: () => showTicket(gv, name, { reveal: true }), onblur: () => showTicket(gv, null) });
    boxes.push(cb);
    const pts = gv.points.get(name);
    // hovering, focusing or tapping an offered ticket shows its cities and cheapest open path on the board
    const path = ticketPathFor(gv, name);
    const pieces = (gv.mapData.rules || {}).piece_name || "trains";
    const cost = path ? t("paths.offer_cost", { n: path.toBuild, pieces: t(`piece.${path.toBuild === 1 ? pieces.replace(/s$/, "") : pieces}`) })
      : t("paths.blocked");
    list.append(h("li", { dataset: { ticket: name }, onmouseenter: () => showTicket(gv, name), onmouseleave: () => showTicket(gv, null) },
      h("label", { for: `offer-${i}` }, cb, " ", pairName(name), pts !== undefined ? h("span", { class: "points" }, t("tickets.points", { n: pts })) : null,
        h("span", { class: "ticket-progress" }, cost)),
      h("button", { type: "button", class: "icon show-ticket", "aria-label": t("paths.show", { ticket: pairName(name) }),
        onclick: () => showTicket(gv, name, { pin: true, reveal: true }), onfocus: () => showTicket(gv, name, { reveal: true }),
        onblur: () => showTicket(gv, null) }, "◎")));
  });
  box.append(list, keepButton);
  update();
}

function renderTunnel(gv, box) {
  const turn = gv.state.view.turn;
  const pays = gv.legalOf("pay_tunnel").sort(byCost(gv.wild));
  const abandon = gv.legalOf("abandon_tunnel")[0];
  box.append(h("h2", {}, t("tunnel.title", { route: pairName(turn.tunnel_route || "") })),
    h("p", { class: "reveal", id: "tunnel-reveal" }, t("tunnel.revealed"), " ",
      (turn.tunnel_reveal || []).map((c) => cardChip(c, gv.letters))),
    h("p", { id: "tunnel-extra" }, t("tunnel.extra", { n: turn.tunnel_extra ?? "?" })));
  const row = h("div", { class: "row" });
  pays.forEach((entry, i) => row.append(h("button", { type: "button", class: i === 0 ? "primary" : "", "data-act": "pay",
    dataset: { cards: JSON.stringify(entry.action.cards) }, onclick: () => gv.send(entry) }, t("tunnel.pay", { cards: cardsText(entry.action.cards) }))));
  if (!pays.length) row.append(h("p", {}, t("tunnel.cannot_pay")));
  if (abandon) row.append(h("button", { type: "button", id: "abandon-tunnel", "data-act": "abandon", onclick: () => gv.send(abandon) }, t("tunnel.give_up")));
  box.append(row);
}
