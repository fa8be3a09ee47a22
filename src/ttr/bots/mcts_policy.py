"""The search's knowledge for `mcts`: a ticket-aware rollout policy and a position evaluation.

Both work on a sampled `Game` directly (action ids, no views), so they are cheap enough to run in every
iteration. For each seat they find the routes of the cheapest paths that would complete its unfinished
tickets (own routes free, routes closed to it unusable): the rollout claims those routes first, draws
their colours, and otherwise claims long routes only when its hand is large. The evaluation estimates
each seat's final score: points so far, 4 per unbuilt station, the cards in hand, and each ticket's
value weighted by how likely the remaining path can be built before the game ends.
"""

from __future__ import annotations

import heapq
import math
import random
from dataclasses import dataclass

from ttr.engine import Game, final_score
from ttr.engine import actions as A
from ttr.engine.game import CHOOSE_SETUP, CHOOSE_TICKETS, MAIN, TUNNEL
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


_TABLES: dict[int, Tables] = {}


def tables(game_map: GameMap) -> Tables:
    """The (cached) tables of a map."""
    t = _TABLES.get(id(game_map))
    if t is None or t.game_map is not game_map:
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
        _TABLES[id(game_map)] = t
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


def rewards(game: Game, scale: float) -> list[float]:
    """Per seat, in [0, 1]: `0.5 + 0.5 * tanh(lead / scale)` of its estimated lead over the best other seat;
    once the game is over, half of it is the win itself (shared wins count as wins)."""
    totals = estimate(game)
    winners: list[str] = final_score(game).winners if game.is_over else []
    out = []
    for p, total in enumerate(totals):
        others = max(v for q, v in enumerate(totals) if q != p)
        value = 0.5 + 0.5 * math.tanh((total - others) / scale)
        if game.is_over:
            value = 0.5 * value + (0.5 if game.players[p] in winners else 0.0)
        out.append(value)
    return out


def rollout(game: Game, rng: random.Random, depth: int) -> None:
    """Play the ticket-aware policy for up to `depth` actions (or to the end)."""
    t = tables(game.map)
    wanted: list[set[int]] = []
    for seat in range(game.n):
        routes: set[int] = set()
        for _, d, path in ticket_paths(game, seat):
            if 0 < d < INF:
                routes.update(path)
        wanted.append(routes)
    cat = game.cat
    kind = cat.kind
    for _ in range(depth):
        if game.is_over:
            return
        ids = game.legal_ids()
        phase = game.phase
        p = game.current
        best = -1
        if phase == MAIN:
            best = _claim(game, ids, wanted[p], rng)
            if best < 0:
                best = _draw(game, ids, wanted[p], t, rng)
        elif phase in (CHOOSE_SETUP, CHOOSE_TICKETS):
            fewest = min(cat.a[aid].bit_count() for aid in ids)
            options = [aid for aid in ids if cat.a[aid].bit_count() == fewest]
            best = options[rng.randrange(len(options))]
        elif phase == TUNNEL:
            best = ids[0]  # pay with the fewest wilds when possible (abandon is listed last)
        elif ids:
            best = _draw(game, ids, wanted[p], t, rng)
        if best < 0:
            best = ids[rng.randrange(len(ids))]
        game.apply_unchecked(best)
        if kind[best] == A.CLAIM:
            wanted[p].discard(cat.a[best])


def _claim(game: Game, ids: list[int], wanted: set[int], rng: random.Random) -> int:
    """A wanted route (longest first); with a large hand or no plan, the longest route of 3 or more."""
    cat = game.cat
    kind = cat.kind
    length = tables(game.map).length
    big_hand = sum(game.hands[game.current]) >= 8 or not wanted or game.final_turns >= 0
    best = -1
    best_key = (0, 0, 0, 0.0)
    for aid in ids:
        if kind[aid] != A.CLAIM:
            continue
        r = cat.a[aid]
        plan = r in wanted
        if not plan and (not big_hand or length[r] < 3):
            continue
        key = (1 if plan else 0, length[r], -cat.c[aid], rng.random())
        if key > best_key:
            best_key, best = key, aid
    return best


def _draw(game: Game, ids: list[int], wanted: set[int], t: Tables, rng: random.Random) -> int:
    """A face-up colour a wanted route needs, else a blind draw, else any draw."""
    cat = game.cat
    kind = cat.kind
    colours = {t.colour[r] for r in wanted}
    hand = game.hands[game.current]
    faces = []
    for aid in ids:
        if kind[aid] == A.DRAW_FACE_UP:
            card = cat.b[aid]
            if card != game.wild and (card in colours or (-1 in colours and hand[card] >= 2)):
                faces.append(aid)
    if faces:
        return faces[rng.randrange(len(faces))]
    if ids and kind[ids[0]] == A.DRAW_DECK:
        return ids[0]
    draws = [aid for aid in ids if kind[aid] == A.DRAW_FACE_UP]
    return draws[rng.randrange(len(draws))] if draws else -1
