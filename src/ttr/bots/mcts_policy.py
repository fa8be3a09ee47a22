"""A position estimate for `mcts` playouts cut short (`MctsBot.depth`): each seat's likely final score.

It works on a sampled `Game` directly (no views). For each seat it finds the cheapest paths that would
complete its unfinished tickets (own routes free, routes closed to it unusable) and adds to the points so
far 4 per unbuilt station, a share of the cards in hand, and each ticket's value weighted by how likely
its remaining path can be built before the game ends. Once the game is over it is the final score.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

from ttr.engine import Game, final_score
from ttr.maps import GameMap

INF = math.inf
CARD_VALUE = 0.6  # points a card in hand is worth (a route earns 1-2.6 points per card)
TRAINS_PER_TURN = 2.0  # how fast the seats use their pieces, to guess the turns left


@dataclass(frozen=True, slots=True)
class Tables:
    """A map as flat tables for path finding."""

    game_map: GameMap
    adj: tuple[tuple[tuple[int, int], ...], ...]  # city -> ((route, other city), ...)
    route_a: tuple[int, ...]
    route_b: tuple[int, ...]
    length: tuple[int, ...]
    colour: tuple[int, ...]  # -1 for gray
    ticket_a: tuple[int, ...]
    ticket_b: tuple[int, ...]
    ticket_points: tuple[int, ...]


def tables(game_map: GameMap) -> Tables:
    """The tables of a map, built once and kept with the map."""
    t: Tables | None = game_map.engine_cache.get("bots.mcts_tables")
    if t is None:
        ci = game_map.city_index
        adj: list[list[tuple[int, int]]] = [[] for _ in game_map.cities]
        for r in game_map.routes:
            a, b = ci[r.a], ci[r.b]
            adj[a].append((r.index, b))
            adj[b].append((r.index, a))
        t = Tables(
            game_map, tuple(tuple(x) for x in adj), tuple(ci[r.a] for r in game_map.routes),
            tuple(ci[r.b] for r in game_map.routes), tuple(r.length for r in game_map.routes),
            tuple(-1 if r.color == "gray" else game_map.colors.index(r.color) for r in game_map.routes),
            tuple(ci[x.a] for x in game_map.tickets), tuple(ci[x.b] for x in game_map.tickets),
            tuple(x.points for x in game_map.tickets))
        game_map.engine_cache["bots.mcts_tables"] = t
    return t


def route_costs(game: Game, seat: int) -> list[float]:
    """Per route: 0 if `seat` holds it, its length if `seat` may still claim it, else infinite."""
    owner = game.owner
    blocked = game.blocked
    excluded = game.excluded[seat]
    claim_base = game.cat.claim_base
    length = tables(game.map).length
    trains = game.trains[seat]
    out = []
    for r, o in enumerate(owner):
        if o == seat:
            out.append(0.0)
        elif blocked[r] or length[r] > trains or (excluded and claim_base[r] in excluded):
            out.append(INF)
        else:
            out.append(float(length[r]))
    return out


def shortest(t: Tables, costs: list[float], a: int, b: int) -> tuple[float, list[int]]:
    """(cost, routes) of a cheapest path from city a to city b; (INF, []) if there is none."""
    dist = {a: 0.0}
    prev: dict[int, int] = {}
    heap = [(0.0, a)]
    adj = t.adj
    while heap:
        d, u = heapq.heappop(heap)
        if u == b:
            break
        if d > dist[u]:
            continue
        for r, v in adj[u]:
            nd = d + costs[r]
            if nd < dist.get(v, INF):
                dist[v] = nd
                prev[v] = r
                heapq.heappush(heap, (nd, v))
    if b not in dist:
        return INF, []
    path = []
    city = b
    while city != a:
        r = prev[city]
        path.append(r)
        city = t.route_a[r] if t.route_b[r] == city else t.route_b[r]
    return dist[b], path


def ticket_paths(game: Game, seat: int) -> list[tuple[int, float, list[int]]]:
    """Per ticket of `seat`: (ticket, remaining path cost, routes still to claim)."""
    t = tables(game.map)
    costs = route_costs(game, seat)
    out = []
    for ticket in game.tickets[seat]:
        d, path = shortest(t, costs, t.ticket_a[ticket], t.ticket_b[ticket])
        out.append((ticket, d, [r for r in path if costs[r] > 0]))
    return out


def turns_left(game: Game) -> float:
    """A guess at how many turns each seat still has."""
    if game.final_turns >= 0:
        return 1.0
    rest = min(game.trains) - game.map.rules.end_trigger_pieces
    return max(1.0, rest / TRAINS_PER_TURN)


def estimate(game: Game) -> list[float]:
    """Each seat's estimated final score (the real breakdown once the game is over)."""
    if game.is_over:
        return [float(p.total) for p in final_score(game).players]
    t = tables(game.map)
    turns = turns_left(game)
    station_points = game.map.rules.unbuilt_station_points
    out = []
    for seat in range(game.n):
        hand = sum(game.hands[seat])
        value = game.scores[seat] + station_points * game.stations_left[seat] + CARD_VALUE * hand
        todo: set[int] = set()
        # Cheapest tickets first; each adds its path to what is still to build, which must fit the
        # trains and (roughly) the turns left: a card per train, two cards a turn, a turn per claim.
        for ticket, d, path in sorted(ticket_paths(game, seat), key=lambda x: x[1]):
            points = t.ticket_points[ticket]
            if d == 0:
                value += points
                continue
            todo.update(path)
            trains = sum(t.length[r] for r in todo)
            if d == INF or trains > game.trains[seat]:
                value -= points
                continue
            needed = max(0.0, trains - 0.7 * hand) / 2.0 + len(todo)
            chance = 1.0 / (1.0 + math.exp(4.0 * (needed / turns - 1.0)))
            value += points * (2.0 * chance - 1.0)
        out.append(value)
    return out
