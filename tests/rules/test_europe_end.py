"""The end of the game: the final round (E-END-1)."""

from __future__ import annotations

import pytest

from helpers import set_hand, stack_deck, started
from ttr.engine import Game, full_state, positions
from ttr.engine.phases import OVER, TUNNEL

from .scenarios import ABANDON, DRAW_DECK, assert_illegal, claim, route_owner

ONE_SPACE = ["Dieppe-Paris", "Amsterdam-Bruxelles", "Budapest-Wien/red"]  # purple, black, red; length 1
ONE_SPACE_CARDS = [{"purple": 1}, {"black": 1}, {"red": 1}]


def draw_two(game: Game) -> None:
    """The seat to move draws two blind cards."""
    game.apply(DRAW_DECK)
    game.apply(DRAW_DECK)


def trigger(game: Game, seat: int, trains: int = 3) -> None:
    """`seat` (to move) has `trains` left and claims a one-space route, ending its turn with trains - 1."""
    assert game.current == seat
    positions.set_trains(game, seat, trains)
    set_hand(game, seat, ONE_SPACE_CARDS[seat])
    game.apply(claim(ONE_SPACE[seat], **ONE_SPACE_CARDS[seat]))


@pytest.mark.parametrize("first", [0, 1, 2])
def test_E_END_1_the_others_play_once_in_seat_order_then_the_trigger_player_then_the_end(first: int) -> None:
    game = started("europe", 3, seed=80)
    while game.current != first:
        draw_two(game)
    trigger(game, first)
    assert game.trains[first] == 2 and game.phase != OVER
    movers = []
    while not game.is_over:
        movers.append(game.current)
        draw_two(game)
    assert movers == [(first + 1) % 3, (first + 2) % 3, first]
    assert game.legal_ids() == []
    assert_illegal(game, DRAW_DECK, "E-END-1")
    state = full_state(game)
    assert state["status"] == "finished" and state["final"] is not None


def test_E_END_1_three_trains_left_does_not_end_the_game() -> None:
    game = started("europe", 3, seed=81)
    trigger(game, 0, trains=4)
    assert game.trains[0] == 3 and game.final_turns < 0
    for _ in range(5):  # seats 1, 2, 0, 1, 2: more than a final round
        draw_two(game)
    assert not game.is_over and game.current == 0


def test_E_END_1_a_second_player_dropping_to_two_changes_nothing() -> None:
    game = started("europe", 3, seed=82)
    trigger(game, 0)
    trigger(game, 1)  # seat 1 also ends its turn with 2 trains, in the final round
    assert game.trains[1] == 2 and not game.is_over
    assert game.current == 2
    draw_two(game)
    assert game.current == 0 and not game.is_over
    draw_two(game)  # seat 0's last turn
    assert game.is_over
    assert route_owner(game, ONE_SPACE[0]) == 0 and route_owner(game, ONE_SPACE[1]) == 1


def test_E_END_1_the_trigger_is_checked_at_the_end_of_the_turn_whatever_the_action() -> None:
    game = started("europe", 2, seed=83)
    positions.set_trains(game, 0, 2)  # already at 2 (e.g. after a claim) but the check is at the end of a turn
    set_hand(game, 0, {"green": 2})
    stack_deck(game, ["green", "red", "red"])
    game.apply(claim("Venezia-Zurich", green=2))
    assert game.phase == TUNNEL and game.final_turns < 0  # still mid-turn
    game.apply(ABANDON)
    assert game.trains[0] == 2 and game.current == 1
    draw_two(game)  # seat 1's last turn
    assert game.current == 0 and not game.is_over
    draw_two(game)  # seat 0's last turn
    assert game.is_over


def test_E_END_1_the_trigger_player_gets_the_last_turn_in_a_two_player_game() -> None:
    game = started("europe", 2, seed=84)
    draw_two(game)
    trigger(game, 1)
    assert game.current == 0 and not game.is_over
    draw_two(game)
    assert game.current == 1 and not game.is_over
    draw_two(game)
    assert game.is_over
