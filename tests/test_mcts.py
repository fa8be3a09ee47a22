"""`mcts` (information-set MCTS): legal whole games on both maps with a tiny budget, reproducible by seed."""

from __future__ import annotations

import random

import pytest

from ttr.bots import make_bot, play_game
from ttr.bots.mcts import MctsBot, candidate_ids
from ttr.bots.mcts_policy import estimate, rewards, rollout, ticket_paths
from ttr.engine import Game, final_score, seat_view
from ttr.maps import load_map


class TinyMcts(MctsBot):
    name = "tiny"
    iterations = 4
    depth = 6


@pytest.mark.parametrize(("map_name", "players"), [("europe", 2), ("new_york", 3)])
def test_tiny_mcts_plays_legal_games(map_name: str, players: int) -> None:
    game_map = load_map(map_name)
    bots = [TinyMcts(game_map, 0, 1)] + [make_bot("random", game_map, s, 1) for s in range(1, players)]
    game = play_game(game_map, bots, seed=1)  # strict: an illegal choice would raise
    assert game.is_over
    again = play_game(game_map, [TinyMcts(game_map, 0, 1)] +
                      [make_bot("random", game_map, s, 1) for s in range(1, players)], seed=1)
    assert again.history == game.history  # same seeds, same game


def test_candidates_are_legal_and_keep_every_route_and_draw() -> None:
    game_map = load_map("europe")
    rng = random.Random(3)
    for seed in range(3):
        game = Game.new(game_map, 4, seed=seed)
        while not game.is_over:
            ids = game.legal_ids()
            cands = candidate_ids(game)
            assert set(cands) <= set(ids) and cands == sorted(cands)
            cat = game.cat
            claims = {cat.a[i] for i in ids if cat.kind[i] == 4}
            assert {cat.a[i] for i in cands if cat.kind[i] == 4} == claims  # one card set per route at least
            assert [i for i in ids if cat.kind[i] in (0, 1, 2)] == [i for i in cands if cat.kind[i] in (0, 1, 2)]
            game.apply_id(ids[rng.randrange(len(ids))])


def test_rollout_and_evaluation() -> None:
    game_map = load_map("new_york")
    game = Game.new(game_map, 2, seed=4)
    rng = random.Random(0)
    while game.phase != 1:  # past the setup choice
        rollout(game, rng, 1)
    before = estimate(game)
    assert len(before) == 2
    rollout(game, rng, 10_000)
    assert game.is_over
    assert estimate(game) == [float(p.total) for p in final_score(game).players]  # exact at the end
    values = rewards(game, 20.0)
    assert all(0.0 <= v <= 1.0 for v in values)
    winners = final_score(game).winners
    for p, v in enumerate(values):
        assert (v >= 0.5) == (game.players[p] in winners)


def test_a_completed_ticket_is_worth_its_points() -> None:
    game_map = load_map("new_york")
    game = Game.new(game_map, 2, seed=1)
    while game.phase != 1:
        game.apply_id(game.legal_ids()[-1])  # keep every ticket offered
    base = estimate(game)[0]
    (_, cost, path), *_ = ticket_paths(game, 0)
    assert cost > 0 and path
    for r in path:  # seat 0 holds the whole path: the ticket is done
        game.owner[r] = 0
    game._rebuild_indexes()
    assert ticket_paths(game, 0)[0][1] == 0
    assert estimate(game)[0] > base


def test_a_small_search_beats_the_first_legal_action() -> None:
    game_map = load_map("new_york")
    game = Game.new(game_map, 2, seed=0)
    bot = MctsBot(game_map, 0, 0, iterations=60, depth=4)
    while not game.is_over:
        view = seat_view(game, game.current)
        legal = game.legal_actions()
        action = bot.choose(view, legal) if game.current == 0 else legal[0]
        assert action in legal
        game.apply(action)
    assert bot.last_iterations == 60
    score = final_score(game)
    assert score.players[0].total > score.players[1].total  # against "always the first legal action"


def test_difficulty_names() -> None:
    game_map = load_map("europe")
    assert make_bot("easy", game_map, 0, 0).name == "long_route_junkie"
    assert make_bot("medium", game_map, 0, 0).name == "greedy"
    hard, expert = make_bot("hard", game_map, 0, 0), make_bot("expert", game_map, 0, 0)
    assert isinstance(hard, MctsBot) and isinstance(expert, MctsBot)
    assert (hard.iterations or 0) < (expert.iterations or 0)
