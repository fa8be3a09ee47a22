"""examples/train_policy.py: a tiny run of the training loop (the full result is measured, not tested)."""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np

from helpers import load_module


def load_example() -> ModuleType:
    return load_module("examples/train_policy.py", "train_policy_example")


def test_the_training_loop_runs_and_changes_the_policy() -> None:
    example = load_example()
    policy, losses = example.train("new_york", 2, batches=3, batch_size=2, seed=1, verbose=False)
    assert len(losses) == 3 and all(math.isfinite(loss) for loss in losses)
    params = policy.parameters()
    assert np.isfinite(params).all() and np.abs(params).sum() > 0  # it starts at all zeros
    env = example.gym_env("new_york", 2, opponents="random")
    wins, games = example.evaluate(env, policy, 2)
    assert games == 2 and 0 <= wins <= 2


def test_the_policy_only_picks_legal_actions_and_prefers_a_raised_logit() -> None:
    example = load_example()
    env = example.gym_env("new_york", 2, opponents="random")
    space = env.observation_space["observation"]
    policy = example.LinearSoftmaxPolicy(space.shape[0], int(env.action_space.n), space.high, 0)
    obs, _ = env.reset(seed=3)
    legal = np.flatnonzero(obs["action_mask"])
    for _ in range(20):
        action, _, _, _ = policy.act(obs["observation"], obs["action_mask"])
        assert action in legal
    policy.b[legal[-1]] = 50.0
    assert policy.act(obs["observation"], obs["action_mask"], greedy=True)[0] == legal[-1]


def test_wilson_interval() -> None:
    example = load_example()
    lo, hi = example.wilson(50, 100)
    assert lo < 0.5 < hi and math.isclose(0.5 - lo, hi - 0.5)
    lo, hi = example.wilson(200, 200)
    assert 0.98 < lo < 1.0 and math.isclose(hi, 1.0)
