"""`ttr.bots.hint`: the move the hint bot would make, legal, with a reason in words that fits the move."""

from __future__ import annotations

import random

import pytest

from ttr.bots import make_bot
from ttr.bots.hint import HINT_BOT, hint
from ttr.engine import Game, seat_view
from ttr.maps import load_map

OPENINGS = {
    "keep_tickets": "Keep",
    "draw_tickets": "",
    "claim_route": "Claim ",
    "build_station": "A station in ",
    "pay_tunnel": "Pay ",
    "abandon_tunnel": "Abandon ",
    "pass": "No other action",
}


@pytest.mark.parametrize(("map_name", "players", "seed"), [("europe", 3, 4), ("new_york", 2, 1)])
def test_hints_follow_the_hint_bot_with_a_reason(map_name: str, players: int, seed: int) -> None:
    game_map = load_map(map_name)
    game = Game.new(game_map, players, seed=seed)
    rng = random.Random(seed)
    kinds = set()
    while not game.is_over:
        view = seat_view(game, game.current)
        legal = game.legal_actions()
        action, reason = hint(view, legal)
        assert action in legal
        assert action == make_bot(HINT_BOT, game_map, game.current, 0).choose(view, legal)
        assert reason.endswith(".") and len(reason) < 200
        if action.kind == "draw_card":
            expected = "Draw from the deck" if action.source == "deck" else f"Take the face-up {action.card}"
            assert reason.startswith(expected)
        else:
            assert reason.startswith(OPENINGS[action.kind])
        if action.kind == "claim_route":
            assert action.route in reason
        kinds.add(action.kind)
        # Play on with a mix of the hint and random moves so that positions vary.
        game.apply(action if rng.random() < 0.7 else rng.choice(legal))
    assert {"keep_tickets", "claim_route", "draw_card"} <= kinds


def test_a_claim_that_completes_a_ticket_says_so() -> None:
    game_map = load_map("new_york")
    game = Game.new(game_map, 2, seed=1)
    while not game.is_over:
        view = seat_view(game, game.current)
        legal = game.legal_actions()
        action, reason = hint(view, legal)
        if "completes" in reason:
            assert action.kind == "claim_route"
            return
        game.apply(action)
    pytest.fail("no hint completed a ticket in a whole game of hints")


def test_keep_reason_names_the_tickets() -> None:
    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=9)
    action, reason = hint(seat_view(game, 0), game.legal_actions())
    assert action.kind == "keep_tickets"
    assert all(t in reason for t in action.tickets)
    assert "trains" in reason
