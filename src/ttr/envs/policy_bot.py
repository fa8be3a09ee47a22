"""`policy:PATH`: a trained policy file (`ttr.envs.policy_net`) playing a seat from its view.

The bot registry (`ttr.bots.make_bot`) finds the prefixes `policy` and `policy_sample` through ttr's entry
points in the group `ttr.bots` (pyproject.toml), so the bots never import the environments.

The bot rebuilds the environments' observation vector of its seat from the view (a world dealt from the
view, `ttr.engine.sample.InfoSet`: the observation reads only what the seat sees, so every such world gives
the same vector) and plays the policy's most likely legal action (`policy:PATH`) or a sample from its masked
softmax (`policy_sample:PATH`, seeded). A ticket choice is asked ticket by ticket, as in the environments.
Needs numpy and the envs extra (`pip install 'ttr-game[envs]'`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ttr.bots.base import BaseBot
from ttr.engine import Action, SeatView
from ttr.engine.sample import InfoSet
from ttr.envs.core import EnvCore
from ttr.envs.observation import ObservationEncoder
from ttr.envs.policy_net import PolicyNet
from ttr.maps import GameMap

_LOADED: dict[tuple[str, float], PolicyNet] = {}


def load_policy(path: str) -> PolicyNet:
    """The policy in file `path` (read once per file version); `ValueError` naming the problem."""
    file = Path(path).expanduser()
    if not file.is_file():
        raise ValueError(f"policy:{path}: no such file")
    key = (str(file.resolve()), file.stat().st_mtime)
    net = _LOADED.get(key)
    if net is None:
        net = _LOADED[key] = PolicyNet.load(file)
    return net


class PolicyBot(BaseBot):
    """Plays a trained policy's choice on the seat's observation (argmax, or sampled when `sample`)."""

    name = "policy"

    def __init__(self, net: PolicyNet, game_map: GameMap, seat: int, seed: int, sample: bool = False) -> None:
        super().__init__(game_map, seat, seed)
        self.net = net
        self.sample_rng = np.random.default_rng(seed * 1_000_003 + seat) if sample else None
        self._core: EnvCore | None = None
        self._encoder: ObservationEncoder | None = None

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """The policy's action for the seat to move (a legal one)."""
        players = len(view.players)
        if players != self.net.players:
            raise ValueError(f"the policy was trained for {self.net.players} players, this game has {players}")
        if self._core is None or self._encoder is None:
            self._core = EnvCore(self.game_map, players)
            self._encoder = ObservationEncoder(self.game_map, players)
        core, encoder = self._core, self._encoder
        world = InfoSet(self.game_map, view.to_json()).sample(self.rng)
        core.game = world
        core.kept = []
        mask = np.zeros(core.num_actions, np.int8)
        while True:
            mask[:] = 0
            mask[core.legal_ids()] = 1
            aid = self.net.act(encoder.encode(world, self.seat, core.kept), mask, self.sample_rng)
            if not core.choosing:
                action = world.decode(aid)
                break
            core.kept.append(aid == core.keep_id)
            if len(core.kept) == len(world.offered):
                keep = sum(1 << i for i, k in enumerate(core.kept) if k)
                action = world.decode(core.cat.keep_base + keep)
                break
        if action not in legal:  # a world dealt from the view has the view's legal actions
            raise RuntimeError(f"the policy chose {action}, which the view does not allow")
        return action


def make_policy_bot(argument: str, game_map: GameMap, seat: int, seed: int, sample: bool = False) -> PolicyBot:
    """`policy:PATH` (argmax) or `policy_sample:PATH`: a bot playing the policy file; its map must be this one."""
    if not argument.strip():
        raise ValueError("policy: needs a policy file, e.g. policy:src/ttr/envs/policies/new_york_2p.npz")
    net = load_policy(argument)
    if net.map_name != game_map.name:
        raise ValueError(f"policy:{argument} was trained on {net.map_name}, not {game_map.name}")
    return PolicyBot(net, game_map, seat, seed, sample)


def make_policy_sample_bot(argument: str, game_map: GameMap, seat: int, seed: int) -> PolicyBot:
    """`policy_sample:PATH`: a bot sampling the policy file's masked softmax (seeded)."""
    return make_policy_bot(argument, game_map, seat, seed, sample=True)


__all__ = ["PolicyBot", "load_policy", "make_policy_bot", "make_policy_sample_bot"]
