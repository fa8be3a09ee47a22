"""Planning helpers for bots, built only from a seat's view and the map.

- `MapIndex` (once per map, cached): routes, links (city pairs), adjacency and tickets as flat int lists.
- `Board` (once per decision): the view read into indexes: owners, the routes still open to this seat,
  the hand, trains, stations, the tickets held or offered.
- `Options`: the legal actions sorted by kind, with card sets decoded.
- Paths: `dijkstra`, `route_costs` (own routes free, routes closed to the seat unusable, optionally
  other seats' routes at a price when a station could borrow them), `plan_tickets` (a greedy Steiner
  tree joining the tickets' cities), `UnionFind` and ticket completion (`network`, `completed`,
  `station_completion`), card needs per colour (`colour_needs`, `cards_missing`).
"""

from __future__ import annotations

import bisect
import heapq
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ttr.bots.abandoned_tunnel import FEW_CARDS_TO_REVEAL, abandoned_in_history, abandoned_in_log
from ttr.engine import Action, Game
from ttr.engine.actions import BUILD_STATION, DRAW_DECK, DRAW_FACE_UP, DRAW_TICKETS
from ttr.engine.game import CHOOSE_SETUP, CHOOSE_TICKETS, PHASE_NAMES, TUNNEL
from ttr.engine.scoring import UnionFind
from ttr.maps import GameMap

INF = float("inf")
BOARD_CACHE_SIZE = 4096  # boards whose open routes `Board.from_game` keeps per map (then it starts over)
PATH_CACHE_SIZE = 20_000  # shortest paths `plan_tickets` keeps per map (then it starts over)


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


def open_routes(ix: MapIndex, owner: list[int], seat: int, n: int) -> list[bool]:
    """Per route, whether `seat` of an `n`-seat game may claim it one day: free, and its twin not taken in a
    small game (E-DOUBLE-2) nor by the seat itself (E-DOUBLE-1)."""
    small = n <= ix.game_map.rules.double_routes_single_use_max_players
    twin = ix.twin
    out = []
    for r, o in enumerate(owner):
        t = twin[r]
        out.append(not (o >= 0 or (t >= 0 and owner[t] >= 0 and (small or owner[t] == seat))))
    return out


@dataclass(slots=True)
class Board:
    """A seat's view read into indexes (see `Board.from_view`)."""

    ix: MapIndex
    seat: int
    n: int
    phase: str
    owner: list[int]  # route -> seat, -1 if free
    open: list[bool]  # route claimable by this seat one day: free and not closed to it (E-DOUBLE-1/2)
    hand: list[int]
    trains: list[int]
    stations_left: list[int]
    station_at: list[int]  # city -> seat, -1 if none
    scores: list[int]
    tickets: list[int]
    offered: list[int]
    face_up: list[int]  # card index per slot, -1 for an empty slot
    ticket_deck_size: int
    deck_size: int
    discard_size: int
    tunnel_route: int = -1
    tunnel_extra: int = 0
    final_round: bool = False  # some seat has reached the end trigger: everyone has one turn left
    signature: tuple[int, ...] = field(default=())
    abandoned_tunnel: int = -1  # the tunnel just abandoned from this hand and board, read only when few
    # cards are left to reveal (`ttr.bots.abandoned_tunnel`; it matters only then, and a playout reads many boards)

    @classmethod
    def from_view(cls, ix: MapIndex, view: dict[str, Any]) -> Board:
        """Read a seat view (`ttr.engine.views.seat_view`)."""
        m = ix.game_map
        seat = int(view["seat"])
        players = view["players"]
        n = len(players)
        owner = [-1] * len(ix.length)
        station_at = [-1] * ix.ncity
        for p, entry in enumerate(players):
            for name in entry["routes"]:
                owner[m.route_index[name]] = p
            for name in entry["station_cities"]:
                station_at[m.city_index[name]] = p
        is_open = open_routes(ix, owner, seat, n)
        me = players[seat]
        hand = [0] * (ix.ncol + 1)
        for name, count in me.get("hand", {}).items():
            hand[m.card_index[name]] += count
        turn = view.get("turn") or {}
        tunnel_route = -1
        if turn.get("tunnel_route"):
            tunnel_route = m.route_index[turn["tunnel_route"]]
        trains = [int(p["trains"]) for p in players]
        return cls(
            ix=ix, seat=seat, n=n, phase=str(turn.get("phase", "game_over")), owner=owner, open=is_open,
            hand=hand, trains=trains, stations_left=[int(p["stations"]) for p in players],
            station_at=station_at, scores=[int(p["score"]) for p in players],
            tickets=[m.ticket_index[t] for t in me.get("tickets", [])],
            offered=[m.ticket_index[t] for t in turn.get("tickets_offered", [])],
            face_up=[m.card_index[c] if c is not None else -1 for c in view["face_up"]],
            ticket_deck_size=int(view["ticket_deck_size"]), deck_size=int(view["deck_size"]),
            discard_size=int(view["discard_size"]), tunnel_route=tunnel_route,
            tunnel_extra=int(turn.get("tunnel_extra", 0)),
            final_round=min(trains) <= m.rules.end_trigger_pieces,
            signature=(*owner, *station_at),
            abandoned_tunnel=(m.route_index.get(abandoned_in_log(view.get("log") or [], seat) or "", -1)
                              if int(view["deck_size"]) + int(view["discard_size"]) <= FEW_CARDS_TO_REVEAL else -1),
        )

    @classmethod
    def from_game(cls, ix: MapIndex, game: Game, seat: int) -> Board:
        """The `Board` that `from_view` would read from `seat_view(game, seat)`, taken from the game directly
        (for search on sampled games, where building views would cost most of the time)."""
        m = ix.game_map
        owner = game.owner[:]
        station_at = game.station_owner[:]
        signature = (*owner, *station_at)
        small = game.n <= m.rules.double_routes_single_use_max_players
        key = (-1 if small else seat, signature)  # in a small game no route is closed to one seat only
        found = ix.open_routes.get(key)
        if found is None:
            found = open_routes(ix, owner, seat, game.n)
            if len(ix.open_routes) >= BOARD_CACHE_SIZE:
                ix.open_routes.clear()
            ix.open_routes[key] = found
        is_open = found[:]
        trains = game.trains[:]
        phase = game.phase
        tunnel = phase == TUNNEL
        return cls(
            ix=ix, seat=seat, n=game.n, phase=PHASE_NAMES[phase], owner=owner, open=is_open,
            hand=game.hands[seat][:], trains=trains, stations_left=game.stations_left[:],
            station_at=station_at, scores=game.scores[:], tickets=game.tickets[seat][:],
            offered=game.offered[:] if phase in (CHOOSE_SETUP, CHOOSE_TICKETS) and game.current == seat else [],
            face_up=game.face_up[:], ticket_deck_size=len(game.ticket_deck), deck_size=len(game.deck),
            discard_size=len(game.discard), tunnel_route=game.t_route if tunnel else -1,
            tunnel_extra=game.t_extra if tunnel else 0,
            final_round=min(trains) <= m.rules.end_trigger_pieces,
            signature=signature,
            abandoned_tunnel=(abandoned_in_history(game, seat)
                              if len(game.deck) + len(game.discard) <= FEW_CARDS_TO_REVEAL else -1),
        )

    @classmethod
    def bare(cls, ix: MapIndex, seat: int, owner: list[int], trains: list[int]) -> Board:
        """A board that knows only the routes' owners and the trains left (an empty hand, no stations, no
        tickets): enough to plan a seat's paths at a past moment of the game (`ttr.bots.inference`)."""
        n = len(trains)
        station_at = [-1] * ix.ncity
        return cls(
            ix=ix, seat=seat, n=n, phase="main", owner=owner[:], open=open_routes(ix, owner, seat, n),
            hand=[0] * (ix.ncol + 1), trains=trains[:], stations_left=[0] * n, station_at=station_at,
            scores=[0] * n, tickets=[], offered=[], face_up=[], ticket_deck_size=0, deck_size=0, discard_size=0,
            signature=(*owner, *station_at),
        )

    def futile_retry(self, route: int) -> bool:
        """Whether claiming tunnel `route` would most likely end as the last try did: it is the tunnel this
        seat just abandoned from this hand and board, and few cards are left to reveal."""
        return route == self.abandoned_tunnel and self.deck_size + self.discard_size <= FEW_CARDS_TO_REVEAL

    @property
    def my_trains(self) -> int:
        """Trains (pieces) this seat has left."""
        return self.trains[self.seat]

    @property
    def my_stations(self) -> int:
        """Stations this seat has not built yet."""
        return self.stations_left[self.seat]

    def min_other_trains(self) -> int:
        """The fewest trains any other seat has left."""
        return min((t for p, t in enumerate(self.trains) if p != self.seat), default=self.my_trains)


# ---------------------------------------------------------------------- legal actions, sorted


@dataclass(frozen=True, slots=True)
class ClaimOption:
    """A legal claim: the route, the colour paid (the wild card index when all wild) and the wilds in it."""

    action: Action
    route: int
    colour: int
    wilds: int


@dataclass(frozen=True, slots=True)
class StationOption:
    """A legal station: the city, the colour paid (wild index when all wild) and the wilds in it."""

    action: Action
    city: int
    colour: int
    wilds: int


@dataclass(slots=True)
class Options:
    """The legal actions sorted by kind (see `sort_options`; `game_options` decodes the stations only when
    `stations` is first read)."""

    claims: dict[int, list[ClaimOption]] = field(default_factory=dict)  # route -> its card sets
    station_map: dict[int, list[StationOption]] = field(default_factory=dict)  # city -> card sets (`stations`)
    draw_deck: Action | None = None
    face_up: dict[int, Action] = field(default_factory=dict)  # card index -> draw it face up
    draw_tickets: Action | None = None
    keeps: list[tuple[tuple[int, ...], Action]] = field(default_factory=list)  # kept ticket ids
    pays: list[tuple[int, Action]] = field(default_factory=list)  # (wilds used, action)
    abandon: Action | None = None
    pass_: Action | None = None
    pending_stations: tuple[MapIndex, Game, list[int]] | None = None  # station ids not decoded yet (`game_options`)

    @property
    def stations(self) -> dict[int, list[StationOption]]:
        """The legal stations: city -> its card sets (in id order)."""
        if self.pending_stations is not None:
            ix, game, ids = self.pending_stations
            self.pending_stations = None
            table = ix.static
            out = self.station_map
            for aid in ids:
                option = table[aid] or _static_entry(ix, game, aid)
                found = out.get(option.city)
                if found is None:
                    out[option.city] = [option]
                else:
                    found.append(option)
        return self.station_map


def _split(ix: MapIndex, cards: tuple[tuple[str, int], ...]) -> tuple[int, int]:
    """(colour, wilds) of a one-colour-plus-wilds card set; colour is the wild index when all wild."""
    card_index = ix.game_map.card_index
    colour, wilds = ix.wild, 0
    for name, count in cards:
        c = card_index[name]
        if c == ix.wild:
            wilds += count
        else:
            colour = c
    return colour, wilds


_CLAIM, _STATION, _DECK, _FACE, _KEEP, _PAY, _TICKETS, _ABANDON, _PASS = range(9)


def _parse(ix: MapIndex, action: Action) -> tuple[int, int, int, int]:
    """(kind code, route/city/card, colour, wilds) of a legal action; cached per map for static actions."""
    m = ix.game_map
    kind = action.kind
    if kind == "claim_route":
        return (_CLAIM, m.route_index[action.route or ""], *_split(ix, action.cards))
    if kind == "draw_card":
        if action.source == "deck":
            return (_DECK, 0, 0, 0)
        return (_FACE, m.card_index[action.card or ""], 0, 0)
    if kind == "build_station":
        return (_STATION, m.city_index[action.city or ""], *_split(ix, action.cards))
    if kind == "keep_tickets":
        return (_KEEP, 0, 0, 0)
    if kind == "pay_tunnel":
        return (_PAY, 0, 0, _split(ix, action.cards)[1])
    if kind == "draw_tickets":
        return (_TICKETS, 0, 0, 0)
    if kind == "abandon_tunnel":
        return (_ABANDON, 0, 0, 0)
    return (_PASS, 0, 0, 0)


def sort_options(ix: MapIndex, legal: list[Action], ids: list[int] | None = None) -> Options:
    """Decode the legal actions once: claims per route, stations per city, draws, ticket keeps, payments.
    With the actions' catalogue `ids` (equal length), static actions are looked up by id (faster)."""
    if ids is not None:
        return _sort_ids(ix, legal, ids)
    opts = Options()
    cache = ix.parsed
    for action in legal:
        parsed = cache.get(action)
        if parsed is None:
            parsed = _parse(ix, action)
            if parsed[0] not in (_KEEP, _PAY):
                cache[action] = parsed
        code, what, colour, wilds = parsed
        if code == _CLAIM:
            opts.claims.setdefault(what, []).append(ClaimOption(action, what, colour, wilds))
        elif code == _FACE:
            opts.face_up[what] = action
        elif code == _DECK:
            opts.draw_deck = action
        elif code == _STATION:
            opts.station_map.setdefault(what, []).append(StationOption(action, what, colour, wilds))
        elif code == _KEEP:
            opts.keeps.append((tuple(ix.game_map.ticket_index[t] for t in action.tickets), action))
        elif code == _PAY:
            opts.pays.append((wilds, action))
        elif code == _TICKETS:
            opts.draw_tickets = action
        elif code == _ABANDON:
            opts.abandon = action
        else:
            opts.pass_ = action
    return opts


def _sort_ids(ix: MapIndex, legal: list[Action], ids: list[int]) -> Options:
    """`sort_options` with the options of static actions (all but keeps and payments) cached by id."""
    opts = Options()
    cache = ix.by_id
    for aid, action in zip(ids, legal, strict=True):
        entry = cache.get(aid)
        if entry is None or (entry[0] in (_CLAIM, _STATION) and entry[2].action is not action):
            code, what, colour, wilds = _parse(ix, action)
            item: Any = action
            if code == _CLAIM:
                item = ClaimOption(action, what, colour, wilds)
            elif code == _STATION:
                item = StationOption(action, what, colour, wilds)
            entry = (code, what, item)
            if code not in (_KEEP, _PAY):
                cache[aid] = entry
        code, what, item = entry
        if code == _CLAIM:
            claims = opts.claims.get(what)
            if claims is None:
                opts.claims[what] = [item]
            else:
                claims.append(item)
        elif code == _FACE:
            opts.face_up[what] = action
        elif code == _DECK:
            opts.draw_deck = action
        elif code == _STATION:
            opts.station_map.setdefault(what, []).append(item)
        elif code == _KEEP:
            opts.keeps.append((tuple(ix.game_map.ticket_index[t] for t in action.tickets), action))
        elif code == _PAY:
            opts.pays.append((_parse(ix, action)[3], action))
        elif code == _TICKETS:
            opts.draw_tickets = action
        elif code == _ABANDON:
            opts.abandon = action
        else:
            opts.pass_ = action
    return opts


def _static_entry(ix: MapIndex, game: Game, aid: int) -> Any:
    """The cached decoding of a static action id (see `game_options`): a `ClaimOption`, a `StationOption`,
    or the `Action` itself for draws, ticket draws, abandons and passes."""
    table = ix.static
    entry = table[aid]
    if entry is None:
        action = game.decode(aid)
        code, what, colour, wilds = _parse(ix, action)
        if code == _CLAIM:
            entry = ClaimOption(action, what, colour, wilds)
        elif code == _STATION:
            entry = StationOption(action, what, colour, wilds)
        else:
            entry = action
        table[aid] = entry
        ix.static_ids[action] = aid
    return entry


def static_action(ix: MapIndex, game: Game, aid: int) -> Action:
    """The `Action` of a static action id (any kind but ticket keeps and tunnel payments), decoded once per map."""
    if not ix.static:
        ix.static.extend([None] * len(game.cat))
    entry = _static_entry(ix, game, aid)
    return entry if isinstance(entry, Action) else entry.action


def static_id(ix: MapIndex, action: Action) -> int | None:
    """The catalogue id of an action `static_action` or `game_options` decoded, or None."""
    return ix.static_ids.get(action)


def game_options(ix: MapIndex, game: Game, ids: list[int]) -> Options:
    """`sort_options` of the legal ids `ids` (ascending, as `legal_ids` gives them) of `game` in a main turn
    or on the second card (every action static), without decoding the whole list: draws and claims are
    cached per id and the stations are decoded only when `Options.stations` is read (search playouts;
    most turns never look at them)."""
    table = ix.static
    if not table:
        table.extend([None] * len(game.cat))
    cat = game.cat
    kind = cat.kind
    opts = Options()
    first_claim = cat.claim_base[0] if cat.claim_base else len(cat)
    after_claims = cat.claim_all_wild[-1] + 1 if cat.claim_all_wild else len(cat)
    n = len(ids)
    i = 0
    while i < n and ids[i] < first_claim:
        aid = ids[i]
        action = table[aid] or _static_entry(ix, game, aid)
        k = kind[aid]
        if k == DRAW_FACE_UP:
            opts.face_up[cat.b[aid]] = action
        elif k == DRAW_DECK:
            opts.draw_deck = action
        elif k == DRAW_TICKETS:
            opts.draw_tickets = action
        else:
            raise ValueError(f"game_options: action {aid} ({action}) is not static")
        i += 1
    j = bisect.bisect_left(ids, after_claims, i)
    claims = opts.claims
    route_of = cat.a
    last = -1
    found: list[ClaimOption] = []
    for aid in ids[i:j]:  # ascending: each route's ids are one block of the catalogue
        option = table[aid] or _static_entry(ix, game, aid)
        if route_of[aid] == last:
            found.append(option)
        else:
            last = route_of[aid]
            found = claims[last] = [option]
    if j < n and ids[-1] == cat.pass_:
        opts.pass_ = table[cat.pass_] or _static_entry(ix, game, cat.pass_)
        n -= 1
    if j < n:
        rest = ids[j:n]
        if kind[rest[0]] != BUILD_STATION or kind[rest[-1]] != BUILD_STATION:  # sorted: stations are one block
            raise ValueError(f"game_options: actions {rest} are not all stations")
        opts.pending_stations = (ix, game, rest)
    return opts


TRAIL_CACHE_SIZE = 20_000  # route sets whose longest trail `trail_length` keeps per map (then it starts over)


def trail_length(ix: MapIndex, routes: list[int]) -> int:
    """`longest_trail(map, routes)[0]`, the length in trains of the longest trail over a set of routes,
    remembered per map and route set (search plays the same networks again and again)."""
    key = frozenset(routes)
    cache = ix.trails
    found = cache.get(key)
    if found is None:
        if len(cache) >= TRAIL_CACHE_SIZE:
            cache.clear()
        found = 0
        parts = route_parts(ix, routes)
        for part in parts:  # the best of its parts, each remembered too (most stay as they were)
            length = _longest_trail_length(ix, part) if len(parts) == 1 else part_trail_length(ix, part)
            if length > found:
                found = length
        cache[key] = found
    return found


def part_trail_length(ix: MapIndex, part: list[int]) -> int:
    """`trail_length` of routes known to be connected (one of `route_parts`, or several joined by a route)."""
    key = frozenset(part)
    cache = ix.trails
    found = cache.get(key)
    if found is None:
        if len(cache) >= TRAIL_CACHE_SIZE:
            cache.clear()
        found = cache[key] = _longest_trail_length(ix, part)
    return found


def route_parts(ix: MapIndex, routes: list[int]) -> list[list[int]]:
    """`routes` split into connected parts."""
    by_city: dict[int, list[int]] = {}
    route_a, route_b = ix.route_a, ix.route_b
    for r in routes:
        by_city.setdefault(route_a[r], []).append(r)
        by_city.setdefault(route_b[r], []).append(r)
    parts = []
    taken: set[int] = set()
    for r in routes:
        if r in taken:
            continue
        taken.add(r)
        part = [r]
        i = 0
        while i < len(part):
            x = part[i]
            i += 1
            for y in (*by_city[route_a[x]], *by_city[route_b[x]]):
                if y not in taken:
                    taken.add(y)
                    part.append(y)
        parts.append(part)
    return parts


def _longest_trail_length(ix: MapIndex, routes: list[int]) -> int:
    """`ttr.engine.longest_trail(map, routes)[0]` by the same search (trails from odd-degree cities, a whole
    all-even component as one circuit), which stops once a trail takes a whole component and does not
    start from the last odd city."""
    adj: dict[int, list[tuple[int, int, int]]] = {}
    route_a, route_b, lengths = ix.route_a, ix.route_b, ix.length
    for bit, r in enumerate(routes):
        a, b, size = route_a[r], route_b[r], lengths[r]
        found = adj.get(a)
        if found is None:
            adj[a] = [(bit, b, size)]
        else:
            found.append((bit, b, size))
        found = adj.get(b)
        if found is None:
            adj[b] = [(bit, a, size)]
        else:
            found.append((bit, a, size))
    best = 0
    total = 0

    def walk(city: int, used: int, length: int) -> bool:
        """Extend the trail; True once it holds every route of the component (nothing can be longer)."""
        nonlocal best
        extended = False
        for bit, other, size in adj[city]:
            if not (used >> bit) & 1:
                extended = True
                if walk(other, used | (1 << bit), length + size):
                    return True
        if not extended and length > best:
            best = length
            return best == total
        return False

    seen: set[int] = set()
    for start in adj:
        if start in seen:
            continue
        component = {start}
        stack = [start]
        while stack:
            for _, other, _ in adj[stack.pop()]:
                if other not in component:
                    component.add(other)
                    stack.append(other)
        seen |= component
        total = sum(size for city in component for _, _, size in adj[city]) // 2
        if total <= best:
            continue
        odd = [city for city in component if len(adj[city]) % 2]
        if not odd:  # every route of the component in one closed trail
            best = total
            continue
        # A trail from the last odd city ends stuck at another odd city; from there, backwards, the search
        # finds it (or a longer one): the last start adds nothing.
        for city in odd[:-1]:
            if walk(city, 0, 0):
                break
    return best


# ---------------------------------------------------------------------- networks and tickets


def network(board: Board, seat: int | None = None, extra: tuple[int, ...] = ()) -> UnionFind:
    """The cities joined by `seat`'s own routes (default: this seat), plus the routes in `extra`."""
    ix = board.ix
    who = board.seat if seat is None else seat
    uf = UnionFind(ix.ncity)
    for r, o in enumerate(board.owner):
        if o == who:
            uf.union(ix.route_a[r], ix.route_b[r])
    for r in extra:
        uf.union(ix.route_a[r], ix.route_b[r])
    return uf


def completed(board: Board, tickets: list[int], uf: UnionFind | None = None) -> list[bool]:
    """Per ticket: are its cities joined by the seat's own routes (stations not counted)?"""
    ix = board.ix
    uf = uf or network(board)
    return [uf.find(ix.ticket_a[t]) == uf.find(ix.ticket_b[t]) for t in tickets]


def borrowable(board: Board, city: int) -> list[int]:
    """Other seats' routes a station of this seat in `city` could borrow (E-STAT-5)."""
    seat = board.seat
    return [r for r, _ in board.ix.adj[city] if board.owner[r] >= 0 and board.owner[r] != seat]


def station_completion(board: Board, tickets: list[int], extra_city: int = -1) -> tuple[int, list[bool]]:
    """The best ticket result with the seat's stations (plus one more in `extra_city`, if given).

    Returns (ticket points: completed minus failed, completion per ticket), trying every choice of
    borrowed route per station as final scoring does (E-STAT-5).
    """
    ix = board.ix
    cities = [c for c, o in enumerate(board.station_at) if o == board.seat]
    if extra_city >= 0:
        cities.append(extra_city)
    base = network(board)
    choices = [[-1, *borrowable(board, c)] for c in cities]
    best_points = -INF
    best: list[bool] = []
    for combo in itertools.product(*choices):
        uf = base.copy()
        for r in combo:
            if r >= 0:
                uf.union(ix.route_a[r], ix.route_b[r])
        done = completed(board, tickets, uf)
        points = sum(ix.ticket_points[t] if ok else -ix.ticket_points[t] for t, ok in zip(tickets, done, strict=True))
        if points > best_points:
            best_points, best = points, done
    return int(best_points), best


# ---------------------------------------------------------------------- paths


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


def closed_by(ix: MapIndex, r: int, single_use: bool) -> list[int]:
    """The routes a claim of route r closes to the other seats: r, and its twin where double routes are
    single use (`single_use`: the game's seats are few enough for that rule)."""
    twin = ix.twin[r]
    return [r, twin] if single_use and twin >= 0 else [r]


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


def cards_missing(ix: MapIndex, routes: list[int], hand: list[int]) -> int:
    """How many more cards the hand needs to claim all of `routes` (wild cards cover any shortfall)."""
    need, _ = colour_needs(ix, routes, hand)
    short = sum(max(0, need[c] - hand[c]) for c in range(ix.ncol))
    wild_need = need[ix.wild]
    spare_wild = hand[ix.wild] - wild_need
    if spare_wild < 0:
        return short - spare_wild
    return max(0, short - spare_wild)


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
