"""Check a `ttr-map/1` map file's content and report every problem, each with where it is.

`check_map` works on the parsed JSON as it stands, so it can name every problem of a broken file at
once (the loader, `parse_map`, stops at the first structural one and then runs this check). A place
is written as a path into the file: ``routes[12].color``, ``tickets[3]``, ``cards.colors``,
``rules.setup_tickets.long``. Keys starting with ``_`` are comments and are never reported.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeGuard

from ttr.maps.schema import MAP_FORMAT, TIEBREAKS

GRAY = "gray"

TOP_KEYS = ("format", "name", "title", "rule_ids", "cards", "rules", "cities", "tourist_attractions", "routes",
            "tickets", "spelling_variants", "board")
MAX_OFFER = 8  # tickets on offer at once: each subset is an action, so 2**8 choices at most
CARD_KEYS = ("colors", "per_color", "wild", "wild_count")
CITY_KEYS = ("name", "lat", "lon")
ROUTE_KEYS = ("a", "b", "length", "color", "tunnel", "ferry_locomotives")
TICKET_KEYS = ("a", "b", "points", "long")
SETUP_KEYS = ("long", "regular", "keep_min", "returned")
DRAW_KEYS = ("draw", "keep_min")
# Rules that are whole numbers, with the smallest value each may take.
RULE_INTS = {
    "players_min": 1, "players_max": 1, "pieces": 1, "stations": 0, "starting_hand": 0, "face_up": 0,
    "face_up_wild_limit": 1, "face_up_max_resets": 0, "double_routes_single_use_max_players": 0,
    "end_trigger_pieces": 0, "tunnel_reveal": 0, "longest_path_bonus": 0, "unbuilt_station_points": 0,
    "attraction_points": 0,
}
RULE_KEYS = (*RULE_INTS, "piece_name", "station_costs", "setup_tickets", "draw_tickets", "route_points", "tiebreaks")
RETURNED = ("box", "bottom")
BOARD_MAX = 100  # board units: a place on the drawn board is [x, y], each 0 to BOARD_MAX


@dataclass(frozen=True, slots=True)
class MapProblem:
    """One problem in a map file: `where` is a path into the file, `message` says what is wrong."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def format_problems(source: str, problems: Iterable[MapProblem]) -> str:
    """The problems as one text: a heading naming `source`, then one ``where: message`` line each."""
    lines = [str(p) for p in problems]
    noun = "problem" if len(lines) == 1 else "problems"
    return "\n".join([f"{source}: {len(lines)} {noun} in the map:", *(f"  {line}" for line in lines)])


def check_map(data: Any) -> list[MapProblem]:
    """Every problem of a map file's parsed JSON, section by section; an empty list means the map is good."""
    checker = _Checker()
    checker.run(data)
    return checker.problems


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _kind(value: Any) -> str:
    """A JSON name for a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


@dataclass(frozen=True, slots=True)
class _RouteData:
    index: int
    a: str
    b: str
    length: int | None
    color: str | None


class _Checker:
    """Walks the map data once, collecting problems; values that pass are kept for the cross checks."""

    def __init__(self) -> None:
        self.problems: list[MapProblem] = []
        self.colors: list[str] | None = None
        self.rules: dict[str, Any] = {}
        self.city_names: dict[str, int] = {}
        self.routes: list[_RouteData] = []

    def add(self, where: str, message: str) -> None:
        self.problems.append(MapProblem(where, message))

    # -- helpers -------------------------------------------------------------------------------------

    def unknown_keys(self, obj: dict[str, Any], known: Iterable[str], path: str) -> None:
        known_set = set(known)
        for key in obj:
            if isinstance(key, str) and (key in known_set or key.startswith("_")):
                continue
            self.add(_join(path, str(key)), f"unknown field (known: {', '.join(known)})")

    def get(self, obj: dict[str, Any], key: str, path: str, kind: str, *, required: bool = True) -> Any:
        """The value of `key` if present and of `kind` (int, number, str, bool, list, object), else None."""
        where = _join(path, key)
        if key not in obj:
            if required:
                self.add(where, "missing field")
            return None
        value = obj[key]
        ok = {
            "int": _is_int(value),
            "number": _is_number(value),
            "str": isinstance(value, str),
            "bool": isinstance(value, bool),
            "list": isinstance(value, list),
            "object": isinstance(value, dict),
        }[kind]
        if not ok:
            wanted = {"int": "a whole number", "number": "a number", "str": "a string", "bool": "true or false",
                      "list": "a list", "object": "an object"}[kind]
            self.add(where, f"expected {wanted}, got {_kind(value)}")
            return None
        return value

    def get_int(self, obj: dict[str, Any], key: str, path: str, minimum: int, *, required: bool = True) -> int | None:
        value: int | None = self.get(obj, key, path, "int", required=required)
        if value is not None and value < minimum:
            self.add(_join(path, key), f"must be at least {minimum}, got {value}")
            return None
        return value

    def get_city(self, obj: dict[str, Any], key: str, path: str) -> str | None:
        name: str | None = self.get(obj, key, path, "str")
        if name is not None and name not in self.city_names:
            self.add(_join(path, key), f"unknown city {name!r}")
            return None
        return name

    # -- the walk ------------------------------------------------------------------------------------

    def run(self, data: Any) -> None:
        if not isinstance(data, dict):
            self.add("map", f"a map file holds a JSON object, got {_kind(data)}")
            return
        self.unknown_keys(data, TOP_KEYS, "")
        if data.get("format") != MAP_FORMAT:
            got = data.get("format")
            self.add("format", f"expected {MAP_FORMAT!r}, got {got!r}" if "format" in data else
                     f"missing field (write \"format\": {MAP_FORMAT!r})")
        name = self.get(data, "name", "", "str")
        if name == "":
            self.add("name", "must not be empty")
        self.get(data, "title", "", "str", required=False)
        if data.get("rule_ids", "E") not in ("E", "N"):
            self.add("rule_ids", "expected 'E' (rule IDs of docs/rules.md's Europe part) or 'N' (New York)")
        self.check_cards(data)
        self.check_rules(data)
        self.check_cities(data)
        self.check_board(data)
        self.check_attractions(data)
        self.check_routes(data)
        tickets = self.check_tickets(data)
        self.check_variants(data)
        self.check_connected()
        self.check_deal(data, tickets)

    def check_cards(self, data: dict[str, Any]) -> None:
        cards = self.get(data, "cards", "", "object")
        if cards is None:
            return
        self.unknown_keys(cards, CARD_KEYS, "cards")
        colors = self.get(cards, "colors", "cards", "list")
        if colors is not None:
            good: list[str] = []
            for i, color in enumerate(colors):
                where = f"cards.colors[{i}]"
                if not isinstance(color, str) or not color:
                    self.add(where, f"expected a colour name, got {_kind(color)}")
                elif color == GRAY:
                    self.add(where, "'gray' is not a card colour: it marks a route any one colour can claim")
                elif color in good:
                    self.add(where, f"colour {color!r} is listed twice")
                else:
                    good.append(color)
            if not colors:
                self.add("cards.colors", "the deck needs at least one colour")
            self.colors = good
        wild = self.get(cards, "wild", "cards", "str")
        if wild is not None and (wild == GRAY or (colors is not None and wild in colors) or not wild):
            self.add("cards.wild", f"the wild card's name {wild!r} must differ from every colour and 'gray'")
        self.get_int(cards, "per_color", "cards", 1)
        self.get_int(cards, "wild_count", "cards", 0)

    def check_rules(self, data: dict[str, Any]) -> None:
        rules = self.get(data, "rules", "", "object")
        if rules is None:
            return
        self.unknown_keys(rules, RULE_KEYS, "rules")
        r = self.rules
        for key, minimum in RULE_INTS.items():
            r[key] = self.get_int(rules, key, "rules", minimum)
        piece_name = self.get(rules, "piece_name", "rules", "str")
        if piece_name == "":
            self.add("rules.piece_name", "must not be empty")
        if r["players_min"] is not None and r["players_max"] is not None and r["players_min"] > r["players_max"]:
            self.add("rules.players_min", f"players_min {r['players_min']} is more than players_max {r['players_max']}")
        if r["pieces"] is not None and r["end_trigger_pieces"] is not None and r["end_trigger_pieces"] >= r["pieces"]:
            self.add("rules.end_trigger_pieces", f"must be less than pieces ({r['pieces']}), "
                     f"or the last round starts before anyone plays")
        self.check_station_costs(rules)
        self.check_setup_tickets(rules)
        self.check_draw_tickets(rules)
        self.check_route_points(rules)
        self.check_tiebreaks(rules)

    def check_station_costs(self, rules: dict[str, Any]) -> None:
        costs = self.get(rules, "station_costs", "rules", "list")
        if costs is None:
            return
        for i, cost in enumerate(costs):
            if not _is_int(cost) or cost < 1:
                self.add(f"rules.station_costs[{i}]", f"expected a positive card count, got {cost!r}")
        stations = self.rules.get("stations")
        if stations is not None and len(costs) != stations:
            self.add("rules.station_costs", f"lists {len(costs)} cost(s) for {stations} station(s): give one cost "
                     f"per station, in the order they are built")

    def check_setup_tickets(self, rules: dict[str, Any]) -> None:
        setup = self.get(rules, "setup_tickets", "rules", "object")
        if setup is None:
            return
        path = "rules.setup_tickets"
        self.unknown_keys(setup, SETUP_KEYS, path)
        long = self.get_int(setup, "long", path, 0)
        regular = self.get_int(setup, "regular", path, 0)
        keep_min = self.get_int(setup, "keep_min", path, 0)
        returned = self.get(setup, "returned", path, "str")
        if returned is not None and returned not in RETURNED:
            self.add(f"{path}.returned", f"expected 'box' or 'bottom', got {returned!r}")
        if long is not None and regular is not None:
            if long + regular == 0:
                self.add(path, "deals no tickets at setup: set long or regular above 0")
            elif keep_min is not None and keep_min > long + regular:
                self.add(f"{path}.keep_min", f"keep_min {keep_min} is more than the {long + regular} tickets dealt")
            if long + regular > MAX_OFFER:
                self.add(path, f"deals {long + regular} tickets to choose from: at most {MAX_OFFER}")
        self.rules["setup_long"] = long
        self.rules["setup_regular"] = regular

    def check_draw_tickets(self, rules: dict[str, Any]) -> None:
        draw = self.get(rules, "draw_tickets", "rules", "object")
        if draw is None:
            return
        path = "rules.draw_tickets"
        self.unknown_keys(draw, DRAW_KEYS, path)
        count = self.get_int(draw, "draw", path, 1)
        keep_min = self.get_int(draw, "keep_min", path, 0)
        if count is not None and keep_min is not None and keep_min > count:
            self.add(f"{path}.keep_min", f"keep_min {keep_min} is more than the {count} tickets drawn")
        if count is not None and count > MAX_OFFER:
            self.add(f"{path}.draw", f"draws {count} tickets to choose from: at most {MAX_OFFER}")
        self.rules["draw"] = count

    def check_route_points(self, rules: dict[str, Any]) -> None:
        points = self.get(rules, "route_points", "rules", "object")
        if points is None:
            return
        table: dict[int, int] = {}
        for key, value in points.items():
            where = f"rules.route_points.{key}"
            length = int(key) if _is_int(key) else int(key) if isinstance(key, str) and key.isdigit() else 0
            if length < 1:
                self.add(where, f"a route length is a whole number of at least 1, got {key!r}")
                continue
            if not _is_int(value) or value < 0:
                self.add(where, f"expected the points (a whole number, 0 or more), got {value!r}")
                continue
            table[length] = value
        self.rules["route_points"] = table

    def check_tiebreaks(self, rules: dict[str, Any]) -> None:
        tiebreaks = self.get(rules, "tiebreaks", "rules", "list")
        if tiebreaks is None:
            return
        seen: set[str] = set()
        for i, name in enumerate(tiebreaks):
            where = f"rules.tiebreaks[{i}]"
            if name not in TIEBREAKS:
                self.add(where, f"unknown tie-break {name!r} (known: {', '.join(TIEBREAKS)})")
            elif name in seen:
                self.add(where, f"tie-break {name!r} is listed twice")
            else:
                seen.add(name)

    def check_cities(self, data: dict[str, Any]) -> None:
        cities = self.get(data, "cities", "", "list")
        if cities is None:
            return
        if not cities:
            self.add("cities", "the map has no cities")
        for i, city in enumerate(cities):
            path = f"cities[{i}]"
            if not isinstance(city, dict):
                self.add(path, f"expected an object, got {_kind(city)}")
                continue
            self.unknown_keys(city, CITY_KEYS, path)
            name = self.get(city, "name", path, "str")
            lat = self.get(city, "lat", path, "number")
            lon = self.get(city, "lon", path, "number")
            if lat is not None and not -90 <= lat <= 90:
                self.add(f"{path}.lat", f"a latitude is between -90 and 90, got {lat}")
            if lon is not None and not -180 <= lon <= 180:
                self.add(f"{path}.lon", f"a longitude is between -180 and 180, got {lon}")
            if name is None:
                continue
            if not name.strip():
                self.add(f"{path}.name", "a city name must not be empty")
            elif name in self.city_names:
                self.add(f"{path}.name", f"duplicate city {name!r} (also cities[{self.city_names[name]}])")
            else:
                if "-" in name or "/" in name:
                    self.add(f"{path}.name", f"city name {name!r} holds '-' or '/', which records use to write "
                             "routes ('A-B/track')")
                self.city_names[name] = i

    def check_board(self, data: dict[str, Any]) -> None:
        """The optional board placement: every city's [x, y] on the drawn board, each 0 to BOARD_MAX."""
        board = self.get(data, "board", "", "object", required=False)
        if board is None:
            return
        for name, place in board.items():
            where = f"board.{name}"
            if name not in self.city_names:
                self.add(where, f"a place for {name!r}, which is not a city on the map")
            if not isinstance(place, list) or len(place) != 2:
                self.add(where, f"expected a place [x, y] (two numbers), got {_kind(place)}")
                continue
            for axis, value in zip("xy", place, strict=True):
                at = f"{where}[{'xy'.index(axis)}]"
                if not _is_number(value):
                    self.add(at, f"expected a number ({axis}), got {_kind(value)}")
                elif not 0 <= value <= BOARD_MAX:
                    self.add(at, f"{axis} must be between 0 and {BOARD_MAX} (board units), got {value}")
        missing = [name for name in self.city_names if name not in board]
        if missing:
            self.add("board", f"no place for {', '.join(missing)}: a board placement gives every city a place "
                     "(or leave out \"board\" to draw the board from latitude and longitude)")

    def check_attractions(self, data: dict[str, Any]) -> None:
        attractions = self.get(data, "tourist_attractions", "", "list", required=False)
        if attractions is None:
            return
        seen: set[str] = set()
        for i, name in enumerate(attractions):
            where = f"tourist_attractions[{i}]"
            if not isinstance(name, str):
                self.add(where, f"expected a city name, got {_kind(name)}")
            elif name not in self.city_names:
                self.add(where, f"tourist attraction {name!r} is not a city on the map")
            elif name in seen:
                self.add(where, f"tourist attraction {name!r} is listed twice")
            seen.add(str(name))

    def check_routes(self, data: dict[str, Any]) -> None:
        routes = self.get(data, "routes", "", "list")
        if routes is None:
            return
        if not routes:
            self.add("routes", "the map has no routes")
        for i, route in enumerate(routes):
            self.check_route(i, route)
        self.check_double_routes()

    def check_route(self, i: int, route: Any) -> None:
        path = f"routes[{i}]"
        if not isinstance(route, dict):
            self.add(path, f"expected an object, got {_kind(route)}")
            return
        self.unknown_keys(route, ROUTE_KEYS, path)
        a = self.get_city(route, "a", path)
        b = self.get_city(route, "b", path)
        length = self.get_int(route, "length", path, 1)
        color = self.get(route, "color", path, "str")
        tunnel = self.get(route, "tunnel", path, "bool")
        ferry = self.get(route, "ferry_locomotives", path, "int")
        points = self.rules.get("route_points")
        if length is not None and points is not None and length not in points:
            known = ", ".join(str(n) for n in sorted(points))
            self.add(f"{path}.length", f"no score for a route of length {length} in rules.route_points "
                     f"(lengths scored: {known})")
        if color is not None and self.colors is not None and color != GRAY and color not in self.colors:
            self.add(f"{path}.color", f"colour {color!r} is not a card colour (cards.colors: "
                     f"{', '.join(self.colors)}) nor 'gray'")
            color = None
        if tunnel and self.rules.get("tunnel_reveal") == 0:
            self.add(f"{path}.tunnel", "a tunnel on a map whose rules.tunnel_reveal is 0 (no cards are revealed "
                     "for tunnels): set tunnel_reveal, or make this route no tunnel")
        if ferry is not None:
            if ferry < 0:
                self.add(f"{path}.ferry_locomotives", f"must be 0 or more, got {ferry}")
            elif length is not None and ferry > length:
                self.add(f"{path}.ferry_locomotives", f"a ferry needs {ferry} locomotives but the route has only "
                         f"{length} spaces")
        if a is not None and b is not None:
            if a == b:
                self.add(path, f"route from {a} to itself")
                return
            self.routes.append(_RouteData(i, a, b, length, color))

    def check_double_routes(self) -> None:
        """Two tracks may join a pair of cities (a double route); a third may not.

        The two tracks of a double route have the same length; their colours differ, except that both
        may be gray (two tracks any one colour can claim, as Dieppe-London on the Europe map).
        """
        pairs: dict[frozenset[str], list[_RouteData]] = {}
        for route in self.routes:
            pairs.setdefault(frozenset((route.a, route.b)), []).append(route)
        for tracks in pairs.values():
            first = tracks[0]
            for extra in tracks[2:]:
                others = ", ".join(f"routes[{t.index}]" for t in tracks[:2])
                self.add(f"routes[{extra.index}]", f"a double route with more than two tracks: {first.a}-{first.b} "
                         f"already has {others}")
            if len(tracks) < 2:
                continue
            second = tracks[1]
            where = f"routes[{second.index}]"
            if first.length is not None and second.length is not None and first.length != second.length:
                self.add(where, f"the tracks of double route {first.a}-{first.b} differ in length "
                         f"(routes[{first.index}] has {first.length}, this one {second.length})")
            if first.color is not None and first.color == second.color and first.color != GRAY:
                self.add(where, f"duplicate route: routes[{first.index}] already joins {first.a} and {first.b} in "
                         f"{first.color} (the tracks of a double route differ in colour, or are both gray)")

    def check_tickets(self, data: dict[str, Any]) -> list[bool]:
        """Check the tickets; returns the `long` flag of each well-formed ticket."""
        tickets = self.get(data, "tickets", "", "list")
        if tickets is None:
            return []
        longs: list[bool] = []
        seen: dict[frozenset[str], int] = {}
        for i, ticket in enumerate(tickets):
            path = f"tickets[{i}]"
            if not isinstance(ticket, dict):
                self.add(path, f"expected an object, got {_kind(ticket)}")
                continue
            self.unknown_keys(ticket, TICKET_KEYS, path)
            a = self.get_city(ticket, "a", path)
            b = self.get_city(ticket, "b", path)
            self.get_int(ticket, "points", path, 1)
            long = self.get(ticket, "long", path, "bool", required=False)
            longs.append(bool(long))
            if a is None or b is None:
                continue
            if a == b:
                self.add(path, f"ticket names the same city twice ({a})")
                continue
            pair = frozenset((a, b))
            if pair in seen:
                self.add(path, f"duplicate ticket: tickets[{seen[pair]}] already joins {a} and {b} (records name a "
                         "ticket 'A-B', so each pair of cities has one ticket)")
            else:
                seen[pair] = i
        return longs

    def check_variants(self, data: dict[str, Any]) -> None:
        variants = self.get(data, "spelling_variants", "", "object", required=False)
        if variants is None:
            return
        owner: dict[str, str] = {}
        for city, aliases in variants.items():
            path = f"spelling_variants.{city}"
            if city not in self.city_names:
                self.add(path, f"spelling variants of {city!r}, which is not a city on the map")
                continue
            if not isinstance(aliases, list):
                self.add(path, f"expected a list of other spellings, got {_kind(aliases)}")
                continue
            for i, alias in enumerate(aliases):
                where = f"{path}[{i}]"
                if not isinstance(alias, str) or not alias:
                    self.add(where, f"expected a spelling, got {alias!r}")
                elif alias != city and alias in self.city_names:
                    self.add(where, f"{alias!r} is another city's name, not a spelling of {city}")
                elif owner.setdefault(alias, city) != city:
                    self.add(where, f"{alias!r} is also given as a spelling of {owner[alias]}")

    def check_connected(self) -> None:
        """Every city can be reached from every other over routes."""
        if not self.city_names or not self.routes:  # no routes at all is reported as such
            return
        parent = {name: name for name in self.city_names}

        def find(name: str) -> str:
            while parent[name] != name:
                parent[name] = parent[parent[name]]
                name = parent[name]
            return name

        for route in self.routes:
            parent[find(route.a)] = find(route.b)
        groups: dict[str, list[str]] = {}
        for name in self.city_names:  # file order
            groups.setdefault(find(name), []).append(name)
        if len(groups) < 2:
            return
        parts = sorted(groups.values(), key=len, reverse=True)  # stable: ties keep file order
        main = parts[0]
        joined = len(main) - 1
        rest = "the city" if joined == 1 else f"the {joined} cities"  # a route joins at least two
        for part in parts[1:]:
            names = ", ".join(part)
            verb = "is" if len(part) == 1 else "are"
            self.add("cities", f"the board is disconnected: {names} {verb} cut off from {main[0]} and {rest} "
                     "joined to it")

    def check_deal(self, data: dict[str, Any], longs: list[bool]) -> None:
        """Enough cards and tickets for the most players the map allows."""
        r = self.rules
        players = r.get("players_max")
        if players is None:
            return
        cards = data.get("cards")
        if isinstance(cards, dict) and self.colors is not None:
            per_color, wilds = cards.get("per_color"), cards.get("wild_count")
            hand, face_up = r.get("starting_hand"), r.get("face_up")
            if _is_int(per_color) and _is_int(wilds) and hand is not None and face_up is not None:
                total = per_color * len(self.colors) + wilds
                need = players * hand + face_up
                if total < need:
                    self.add("cards", f"too few cards to deal: {players} players x {hand} cards + {face_up} face up "
                             f"need {need}, the deck holds {total}")
        if not isinstance(data.get("tickets"), list):
            return
        long_count = sum(longs)
        for kind, have, each in (("long", long_count, r.get("setup_long")),
                                 ("regular", len(longs) - long_count, r.get("setup_regular"))):
            if each is not None and players * each > have:
                self.add("tickets", f"too few {kind} tickets to deal: {players} players x {each} need "
                         f"{players * each}, the map has {have}")
