"""The USA map (Ticket to Ride, 2004): its totals, its check, its rules as data, and full games on it."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import set_hand, started
from ttr.bots import make_bot
from ttr.bots.base import play_game
from ttr.cli.main import main
from ttr.engine import Action, Game, final_score
from ttr.engine.phases import CHOOSE_SETUP, MAIN, SECOND_CARD
from ttr.errors import IllegalActionError
from ttr.maps import load_map
from ttr.maps.check import check_map
from ttr.maps.render import render_svg

USA = "usa"


def test_totals() -> None:
    m = load_map(USA)
    assert (len(m.cities), len(m.routes), len(m.tickets), m.total_cards) == (36, 100, 30, 110)
    assert sum(1 for r in m.routes if r.twin > r.index) == 22  # double routes: 78 connections in all
    assert Counter(r.length for r in m.routes) == {1: 9, 2: 36, 3: 20, 4: 16, 5: 10, 6: 9}
    assert sum(r.length for r in m.routes) == 309
    assert not any(r.tunnel or r.ferry_locomotives for r in m.routes)
    colors = Counter(r.color for r in m.routes)
    assert colors == {"gray": 44, **{c: 7 for c in m.colors}}  # seven routes of each card colour
    assert sorted(t.points for t in m.tickets)[:3] == [4, 5, 6] and max(t.points for t in m.tickets) == 22
    assert m.ticket("Seattle-New York").points == 22 and m.ticket("San Francisco-Atlanta").points == 17
    assert not any(t.long for t in m.tickets)
    assert m.city("St. Louis").name == "Saint Louis"  # spelling variants


def test_rules_as_data() -> None:
    r = load_map(USA).rules
    assert (r.players_min, r.players_max, r.pieces, r.stations, r.starting_hand) == (2, 5, 45, 0, 4)
    assert (r.setup_long_tickets, r.setup_regular_tickets, r.setup_keep_min, r.setup_returned) == (0, 3, 2, "bottom")
    assert (r.draw_tickets, r.draw_keep_min) == (3, 1)
    assert r.route_points == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
    assert (r.longest_path_bonus, r.double_routes_single_use_max_players, r.tunnel_reveal) == (10, 3, 0)
    assert r.tiebreaks == ("tickets_completed", "longest_path")
    assert load_map(USA).score_extras == ("express",)


def test_check_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert check_map(load_map(USA).to_json()) == []
    assert main(["map", "check", USA]) == 0
    assert "usa: ok (36 cities, 100 routes, 30 tickets)" in capsys.readouterr().out


def test_render_draws_every_city_and_route() -> None:
    svg = render_svg(load_map(USA))
    assert svg.count("<g id=\"city-") == 36 and svg.count('<g id="route-') == 100
    assert 'data-route="San Francisco-Los Angeles/yellow"' in svg


def test_setup_deals_three_keep_two_returned_to_the_bottom() -> None:
    m = load_map(USA)
    order = [t.name for t in m.tickets]
    game = Game.new(m, 2, decks={"tickets": order})
    assert game.phase == CHOOSE_SETUP
    assert [m.tickets[t].name for t in game.offered] == order[0:3]
    assert sorted(len(a.tickets) for a in game.legal_actions()) == [2, 2, 2, 3]  # keep 2 or 3 of the 3
    game.apply(Action("keep_tickets", tickets=(order[0], order[1])))
    game.apply(Action("keep_tickets", tickets=(order[3], order[4], order[5])))
    assert game.phase == MAIN
    assert [m.tickets[t].name for t in game._ticket_deck] == [*order[6:], order[2]]


@pytest.mark.parametrize(("players", "both"), [(2, False), (3, False), (4, True), (5, True)])
def test_double_routes_take_two_players_only_with_four_or_five(players: int, both: bool) -> None:
    game = started(USA, players, seed=4)
    set_hand(game, 0, {"red": 2})
    set_hand(game, 1, {"yellow": 2})
    game.apply(Action("claim_route", route="Boston-New York/red", cards=Action.make_cards({"red": 2})))
    second = Action("claim_route", route="Boston-New York/yellow", cards=Action.make_cards({"yellow": 2}))
    assert (second in game.legal_actions()) is both
    if both:
        game.apply(second)
        route = game.map.route("Boston-New York/red")
        assert (game.owner[route.index], game.owner[route.twin]) == (0, 1)
    else:
        with pytest.raises(IllegalActionError):
            game.apply(second)


def test_no_stations_on_the_board() -> None:
    game = started(USA, 3, seed=2)
    set_hand(game, 0, {"red": 3})
    assert not any(a.kind == "build_station" for a in game.legal_actions())


@pytest.mark.parametrize(("bots", "players", "seed"), [("random", 2, 1), ("random", 5, 2), ("greedy", 3, 3),
                                                      ("greedy", 4, 4)])
def test_full_games_finish(bots: str, players: int, seed: int) -> None:
    m = load_map(USA)
    game = play_game(m, [make_bot(bots, m, s, seed) for s in range(players)], seed)
    assert game.is_over
    score = final_score(game)
    assert len(score.players) == players and score.winners
    for p in score.players:
        assert p.station_points == 0 and p.attractions == 0
        assert p.express_bonus in (0, 10)
    assert any(p.express_bonus == 10 for p in score.players)
    assert sum(1 for owner in game.owner if owner >= 0) > 0
    assert game.phase != SECOND_CARD
