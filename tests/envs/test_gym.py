"""The Gymnasium environment: Gymnasium's checker, bots as opponents, illegal actions, determinism."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

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
