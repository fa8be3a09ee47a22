"""The search's worlds: whole games consistent with what its seat has seen, dealt by a belief.

`WorldSampling` is the part of `ttr.bots.mcts.MctsBot` that deals them: the belief about the other seats'
tickets (`belief_of`, `ttr.bots.inference`), the long tickets kept at setup (`ttr.bots.setup_prior`), the
setup keep where the other seats are modelled as greedy alone (`assume_greedy_setup_keeps`,
`ttr.bots.setup_keeps`), the worlds kept in step with the game (`tracked`, `assume_greedy_tracking`,
`ttr.bots.tracking`) and `sample_world`, which deals one.
"""

from __future__ import annotations

import random
from typing import Any

from ttr.bots.base import BotContext
from ttr.bots.greedy import GreedyBot
from ttr.bots.inference import ClaimReplay, TicketBelief, face_up_picks
from ttr.bots.planning import Board
from ttr.bots.profiles import profile_of
from ttr.bots.search.config import SearchConfig
from ttr.bots.setup_keeps import SetupKeeps
from ttr.bots.setup_prior import long_held_odds
from ttr.bots.styles import Greedy, Policy
from ttr.bots.tracking import WorldFilter
from ttr.engine import Game, SeatView
from ttr.engine.sample import InfoSet, TicketDeal
from ttr.maps import GameMap


class WorldSampling:
    """The worlds part of the search (see the module); the bot sets the attributes below."""

    config: SearchConfig
    game_map: GameMap
    seat: int
    ctx: BotContext
    rng: random.Random
    guide: GreedyBot
    opponent_styles: tuple[Policy, ...]  # the other seats' models in play
    _replay: ClaimReplay | None  # the other seats' claims read so far
    _long_odds: dict[int, list[float]] | None  # per setup keep count, long tickets held (odds)
    _filter: WorldFilter | None  # the worlds kept in step with the game

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
