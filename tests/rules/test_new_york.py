"""New York rules (N-* in docs/rules.md): one or more tests per rule, each naming its rule ID.

Positions are set up with `tests/helpers.py`, which moves cards rather than creating them, so the
map's card totals still hold in every scenario.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

import ttr.maps
from helpers import give_route, new_game, set_face_up, set_hand, stack_deck, started
from ttr.engine import Action, Game, final_score, full_state, positions, surgery
from ttr.engine import actions as A
from ttr.engine.phases import CHOOSE_SETUP, CHOOSE_TICKETS, MAIN, SECOND_CARD
from ttr.errors import IllegalActionError, RecordError
from ttr.maps import GameMap, load_map

NY = "new_york"
COLOURS = ("blue", "green", "black", "pink", "red", "orange")
DRAW_DECK = Action("draw_card", source="deck")
DRAW_TICKETS = Action("draw_tickets")


def ny_map() -> GameMap:
    """The New York map."""
    return load_map(NY)


def claim(route: str, **cards: int) -> Action:
    """A `claim_route` action: `claim("Chelsea-Soho", pink=3, taxi=1)`."""
    return Action("claim_route", route=route, cards=Action.make_cards(cards))


def face_up(card: str) -> Action:
    """A `draw_card` from the face-up row."""
    return Action("draw_card", source="face_up", card=card)


def keep(*tickets: str) -> Action:
    """A `keep_tickets` action."""
    return Action("keep_tickets", tickets=tickets)


def state_of(game: Game) -> tuple[object, ...]:
    """Everything an action could change, deck and ticket order included."""
    return (full_state(game), game._deck[:], game.discard[:], game._ticket_deck[:], game.offered[:],
            [h[:] for h in game.hands], game.history[:], game._rng.state)


def assert_refused(game: Game, action: Action, *rules: str) -> None:
    """`action` is not listed, raises `IllegalActionError` (naming one of `rules`, if given) and changes nothing."""
    before = state_of(game)
    assert action not in game.legal_actions()
    assert not game.is_legal(action)
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    if rules:
        assert info.value.rule in rules, str(info.value)
    assert state_of(game) == before


def card_counts(game: Game) -> Counter[str]:
    """Every train card by name: deck, discard, face-up row, hands."""
    names = game.map.card_names
    counts: Counter[str] = Counter(names[c] for c in game._deck + game.discard + game.face_up if c >= 0)
    for hand in game.hands:
        for c, n in enumerate(hand):
            counts[names[c]] += n
    return counts


def take_tickets(game: Game, seat: int, names: list[str]) -> None:
    """Give `seat` exactly these tickets, moved from wherever they are (its old ones go to the deck's bottom)."""
    for t in game.tickets[seat][:]:
        positions.move_ticket(game, t, positions.TICKET_DECK)
    for name in names:
        positions.move_ticket(game, game.map.ticket(name).index, positions.held(seat))


def pass_turn(game: Game) -> None:
    """The seat to move draws two blind cards."""
    seat = game.current
    game.apply(DRAW_DECK)
    if game.current == seat and game.phase == SECOND_CARD:
        game.apply(DRAW_DECK)


def play_random(game: Game, rnd: random.Random, limit: int = 5000) -> None:
    """Random legal ids until the game ends."""
    for _ in range(limit):
        if game.is_over:
            return
        game.apply_id(rnd.choice(game.legal_ids()))
    raise AssertionError("a random game did not end")


# ---------------------------------------------------------------------- components


def test_N_COMP_1_44_transport_cards_6_of_each_colour_and_8_taxis() -> None:
    m = ny_map()
    assert m.colors == COLOURS
    assert m.wild_name == "taxi"
    for players in (2, 3, 4):
        game = new_game(NY, players, seed=players)
        counts = card_counts(game)
        assert sum(counts.values()) == 44
        assert counts == Counter({**{c: 6 for c in COLOURS}, "taxi": 8})
        assert sorted(game._initial_train) == sorted([c for c in range(6) for _ in range(6)] + [m.wild] * 8)


def test_N_COMP_2_18_tickets_2_to_4_players_15_taxis_each() -> None:
    m = ny_map()
    assert len(m.tickets) == 18
    assert not any(t.long for t in m.tickets)
    for players in (2, 3, 4):
        game = new_game(NY, players, seed=7)
        assert game.trains == [15] * players
        assert full_state(game)["players"][0]["trains"] == 15
        assert sorted(game._initial_tickets) == list(range(18))
        assert game.offered == game._initial_tickets[:2]  # seat 0's offer; the others wait their turn
        assert game._ticket_deck == game._initial_tickets[2 * players:]
    for players in (1, 5):
        with pytest.raises(RecordError):
            Game.new(m, players)


@pytest.mark.parametrize(("route", "cards", "points"), [
    ("Chinatown-Lower East Side", {"blue": 1}, 1),
    ("Lincoln Center-Midtown West", {"red": 2}, 2),
    ("Central Park-United Nations", {"pink": 3}, 4),
    ("Chelsea-Soho", {"pink": 4}, 7),
])
def test_N_COMP_3_route_points_1_2_4_7(route: str, cards: dict[str, int], points: int) -> None:
    assert ny_map().rules.route_points == {1: 1, 2: 2, 3: 4, 4: 7}
    game = started(NY, 2, seed=3)
    set_hand(game, 0, cards)
    game.apply(claim(route, **cards))
    assert game.scores == [points, 0]
    assert game.trains[0] == 15 - ny_map().route(route).length
    assert full_state(game)["players"][0]["score"] == points


# ---------------------------------------------------------------------- setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_N_SETUP_1_two_cards_each_and_five_face_up(players: int) -> None:
    game = new_game(NY, players, seed=11)
    assert [sum(h) for h in game.hands] == [2] * players
    assert all(c >= 0 for c in game.face_up) and len(game.face_up) == 5
    assert game.face_up.count(game.wild) < 3
    assert len(game._deck) + len(game.discard) == 44 - 2 * players - 5


def test_N_SETUP_1_three_face_up_taxis_at_setup_are_replaced() -> None:
    """The row dealt from a fixed deck holds 3 taxis: they and the other 2 are discarded, 5 new turned up."""
    m = ny_map()
    hands = ["blue", "green", "blue", "green"]
    first_row = ["taxi", "red", "taxi", "black", "taxi"]
    second_row = ["pink", "orange", "red", "blue", "green"]
    used = Counter(hands + first_row + second_row)
    rest = [c for c in (*COLOURS, "taxi") for _ in range((8 if c == "taxi" else 6) - used[c])]
    game = Game.new(m, 2, decks={"train": hands + first_row + second_row + rest})
    assert [m.card_names[c] for c in game.face_up] == second_row
    assert sorted(m.card_names[c] for c in game.discard) == sorted(first_row)
    assert game.hands[0][m.card("blue")] == 1 and game.hands[0][m.card("green")] == 1
    assert sum(card_counts(game).values()) == 44


def test_N_SETUP_2_two_tickets_dealt_keep_one_or_two_returned_to_the_bottom_in_seat_order() -> None:
    m = ny_map()
    order = [t.name for t in m.tickets]
    game = Game.new(m, 3, decks={"tickets": order})
    assert game.phase == CHOOSE_SETUP
    assert [m.tickets[t].name for t in game.offered] == order[0:2]
    # keep 1 or 2 of the 2: three choices, keeping none is refused
    assert sorted(len(a.tickets) for a in game.legal_actions()) == [1, 1, 2]
    assert_refused(game, keep(), "N-SETUP-2", "E-SETUP-5")
    game.apply(keep(order[0]))  # seat 0 returns order[1]
    assert [m.tickets[t].name for t in game.offered] == order[2:4]
    game.apply(keep(order[2], order[3]))  # seat 1 keeps both
    game.apply(keep(order[5]))  # seat 2 returns order[4]
    assert game.phase == MAIN
    names = [m.tickets[t].name for t in game._ticket_deck]
    assert names == [*order[6:], order[1], order[4]]
    assert [[m.tickets[t].name for t in held] for held in game.tickets] == [
        [order[0]], [order[2], order[3]], [order[5]]]
    assert len(game._ticket_deck) + sum(len(t) for t in game.tickets) == 18


@pytest.mark.parametrize("players", [2, 3, 4])
def test_N_SETUP_3_first_seat_starts_and_play_goes_clockwise(players: int) -> None:
    game = new_game(NY, players, seed=5)
    choosers = []
    while game.phase == CHOOSE_SETUP:
        choosers.append(game.current)
        game.apply(keep(game.map.tickets[game.offered[0]].name))
    assert choosers == list(range(players))
    movers = []
    for _ in range(players + 1):
        movers.append(game.current)
        pass_turn(game)
    assert movers == [*range(players), 0]


# ---------------------------------------------------------------------- a turn


def test_N_TURN_1_one_action_per_turn() -> None:
    game = started(NY, 3, seed=2)
    set_hand(game, 0, {"pink": 3})
    game.apply(claim("Central Park-United Nations", pink=3))
    assert (game.current, game.phase) == (1, MAIN)
    game.apply(DRAW_TICKETS)
    assert (game.current, game.phase) == (1, CHOOSE_TICKETS)
    assert_refused(game, DRAW_DECK)
    game.apply(keep(game.map.tickets[game.offered[0]].name))
    assert (game.current, game.phase) == (2, MAIN)
    game.apply(DRAW_DECK)
    assert (game.current, game.phase) == (2, SECOND_CARD)
    assert_refused(game, DRAW_TICKETS)
    game.apply(DRAW_DECK)
    assert (game.current, game.phase) == (0, MAIN)


def test_N_TURN_1_no_stations_tunnels_or_ferries() -> None:
    m = ny_map()
    assert m.rules.stations == 0 and m.rules.tunnel_reveal == 0
    assert not any(r.tunnel or r.ferry_locomotives for r in m.routes)
    game = started(NY, 2, seed=4)
    assert game.stations_left == [0, 0]
    set_hand(game, 0, {"red": 2, "taxi": 2})
    kinds = set(game.cat.kind)
    assert A.BUILD_STATION not in kinds and A.PAY_TUNNEL not in kinds
    with pytest.raises(IllegalActionError) as info:
        game.encode(Action("build_station", city="Chelsea", cards=(("red", 1),)))
    assert info.value.rule == "N-TURN-1"
    with pytest.raises(IllegalActionError):
        game.apply(Action("pay_tunnel", cards=(("red", 1),)))
    assert_refused(game, Action("abandon_tunnel"))
    # No station, tunnel payment or abandon is ever legal, in any seat count.
    for seed in range(30):
        game = started(NY, 2 + seed % 3, seed=seed)
        rnd = random.Random(seed)
        while not game.is_over:
            ids = game.legal_ids()
            assert not {game.cat.kind[i] for i in ids} & {A.BUILD_STATION, A.PAY_TUNNEL, A.ABANDON_TUNNEL}
            game.apply_id(rnd.choice(ids))
        assert game.stations_left == [0] * game.n and game.station_owner == [-1] * len(m.cities)


# ---------------------------------------------------------------------- drawing cards


def test_N_DRAW_1_face_up_taxi_as_first_card_ends_the_turn() -> None:
    game = started(NY, 2, seed=1)
    set_hand(game, 0, {})
    set_face_up(game, ["taxi", "red", "blue", "green", "black"])
    stack_deck(game, ["pink"])
    game.apply(face_up("taxi"))
    assert game.hands[0][game.wild] == 1 and sum(game.hands[0]) == 1
    assert (game.current, game.phase) == (1, MAIN)
    assert game.face_up[0] == game.map.card("pink")


def test_N_DRAW_1_second_card_may_not_be_a_face_up_taxi() -> None:
    game = started(NY, 2, seed=1)
    set_hand(game, 0, {})
    set_face_up(game, ["red", "taxi", "blue", "green", "black"])
    stack_deck(game, ["taxi", "orange"])
    game.apply(face_up("red"))  # the refill turns up a second taxi
    assert game.phase == SECOND_CARD and game.face_up.count(game.wild) == 2
    assert_refused(game, face_up("taxi"), "N-DRAW-1", "E-DRAW-4")
    assert DRAW_DECK in game.legal_actions()
    game.apply(face_up("blue"))
    assert game.hands[0] == [1, 0, 0, 0, 1, 0, 0]  # blue, red
    assert (game.current, game.phase) == (1, MAIN)


def test_N_DRAW_1_a_blind_taxi_allows_a_second_card() -> None:
    game = started(NY, 2, seed=1)
    set_hand(game, 0, {})
    stack_deck(game, ["taxi", "red"])
    game.apply(DRAW_DECK)
    assert (game.current, game.phase) == (0, SECOND_CARD)
    game.apply(DRAW_DECK)
    assert game.hands[0][game.wild] == 1 and game.hands[0][game.map.card("red")] == 1
    assert game.current == 1


def test_N_DRAW_1_three_face_up_taxis_are_discarded_and_replaced() -> None:
    game = started(NY, 2, seed=1)
    set_hand(game, 0, {})
    set_face_up(game, ["red", "taxi", "taxi", "blue", "green"])
    stack_deck(game, ["taxi", "blue", "red", "green", "black", "pink"])
    discard_before = len(game.discard)
    game.apply(face_up("red"))
    names = game.map.card_names
    assert [names[c] for c in game.face_up] == ["blue", "red", "green", "black", "pink"]
    assert sorted(names[c] for c in game.discard[discard_before:]) == sorted(["taxi", "taxi", "taxi", "blue", "green"])
    assert sum(card_counts(game).values()) == 44


def test_N_DRAW_1_empty_deck_shuffles_the_discards_and_no_blind_draw_without_cards() -> None:
    game = started(NY, 2, seed=1)
    positions.move_cards(game, positions.DECK, positions.DISCARD)
    pile = len(game.discard)
    game.apply(DRAW_DECK)
    assert len(game._reshuffles) == 1 and len(game._reshuffles[0]) == pile
    assert len(game._deck) == pile - 1 and not game.discard
    assert sum(card_counts(game).values()) == 44
    # both piles empty: no blind draw
    positions.move_cards(game, positions.DECK, positions.hand(0))
    assert sum(card_counts(game).values()) == 44
    assert_refused(game, DRAW_DECK, "N-DRAW-1", "E-DRAW-8")
    assert any(a.source == "face_up" for a in game.legal_actions() if a.kind == "draw_card")


# ---------------------------------------------------------------------- claiming


def test_N_CLAIM_1_coloured_route_needs_its_colour_taxis_are_wild() -> None:
    game = started(NY, 2, seed=6)
    set_hand(game, 0, {"blue": 2, "pink": 1, "taxi": 2})
    assert_refused(game, claim("Central Park-Times Square/red", blue=2), "N-CLAIM-1", "E-CLAIM-2")
    claims = [a for a in game.legal_actions() if a.kind == "claim_route"]
    assert not [a for a in claims if a.route == "Central Park-Times Square/red" and "blue" in a.card_counts]
    assert claim("Central Park-Times Square/red", taxi=2) in claims
    discard = len(game.discard)
    game.apply(claim("Central Park-United Nations", pink=1, taxi=2))
    assert game.owner[game.map.route("Central Park-United Nations").index] == 0
    assert game.hands[0] == [2, 0, 0, 0, 0, 0, 0]
    assert sorted(game.discard[discard:]) == [game.map.card("pink"), game.wild, game.wild]
    assert (game.scores[0], game.trains[0]) == (4, 12)


def test_N_CLAIM_1_gray_route_takes_any_one_colour() -> None:
    game = started(NY, 2, seed=6)
    set_hand(game, 0, {"red": 1, "blue": 1, "orange": 2})
    assert_refused(game, claim("Times Square-United Nations", red=1, blue=1), "N-CLAIM-1", "E-CLAIM-1")
    legal = game.legal_actions()
    assert claim("Times Square-United Nations", orange=2) in legal
    assert claim("Midtown West-Times Square", red=1) in legal
    assert claim("Midtown West-Times Square", blue=1) in legal
    game.apply(claim("Times Square-United Nations", orange=2))
    assert game.scores[0] == 2


def test_N_CLAIM_1_not_enough_taxi_pieces_cannot_claim() -> None:
    game = started(NY, 2, seed=6)
    for route in ("Chelsea-Soho", "Chelsea-Greenwich Village/green", "Brooklyn-Wall Street/black",
                  "Chelsea-Gramercy Park", "Chelsea-Midtown West"):
        give_route(game, 0, route)
    assert game.trains[0] == 1
    set_hand(game, 0, {"red": 2, "blue": 1})
    assert_refused(game, claim("Lincoln Center-Midtown West", red=2), "N-CLAIM-1", "E-CLAIM-4")
    assert all(game.map.route(a.route or "").length == 1 for a in game.legal_actions() if a.kind == "claim_route")
    game.apply(claim("Chinatown-Lower East Side", blue=1))
    assert game.trains[0] == 0


def test_N_CLAIM_1_not_enough_cards_cannot_claim() -> None:
    game = started(NY, 2, seed=6)
    set_hand(game, 0, {"pink": 2, "taxi": 1})
    assert_refused(game, claim("Chelsea-Soho", pink=2, taxi=2), "N-CLAIM-1", "E-CLAIM-1")
    assert claim("Central Park-United Nations", pink=2, taxi=1) in game.legal_actions()


# ---------------------------------------------------------------------- double routes


def test_N_DOUBLE_1_two_players_the_other_track_closes() -> None:
    game = started(NY, 2, seed=8)
    set_hand(game, 0, {"red": 2})
    set_hand(game, 1, {"black": 2, "taxi": 2})
    game.apply(claim("Central Park-Times Square/red", red=2))
    assert game.current == 1
    assert_refused(game, claim("Central Park-Times Square/black", black=2), "N-DOUBLE-1")
    routes = {a.route for a in game.legal_actions() if a.kind == "claim_route"}
    assert "Central Park-Times Square/black" not in routes
    assert "Empire State Building-United Nations" in routes  # black cards do claim elsewhere


@pytest.mark.parametrize("players", [3, 4])
def test_N_DOUBLE_1_three_or_four_players_both_tracks_used_never_by_one_player(players: int) -> None:
    game = started(NY, players, seed=8)
    set_hand(game, 0, {"red": 2, "black": 2})
    set_hand(game, 1, {"black": 2})
    game.apply(claim("Central Park-Times Square/red", red=2))
    assert claim("Central Park-Times Square/black", black=2) in game.legal_actions()
    for _ in range(players - 1):
        pass_turn(game)
    assert game.current == 0
    assert_refused(game, claim("Central Park-Times Square/black", black=2), "N-DOUBLE-1", "E-DOUBLE-1")
    game = started(NY, players, seed=8)
    set_hand(game, 0, {"red": 2})
    set_hand(game, 1, {"black": 2})
    game.apply(claim("Central Park-Times Square/red", red=2))
    game.apply(claim("Central Park-Times Square/black", black=2))
    route = game.map.route("Central Park-Times Square/red")
    assert (game.owner[route.index], game.owner[route.twin]) == (0, 1)


# ---------------------------------------------------------------------- tickets


def test_N_TICK_1_draw_2_keep_at_least_1_returned_to_the_bottom() -> None:
    game = started(NY, 2, seed=9)
    top = game._ticket_deck[:2]
    rest = game._ticket_deck[2:]
    game.apply(DRAW_TICKETS)
    assert game.offered == top and game.phase == CHOOSE_TICKETS
    assert sorted(len(a.tickets) for a in game.legal_actions()) == [1, 1, 2]
    assert_refused(game, keep(), "N-TICK-1", "E-TICK-1")
    held = game.tickets[0][:]
    game.apply(keep(game.map.tickets[top[1]].name))
    assert game.tickets[0] == [*held, top[1]]
    assert game._ticket_deck == [*rest, top[0]]
    assert (game.current, game.phase) == (1, MAIN)


def test_N_TICK_1_with_one_ticket_left_it_must_be_kept() -> None:
    game = started(NY, 2, seed=9)
    last = game._ticket_deck[0]
    for t in surgery.hidden_ticket_deck(game)[1:]:
        positions.move_ticket(game, t, positions.held(1))
    game.apply(DRAW_TICKETS)
    assert game.offered == [last]
    assert game.legal_actions() == [keep(game.map.tickets[last].name)]
    assert_refused(game, keep(), "N-TICK-1", "E-TICK-1")
    game.apply(keep(game.map.tickets[last].name))
    assert game._ticket_deck == [] and game.tickets[0][-1] == last
    assert_refused(game, DRAW_TICKETS, "N-TICK-1", "E-TICK-1")


# ---------------------------------------------------------------------- end of game


def _to_three_taxis(game: Game, seat: int) -> None:
    for route in ("Chelsea-Soho", "Chelsea-Greenwich Village/green", "Brooklyn-Wall Street/black",
                  "Chelsea-Gramercy Park"):
        give_route(game, seat, route)
    assert game.trains[seat] == 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_N_END_1_two_or_fewer_taxis_every_player_one_last_turn(players: int) -> None:
    game = started(NY, players, seed=10)
    _to_three_taxis(game, 0)
    pass_turn(game)  # 3 taxis left: no trigger
    assert game.final_turns < 0
    for _ in range(players - 1):
        pass_turn(game)
    set_hand(game, 0, {"blue": 1})
    game.apply(claim("Chinatown-Lower East Side", blue=1))  # 2 left: the last round starts
    movers = []
    while not game.is_over:
        movers.append(game.current)
        pass_turn(game)
    assert movers == [*range(1, players), 0]
    state = full_state(game)
    assert state["status"] == "finished" and state["final"] is not None


def test_N_END_1_a_second_player_dropping_low_changes_nothing() -> None:
    game = started(NY, 3, seed=10)
    _to_three_taxis(game, 0)
    for route in ("Brooklyn-Chinatown/red", "Brooklyn-Lower East Side", "Gramercy Park-United Nations",
                  "Central Park-United Nations"):
        give_route(game, 1, route)
    set_hand(game, 0, {"blue": 1})
    set_hand(game, 1, {"green": 1})
    game.apply(claim("Chinatown-Lower East Side", blue=1))
    game.apply(claim("Chinatown-Wall Street/green", green=1))  # seat 1 also drops to 2
    assert game.trains[:2] == [2, 2]
    movers = []
    while not game.is_over:
        movers.append(game.current)
        pass_turn(game)
    assert movers == [2, 0]


# ---------------------------------------------------------------------- scoring and winning


def test_N_SCORE_1_the_attractions_are_the_map_files_list() -> None:
    data = json.loads((Path(ttr.maps.__file__).parent / "new_york.json").read_text(encoding="utf-8"))
    assert list(ny_map().tourist_attractions) == data["tourist_attractions"]
    assert len(data["tourist_attractions"]) == 9
    assert ny_map().rules.attraction_points == 1


def test_N_SCORE_1_routes_tickets_and_one_point_per_attraction_reached() -> None:
    game = started(NY, 2, seed=12)
    for route in ("Brooklyn-Chinatown/orange", "Chinatown-Wall Street/green", "Chinatown-Lower East Side"):
        give_route(game, 0, route)
    give_route(game, 1, "Central Park-Times Square/red")
    give_route(game, 1, "Lincoln Center-Midtown West")
    take_tickets(game, 0, ["Lower East Side-Wall Street", "Brooklyn-Times Square"])
    take_tickets(game, 1, [])
    final = final_score(game)
    zero, one = final.players
    assert (zero.route_points, zero.ticket_points, zero.attractions) == (4 + 1 + 1, 2 - 8, 3)
    assert sorted(zero.attraction_cities) == ["Brooklyn", "Chinatown", "Wall Street"]
    assert zero.tickets_completed == ["Lower East Side-Wall Street"]
    assert zero.tickets_failed == ["Brooklyn-Times Square"]
    assert zero.total == 6 - 6 + 3
    assert (one.route_points, one.ticket_points, one.attractions, one.total) == (4, 0, 2, 6)
    assert zero.station_points == 0 and zero.express_bonus == 0 and one.express_bonus == 0
    assert final.winners == [game.players[1]]


def test_N_SCORE_1_each_player_reaching_an_attraction_scores_it() -> None:
    game = started(NY, 2, seed=12)
    give_route(game, 0, "Central Park-Times Square/red")
    give_route(game, 0, "Midtown West-Times Square")  # Times Square a second time: still one point
    give_route(game, 1, "Empire State Building-Times Square/orange")
    take_tickets(game, 0, [])
    take_tickets(game, 1, [])
    zero, one = final_score(game).players
    assert zero.attractions == 2 and one.attractions == 2


def test_N_WIN_1_highest_total_wins() -> None:
    game = started(NY, 3, seed=13)
    give_route(game, 2, "Chelsea-Soho")
    for seat in range(3):
        take_tickets(game, seat, [])
    final = final_score(game)
    assert final.winners == [game.players[2]] and final.decided_by is None


def test_N_WIN_1_tie_broken_by_most_completed_tickets() -> None:
    game = started(NY, 2, seed=13)
    give_route(game, 0, "Central Park-Lincoln Center")
    give_route(game, 0, "Lincoln Center-Midtown West")
    take_tickets(game, 0, ["Central Park-Midtown West", "Empire State Building-Greenwich Village"])
    give_route(game, 1, "Brooklyn-Lower East Side")
    take_tickets(game, 1, [])
    final = final_score(game)
    assert [p.total for p in final.players] == [5, 5]
    assert final.winners == [game.players[0]] and final.decided_by == "tickets_completed"


def test_N_WIN_1_still_tied_is_shared_no_station_or_express_tie_break() -> None:
    assert ny_map().rules.tiebreaks == ("tickets_completed",)
    game = started(NY, 2, seed=13)
    give_route(game, 0, "Brooklyn-Lower East Side")  # 4 points + Brooklyn, longest path 3
    give_route(game, 1, "Chelsea-Midtown West")  # 2 + 2 points + Chelsea, longest path 4
    give_route(game, 1, "Lincoln Center-Midtown West")
    take_tickets(game, 0, [])
    take_tickets(game, 1, [])
    final = final_score(game)
    assert [p.total for p in final.players] == [5, 5]
    assert [p.longest_path for p in final.players] == [3, 4]
    assert final.winners == game.players and final.decided_by == "shared"


def test_N_WIN_1_finished_games_name_the_highest_totals() -> None:
    for seed in range(20):
        game = started(NY, 2 + seed % 3, seed=seed)
        play_random(game, random.Random(seed))
        final = full_state(game)["final"]
        totals = [p["total"] for p in final["players"]]
        winners = [p["name"] for p in final["players"] if p["total"] == max(totals)]
        assert set(final["winners"]) <= set(winners) and final["winners"]
