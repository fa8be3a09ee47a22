"""The Gymnasium environment: Gymnasium's checker, bots as opponents, illegal actions, determinism."""

from __future__ import annotations

import json
import os
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from helpers import logging_program
from ttr.envs import GYM_ID, gym_env
from ttr.errors import IllegalActionError


@pytest.mark.parametrize("map_name,players,opponents", [("europe", 2, "greedy"), ("new_york", 3, "random")])
def test_gymnasium_check_env(map_name: str, players: int, opponents: str) -> None:
    env = gymnasium.make(GYM_ID, map_name=map_name, num_players=players, opponents=opponents)
    check_env(env.unwrapped)  # made through the registry: the checker also tries every render mode


def play(env: gymnasium.Env, seed: int) -> tuple[list[bytes], float, int]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = [obs["observation"].tobytes()]
    reward, steps = 0.0, 0
    done = False
    while not done:
        assert obs["action_mask"].any()
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, _ = env.step(action)
        seen.append(obs["observation"].tobytes())
        done = terminated or truncated
        steps += 1
    return seen, float(reward), steps


def test_a_whole_game_against_greedy_bots_is_deterministic() -> None:
    env = gym_env("europe", 3, opponents=["greedy", "route_focus"])
    first = play(env, 5)
    assert env.core.is_over and first[1] in (1.0, -1.0)
    assert play(gym_env("europe", 3, opponents=["greedy", "route_focus"]), 5) == first
    assert play(env, 6)[0] != first[0]


def test_the_learning_seat_may_sit_anywhere() -> None:
    env = gym_env("new_york", 3, opponents="random", seat=2, reward="margin")
    env.reset(seed=1)
    assert env.core.game.current == 2
    _, reward, _ = play(env, 1)
    assert reward == env.core.final_rewards("margin")[2]


def test_an_illegal_action_ends_the_episode_or_raises() -> None:
    env = gym_env("europe", 2, opponents="random")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    history = len(env.core.game.history)
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False) and "illegal_action" in info
    assert len(env.core.game.history) == history
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    strict = gym_env("europe", 2, opponents="random", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot 'no_such_bot'"):
        gym_env("europe", 2, opponents="no_such_bot")
    with pytest.raises(ValueError, match="one opponent for every other seat"):
        gym_env("europe", 3, opponents=["greedy"])
    with pytest.raises(ValueError, match="seat"):
        gym_env("europe", 2, seat=2)
    with pytest.raises(ValueError, match="illegal_action"):
        gym_env("europe", 2, illegal_action="ignore")


def test_a_program_opponent_gets_each_episodes_end_and_is_never_left_running(tmp_path: Path) -> None:
    """A `cmd:` opponent is one process per episode: it gets the end of a finished episode, and is closed
    when an unfinished one is reset or the environment closed (it was left running: one process per episode)."""
    command, log = logging_program(tmp_path)
    env = gym_env("new_york", 2, opponents=f"cmd:{command}", seat=1)  # the program moves first, at reset
    play(env, seed=3)
    play(env, seed=4)
    env.reset(seed=5)  # the program keeps its tickets, then the episode is left unfinished
    env.reset(seed=6)
    env.close()
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    pids = list(dict.fromkeys(e["pid"] for e in entries))
    assert len(pids) == 4  # one program per episode
    ends = [e for e in entries if e["type"] == "end"]
    assert [e["pid"] for e in ends] == pids[:2] and all(e["winners"] for e in ends)  # the two finished episodes
    for pid in pids:  # and every process has exited
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
