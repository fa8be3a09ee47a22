"""`scripts/gain_noise.py`: the deck-only reading deals the deck alone again, the spreads are measured per
candidate, and the table splits them by stage with the deck's share of the variance and the pairing."""

from __future__ import annotations

import random
from collections import Counter
from types import ModuleType

from helpers import greedy_main_turn, load_module
from ttr.bots.base import legal_actions
from ttr.bots.mcts import MctsBot
from ttr.engine import seat_view


def load_script() -> ModuleType:
    return load_module("scripts/gain_noise.py", "gain_noise")


def test_a_deck_dealt_again_keeps_every_hand_ticket_and_face_up_card() -> None:
    script = load_script()
    _, game = greedy_main_turn("europe", 2, seed=4, seat=0, after=20)
    orders = set()
    for k in range(5):
        world = script.deck_redealt(game, random.Random(k))
        assert world.hands == game.hands and world.tickets == game.tickets
        assert world.face_up == game.face_up and world.discard == game.discard
        assert Counter(world.deck) == Counter(game.deck)  # the same cards, in another order
        orders.add(tuple(world.deck))
    assert len(orders) > 1 and game.deck == greedy_main_turn("europe", 2, seed=4, seat=0, after=20)[1].deck


def test_each_candidate_gets_a_spread_in_both_readings() -> None:
    script = load_script()
    game_map, game = greedy_main_turn("new_york", 2, seed=2, seat=1, after=10)
    _, legal = legal_actions(game)
    search = MctsBot(game_map, 1, 2, iterations=1)
    rows = script.spreads(search, seat_view(game, 1), legal, 4, 7)
    assert rows  # a main turn has candidates beside the guide's move
    assert all(a >= 0 and b >= 0 and -1.0 <= r <= 1.0 for a, b, r in rows)
    assert any(a > 0 for a, _, _ in rows)  # different worlds give different gains


def test_the_table_gives_each_stage_its_spreads_and_the_decks_share() -> None:
    lines = load_script().summary([(3, 4.0, 2.0, 0.2), (5, 4.0, 2.0, 0.4), (20, 3.0, 3.0, 0.9)], 45)
    assert lines[1].split() == ["0-14", "2", "4.00", "2.00", "0.25", "0.30"]
    assert lines[2].split() == ["15-29", "1", "3.00", "3.00", "1.00", "0.90"]
    assert lines[-1].split()[:2] == ["all", "3"]
    assert len(lines) == 4  # the header, two stages with candidates, and all
