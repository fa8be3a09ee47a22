"""Train a small policy against random opponents with numpy alone, then measure it against random.

The policy is linear softmax over the legal actions only (masked logits): logit(a) = W[a] . x + b[a], with
x the observation vector scaled to [0, 1]. It learns by REINFORCE with a running-mean baseline, the reward
being the final score margin (scaled). Evaluation plays fresh games (seeds never used in training) and
reports the win rate with a 95% Wilson interval, next to the untrained policy (uniformly random legal moves).

    python examples/train_policy.py --map europe --players 2 --minutes 4 --eval-games 200

Needs `pip install 'ttr-game[envs]'`.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field

import numpy as np

from ttr.envs import gym_env
from ttr.envs.gym_env import TicketToRideGym
from ttr.sim.ratings import wilson

EVAL_SEED_BASE = 1_000_000  # evaluation games use seeds from here on; training seeds stay below


class LinearSoftmaxPolicy:
    """logits = W @ x + b over the legal actions; x is the observation scaled by the space's upper bounds."""

    def __init__(self, obs_size: int, num_actions: int, high: np.ndarray, seed: int) -> None:
        self.W = np.zeros((num_actions, obs_size), np.float64)
        self.b = np.zeros(num_actions, np.float64)
        self.scale = 1.0 / np.maximum(high.astype(np.float64), 1.0)
        self.rng = np.random.default_rng(seed)

    def features(self, observation: np.ndarray) -> np.ndarray:
        """The observation scaled to [0, 1]."""
        return observation * self.scale

    def probs(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """The action probabilities over `legal` (indexes of the legal actions)."""
        logits = self.W[legal] @ x + self.b[legal]
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, observation: np.ndarray, mask: np.ndarray, greedy: bool = False) -> tuple[int, np.ndarray,
                                                                                              np.ndarray, int]:
        """(action, features, legal ids, index of the action among them)."""
        x = self.features(observation)
        legal = np.flatnonzero(mask)
        p = self.probs(x, legal)
        i = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[i]), x, legal, i

    def parameters(self) -> np.ndarray:
        """Every parameter as one flat copy (to see that training changes them)."""
        return np.concatenate([self.W.ravel(), self.b])


@dataclass
class Episode:
    """One game's decisions: features, legal ids and the chosen index per step; the final reward."""

    steps: list[tuple[np.ndarray, np.ndarray, int]] = field(default_factory=list)
    reward: float = 0.0
    won: bool = False


def play(env: TicketToRideGym, policy: LinearSoftmaxPolicy, seed: int, greedy: bool = False) -> Episode:
    """One game of the policy's seat against the env's opponents."""
    obs, _ = env.reset(seed=seed)
    episode = Episode()
    done = False
    reward = 0.0
    while not done:
        action, x, legal, i = policy.act(obs["observation"], obs["action_mask"], greedy)
        episode.steps.append((x, legal, i))
        obs, reward, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
    episode.reward = float(reward)
    episode.won = env.core.is_over and env.core.final_rewards("win_loss")[env.seat] > 0
    return episode


def reinforce_update(policy: LinearSoftmaxPolicy, episodes: list[Episode], baseline: float, lr: float,
                     reward_scale: float) -> float:
    """One REINFORCE step over a batch; returns the surrogate loss (mean of -advantage * log pi)."""
    grad_w: dict[int, np.ndarray] = {}
    grad_b = np.zeros_like(policy.b)
    loss = 0.0
    count = 0
    for episode in episodes:
        advantage = (episode.reward - baseline) / reward_scale
        for x, legal, i in episode.steps:
            p = policy.probs(x, legal)
            loss -= advantage * math.log(max(p[i], 1e-12))
            g = -p
            g[i] += 1.0
            g *= advantage
            grad_b[legal] += g
            for a, ga in zip(legal.tolist(), g.tolist(), strict=True):
                if ga:
                    row = grad_w.get(a)
                    if row is None:
                        grad_w[a] = ga * x
                    else:
                        row += ga * x
            count += 1
    count = max(count, 1)
    for a, row in grad_w.items():
        policy.W[a] += lr * row / count
    policy.b += lr * grad_b / count
    return loss / count


def evaluate(env: TicketToRideGym, policy: LinearSoftmaxPolicy, games: int, greedy: bool = False) -> tuple[int, int]:
    """(wins, games) of the policy against the env's opponents on fresh seeds."""
    wins = sum(play(env, policy, EVAL_SEED_BASE + g, greedy).won for g in range(games))
    return wins, games


def train(map_name: str = "europe", players: int = 2, minutes: float = 4.0, batches: int | None = None,
          batch_size: int = 16, lr: float = 0.5, seed: int = 0, log_every: int = 20,
          verbose: bool = True) -> tuple[LinearSoftmaxPolicy, list[float]]:
    """Train against random opponents for `minutes` (or exactly `batches` batches); returns the policy and
    the loss per batch."""
    env = gym_env(map_name, players, opponents="random", reward="margin")
    space = env.observation_space["observation"]
    policy = LinearSoftmaxPolicy(space.shape[0], int(env.action_space.n), space.high, seed)
    rng = np.random.default_rng(seed)
    baseline = 0.0
    reward_scale = 50.0
    losses: list[float] = []
    start = time.monotonic()
    batch = 0
    while (batches is None and time.monotonic() - start < minutes * 60) or (batches is not None and batch < batches):
        episodes = [play(env, policy, int(rng.integers(EVAL_SEED_BASE))) for _ in range(batch_size)]
        mean_reward = float(np.mean([e.reward for e in episodes]))
        baseline = mean_reward if batch == 0 else 0.9 * baseline + 0.1 * mean_reward
        losses.append(reinforce_update(policy, episodes, baseline, lr, reward_scale))
        batch += 1
        if verbose and batch % log_every == 0:
            won = np.mean([e.won for e in episodes])
            print(f"batch {batch:5d}  games {batch * batch_size:6d}  {time.monotonic() - start:6.0f}s  "
                  f"margin {mean_reward:+7.1f}  won {won:.2f}  loss {losses[-1]:+.4f}", flush=True)
    return policy, losses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--map", default="europe")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=4.0, help="training time")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=0.5)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = gym_env(args.map, args.players, opponents="random")
    space = env.observation_space["observation"]
    untrained = LinearSoftmaxPolicy(space.shape[0], int(env.action_space.n), space.high, args.seed)
    wins, games = evaluate(env, untrained, args.eval_games)
    lo, hi = wilson(wins, games)
    print(f"untrained (uniform over legal moves) vs random: won {wins}/{games} = {wins / games:.3f} "
          f"(95% CI {lo:.3f}-{hi:.3f})", flush=True)
    start = time.monotonic()
    policy, _ = train(args.map, args.players, args.minutes, batch_size=args.batch_size, lr=args.lr, seed=args.seed)
    print(f"trained for {time.monotonic() - start:.0f}s", flush=True)
    wins, games = evaluate(env, policy, args.eval_games)
    lo, hi = wilson(wins, games)
    print(f"trained policy vs random: won {wins}/{games} = {wins / games:.3f} (95% CI {lo:.3f}-{hi:.3f})")


if __name__ == "__main__":
    main()
