"""`research/gain_noise.py`: the deck-only reading deals the deck alone again, the spreads are measured per
candidate, and the table splits them by stage with the deck's share of the variance and the pairing."""

from __future__ import annotations

import random
from collections import Counter
from types import ModuleType

from helpers import greedy_main_turn, load_module
from ttr.bots.base import legal_actions
from ttr.bots.mcts import MctsBot
from ttr.engine import Action, SeatView


def load_script() -> ModuleType:
    return load_module("research/gain_noise.py", "gain_noise")


def test_a_deck_dealt_again_keeps_every_hand_ticket_and_face_up_card() -> None:
    script = load_script()
    _, game = greedy_main_turn("europe", 2, seed=4, seat=0, after=20)
    orders = set()
    for k in range(5):
        world = script.deck_redealt(game, random.Random(k))
        assert world.hands == game.hands and world.tickets == game.tickets
        assert world.face_up == game.face_up and world.discard == game.discard
        assert Counter(world._deck) == Counter(game._deck)  # the same cards, in another order
        orders.add(tuple(world._deck))
    assert len(orders) > 1 and game._deck == greedy_main_turn("europe", 2, seed=4, seat=0, after=20)[1]._deck


def test_each_candidate_gets_its_gain_and_a_spread_in_both_readings() -> None:
    script = load_script()
    game_map, game = greedy_main_turn("new_york", 2, seed=2, seat=1, after=10)
    _, legal = legal_actions(game)
    search = MctsBot(game_map, 1, 2, iterations=1)
    rows = script.measure(search, SeatView.of(game, 1), legal, 4, 7, laid=5)
    assert rows  # a main turn has candidates beside the guide's move
    assert all(r.spread >= 0 and r.deck_spread >= 0 and -1.0 <= r.pairing <= 1.0 and r.laid == 5 for r in rows)
    assert any(r.spread > 0 for r in rows)  # different worlds give different gains
    kinds = {"claim", "tickets", "station", "deck", "face-up wild", "face-up colour"}
    assert all(r.guide in kinds and r.kind in kinds for r in rows)
    assert len({r.kind for r in rows}) > 1  # claims and draws are both candidates


def test_a_move_kind_says_where_a_card_comes_from() -> None:
    kind = load_script().move_kind
    assert kind(Action("draw_card", source="deck"), "locomotive") == "deck"
    assert kind(Action("draw_card", source="face_up", card="locomotive"), "locomotive") == "face-up wild"
    assert kind(Action("draw_card", source="face_up", card="red"), "locomotive") == "face-up colour"
    assert kind(Action("claim_route", route="Paris-Brest"), "locomotive") == "claim"
    assert kind(Action("draw_tickets"), "locomotive") == "tickets"


def row(laid: int, spread: float, deck: float, pairing: float, guide: str = "deck", kind: str = "claim",
        mean: float = 0.0, error: float = 1.0) -> object:
    return load_script().Measured(laid, guide, kind, mean, error, spread, deck, pairing)


def test_the_table_gives_each_stage_its_spreads_and_the_decks_share() -> None:
    lines = load_script().summary([row(3, 4.0, 2.0, 0.2), row(5, 4.0, 2.0, 0.4), row(20, 3.0, 3.0, 0.9)], 45)
    assert lines[1].split() == ["0-14", "2", "4.00", "2.00", "0.25", "0.30"]
    assert lines[2].split() == ["15-29", "1", "3.00", "3.00", "1.00", "0.90"]
    assert lines[-1].split()[:2] == ["all", "3"]
    assert len(lines) == 4  # the header, two stages with candidates, and all


def test_the_kinds_table_counts_the_candidates_that_beat_or_lose_to_the_guides_move() -> None:
    rows = [row(3, 1, 1, 0, "face-up wild", "deck", mean=5.0, error=1.0),  # better: 5 >= 2 and >= 2 errors
            row(3, 1, 1, 0, "face-up wild", "deck", mean=3.0, error=2.0),  # within 2 errors: neither
            row(3, 1, 1, 0, "face-up wild", "deck", mean=-4.0, error=1.0),  # worse
            row(9, 1, 1, 0, "claim", "tickets", mean=1.5, error=0.1)]  # under 2 points: not better
    lines = load_script().kinds(rows)
    assert lines[1].split() == ["claim", "->", "tickets", "1", "1.50", "0", "0"]
    assert lines[2].split() == ["face-up", "wild", "->", "deck", "3", "1.33", "1", "1"]
