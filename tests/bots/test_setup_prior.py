"""`ttr.bots.setup_prior`: how a policy keeps its long ticket at setup, and the search dealing by it."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from helpers import greedy_main_turn
from ttr.bots.greedy import GreedyBot
from ttr.bots.mcts import MctsBot, MctsExpert
from ttr.bots.setup_prior import long_held_odds
from ttr.bots.styles import GreedyLong
from ttr.engine import seat_view
from ttr.engine.sample import InfoSet
from ttr.maps import load_map


def test_greedy_keeps_its_long_ticket_far_more_often_than_a_uniform_keep_would() -> None:
    """E-SETUP-5: of 1 long and 3 regular tickets a seat keeps at least 2; greedy keeps the long one in
    most deals (uniformly drawn keep-sets of 2 hold it half the time, of 3 three times in four)."""
    odds = long_held_odds(load_map("europe"), GreedyBot, 2)
    assert set(odds) == {1, 2, 3, 4}
    assert all(len(row) == 2 and sum(row) == pytest.approx(1.0) and min(row) >= 0 for row in odds.values())
    assert odds[4] == [0.0, 1.0]  # keeping all four holds the long one
    assert odds[2][1] > 0.7 and odds[3][1] > 0.9
    assert odds[1] == pytest.approx([0.75, 0.25])  # greedy never keeps a single ticket: the prior alone
    assert long_held_odds(load_map("europe"), GreedyBot, 2) is odds  # cached with the map
    assert long_held_odds(load_map("europe"), GreedyLong, 2) != odds  # per policy
    assert long_held_odds(load_map("new_york"), GreedyBot, 2) == {}  # no long tickets


def _long_worlds(bot: MctsBot, info: InfoSet, seed: int, worlds: int) -> int:
    """How many of `worlds` sampled worlds deal seat 1 a long ticket."""
    rng = random.Random(seed)
    game_map = bot.game_map
    return sum(any(game_map.tickets[t].long for t in bot.sample_world(info, rng).tickets[1])
               for _ in range(worlds))


def test_the_search_deals_the_other_seats_long_tickets_as_its_model_of_them_keeps_them() -> None:
    """With `setup_prior` (and not the whole keep of `assume_greedy_setup_keeps`) the search's worlds hold
    another seat's long ticket as often as greedy keeps one with that many tickets; without it, as often as a uniform
    keep-set would."""
    for seed in range(40):  # a deal where the other seat kept 2 tickets, its long one among them
        game_map, game = greedy_main_turn("europe", 2, seed, seat=0)
        info = InfoSet(game_map, seat_view(game, 0))
        if info.setup_keep(1) == 2 and any(game_map.tickets[t].long for t in game.tickets[1]):
            break
    else:
        raise AssertionError("no deal where greedy kept 2 tickets with its long one")
    prior_only = replace(MctsBot.config, assume_greedy_setup_keeps=False)
    with_prior = MctsBot(game_map, 0, 1, iterations=10, config=prior_only)
    without = MctsBot(game_map, 0, 1, iterations=10, config=replace(prior_only, setup_prior=False))
    held = _long_worlds(with_prior, info, 3, 400)
    assert abs(held / 400 - long_held_odds(game_map, GreedyBot, 2)[2][1]) < 0.07
    assert 0.4 < _long_worlds(without, info, 3, 400) / 400 < 0.6
    assert with_prior._long_held(info) == [None, long_held_odds(game_map, GreedyBot, 2)[2]]


def test_a_mix_of_opponent_models_averages_their_odds_and_new_york_has_none() -> None:
    game_map, game = greedy_main_turn("europe", 2, 1, seat=0)
    info = InfoSet(game_map, seat_view(game, 0))
    k = info.setup_keep(1)
    row = MctsExpert(game_map, 0, 1)._long_held(info)
    assert row is not None and row[0] is None
    expected = [(a + b) / 2 for a, b in zip(long_held_odds(game_map, GreedyBot, 2)[k],
                                             long_held_odds(game_map, GreedyLong, 2)[k], strict=True)]
    assert row[1] == pytest.approx(expected)
    ny_map, ny_game = greedy_main_turn("new_york", 2, 1, seat=0)
    assert MctsBot(ny_map, 0, 1, iterations=10)._long_held(InfoSet(ny_map, seat_view(ny_game, 0))) is None
