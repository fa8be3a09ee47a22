"""Which tunnel a seat has just abandoned, so that a bot does not claim and abandon it for ever.

A tunnel claim reveals three cards (E-TUN-2). When the deck and the discard pile hold only a few cards,
most of them locomotives, every reveal can ask for more extra cards than the hand holds: the seat
abandons, takes its cards back, and the board is as before. A bot that plans from the board alone then
claims the same tunnel again, and with every seat doing so the game never ends (session 23: a sampled
world of `expert`'s search did this for 14 million actions).

So the bots read the game's log (a view's `log`, or a sampled game's history): if the seat's last action
that could change its hand was abandoning a tunnel, and no seat has claimed a route or built a station
since, the seat is back at the hand and board it claimed from. While few cards are left to reveal the
bots then do something else first, such as draw a card. Reading the log, not remembering, keeps the bots
stateless: the server builds a bot afresh for every move.
"""

from __future__ import annotations

from typing import Any

from ttr.engine import Game
from ttr.engine.actions import ABANDON_TUNNEL, BUILD_STATION, CLAIM, DRAW_TICKETS, KEEP_TICKETS, PASS, PAY_TUNNEL

FEW_CARDS_TO_REVEAL = 10  # deck + discard pile at or below which an abandoned tunnel is not tried again

_OWN_NO_CHANGE = frozenset((DRAW_TICKETS, KEEP_TICKETS, PASS))  # own actions that leave hand and board as they are
_OWN_NO_CHANGE_NAMES = frozenset(("draw_tickets", "keep_tickets", "pass"))
_BOARD_CHANGES = frozenset((CLAIM, BUILD_STATION, PAY_TUNNEL))
_BOARD_CHANGE_NAMES = frozenset(("claim_route", "build_station", "pay_tunnel"))


def abandoned_in_history(game: Game, seat: int) -> int:
    """The route index of the tunnel `seat` abandoned with its last action that could change its hand,
    if no seat has changed the board since; else -1."""
    kind = game.cat.kind
    history = game.history
    skip_claim = False  # another seat abandoned a tunnel: its claim before that changed nothing
    for i in range(len(history) - 1, -1, -1):
        p, aid, _ = history[i]
        k = kind[aid]
        if k == ABANDON_TUNNEL:
            if p == seat:
                return game.cat.a[history[i - 1][1]] if i > 0 else -1  # the claim just before it
            skip_claim = True
        elif p == seat:
            if k not in _OWN_NO_CHANGE:
                return -1
        elif k in _BOARD_CHANGES:
            if not (k == CLAIM and skip_claim):
                return -1
            skip_claim = False
    return -1


def abandoned_in_log(log: list[dict[str, Any]], seat: int) -> str | None:
    """`abandoned_in_history` read from a view's log (`ttr.engine.views`): the route's name, or None."""
    skip_claim = False
    for i in range(len(log) - 1, -1, -1):
        entry = log[i]
        action = entry.get("action")
        if action == "abandon_tunnel":
            if entry.get("player") == seat:
                route = log[i - 1].get("route") if i > 0 else None
                return route if isinstance(route, str) else None
            skip_claim = True
        elif entry.get("player") == seat:
            if action not in _OWN_NO_CHANGE_NAMES:
                return None
        elif action in _BOARD_CHANGE_NAMES:
            if not (action == "claim_route" and skip_claim):
                return None
            skip_claim = False
    return None
