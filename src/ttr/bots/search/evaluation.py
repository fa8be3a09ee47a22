"""The search's evaluation: a candidate's value in a world is its seat's final margin after a playout.

`PlayoutEvaluation` is the part of `ttr.bots.mcts.MctsBot` that plays candidates out: the playout players per
opponent model and own style (`playouts_for`; its own seat plays the profile's `own_playout`, the other seats
their model), and `play_candidate`, the seat's margin over the best other seat after the candidate and a
playout (to the end, or `depth` actions and then the estimate of `ttr.bots.mcts_policy`).
"""

from __future__ import annotations

import random

from ttr.bots.mcts_policy import estimate
from ttr.bots.playout import GreedyPlayout
from ttr.bots.profiles import profile_of
from ttr.bots.search.config import SearchConfig
from ttr.bots.styles import POLICIES, Policy
from ttr.engine import Game
from ttr.maps import GameMap


class PlayoutEvaluation:
    """The evaluation part of the search (see the module); the bot sets the attributes below."""

    config: SearchConfig
    game_map: GameMap
    seat: int
    rng: random.Random
    opponent_styles: tuple[Policy, ...]
    last_actions: int  # playout actions played in the decision so far
    _playouts: list[list[GreedyPlayout]]  # per opponent model, per own style (0: the guide's)

    @staticmethod
    def guide_for(map_name: str, seats: int) -> Policy:
        """The guide of a game of `seats` seats on `map_name`: its profile's (`ttr.bots.profiles`)."""
        return POLICIES[profile_of(map_name, seats).search.guide]

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
