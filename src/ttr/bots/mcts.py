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
from ttr.bots.budgets import FALLBACK_SECONDS
from ttr.bots.greedy import GreedyBot
from ttr.bots.inference import ClaimReplay
from ttr.bots.planning import Board
from ttr.bots.playout import GreedyPlayout
from ttr.bots.profiles import profile_of
from ttr.bots.search.candidates import CandidateMoves
from ttr.bots.search.config import SearchConfig
from ttr.bots.search.evaluation import PlayoutEvaluation
from ttr.bots.search.gate import clearly_better
from ttr.bots.search.worlds import WorldSampling
from ttr.bots.styles import Greedy, GreedyLong, Policy
from ttr.bots.tracking import WorldFilter
from ttr.engine import Action, Game, SeatView
from ttr.engine.phases import MAIN
from ttr.engine.sample import InfoSet
from ttr.maps import GameMap


class MctsBot(CandidateMoves, WorldSampling, PlayoutEvaluation, BaseBot):
    """Flat information-set Monte Carlo search over greedy's move and a few alternatives; see the module."""

    name = "mcts"
    config = SearchConfig()  # the search's settings (`ttr.bots.search.config`); a level sets its own

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Refuse a subclass that sets a setting of the search as a class attribute (`iterations = 6`): the
        search reads its settings only from `config`, so the attribute would silently change nothing."""
        super().__init_subclass__(**kwargs)
        stray = sorted(set(vars(cls)) & set(SearchConfig.__dataclass_fields__))
        if stray:
            raise TypeError(f"{cls.__name__} sets {', '.join(stray)} as class attributes, which the search does "
                            f"not read: set config = dataclasses.replace(MctsBot.config, {stray[0]}=...) instead")

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

    def margin_for(self, n: int) -> float:
        """The gate's margin in an `n`-seat game: `wide_margin` where `is_wide`, else `margin`."""
        return self.config.wide_margin if self.is_wide(n) else self.config.margin

    def clearly_better(self, gain: float, square: float, k: int, margin: float | None = None) -> bool:
        """Whether a candidate whose gains over the guide's move sum to `gain` (squares to `square`) over `k`
        worlds passes the decision gate (`ttr.bots.search.gate`) with `margin` (default: the config's)."""
        return clearly_better(gain, square, k, self.config.margin if margin is None else margin,
                              self.config.min_worlds)

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
