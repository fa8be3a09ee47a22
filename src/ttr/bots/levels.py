"""`greedy_long_fitted` (the `hard` level, below `expert`): the search's guide alone, fitted to the map and
the seat count.

The step from `hard` to `expert` is what the search adds over its guide (docs/bots.md, "Difficulty levels"),
so `hard` plays the guide `mcts` would ask in the same game (`MctsBot.guide_for`): `GreedyLongDuel` in
two-seat Europe games, `GreedyLongFour` in Europe games of three to five seats, `GreedyLong` elsewhere.
The seat count is known only from the first view, so the guide is made then.
"""

from __future__ import annotations

from ttr.bots.base import BaseBot
from ttr.bots.greedy import GreedyBot
from ttr.bots.mcts import MctsBot
from ttr.engine import Action, SeatView
from ttr.maps import GameMap


class FittedGuide(BaseBot):
    """The guide `mcts` plays for a game of this map and seat count (`MctsBot.guide_for`), on its own."""

    name = "greedy_long_fitted"

    def __init__(self, game_map: GameMap, seat: int, seed: int) -> None:
        super().__init__(game_map, seat, seed)
        self.guide: GreedyBot | None = None  # made at the first view, when the seat count is known

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """The fitted guide's move."""
        policy = MctsBot.guide_for(self.game_map.name, len(view.players))
        if self.guide is None or self.guide.preset != policy.preset:
            self.guide = policy(self.game_map, self.seat, self.ctx.seed)
        return self.guide.choose(view, legal)
