"""The chance hook: where a game's cards and tickets come from.

A game draws a train card from the top of its deck and tickets from the front of its ticket deck, in the
order its RNG shuffled them. A `ChanceSource` given to a game (`Game.new(..., chance=source)` or
`game.set_chance(source)`) chooses instead which card or ticket comes next, among the ones the deck holds:
a learning environment that makes every draw a chance node (OpenSpiel) scripts its outcomes this way,
without changing the game's class. The rules around a draw stay the engine's: the reshuffle of the
discard pile when the deck runs out (E-DRAW-7), the face-up row's resets (E-DRAW-6), the cards a tunnel
reveals (E-TUN-1), the setup's ticket offers (E-SETUP-3, -4).
"""

from __future__ import annotations

from typing import Protocol


class ChanceSource(Protocol):
    """Chooses the next card or ticket a game draws (see the module).

    Either method may raise to stop the game mid-draw (an environment waiting for a chance outcome); the
    game is then left half-changed, so call it on a copy (`Game.copy`) and keep the copy once it finishes.
    """

    def card(self, deck: list[int]) -> int:
        """The position in `deck` (never empty; the top is the end) of the card drawn next."""
        ...

    def ticket(self, pool: list[int], start: int) -> int:
        """The position in `pool`, `start` or later, of the ticket that is drawn next as `pool[start]`: the
        ticket deck for a ticket draw (the first tickets are drawn), or, at setup, the shuffled long or
        regular tickets being dealt into the offers (`start` counts those dealt already)."""
        ...
