"""Europe components, setup and the shape of a turn (E-COMP-*, E-SETUP-*, E-TURN-1)."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import new_game, set_hand, started
from ttr.engine import Action, Game
from ttr.engine.phases import CHOOSE_SETUP, MAIN, SECOND_CARD
from ttr.errors import RecordError
from ttr.maps import load_map

from .scenarios import (
    DRAW_DECK,
    TOTAL_CARDS,
    assert_illegal,
    card_counts,
    claim,
    keep,
)

COLOURS = ["purple", "white", "blue", "yellow", "orange", "black", "red", "green"]


def ordered_train(front: list[str]) -> list[str]:
    """The 110 Europe cards with `front` on top (first = top), the rest in a fixed order."""
    rest = Counter({c: 12 for c in COLOURS} | {"locomotive": 14})
    rest.subtract(Counter(front))
    assert min(rest.values()) >= 0
    tail = [c for c in [*COLOURS, "locomotive"] for _ in range(rest[c])]
    return front + tail


def ticket_names(game: Game, ids: list[int]) -> list[str]:
    """Ticket names of ticket indexes."""
    return [game.map.tickets[t].name for t in ids]


def test_E_COMP_1_train_cards_are_110_with_12_per_colour_and_14_locomotives() -> None:
    game = new_game("europe", 4, seed=3)
    counts = card_counts(game)
    names = game.map.card_names
    assert sorted(names[:-1]) == sorted(COLOURS) and names[-1] == "locomotive"
    assert counts[:-1] == [12] * 8
    assert counts[-1] == 14
    assert sum(counts) == TOTAL_CARDS


def test_E_COMP_1_a_train_deck_without_the_right_cards_is_refused() -> None:
    bad = ordered_train([])
    bad[-1] = "red"  # one locomotive too few, one red too many
    with pytest.raises(RecordError):
        Game.new(load_map("europe"), 2, decks={"train": bad})


def test_E_COMP_2_46_tickets_40_regular_and_6_long_all_dealt_or_in_the_deck_or_boxed() -> None:
    game = new_game("europe", 2, seed=1)
    tickets = game.map.tickets
    assert len(tickets) == 46
    assert sum(t.long for t in tickets) == 6
    assert all(t.points > 0 and t.a != t.b for t in tickets)
    offered = [t for seat in range(2) for t in game._setup_offers[seat]]
    regular_in_play = [t for t in offered + game._ticket_deck if not tickets[t].long]
    assert sorted(regular_in_play) == [t.index for t in tickets if not t.long]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_E_COMP_3_each_player_has_45_trains_and_3_stations(players: int) -> None:
    game = started("europe", players, seed=players)
    assert game.trains == [45] * players
    assert game.stations_left == [3] * players


@pytest.mark.parametrize("players", [1, 6])
def test_E_COMP_3_europe_is_for_2_to_5_players(players: int) -> None:
    with pytest.raises(RecordError):
        Game.new(load_map("europe"), players)


@pytest.mark.parametrize(("route", "cards", "points"), [
    ("Dieppe-Paris", {"purple": 1}, 1),
    ("Essen-Frankfurt", {"green": 2}, 2),
    ("Amsterdam-Essen", {"yellow": 3}, 4),
    ("Warszawa-Wien", {"blue": 4}, 7),
])
def test_E_COMP_4_route_points_by_length(route: str, cards: dict[str, int], points: int) -> None:
    game = started("europe", 2, seed=5)
    set_hand(game, 0, cards)
    game.apply(claim(route, **cards))
    assert game.scores == [points, 0]
    assert game.trains[0] == 45 - game.map.route(route).length


def test_E_SETUP_1_deal_4_cards_each_in_seat_order_then_5_face_up() -> None:
    front = ["red"] * 4 + ["blue"] * 4 + ["green"] * 4 + ["white", "black", "orange", "purple", "yellow"]
    game = Game.new(load_map("europe"), 3, decks={"train": ordered_train(front)})
    names = game.map.card_names
    for seat, colour in enumerate(["red", "blue", "green"]):
        assert game.hands[seat][game.map.card(colour)] == 4 and sum(game.hands[seat]) == 4
    assert [names[c] for c in game.face_up] == ["white", "black", "orange", "purple", "yellow"]
    assert len(game._deck) == TOTAL_CARDS - 3 * 4 - 5
    assert game.discard == []


def test_E_SETUP_1_a_seeded_deal_gives_4_cards_each_and_a_full_row() -> None:
    game = new_game("europe", 5, seed=11)
    assert [sum(h) for h in game.hands] == [4] * 5
    assert all(c >= 0 for c in game.face_up) and len(game.face_up) == 5
    assert len(game._deck) + len(game.discard) == TOTAL_CARDS - 20 - 5


def test_E_SETUP_2_three_face_up_locomotives_at_setup_are_discarded_and_replaced() -> None:
    first_row = ["locomotive", "red", "locomotive", "blue", "locomotive"]
    second_row = ["green", "white", "locomotive", "black", "orange"]
    front = ["red"] * 8 + first_row + second_row
    game = Game.new(load_map("europe"), 2, decks={"train": ordered_train(front)})
    names = game.map.card_names
    assert [names[c] for c in game.face_up] == second_row
    assert sorted(names[c] for c in game.discard) == sorted(first_row)
    assert sum(card_counts(game)) == TOTAL_CARDS


def test_E_SETUP_2_two_face_up_locomotives_at_setup_stay() -> None:
    row = ["locomotive", "red", "locomotive", "blue", "green"]
    game = Game.new(load_map("europe"), 2, decks={"train": ordered_train(["red"] * 8 + row)})
    assert [game.map.card_names[c] for c in game.face_up] == row
    assert game.discard == []


def test_E_SETUP_3_one_long_ticket_each_and_the_other_long_tickets_leave_the_game() -> None:
    m = load_map("europe")
    longs = [t.name for t in m.tickets if t.long]
    order = longs[::-1]
    game = Game.new(m, 3, decks={"long_tickets": order})
    for seat in range(3):
        offer = ticket_names(game, game._setup_offers[seat])
        assert offer[0] == order[seat]
        assert sum(m.ticket(n).long for n in offer) == 1
    boxed = {m.ticket(n).index for n in order[3:]}
    assert not boxed & set(game._ticket_deck)
    while game.phase == CHOOSE_SETUP:
        game.apply(keep(*ticket_names(game, game.offered)))
    held = {t for seat in range(3) for t in game.tickets[seat]}
    assert not boxed & held and not boxed & set(game._ticket_deck)


def test_E_SETUP_4_three_regular_tickets_each_from_the_top_and_the_rest_form_the_deck() -> None:
    m = load_map("europe")
    regular = [t.name for t in m.tickets if not t.long]
    game = Game.new(m, 4, decks={"tickets": regular})
    for seat in range(4):
        assert ticket_names(game, game._setup_offers[seat])[1:] == regular[3 * seat:3 * seat + 3]
    assert ticket_names(game, game._ticket_deck) == regular[12:]
    assert len(game._ticket_deck) == 40 - 12


def test_E_SETUP_5_keep_at_least_two_of_the_four_starting_tickets() -> None:
    game = new_game("europe", 2, seed=2)
    offer = ticket_names(game, game.offered)
    assert len(offer) == 4
    assert_illegal(game, keep(offer[1]), "E-SETUP-5")
    assert_illegal(game, keep(), "E-SETUP-5")
    legal = game.legal_actions()
    assert keep(offer[1], offer[2]) in legal  # two regular, the long one returned
    assert keep(offer[0], offer[3]) in legal  # any mix
    assert keep(*offer) in legal
    assert all(len(a.tickets) >= 2 for a in legal)


def test_E_SETUP_5_returned_starting_tickets_go_to_the_box_not_the_deck() -> None:
    game = new_game("europe", 2, seed=2)
    deck_before = list(game._ticket_deck)
    offer = list(game.offered)
    game.apply(keep(*ticket_names(game, offer[2:])))
    assert game.tickets[0] == offer[2:]
    assert game._ticket_deck == deck_before
    assert game.current == 1 and game.phase == CHOOSE_SETUP
    offer1 = list(game.offered)
    game.apply(keep(*ticket_names(game, offer1)))
    assert game._ticket_deck == deck_before
    assert not set(offer[:2]) & {t for seat in range(2) for t in game.tickets[seat]}


def test_E_SETUP_6_setup_choices_then_turns_go_in_seat_order_from_seat_0() -> None:
    game = new_game("europe", 3, seed=4)
    chooser = []
    while game.phase == CHOOSE_SETUP:
        chooser.append(game.current)
        game.apply(keep(*ticket_names(game, game.offered)))
    assert chooser == [0, 1, 2]
    assert game.phase == MAIN
    movers = []
    for _ in range(4):
        movers.append(game.current)
        game.apply(DRAW_DECK)
        game.apply(DRAW_DECK)
    assert movers == [0, 1, 2, 0]


def test_E_TURN_1_the_four_actions_are_offered_at_the_start_of_a_turn() -> None:
    game = started("europe", 2, seed=8)
    set_hand(game, 0, {"red": 3})
    kinds = {a.kind for a in game.legal_actions()}
    assert kinds == {"draw_card", "claim_route", "draw_tickets", "build_station"}


def test_E_TURN_1_a_claim_is_the_whole_turn() -> None:
    game = started("europe", 2, seed=8)
    set_hand(game, 0, {"red": 3, "blue": 2})
    game.apply(claim("Kyiv-Smolensk", red=3))
    assert game.current == 1 and game.phase == MAIN
    assert claim("Berlin-Essen", blue=2) not in game.legal_actions()  # seat 1 to move, not seat 0


def test_E_TURN_1_after_the_first_card_only_a_second_card_may_follow() -> None:
    game = started("europe", 2, seed=8)
    set_hand(game, 0, {"red": 3})
    game.apply(DRAW_DECK)
    assert game.phase == SECOND_CARD and game.current == 0
    assert {a.kind for a in game.legal_actions()} == {"draw_card"}
    assert_illegal(game, claim("Kyiv-Smolensk", red=3), "E-DRAW-1")
    assert_illegal(game, Action("draw_tickets"), "E-DRAW-1")


def test_E_TURN_1_ticket_draw_is_the_whole_turn_after_the_choice() -> None:
    game = started("europe", 2, seed=8)
    set_hand(game, 0, {"red": 3})
    game.apply(Action("draw_tickets"))
    assert game.current == 0
    assert {a.kind for a in game.legal_actions()} == {"keep_tickets"}
    assert_illegal(game, claim("Kyiv-Smolensk", red=3), "E-TICK-1")
    assert_illegal(game, DRAW_DECK, "E-TICK-1")
    game.apply(keep(*ticket_names(game, game.offered)))
    assert game.current == 1 and game.phase == MAIN


def test_E_SETUP_2_at_setup_too_at_most_three_resets_then_the_row_stays() -> None:
    rows = [["locomotive", "locomotive", "locomotive", "red", "blue"],
            ["green", "locomotive", "locomotive", "locomotive", "white"],
            ["locomotive", "black", "locomotive", "orange", "locomotive"],
            ["purple", "locomotive", "yellow", "locomotive", "locomotive"]]
    front = ["red"] * 8 + [c for row in rows for c in row]
    game = Game.new(load_map("europe"), 2, decks={"train": ordered_train(front)})
    names = game.map.card_names
    assert [names[c] for c in game.face_up] == rows[3]
    assert [names[c] for c in game.discard] == rows[0] + rows[1] + rows[2]


def test_E_SETUP_1_the_shuffle_depends_on_the_seed_only() -> None:
    a, b, c = new_game("europe", 3, seed=5), new_game("europe", 3, seed=5), new_game("europe", 3, seed=6)
    assert a._initial_train == b._initial_train and a.hands == b.hands and a.face_up == b.face_up
    assert a._initial_train != c._initial_train
    assert sorted(a._initial_train) == sorted(c._initial_train)
