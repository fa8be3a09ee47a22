"""Greedy's presets as policies that `mcts` (`ttr.bots.mcts`) plays and compares, and the registry names them.

A `Policy` names a preset (`ttr.bots.params.PRESETS`) and the behaviour that plays it (greedy, or
`ttr.bots.denial.DenyingBot`, which blocks in a playout's world), and builds that bot like a bot class,
`policy(game_map, seat, seed)`. `GreedyLong` is greedy valuing a route's points three times as much when it
plans its paths (long routes score far more per train): alone it wins about 57% of two-player games against
greedy, and `mcts` plays it for its own seat (its *guide*), with the values fitted to the map and seat count
(the profiles, `ttr.bots.profiles`): `greedy_long_duel` in two-seat Europe, `greedy_long_four` with three to
five seats there. `GreedyRush` plays as if the end were near from the start; `GreedyTickets` draws more
tickets (whenever its plan is done and it has an eighth of its pieces, the others a fifth).
"""

from __future__ import annotations

from dataclasses import dataclass

from ttr.bots.denial import DenyingBot
from ttr.bots.greedy import GreedyBot
from ttr.maps import GameMap


@dataclass(frozen=True)
class Policy:
    """A greedy preset and the bot that plays it; called like a bot class, `(game_map, seat, seed) -> bot`."""

    preset: str
    denies: bool = False  # played by `DenyingBot` (blocks in its playout's world) rather than greedy

    def __call__(self, game_map: GameMap, seat: int, seed: int) -> GreedyBot:
        """A bot of this policy for `seat` of `game_map`."""
        cls = DenyingBot if self.denies else GreedyBot
        return cls(game_map, seat, seed, preset=self.preset)

    @property
    def name(self) -> str:
        """The preset's name (the registry's name of the bot)."""
        return self.preset


Greedy = Policy("greedy")
GreedyLong = Policy("greedy_long")
GreedyLongDuel = Policy("greedy_long_duel")
GreedyLongFour = Policy("greedy_long_four")
GreedyRush = Policy("greedy_rush")
GreedyTickets = Policy("greedy_tickets")
DenyingLong = Policy("denying_long", denies=True)
DenyingLongDuel = Policy("denying_long_duel", denies=True)

POLICIES: dict[str, Policy] = {p.preset: p for p in (Greedy, GreedyLong, GreedyLongDuel, GreedyLongFour, GreedyRush,
                                                      GreedyTickets, DenyingLong, DenyingLongDuel)}
"""Every preset's policy by its name (a profile names the search's guide and own playout policy so)."""

STYLES: tuple[Policy, ...] = (GreedyRush, GreedyTickets)
