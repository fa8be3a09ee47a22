"""Final scoring, the European Express and the winner (E-SCORE-1, E-LONG-1, E-WIN-1, E-COMP-4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from helpers import give_route, set_hand, started
from ttr.engine import BoardPlayer, final_score, longest_trail, score_board
from ttr.maps import load_map
from ttr.records import score_position

from .scenarios import station

EUROPE = load_map("europe")


def position(*players: dict[str, Any]) -> dict[str, Any]:
    """A ttr-position/1 document for Europe; players are named Ana, Ben, Chen."""
    names = ["Ana", "Ben", "Chen"]
    return {"format": "ttr-position/1", "map": "europe",
            "players": [{"name": names[i], "tickets": [], "stations": [], **p} for i, p in enumerate(players)]}


def trail(*routes: str) -> int:
    """The longest continuous path over these routes, in trains."""
    return longest_trail(EUROPE, [EUROPE.route(r).index for r in routes])[0]


def board(name: str, routes: Sequence[str], stations: Sequence[str] = (), tickets: Sequence[str] = ()) -> BoardPlayer:
    """A BoardPlayer from names."""
    return BoardPlayer(name, tuple(EUROPE.route(r).index for r in routes),
                       tuple(EUROPE.city(c).index for c in stations), tuple(EUROPE.ticket(t).index for t in tickets))


# ---------------------------------------------------------------- E-SCORE-1


def test_E_SCORE_1_total_is_routes_plus_tickets_plus_stations_plus_express() -> None:
    final = score_position(position(
        {"routes": ["Essen-Frankfurt", "Essen-Kobenhavn/1"], "tickets": ["Frankfurt-Kobenhavn", "Zurich-Budapest"],
         "stations": ["Berlin"]},
        {"routes": ["Kyiv-Smolensk"]},
    ))
    ana, ben = final.players
    assert (ana.route_points, ana.ticket_points, ana.station_points, ana.express_bonus) == (2 + 4, 5 - 6, 8, 10)
    assert ana.total == 6 - 1 + 8 + 10
    assert (ben.route_points, ben.ticket_points, ben.station_points, ben.express_bonus) == (4, 0, 12, 0)
    assert ben.total == 16
    assert final.winners == ["Ana"] and final.decided_by is None


def test_E_SCORE_1_final_score_of_a_game_matches_its_running_route_score() -> None:
    game = started("europe", 2, seed=90)
    for r in ["Essen-Frankfurt", "Essen-Kobenhavn/1", "Kobenhavn-Stockholm/white"]:
        give_route(game, 0, r)
    give_route(game, 1, "Warszawa-Wien")
    set_hand(game, 0, {"red": 1})
    game.apply(station("Paris", red=1))
    final = final_score(game)
    for seat, p in enumerate(final.players):
        assert p.route_points == game.scores[seat]
        assert p.total == p.route_points + p.ticket_points + p.station_points + p.express_bonus
    assert final.players[0].route_points == 2 + 4 + 4
    assert final.players[0].station_points == 8 and final.players[1].station_points == 12
    assert final.players[0].express_bonus == 10 and final.players[1].express_bonus == 0


def test_E_COMP_4_final_route_points_use_the_length_table() -> None:
    routes = ["Dieppe-Paris", "Essen-Frankfurt", "Kyiv-Smolensk", "Warszawa-Wien", "Palermo-Smyrna",
              "Petrograd-Stockholm"]
    final = score_position(position({"routes": routes}, {"routes": []}))
    assert final.players[0].route_points == 1 + 2 + 4 + 7 + 15 + 21


# ---------------------------------------------------------------- E-LONG-1


def test_E_LONG_1_length_counts_trains_not_routes() -> None:
    assert trail("Palermo-Smyrna") == 6
    assert trail("Dieppe-Paris", "Brest-Dieppe", "Brest-Paris") == 1 + 2 + 3


def test_E_LONG_1_a_branch_is_not_part_of_the_path() -> None:
    # A Y at Essen: arms of 2, 3 and 3 trains; the path takes the two longest.
    assert trail("Berlin-Essen", "Amsterdam-Essen", "Essen-Kobenhavn/1") == 6


def test_E_LONG_1_the_path_may_loop_and_pass_a_city_twice_but_each_route_once() -> None:
    # Berlin-Essen-Amsterdam-Frankfurt-Essen: Essen twice, every route once.
    assert trail("Berlin-Essen", "Amsterdam-Essen", "Amsterdam-Frankfurt", "Essen-Frankfurt") == 2 + 3 + 2 + 2
    # Essen-Amsterdam-Frankfurt-Essen-Berlin-Frankfurt: Essen and Frankfurt twice, all 12 trains.
    assert trail("Amsterdam-Essen", "Amsterdam-Frankfurt", "Essen-Frankfurt", "Berlin-Essen",
                 "Berlin-Frankfurt/black") == 3 + 2 + 2 + 2 + 3
    # A closed loop is counted once round, not again.
    assert trail("Amsterdam-Essen", "Amsterdam-Frankfurt", "Essen-Frankfurt") == 7
    assert trail() == 0


def test_E_LONG_1_the_longest_path_player_gets_10_and_ties_all_score() -> None:
    final = score_board(EUROPE, [
        board("Ana", ["Kyiv-Smolensk", "Moskva-Smolensk"]),
        board("Ben", ["Warszawa-Wien", "Berlin-Wien"]),
        board("Chen", ["Sarajevo-Zagrab", "Venezia-Zagrab"]),
    ])
    assert [p.longest_path for p in final.players] == [5, 7, 5]
    assert [p.express_bonus for p in final.players] == [0, 10, 0]
    tie = score_board(EUROPE, [
        board("Ana", ["Kyiv-Smolensk", "Moskva-Smolensk"]),
        board("Ben", ["Sarajevo-Zagrab", "Venezia-Zagrab"]),
    ])
    assert [p.express_bonus for p in tie.players] == [10, 10]


def test_E_LONG_1_no_routes_no_express() -> None:
    final = score_board(EUROPE, [board("Ana", []), board("Ben", [])])
    assert [p.express_bonus for p in final.players] == [0, 0]


# ---------------------------------------------------------------- E-WIN-1


def test_E_WIN_1_the_highest_total_wins() -> None:
    final = score_position(position({"routes": ["Warszawa-Wien"]}, {"routes": ["Kyiv-Smolensk"]}))
    assert final.players[0].total > final.players[1].total
    assert final.winners == ["Ana"] and final.decided_by is None


def test_E_WIN_1_tie_broken_by_most_completed_tickets_first() -> None:
    # Ana: 6 + 5 + 8 + 10 = 29 with one ticket and one station built; Ben: 17 + 12 = 29, no ticket, no station.
    final = score_position(position(
        {"routes": ["Essen-Frankfurt", "Essen-Kobenhavn/1"], "tickets": ["Frankfurt-Kobenhavn"],
         "stations": ["Lisboa"]},
        {"routes": ["Warszawa-Wien", "Kyiv-Smolensk", "Sarajevo-Zagrab", "Dieppe-Paris", "Amsterdam-Bruxelles"]},
    ))
    ana, ben = final.players
    assert ana.total == ben.total == 29
    assert ana.stations_unbuilt < ben.stations_unbuilt  # the next tie-break would favour Ben
    assert final.winners == ["Ana"] and final.decided_by == "tickets_completed"


def test_E_WIN_1_then_by_fewest_stations_built() -> None:
    # Ana: 7 + 8 + 10 = 25 with the express and one station built; Ben: 13 + 12 = 25, no express.
    final = score_position(position(
        {"routes": ["Warszawa-Wien"], "stations": ["Berlin"]},
        {"routes": ["Kyiv-Smolensk", "Sarajevo-Zagrab", "Athina-Sofia", "Dieppe-Paris"]},
    ))
    ana, ben = final.players
    assert ana.total == ben.total == 25
    assert ana.express_bonus == 10 and ben.express_bonus == 0  # the last tie-break would favour Ana
    assert final.winners == ["Ben"] and final.decided_by == "fewest_stations_built"


def test_E_WIN_1_then_by_the_express() -> None:
    # Ana: 7 + 12 + 10 = 29; Ben: 17 + 12 = 29 from short unconnected routes.
    final = score_position(position(
        {"routes": ["Warszawa-Wien"]},
        {"routes": ["Kyiv-Smolensk", "Sarajevo-Zagrab", "Athina-Sofia", "Lisboa-Madrid", "Dieppe-Paris"]},
    ))
    ana, ben = final.players
    assert ana.total == ben.total == 29
    assert final.winners == ["Ana"] and final.decided_by == "longest_path"


def test_E_WIN_1_still_tied_the_players_share_the_win() -> None:
    final = score_position(position(
        {"routes": ["Kyiv-Smolensk"], "tickets": [], "stations": ["Berlin"]},
        {"routes": ["Sarajevo-Zagrab"], "tickets": [], "stations": ["Wien"]},
        {"routes": ["Dieppe-Paris"]},
    ))
    ana, ben, chen = final.players
    assert ana.total == ben.total > chen.total
    assert final.winners == ["Ana", "Ben"] and final.decided_by == "shared"
    assert final.to_json()["winners"] == ["Ana", "Ben"]
