"""Which tunnel a seat has just abandoned, so that a bot does not claim and abandon it for ever.

A tunnel claim reveals three cards (E-TUN-2). When the deck and the discard pile hold only a few cards,
most of them locomotives, every reveal can ask for more extra cards than the hand holds: the seat
abandons, takes its cards back, and the board is as before. A bot that plans from the board alone then
claims the same tunnel again, and with every seat doing so the game never ends (measured: a sampled
world of `expert`'s search did this for 14 million actions).

So the bots read the game's log (a view's `log`, or a sampled game's history): if the seat's last action
that could change its hand was abandoning a tunnel, and no seat has claimed a route or built a station
since, the seat is back at the hand and board it claimed from. While few cards are left to reveal the
bots then do something else first, such as draw a card.

A tunnel a seat has abandoned once in the game, whatever the cards left, is claimed again only with spare
cards for every extra card a reveal can ask (`tunnels_abandoned_in_history`, `tunnels_abandoned_in_log`):
otherwise a bot could try the same tunnel three times and hold on to the cards it needs for it to the end.
Reading the log, not remembering, keeps the bots stateless.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ttr.engine import Game
from ttr.engine.actions import KIND_NAMES

FEW_CARDS_TO_REVEAL = 10  # deck + discard pile at or below which an abandoned tunnel is not tried again

_OWN_NO_CHANGE = frozenset(("draw_tickets", "keep_tickets", "pass"))  # leave the seat's hand and the board
_BOARD_CHANGES = frozenset(("claim_route", "build_station", "pay_tunnel"))


def abandoned_in_history(game: Game, seat: int) -> int:
    """The route index of the tunnel `seat` abandoned with its last action that could change its hand,
    if no seat has changed the board since; else -1."""
    cat = game.cat
    kind, route = cat.kind, cat.a
    newest_first = ((p, KIND_NAMES[kind[aid]], route[aid]) for p, aid, _ in reversed(game.history))
    found = _abandoned(newest_first, seat)
    return found if isinstance(found, int) else -1


def tunnels_abandoned_in_history(game: Game, seat: int) -> tuple[int, ...]:
    """The tunnels (route indexes, oldest first, once per time) `seat` has claimed and abandoned in `game`."""
    cat = game.cat
    abandon, route = cat.abandon, cat.a
    history = game.history
    return tuple(route[history[i - 1][1]] for i, (p, aid, _) in enumerate(history) if aid == abandon and p == seat)


def tunnels_abandoned_in_log(log: Sequence[Mapping[str, Any]], seat: int) -> list[str]:
    """`tunnels_abandoned_in_history` read from a view's log: the routes' names."""
    return [str(log[i - 1].get("route")) for i, e in enumerate(log)
            if i and e.get("action") == "abandon_tunnel" and e.get("player") == seat]


def abandoned_in_log(log: Sequence[Mapping[str, Any]], seat: int) -> str | None:
    """`abandoned_in_history` read from a view's log (`ttr.engine.views`): the route's name, or None."""
    found = _abandoned(((e.get("player"), e.get("action"), e.get("route")) for e in reversed(log)), seat)
    return found if isinstance(found, str) else None


def _abandoned(newest_first: Iterable[tuple[Any, Any, Any]], seat: int) -> Any:
    """The route of the claim `seat` abandoned last, from (seat, action name, route) entries newest first,
    if nothing since changed the seat's hand or the board; else None."""
    skip_claim = False  # another seat abandoned a tunnel: its claim just before changed nothing
    own_abandon = False
    for player, action, route in newest_first:
        if own_abandon:
            return route if action == "claim_route" else None
        if action == "abandon_tunnel":
            if player == seat:
                own_abandon = True
            else:
                skip_claim = True
        elif player == seat:
            if action not in _OWN_NO_CHANGE:
                return None
        elif action in _BOARD_CHANGES:
            if not (action == "claim_route" and skip_claim):
                return None
            skip_claim = False
    return None
