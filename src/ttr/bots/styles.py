"""Variants of `greedy` with another plan for the rest of the game, for search to compare (`ttr.bots.mcts`).

`greedy` follows one style. Search that always continues with greedy can only find better *moves* for that
style; continuing with one of these instead lets it weigh a different *plan* (end the game fast, or take
more tickets), and play that plan's move when the plan does better on the sampled worlds.
"""

from __future__ import annotations

from ttr.bots.greedy import GreedyBot
from ttr.maps import GameMap


class GreedyRush(GreedyBot):
    """Plays as if the end were near from the start: no more tickets, and once its plan is paid for it claims
    the route worth most now, to end the game while it leads."""

    name = "greedy_rush"

    def __init__(self, game_map: GameMap, seat: int, seed: int) -> None:
        super().__init__(game_map, seat, seed)
        self.endgame_trains = self.pieces


class GreedyTickets(GreedyBot):
    """Draws more tickets: whenever its plan is done and it has an eighth of its pieces (others a fifth)."""

    name = "greedy_tickets"
    ticket_draw_mine = 0.125
    ticket_draw_others = 0.2
    ticket_draw_min = 5


STYLES: tuple[type[GreedyBot], ...] = (GreedyRush, GreedyTickets)
