"""Final scoring: routes, tickets with the best station choice, stations, the longest path, winners.

Works on a `Board` (who holds which routes, stations and tickets), so it scores a finished `Game`
and a `ttr-position/1` document alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Any

from ttr.maps import GameMap


@dataclass(frozen=True)
class BoardPlayer:
    """One seat at the end: its routes, station cities and tickets (indexes into the map)."""

    name: str
    routes: tuple[int, ...]
    stations: tuple[int, ...]
    tickets: tuple[int, ...]


@dataclass
class PlayerScore:
    """One seat's breakdown, as `ttr score --json` prints it."""

    name: str
    route_points: int
    tickets_completed: list[str]
    tickets_failed: list[str]
    ticket_points: int
    stations_unbuilt: int
    station_points: int
    borrowed_routes: dict[str, str | None]
    longest_path: int
    express_bonus: int
    attractions: int
    total: int
    longest_path_routes: list[str] = field(default_factory=list)
    attraction_cities: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The breakdown in the spec's field order."""
        return {
            "name": self.name, "route_points": self.route_points, "tickets_completed": self.tickets_completed,
            "tickets_failed": self.tickets_failed, "ticket_points": self.ticket_points,
            "stations_unbuilt": self.stations_unbuilt, "station_points": self.station_points,
            "borrowed_routes": self.borrowed_routes, "longest_path": self.longest_path,
            "express_bonus": self.express_bonus, "attractions": self.attractions, "total": self.total,
        }


@dataclass
class FinalScore:
    """Every seat's breakdown, the winners (`winner_seats`: their seats; `winners`: their names, as the JSON
    form lists them), and the tie-break that decided (None: no tie to break)."""

    players: list[PlayerScore]
    winners: list[str]
    decided_by: str | None
    winner_seats: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """`{"players": [...], "winners": [...]}` as `ttr score --json` prints it."""
        return {"players": [p.to_json() for p in self.players], "winners": self.winners}


def score_board(game_map: GameMap, players: list[BoardPlayer], owners: list[int] | None = None) -> FinalScore:
    """Score an end-of-game board (E-SCORE-1, E-STAT-4/5, E-LONG-1, E-WIN-1; N-SCORE-1, N-WIN-1)."""
    rules = game_map.rules
    if owners is None:
        owners = [-1] * len(game_map.routes)
        for seat, player in enumerate(players):
            for r in player.routes:
                owners[r] = seat
    scores = []
    longest = []
    for seat, player in enumerate(players):
        route_points = sum(rules.route_points.get(game_map.routes[r].length, 0) for r in player.routes)
        done, borrowed = _best_tickets(game_map, seat, player, owners)
        completed = sorted(game_map.tickets[t].name for t in player.tickets if done[t])
        failed = sorted(game_map.tickets[t].name for t in player.tickets if not done[t])
        ticket_points = sum(game_map.tickets[t].points if done[t] else -game_map.tickets[t].points
                            for t in player.tickets)
        unbuilt = rules.stations - len(player.stations)
        length, path = longest_trail(game_map, player.routes)
        longest.append(length)
        touched = {game_map.routes[r].a for r in player.routes} | {game_map.routes[r].b for r in player.routes}
        attraction_cities = [c for c in game_map.tourist_attractions if c in touched]
        attractions = len(attraction_cities) * rules.attraction_points
        scores.append(PlayerScore(
            name=player.name, route_points=route_points, tickets_completed=completed, tickets_failed=failed,
            ticket_points=ticket_points, stations_unbuilt=unbuilt,
            station_points=unbuilt * rules.unbuilt_station_points, borrowed_routes=borrowed,
            longest_path=length, express_bonus=0, attractions=attractions, total=0,
            longest_path_routes=[game_map.routes[r].name for r in path], attraction_cities=attraction_cities,
        ))
    best = max(longest, default=0)
    for s in scores:
        if rules.longest_path_bonus and best > 0 and s.longest_path == best:  # E-LONG-1: ties all score
            s.express_bonus = rules.longest_path_bonus
        s.total = s.route_points + s.ticket_points + s.station_points + s.express_bonus + s.attractions
    seats, decided_by = _winners(scores, rules.tiebreaks)
    return FinalScore(scores, [scores[s].name for s in seats], decided_by, seats)


def _winners(scores: list[PlayerScore], tiebreaks: tuple[str, ...]) -> tuple[list[int], str | None]:
    """The winners' seats. E-WIN-1 / N-WIN-1: highest total, then each tie-break in turn; still tied: shared."""
    top = max(s.total for s in scores)
    group = [seat for seat, s in enumerate(scores) if s.total == top]
    if len(group) == 1:
        return group, None
    for name in tiebreaks:
        best = max(_tiebreak_key(name, scores[seat]) for seat in group)
        narrowed = [seat for seat in group if _tiebreak_key(name, scores[seat]) == best]
        if len(narrowed) < len(group):
            group = narrowed
            if len(group) == 1:
                return group, name
    return group, "shared"


def _tiebreak_key(name: str, score: PlayerScore) -> int:
    """Higher is better: completed tickets, stations left unbuilt, holding the express."""
    if name == "tickets_completed":
        return len(score.tickets_completed)
    if name == "fewest_stations_built":
        return score.stations_unbuilt
    return 1 if score.express_bonus else 0


class UnionFind:
    """Disjoint sets over cities (ticket completion; bots use it for their plans too)."""

    __slots__ = ("parent",)

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        """The representative of x's set."""
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        """Join the sets of a and b."""
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb

    def copy(self) -> UnionFind:
        """An independent copy."""
        uf = UnionFind(0)
        uf.parent = self.parent[:]
        return uf


def _best_tickets(game_map: GameMap, seat: int, player: BoardPlayer,
                  owners: list[int]) -> tuple[dict[int, bool], dict[str, str | None]]:
    """Which tickets are complete with the best borrowed route per station (E-STAT-5, E-TICK-4).

    Every combination is tried (at most a few hundred); of equal best totals the first found wins,
    with "no route" tried first, so a station whose route does not matter borrows none.
    """
    cities = game_map.city_index
    uf = UnionFind(len(game_map.cities))
    for r in player.routes:
        route = game_map.routes[r]
        uf.union(cities[route.a], cities[route.b])
    comp = [uf.find(c) for c in range(len(game_map.cities))]
    tickets = [(t, comp[cities[game_map.tickets[t].a]], comp[cities[game_map.tickets[t].b]],
                game_map.tickets[t].points) for t in player.tickets]
    done = {t: a == b for t, a, b, _ in tickets}
    borrowed: dict[str, str | None] = {game_map.cities[c].name: None for c in player.stations}
    if all(done.values()) or not player.stations:
        return done, borrowed
    # Per station: the distinct component pairs another seat's route at that city would join.
    options: list[list[tuple[int, int, int] | None]] = []
    for city in player.stations:
        seen: set[tuple[int, int]] = set()
        opts: list[tuple[int, int, int] | None] = [None]
        for r in game_map.city_routes[city]:
            if owners[r] < 0 or owners[r] == seat:
                continue
            route = game_map.routes[r]
            ca, cb = comp[cities[route.a]], comp[cities[route.b]]
            key = (min(ca, cb), max(ca, cb))
            if ca == cb or key in seen:
                continue
            seen.add(key)
            opts.append((r, ca, cb))
        options.append(opts)
    # Only the tickets failing without stations can change; a combination's gain is what it completes.
    failing = [(a, b, v) for _, a, b, v in tickets if a != b]
    best_gain = 0
    best_combo: tuple[tuple[int, int, int] | None, ...] = tuple(None for _ in options)
    for combo in product(*options):
        link: dict[int, int] = {}
        for choice in combo:
            if choice is not None:
                ra = choice[1]
                while ra in link:
                    ra = link[ra]
                rb = choice[2]
                while rb in link:
                    rb = link[rb]
                if ra != rb:
                    link[ra] = rb
        if not link:
            continue
        gain = 0
        for a, b, v in failing:
            while a in link:
                a = link[a]
            while b in link:
                b = link[b]
            if a == b:
                gain += v
        if gain > best_gain:
            best_gain, best_combo = gain, combo
    link_best: dict[int, int] = {}

    def root_best(x: int) -> int:
        while x in link_best:
            x = link_best[x]
        return x

    for city, choice in zip(player.stations, best_combo, strict=True):
        if choice is not None:
            borrowed[game_map.cities[city].name] = game_map.routes[choice[0]].name
            ra, rb = root_best(choice[1]), root_best(choice[2])
            if ra != rb:
                link_best[ra] = rb
    done = {t: root_best(a) == root_best(b) for t, a, b, _ in tickets}
    return done, borrowed


def longest_trail(game_map: GameMap, routes: tuple[int, ...] | list[int]) -> tuple[int, list[int]]:
    """The longest continuous path over `routes` (E-LONG-1): cities may repeat, each route once.

    Returns (length in trains, the routes in path order). A longest trail that cannot be extended
    either ends at two odd-degree cities or is closed; a closed one uses every route at each of its
    cities, so it is a whole component in which every city has even degree. So the search starts
    only at odd-degree cities, and an all-even component counts whole (an Euler circuit).
    """
    if not routes:
        return 0, []
    cities = game_map.city_index
    adj: dict[int, list[tuple[int, int, int]]] = {}
    for bit, r in enumerate(routes):
        route = game_map.routes[r]
        a, b = cities[route.a], cities[route.b]
        adj.setdefault(a, []).append((bit, b, route.length))
        adj.setdefault(b, []).append((bit, a, route.length))
    best_len = 0
    best_path: list[int] = []
    path: list[int] = []

    def walk(city: int, used: int, length: int) -> None:
        nonlocal best_len, best_path
        extended = False
        for bit, other, size in adj[city]:
            if not (used >> bit) & 1:
                extended = True
                path.append(bit)
                walk(other, used | (1 << bit), length + size)
                path.pop()
        if not extended and length > best_len:
            best_len = length
            best_path = path[:]

    seen: set[int] = set()
    for start in sorted(adj):
        if start in seen:
            continue
        component = _component(adj, start)
        seen |= component
        odd = sorted(c for c in component if len(adj[c]) % 2)
        if odd:
            for city in odd:
                walk(city, 0, 0)
        else:  # every route of the component in one closed trail
            circuit = _euler_circuit(adj, start)
            length = sum(size for _, _, size in (_edge(adj, bit) for bit in circuit))
            if length > best_len:
                best_len, best_path = length, circuit
    return best_len, [routes[bit] for bit in best_path]


def _edge(adj: dict[int, list[tuple[int, int, int]]], bit: int) -> tuple[int, int, int]:
    for edges in adj.values():
        for edge in edges:
            if edge[0] == bit:
                return edge
    raise KeyError(bit)


def _euler_circuit(adj: dict[int, list[tuple[int, int, int]]], start: int) -> list[int]:
    """Hierholzer's algorithm: the routes of an all-even component in one closed trail."""
    used: set[int] = set()
    stack: list[tuple[int, int]] = [(start, -1)]
    circuit: list[int] = []
    position = {city: 0 for city in adj}
    while stack:
        city, via = stack[-1]
        edges = adj[city]
        while position[city] < len(edges) and edges[position[city]][0] in used:
            position[city] += 1
        if position[city] == len(edges):
            stack.pop()
            if via >= 0:
                circuit.append(via)
        else:
            bit, other, _ = edges[position[city]]
            used.add(bit)
            stack.append((other, bit))
    circuit.reverse()
    return circuit


def _component(adj: dict[int, list[tuple[int, int, int]]], start: int) -> set[int]:
    component = {start}
    stack = [start]
    while stack:
        city = stack.pop()
        for _, other, _ in adj[city]:
            if other not in component:
                component.add(other)
                stack.append(other)
    return component
