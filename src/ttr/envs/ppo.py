"""Masked PPO (CleanRL's single-file PPO, with invalid actions masked) on the batched environment; PyTorch on CPU.

`train(PPOConfig(map_name="new_york", opponents=("random", "greedy")))` trains one learning seat against
the opponents (one batched environment per opponent and learning seat, `ttr.envs.vector_env`, so the policy
learns every seat) and returns the policy as a `PolicyNet` (numpy, `ttr.envs.policy_net`) with the training log. The run
is fixed by `seed` and `updates`: the same config trains the same weights (one torch thread). Needs the
`train` extra (torch).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import torch
from torch import nn

from ttr.envs.policy_net import FORMAT, PolicyNet
from ttr.envs.vector import TicketToRideVector


@dataclass
class PPOConfig:
    """What a run trains against and how (CleanRL's defaults where they fit a game of a few hundred steps)."""

    map_name: str = "new_york"
    players: int = 2
    opponents: tuple[str, ...] = ("random", "greedy")  # one batched environment per entry and learning seat
    rows_per_env: int = 4
    steps_per_rollout: int = 128  # per row
    updates: int = 100
    minutes: float | None = None  # stop early after this much wall time
    hidden: tuple[int, ...] = (128, 64)
    learning_rate: float = 2.5e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    epochs: int = 4
    minibatches: int = 4
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    max_grad_norm: float = 0.5
    reward: str = "margin"  # the environments' reward mode
    reward_scale: float = 0.05  # the reward is multiplied by it (a margin of 20 points becomes 1)
    seed: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


class Agent(nn.Module):
    """Actor and critic: an MLP over the scaled observation each (tanh, orthogonal initialisation)."""

    def __init__(self, obs_size: int, num_actions: int, hidden: tuple[int, ...], scale: np.ndarray) -> None:
        super().__init__()
        self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32))

        def mlp(out: int, last_std: float) -> nn.Sequential:
            layers: list[nn.Module] = []
            size = obs_size
            for h in hidden:
                layers += [_layer(nn.Linear(size, h)), nn.Tanh()]
                size = h
            layers.append(_layer(nn.Linear(size, out), last_std))
            return nn.Sequential(*layers)

        self.actor = mlp(num_actions, 0.01)
        self.critic = mlp(1, 1.0)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        """The critic's value of each observation."""
        out: torch.Tensor = self.critic(obs * self.get_buffer("scale")).squeeze(-1)
        return out

    def act(self, obs: torch.Tensor, mask: torch.Tensor,
            action: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """(action, its log-probability, the entropy, the value), the logits of illegal actions masked out."""
        logits = self.actor(obs * self.get_buffer("scale"))
        logits = torch.where(mask, logits, torch.tensor(-1e9))
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(obs)


def _layer(layer: nn.Linear, std: float = float(np.sqrt(2))) -> nn.Linear:
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, 0.0)
    return layer


def to_policy(agent: Agent, config: PPOConfig, log: dict[str, Any]) -> PolicyNet:
    """The actor as a numpy `PolicyNet` (the critic is only for training)."""
    linears = [m for m in agent.actor if isinstance(m, nn.Linear)]
    layers = [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy()) for m in linears]
    scale = agent.get_buffer("scale").numpy().copy()
    meta = {"format": FORMAT, "map": config.map_name, "players": config.players, "obs_size": int(scale.shape[0]),
            "num_actions": int(layers[-1][0].shape[0]), "hidden": list(config.hidden), "activation": "tanh",
            "training": {"algorithm": "masked PPO", "config": asdict(config), **log}}
    return PolicyNet(meta, scale, layers)


def train(config: PPOConfig, report: Callable[[str], None] = print) -> PolicyNet:
    """Train a policy as `config` says; `report` gets a line per update."""
    torch.set_num_threads(1)
    torch.manual_seed(config.seed)
    rng = np.random.default_rng(config.seed)
    envs = [TicketToRideVector(config.rows_per_env, config.map_name, config.players, opponents=spec, seat=seat,
                               reward=config.reward) for spec in config.opponents for seat in range(config.players)]
    single = envs[0].envs[0]
    obs_size, num_actions = single.encoder.size, single.core.num_actions
    scale = (1.0 / np.maximum(single.encoder.high, 1.0)).astype(np.float32)
    agent = Agent(obs_size, num_actions, config.hidden, scale)
    optimizer = torch.optim.Adam(agent.parameters(), lr=config.learning_rate, eps=1e-5)
    rows = config.rows_per_env * len(envs)
    steps = config.steps_per_rollout
    obs_buf = torch.zeros((steps, rows, obs_size))
    mask_buf = torch.zeros((steps, rows, num_actions), dtype=torch.bool)
    act_buf = torch.zeros((steps, rows), dtype=torch.long)
    logp_buf = torch.zeros((steps, rows))
    rew_buf = torch.zeros((steps, rows))
    done_buf = torch.zeros((steps, rows))
    val_buf = torch.zeros((steps, rows))
    start = time.perf_counter()
    firsts = [env.reset(seed=config.seed * 1000 + 100 * k)[0] for k, env in enumerate(envs)]
    next_obs = torch.as_tensor(np.concatenate([o["observation"] for o in firsts]))
    next_mask = torch.as_tensor(np.concatenate([o["action_mask"] for o in firsts]).astype(bool))
    next_done = torch.zeros(rows)
    games = wins = 0
    recent: list[float] = []
    log: dict[str, Any] = {"updates": 0, "games": 0, "steps": 0, "seconds": 0.0, "recent_win_rate": None}
    for update in range(1, config.updates + 1):
        if config.minutes is not None and time.perf_counter() - start > config.minutes * 60:
            break
        for t in range(steps):
            obs_buf[t], mask_buf[t], done_buf[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs, next_mask)
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            ids = action.numpy()
            out_obs, out_mask, out_rew, out_done = [], [], [], []
            for k, env in enumerate(envs):
                part = ids[k * config.rows_per_env:(k + 1) * config.rows_per_env]
                o, r, term, trunc, _ = env.step(part)
                out_obs.append(o["observation"])
                out_mask.append(o["action_mask"])
                out_rew.append(r)
                done = term | trunc
                out_done.append(done)
                for i in np.flatnonzero(term):
                    games += 1
                    won = float(r[i] > 0)
                    wins += int(won)
                    recent.append(won)
            rew_buf[t] = torch.as_tensor(np.concatenate(out_rew) * config.reward_scale, dtype=torch.float32)
            next_obs = torch.as_tensor(np.concatenate(out_obs))
            next_mask = torch.as_tensor(np.concatenate(out_mask).astype(bool))
            next_done = torch.as_tensor(np.concatenate(out_done), dtype=torch.float32)
        with torch.no_grad():  # generalised advantage estimation (same-step autoreset: done ends the game)
            next_value = agent.value(next_obs)
            advantages = torch.zeros_like(rew_buf)
            last = torch.zeros(rows)
            for t in reversed(range(steps)):
                if t == steps - 1:
                    nonterminal, following = 1.0 - next_done, next_value
                else:
                    nonterminal, following = 1.0 - done_buf[t + 1], val_buf[t + 1]
                delta = rew_buf[t] + config.gamma * following * nonterminal - val_buf[t]
                last = delta + config.gamma * config.gae_lambda * nonterminal * last
                advantages[t] = last
            returns = advantages + val_buf
        b_obs, b_mask = obs_buf.reshape(-1, obs_size), mask_buf.reshape(-1, num_actions)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = advantages.reshape(-1), returns.reshape(-1)
        batch = steps * rows
        size = batch // config.minibatches
        for _ in range(config.epochs):
            order = rng.permutation(batch)
            for lo in range(0, batch, size):
                idx = torch.as_tensor(order[lo:lo + size])
                _, logp, entropy, value = agent.act(b_obs[idx], b_mask[idx], b_act[idx])
                ratio = (logp - b_logp[idx]).exp()
                adv = b_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - config.clip, 1 + config.clip)).mean()
                v_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                loss = pg_loss - config.entropy * entropy.mean() + config.value_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), config.max_grad_norm)
                optimizer.step()
        recent = recent[-200:]
        rate = sum(recent) / len(recent) if recent else 0.0
        log = {"updates": update, "games": games, "steps": update * batch,
               "seconds": round(time.perf_counter() - start, 1), "recent_win_rate": round(rate, 3)}
        report(f"update {update}: {update * batch} steps, {games} games, win rate over the last "
               f"{len(recent)} {rate:.3f}, loss {loss.item():.3f}, {log['seconds']:.0f} s")
    for env in envs:
        env.close()
    return to_policy(agent, config, log)


__all__ = ["Agent", "PPOConfig", "to_policy", "train"]
