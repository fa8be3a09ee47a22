"""`mcts`: information-set Monte Carlo search over a few candidate moves, with greedy playouts.

Its settings are one frozen value, `MctsBot.config` (`ttr.bots.search.config.SearchConfig`; the names in
backquotes below are its fields), and a level is the class with its config (`MctsExpert`). A decision of the
`mcts` bot:

1. It asks `GreedyLong` (`ttr.bots.styles`: greedy that values route points more; in Europe `GreedyLongDuel`
   with two seats and `GreedyLongFour` with more, values fitted to them: the profile, `ttr.bots.profiles`) for its move:
   the *guide*. Tunnel payments are left to it, as is any decision with a single legal action.
2. It picks a handful of *candidates*, each a first move and the style it goes on in: the guide's move; for
   the second card of a draw, every card it may take (`search_draws`); in a main turn, the blind draw and
   each face-up card (only the blind draw without `search_draws`), a ticket draw, the claims of greedy's
   plan routes and the longest claims it can pay (`claims` of them, `late_claims` once the leader has laid
   `late_from` of its pieces, `wide` at every stage where `wide_claims` has the map and seat count; one
   card set per route, as greedy would pay), a claim
   blocking a route the other seats likely need (by the belief of step 3) and another blocking the routes
   their tickets need most in the first `block_worlds` worlds of step 3 (`ttr.bots.blocking`), all
   continued with the guide, and the move of each style in `styles` continued in that style (so it weighs
   plans, not only moves; none by default, see the config); when choosing tickets, greedy's best
   keep-sets by its own valuation.
3. It samples *worlds*: full games consistent with what its seat has seen (`ttr.engine.sample.InfoSet`:
   other hands and tickets, the deck and ticket deck order are dealt at random; face-up cards, discards,
   claims, its own hand and tickets and where its returned tickets lie are as seen). The other seats'
   tickets are weighted by how far their claims already go towards them (`ttr.bots.inference`), their long
   tickets kept at setup are dealt as often as `opponent_styles` keep one (`ttr.bots.setup_prior`); in
   two-seat Europe, where the other seat is modelled as greedy alone, the whole setup keep is one greedy
   makes of an offer drawn from the hidden tickets (`assume_greedy_setup_keeps`, `ttr.bots.setup_keeps`:
   an assumption that the opponent is greedy, off in `expert`). Each world's tickets are kept from `resample` so dealt
   by how well they explain all of each seat's claims; only then are the cards dealt around them.
   Where the profile's `track` says so (two-seat New York) and the other seat is modelled by one policy
   (`assume_greedy_tracking`: an assumption that the opponent plays that policy, off in `expert`) the worlds are instead
   drawn from a few hundred kept in step with the game from its start (`ttr.bots.tracking`): each is
   weighed by whether the modelled policy, with that world's hidden tickets and hand, makes every move
   the other seat made, draws included. Blind draws and tunnel reveals are chance, resolved by the
   world's deck.
4. In every world it plays every candidate, then greedy for the other seats and the candidate's style
   (`GreedyLong` for all but the other styles' moves) for its own (to the end of the game, or for `depth`
   actions, or `GreedyPlayout.limit` where play goes round in a circle, then the estimate of
   `ttr.bots.mcts_policy`), and scores the candidate by its seat's final
   margin over the best other seat. Every candidate meets the same worlds (common random numbers), so their
   differences are measured with far less noise than their values.
5. It plays the candidate of best mean margin, but leaves the guide's move only when the other one is
   better by `margin` points on average (`wide_margin` where `wide_claims` holds), in at least `min_worlds`
   worlds, and significantly (a one-sided paired t-test at about 5%, `ttr.bots.search.gate`): the search mostly
   catches the guide's mistakes. A candidate more
   than `prune` points worse than the guide's move after `prune_after` worlds is dropped, only the best
   ones are kept when the budget cannot give them `target_worlds` worlds, and the search stops when only
   the guide's move is left.

The search is one level deep (a flat Monte Carlo search over the root moves; the opponents follow greedy
and the seat's own later moves its style), which the playouts' accuracy repays better than a deeper tree
would at this budget: a full greedy playout costs about 21 ms in two-player Europe and 3 ms in New York.

Budgets: by default the search plays a fixed number of playout *actions* a decision (`playout_actions`),
fitted per map and seat count (`ttr.bots.budgets`) to what the pure-Python build reached in 0.5 s of CPU a
decision: a count, not a clock, so a level makes the same moves on the pure-Python and the compiled build
(the compiled one only sooner) and on a loaded machine, and the same seed gives the same game. It counts
actions rather than playouts because a playout's cost is its length: early in a game a playout is long and
0.5 s gave a few of them, near the end many. A map without fitted figures gets `FALLBACK_SECONDS`. Other
budgets: `iterations` playouts per decision (`mcts:N`) or `time_limit`
seconds (`mcts:Ts`: the whole decision, the guide's move and the belief included; it stops before a world
that would overrun it by the mean time of the worlds so far, so every candidate has the same worlds and a
decision ends at most about one world's time late). The time is the CPU time of the thread
(`time.thread_time`): on an idle core the same as wall time, and on a loaded machine the search still gets
its time of one core, only later. Whatever the budget, the search stops a world early rather than give
the candidates unequal worlds.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any

from ttr.bots.base import BaseBot
from ttr.bots.blocking import world_block_damage
from ttr.bots.budgets import FALLBACK_SECONDS
from ttr.bots.greedy import GreedyBot
from ttr.bots.inference import ClaimReplay, TicketBelief, face_up_picks
from ttr.bots.mcts_policy import estimate
from ttr.bots.planning import Board, sort_options
from ttr.bots.playout import GreedyPlayout
from ttr.bots.profiles import profile_of
from ttr.bots.search.config import SearchConfig
from ttr.bots.search.gate import clearly_better
from ttr.bots.setup_keeps import SetupKeeps
from ttr.bots.setup_prior import long_held_odds
from ttr.bots.styles import POLICIES, Greedy, GreedyLong, Policy
from ttr.bots.tracking import WorldFilter
from ttr.engine import Action, Game, SeatView
from ttr.engine import actions as A
from ttr.engine.phases import CHOOSE_SETUP, CHOOSE_TICKETS, MAIN, SECOND_CARD
from ttr.engine.sample import InfoSet, TicketDeal
from ttr.maps import GameMap


class MctsBot(BaseBot):
    """Flat information-set Monte Carlo search over greedy's move and a few alternatives; see the module."""

    name = "mcts"
    config = SearchConfig()  # the search's settings (`ttr.bots.search.config`); a level sets its own
    def __init__(self, game_map: GameMap, seat: int, seed: int, *, iterations: int | None = None,
                 time_limit: float | None = None, playout_actions: int | None = None,
                 depth: int | None = None, config: SearchConfig | None = None) -> None:
        """A bot with `config` (default: the class's), or with the `iterations` / `time_limit` /
        `playout_actions` given (only those) and playout `depth` laid over it."""
        super().__init__(game_map, seat, seed)
        config = config if config is not None else type(self).config
        if iterations is not None or time_limit is not None or playout_actions is not None:
            config = replace(config, iterations=iterations, time_limit=time_limit, playout_actions=playout_actions)
        if depth is not None:
            config = replace(config, depth=depth)
        config.check()
        self.config = config
        self.opponent_styles: tuple[Policy, ...] = config.opponent_styles  # the models in play (`_fit_guide`)
        self.guide: GreedyBot = GreedyLong(game_map, seat, seed)
        self._guide_policy: Policy = GreedyLong
        self._seats: int | None = None  # the game's seat count, once seen (`_fit_guide`)
        self.last_iterations = 0  # playouts of the last search
        self.last_actions = 0  # ... and the actions they played
        self.last_values: dict[int, float] = {}  # candidate id -> its mean gain over the guide's move (last search)
        self._playouts: list[list[GreedyPlayout]] = []  # per opponent style, per own style (0: the guide's)
        self._style_bots: list[GreedyBot] = []  # one bot per style, for the style's move
        self._replay: ClaimReplay | None = None  # the other seats' claims read so far (`inference.ClaimReplay`)
        self._long_odds: dict[int, list[float]] | None = None  # per setup keep count, long tickets held (odds)
        self._filter: WorldFilter | None = None  # the worlds kept in step with the game (`track`)

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """The guide's move, unless the search finds a candidate clearly better on the sampled worlds."""
        self.last_iterations = 0
        self.last_actions = 0
        self.last_values = {}
        if len(legal) == 1:
            return legal[0]
        clock = time.thread_time()  # the time budget counts from here: the guide, belief and worlds included
        self._fit_guide(len(view.players))
        guide_action = self.guide.choose(view, legal)
        phase = view.turn.phase if view.turn is not None else "game_over"
        if phase == "tunnel_payment" or (phase == "second_card" and not self.config.search_draws):
            return guide_action
        info = InfoSet(self.game_map, view.to_json())
        rng = self.rng
        board = Board.from_view(self.guide.ix, view)
        belief = self.belief_of(view, board) if self.config.belief else None
        tracked = self.tracked(view, info, belief)

        def draw_world() -> Game:  # from the tracked worlds where there are some, else dealt afresh
            return tracked.sample(rng) if tracked is not None else self.sample_world(info, rng, belief)

        first = draw_world()
        guide = first.encode(guide_action)
        sampled = [first]  # worlds sampled before the search, played first
        if first.phase == MAIN and belief is not None and self.config.world_blocks:
            sampled += [draw_world() for _ in range(self.config.block_worlds - 1)]
        cands = self.candidates(first, guide, view, legal, belief, board, sampled)
        if len(self._style_bots) != len(self.config.styles):
            self._style_bots = [style(self.game_map, self.seat, self.ctx.seed) for style in self.config.styles]
        if first.phase == MAIN:  # a move of each style, continued in that style (key: id + style * catalogue size)
            stride = len(first.cat)
            for k, bot in enumerate(self._style_bots, start=1):
                key = first.encode(bot.choose(view, legal)) + k * stride
                if key not in cands:
                    cands.append(key)
        if len(cands) < 2:
            return guide_action
        by_opponents = self.playouts_for(first.n)
        seconds, actions = self.budget_for(first.n)
        if seconds is not None:  # the budget's meter: CPU seconds since the decision began, or playout actions
            def spent() -> float:
                return time.thread_time()
            deadline = clock + seconds
        else:
            def spent() -> float:
                return float(self.last_actions)
            deadline = actions if actions is not None else math.inf
        limit = self.config.iterations if self.config.iterations is not None else 1 << 60
        gains = dict.fromkeys(cands, 0.0)  # per candidate: the sum over its worlds of its margin minus the guide's
        squares = dict.fromkeys(cands, 0.0)
        worlds = dict.fromkeys(cands, 0)
        live = cands[:]
        world = first
        start = spent()
        n = 0
        while len(live) > 1 and self.last_iterations + len(live) <= max(limit, len(cands)):
            playouts = by_opponents[n % len(by_opponents)]  # the other seats' style of this world
            base = self.play_candidate(world, guide, playouts)
            for aid in live[1:]:
                gain = self.play_candidate(world, aid, playouts) - base
                gains[aid] += gain
                squares[aid] += gain * gain
                worlds[aid] += 1
            self.last_iterations += len(live)
            n += 1
            if n >= self.config.prune_after:  # drop the candidates already clearly worse than the guide's move
                live = [aid for aid in live if aid == guide or gains[aid] / worlds[aid] > -self.config.prune]
            now = spent()
            if now + (now - start) / n > deadline:  # another world would overrun the budget
                break
            # Playouts left in the budget; when they cannot give every live candidate `target_worlds`
            # worlds, keep the guide's move and only the best others that they can (at least one).
            per_playout = (now - start) / self.last_iterations
            left = min(limit - self.last_iterations, (deadline - now) / per_playout if per_playout > 0 else math.inf)
            short = self.config.target_worlds - n
            if short > 0 and len(live) * short > left:
                keep = max(1, int(left // short) - 1)
                others = sorted(live[1:], key=lambda aid: -gains[aid] / worlds[aid])[:keep]
                live = [guide, *others]
            world = sampled[n] if n < len(sampled) else draw_world()
        self.last_values = {aid: gains[aid] / worlds[aid] if worlds[aid] else 0.0 for aid in cands}
        best = max(cands, key=lambda aid: (self.last_values[aid], aid == guide, -aid))
        margin = self.margin_for(first.n)
        if best == guide or not self.clearly_better(gains[best], squares[best], worlds[best], margin):
            return guide_action
        action = first.decode(best % len(first.cat))
        return action if action in legal else guide_action

    def budget_for(self, n: int) -> tuple[float | None, int | None]:
        """The search's budget in an `n`-seat game beside `iterations`, as (CPU seconds, playout actions), at
        most one of them set: the `time_limit` or `playout_actions` set; with no budget set at all (neither
        those nor `iterations`), the fitted playout actions of the map and seat count (its profile), or
        `FALLBACK_SECONDS` on a map without them."""
        if self.config.iterations is None and self.config.time_limit is None and self.config.playout_actions is None:
            fitted = profile_of(self.game_map.name, n).search.playout_actions
            return (None, fitted) if fitted is not None else (FALLBACK_SECONDS, None)
        return self.config.time_limit, None if self.config.time_limit is not None else self.config.playout_actions

    def is_wide(self, n: int) -> bool:
        """Whether the profile of an `n`-seat game weighs every claim (`wide_claims`, with `wide_margin`)."""
        return profile_of(self.game_map.name, n).search.wide_claims

    def margin_for(self, n: int) -> float:
        """The gate's margin in an `n`-seat game: `wide_margin` where `is_wide`, else `margin`."""
        return self.config.wide_margin if self.is_wide(n) else self.config.margin

    def clearly_better(self, gain: float, square: float, k: int, margin: float | None = None) -> bool:
        """Whether a candidate whose gains over the guide's move sum to `gain` (squares to `square`) over `k`
        worlds passes the decision gate (`ttr.bots.search.gate`) with `margin` (default: the config's)."""
        return clearly_better(gain, square, k, self.config.margin if margin is None else margin,
                              self.config.min_worlds)

    # ------------------------------------------------------------------ the parts of a search

    def belief_of(self, view: SeatView, board: Board) -> TicketBelief:
        """The belief about the other seats' tickets from the view's claims and face-up picks, with the
        claims replayed (`replay_claims`; the replay is kept for the game and reads only new log entries).
        `board` is the view read into a `Board`."""
        log = view.log
        replay = None
        if self.config.replay_claims:
            if self._replay is None or self._replay.seen > len(log):  # a new game
                planners = [style(self.game_map, self.seat, self.ctx.seed) for style in self.opponent_styles]
                self._replay = ClaimReplay(self.guide.ix, self.seat, board.n, *(p.path_costs for p in planners))
            replay = self._replay
            replay.update(log)
        return TicketBelief(self.guide.ix, board.owner, self.seat, board.n,
                            picks=face_up_picks(self.game_map, log, board.n), replay=replay)

    def tracked(self, view: SeatView, info: InfoSet, belief: TicketBelief | None) -> WorldFilter | None:
        """The worlds kept in step with the game, brought up to this view (`ttr.bots.tracking`), where `track`
        has the map and seat count and one policy models the other seats; else None."""
        n = info.n
        if (not self.config.assume_greedy_tracking or not profile_of(self.game_map.name, n).search.track
                or len(self.opponent_styles) != 1):
            return None
        if self._filter is None or self._filter.n != n:
            self._filter = WorldFilter(self.game_map, self.seat, n, self.opponent_styles[0], self.config.track_size,
                                       self.config.track_miss, self.rng.randrange(1 << 30))
        self._filter.update(view, lambda: self.sample_world(info, self.rng, belief))
        return self._filter

    def _long_held(self, info: InfoSet) -> list[list[float] | None] | None:
        """Per seat, the odds of the long tickets among those it kept at setup, as `opponent_styles` keep
        them (averaged over the styles; `ttr.bots.setup_prior`), or None without `setup_prior`."""
        if not self.config.setup_prior or not self.game_map.rules.setup_long_tickets:
            return None
        if self._long_odds is None:
            tables = [long_held_odds(self.game_map, style, info.n) for style in self.opponent_styles]
            self._long_odds = {k: [sum(t[k][j] for t in tables) / len(tables) for j in range(len(row))]
                               for k, row in tables[0].items()}
        return [None if q == self.seat else self._long_odds.get(info.setup_keep(q)) for q in range(info.n)]

    def sample_world(self, info: InfoSet, rng: Any, belief: TicketBelief | None = None) -> Game:
        """A world of the seat's information set `info`, dealt with `rng`. Without a belief the hidden cards
        and tickets are dealt uniformly (the long ones kept at setup as `_long_held` says). With one,
        `resample` ticket deals are made (tickets weighted by the claims made towards them) and one is kept
        with chances in proportion to how well each seat's dealt tickets explain all of its claims
        (`TicketBelief.likelihood`): sampling-importance-resampling. The cards, which the likelihood does not
        read, are dealt for the kept deal alone (`InfoSet.complete`)."""
        weights = belief.weights if belief is not None else None
        long_held = self._long_held(info)
        keeps = None
        config = self.config  # the setup keeps assume the other seats play greedy: only where they are so modelled
        if (config.assume_greedy_setup_keeps and self.opponent_styles == (Greedy,)
                and info.n <= config.setup_keeps_seats):
            keeps = SetupKeeps.for_map(self.game_map)
        hidden = info.hidden_tickets() if keeps is not None else ([], [])  # the same for every deal

        def deal() -> TicketDeal:
            setup = self._setup_deal(keeps, info, rng, weights, hidden) if keeps is not None else None
            return info.deal_tickets(rng, weights, long_held, setup)

        if belief is None or self.config.resample <= 1:
            return info.complete(rng, deal())
        others = [q for q in range(belief.n) if q != self.seat and belief.shown(q)]
        if not others:
            return info.complete(rng, deal())
        kept = deal()
        total = 0.0
        for i in range(self.config.resample):  # a weighted reservoir of one: each deal kept with chance like / total
            proposal = kept if i == 0 else deal()
            like = 1.0
            for q in others:
                like *= belief.likelihood(q, proposal.tickets[q])
            total += like
            if i and rng.random() * total < like:
                kept = proposal
        return info.complete(rng, kept)  # the cards are dealt apart from the tickets: only for the deal kept

    def _setup_deal(self, keeps: SetupKeeps, info: InfoSet, rng: Any, weights: list[list[float] | None] | None,
                    hidden: tuple[list[int], list[int]]) -> list[list[int] | None]:
        """Per other seat that has chosen, a setup keep greedy would make (`SetupKeeps.deal`: offers drawn
        from the `hidden` long and regular tickets, `info.hidden_tickets()`, weighted by the belief), or None
        where none was found in a few tries."""
        longs, regulars = hidden
        out: list[list[int] | None] = [None] * info.n
        for q in range(info.n):
            count = info.setup_keep(q)
            if q == self.seat or count <= 0:
                continue
            kept = keeps.deal(rng, longs, regulars, count, weights[q] if weights is not None else None)
            if kept is not None:
                out[q] = kept
                longs = [t for t in longs if t not in kept]
                regulars = [t for t in regulars if t not in kept]
        return out

    def _seat_styles(self, n: int, other: Policy, own: Policy) -> dict[int, Policy]:
        """The policy of each of `n` seats in a playout: `own` for this seat, `other` for the rest."""
        return {q: own if q == self.seat else other for q in range(n)}

    def playouts_for(self, n: int) -> list[list[GreedyPlayout]]:
        """The playout players for `n` seats, per policy of the other seats (`opponent_styles`), per policy
        of its own seat (the guide's first, then `styles`); made once and reused while they fit."""
        playouts = self._playouts
        if (len(playouts) != len(self.opponent_styles) or len(playouts[0]) != 1 + len(self.config.styles)
                or len(playouts[0][0].bots) != n):
            seed = self.rng.randrange(1 << 30)
            playouts = self._playouts = [
                [GreedyPlayout(self.game_map, n, seed, self._seat_styles(n, other, style))
                 for style in (self._own_playout_style(n), *self.config.styles)]
                for other in self.opponent_styles]
        return playouts

    @staticmethod
    def guide_for(map_name: str, seats: int) -> Policy:
        """The guide of a game of `seats` seats on `map_name`: its profile's (`ttr.bots.profiles`)."""
        return POLICIES[profile_of(map_name, seats).search.guide]

    def _fit_guide(self, n: int) -> None:
        """At the first decision of an `n`-seat game: the guide of its profile (and, with `opponents_as_guide`,
        the last opponent model)."""
        if self._seats == n:
            return
        self._seats = n
        policy = self.guide_for(self.game_map.name, n)
        if policy != self._guide_policy:
            self.guide = policy(self.game_map, self.seat, self.ctx.seed)
            self._guide_policy = policy
        if self.config.opponents_as_guide:  # the last opponent model is this guide (and what was made for the
            models = (*self.config.opponent_styles[:-1], policy)  # models is made again)
            if self.opponent_styles != models:
                self.opponent_styles = models
                self._playouts = []
                self._replay = None
                self._long_odds = None

    def _own_playout_style(self, n: int) -> Policy:
        """Its own seat's policy in the playouts of an `n`-seat game: its profile's `own_playout` (unless
        `own_playout_fitted` is off: then the guide's)."""
        if self.config.own_playout_fitted:
            return POLICIES[profile_of(self.game_map.name, n).search.own_playout]
        return self.guide_for(self.game_map.name, n)

    def play_candidate(self, world: Game, key: int, playouts: list[GreedyPlayout]) -> float:
        """The seat's margin over the best other seat after the candidate `key` (a catalogue id, plus the
        catalogue size times its style) and a playout in a copy of `world` (`playouts`: one per own style,
        with the other seats' policy of this world): the candidate's style (0: the guide's) for this seat."""
        style, aid = divmod(key, len(world.cat))
        playout = playouts[style]
        game = world.copy()
        game.apply_unchecked(aid)
        if self.config.depth is None:
            self.last_actions += 1 + playout.run(game)
        else:
            self.last_actions += 1 + playout.run(game, self.config.depth)
        totals = estimate(game)  # the final scores once the game is over
        me = self.seat
        return totals[me] - max(v for q, v in enumerate(totals) if q != me)

    # ------------------------------------------------------------------ candidates

    def candidates(self, game: Game, guide: int, view: SeatView, legal: list[Action],
                   belief: TicketBelief | None = None, board: Board | None = None,
                   worlds: list[Game] | None = None) -> list[int]:
        """The moves the search compares (catalogue ids, the guide's first); see the module docstring.
        `board` is the view read into a `Board`, if the caller has it already; `worlds` are sampled games of
        the position (the blocking claims of `world_blocks` are judged on them)."""
        out = [guide]
        if board is None:
            board = Board.from_view(self.guide.ix, view)
        if game.phase in (CHOOSE_SETUP, CHOOSE_TICKETS):
            opts = sort_options(self.guide.ix, legal)
            for i in self.guide.keep_ranking(board, opts)[:self.config.keeps]:
                aid = game.encode(opts.keeps[i][1])
                if aid not in out:
                    out.append(aid)
            return out
        cat = game.cat
        kind = cat.kind
        if game.phase == SECOND_CARD and self.config.search_draws:
            out.extend(aid for aid in game.legal_ids() if aid != guide)  # every card it may take
            return out
        if game.phase != MAIN:
            return out
        ids = game.legal_ids()
        if cat.draw_tickets in ids and cat.draw_tickets not in out:
            out.append(cat.draw_tickets)
        is_draw = (A.DRAW_DECK, A.DRAW_FACE_UP)
        draws = [aid for aid in ids if kind[aid] in is_draw]
        if draws and kind[guide] not in is_draw:
            out.append(draws[0])  # the blind draw when the deck has cards
        plan = self.guide.current_plan(board)
        plan_links = {self.guide.ix.link[r] for r in plan.routes}
        link = self.guide.ix.link
        need = self.guide.plan_needs(plan, board)
        # route -> the id of the card set greedy would pay it with (`GreedyBot.cheapest_claim`)
        best = {r: game.encode(self.guide.cheapest_claim(board, options, need).action)
                for r, options in sort_options(self.guide.ix, legal).claims.items()}
        length = self.guide.ix.length
        claimed = {cat.a[aid] for aid in out if kind[aid] == A.CLAIM}
        ranked = sorted(best, key=lambda r: (link[r] not in plan_links, -length[r], r))
        pieces = self.game_map.rules.pieces
        late = pieces - min(game.trains) >= self.config.late_from * pieces
        count = self.config.wide if self.is_wide(game.n) else self.config.late_claims if late else self.config.claims
        for r in ranked[:count]:
            if r not in claimed:
                out.append(best[r])
                claimed.add(r)
        if belief is not None and self.config.blocks:
            for r in self._blocks(belief, game, [r for r in best if r not in claimed])[:self.config.blocks]:
                out.append(best[r])
                claimed.add(r)
        if worlds and self.config.world_blocks:
            damage = world_block_damage(worlds, self.seat, {r for r in best if r not in claimed})
            for r in sorted(damage, key=lambda r: (-damage[r], r))[:self.config.world_blocks]:
                out.append(best[r])
        if self.config.search_draws:  # each face-up card too
            out.extend(aid for aid in draws if aid not in out)
        return out

    def _blocks(self, belief: TicketBelief, game: Game, routes: list[int]) -> list[int]:
        """Of `routes` (claims open to the seat now), those that would hurt the other seats most, best first:
        by the trains they would add to the other seats' likeliest paths (`TicketBelief.block_damage`)."""
        mine = set(game.tickets[self.seat])
        length = self.guide.ix.length
        score: dict[int, float] = {}
        for q in range(game.n):
            if q != self.seat:
                for r, d in belief.block_damage(q, routes, mine).items():
                    score[r] = score.get(r, 0.0) + d
        return sorted(score, key=lambda r: (-score[r], -length[r], r))


class MctsExpert(MctsBot):
    """`expert`: the search with its fitted playout actions per decision (`ttr.bots.budgets`, what 0.5 s gave
    on the pure-Python build), as `mcts`, but the other seats
    play greedy in half its worlds and the game's fitted guide (`MctsBot.guide_for`: `GreedyLongDuel` in
    two-seat Europe, `GreedyLongFour` with more seats, `GreedyLong` in New York) in the other half: people
    are not greedy, and the level below, `hard`, is that guide alone (`ttr.bots.levels`). Against opponents
    that play like `GreedyLong` this mix gained more over the same seat's play than the greedy-only model
    did (research/bot-measurements.md: 32 / 19 paired New York games against the search at 0.15 s, 21 / 11 Europe
    games against `greedy_long`); against greedy the two were level."""

    name = "expert"
    config = replace(MctsBot.config, opponent_styles=(Greedy, GreedyLong), opponents_as_guide=True,
                     assume_greedy_setup_keeps=False, assume_greedy_tracking=False)
