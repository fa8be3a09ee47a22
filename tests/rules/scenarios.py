"""Shared scenario tools for the Europe rule tests: exact positions, snapshots, illegal-action checks.

Every helper moves cards (and tickets) rather than creating or deleting them, so the totals of
E-COMP-1 and E-COMP-2 still hold in every scenario.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from ttr.engine import Action, Game, full_state, positions, surgery
from ttr.errors import IllegalActionError

TOTAL_CARDS = 110


def claim(route: str, **cards: int) -> Action:
    """A `claim_route` action: `claim("Amsterdam-Essen", yellow=2, locomotive=1)`."""
    return Action("claim_route", route=route, cards=Action.make_cards(cards))


def pay(**cards: int) -> Action:
    """A `pay_tunnel` action."""
    return Action("pay_tunnel", cards=Action.make_cards(cards))


def station(city: str, **cards: int) -> Action:
    """A `build_station` action."""
    return Action("build_station", city=city, cards=Action.make_cards(cards))


def keep(*tickets: str) -> Action:
    """A `keep_tickets` action."""
    return Action("keep_tickets", tickets=tickets)


DRAW_DECK = Action("draw_card", source="deck")
DRAW_TICKETS = Action("draw_tickets")
ABANDON = Action("abandon_tunnel")
PASS = Action("pass")


def face_up(card: str) -> Action:
    """A `draw_card` from the face-up row."""
    return Action("draw_card", source="face_up", card=card)


def snapshot(game: Game) -> dict[str, Any]:
    """Everything that an action could change, deck and discard order included."""
    return {
        "full": full_state(game),
        "legal": game.legal_ids(),
        "raw": copy.deepcopy({
            "hands": game.hands, "deck": game._deck, "discard": game.discard, "face_up": game.face_up,
            "owner": game.owner, "open": game.open_routes, "trains": game.trains,
            "stations_left": game.stations_left, "station_owner": game.station_owner, "scores": game.scores,
            "tickets": game.tickets, "ticket_deck": game._ticket_deck, "offered": game.offered,
            "phase": game.phase, "current": game.current, "final_turns": game.final_turns,
            "t": (game.t_route, game.t_color, game.t_wild, game.t_extra, game.t_revealed),
            "history": game.history, "reshuffles": game._reshuffles,
        }),
    }


def assert_illegal(game: Game, action: Action, rule: str) -> IllegalActionError:
    """`action` is refused with `rule`, is not listed as legal, and leaves the game exactly as it was."""
    before = snapshot(game)
    assert action not in game.legal_actions()
    assert not game.is_legal(action)
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert info.value.rule == rule, str(info.value)
    assert snapshot(game) == before
    return info.value


def assert_legal(game: Game, *actions: Action) -> None:
    """Each action is listed by `legal_actions` and accepted by `is_legal`."""
    listed = game.legal_actions()
    for action in actions:
        assert action in listed, f"{action} not in legal actions"
        assert game.is_legal(action)


def card_counts(game: Game) -> list[int]:
    """How many cards of each type exist anywhere (deck, discard, row, hands, a pending tunnel)."""
    counts = [0] * (game.ncol + 1)
    for c in game._deck + game.discard + [c for c in game.face_up if c >= 0] + game.t_revealed:
        counts[c] += 1
    for hand in game.hands:
        for c, n in enumerate(hand):
            counts[c] += n
    if game.t_route >= 0:
        length = game.map.routes[game.t_route].length
        counts[game.wild] += game.t_wild
        if game.t_color != game.wild:
            counts[game.t_color] += length - game.t_wild
    return counts


def hand_of(game: Game, seat: int) -> dict[str, int]:
    """A seat's hand as a count object."""
    names = game.map.card_names
    return {names[c]: n for c, n in enumerate(game.hands[seat]) if n}


def move_deck_to_hand(game: Game, seat: int, leave: int = 0) -> None:
    """Move the deck (all but its top `leave` cards) into `seat`'s hand."""
    positions.move_cards(game, positions.DECK, positions.hand(seat), leave)


def move_discard_to_hand(game: Game, seat: int) -> None:
    """Move the whole discard pile into `seat`'s hand."""
    positions.move_cards(game, positions.DISCARD, positions.hand(seat))


def move_row_to_hand(game: Game, seat: int) -> None:
    """Move every face-up card into `seat`'s hand, leaving the row empty."""
    positions.move_cards(game, positions.ROW, positions.hand(seat))


def move_ticket_deck_to(game: Game, seat: int, leave: int = 0) -> None:
    """Give `seat` the ticket deck except its top `leave` tickets (a way to shrink the deck)."""
    for t in surgery.hidden_ticket_deck(game)[leave:]:
        positions.move_ticket(game, t, positions.held(seat))


def route_owner(game: Game, name: str) -> int:
    """The seat holding a route, -1 if none."""
    return game.owner[game.map.route(name).index]
