"""Claiming routes, double routes and ferries (E-CLAIM-*, E-DOUBLE-*, E-FERRY-1, E-COMP-4)."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import set_hand, stack_deck, started
from ttr.engine import Action, Game, positions
from ttr.engine.phases import MAIN

from .scenarios import (
    DRAW_DECK,
    TOTAL_CARDS,
    assert_illegal,
    assert_legal,
    card_counts,
    claim,
    hand_of,
    route_owner,
)

YELLOW_OPTIONS = [
    {"yellow": 3}, {"yellow": 2, "locomotive": 1}, {"yellow": 1, "locomotive": 2}, {"locomotive": 3},
]


def claims_of(game: Game, route: str) -> list[dict[str, int]]:
    """The card sets with which `route` may be claimed now."""
    name = game.map.route(route).name
    return [a.card_counts for a in game.legal_actions() if a.kind == "claim_route" and a.route == name]


def pass_turn(game: Game) -> None:
    """The seat to move draws two blind cards."""
    game.apply(DRAW_DECK)
    game.apply(DRAW_DECK)


# ---------------------------------------------------------------- E-CLAIM


def test_E_CLAIM_1_three_space_yellow_route_legal_card_sets() -> None:
    game = started("europe", 2, seed=31)
    set_hand(game, 0, {"yellow": 3, "locomotive": 3, "red": 1})
    options = claims_of(game, "Amsterdam-Essen")
    assert sorted(options, key=sorted) == sorted(YELLOW_OPTIONS, key=sorted)
    assert_illegal(game, claim("Amsterdam-Essen", yellow=2, red=1), "E-CLAIM-1")
    assert_illegal(game, claim("Amsterdam-Essen", yellow=1, red=1, locomotive=1), "E-CLAIM-1")


@pytest.mark.parametrize("cards", YELLOW_OPTIONS)
def test_E_CLAIM_1_each_yellow_card_set_claims_the_route(cards: dict[str, int]) -> None:
    game = started("europe", 2, seed=31)
    set_hand(game, 0, {"yellow": 3, "locomotive": 3, "red": 1})
    game.apply(claim("Essen-Amsterdam", **cards))  # either city order names the route
    assert route_owner(game, "Amsterdam-Essen") == 0
    left = Counter({"yellow": 3, "locomotive": 3, "red": 1})
    left.subtract(cards)
    assert hand_of(game, 0) == {k: v for k, v in left.items() if v}
    assert game.trains[0] == 42
    assert game.current == 1


def test_E_CLAIM_1_the_number_of_cards_must_equal_the_length() -> None:
    game = started("europe", 2, seed=31)
    set_hand(game, 0, {"yellow": 4})
    assert_illegal(game, claim("Amsterdam-Essen", yellow=2), "E-CLAIM-1")
    assert_illegal(game, claim("Amsterdam-Essen", yellow=4), "E-CLAIM-1")


def test_E_CLAIM_1_the_cards_must_be_held() -> None:
    game = started("europe", 2, seed=31)
    set_hand(game, 0, {"yellow": 2, "locomotive": 1})
    assert_illegal(game, claim("Amsterdam-Essen", yellow=3), "E-CLAIM-1")
    assert_illegal(game, claim("Amsterdam-Essen", yellow=1, locomotive=2), "E-CLAIM-1")
    assert_legal(game, claim("Amsterdam-Essen", yellow=2, locomotive=1))


def test_E_CLAIM_1_a_claimed_route_cannot_be_claimed_again() -> None:
    game = started("europe", 2, seed=31)
    set_hand(game, 0, {"yellow": 3})
    set_hand(game, 1, {"yellow": 3})
    game.apply(claim("Amsterdam-Essen", yellow=3))
    assert claims_of(game, "Amsterdam-Essen") == []
    assert_illegal(game, claim("Amsterdam-Essen", yellow=3), "E-CLAIM-1")


def test_E_CLAIM_1_a_route_need_not_connect_and_one_route_per_turn() -> None:
    game = started("europe", 2, seed=32)
    set_hand(game, 0, {"yellow": 3, "purple": 3})
    game.apply(claim("Amsterdam-Essen", yellow=3))
    assert game.current == 1  # the claim was the whole turn
    pass_turn(game)
    game.apply(claim("Athina-Sofia", purple=3))  # far from Amsterdam-Essen
    assert route_owner(game, "Athina-Sofia") == 0 and route_owner(game, "Amsterdam-Essen") == 0


def test_E_CLAIM_2_gray_two_space_route_takes_any_one_colour() -> None:
    game = started("europe", 2, seed=33)
    set_hand(game, 0, {"red": 2, "blue": 1, "green": 1, "locomotive": 1})
    options = claims_of(game, "Danzig-Warszawa")
    expected = [{"red": 2}, {"red": 1, "locomotive": 1}, {"blue": 1, "locomotive": 1},
                {"green": 1, "locomotive": 1}]
    assert sorted(options, key=sorted) == sorted(expected, key=sorted)
    assert_illegal(game, claim("Danzig-Warszawa", red=1, blue=1), "E-CLAIM-1")
    game.apply(claim("Danzig-Warszawa", red=2))
    assert route_owner(game, "Danzig-Warszawa") == 0
    assert hand_of(game, 0) == {"blue": 1, "green": 1, "locomotive": 1}


@pytest.mark.parametrize("colour", ["purple", "white", "blue", "yellow", "orange", "black", "red", "green"])
def test_E_CLAIM_2_gray_route_with_each_colour(colour: str) -> None:
    game = started("europe", 2, seed=33)
    set_hand(game, 0, {colour: 2})
    assert claims_of(game, "Danzig-Warszawa") == [{colour: 2}]
    game.apply(claim("Danzig-Warszawa", **{colour: 2}))
    assert route_owner(game, "Danzig-Warszawa") == 0


def test_E_CLAIM_2_a_coloured_route_needs_its_colour() -> None:
    game = started("europe", 2, seed=33)
    set_hand(game, 0, {"red": 3, "locomotive": 2})
    assert claims_of(game, "Amsterdam-Essen") == []
    assert_illegal(game, claim("Amsterdam-Essen", red=3), "E-CLAIM-2")
    assert_illegal(game, claim("Amsterdam-Essen", red=1, locomotive=2), "E-CLAIM-2")


def test_E_CLAIM_2_locomotives_alone_claim_a_coloured_or_gray_route() -> None:
    game = started("europe", 2, seed=33)
    set_hand(game, 0, {"locomotive": 3})
    assert {"locomotive": 3} in claims_of(game, "Amsterdam-Essen")
    assert {"locomotive": 2} in claims_of(game, "Danzig-Warszawa")
    game.apply(claim("Danzig-Warszawa", locomotive=2))
    assert route_owner(game, "Danzig-Warszawa") == 0


def test_E_CLAIM_3_points_at_once_and_the_cards_go_to_the_discard_pile() -> None:
    game = started("europe", 2, seed=34)
    set_hand(game, 0, {"blue": 3, "locomotive": 1})
    discard = len(game.discard)
    game.apply(claim("Warszawa-Wien", blue=3, locomotive=1))
    assert game.scores == [7, 0]
    assert Counter(game.map.card_names[c] for c in game.discard[discard:]) == {"blue": 3, "locomotive": 1}
    assert hand_of(game, 0) == {}
    assert sum(card_counts(game)) == TOTAL_CARDS


def test_E_CLAIM_4_no_route_longer_than_the_trains_left() -> None:
    game = started("europe", 2, seed=35)
    set_hand(game, 0, {"blue": 4, "red": 3})
    positions.set_trains(game, 0, 3)
    assert claims_of(game, "Warszawa-Wien") == []
    assert_illegal(game, claim("Warszawa-Wien", blue=4), "E-CLAIM-4")
    assert claims_of(game, "Kyiv-Smolensk") == [{"red": 3}]
    game.apply(claim("Kyiv-Smolensk", red=3))
    assert game.trains[0] == 0


# ---------------------------------------------------------------- E-DOUBLE


def claim_madrid_pamplona(game: Game, track: str) -> None:
    """The seat to move claims the tunnel Madrid-Pamplona/<track> with 3 cards of its colour; no reveal matches."""
    set_hand(game, game.current, {track: 3})
    stack_deck(game, ["red", "blue", "green"])
    game.apply(claim(f"Madrid-Pamplona/{track}", **{track: 3}))
    assert game.phase == MAIN


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_E_DOUBLE_1_one_player_may_never_claim_both_tracks(players: int) -> None:
    game = started("europe", players, seed=36)
    claim_madrid_pamplona(game, "black")
    assert route_owner(game, "Madrid-Pamplona/black") == 0
    for _ in range(players - 1):
        pass_turn(game)
    assert game.current == 0
    set_hand(game, 0, {"white": 3, "locomotive": 3})
    assert claims_of(game, "Madrid-Pamplona/white") == []
    assert_illegal(game, claim("Madrid-Pamplona/white", white=3), "E-DOUBLE-1")
    assert_illegal(game, claim("Pamplona-Madrid/white", locomotive=3), "E-DOUBLE-1")


@pytest.mark.parametrize("players", [2, 3])
def test_E_DOUBLE_2_in_2_and_3_player_games_the_other_track_closes_for_everyone(players: int) -> None:
    game = started("europe", players, seed=37)
    claim_madrid_pamplona(game, "black")
    set_hand(game, 1, {"white": 3})
    assert game.current == 1
    assert claims_of(game, "Madrid-Pamplona/white") == []
    assert_illegal(game, claim("Madrid-Pamplona/white", white=3), "E-DOUBLE-2")
    assert game.map.route("Madrid-Pamplona/white").index not in game.open_routes


@pytest.mark.parametrize("players", [4, 5])
def test_E_DOUBLE_2_in_4_and_5_player_games_another_player_may_take_the_other_track(players: int) -> None:
    game = started("europe", players, seed=38)
    claim_madrid_pamplona(game, "black")
    assert game.current == 1
    set_hand(game, 1, {"white": 3})
    assert claims_of(game, "Madrid-Pamplona/white") == [{"white": 3}]
    claim_madrid_pamplona(game, "white")
    assert route_owner(game, "Madrid-Pamplona/white") == 1
    assert route_owner(game, "Madrid-Pamplona/black") == 0


def test_E_DOUBLE_3_parallel_routes_to_different_cities_are_not_double_routes() -> None:
    game = started("europe", 2, seed=39)
    m = game.map
    for r in m.routes:
        same_cities = [o.index for o in m.routes if o.index != r.index and {o.a, o.b} == {r.a, r.b}]
        assert same_cities == ([r.twin] if r.twin >= 0 else [])
    set_hand(game, 0, {"blue": 4, "purple": 4})
    game.apply(claim("Pamplona-Paris/blue", blue=4))
    # Routes beside it that end in other cities stay open, to the same seat and to the other.
    set_hand(game, 1, {"red": 4})
    assert {"red": 4} in claims_of(game, "Marseille-Paris")
    assert {"red": 4} in claims_of(game, "Marseille-Pamplona")
    game.apply(claim("Marseille-Paris", red=4))
    assert {"purple": 4} in claims_of(game, "Brest-Pamplona")
    game.apply(claim("Brest-Pamplona", purple=4))
    assert route_owner(game, "Brest-Pamplona") == 0


# ---------------------------------------------------------------- E-FERRY


def test_E_FERRY_1_smyrna_palermo_needs_at_least_two_locomotives() -> None:
    game = started("europe", 2, seed=40)
    set_hand(game, 0, {"red": 5, "locomotive": 2})
    name = game.map.route("Smyrna-Palermo").name
    assert game.map.route(name).length == 6 and game.map.route(name).ferry_locomotives == 2
    assert_legal(game, claim(name, red=4, locomotive=2))
    assert_illegal(game, claim("Smyrna-Palermo", red=5, locomotive=1), "E-FERRY-1")
    assert claims_of(game, name) == [{"red": 4, "locomotive": 2}]
    game.apply(claim("Smyrna-Palermo", red=4, locomotive=2))
    assert route_owner(game, name) == 0
    assert game.scores[0] == 15 and game.trains[0] == 39
    assert hand_of(game, 0) == {"red": 1}


def test_E_FERRY_1_one_locomotive_is_not_enough_for_a_two_locomotive_ferry() -> None:
    game = started("europe", 2, seed=40)
    set_hand(game, 0, {"red": 6, "locomotive": 1})
    assert claims_of(game, "Smyrna-Palermo") == []
    assert_illegal(game, claim("Smyrna-Palermo", red=6), "E-FERRY-1")


def test_E_FERRY_1_more_locomotives_may_replace_the_coloured_cards_but_one_colour_only() -> None:
    game = started("europe", 2, seed=40)
    set_hand(game, 0, {"red": 2, "blue": 2, "locomotive": 6})
    options = claims_of(game, "Smyrna-Palermo")
    assert {"red": 2, "locomotive": 4} in options and {"locomotive": 6} in options
    assert {"red": 1, "locomotive": 5} in options and {"blue": 2, "locomotive": 4} in options
    assert all(sum(1 for k in o if k != "locomotive") <= 1 and o.get("locomotive", 0) >= 2 for o in options)
    assert_illegal(game, claim("Smyrna-Palermo", red=2, blue=2, locomotive=2), "E-CLAIM-1")


def test_E_FERRY_1_a_one_locomotive_ferry() -> None:
    game = started("europe", 2, seed=41)
    set_hand(game, 0, {"green": 2, "locomotive": 1})
    assert claims_of(game, "Dieppe-London/1") == [{"green": 1, "locomotive": 1}]
    assert_illegal(game, claim("Dieppe-London/1", green=2), "E-FERRY-1")
    game.apply(claim("London-Dieppe/1", green=1, locomotive=1))
    assert route_owner(game, "Dieppe-London/1") == 0


def test_E_COMP_4_six_and_eight_space_routes_score_15_and_21() -> None:
    game = started("europe", 2, seed=42)
    set_hand(game, 0, {"locomotive": 6})
    game.apply(claim("Smyrna-Palermo", locomotive=6))
    assert game.scores[0] == 15
    set_hand(game, 1, {"orange": 8})
    stack_deck(game, ["red", "blue", "green"])  # no orange, no locomotive: the tunnel costs nothing more
    game.apply(claim("Petrograd-Stockholm", orange=8))
    assert route_owner(game, "Petrograd-Stockholm") == 1
    assert game.scores == [15, 21]


def test_E_CLAIM_1_claim_actions_parse_from_the_record_form() -> None:
    game = started("europe", 2, seed=43)
    set_hand(game, 0, {"white": 2, "locomotive": 1})
    action = Action.from_json({"action": "claim_route", "route": "Amsterdam-Frankfurt",
                               "cards": {"white": 2, "locomotive": 0}})
    game.apply(action)
    assert route_owner(game, "Amsterdam-Frankfurt") == 0
    assert hand_of(game, 0) == {"locomotive": 1}
