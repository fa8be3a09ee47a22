// Paths over a player's routes: is a ticket joined, and which routes join it.
import { splitPair } from "./i18n.js";

/** Adjacency over the given routes (facts from board.routeFacts, or the map data's): city -> [{to, route}]. */
export function adjacency(routes) {
  const adj = new Map();
  const add = (x, y, r) => {
    if (!adj.has(x)) adj.set(x, []);
    adj.get(x).push({ to: y, route: r });
  };
  for (const r of routes) {
    add(r.a, r.b, r);
    add(r.b, r.a, r);
  }
  return adj;
}

/** The routes of a shortest chain from the ticket's one city to the other, or null. */
export function ticketPath(ticketName, routes) {
  const [from, to] = splitPair(ticketName);
  const adj = adjacency(routes);
  const prev = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const here = queue.shift();
    if (here === to) break;
    for (const step of adj.get(here) || []) {
      if (!prev.has(step.to)) {
        prev.set(step.to, { from: here, route: step.route });
        queue.push(step.to);
      }
    }
  }
  if (!prev.has(to)) return null;
  const path = [];
  for (let at = to; prev.get(at); at = prev.get(at).from) path.push(prev.get(at).route);
  return path;
}
