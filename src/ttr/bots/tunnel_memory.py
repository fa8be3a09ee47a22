"""A bot's memory of the tunnel it last claimed, so that it does not claim and abandon it for ever.

A tunnel claim reveals three cards (E-TUN-2). When the deck and the discard pile hold only a few cards,
most of them locomotives, every reveal can ask for more extra cards than the hand holds: the seat
abandons, takes its cards back, and the board is as before. A bot that plans from the board alone then
claims the same tunnel again, and with every seat doing so the game never ends (session 23: a sampled
world of `expert`'s search did this for 14 million actions). Being back at the same hand and board after
claiming a tunnel means the claim was abandoned (a paid claim changes the board), so while few cards are
left to reveal the bot should do something else first, such as draw a card, which changes its hand.
"""

from __future__ import annotations

from ttr.bots.planning import Board

FEW_CARDS_TO_REVEAL = 10  # deck + discard pile at or below which an abandoned tunnel is not tried again


class TunnelMemory:
    """The tunnel a seat last claimed, with the hand and board it claimed from."""

    __slots__ = ("_tried",)

    def __init__(self) -> None:
        self._tried: tuple[int, tuple[int, ...], tuple[int, ...]] | None = None

    def remember(self, board: Board, route: int) -> None:
        """The seat of `board` claims tunnel `route` now."""
        self._tried = (route, tuple(board.hand), board.signature)

    def abandoned_here(self, board: Board, route: int) -> bool:
        """Whether `route` is the tunnel last claimed, from this very hand and board (so that claim was
        abandoned), with few cards left to reveal: claiming it again would likely end the same way."""
        tried = self._tried
        return (tried is not None and tried[0] == route
                and board.deck_size + board.discard_size <= FEW_CARDS_TO_REVEAL
                and tried[1] == tuple(board.hand) and tried[2] == board.signature)

    def forget(self) -> None:
        """Forget the tunnel (a search playout starting in another world)."""
        self._tried = None
