"""The map: cities, routes, tickets, cards and the rules that vary by map, indexed for the engine.

A map file (`ttr-map/1`, JSON) decides everything that differs between games: the board, the cards,
the pieces, stations, tunnels, ferries, the ticket counts, the scoring table, the bonuses and the
tie-breaks. The engine reads only the :class:`GameMap` built here, never the map's name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ttr.errors import MapError
from ttr.maps.check import check_map, format_problems
from ttr.maps.schema import MAP_FORMAT, TIEBREAKS

__all__ = ["MAP_FORMAT", "TIEBREAKS", "City", "GameMap", "Route", "Rules", "Ticket", "dump_map_json", "parse_map"]


@dataclass(frozen=True, slots=True)
class Route:
    """One track between two cities. Double routes are two `Route`s sharing `a` and `b`."""

    index: int
    a: str
    b: str
    length: int
    color: str  # a card colour, or "gray"
    tunnel: bool
    ferry_locomotives: int
    name: str  # record notation: "A-B", "A-B/white", "A-B/1"
    twin: int  # index of the other track of a double route, or -1


@dataclass(frozen=True, slots=True)
class Ticket:
    """A destination ticket."""

    index: int
    a: str
    b: str
    points: int
    long: bool
    name: str  # "A-B" in the map file's order


@dataclass(frozen=True, slots=True)
class City:
    """A city with its real coordinates."""

    index: int
    name: str
    lat: float
    lon: float


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules a map file sets (see `docs/maps.md` for each field)."""

    players_min: int
    players_max: int
    pieces: int
    piece_name: str
    stations: int
    station_costs: tuple[int, ...]
    starting_hand: int
    face_up: int
    face_up_wild_limit: int
    face_up_max_resets: int
    setup_long_tickets: int
    setup_regular_tickets: int
    setup_keep_min: int
    setup_returned: str  # "box" (out of the game) or "bottom" (of the ticket deck)
    draw_tickets: int
    draw_keep_min: int
    double_routes_single_use_max_players: int
    end_trigger_pieces: int
    tunnel_reveal: int
    route_points: dict[int, int]
    longest_path_bonus: int
    unbuilt_station_points: int
    attraction_points: int
    tiebreaks: tuple[str, ...]


@dataclass(frozen=True)
class GameMap:
    """A loaded, validated map with the integer indexes the engine works on.

    Cards are small ints: colour ``i`` is ``colors[i]``; the wild card is ``wild == len(colors)``.
    Cities, routes and tickets are indexed by their position in the map file.
    """

    name: str
    title: str
    colors: tuple[str, ...]
    wild_name: str
    per_color: int
    wild_count: int
    cities: tuple[City, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    tourist_attractions: tuple[str, ...]
    rules: Rules
    spelling_variants: dict[str, list[str]]
    source: dict[str, Any] = field(repr=False, compare=False)
    rule_ids: str = "E"  # which part of docs/rules.md names this map's rules in messages: "E" or "N"
    # where each city sits on the drawn board (by city index), in board units; () when drawn from lat/lon
    board: tuple[tuple[float, float], ...] = ()
    origin: str = field(default="", compare=False)  # how it was loaded: a shipped name or a file path
    # values derived from this map, built once by whoever needs them (the catalogue, bot indexes, ...)
    engine_cache: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    city_index: dict[str, int] = field(init=False, repr=False, compare=False)
    route_index: dict[str, int] = field(init=False, repr=False, compare=False)
    ticket_index: dict[str, int] = field(init=False, repr=False, compare=False)
    card_index: dict[str, int] = field(init=False, repr=False, compare=False)
    city_routes: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without `engine_cache`: values derived from the map, built again where needed (in the
        compiled build some of them are objects that do not pickle)."""
        return {**self.__dict__, "engine_cache": {}}

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        city_index = {c.name: c.index for c in self.cities}
        for alias_of, aliases in self.spelling_variants.items():
            for alias in aliases:
                if alias_of in city_index and alias not in city_index:
                    city_index[alias] = city_index[alias_of]
        set_(self, "city_index", city_index)
        route_index: dict[str, int] = {}
        for r in self.routes:
            route_index[r.name] = r.index
            route_index[_reversed_name(r.name)] = r.index
        set_(self, "route_index", route_index)
        ticket_index: dict[str, int] = {}
        for t in self.tickets:
            ticket_index.setdefault(t.name, t.index)
            ticket_index.setdefault(f"{t.b}-{t.a}", t.index)
        set_(self, "ticket_index", ticket_index)
        cards = {c: i for i, c in enumerate(self.colors)}
        cards[self.wild_name] = len(self.colors)
        set_(self, "card_index", cards)
        touching: list[list[int]] = [[] for _ in self.cities]
        for r in self.routes:
            touching[city_index[r.a]].append(r.index)
            touching[city_index[r.b]].append(r.index)
        set_(self, "city_routes", tuple(tuple(t) for t in touching))

    @property
    def wild(self) -> int:
        """The card index of the wild card (locomotive, taxi)."""
        return len(self.colors)

    @property
    def card_names(self) -> tuple[str, ...]:
        """Card names by card index, the wild card last."""
        return (*self.colors, self.wild_name)

    @property
    def total_cards(self) -> int:
        """How many train cards the deck holds."""
        return self.per_color * len(self.colors) + self.wild_count

    @property
    def score_extras(self) -> tuple[str, ...]:
        """The final-score parts this map has beside routes and tickets, in breakdown order: "stations" (it
        has stations), "express" (a longest-path bonus), "attractions" (tourist attractions)."""
        has = (self.rules.stations > 0, self.rules.longest_path_bonus > 0, bool(self.tourist_attractions))
        return tuple(part for part, present in zip(("stations", "express", "attractions"), has, strict=True) if present)

    def card(self, name: str) -> int:
        """The card index of a card name; `MapError` names an unknown card."""
        try:
            return self.card_index[name]
        except KeyError:
            raise MapError(f"unknown card {name!r} (cards: {', '.join(self.card_names)})") from None

    def route(self, name: str) -> Route:
        """A route by its record name ("A-B" or "A-B/track"), either city order."""
        index = self.route_index.get(name)
        if index is None:
            raise MapError(_unknown_route_message(self, name))
        return self.routes[index]

    def ticket(self, name: str) -> Ticket:
        """A ticket by its name "A-B", either city order."""
        index = self.ticket_index.get(name)
        if index is None:
            raise MapError(f"unknown ticket {name!r} on map {self.name}")
        return self.tickets[index]

    def city(self, name: str) -> City:
        """A city by name (the board's spelling, or a listed spelling variant)."""
        index = self.city_index.get(name)
        if index is None:
            raise MapError(f"unknown city {name!r} on map {self.name}")
        return self.cities[index]

    def to_json(self) -> dict[str, Any]:
        """The map file's data, as loaded."""
        return self.source


def _reversed_name(name: str) -> str:
    cities, slash, track = name.partition("/")
    a, _, b = _split_pair(cities)
    return f"{b}-{a}{slash}{track}"


def _split_pair(text: str) -> tuple[str, str, str]:
    """Split "A-B" at the dash; city names hold no dash in the shipped maps."""
    return text.partition("-")


def _unknown_route_message(game_map: GameMap, name: str) -> str:
    cities = name.partition("/")[0]
    a, dash, b = _split_pair(cities)
    if not dash:
        return f"unknown route {name!r}: write a route as 'A-B' or 'A-B/track'"
    for city in (a, b):
        if city not in game_map.city_index:
            return f"unknown route {name!r}: unknown city {city!r} on map {game_map.name}"
    tracks = [r.name for r in game_map.routes if {r.a, r.b} == {a, b}]
    if not tracks:
        return f"unknown route {name!r}: no route joins {a} and {b} on map {game_map.name}"
    return f"unknown route {name!r}: name one of the tracks {', '.join(tracks)}"


def _require(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise MapError(f"{where}: missing field {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise MapError(f"{where}.{key}: expected {names}, got {type(value).__name__}")
    return value


def _route_names(raw_routes: list[dict[str, Any]]) -> list[str]:
    """Record names: "A-B", plus "/colour" on a double route, or "/1", "/2" when both share a colour."""
    by_pair: dict[frozenset[str], list[int]] = {}
    for i, r in enumerate(raw_routes):
        by_pair.setdefault(frozenset((r["a"], r["b"])), []).append(i)
    names = []
    for i, r in enumerate(raw_routes):
        base = f"{r['a']}-{r['b']}"
        group = by_pair[frozenset((r["a"], r["b"]))]
        if len(group) == 1:
            names.append(base)
            continue
        colors = [raw_routes[j]["color"] for j in group]
        if len(set(colors)) == len(colors):
            names.append(f"{base}/{r['color']}")
        else:
            names.append(f"{base}/{group.index(i) + 1}")
    return names


def parse_map(data: Any, where: str = "map") -> GameMap:
    """Build a `GameMap` from a map file's parsed JSON; `MapError` names what is wrong with it.

    This checks the shape (fields and types), then runs `ttr.maps.check.check_map`, which reports every
    problem of the content (unknown cities, duplicate routes, too few cards, ...): all of them are raised
    together, one ``where: message`` line each.
    """
    if not isinstance(data, dict):
        raise MapError(f"{where}: a map file holds a JSON object, got {type(data).__name__}")
    fmt = data.get("format")
    if fmt != MAP_FORMAT:
        raise MapError(f"{where}.format: expected {MAP_FORMAT!r}, got {fmt!r}")
    name = _require(data, "name", str, where)
    title = data.get("title", name)
    cards = _require(data, "cards", dict, where)
    colors = _require(cards, "colors", list, f"{where}.cards")
    if not all(isinstance(c, str) for c in colors):
        raise MapError(f"{where}.cards.colors: expected a list of colour names")
    wild_name = _require(cards, "wild", str, f"{where}.cards")
    per_color = _require(cards, "per_color", int, f"{where}.cards")
    wild_count = _require(cards, "wild_count", int, f"{where}.cards")

    raw_cities = _require(data, "cities", list, where)
    cities = []
    for i, c in enumerate(raw_cities):
        w = f"{where}.cities[{i}]"
        if not isinstance(c, dict):
            raise MapError(f"{w}: expected an object")
        cities.append(
            City(i, _require(c, "name", str, w), float(_require(c, "lat", (int, float), w)),
                 float(_require(c, "lon", (int, float), w)))
        )
    raw_routes = _require(data, "routes", list, where)
    for i, r in enumerate(raw_routes):
        w = f"{where}.routes[{i}]"
        if not isinstance(r, dict):
            raise MapError(f"{w}: expected an object")
        _require(r, "a", str, w)
        _require(r, "b", str, w)
        _require(r, "length", int, w)
        _require(r, "color", str, w)
        _require(r, "tunnel", bool, w)
        _require(r, "ferry_locomotives", int, w)
    names = _route_names(raw_routes)
    pair_members: dict[frozenset[str], list[int]] = {}
    for i, r in enumerate(raw_routes):
        pair_members.setdefault(frozenset((r["a"], r["b"])), []).append(i)
    routes = []
    for i, r in enumerate(raw_routes):
        group = pair_members[frozenset((r["a"], r["b"]))]
        twin = next((j for j in group if j != i), -1) if len(group) == 2 else -1
        routes.append(
            Route(i, r["a"], r["b"], r["length"], r["color"], r["tunnel"], r["ferry_locomotives"],
                  names[i], twin)
        )
    raw_tickets = _require(data, "tickets", list, where)
    tickets = []
    for i, t in enumerate(raw_tickets):
        w = f"{where}.tickets[{i}]"
        if not isinstance(t, dict):
            raise MapError(f"{w}: expected an object")
        a, b = _require(t, "a", str, w), _require(t, "b", str, w)
        tickets.append(Ticket(i, a, b, _require(t, "points", int, w), bool(t.get("long", False)), f"{a}-{b}"))
    attractions = data.get("tourist_attractions", [])
    if not isinstance(attractions, list) or not all(isinstance(a, str) for a in attractions):
        raise MapError(f"{where}.tourist_attractions: expected a list of city names")
    rules = _parse_rules(_require(data, "rules", dict, where), f"{where}.rules")
    variants = data.get("spelling_variants", {})
    if not isinstance(variants, dict):
        raise MapError(f"{where}.spelling_variants: expected an object")
    problems = check_map(data)
    if problems:
        raise MapError(format_problems(where, problems))
    placed = data.get("board", {})
    board = tuple((float(placed[c.name][0]), float(placed[c.name][1])) for c in cities) if placed else ()
    return GameMap(
        name=name, title=title, colors=tuple(colors), wild_name=wild_name, per_color=per_color,
        wild_count=wild_count, cities=tuple(cities), routes=tuple(routes), tickets=tuple(tickets),
        tourist_attractions=tuple(attractions), rules=rules, spelling_variants=variants, source=data,
        rule_ids=data.get("rule_ids", "E"), board=board,
    )


def _parse_rules(r: dict[str, Any], w: str) -> Rules:
    setup = _require(r, "setup_tickets", dict, w)
    draw = _require(r, "draw_tickets", dict, w)
    points = _require(r, "route_points", dict, w)
    try:
        route_points = {int(k): int(v) for k, v in points.items()}
    except (TypeError, ValueError):
        raise MapError(f"{w}.route_points: expected an object of length -> points") from None
    costs = _require(r, "station_costs", list, w)
    if not all(isinstance(c, int) and c > 0 for c in costs):
        raise MapError(f"{w}.station_costs: expected a list of positive card counts")
    tiebreaks = _require(r, "tiebreaks", list, w)
    for t in tiebreaks:
        if t not in TIEBREAKS:
            raise MapError(f"{w}.tiebreaks: unknown tie-break {t!r} (known: {', '.join(TIEBREAKS)})")
    returned = _require(setup, "returned", str, f"{w}.setup_tickets")
    if returned not in ("box", "bottom"):
        raise MapError(f"{w}.setup_tickets.returned: expected 'box' or 'bottom', got {returned!r}")
    return Rules(
        players_min=_require(r, "players_min", int, w),
        players_max=_require(r, "players_max", int, w),
        pieces=_require(r, "pieces", int, w),
        piece_name=_require(r, "piece_name", str, w),
        stations=_require(r, "stations", int, w),
        station_costs=tuple(costs),
        starting_hand=_require(r, "starting_hand", int, w),
        face_up=_require(r, "face_up", int, w),
        face_up_wild_limit=_require(r, "face_up_wild_limit", int, w),
        face_up_max_resets=_require(r, "face_up_max_resets", int, w),
        setup_long_tickets=_require(setup, "long", int, f"{w}.setup_tickets"),
        setup_regular_tickets=_require(setup, "regular", int, f"{w}.setup_tickets"),
        setup_keep_min=_require(setup, "keep_min", int, f"{w}.setup_tickets"),
        setup_returned=returned,
        draw_tickets=_require(draw, "draw", int, f"{w}.draw_tickets"),
        draw_keep_min=_require(draw, "keep_min", int, f"{w}.draw_tickets"),
        double_routes_single_use_max_players=_require(r, "double_routes_single_use_max_players", int, w),
        end_trigger_pieces=_require(r, "end_trigger_pieces", int, w),
        tunnel_reveal=_require(r, "tunnel_reveal", int, w),
        route_points=route_points,
        longest_path_bonus=_require(r, "longest_path_bonus", int, w),
        unbuilt_station_points=_require(r, "unbuilt_station_points", int, w),
        attraction_points=_require(r, "attraction_points", int, w),
        tiebreaks=tuple(tiebreaks),
    )


def dump_map_json(data: dict[str, Any]) -> str:
    """Write map data as the shipped files are laid out: one city, route, ticket or board place per line."""
    lines = ["{"]
    keys = list(data)
    for n, key in enumerate(keys):
        value = data[key]
        comma = "," if n < len(keys) - 1 else ""
        if key == "board" and isinstance(value, dict) and value:
            lines.append(f" {json.dumps(key)}: {{")
            for i, (city, place) in enumerate(value.items()):
                sep = "," if i < len(value) - 1 else ""
                lines.append(f"  {json.dumps(city, ensure_ascii=False)}: {json.dumps(place)}{sep}")
            lines.append(f" }}{comma}")
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            lines.append(f" {json.dumps(key)}: [")
            for i, item in enumerate(value):
                sep = "," if i < len(value) - 1 else ""
                lines.append(f"  {json.dumps(item, ensure_ascii=False)}{sep}")
            lines.append(f" ]{comma}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
