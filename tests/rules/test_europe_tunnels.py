"""Tunnels (E-TUN-1..6), with the rulebook's three worked examples."""

from __future__ import annotations

from collections import Counter

from helpers import set_hand, stack_deck, started
from ttr.engine import Action, Game, full_state, public_log, seat_view
from ttr.engine.phases import MAIN, TUNNEL

from .scenarios import (
    ABANDON,
    DRAW_DECK,
    TOTAL_CARDS,
    assert_illegal,
    assert_legal,
    card_counts,
    claim,
    hand_of,
    move_deck_to_hand,
    move_discard_to_hand,
    pay,
    route_owner,
)

TUNNEL_2_GREEN = "Venezia-Zurich"  # 2 spaces, green, tunnel


def names(game: Game, cards: list[int]) -> list[str]:
    """Card names of card indexes."""
    return [game.map.card_names[c] for c in cards]


def tunnel_game(hand: dict[str, int], reveal: list[str], seed: int = 50) -> Game:
    """Seat 0 to move with `hand`, the deck stacked so that `reveal` comes up first."""
    game = started("europe", 2, seed=seed)
    set_hand(game, 0, hand)
    stack_deck(game, reveal)
    return game


def test_E_TUN_1_a_tunnel_is_claimed_by_first_playing_its_length_and_colour() -> None:
    game = tunnel_game({"green": 3, "red": 2}, ["green", "red", "blue"])
    assert game.map.route(TUNNEL_2_GREEN).tunnel
    assert_illegal(game, claim(TUNNEL_2_GREEN, green=1), "E-CLAIM-1")
    assert_illegal(game, claim(TUNNEL_2_GREEN, red=2), "E-CLAIM-2")
    game.apply(claim(TUNNEL_2_GREEN, green=2))
    # The played cards wait aside: out of the hand, not yet discarded; the route is not yet claimed.
    assert hand_of(game, 0) == {"green": 1, "red": 2}
    assert game.phase == TUNNEL and game.current == 0
    assert route_owner(game, TUNNEL_2_GREEN) == -1
    assert game.scores[0] == 0 and game.trains[0] == 45
    assert sum(card_counts(game)) == TOTAL_CARDS


def test_E_TUN_2_paid_two_green_reveal_green_and_locomotive_costs_two_more() -> None:
    game = tunnel_game({"green": 4, "locomotive": 1}, ["green", "locomotive", "red"])
    discard = len(game.discard)
    game.apply(claim(TUNNEL_2_GREEN, green=2))
    assert game.t_extra == 2
    assert full_state(game)["turn"]["tunnel_reveal"] == ["green", "locomotive", "red"]
    turn = seat_view(game, 1)["turn"]
    assert turn["tunnel_reveal"] == ["green", "locomotive", "red"] and turn["tunnel_extra"] == 2
    options = [a.card_counts for a in game.legal_actions() if a.kind == "pay_tunnel"]
    assert sorted(options, key=sorted) == sorted([{"green": 2}, {"green": 1, "locomotive": 1}], key=sorted)
    assert_legal(game, ABANDON)
    assert_illegal(game, pay(green=1), "E-TUN-2")
    assert_illegal(game, pay(green=3), "E-TUN-2")
    assert_illegal(game, pay(red=2), "E-TUN-2")
    game.apply(pay(green=2))
    assert route_owner(game, TUNNEL_2_GREEN) == 0
    assert game.scores[0] == 2 and game.trains[0] == 43
    assert hand_of(game, 0) == {"locomotive": 1}
    assert Counter(names(game, game.discard[discard:])) == {"green": 5, "locomotive": 1, "red": 1}
    assert game.current == 1 and game.phase == MAIN
    assert sum(card_counts(game)) == TOTAL_CARDS


def test_E_TUN_2_extra_cards_may_be_locomotives() -> None:
    game = tunnel_game({"green": 2, "locomotive": 2}, ["green", "locomotive", "red"])
    game.apply(claim(TUNNEL_2_GREEN, green=2))
    assert [a.card_counts for a in game.legal_actions() if a.kind == "pay_tunnel"] == [{"locomotive": 2}]
    game.apply(pay(locomotive=2))
    assert route_owner(game, TUNNEL_2_GREEN) == 0
    assert hand_of(game, 0) == {}


def test_E_TUN_2_no_matching_card_revealed_claims_at_once_with_no_extra() -> None:
    game = tunnel_game({"green": 2}, ["red", "blue", "black"])
    discard = len(game.discard)
    game.apply(claim(TUNNEL_2_GREEN, green=2))
    assert route_owner(game, TUNNEL_2_GREEN) == 0
    assert game.scores[0] == 2 and game.phase == MAIN and game.current == 1
    assert Counter(names(game, game.discard[discard:])) == {"green": 2, "red": 1, "blue": 1, "black": 1}
    assert public_log(game)[-1]["tunnel_reveal"] == ["red", "blue", "black"]


def test_E_TUN_2_on_a_gray_tunnel_the_colour_played_counts() -> None:
    game = tunnel_game({"red": 3}, ["red", "blue", "blue"])
    game.apply(claim("Constantinople-Smyrna", red=2))
    assert game.phase == TUNNEL and game.t_extra == 1
    assert_illegal(game, pay(blue=1), "E-TUN-2")
    game.apply(pay(red=1))
    assert route_owner(game, "Constantinople-Smyrna") == 0


def test_E_TUN_3_paid_only_with_locomotives_only_revealed_locomotives_count() -> None:
    game = tunnel_game({"locomotive": 3, "green": 2}, ["green", "green", "locomotive"])
    game.apply(claim(TUNNEL_2_GREEN, locomotive=2))
    assert game.phase == TUNNEL and game.t_extra == 1
    assert [a.card_counts for a in game.legal_actions() if a.kind == "pay_tunnel"] == [{"locomotive": 1}]
    assert_illegal(game, pay(green=1), "E-TUN-3")
    game.apply(pay(locomotive=1))
    assert route_owner(game, TUNNEL_2_GREEN) == 0
    assert hand_of(game, 0) == {"green": 2}


def test_E_TUN_3_only_locomotives_count_when_paid_with_locomotives() -> None:
    game = tunnel_game({"locomotive": 2}, ["green", "green", "red"])
    game.apply(claim(TUNNEL_2_GREEN, locomotive=2))
    assert route_owner(game, TUNNEL_2_GREEN) == 0  # coloured cards revealed: nothing due
    assert game.phase == MAIN and game.current == 1


def test_E_TUN_4_a_player_who_cannot_pay_takes_the_cards_back_and_the_turn_ends() -> None:
    game = tunnel_game({"green": 2, "red": 3}, ["green", "green", "locomotive"])
    discard = len(game.discard)
    game.apply(claim(TUNNEL_2_GREEN, green=2))
    assert game.t_extra == 3
    assert game.legal_actions() == [ABANDON]
    assert_illegal(game, pay(green=3), "E-TUN-4")
    assert_illegal(game, DRAW_DECK, "E-TUN-4")
    game.apply(ABANDON)
    assert hand_of(game, 0) == {"green": 2, "red": 3}
    assert route_owner(game, TUNNEL_2_GREEN) == -1
    assert game.scores[0] == 0 and game.trains[0] == 45
    assert game.current == 1 and game.phase == MAIN
    assert names(game, game.discard[discard:]) == ["green", "green", "locomotive"]
    assert sum(card_counts(game)) == TOTAL_CARDS


def test_E_TUN_4_a_player_may_refuse_to_pay() -> None:
    game = tunnel_game({"green": 5}, ["green", "red", "red"])
    game.apply(claim(TUNNEL_2_GREEN, green=2))
    assert_legal(game, pay(green=1), ABANDON)
    game.apply(ABANDON)
    assert hand_of(game, 0) == {"green": 5}
    assert route_owner(game, TUNNEL_2_GREEN) == -1 and game.current == 1


def test_E_TUN_5_the_revealed_cards_are_discarded_at_the_end_of_the_turn() -> None:
    game = tunnel_game({"green": 3}, ["green", "purple", "white"])
    discard = list(game.discard)
    deck = len(game._deck)
    game.apply(claim(TUNNEL_2_GREEN, green=2))
    assert names(game, game.t_revealed) == ["green", "purple", "white"]
    assert game.discard == discard and len(game._deck) == deck - 3  # set aside, not yet discarded
    game.apply(pay(green=1))
    assert Counter(names(game, game.discard[len(discard):])) == {"green": 4, "purple": 1, "white": 1}
    assert game.t_revealed == [] and game.t_route == -1


def test_E_TUN_6_with_fewer_than_3_cards_left_only_those_revealed_count() -> None:
    game = tunnel_game({"green": 3}, ["green", "red"])
    move_deck_to_hand(game, 1, leave=2)
    move_discard_to_hand(game, 1)
    game.apply(claim(TUNNEL_2_GREEN, green=2))
    assert names(game, game.t_revealed) == ["green", "red"]
    assert game.t_extra == 1 and game._reshuffles == []
    game.apply(pay(green=1))
    assert route_owner(game, TUNNEL_2_GREEN) == 0
    assert sum(card_counts(game)) == TOTAL_CARDS


def test_E_TUN_6_with_no_card_left_there_is_no_risk() -> None:
    game = tunnel_game({"green": 2}, [])
    move_deck_to_hand(game, 1)
    move_discard_to_hand(game, 1)
    game.apply(claim(TUNNEL_2_GREEN, green=2))
    assert route_owner(game, TUNNEL_2_GREEN) == 0
    assert game.phase == MAIN and game.current == 1
    assert names(game, game.discard) == ["green", "green"]


def test_E_TUN_6_the_discard_pile_is_reshuffled_if_the_deck_runs_out_mid_reveal() -> None:
    game = tunnel_game({"green": 2}, ["red"])
    move_deck_to_hand(game, 1, leave=1)
    pile = Counter(game.discard)
    assert sum(pile.values()) >= 2
    game.apply(claim(TUNNEL_2_GREEN, green=2))
    assert len(game._reshuffles) == 1
    assert Counter(game._reshuffles[0]) == pile  # the cards played for the tunnel were aside, not reshuffled
    revealed = game.t_revealed if game.phase == TUNNEL else list(game.history[-1][2])
    assert len(revealed) == 3 and revealed[0] == game.map.card("red")
    assert sum(card_counts(game)) == TOTAL_CARDS


def test_E_TUN_2_no_tunnel_payment_outside_a_tunnel() -> None:
    game = tunnel_game({"green": 3, "locomotive": 1}, ["red", "red", "red"])
    assert_illegal(game, pay(green=1), "E-TUN-2")
    assert_illegal(game, ABANDON, "E-TUN-2")


def test_E_TUN_2_a_tunnel_paid_in_record_form() -> None:
    game = tunnel_game({"white": 4, "locomotive": 1}, ["locomotive", "purple", "white"])
    game.apply(Action.from_json({"action": "claim_route", "route": "Pamplona-Madrid/white", "cards": {"white": 3}}))
    assert game.phase == TUNNEL and game.t_extra == 2
    game.apply(Action.from_json({"action": "pay_tunnel", "cards": {"white": 1, "locomotive": 1}}))
    assert route_owner(game, "Madrid-Pamplona/white") == 0
    assert game.scores[0] == 4 and game.trains[0] == 42
    assert hand_of(game, 0) == {}
