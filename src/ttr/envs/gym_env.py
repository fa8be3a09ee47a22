"""A Gymnasium single-agent environment: one seat learns, the other seats are played by bots."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ttr.bots import Bot, make_bot
from ttr.bots.base import legal_actions
from ttr.bots.cmd_bot import end_bots
from ttr.engine import SeatView
from ttr.envs.aec import SeedStream, check_render_mode, observation_space
from ttr.envs.core import EnvCore, check_reward_mode, resolve_map
from ttr.envs.observation import ObservationEncoder
from ttr.envs.render import BoardPicture, render_frame
from ttr.maps import GameMap

ILLEGAL_MODES = ("lose", "raise")


class _FastRandom:
    """The `random` opponent: a uniformly random legal id (the `random` bot's policy, without its view)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)


class TicketToRideGym(gym.Env[dict[str, Any], Any]):
    """Ticket to Ride for one learning seat (`seat`) against bots (`opponents`: one bot name for every other
    seat, or one name per other seat, in seat order). Observations and actions are those of the AEC
    environment (docs/envs.md). The reward comes when the game ends (`win_loss` or `margin`).

    An illegal action (one the mask rules out) ends the episode with reward `illegal_reward` and
    `info["illegal_action"]` saying why, the game unchanged (`illegal_action="lose"`, the default), or
    raises `IllegalActionError` (`illegal_action="raise"`).
    """

    # gymnasium declares `metadata` an instance variable, so no ClassVar here
    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, map_name: str | GameMap = "europe", num_players: int = 2,
                 opponents: str | Sequence[str] = "greedy", seat: int = 0, render_mode: str | None = None,
                 reward: str = "win_loss", illegal_action: str = "lose", illegal_reward: float = -1.0,
                 max_steps: int = 10_000) -> None:
        self.core = EnvCore(resolve_map(map_name), num_players)
        if not isinstance(seat, int) or not 0 <= seat < num_players:
            raise ValueError(f"seat must be 0..{num_players - 1}, got {seat!r}")
        names = [opponents] * (num_players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != num_players - 1:
            raise ValueError(f"give one opponent for every other seat ({num_players - 1}), got {len(names)}")
        for spec in names:  # a bad name fails here, not at the first reset
            if spec != "random":
                make_bot(spec, self.core.map, 0, 0)
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_MODES)}, got {illegal_action!r}")
        self.opponent_names = names
        self.seat = seat
        self.encoder = ObservationEncoder(self.core.map, num_players)
        self.render_mode = check_render_mode(render_mode)
        self.reward_mode = check_reward_mode(reward)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_steps = max_steps
        self.observation_space = observation_space(self.encoder, self.core.num_actions)
        self.action_space = spaces.Discrete(self.core.num_actions)
        self._seeds = SeedStream()
        self._picture = BoardPicture()
        self._bots: dict[int, Bot | _FastRandom] = {}
        self.steps = 0
        self.done = False

    # ------------------------------------------------------------------ gymnasium API

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game from `seed`; the bots play until the learning seat is to move."""
        super().reset(seed=seed)
        game_seed = self._seeds.next(seed)
        self.core.reset(game_seed)
        others = [p for p in range(self.core.n) if p != self.seat]
        self._end_bots()  # an episode left unfinished: its programs are closed, not leaked
        for i, (p, spec) in enumerate(zip(others, self.opponent_names, strict=True)):
            bot_seed = (game_seed + 7919 * (i + 1)) % (1 << 63)
            self._bots[p] = _FastRandom(bot_seed) if spec == "random" else make_bot(spec, self.core.map, p, bot_seed)
        self.steps = 0
        self.done = False
        self._play_bots()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play `action` for the learning seat, then the bots until it is to move again or the game ends."""
        if self.done:
            raise RuntimeError("the episode has ended: call reset()")
        aid = int(action)
        why = self.core.why_illegal(aid)
        if why is not None:
            if self.illegal_action == "raise":
                self.core.step(aid)  # raises IllegalActionError with the reason
            self.done = True
            self._end_bots()
            info = self._info()
            info["illegal_action"] = why
            return self._obs(), self.illegal_reward, True, False, info
        reward, terminated, truncated = self.advance(aid)
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, self._info()

    def render(self) -> Any:
        """`ansi`: the text picture; `rgb_array`: the board picture; `human`: prints the text."""
        return render_frame(self.render_mode, self.core.game, self._picture)

    def close(self) -> None:
        """Close the opponents' programs (`cmd:` bots) of an episode still running."""
        self._end_bots()

    # ------------------------------------------------------------------ helpers

    def advance(self, aid: int) -> tuple[float, bool, bool]:
        """Play the legal id `aid` (unchecked) for the learning seat, then the bots until it is to move again;
        (reward, terminated, truncated). The batched environment steps its games through this."""
        self.core.step_unchecked(aid)
        self.steps += 1
        self._play_bots()
        reward = 0.0
        terminated = self.core.is_over
        truncated = not terminated and self.steps >= self.max_steps
        if terminated:
            reward = self.core.final_rewards(self.reward_mode)[self.seat]
        self.done = terminated or truncated
        if self.done:
            self._end_bots()
        return reward, terminated, truncated

    def write_observation(self, vector: np.ndarray, mask: np.ndarray) -> None:
        """Write the learning seat's observation vector and action mask (0/1) into the given rows."""
        core = self.core
        vector[:] = self.encoder.encode(core.game, self.seat, core.kept)
        mask[:] = 0
        if not core.is_over and core.game.current == self.seat and not self.done:
            mask[core.legal_ids()] = 1

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learning seat now, as a bool array (for maskable learners)."""
        mask = np.zeros(self.core.num_actions, bool)
        if not self.core.is_over and self.core.game.current == self.seat and not self.done:
            mask[self.core.legal_ids()] = True
        return mask

    def _obs(self) -> dict[str, np.ndarray]:
        core = self.core
        return {"observation": self.encoder.encode(core.game, self.seat, core.kept),
                "action_mask": self.action_masks().astype(np.int8)}

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat, "steps": self.steps}

    def _end_bots(self) -> None:
        """The episode is over (or abandoned): programs get the end of the game, or are closed (`end_bots`)."""
        if not self._bots:
            return
        bots, self._bots = list(self._bots.values()), {}
        end_bots(bots, self.core.game if self.core.is_over else None)

    def _play_bots(self) -> None:
        """Let the bots move until the learning seat is to move or the game is over."""
        game = self.core.game
        while not game.is_over and game.current != self.seat:
            bot = self._bots[game.current]
            if isinstance(bot, _FastRandom):
                ids = game.legal_ids()
                game.apply_unchecked(ids[bot.rng.randrange(len(ids))])
                continue
            ids, legal = legal_actions(game)
            action = bot.choose(SeatView.of(game, game.current), legal)
            game.apply_id(ids[legal.index(action)])


def gym_env(map_name: str | GameMap = "europe", num_players: int = 2, opponents: str | Sequence[str] = "greedy",
            **kwargs: Any) -> TicketToRideGym:
    """A Gymnasium environment: the learning seat (`seat=0`) against bots (`opponents`, by bot name)."""
    return TicketToRideGym(map_name, num_players, opponents, **kwargs)
