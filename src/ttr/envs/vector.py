"""A batched Gymnasium environment: N games of one learning seat against bots, stepped in one call.

`TicketToRideVector(num_envs, map_name, num_players, opponents)` is a `gymnasium.vector.VectorEnv`: the
observation is a dict of numpy arrays, `observation` of shape (N, size) and `action_mask` of shape (N,
actions), the action an array of N ids. Autoreset is **same-step** (`metadata["autoreset_mode"]` is
`AutoresetMode.SAME_STEP`): when game i ends, the step that ended it returns the reward and
terminated/truncated flag of that game, and row i of the observation is already the first observation of
the next game, with that game's valid mask; the finished game's observation and info are in
`infos["final_obs"][i]` and `infos["final_info"][i]` (`infos["_final_obs"]` marks which rows ended). So
every row's mask always holds at least one legal id and a masked policy never sees an all-zero mask.

Seeds: `reset(seed=s)` seeds game i with `s + i` (as Gymnasium's own vector environments do), `reset(seed=[s0,
s1, ...])` gives one seed per game (None: that game continues its stream); each later game of row i comes
from row i's seed stream, so a run is reproduced by its reset seed and its actions. Row i plays exactly the
games `gym_env(...)` would play reset with row i's seed and then reset without a seed at each episode end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ttr.envs.core import resolve_map
from ttr.envs.gym_env import TicketToRideGym
from ttr.errors import IllegalActionError
from ttr.maps import GameMap


class TicketToRideVector(VectorEnv):
    """`num_envs` games of `TicketToRideGym` (one learning seat, `seat`, against `opponents`) in one batch.

    Actions must be legal (the mask of their row): an illegal id raises `IllegalActionError` naming the row
    and why, before any game moves. `envs[i]` is row i's single environment (for analysis).
    """

    # gymnasium declares `metadata` an instance variable, so no ClassVar here
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(self, num_envs: int, map_name: str | GameMap = "europe", num_players: int = 2,
                 opponents: str | Sequence[str] = "greedy", seat: int = 0, reward: str = "win_loss",
                 max_steps: int = 10_000) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        game_map = resolve_map(map_name)
        self.envs = [TicketToRideGym(game_map, num_players, opponents, seat=seat, reward=reward,
                                     illegal_action="raise", max_steps=max_steps) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.render_mode = None
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._vectors = np.zeros((num_envs, first.encoder.size), np.float32)
        self._masks = np.zeros((num_envs, first.core.num_actions), np.int8)
        self._started = False

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """New games in every row: `seed` an int (row i gets `seed + i`), a list of one seed per row, or None."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"give one seed per sub-environment ({self.num_envs}), got {len(seeds)}")
        super().reset(seed=seed if isinstance(seed, int) else None)
        for i, (env, s) in enumerate(zip(self.envs, seeds, strict=True)):
            env.reset(seed=s)
            env.write_observation(self._vectors[i], self._masks[i])
        self._started = True
        return self._observation(), {}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play one action per row; rows whose game ended are reset in the same step (see the module doc)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        ids = np.asarray(actions).reshape(-1)
        if ids.shape != (self.num_envs,) or not np.issubdtype(ids.dtype, np.integer):
            raise ValueError(f"give {self.num_envs} integer action ids, got {np.asarray(actions)!r}")
        masks = self._masks
        aids = ids.tolist()
        for i, aid in enumerate(aids):  # every action checked before any game moves
            if not 0 <= aid < masks.shape[1] or not masks[i, aid]:
                why = self.envs[i].core.why_illegal(aid) or "not the learning seat's move"
                raise IllegalActionError(f"sub-environment {i}, action {aid}: {why}", "")
        rewards = np.zeros(self.num_envs, np.float64)
        terminations = np.zeros(self.num_envs, np.bool_)
        truncations = np.zeros(self.num_envs, np.bool_)
        infos: dict[str, Any] = {}
        for i, (env, aid) in enumerate(zip(self.envs, aids, strict=True)):
            reward, terminated, truncated = env.advance(aid)
            env.write_observation(self._vectors[i], masks[i])
            if terminated or truncated:
                rewards[i], terminations[i], truncations[i] = reward, terminated, truncated
                final = {"observation": self._vectors[i].copy(), "action_mask": masks[i].copy()}
                infos = self._add_info(infos, {"final_obs": final, "final_info": env._info()}, i)
                env.reset()  # the next game of this row's seed stream
                env.write_observation(self._vectors[i], masks[i])
        return self._observation(), rewards, terminations, truncations, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every row now, as a bool array of shape (N, actions) (for maskable learners)."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        """Close the opponents' programs (`cmd:` bots) of games still running."""
        for env in self.envs:
            env.close()

    def _observation(self) -> dict[str, np.ndarray]:
        return {"observation": self._vectors.copy(), "action_mask": self._masks.copy()}


def vector_env(num_envs: int, map_name: str | GameMap = "europe", num_players: int = 2,
               opponents: str | Sequence[str] = "greedy", **kwargs: Any) -> TicketToRideVector:
    """A batched environment of `num_envs` games (same-step autoreset; see `TicketToRideVector`)."""
    return TicketToRideVector(num_envs, map_name, num_players, opponents, **kwargs)


__all__ = ["TicketToRideVector", "vector_env"]
