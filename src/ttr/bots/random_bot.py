"""`random`: a uniformly random legal action, fixed by the seed (the baseline every bot must beat)."""

from __future__ import annotations

from ttr.bots.base import BaseBot
from ttr.engine import Action, SeatView


class RandomBot(BaseBot):
    """Picks one of the legal actions uniformly at random; the same seed and seat give the same choices."""

    name = "random"

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """A uniformly random action out of `legal`."""
        return legal[self.rng.randrange(len(legal))]
