"""What the other seats' claims say about their hidden tickets.

A seat builds towards its tickets, so the routes it has claimed make some tickets likelier than others.
`TicketBelief` reads the board once per decision: for every other seat q and ticket t, the trains of t's
path q has already laid, `laid = d0(t) - dq(t)`, where d0 is the ticket's shortest distance on the empty
board and dq the same distance when q's own routes cost nothing and routes of other seats are closed.
The weight of t for q is `exp(per_train * laid)` (1 when q has laid nothing towards it): the chance of a
ticket in a sampled hand grows with the work already done for it (`ttr.engine.sample.InfoSet.sample`
takes these weights). `per_train` was fitted on greedy games (research/bot-measurements.md).

A dealt ticket set is then weighed as a whole (`TicketBelief.likelihood`): by the claimed routes it leaves
unexplained, the face-up colours no path of it has, and, with a `ClaimReplay`, by the claims none of its
tickets would have made: each past claim is read on the board as it was just before it, where one of the
set's tickets must have had the claimed route on its cheapest path (greedy's path costs).

The same belief names the routes another seat most likely still needs (`needed_routes`) and what closing
each would cost it in trains (`block_damage`): the search (`ttr.bots.mcts`) tries the claim of most damage
to block it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ttr.bots.planning import INF, Board, MapIndex, completed, cut_cost, dijkstra, path_to
from ttr.bots.profiles import profile_of
from ttr.engine import doubles
from ttr.maps import GameMap

PER_TRAIN = 0.4  # log-weight per train laid towards a ticket (fitted, see research/bot-measurements.md)
SLACK = 1.0  # trains a route may add to a ticket's cheapest path and still serve it (`serving`)
UNFIT = 1.0  # likelihood factor per colour taken face up that no path of a seat's sampled tickets has:
# fitted per map in its profiles (`ttr.bots.profiles`, `belief.unfit`: New York 0.2; in Europe, where
# greedy's paths wander, picks misled)
UNEXPLAINED = 0.1  # likelihood factor per claimed route a ticket set leaves unexplained (`likelihood`)
MAX_LAID = 15  # trains of progress counted at most (keeps weights finite and the belief humble)
OFF_PATHS = 0.03  # likelihood factor per past claim on no cheapest path of a ticket set's tickets (`ClaimReplay`)
ALL_COMPLETE = 0.5  # ... per past claim made when all of them were complete (greedy then claims for points)
UNDONE_DRAW = 0.05  # ... per past ticket draw made while fewer of them were complete than the seat then held


def empty_board_distances(ix: MapIndex) -> list[float]:
    """Every ticket's shortest distance in trains on the empty board, kept with the map."""
    cache = ix.game_map.engine_cache
    found: list[float] | None = cache.get("bots.ticket_distances")
    if found is None:
        costs = [float(x) for x in ix.length]
        by_source: dict[int, list[float]] = {}
        found = []
        for a, b in zip(ix.ticket_a, ix.ticket_b, strict=True):
            dist = by_source.get(a)
            if dist is None:
                dist = by_source[a] = dijkstra(ix, costs, a)[0]
            found.append(dist[b])
        cache["bots.ticket_distances"] = found
    return found


class TicketBelief:
    """Per other seat, a weight per ticket (see the module) and the paths its likeliest tickets still need."""

    def __init__(self, ix: MapIndex, owner: list[int], seat: int, n: int, per_train: float = PER_TRAIN,
                 picks: list[list[int]] | None = None, replay: ClaimReplay | None = None) -> None:
        """Read the route owners (`owner[r]`: seat or -1) as seen by `seat` in an `n`-seat game, per seat
        the colours it took face up (`picks`, see `face_up_picks`), and its past claims (`replay`), if given."""
        self.ix = ix
        self.replay = replay
        self.seat = seat
        self.n = n
        self.owner = owner
        self.picks = picks or [[] for _ in range(n)]
        self.unfit = profile_of(ix.game_map.name, n).belief_unfit  # `likelihood`'s factor per unfit pick
        base = empty_board_distances(ix)
        self.weights: list[list[float] | None] = [None] * n
        self._prev: list[dict[int, list[int]]] = [{} for _ in range(n)]
        self._laid: list[list[float]] = [[] for _ in range(n)]
        self._costs: list[list[float]] = [[] for _ in range(n)]
        self._direct: list[list[float]] = [[] for _ in range(n)]  # per seat and ticket: its distance for q
        self._masks: list[list[int] | None] = [None] * n  # per seat: per claimed route, the tickets it serves
        self._pick_masks: list[list[int] | None] = [None] * n  # per seat: per face-up pick, the tickets it fits
        length = ix.length
        for q in range(n):
            if q == seat or (q not in owner and not self.picks[q]):
                continue  # the seat itself, or a seat that has shown nothing yet: a uniform deal
            costs = [0.0 if o == q else (float(length[r]) if o < 0 else INF) for r, o in enumerate(owner)]
            dists: dict[int, list[float]] = {}
            prevs = self._prev[q]
            for a in ix.ticket_a:
                if a not in dists:
                    dists[a], prevs[a] = dijkstra(ix, costs, a)
            self._costs[q] = costs
            self._direct[q] = [dists[a][b] for a, b in zip(ix.ticket_a, ix.ticket_b, strict=True)]
            if q in owner:
                laid_q = [min(max(base[t] - d, 0.0), MAX_LAID) if d < INF else 0.0
                          for t, d in enumerate(self._direct[q])]
                self._laid[q] = laid_q
                self.weights[q] = [math.exp(per_train * x) for x in laid_q]

    def shown(self, q: int) -> bool:
        """Whether seat q has claimed or taken face up anything its tickets could explain."""
        return bool(self.serving(q) or self.fitting(q))

    def laid(self, q: int, t: int) -> float:
        """The trains of ticket t's path seat q has laid (0 for the seat itself or a seat with no routes)."""
        return self._laid[q][t] if self._laid[q] else 0.0

    def serving(self, q: int, slack: float = SLACK) -> list[int]:
        """Per route seat q has claimed, a bitmask of the tickets it serves: those whose cheapest path for q
        through that route is at most `slack` trains longer than their cheapest path (q's routes are free,
        so a route serves every ticket its network would carry). Empty for the seat itself."""
        masks = self._masks[q]
        if masks is not None:
            return masks
        masks = []
        if self._costs[q]:
            ix = self.ix
            costs = self._costs[q]
            direct = self._direct[q]
            dist_from: dict[int, list[float]] = {}
            for r, o in enumerate(self.owner):
                if o != q:
                    continue
                u, v = ix.route_a[r], ix.route_b[r]
                for city in (u, v):
                    if city not in dist_from:
                        dist_from[city] = dijkstra(ix, costs, city)[0]
                du, dv = dist_from[u], dist_from[v]
                mask = 0
                for t, (a, b) in enumerate(zip(ix.ticket_a, ix.ticket_b, strict=True)):
                    via = min(du[a] + dv[b], dv[a] + du[b])
                    if via < INF and via - direct[t] <= slack:
                        mask |= 1 << t
                masks.append(mask)
        self._masks[q] = masks
        return masks

    def fitting(self, q: int) -> list[int]:
        """Per colour seat q took face up (`picks`), a bitmask of the tickets whose cheapest path for q has
        an open or own route of that colour (a seat that plans like greedy takes the colours its paths need)."""
        masks = self._pick_masks[q]
        if masks is not None:
            return masks
        masks = []
        if self._costs[q] and self.picks[q]:
            ix = self.ix
            by_colour: dict[int, int] = {}
            for t, (a, b) in enumerate(zip(ix.ticket_a, ix.ticket_b, strict=True)):
                for r in path_to(ix, self._prev[q][a], a, b):
                    c = ix.colour[r]
                    if c >= 0:
                        by_colour[c] = by_colour.get(c, 0) | 1 << t
            masks = [by_colour.get(c, 0) for c in self.picks[q]]
        self._pick_masks[q] = masks
        return masks

    def likelihood(self, q: int, tickets: list[int], unexplained: float = UNEXPLAINED,
                   unfit: float | None = None) -> float:
        """How well a ticket set explains seat q's play: `unexplained` to the power of the claimed routes
        that serve none of `tickets`, times `unfit` to the power of the colours q took face up that no path
        of `tickets` has (1 when all fit; greedy-like seats rarely claim or collect outside their tickets;
        `unfit` defaults to the profile's, `belief.unfit`)."""
        held = 0
        for t in tickets:
            held |= 1 << t
        misses = sum(1 for mask in self.serving(q) if not mask & held)
        unfits = sum(1 for mask in self.fitting(q) if not mask & held)
        like = unexplained ** misses * (self.unfit if unfit is None else unfit) ** unfits
        if self.replay is not None:
            off, done, undone = self.replay.misses(q, held)
            like *= OFF_PATHS ** off * ALL_COMPLETE ** done * UNDONE_DRAW ** undone
        return like

    def needed_routes(self, q: int, exclude: set[int] | frozenset[int] = frozenset()) -> dict[int, float]:
        """Open routes on the cheapest remaining paths of q's tickets, each with the belief weight of the
        tickets that need it (tickets q has not started carry weight 1; the seat's own tickets, `exclude`,
        none)."""
        weights = self.weights[q]
        prevs = self._prev[q]
        if weights is None:
            return {}
        out: dict[int, float] = {}
        for t, (a, b) in enumerate(zip(self.ix.ticket_a, self.ix.ticket_b, strict=True)):
            if t in exclude or weights[t] <= 1.0:
                continue
            prev = prevs.get(a)
            if prev is None:
                continue
            for r in path_to(self.ix, prev, a, b):
                if self.owner[r] < 0:
                    out[r] = out.get(r, 0.0) + weights[t]
        return out

    def block_damage(self, q: int, routes: list[int],
                     exclude: set[int] | frozenset[int] = frozenset()) -> dict[int, float]:
        """For each of `routes` (open routes the searching seat could claim now) on the cheapest remaining
        path of one of seat q's started tickets: the trains that claim would add to those paths for q (the
        other track of a double route closes with it where double routes are single use), averaged over
        the tickets by their belief weights as in `needed_routes`; a ticket it cuts off counts twice its
        points. Routes that lengthen no such path are left out."""
        weights = self.weights[q]
        if weights is None or not routes:
            return {}
        ix = self.ix
        link = ix.link
        by_link: dict[int, list[int]] = {}
        for r in routes:
            by_link.setdefault(link[r], []).append(r)
        costs = self._costs[q]
        prevs = self._prev[q]
        total = 0.0
        damage: dict[int, float] = {}
        for t, (a, b) in enumerate(zip(ix.ticket_a, ix.ticket_b, strict=True)):
            if t in exclude or weights[t] <= 1.0 or a not in prevs:
                continue
            total += weights[t]
            base = self._direct[q][t]
            for on_path in path_to(ix, prevs[a], a, b):
                for r in by_link.get(link[on_path], ()):
                    closed = doubles.closed_by(ix.game_map, r, self.n)
                    if on_path not in closed:
                        continue  # q keeps the other track
                    extra = cut_cost(ix, costs, a, b, base, closed, ix.ticket_points[t])
                    damage[r] = damage.get(r, 0.0) + weights[t] * extra
        return {r: d / total for r, d in damage.items() if d > 0}


class ClaimReplay:
    """Every other seat's claims, each read against the board just before it: which tickets it served.

    A seat that plans like greedy claims routes on its tickets' cheapest paths, so a ticket set explains a
    claim when the cheapest path of one of its tickets on the board of the moment (the seat's own routes
    free, others' closed, greedy's path costs `path_costs` with an empty hand: the hand is not known and
    moves the costs by a little only) holds the claimed route, either track of a double route. A claim made
    when every ticket of the set was already complete is a claim for points. Such a seat draws tickets only
    once its plan is done, so at each of its ticket draws at least as many tickets of the set as it held
    then must have been complete. `update` reads only the log entries it has not seen, so a bot keeps one
    `ClaimReplay` for its whole game."""

    def __init__(self, ix: MapIndex, seat: int, n: int, *path_costs: Callable[[Board], list[float]]) -> None:
        """An empty replay of the claims of every seat but `seat` in an `n`-seat game; with several
        `path_costs` (policies the other seats may follow), a ticket is served when its cheapest path under
        any of them holds the claim."""
        self.ix = ix
        self.seat = seat
        self.path_costs = path_costs
        self.claims: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # per seat: (served, complete) masks
        self.draws: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # per seat: (tickets held, complete mask)
        self.held = [0] * n  # per seat: tickets held so far (from its keeps)
        self._owner = [-1] * len(ix.length)
        self._trains = [ix.game_map.rules.pieces] * n
        self.seen = 0  # log entries read

    def update(self, log: Sequence[Mapping[str, Any]]) -> None:
        """Read the claims of `log` (a view's log of this game) past those already read."""
        ix = self.ix
        m = ix.game_map
        for entry in log[self.seen:]:
            action = entry.get("action")
            if action == "keep_tickets":
                q = int(entry["player"])
                self.held[q] += int(entry["count"]) if "count" in entry else len(entry.get("tickets", ()))
                continue
            if action == "draw_tickets":
                q = int(entry["player"])
                if q != self.seat and self.held[q]:
                    self.draws[q].append((self.held[q], self._complete(q)))
                continue
            if action != "claim_route":
                continue
            q, r = int(entry["player"]), m.route_index[entry["route"]]
            if q != self.seat:
                self.claims[q].append(self._read(q, ix.link[r]))
            self._owner[r] = q
            self._trains[q] -= ix.length[r]
        self.seen = len(log)

    def _read(self, q: int, claimed: int) -> tuple[int, int]:
        """(tickets whose cheapest path for q holds link `claimed`, tickets q had already completed), as
        bitmasks, on the board before the claim."""
        ix = self.ix
        board = Board.bare(ix, q, self._owner, self._trains)
        link = ix.link
        served = complete = 0
        for path_costs in self.path_costs:
            costs = path_costs(board)
            trees: dict[int, tuple[list[float], list[int]]] = {}
            for t, (a, b) in enumerate(zip(ix.ticket_a, ix.ticket_b, strict=True)):
                tree = trees.get(a)
                if tree is None:
                    tree = trees[a] = dijkstra(ix, costs, a)
                if tree[0][b] == 0:
                    complete |= 1 << t
                elif tree[0][b] < INF and any(link[r] == claimed for r in path_to(ix, tree[1], a, b)):
                    served |= 1 << t
        return served, complete

    def _complete(self, q: int) -> int:
        """The tickets seat q's routes connect now, as a bitmask."""
        board = Board.bare(self.ix, q, self._owner, self._trains)
        done = completed(board, list(range(len(self.ix.ticket_a))))
        return sum(1 << t for t, ok in enumerate(done) if ok)

    def misses(self, q: int, held: int) -> tuple[int, int, int]:
        """For seat q holding the tickets of bitmask `held`: (its claims none of them served, its claims made
        when all of them were complete, its ticket draws made while fewer of them were complete than it held)."""
        off = done = 0
        for served, complete in self.claims[q]:
            if not held & ~complete:
                done += 1
            elif not held & served:
                off += 1
        undone = sum(1 for count, complete in self.draws[q] if (held & complete).bit_count() < count)
        return off, done, undone


def face_up_picks(game_map: GameMap, log: Sequence[Mapping[str, Any]], n: int) -> list[list[int]]:
    """Per seat, the colours (card indexes, wild cards left out) it took from the face-up row, from a view's log."""
    picks: list[list[int]] = [[] for _ in range(n)]
    colours = {c: i for i, c in enumerate(game_map.colors)}
    for entry in log:
        if entry.get("action") == "draw_card" and entry.get("from") == "face_up":
            c = colours.get(entry.get("card", ""))
            if c is not None:
                picks[entry["player"]].append(c)
    return picks
