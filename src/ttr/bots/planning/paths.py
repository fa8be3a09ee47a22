"""Path costs per route, Dijkstra, and what closing routes adds to a path."""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from ttr.bots.planning.board import Board
from ttr.bots.planning.index import INF, MapIndex


def route_costs(
    board: Board,
    overhead: float = 0.0,
    tunnel_penalty: float = 0.0,
    ferry_penalty: float = 0.0,
    min_length: int = 0,
    borrow_cost: float | None = None,
) -> list[float]:
    """A cost per route for path finding: 0 for the seat's own routes, `length + penalties` for the open
    routes it has the trains for (and at least `min_length` long), `borrow_cost` for other seats' routes a
    station could still borrow (a city at either end free of stations, stations left), else `INF`."""
    ix = board.ix
    seat = board.seat
    trains = board.my_trains
    can_borrow = borrow_cost is not None and board.my_stations > 0
    borrow = INF if borrow_cost is None else float(borrow_cost)
    costs: list[float] = []
    append = costs.append
    lengths, ferry, tunnel, is_open = ix.length, ix.ferry, ix.tunnel, board.open
    station_at, route_a, route_b = board.station_at, ix.route_a, ix.route_b
    for r, o in enumerate(board.owner):
        if o == seat:
            append(0.0)
        elif is_open[r]:
            length = lengths[r]
            if length > trains or length < min_length:
                append(INF)
            else:
                c = length + overhead + ferry_penalty * ferry[r]
                if tunnel[r]:
                    c += tunnel_penalty
                append(c)
        elif can_borrow and o >= 0 and (station_at[route_a[r]] < 0 or station_at[route_b[r]] < 0):
            append(borrow)
        else:
            append(INF)
    return costs


def dijkstra(ix: MapIndex, costs: list[float], source: int | Sequence[int],
             target: int = -1) -> tuple[list[float], list[int]]:
    """Shortest distances from `source` (a city, or several cities at distance 0) over routes of finite
    cost, and the route into each city on the way (-1 for none); stops early once `target` is settled."""
    dist = [INF] * ix.ncity
    prev = [-1] * ix.ncity
    sources = [source] if isinstance(source, int) else list(source)
    for s in sources:
        dist[s] = 0.0
    heap: list[tuple[float, int]] = [(0.0, s) for s in sources]
    adj = ix.adj
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        d, u = pop(heap)
        if d > dist[u]:
            continue
        if u == target:
            break
        for r, v in adj[u]:
            nd = d + costs[r]
            if nd < dist[v]:
                dist[v] = nd
                prev[v] = r
                push(heap, (nd, v))
    return dist, prev


def path_to(ix: MapIndex, prev: list[int], source: int, target: int) -> list[int]:
    """The routes of the path `dijkstra` found from `source` (-1: any of its sources) to `target`, target first."""
    out = []
    city = target
    while city != source:
        r = prev[city]
        if r < 0 and source < 0:
            break
        if r < 0:
            return []
        out.append(r)
        city = ix.route_b[r] if ix.route_a[r] == city else ix.route_a[r]
    return out


def distance_without(ix: MapIndex, costs: list[float], a: int, b: int, closed: Sequence[int]) -> float:
    """The cheapest path cost from city a to city b with the routes `closed` shut (`costs` is left as given)."""
    saved = [costs[x] for x in closed]
    for x in closed:
        costs[x] = INF
    far = dijkstra(ix, costs, a, b)[0][b]
    for x, c in zip(closed, saved, strict=True):
        costs[x] = c
    return far


def cut_cost(ix: MapIndex, costs: list[float], a: int, b: int, base: float, closed: Sequence[int],
             points: int) -> float:
    """What shutting the routes `closed` adds to the cheapest path cost `base` from city a to city b, at most
    twice `points` (a ticket it cuts off loses its points and gains none): the damage of a blocking claim."""
    return min(distance_without(ix, costs, a, b, closed) - base, 2.0 * points)


def shortest_path(ix: MapIndex, costs: list[float], a: int, b: int) -> tuple[float, list[int]]:
    """(cost, routes) of a cheapest path from a to b; (INF, []) if there is none."""
    dist, prev = dijkstra(ix, costs, a, b)
    if dist[b] == INF:
        return INF, []
    return dist[b], path_to(ix, prev, a, b)
