"""`greedy`: a solid heuristic player (plan the tickets, collect the cards, claim, watch the end).

Each decision re-reads the seat view into a `Board` and works on a *plan*: the routes that connect its
incomplete tickets by the cheapest paths over the routes still open to it (a greedy Steiner tree,
`ttr.bots.planning.plan_tickets`; own routes are free, so the plan follows its network and re-plans
around routes others take). See research/bot-measurements.md for the whole behaviour.
"""

from __future__ import annotations

from typing import Any

from ttr.bots.base import BaseBot
from ttr.bots.params import PRESETS, GreedyParams
from ttr.bots.planning import (
    INF,
    Board,
    ClaimOption,
    Options,
    Plan,
    StationOption,
    colour_needs,
    completed,
    distance_without,
    map_index,
    network,
    part_trail_length,
    plan_tickets,
    route_missing,
    route_parts,
    sort_options,
    station_completion,
    trail_length,
)
from ttr.bots.profiles import profile
from ttr.engine import Action, SeatView
from ttr.engine.scoring import UnionFind
from ttr.maps import GameMap

PlanCache = tuple[Any, list[float], Plan]
"""What `GreedyBot.plan_cache` gives and `set_plan_cache` takes back: the plan, its key and its path costs."""

MAX_DETOUR = 30.0  # a detour counted at most (a route with no way around it: this many trains)


class GreedyBot(BaseBot):
    """Plans its tickets, draws the colours the plan needs, claims plan routes as soon as it can pay.

    It plays the parameters of its preset (`ttr.bots.params.PRESETS`; `greedy` by default) with the values
    fitted to the map and seat count laid over them (`ttr.bots.profiles`), set at the first decision, when
    the seat count is known; or the `params` given, in every game.
    """

    name = "greedy"

    def __init__(self, game_map: GameMap, seat: int, seed: int, *, preset: str = "greedy",
                 params: GreedyParams | None = None) -> None:
        super().__init__(game_map, seat, seed)
        if preset not in PRESETS:
            raise ValueError(f"no greedy preset {preset!r} (presets: {', '.join(PRESETS)})")
        self.preset = preset
        self.name = preset
        self.fixed = params  # parameters given outright: no profile
        self.ix = map_index(game_map)
        rules = game_map.rules
        self.pieces = rules.pieces
        self._seats = 0  # the seat count the parameters are set for (0: not known yet, the preset's own)
        self.params = params if params is not None else PRESETS[preset]
        self._set_params(self.params)
        self._plan_key: tuple[Any, ...] | None = None
        self._trail_key: tuple[int, ...] | None = None
        self._trail_cache: dict[int, int] = {}
        self._my_parts: list[list[int]] = []
        self._part_at: dict[int, int] = {}
        self._cost_knobs: tuple[float, ...] = ()
        self._needs_key: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self._needs_value: list[int] = []
        self._network_key: tuple[tuple[int, ...], int] | None = None
        self._network_value = UnionFind(0)
        self._base_costs: list[float] = []
        self._point_share: list[float] = []
        self._my_trail = 0
        self._best_other = 0
        self._plan = Plan()
        self._plan_costs: list[float] = []  # the path costs `_plan` was made with
        self._has_attractions = any(self.ix.attraction)
        self._reached_key: tuple[tuple[int, ...], int] | None = None
        self._reached: list[bool] = []

    def _set_params(self, params: GreedyParams) -> None:
        """Play `params` from now on (with the rates derived from them)."""
        self.params = params
        rules = self.game_map.rules
        self.endgame_trains = rules.pieces if params.rush else rules.end_trigger_pieces + max(2, rules.pieces // 10)
        points = rules.route_points
        self.train_rate = params.train_share * max(p / n for n, p in points.items() if n > 0)
        self._cost_knobs = ()

    def _fit_seats(self, n: int) -> None:
        """Set the parameters of an `n`-seat game (the preset's in this map and seat count's profile, unless
        parameters were given); its plans are made again."""
        self._seats = n
        if self.fixed is None:
            self._set_params(profile(self.game_map, n).params(self.preset))
        self._plan_key = None

    # ------------------------------------------------------------------ entry point

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """The greedy choice (see the class and module docstrings)."""
        if len(legal) == 1:
            return legal[0]
        return self.decide(Board.from_view(self.ix, view), legal)

    def decide(self, board: Board, legal: list[Action], ids: list[int] | None = None) -> Action:
        """The greedy choice for the seat of `board` among `legal` (with their catalogue `ids` if known:
        faster); `choose` reads the view into a `Board`, search reads a sampled game (`Board.from_game`)."""
        if len(legal) == 1:
            return legal[0]
        return self.decide_options(board, sort_options(self.ix, legal, ids), legal[0])

    def decide_options(self, board: Board, opts: Options, first: Action) -> Action:
        """`decide` on legal actions already sorted (more than one; `first` is the first of them, played
        when nothing else fits); search playouts sort them with `planning.game_options`."""
        if board.n != self._seats:
            self._fit_seats(board.n)
        if opts.keeps:
            return self._keep_tickets(board, opts)
        if opts.pays or opts.abandon:
            return self._tunnel(board, opts) or first
        plan = self.current_plan(board)
        if board.phase == "second_card":
            return self._draw(board, plan, opts, first=False) or first
        return self._main(board, plan, opts) or first

    # ------------------------------------------------------------------ plans

    def path_costs(self, board: Board) -> list[float]:
        """The path cost of every route for the seat of `board`, as its plans weigh them (`_costs`)."""
        if board.n != self._seats:
            self._fit_seats(board.n)
        return self._costs(board)

    def _costs(self, board: Board, borrow: bool = True) -> list[float]:
        """Path costs: trains plus a turn's worth per route, penalties for tunnels and ferries, minus a share
        of the route's points (long routes score more per train) and of the cards in hand that fit it
        (`route_costs` with those adjustments, in one pass over per-route parts worked out once)."""
        ix = self.ix
        knobs = (self.params.overhead, self.params.tunnel_penalty, self.params.ferry_penalty, self.params.points_weight)
        if knobs != self._cost_knobs:
            self._cost_knobs = knobs
            overhead, tunnel_penalty, ferry_penalty, weight = knobs
            base = []
            for r, size in enumerate(ix.length):  # as route_costs adds them up
                c = size + overhead + ferry_penalty * ix.ferry[r]
                if ix.tunnel[r]:
                    c += tunnel_penalty
                base.append(c)
            self._base_costs = base
            self._point_share = [weight * p for p in ix.points]
        base, share = self._base_costs, self._point_share
        can_borrow = self.game_map.rules.stations > 0 and borrow and board.my_stations > 0
        borrow_cost = float(self.params.borrow_cost)
        hand = board.hand
        best_held = max(hand[: ix.ncol])
        hand_weight = self.params.hand_weight
        colour, length, route_a, route_b = ix.colour, ix.length, ix.route_a, ix.route_b
        seat, trains, is_open, station_at = board.seat, board.my_trains, board.open, board.station_at
        costs: list[float] = []
        append = costs.append
        for r, o in enumerate(board.owner):
            if o == seat:
                append(0.0)
            elif is_open[r]:
                size = length[r]
                if size > trains:
                    append(INF)
                else:
                    rc = colour[r]
                    held = best_held if rc < 0 else hand[rc]
                    cost = base[r] - share[r] - hand_weight * (held if held < size else size)
                    append(cost if cost > 0.25 else 0.25)  # positive: Dijkstra needs it
            elif can_borrow and o >= 0 and (station_at[route_a[r]] < 0 or station_at[route_b[r]] < 0):
                append(borrow_cost)
            else:
                append(INF)
        if self._has_attractions and self.params.attraction_cost:
            weight = self.params.attraction_cost
            for r, o in enumerate(board.owner):
                if o < 0 and costs[r] < INF:
                    gain = self._attraction_gain(board, r)
                    if gain:
                        cost = costs[r] - weight * gain
                        costs[r] = cost if cost > 0.25 else 0.25
        return costs

    def _attraction_gain(self, board: Board, r: int) -> int:
        """Points of tourist attractions route r would reach that the seat's routes do not reach yet."""
        ix = self.ix
        if not self._has_attractions:
            return 0
        key = (board.signature, board.seat)
        if key != self._reached_key:
            self._reached_key = key
            reached = [False] * ix.ncity
            for route, o in enumerate(board.owner):
                if o == board.seat:
                    reached[ix.route_a[route]] = reached[ix.route_b[route]] = True
            self._reached = reached
        reached = self._reached
        a, b = ix.route_a[r], ix.route_b[r]
        return (0 if reached[a] else ix.attraction[a]) + (0 if reached[b] else ix.attraction[b])

    def plan_needs(self, plan: Plan, board: Board) -> list[int]:
        """The cards per card type (wild last) the seat of `board` still needs to claim all of `plan`."""
        return self._needs(plan.routes, board.hand)

    def _needs(self, routes: list[int], hand: list[int]) -> list[int]:
        """`colour_needs(ix, routes, hand)[0]` (read only), remembered for the last routes and hand: a
        decision asks for the plan's needs several times."""
        key = (tuple(routes), tuple(hand))
        if key != self._needs_key:
            self._needs_key = key
            self._needs_value = colour_needs(self.ix, routes, hand)[0]
        return self._needs_value

    def _network(self, board: Board) -> UnionFind:
        """`network(board)` (for `find` only), remembered for the last board."""
        key = (board.signature, board.seat)
        if key != self._network_key:
            self._network_key = key
            self._network_value = network(board)
        return self._network_value

    def _todo(self, board: Board) -> list[int]:
        """Held tickets not yet complete (stations already built counted)."""
        if any(o == board.seat for o in board.station_at):
            _, done = station_completion(board, board.tickets)
        else:
            done = completed(board, board.tickets, self._network(board))
        return [t for t, ok in zip(board.tickets, done, strict=True) if not ok]

    def current_plan(self, board: Board) -> Plan:
        """The plan greedy works on for the seat of `board`: the routes joining its unfinished tickets that fit
        its trains (the costliest tickets per point dropped). Made again only when the board's claims and
        stations, the seat's tickets, trains or stations change (the plan cache, `plan_cache`)."""
        key = (board.signature, tuple(board.tickets), board.my_trains, board.my_stations)
        if key != self._plan_key:
            self._plan_key = key
            self._plan_costs = self._costs(board)
            self._plan = self._make_plan(board, self._todo(board), self._plan_costs)
        return self._plan

    def plan_cache(self) -> PlanCache:
        """The plan cache of `current_plan` (an opaque value), to put back later with `set_plan_cache`: one bot
        can model a seat in many worlds, each with its own cache (`ttr.bots.tracking`)."""
        return (self._plan_key, self._plan_costs, self._plan)

    def set_plan_cache(self, cache: PlanCache | None) -> None:
        """Put back a plan cache from `plan_cache` (None: forget the plan; the next decision makes it again)."""
        if cache is None:
            self._plan_key = None
        else:
            self._plan_key, self._plan_costs, self._plan = cache

    def _make_plan(self, board: Board, tickets: list[int], costs: list[float] | None = None) -> Plan:
        """A plan for `tickets` that fits the trains left, dropping the tickets that cost most per point."""
        costs = costs or self._costs(board)
        plan = plan_tickets(board, tickets, costs)
        if len(plan.borrows) > board.my_stations:
            costs = self._costs(board, borrow=False)
            plan = plan_tickets(board, tickets, costs)
        dropped = list(plan.dropped)
        while plan.trains > board.my_trains and plan.tickets:
            best: tuple[float, Plan, int] | None = None
            for t in plan.tickets:
                other = plan_tickets(board, [x for x in plan.tickets if x != t], costs)
                saved = (plan.trains - other.trains) / max(1, self.ix.ticket_points[t])
                if best is None or saved > best[0]:
                    best = (saved, other, t)
            assert best is not None
            plan = best[1]
            dropped.append(best[2])
        plan.dropped = dropped
        return plan

    # ------------------------------------------------------------------ tickets

    def _keep_tickets(self, board: Board, opts: Options) -> Action:
        """The keep-set whose plan earns the most points beyond the going rate per train, within a train cap."""
        return opts.keeps[self.keep_ranking(board, opts)[0]][1]

    def keep_ranking(self, board: Board, opts: Options) -> list[int]:
        """The indexes of `opts.keeps`, greedy's choice first: the sets that fit by value (highest first),
        then the others by the risk of what they lose (least first)."""
        if board.n != self._seats:
            self._fit_seats(board.n)
        ix = self.ix
        held = self._todo(board)
        setup = not board.tickets
        costs = self._costs(board)
        base = self._make_plan(board, held, costs) if held else Plan()
        trains = board.my_trains
        cap = trains * self.params.setup_cap if setup else trains - 1
        turns = self._turns_left(board)
        fits: list[tuple[float, int]] = []
        others: list[tuple[float, int]] = []
        for i, (kept, _) in enumerate(opts.keeps):
            plan = plan_tickets(board, held + list(kept), costs)
            lost = sum(ix.ticket_points[t] for t in plan.dropped)
            gain = sum(ix.ticket_points[t] for t in kept) - 2 * lost
            extra = plan.trains - base.trains
            value = gain + (plan.points - base.points) - self.train_rate * extra
            needed = self._turns_needed(board, plan)
            ok = plan.trains <= cap and not plan.dropped and (setup or needed <= turns)
            if ok:
                fits.append((-value, i))
            else:  # nothing fits: keep what loses least (a ticket no path joins is a certain loss)
                others.append((2 * lost + extra + (sum(ix.ticket_points[t] for t in kept) if extra else 0), i))
        return [i for _, i in sorted(fits)] + [i for _, i in sorted(others)]

    def _turns_needed(self, board: Board, plan: Plan) -> float:
        """Turns to finish a plan: a claim per route plus a turn per two missing cards."""
        need = self._needs(plan.routes, board.hand)
        missing = sum(max(0, need[c] - board.hand[c]) for c in range(self.ix.ncol + 1))
        return len(plan.routes) + missing / 2

    def _turns_left(self, board: Board) -> float:
        """A rough count of this seat's turns before the end: the others spend about 1.5 trains a turn."""
        return max(0.0, (board.min_other_trains() - self.game_map.rules.end_trigger_pieces) / 1.5)

    # ------------------------------------------------------------------ main turn

    def _main(self, board: Board, plan: Plan, opts: Options) -> Action | None:
        if board.final_round:
            return self._last_turn(board, plan, opts)
        endgame = board.min_other_trains() <= self.endgame_trains or board.my_trains <= self.endgame_trains
        station = self._station(board, plan, opts)
        if station is not None:
            return station
        claim = self._plan_claim(board, plan, opts)
        if claim is not None:
            return claim
        if endgame:
            claim = self._points_claim(board, plan, opts, min_length=1)
            if claim is not None and not self._plan_close(board, plan):
                return claim
        if not plan.routes:
            p = self.params
            if (p.draws_tickets and opts.draw_tickets is not None and not endgame
                    and board.my_trains >= max(self.pieces * p.ticket_draw_mine, p.ticket_draw_min)
                    and board.min_other_trains() >= max(self.pieces * p.ticket_draw_others, p.ticket_draw_min)):
                return opts.draw_tickets
            claim = self._points_claim(board, plan, opts, min_length=self.params.long_min)
            if claim is not None:
                return claim
        elif (self.params.hand_cap and sum(board.hand) >= self.params.hand_cap
              and min(board.trains) <= self.params.spare_late * self.pieces):
            claim = self._spare_claim(board, plan, opts)
            if claim is not None:
                return claim
        return self._draw(board, plan, opts, first=True)

    def _spare_claim(self, board: Board, plan: Plan, opts: Options) -> Action | None:
        """A claim for points (the most, of at least `long_min` trains, or any length near the end) paid with
        cards of one colour the plan does not need (no wild: a wild stands in for any colour the plan lacks),
        leaving the trains the plan takes: a large hand waiting for the plan's
        colours is spent instead of growing to the end of the game."""
        ix = self.ix
        need = self._needs(plan.routes, board.hand)
        hand = board.hand
        trains = board.my_trains - plan.trains
        endgame = board.min_other_trains() <= self.endgame_trains or board.my_trains <= self.endgame_trains
        min_length = 1 if endgame else self.params.long_min
        todo = self._todo(board)
        uf = self._network(board)
        best: tuple[tuple[float, ...], ClaimOption] | None = None
        for r, options in opts.claims.items():
            if ix.length[r] < min_length or ix.length[r] > trains:
                continue
            for option in options:
                if (option.wilds or ix.length[r] > hand[option.colour] - need[option.colour]
                        or not self._tunnel_ok(board, option)):
                    continue
                gain = (float(ix.points[r]) + self._completion_gain(board, todo, uf, r) + self._express_gain(board, r)
                        + self._attraction_gain(board, r))
                key = (gain, -option.wilds, -r)
                if best is None or key > best[0]:
                    best = (key, option)
        return best[1].action if best else None

    def _plan_close(self, board: Board, plan: Plan) -> bool:
        """Whether a plan route is one draw away (then drawing beats claiming something else at the end)."""
        return any(route_missing(self.ix, r, board.hand)[0] <= 2 for r in plan.routes)

    def _plan_claim(self, board: Board, plan: Plan, opts: Options) -> Action | None:
        """The plan route it can pay now (any open track of a plan link) that matters most, with the cheapest
        cards: the longest, or with `detour_weight` the one of most length plus weighted detour (`_detour`)."""
        ix = self.ix
        links = {ix.link[r] for r in plan.routes}
        need = self._needs(plan.routes, board.hand)
        weighted = self.params.detour_weight > 0
        payable: list[ClaimOption] = []  # with `detour_weight` only
        best: tuple[tuple[int, ...], ClaimOption] | None = None
        for r, options in opts.claims.items():
            if ix.link[r] not in links:
                continue
            option = self.cheapest_claim(board, options, need)
            if not self._tunnel_ok(board, option):
                continue
            if weighted:
                payable.append(option)
            key = (ix.length[r], -option.wilds, -r)
            if best is None or key > best[0]:
                best = (key, option)
        if len(payable) > 1:
            return self._bottleneck_first(payable)
        return best[1].action if best else None

    def _bottleneck_first(self, payable: list[ClaimOption]) -> Action:
        """Of several payable plan claims, the one of most length + `detour_weight` x detour (`_detour`, on
        the path costs the plan was made with), then as `_plan_claim` orders them."""
        length = self.ix.length
        weight, costs = self.params.detour_weight, self._plan_costs

        def key(o: ClaimOption) -> tuple[float, int, int, int]:
            r = o.route
            return (length[r] + weight * self._detour(costs, r), length[r], -o.wilds, -r)

        return max(payable, key=key).action

    def _detour(self, costs: list[float], r: int) -> float:
        """How much longer (in path cost, at most `MAX_DETOUR`) the way between route r's cities would be if
        another seat took r's link: what claiming r first secures."""
        ix = self.ix
        around = distance_without(ix, costs, ix.route_a[r], ix.route_b[r], ix.link_routes[ix.link[r]])
        return min(around - costs[r], MAX_DETOUR)

    def _tunnel_ok(self, board: Board, option: ClaimOption) -> bool:
        """Not a tunnel, or one with a spare card of its colour (or a wild) for the extra cards it may cost; for a
        tunnel it has abandoned before, spare cards for the whole reveal (`Board.tunnel_spare`)."""
        ix = self.ix
        if not ix.tunnel[option.route]:
            return True
        if board.futile_retry(option.route):
            return False  # tried and abandoned from this very hand and board, few cards left to reveal
        hand = board.hand
        spare = hand[ix.wild] - option.wilds
        if option.colour != ix.wild:
            spare += hand[option.colour] - (ix.length[option.route] - option.wilds)
        return spare >= board.tunnel_spare(option.route)

    def cheapest_claim(self, board: Board, options: list[ClaimOption], need: list[int]) -> ClaimOption:
        """The card set greedy pays a route with, of `options` (one route's claims): fewest wild cards, then the
        colour the rest of the plan needs least (`need`: `plan_needs` of its plan)."""
        hand = board.hand
        wild = self.ix.wild

        def key(o: ClaimOption) -> tuple[int, int, int]:
            spare = hand[o.colour] - need[o.colour] if o.colour != wild else -99
            return (o.wilds, -spare, o.colour)

        return min(options, key=key)

    def _points_claim(self, board: Board, plan: Plan, opts: Options, min_length: int) -> Action | None:
        """The claim worth the most points now (routes completing tickets count their tickets twice)."""
        ix = self.ix
        todo = self._todo(board)
        uf = self._network(board)
        need = self._needs(plan.routes, board.hand)
        best: tuple[tuple[float, ...], ClaimOption] | None = None
        for r, options in opts.claims.items():
            if ix.length[r] < min_length:
                continue
            gain = (float(ix.points[r]) + self._completion_gain(board, todo, uf, r) + self._express_gain(board, r)
                    + self._attraction_gain(board, r))
            option = self.cheapest_claim(board, options, need)
            if not board.final_round and not self._tunnel_ok(board, option):
                continue
            key = (gain, -option.wilds, -r)
            if best is None or key > best[0]:
                best = (key, option)
        return best[1].action if best else None

    def _express_gain(self, board: Board, r: int) -> float:
        """What route r adds towards the longest-path bonus: a share of the trains it adds to the seat's
        longest trail, plus the bonus when that takes the lead."""
        bonus = self.game_map.rules.longest_path_bonus
        if not bonus or not self.params.express_weight:
            return 0.0
        if self._trail_key != board.signature:
            self._trail_key = board.signature
            self._trail_cache = {}
            owned: list[list[int]] = [[] for _ in range(board.n)]
            for route, o in enumerate(board.owner):
                if o >= 0:
                    owned[o].append(route)
            ix = self.ix
            parts = route_parts(ix, owned[board.seat])
            self._my_parts = parts
            self._my_trail = max((part_trail_length(ix, part) for part in parts), default=0)
            self._best_other = max((trail_length(ix, owned[p]) for p in range(board.n) if p != board.seat),
                                   default=0)
            self._part_at = {city: i for i, part in enumerate(parts)
                             for x in part for city in (ix.route_a[x], ix.route_b[x])}
        ix = self.ix
        part_at = self._part_at
        a, b = part_at.get(ix.route_a[r], -1), part_at.get(ix.route_b[r], -1)
        if a < 0 and b < 0:
            return 0.0
        new = self._trail_cache.get(r)
        if new is None:  # only the part r joins changes: the others' trails are no longer than the old best
            merged = [r]
            for i in sorted({a, b} - {-1}):
                merged.extend(self._my_parts[i])
            new = self._trail_cache[r] = max(self._my_trail, part_trail_length(ix, merged))
        gain = self.params.express_weight * (new - self._my_trail)
        if self._my_trail <= self._best_other < new:
            gain += bonus
        return gain

    def _completion_gain(self, board: Board, todo: list[int], uf: UnionFind, r: int) -> float:
        ix = self.ix
        if not todo:
            return 0.0
        before = completed(board, todo, uf)
        after_uf = uf.copy()
        after_uf.union(ix.route_a[r], ix.route_b[r])
        after = completed(board, todo, after_uf)
        return float(sum(2 * ix.ticket_points[t] for t, a, b in zip(todo, before, after, strict=True) if b and not a))

    def _last_turn(self, board: Board, plan: Plan, opts: Options) -> Action | None:
        """The final round: the single action that scores most now."""
        claim = self._points_claim(board, plan, opts, min_length=1)
        station = self._station(board, plan, opts, force=True)
        if station is not None:
            return station
        if claim is not None:
            return claim
        return opts.draw_deck or next(iter(opts.face_up.values()), None)

    # ------------------------------------------------------------------ stations

    def _station(self, board: Board, plan: Plan, opts: Options, force: bool = False) -> Action | None:
        """A station that completes a ticket now (worth more than the 4 points an unbuilt station keeps)."""
        if not board.tickets or (not force and not plan.borrows and not plan.dropped):
            return None
        if not opts.stations:  # read last: search playouts decode the stations only here
            return None
        ix = self.ix
        uf = self._network(board)
        base, _ = station_completion(board, board.tickets)
        candidates: set[int] = set()
        for t in self._todo(board):
            ca, cb = uf.find(ix.ticket_a[t]), uf.find(ix.ticket_b[t])
            for r, o in enumerate(board.owner):
                if o < 0 or o == board.seat:
                    continue
                x, y = uf.find(ix.route_a[r]), uf.find(ix.route_b[r])
                if {x, y} == {ca, cb}:
                    for city in (ix.route_a[r], ix.route_b[r]):
                        if city in opts.stations:
                            candidates.add(city)
        best: tuple[float, int] | None = None
        for city in sorted(candidates):
            points, _ = station_completion(board, board.tickets, city)
            gain = points - base - self.game_map.rules.unbuilt_station_points
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, city)
        if best is None:
            return None
        need = self._needs(plan.routes, board.hand)
        return self._cheapest_station(board, opts.stations[best[1]], need).action

    def _cheapest_station(self, board: Board, options: list[StationOption], need: list[int]) -> StationOption:
        hand = board.hand
        wild = self.ix.wild

        def key(o: StationOption) -> tuple[int, int, int]:
            spare = hand[o.colour] - need[o.colour] if o.colour != wild else -99
            return (o.wilds, -spare, o.colour)

        return min(options, key=key)

    # ------------------------------------------------------------------ tunnels

    def _tunnel(self, board: Board, opts: Options) -> Action | None:
        """Pay the extra cards (fewest wilds) if the route is in the plan or cheap enough; else abandon."""
        if not opts.pays:
            return opts.abandon
        ix = self.ix
        r = board.tunnel_route
        plan = self.current_plan(board)
        matters = r >= 0 and (ix.link[r] in {ix.link[x] for x in plan.routes} or board.tunnel_extra <= 2
                              or board.final_round)
        if not matters:
            return opts.abandon
        return min(opts.pays, key=lambda p: p[0])[1]

    # ------------------------------------------------------------------ drawing

    def _draw(self, board: Board, plan: Plan, opts: Options, first: bool) -> Action | None:
        """The face-up colour the plan needs most, a face-up wild when wilds are needed (`face_up_wilds`), else
        blind."""
        ix = self.ix
        hand = board.hand
        if self.params.focus_draws and plan.routes:
            card = self._focus_card(board, plan, opts)
            if card >= 0:
                return opts.face_up[card]
        routes = plan.routes or self._target_routes(board)
        need = self._needs(routes, hand)
        deficit = [need[c] - hand[c] for c in range(ix.ncol + 1)]
        best: tuple[int, int] | None = None
        for card in opts.face_up:
            if card != ix.wild and deficit[card] > 0 and (best is None or (deficit[card], -card) > best):
                best = (deficit[card], -card)
        if best is not None:
            return opts.face_up[-best[1]]
        total = sum(max(0, d) for d in deficit[: ix.ncol])
        if first and self.params.face_up_wilds and ix.wild in opts.face_up and (deficit[ix.wild] > 0 or 0 < total <= 2):
            return opts.face_up[ix.wild]
        if opts.draw_deck is not None:
            return opts.draw_deck
        for card in sorted(opts.face_up):
            if card != ix.wild:
                return opts.face_up[card]
        if opts.face_up:
            return next(iter(opts.face_up.values()))
        return None

    def _focus_card(self, board: Board, plan: Plan, opts: Options) -> int:
        """The face-up colour (not a wild) of the plan route fewest cards from being paid, the longest of
        those first; -1 if no unpaid plan route's colour lies face up (`focus_draws`)."""
        ix = self.ix
        best: tuple[tuple[int, int, int], int] | None = None
        for r in plan.routes:
            missing, colour = route_missing(ix, r, board.hand)
            if missing <= 0 or colour == ix.wild or colour not in opts.face_up:
                continue
            key = (missing, -ix.length[r], r)
            if best is None or key < best[0]:
                best = (key, colour)
        return best[1] if best is not None else -1

    def _target_routes(self, board: Board) -> list[int]:
        """Without a plan: the long open route it is closest to paying for (to draw its colour)."""
        ix = self.ix
        best: tuple[float, int] | None = None
        for r in ix.routes_by_length:
            if not board.open[r] or ix.length[r] > board.my_trains or ix.length[r] < self.params.long_min:
                continue
            missing, _ = route_missing(ix, r, board.hand)
            value = (ix.points[r] + self._express_gain(board, r) + self._attraction_gain(board, r)) / (1 + missing / 2)
            if best is None or value > best[0]:
                best = (value, r)
        return [best[1]] if best else []
