// A ticket's cheapest open path for a seat, from public facts only (the map, who holds which route): its own
// routes cost nothing, open routes their length; another player's route is closed, and so is the other track
// of a double route where only one may be claimed (few players) or whose other track the seat holds.
import { adjacency } from "./graph.js";

/** What route `r` costs `seat`: 0 its own, its length open, null closed. `owners`: route id -> seat. */
export function routeCost(r, { owners, seat, singleUse }) {
  const owner = owners.get(r.id);
  if (owner !== undefined) return owner === seat ? 0 : null;
  if (r.twin >= 0) {
    const twin = owners.get(r.twin);
    if (twin === seat) return null; // one track of a double route each
    if (twin !== undefined && singleUse) return null;
  }
  return r.length;
}

/**
 * The cheapest open path from city `from` to city `to`: `{routes: [id...], built, toBuild}` (spaces already
 * the seat's, spaces still to claim), or null when no open path is left.
 * @param {{id:number,a:string,b:string,length:number,twin:number}[]} routes the map data's routes
 * @param {{owners: Map<number, number>, seat: number, singleUse: boolean}} who
 */
export function openPath(from, to, routes, who) {
  const adj = adjacency(routes);
  const dist = new Map([[from, 0]]);
  const prev = new Map();
  const done = new Set();
  for (;;) {
    let here = null;
    for (const [c, d] of dist) if (!done.has(c) && (here === null || d < dist.get(here))) here = c;
    if (here === null) return null;
    if (here === to) break;
    done.add(here);
    for (const step of adj.get(here) || []) {
      const cost = routeCost(step.route, who);
      if (cost === null || done.has(step.to)) continue;
      const d = dist.get(here) + cost + 1e-6 * step.route.length; // ties: fewer spaces
      if (!dist.has(step.to) || d < dist.get(step.to)) {
        dist.set(step.to, d);
        prev.set(step.to, { from: here, route: step.route });
      }
    }
  }
  const path = [];
  let built = 0;
  let toBuild = 0;
  for (let at = to; prev.has(at); at = prev.get(at).from) {
    const r = prev.get(at).route;
    path.push(r.id);
    if (who.owners.get(r.id) === who.seat) built += r.length;
    else toBuild += r.length;
  }
  return { routes: path, built, toBuild };
}
