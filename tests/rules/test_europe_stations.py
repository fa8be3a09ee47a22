"""Train stations: building, costs and their use at final scoring (E-STAT-1..6)."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import give_route, set_hand, started
from ttr.engine import Game, final_score, positions
from ttr.engine.phases import MAIN
from ttr.records import score_position

from .scenarios import (
    DRAW_DECK,
    TOTAL_CARDS,
    assert_illegal,
    assert_legal,
    card_counts,
    hand_of,
    station,
)


def stations_of(game: Game) -> list[tuple[str, dict[str, int]]]:
    """The station builds offered now: (city, cards)."""
    return [(a.city or "", a.card_counts) for a in game.legal_actions() if a.kind == "build_station"]


def position(*players: dict[str, list[str]]) -> dict[str, object]:
    """A ttr-position/1 document for Europe; players are named Ana, Ben, ..."""
    names = ["Ana", "Ben", "Chen"]
    return {"format": "ttr-position/1", "map": "europe",
            "players": [{"name": names[i], **p} for i, p in enumerate(players)]}


def next_round(game: Game, seat: int = 0) -> None:
    """Every seat until `seat` draws two blind cards, so that `seat` is to move again."""
    while game.current != seat:
        game.apply(DRAW_DECK)
        game.apply(DRAW_DECK)


def give_ticket(game: Game, seat: int, name: str) -> None:
    """Give `seat` exactly this one ticket (moved from the deck or another seat; its old tickets go under the deck)."""
    t = game.map.ticket(name).index
    for old in game.tickets[seat][:]:
        if old != t:
            positions.move_ticket(game, old, positions.TICKET_DECK)
    if t not in game.tickets[seat]:
        positions.move_ticket(game, t, positions.held(seat))


def test_E_STAT_1_a_station_on_any_free_city_even_with_no_route_there() -> None:
    game = started("europe", 2, seed=70)
    set_hand(game, 0, {"red": 1})
    cities = {city for city, _ in stations_of(game)}
    assert cities == {c.name for c in game.map.cities}
    game.apply(station("Berlin", red=1))
    assert game.station_owner[game.map.city("Berlin").index] == 0
    set_hand(game, 1, {"blue": 1})
    assert "Berlin" not in {city for city, _ in stations_of(game)}
    assert_illegal(game, station("Berlin", blue=1), "E-STAT-1")
    assert_legal(game, station("Wien", blue=1))


def test_E_STAT_1_one_station_per_city_even_for_its_owner() -> None:
    game = started("europe", 2, seed=70)
    set_hand(game, 0, {"red": 3})
    game.apply(station("Berlin", red=1))
    next_round(game)
    assert_illegal(game, station("Berlin", red=2), "E-STAT-1")


def test_E_STAT_2_a_station_is_the_whole_turn_and_at_most_three_per_player() -> None:
    game = started("europe", 2, seed=71)
    set_hand(game, 0, {"red": 1, "blue": 2, "green": 3, "black": 3})
    game.apply(station("Berlin", red=1))
    assert game.current == 1 and game.phase == MAIN
    next_round(game)
    game.apply(station("Wien", blue=2))
    next_round(game)
    game.apply(station("Roma", green=3))
    assert game.stations_left[0] == 0
    next_round(game)
    assert stations_of(game) == []
    assert_illegal(game, station("Paris", black=3), "E-STAT-2")


def test_E_STAT_3_the_first_station_costs_one_card_of_any_colour() -> None:
    game = started("europe", 2, seed=72)
    set_hand(game, 0, {"red": 2, "locomotive": 1})
    options = [cards for city, cards in stations_of(game) if city == "Paris"]
    assert sorted(options, key=sorted) == [{"locomotive": 1}, {"red": 1}]
    assert_illegal(game, station("Paris", red=2), "E-STAT-3")
    assert_illegal(game, station("Paris", blue=1), "E-STAT-3")  # not held
    discard = len(game.discard)
    game.apply(station("Paris", locomotive=1))
    assert hand_of(game, 0) == {"red": 2}
    assert [game.map.card_names[c] for c in game.discard[discard:]] == ["locomotive"]


def test_E_STAT_3_the_second_station_costs_two_cards_of_one_colour() -> None:
    game = started("europe", 2, seed=73)
    set_hand(game, 0, {"red": 3, "blue": 1, "locomotive": 1})
    game.apply(station("Paris", red=1))
    next_round(game)
    options = sorted((cards for city, cards in stations_of(game) if city == "Wien"), key=sorted)
    assert options == sorted([{"red": 2}, {"red": 1, "locomotive": 1}, {"blue": 1, "locomotive": 1}], key=sorted)
    assert_illegal(game, station("Wien", red=1, blue=1), "E-STAT-3")
    assert_illegal(game, station("Wien", red=1), "E-STAT-3")
    assert_illegal(game, station("Wien", red=3), "E-STAT-3")
    discard = len(game.discard)
    game.apply(station("Wien", red=2))
    assert game.stations_left[0] == 1
    assert Counter(game.map.card_names[c] for c in game.discard[discard:]) == {"red": 2}


def test_E_STAT_3_the_third_station_costs_three_cards_of_one_colour() -> None:
    game = started("europe", 2, seed=74)
    set_hand(game, 0, {"red": 3, "blue": 2, "locomotive": 3})
    game.apply(station("Paris", red=1))
    next_round(game)
    game.apply(station("Wien", red=2))
    next_round(game)
    options = [cards for city, cards in stations_of(game) if city == "Roma"]
    expected = [{"blue": 2, "locomotive": 1}, {"blue": 1, "locomotive": 2}, {"locomotive": 3}]
    assert sorted(options, key=sorted) == sorted(expected, key=sorted)
    assert_illegal(game, station("Roma", blue=2), "E-STAT-3")
    assert_illegal(game, station("Roma", blue=2, red=1), "E-STAT-3")
    game.apply(station("Roma", blue=2, locomotive=1))
    assert hand_of(game, 0) == {"locomotive": 2}
    assert sum(card_counts(game)) == TOTAL_CARDS


@pytest.mark.parametrize("built", [0, 1, 2, 3])
def test_E_STAT_4_each_unbuilt_station_scores_4_at_the_end(built: int) -> None:
    game = started("europe", 2, seed=75)
    set_hand(game, 0, {"red": 6})
    for cost, city in enumerate(["Paris", "Wien", "Roma"][:built], start=1):
        game.apply(station(city, red=cost))
        next_round(game)
    final = final_score(game)
    assert final.players[0].stations_unbuilt == 3 - built
    assert final.players[0].station_points == 4 * (3 - built)
    assert final.players[1].station_points == 12


def test_E_STAT_5_a_station_borrows_exactly_one_route_the_best_one() -> None:
    # Ana joins London-Amsterdam-Frankfurt-Essen; her station in Essen may use ONE of Ben's routes there:
    # Berlin-Essen completes London-Berlin (7), Essen-Kobenhavn completes Frankfurt-Kobenhavn (5).
    final = score_position(position(
        {"routes": ["Amsterdam-London", "Amsterdam-Frankfurt", "Essen-Frankfurt"],
         "tickets": ["London-Berlin", "Frankfurt-Kobenhavn"], "stations": ["Essen"]},
        {"routes": ["Berlin-Essen", "Essen-Kobenhavn/1"], "tickets": [], "stations": []},
    ))
    ana = final.players[0]
    assert ana.borrowed_routes == {"Essen": "Berlin-Essen"}
    assert ana.tickets_completed == ["London-Berlin"] and ana.tickets_failed == ["Frankfurt-Kobenhavn"]
    assert ana.ticket_points == 7 - 5


def test_E_STAT_5_the_route_is_chosen_at_scoring_for_the_tickets_held() -> None:
    final = score_position(position(
        {"routes": ["Amsterdam-London", "Amsterdam-Frankfurt", "Essen-Frankfurt"],
         "tickets": ["Frankfurt-Kobenhavn"], "stations": ["Essen"]},
        {"routes": ["Berlin-Essen", "Essen-Kobenhavn/1"], "tickets": [], "stations": []},
    ))
    assert final.players[0].borrowed_routes == {"Essen": "Essen-Kobenhavn/1"}
    assert final.players[0].ticket_points == 5


def test_E_STAT_5_the_same_borrowed_route_serves_all_tickets() -> None:
    final = score_position(position(
        {"routes": ["Essen-Frankfurt", "Kobenhavn-Stockholm/white", "Frankfurt-Munchen", "Munchen-Wien"],
         "tickets": ["Frankfurt-Kobenhavn", "Stockholm-Wien"], "stations": ["Essen"]},
        {"routes": ["Essen-Kobenhavn/2"], "tickets": [], "stations": []},
    ))
    ana = final.players[0]
    assert ana.borrowed_routes == {"Essen": "Essen-Kobenhavn/2"}
    assert ana.tickets_completed == ["Frankfurt-Kobenhavn", "Stockholm-Wien"]
    assert ana.ticket_points == 5 + 11


def test_E_STAT_5_only_another_players_claimed_route_at_that_city() -> None:
    final = score_position(position(
        {"routes": ["Essen-Frankfurt"], "tickets": ["Frankfurt-Kobenhavn", "Zurich-Budapest"],
         "stations": ["Kobenhavn", "Zurich"]},
        {"routes": ["Kobenhavn-Stockholm/white"], "tickets": [], "stations": []},
    ))
    ana = final.players[0]
    # Ben's route at Kobenhavn does not lead to Essen; no one holds a route at Zurich.
    assert ana.borrowed_routes == {"Kobenhavn": None, "Zurich": None}
    assert ana.tickets_failed == ["Frankfurt-Kobenhavn", "Zurich-Budapest"]


def test_E_STAT_5_in_a_game_a_built_station_borrows_at_final_scoring() -> None:
    game = started("europe", 2, seed=76)
    give_route(game, 0, "Essen-Frankfurt")
    give_route(game, 1, "Essen-Kobenhavn/1")
    give_ticket(game, 0, "Frankfurt-Kobenhavn")
    assert final_score(game).players[0].ticket_points == -5
    set_hand(game, 0, {"red": 1})
    game.apply(station("Essen", red=1))
    final = final_score(game)
    assert final.players[0].borrowed_routes == {"Essen": "Essen-Kobenhavn/1"}
    assert final.players[0].ticket_points == 5


def test_E_STAT_6_borrowed_routes_do_not_count_for_the_longest_path() -> None:
    # With Ben's Essen-Kobenhavn borrowed, Ana's path would be 2 + 2 + 3 = 7 > Ben's 6; it counts 4.
    final = score_position(position(
        {"routes": ["Amsterdam-Frankfurt", "Essen-Frankfurt"], "tickets": ["Frankfurt-Kobenhavn"],
         "stations": ["Essen"]},
        {"routes": ["Essen-Kobenhavn/1", "Kobenhavn-Stockholm/yellow"], "tickets": [], "stations": []},
    ))
    ana, ben = final.players
    assert ana.borrowed_routes == {"Essen": "Essen-Kobenhavn/1"} and ana.tickets_completed == ["Frankfurt-Kobenhavn"]
    assert ana.longest_path == 4 and ana.express_bonus == 0
    assert ben.longest_path == 6 and ben.express_bonus == 10
