// The map speaks for the seat's tickets and the hint: a ticket hovered, focused or tapped (offered or held)
// marks its two cities and its cheapest open path (paths.js), how far a held one has come, the claimable
// routes narrowed to those on the tickets' paths, and the hint's move drawn on the board.
import { openPath } from "./paths.js";
import { splitPair } from "./i18n.js";

const NARROW_KEY = "ttr.narrow";

/** Whether the claimable highlights are narrowed to the seat's ticket paths (the default). */
export function narrowed() {
  return localStorage.getItem(NARROW_KEY) !== "0";
}

export function setNarrowed(on) {
  localStorage.setItem(NARROW_KEY, on ? "1" : "0");
}

/** Who holds what, for paths.js: route id -> seat, this seat, and whether a double route is single-use. */
function who(gv) {
  const { owners } = gv.board.holdings(gv.state.view);
  const rules = gv.mapData.rules || {};
  const players = gv.state.view.players.length;
  return { owners, seat: gv.seat, singleUse: players <= (rules.double_routes_single_use_max_players ?? 3) };
}

/** A ticket's cheapest open path for this seat (`{routes, built, toBuild}`, null: none left); cached per
 * version. */
export function ticketPathFor(gv, name) {
  const key = `${gv.state.version}|${name}`;
  if (!gv.pathCache || gv.pathCache.version !== gv.state.version) gv.pathCache = { version: gv.state.version, paths: new Map() };
  if (!gv.pathCache.paths.has(key)) {
    const [a, b] = splitPair(name);
    gv.pathCache.paths.set(key, openPath(a, b, gv.mapData.routes || [], who(gv)));
  }
  return gv.pathCache.paths.get(key);
}

/** The routes still to claim on the open paths of the seat's unfinished tickets (null: no such ticket). */
export function routesOnTicketPaths(gv) {
  if (gv.seat === null) return null;
  const tickets = gv.state.view.players[gv.seat].tickets || [];
  const out = new Set();
  let open = 0;
  for (const name of tickets) {
    const path = ticketPathFor(gv, name);
    if (!path || !path.toBuild) continue;
    open += 1;
    const { owners } = gv.board.holdings(gv.state.view);
    for (const id of path.routes) if (owners.get(id) === undefined) out.add(id);
  }
  return open ? out : null;
}

/** Show (`pin`: keep shown, a tap) or stop showing (`name` null) a ticket on the board. */
export function showTicket(gv, name, { pin = false, reveal = false } = {}) {
  if (name === null) {
    if (gv.ticketShown && gv.ticketShown.pinned && !pin) return; // a tapped ticket stays until tapped again
    gv.ticketShown = null;
  } else if (pin && gv.ticketShown && gv.ticketShown.pinned && gv.ticketShown.name === name) {
    gv.ticketShown = null; // a second tap hides it
  } else if (!(gv.ticketShown && gv.ticketShown.pinned) || pin) {
    gv.ticketShown = { name, pinned: pin };
  }
  gv.renderBoard();
  for (const li of gv.main.querySelectorAll("li[data-ticket]")) {
    li.classList.toggle("pinned", Boolean(gv.ticketShown && gv.ticketShown.pinned && gv.ticketShown.name === li.dataset.ticket));
  }
  if (reveal && gv.ticketShown) gv.board.showCities(splitPair(gv.ticketShown.name), { fit: pin });
  if (pin && gv.ticketShown) revealBoard(gv);
}

/** A tapped ticket's path is on the board: bring the whole board into the window, above the hand-and-draw
 * bar, when part of it is out (the ticket choice above the board pushes it down; on a phone it fills the
 * screen). */
function revealBoard(gv) {
  const r = gv.boardBox.getBoundingClientRect();
  const bottom = window.innerHeight - (gv.dock ? gv.dock.getBoundingClientRect().height : 0);
  if (r.top < 0 || r.bottom > bottom + 1) gv.boardBox.scrollIntoView({ block: "nearest" });
}

/** The board marks of the ticket shown: its path, the routes still to claim, its cities. */
export function ticketMarks(gv) {
  const shown = gv.ticketShown;
  if (!shown || gv.seat === null) return null;
  const path = ticketPathFor(gv, shown.name);
  const { owners } = gv.board.holdings(gv.state.view);
  const routes = new Set(path ? path.routes : []);
  const todo = new Set([...routes].filter((id) => owners.get(id) === undefined));
  return { path: routes, pathTodo: todo, marked: new Set(splitPair(shown.name)) };
}

/** What the hint's move points at: routes, cities, a face-up card, offered tickets, and the tickets its
 * reason serves (their cities marked). `entry` is the legal entry of the hinted move (or null). */
export function hintMarks(gv, hint, entry) {
  const marks = { routes: new Set(), cities: new Set(), card: null, tickets: new Set(), ticketCities: new Set() };
  if (!hint) return marks;
  const reason = hint.reason_i18n || {};
  const route = (name) => {
    const r = name && gv.board.byName.get(name);
    if (r) marks.routes.add(r.index);
  };
  const action = entry ? entry.action : null;
  if (action) {
    if (action.action === "claim_route") route(action.route);
    else if (action.action === "build_station") marks.cities.add(action.city);
    else if (action.action === "draw_card" && action.from === "face_up") marks.card = action.card;
    else if (action.action === "keep_tickets") for (const tk of action.tickets || []) marks.tickets.add(tk);
    else if (action.action === "pay_tunnel" || action.action === "abandon_tunnel") route(gv.state.view.turn && gv.state.view.turn.tunnel_route);
  }
  for (const name of reason.routes || []) route(name);
  if (reason.route) route(reason.route);
  if (reason.city) marks.cities.add(reason.city);
  for (const tk of [...(reason.tickets || []), ...marks.tickets]) for (const c of splitPair(tk)) marks.ticketCities.add(c);
  return marks;
}
