"""Destination tickets during the game and at the end (E-TICK-1..4)."""

from __future__ import annotations

import pytest

from helpers import started
from ttr.engine import Game, seat_view
from ttr.engine.phases import CHOOSE_TICKETS, MAIN
from ttr.records import score_position

from .scenarios import DRAW_DECK, DRAW_TICKETS, assert_illegal, assert_legal, keep, move_ticket_deck_to


def tnames(game: Game, ids: list[int]) -> list[str]:
    """Ticket names of ticket indexes."""
    return [game.map.tickets[t].name for t in ids]


def position(*players: dict[str, list[str]]) -> dict[str, object]:
    """A ttr-position/1 document for Europe; players are named Ana, Ben, ..."""
    names = ["Ana", "Ben", "Chen", "Dee", "Eva"]
    return {"format": "ttr-position/1", "map": "europe",
            "players": [{"name": names[i], **p} for i, p in enumerate(players)]}


def test_E_TICK_1_draw_three_from_the_top_and_keep_at_least_one() -> None:
    game = started("europe", 2, seed=60)
    top = list(game._ticket_deck[:3])
    size = len(game._ticket_deck)
    game.apply(DRAW_TICKETS)
    assert game.phase == CHOOSE_TICKETS and game.current == 0
    assert game.offered == top and len(game._ticket_deck) == size - 3
    offer = tnames(game, top)
    assert_illegal(game, keep(), "E-TICK-1")
    keeps = [a for a in game.legal_actions() if a.kind == "keep_tickets"]
    assert len(keeps) == 7  # every non-empty subset of 3
    assert_legal(game, keep(offer[0]), keep(offer[1], offer[2]), keep(*offer))
    game.apply(keep(offer[2]))
    assert game.tickets[0][-1] == top[2]
    assert game.current == 1 and game.phase == MAIN


def test_E_TICK_1_a_ticket_not_on_offer_cannot_be_kept() -> None:
    game = started("europe", 2, seed=60)
    game.apply(DRAW_TICKETS)
    other = tnames(game, game._ticket_deck[:1])[0]
    assert_illegal(game, keep(other), "E-TICK-1")
    assert_illegal(game, keep(tnames(game, game.offered)[0], tnames(game, game.offered)[0]), "E-TICK-1")


def test_E_TICK_1_keep_tickets_without_an_offer_is_illegal() -> None:
    game = started("europe", 2, seed=60)
    assert_illegal(game, keep(tnames(game, game._ticket_deck[:1])[0]), "E-TICK-1")


@pytest.mark.parametrize("left", [1, 2])
def test_E_TICK_1_with_fewer_than_three_in_the_deck_draw_what_is_left(left: int) -> None:
    game = started("europe", 2, seed=61)
    move_ticket_deck_to(game, 1, leave=left)
    rest = list(game._ticket_deck)
    game.apply(DRAW_TICKETS)
    assert game.offered == rest and game._ticket_deck == []
    keeps = [a for a in game.legal_actions() if a.kind == "keep_tickets"]
    assert len(keeps) == 2 ** left - 1
    assert_illegal(game, keep(), "E-TICK-1")
    game.apply(keep(tnames(game, rest)[0]))
    assert game.tickets[0][-1] == rest[0]


def test_E_TICK_1_with_no_tickets_left_the_action_is_not_available() -> None:
    game = started("europe", 2, seed=61)
    move_ticket_deck_to(game, 1)
    assert all(a.kind != "draw_tickets" for a in game.legal_actions())
    assert_illegal(game, DRAW_TICKETS, "E-TICK-1")


def test_E_TICK_2_returned_tickets_go_to_the_bottom_in_the_order_drawn() -> None:
    game = started("europe", 2, seed=62)
    top = list(game._ticket_deck[:3])
    below = list(game._ticket_deck[3:])
    game.apply(DRAW_TICKETS)
    game.apply(keep(tnames(game, top)[1]))
    assert game._ticket_deck == [*below, top[0], top[2]]


def test_E_TICK_2_returned_tickets_come_back_last() -> None:
    game = started("europe", 2, seed=62)
    move_ticket_deck_to(game, 1, leave=4)
    first = list(game._ticket_deck)
    game.apply(DRAW_TICKETS)
    game.apply(keep(tnames(game, first[:1])[0]))  # returns first[1], first[2]
    assert game._ticket_deck == [first[3], first[1], first[2]]
    game.apply(DRAW_TICKETS)  # seat 1 draws the single old ticket first, then the returned ones
    assert game.offered == [first[3], first[1], first[2]]


def test_E_TICK_3_kept_tickets_stay_are_secret_and_unlimited() -> None:
    game = started("europe", 2, seed=63)
    start = list(game.tickets[0])
    game.apply(DRAW_TICKETS)
    first = list(game.offered)
    game.apply(keep(*tnames(game, first)))
    game.apply(DRAW_DECK)
    game.apply(DRAW_DECK)
    game.apply(DRAW_TICKETS)
    second = list(game.offered)
    game.apply(keep(*tnames(game, second)))
    assert game.tickets[0] == start + first + second  # none lost, no limit
    # No action ever gives a kept ticket back.
    game.apply(DRAW_DECK)
    game.apply(DRAW_DECK)
    assert {a.kind for a in game.legal_actions()} <= {"draw_card", "claim_route", "draw_tickets", "build_station"}
    other = seat_view(game, 1)["players"][0]
    assert "tickets" not in other and other["ticket_count"] == len(game.tickets[0])
    assert seat_view(game, 0)["players"][0]["tickets"] == tnames(game, game.tickets[0])


def test_E_TICK_4_a_joined_ticket_scores_and_a_broken_one_is_subtracted() -> None:
    final = score_position(position(
        {"routes": ["Essen-Frankfurt", "Essen-Kobenhavn/1"], "tickets": ["Frankfurt-Kobenhavn", "Zurich-Budapest"],
         "stations": ["Lisboa", "Cadiz", "Madrid"]},
        {"routes": ["Kyiv-Smolensk"], "tickets": [], "stations": ["Athina", "Sofia", "Roma"]},
    ))
    ana = final.players[0]
    assert ana.tickets_completed == ["Frankfurt-Kobenhavn"]
    assert ana.tickets_failed == ["Zurich-Budapest"]
    assert ana.ticket_points == 5 - 6


def test_E_TICK_4_the_path_must_be_continuous_and_of_the_players_own_routes() -> None:
    final = score_position(position(
        {"routes": ["Essen-Frankfurt", "Kobenhavn-Stockholm/white"], "tickets": ["Frankfurt-Kobenhavn"],
         "stations": ["Lisboa", "Cadiz", "Madrid"]},
        {"routes": ["Essen-Kobenhavn/1"], "tickets": [], "stations": []},
    ))
    assert final.players[0].tickets_failed == ["Frankfurt-Kobenhavn"]
    assert final.players[0].ticket_points == -5


def test_E_TICK_4_a_station_borrowed_route_can_complete_a_ticket() -> None:
    final = score_position(position(
        {"routes": ["Essen-Frankfurt"], "tickets": ["Frankfurt-Kobenhavn"], "stations": ["Essen"]},
        {"routes": ["Essen-Kobenhavn/1"], "tickets": [], "stations": []},
    ))
    assert final.players[0].tickets_completed == ["Frankfurt-Kobenhavn"]
    assert final.players[0].ticket_points == 5
