"""Blocking claims judged on sampled worlds: which open route would hurt the other seats most.

`TicketBelief.block_damage` (`ttr.bots.inference`) weighs each possible ticket of a seat by its own
evidence. A sampled world holds a whole ticket set that explains the seat's claims together (the search's
worlds are resampled by that likelihood), so the routes that many of those sets still need stand out
here even when no single ticket is likely: the bottleneck into a city most explanations share.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ttr.bots.mcts_policy import INF, route_costs
from ttr.bots.planning import cut_cost, map_index, shortest_path
from ttr.engine import Game, doubles


def world_block_damage(worlds: Sequence[Game], seat: int, routes: Collection[int]) -> dict[int, float]:
    """For each of `routes` (open routes `seat` could claim now) that lies on a cheapest remaining path of
    another seat's ticket in one of `worlds` (sampled games of the same position): the path cost that claim
    would add to those paths, summed over the seats and tickets of each world and averaged over the worlds.
    Where double routes are single use, claiming either track closes both. A ticket cut off counts twice
    its points. Routes that lengthen no such path are left out."""
    if not worlds or not routes:
        return {}
    game_map = worlds[0].map
    ix = map_index(game_map)  # built once per map
    damage: dict[int, float] = {}
    for world in worlds:
        for q in range(world.n):
            if q == seat:
                continue
            costs = route_costs(world, q)
            for ticket in world.tickets[q]:
                a, b = ix.ticket_a[ticket], ix.ticket_b[ticket]
                base, path = shortest_path(ix, costs, a, b)
                if base == 0 or base == INF:
                    continue
                for x in path:
                    if costs[x] == 0:  # q's own route
                        continue
                    closed = doubles.closed_by(game_map, x, world.n)
                    claims = [r for r in closed if r in routes]
                    if not claims:
                        continue
                    extra = cut_cost(ix, costs, a, b, base, closed, ix.ticket_points[ticket])
                    for r in claims:
                        damage[r] = damage.get(r, 0.0) + extra
    return {r: d / len(worlds) for r, d in damage.items() if d > 0}
