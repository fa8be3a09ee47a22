"""The PettingZoo AEC environment: PettingZoo's own API, seed and render tests, and what they do not check."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from ttr.envs import aec_env
from ttr.errors import IllegalActionError


@pytest.mark.parametrize("map_name,players", [("europe", 2), ("europe", 5), ("new_york", 2), ("new_york", 4)])
def test_pettingzoo_api_test(map_name: str, players: int) -> None:
    api_test(aec_env(map_name, players), num_cycles=1000)


@pytest.mark.parametrize("map_name,players", [("europe", 3), ("new_york", 3)])
def test_pettingzoo_seed_test(map_name: str, players: int) -> None:
    seed_test(lambda: aec_env(map_name, players), num_cycles=300)


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    def make(render_mode: str | None = None) -> Any:
        return aec_env("new_york", 2, render_mode=render_mode)

    render_test(make)
    assert "New York" in capsys.readouterr().out  # the human mode printed the text picture


def test_rgb_array_is_the_board_with_claimed_routes() -> None:
    env = aec_env("europe", 2, render_mode="rgb_array")
    env.reset(seed=1)
    empty = env.render()
    assert empty.dtype == np.uint8 and empty.ndim == 3 and empty.shape[2] == 3 and empty.shape[0] > 200
    rng = random.Random(0)
    while not any(o >= 0 for o in env.core.game.owner):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
    claimed = env.render()
    assert claimed.shape == empty.shape and not np.array_equal(claimed, empty)


def play_to_end(env: Any, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = random.Random(seed)
    totals: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(100_000):
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert legal == env.core.legal_ids()
        env.step(rng.choice(legal))
    return totals


def test_rewards_reach_every_agent_once_the_game_ends() -> None:
    env = aec_env("new_york", 3, reward="margin")
    totals = play_to_end(env, 4)
    assert not env.agents
    assert list(totals.values()) == env.core.final_rewards("margin")
    env = aec_env("new_york", 3)
    totals = play_to_end(env, 4)
    assert sorted(totals.values())[-1] == 1.0 and -1.0 in totals.values()


def test_same_seed_same_game_other_seed_other_game() -> None:
    def trace(seed: int) -> list[Any]:
        env = aec_env("europe", 2)
        env.reset(seed=seed)
        rng = random.Random(0)
        out = []
        for _ in range(60):
            obs = env.observe(env.agent_selection)
            out.append(obs["observation"].tobytes())
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        return out

    assert trace(7) == trace(7)
    assert trace(7) != trace(8)


def test_only_the_agent_to_move_has_legal_actions_and_illegal_ones_raise() -> None:
    env = aec_env("europe", 3)
    env.reset(seed=2)
    mover = env.agent_selection
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == mover)
    before = env.observe(mover)["observation"]
    with pytest.raises(IllegalActionError):
        env.step(env.core.cat.draw_deck)  # setup: tickets first
    with pytest.raises(ValueError, match="None"):
        env.step(None)
    assert np.array_equal(env.observe(mover)["observation"], before)


def test_truncation_after_max_steps() -> None:
    env = aec_env("europe", 2, max_steps=5)
    env.reset(seed=0)
    for _ in range(5):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        aec_env("europe", 2, render_mode="video")
    with pytest.raises(ValueError, match="reward"):
        aec_env("europe", 2, reward="points")
    with pytest.raises(ValueError, match="2-4 players"):
        aec_env("new_york", 5)
