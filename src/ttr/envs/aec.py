"""A PettingZoo AEC environment: every seat is an agent (`player_0` ... ), one Discrete action space."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ttr.envs.core import EnvCore, agent_name, check_reward_mode, resolve_map
from ttr.envs.observation import ObservationEncoder
from ttr.envs.render import BoardPicture, render_frame
from ttr.maps import GameMap

RENDER_MODES = ("human", "ansi", "rgb_array")


def check_render_mode(mode: str | None) -> str | None:
    """`mode` if it is None or a known render mode, else `ValueError` naming them."""
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {', '.join(RENDER_MODES)}, got {mode!r}")
    return mode


def observation_space(encoder: ObservationEncoder, num_actions: int) -> spaces.Dict:
    """The observation space: the vector and the action mask."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, encoder.high, (encoder.size,), np.float32),
        "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
    })


class SeedStream:
    """Game seeds: `reset(seed)` starts a stream, `reset()` without a seed takes the next seed of it."""

    def __init__(self) -> None:
        self._rng = random.Random()

    def next(self, seed: int | None) -> int:
        """The seed of the next game."""
        if seed is not None:
            self._rng = random.Random(seed)
        return self._rng.getrandbits(63)


class TicketToRideAEC(AECEnv):  # type: ignore[misc]  # pettingzoo has no type hints
    """Ticket to Ride as a PettingZoo AEC game; see docs/envs.md for the observation and action layout.

    Rewards come once, when the game ends: `win_loss` (+1 each winner, -1 the others) or `margin` (final
    score minus the best other final score). A game longer than `max_steps` actions is truncated.
    Illegal actions raise `IllegalActionError` and change nothing.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "ttr_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False, "render_fps": 4}

    def __init__(self, map_name: str | GameMap = "europe", num_players: int = 2, render_mode: str | None = None,
                 reward: str = "win_loss", max_steps: int = 20_000) -> None:
        super().__init__()
        self.core = EnvCore(resolve_map(map_name), num_players)
        self.encoder = ObservationEncoder(self.core.map, num_players)
        self.render_mode = check_render_mode(render_mode)
        self.reward_mode = check_reward_mode(reward)
        self.max_steps = max_steps
        self.possible_agents = [agent_name(p) for p in range(num_players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(self.encoder, self.core.num_actions)
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.core.num_actions) for a in self.possible_agents}
        self._seeds = SeedStream()
        self._picture = BoardPicture()
        self.steps = 0
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of `agent` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of `agent` (the same object every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; every shuffle comes from `seed` (without one, the next seed of the last seeded stream)."""
        self.core.reset(self._seeds.next(seed))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self.core.game.current)
        self.steps = 0

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What `agent` sees now, and its action mask (all zero unless it is to move)."""
        seat = self._seat[agent]
        core = self.core
        mine = core.game.current == seat
        mask = np.zeros(core.num_actions, np.int8)
        if mine and not core.is_over and not self.truncations.get(agent, False):
            mask[core.legal_ids()] = 1
        return {"observation": self.encoder.encode(core.game, seat, core.kept if mine else None),
                "action_mask": mask}

    def action_mask(self, agent: str) -> np.ndarray:
        """The action mask of `agent` alone."""
        return self.observe(agent)["action_mask"]

    def step(self, action: int | None) -> None:
        """Play `action` for `agent_selection` (None for an agent whose game has ended)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for an agent whose game has ended")
        self.core.step(int(action))
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        self.steps += 1
        if self.core.is_over:
            for p, value in enumerate(self.core.final_rewards(self.reward_mode)):
                self.rewards[agent_name(p)] = value
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = agent_name(self.core.game.current)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """`ansi`: the text picture; `rgb_array`: the board picture; `human`: prints the text; None: nothing."""
        return render_frame(self.render_mode, self.core.game, self._picture)

    def close(self) -> None:
        """Nothing to release."""


def aec_env(map_name: str | GameMap = "europe", num_players: int = 2, render_mode: str | None = None,
            reward: str = "win_loss", max_steps: int = 20_000) -> TicketToRideAEC:
    """A PettingZoo AEC environment of Ticket to Ride (`map_name`: `europe`, `new_york` or a map file)."""
    return TicketToRideAEC(map_name, num_players, render_mode, reward, max_steps)
