"""Agents on `python_ttr` against the ttr bots on paired deals (`ttr.envs.openspiel_play`), and a seconds-long
run of `scripts/train_nfsp.py` (OpenSpiel's PyTorch NFSP; skipped without torch or dm-tree)."""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from helpers import load_module  # noqa: E402
from ttr.envs.openspiel_play import info_scale, play_one, play_paired  # noqa: E402
from ttr.sim.ratings import wilson  # noqa: E402

HAS_NFSP = all(importlib.util.find_spec(name) is not None for name in ("torch", "tree"))


def new_york() -> Any:
    return pyspiel.load_game("python_ttr(map=new_york,players=2)")


def test_every_seating_of_a_deal_starts_from_the_same_deal() -> None:
    game = new_york()
    openings: dict[tuple[int, int], list[Any]] = {}

    def recorder(deal: int, seat: int) -> Any:
        def act(state: Any, player: int, rng: np.random.Generator) -> int:
            assert player == seat
            engine = state.core.game
            openings.setdefault((deal, seat), [[list(h) for h in engine.hands], list(engine.face_up)])
            return int(rng.choice(state.legal_actions()))
        return act

    for deal in (5, 6):
        for seat in (0, 1):
            share = play_one(game, recorder(deal, seat), seat, "random", deal)
            assert share in (0.0, 0.5, 1.0)
    assert openings[5, 0] == openings[5, 1]
    assert openings[6, 0] == openings[6, 1]
    assert openings[5, 0] != openings[6, 0]


def test_paired_results_count_every_game_and_repeat_for_a_seed() -> None:
    game = new_york()

    def first_legal(state: Any, player: int, rng: np.random.Generator) -> int:
        return int(state.legal_actions()[0])

    result = play_paired(game, first_legal, "greedy", 2, 100)
    assert (result.opponent, result.deals, result.games) == ("greedy", 2, 4)
    assert 0 <= result.wins <= result.games
    assert play_paired(game, first_legal, "greedy", 2, 100) == result
    scale = info_scale(game)
    assert scale.shape == (game.information_state_tensor_size(),) and scale.min() >= 1.0
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert np.asarray(state.information_state_tensor(0)).max() <= scale.max()
    lo, hi = wilson(result.wins, result.games)
    assert 0.0 <= lo <= hi <= 1.0


@pytest.mark.skipif(not HAS_NFSP, reason="torch or dm-tree is not installed (OpenSpiel's PyTorch NFSP needs both)")
def test_a_short_nfsp_run_learns_and_plays_on_paired_deals() -> None:
    import torch

    script = load_module("scripts/train_nfsp.py", "train_nfsp")
    game = new_york()
    config = script.Config(episodes=2, minutes=None, hidden=(16,), reservoir=500, replay=500, anticipatory=0.5,
                           batch_size=16, learn_every=8, min_buffer=16, log_every=1000, seed=3)

    def trained() -> tuple[list[Any], list[dict[str, torch.Tensor]], tuple[int, int, float, float]]:
        agents = script.make_agents(game, config)
        before = [{k: v.clone() for k, v in a._avg_network.state_dict().items()} for a in agents]
        return agents, before, script.train(game, agents, config)

    agents, before, (episodes, decisions, _, _) = trained()
    assert episodes == 2 and decisions > 2 * 20
    assert any(a.loss[0] is not None for a in agents)  # the average policy was fitted
    changed = [any(not torch.equal(v, b[k]) for k, v in a._avg_network.state_dict().items())
               for a, b in zip(agents, before, strict=True)]
    assert any(changed)
    again, _, (episodes_again, decisions_again, _, _) = trained()
    assert (episodes_again, decisions_again) == (episodes, decisions)  # seeded: the same games
    for a, b in zip(agents, again, strict=True):
        for k, v in a._avg_network.state_dict().items():
            assert torch.equal(v, b._avg_network.state_dict()[k])
    result = play_paired(game, script.average_policy(game, agents), "random", 1, script.EVAL_SEED)
    assert result.games == 2 and 0 <= result.wins <= 2
    table = script.table(config, [result])
    assert table.splitlines()[2].startswith("| NFSP, New York, 2 players | `random` |")
