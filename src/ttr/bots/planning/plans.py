"""Ticket plans (a greedy Steiner tree over the cheapest paths) and the cards they need."""

from __future__ import annotations

from dataclasses import dataclass, field

from ttr.bots.planning.board import Board
from ttr.bots.planning.index import INF, MapIndex
from ttr.bots.planning.paths import shortest_path

PATH_CACHE_SIZE = 20_000  # shortest paths `plan_tickets` keeps per map (then it starts over)


@dataclass(slots=True)
class Plan:
    """Routes to claim (and other seats' routes to borrow) so that `tickets` are all connected."""

    tickets: list[int] = field(default_factory=list)
    dropped: list[int] = field(default_factory=list)  # tickets no path can connect any more
    routes: list[int] = field(default_factory=list)
    borrows: list[int] = field(default_factory=list)
    trains: int = 0
    points: int = 0
    cost: float = 0.0


def plan_tickets(board: Board, tickets: list[int], costs: list[float]) -> Plan:
    """A greedy Steiner tree: connect the cheapest ticket first, make its routes free, repeat.

    Tickets already complete cost nothing; tickets with no path end in `dropped`.
    """
    ix = board.ix
    costs = costs[:]
    plan = Plan()
    remaining = list(tickets)
    paths = ix.paths  # shortest paths by (costs, ticket): plans are made again and again on the same costs
    while remaining:
        best: tuple[float, int, int, list[int]] | None = None  # (cost, -points, ticket, path)
        state = tuple(costs)
        for t in remaining:
            found = paths.get((state, t))
            if found is None:
                if len(paths) >= PATH_CACHE_SIZE:
                    paths.clear()
                found = paths[(state, t)] = shortest_path(ix, costs, ix.ticket_a[t], ix.ticket_b[t])
            d, path = found
            if d == INF:
                continue
            key = (d, -ix.ticket_points[t], t, path)
            if best is None or key[:3] < best[:3]:
                best = key
        if best is None:
            plan.dropped.extend(remaining)
            break
        d, _, t, path = best
        plan.cost += d
        for r in path:
            if costs[r] > 0:
                costs[r] = 0.0
                if board.owner[r] < 0:
                    plan.routes.append(r)
                    plan.trains += ix.length[r]
                    plan.points += ix.points[r]
                else:
                    plan.borrows.append(r)
        plan.tickets.append(t)
        remaining.remove(t)
    return plan


# ---------------------------------------------------------------------- cards


def colour_needs(ix: MapIndex, routes: list[int], hand: list[int]) -> tuple[list[int], dict[int, int]]:
    """Cards needed per card type (wild last) to claim all of `routes`, and the colour chosen for each
    gray route (the colour the hand holds most spare of after the coloured routes; longest gray first).
    Ferry locomotives count as wild cards needed."""
    need = [0] * (ix.ncol + 1)
    gray = []
    for r in routes:
        c = ix.colour[r]
        need[ix.wild] += ix.ferry[r]
        if c >= 0:
            need[c] += ix.length[r]
        else:
            gray.append(r)
    chosen: dict[int, int] = {}
    for r in sorted(gray, key=lambda r: (-ix.length[r], r)):
        body = ix.length[r] - ix.ferry[r]
        if body <= 0:
            chosen[r] = ix.wild
            continue
        best = max(range(ix.ncol), key=lambda c: (hand[c] - need[c], -c))
        need[best] += body
        chosen[r] = best
    return need, chosen


def route_missing(ix: MapIndex, r: int, hand: list[int]) -> tuple[int, int]:
    """(cards still missing to claim route r alone, the best colour to pay it with)."""
    length, ferry, c = ix.length[r], ix.ferry[r], ix.colour[r]
    wild = hand[ix.wild]
    if wild < ferry:
        extra_wild = ferry - wild
        wild = 0
    else:
        extra_wild = 0
        wild -= ferry
    body = length - ferry
    if c < 0:
        c = max(range(ix.ncol), key=lambda k: (hand[k], -k))
    return extra_wild + max(0, body - hand[c] - wild), c
