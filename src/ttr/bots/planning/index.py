"""The map as flat int tables for planning (`MapIndex`, built once per map and cached)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ttr.engine import Action
from ttr.maps import GameMap

INF = float("inf")


@dataclass(frozen=True, slots=True)
class MapIndex:
    """A map as flat int tables for fast planning (cities, cards, routes, tickets are indexes)."""

    game_map: GameMap
    ncity: int
    ncol: int
    wild: int
    route_a: tuple[int, ...]
    route_b: tuple[int, ...]
    length: tuple[int, ...]
    colour: tuple[int, ...]  # card index, -1 for gray
    ferry: tuple[int, ...]
    tunnel: tuple[bool, ...]
    twin: tuple[int, ...]
    points: tuple[int, ...]
    link: tuple[int, ...]  # route -> link (the city pair it joins)
    link_routes: tuple[tuple[int, ...], ...]
    adj: tuple[tuple[tuple[int, int], ...], ...]  # city -> ((route, other city), ...)
    ticket_a: tuple[int, ...]
    ticket_b: tuple[int, ...]
    ticket_points: tuple[int, ...]
    ticket_long: tuple[bool, ...]
    routes_by_length: tuple[int, ...]  # longest first, then map order
    attraction: tuple[int, ...] = ()  # city -> points for reaching it (New York's tourist attractions), else 0
    parsed: dict[Action, tuple[int, int, int, int]] = field(default_factory=dict, compare=False)  # see sort_options
    by_id: dict[int, tuple[int, int, Any]] = field(default_factory=dict, compare=False)  # see sort_options
    static: list[Any] = field(default_factory=list, compare=False)  # see game_options: id -> decoded entry
    static_ids: dict[Action, int] = field(default_factory=dict, compare=False)  # see game_options: action -> id
    trails: dict[frozenset[int], int] = field(default_factory=dict, compare=False)  # see trail_length
    paths: dict[tuple[Any, ...], tuple[float, list[int]]] = field(default_factory=dict, compare=False)  # plan_tickets
    open_routes: dict[tuple[Any, ...], list[bool]] = field(default_factory=dict, compare=False)  # Board.from_game

    def route_name(self, r: int) -> str:
        """The record name of route `r`."""
        return self.game_map.routes[r].name

    def ticket_name(self, t: int) -> str:
        """The record name of ticket `t`."""
        return self.game_map.tickets[t].name


def map_index(game_map: GameMap) -> MapIndex:
    """The `MapIndex` of a map, built once and kept with the map."""
    found: MapIndex | None = game_map.engine_cache.get("bots.map_index")
    if found is not None:
        return found
    m = game_map
    city = m.city_index
    colours = {c: i for i, c in enumerate(m.colors)}
    links: dict[frozenset[int], int] = {}
    link_of: list[int] = []
    link_routes: list[list[int]] = []
    adj: list[list[tuple[int, int]]] = [[] for _ in m.cities]
    for r in m.routes:
        a, b = city[r.a], city[r.b]
        key = frozenset((a, b))
        if key not in links:
            links[key] = len(link_routes)
            link_routes.append([])
        link_of.append(links[key])
        link_routes[links[key]].append(r.index)
        adj[a].append((r.index, b))
        adj[b].append((r.index, a))
    lengths = tuple(r.length for r in m.routes)
    ix = MapIndex(
        game_map=m, ncity=len(m.cities), ncol=len(m.colors), wild=len(m.colors),
        route_a=tuple(city[r.a] for r in m.routes), route_b=tuple(city[r.b] for r in m.routes),
        length=lengths, colour=tuple(colours.get(r.color, -1) for r in m.routes),
        ferry=tuple(r.ferry_locomotives for r in m.routes),
        tunnel=tuple(r.tunnel and m.rules.tunnel_reveal > 0 for r in m.routes),
        twin=tuple(r.twin for r in m.routes),
        points=tuple(m.rules.route_points.get(r.length, 0) for r in m.routes),
        link=tuple(link_of), link_routes=tuple(tuple(x) for x in link_routes),
        adj=tuple(tuple(x) for x in adj),
        ticket_a=tuple(city[t.a] for t in m.tickets), ticket_b=tuple(city[t.b] for t in m.tickets),
        ticket_points=tuple(t.points for t in m.tickets), ticket_long=tuple(t.long for t in m.tickets),
        routes_by_length=tuple(sorted(range(len(m.routes)), key=lambda r: (-lengths[r], r))),
        attraction=tuple(m.rules.attraction_points if c.name in m.tourist_attractions else 0 for c in m.cities),
    )
    game_map.engine_cache["bots.map_index"] = ix
    return ix
