"""Trained policies: the numpy policy file, the `policy:` bot, and a seconds-long PPO run (skipped without torch)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

import ttr.bots
from ttr.bots import make_bot, play_game
from ttr.bots.base import legal_actions
from ttr.engine import SeatView
from ttr.envs import gym_env
from ttr.envs.policy_net import FORMAT, PolicyNet
from ttr.maps import load_map
from ttr.sim.tournament import TournamentConfig, run_tournament

HAS_TORCH = importlib.util.find_spec("torch") is not None
SHIPPED = Path(__file__).resolve().parents[2] / "src" / "ttr" / "envs" / "policies"


def random_policy(map_name: str, players: int, seed: int = 0) -> PolicyNet:
    """A policy with random weights (it plays legal moves; it is not trained)."""
    env = gym_env(map_name, players, opponents="random")
    rng = np.random.default_rng(seed)
    size, actions = env.encoder.size, env.core.num_actions
    layers = [(rng.normal(0, 0.3, (16, size)), rng.normal(0, 0.1, 16)),
              (rng.normal(0, 1.0, (actions, 16)), rng.normal(0, 1.0, actions))]
    meta = {"format": FORMAT, "map": map_name, "players": players, "obs_size": size, "num_actions": actions,
            "hidden": [16], "activation": "tanh", "training": {}}
    return PolicyNet(meta, 1.0 / np.maximum(env.encoder.high, 1.0), layers)


def test_a_policy_file_round_trips(tmp_path: Path) -> None:
    net = random_policy("new_york", 2)
    path = tmp_path / "p.npz"
    net.save(path)
    back = PolicyNet.load(path)
    assert back.meta == net.meta
    obs = np.random.default_rng(1).random(net.meta["obs_size"]).astype(np.float32)
    assert np.allclose(back.logits(obs), net.logits(obs), atol=0.05)  # float16 storage
    (tmp_path / "bad.npz").write_bytes(b"not a policy")
    with pytest.raises(ValueError, match="not a readable ttr policy"):
        PolicyNet.load(tmp_path / "bad.npz")


def test_the_policy_bot_plays_what_the_policy_plays_in_the_environment(tmp_path: Path) -> None:
    """Seat by seat, the bot (from the seat's view) makes the choice the policy makes on the environment's
    observation, ticket choices included."""
    net = random_policy("new_york", 2, seed=3)
    path = tmp_path / "p.npz"
    net.save(path)
    net = PolicyNet.load(path)
    env = gym_env("new_york", 2, opponents="random")
    bot = make_bot(f"policy:{path}", load_map("new_york"), 0, 0)
    obs, _ = env.reset(seed=4)
    done, checked = False, 0
    while not done:
        game = env.core.game
        expected = None
        if not env.core.kept:
            _, legal = legal_actions(game)
            expected = bot.choose(SeatView.of(game, 0), legal)
        aid = net.act(obs["observation"], obs["action_mask"])
        before = len(game.history)
        obs, _, terminated, truncated, _ = env.step(aid)
        done = terminated or truncated
        if expected is not None and len(game.history) > before:
            played = game.decode(game.history[before][1])
            assert played == expected
            checked += 1
    assert checked > 10


def test_without_the_envs_extra_a_policy_spec_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    """`policy:` is an entry point into `ttr.envs`; with gymnasium missing, the registry's error names the extra."""
    for name in [name for name in sys.modules if name == "ttr.envs" or name.startswith("ttr.envs.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "gymnasium", None)  # `import gymnasium` fails as if not installed
    monkeypatch.setattr(ttr.bots, "_PLUGINS", {})
    with pytest.raises(ValueError, match=r"bot prefix policy: cannot load ttr\.envs\.policy_bot:make_policy_bot "
                                         r"\(ttr\.envs needs the envs extra: pip install 'ttr-game\[envs\]'"):
        make_bot(f"policy:{SHIPPED / 'new_york_2p.npz'}", load_map("new_york"), 0, 0)


def test_policy_sample_plays_a_seeded_game() -> None:
    """`policy_sample:` (the second entry point) samples its policy: legal moves to the end, the same game from
    the same seed."""
    game_map = load_map("new_york")
    spec = f"policy_sample:{SHIPPED / 'new_york_2p.npz'}"
    games = [play_game(game_map, [make_bot(spec, game_map, 0, 7), make_bot("random", game_map, 1, 7)], 7)
             for _ in range(2)]
    assert all(game.is_over for game in games)
    assert games[0].history == games[1].history


def test_a_tournament_seats_a_policy_file(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    random_policy("new_york", 2).save(path)
    result = run_tournament(TournamentConfig("new_york", 2, (f"policy:{path}", "random"), games=4))
    assert [row["seats_played"] for row in result["standings"]] == [4, 4]
    with pytest.raises(ValueError, match="trained on new_york, not europe"):
        make_bot(f"policy:{path}", load_map("europe"), 0, 0)
    with pytest.raises(ValueError, match="no such file"):
        make_bot(f"policy:{tmp_path / 'missing.npz'}", load_map("new_york"), 0, 0)


@pytest.mark.parametrize("name,map_name", [("new_york_2p.npz", "new_york"), ("europe_2p.npz", "europe")])
def test_the_shipped_policies_load_and_are_small(name: str, map_name: str) -> None:
    path = SHIPPED / name
    if not path.exists():
        pytest.skip(f"{name} is not in this checkout")
    assert path.stat().st_size < 1_000_000
    net = PolicyNet.load(path)
    assert net.map_name == map_name and net.players == 2
    assert net.meta["training"]["algorithm"] == "masked PPO"


@pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed (pip install 'ttr-game[train]'): no PPO training")
def test_a_short_ppo_run_trains_and_saves_a_playable_policy(tmp_path: Path) -> None:
    from ttr.envs.ppo import PPOConfig, train

    lines: list[str] = []
    config = PPOConfig(map_name="new_york", opponents=("random",), rows_per_env=2, steps_per_rollout=16, updates=2,
                       hidden=(16,), seed=1)
    net = train(config, report=lines.append)
    assert len(lines) == 2 and net.meta["training"]["updates"] == 2
    again = train(config, report=lambda _: None)
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(net.layers, again.layers, strict=True))  # seeded
    fresh = train(PPOConfig(**{**config.__dict__, "updates": 0}), report=lambda _: None)
    assert not np.array_equal(net.layers[0][0], fresh.layers[0][0])  # the updates changed the weights
    assert fresh.meta["training"]["updates"] == fresh.meta["training"]["games"] == 0
    path = tmp_path / "ppo.npz"
    net.save(path)
    result = run_tournament(TournamentConfig("new_york", 2, (f"policy:{path}", "random"), games=2))
    assert [row["seats_played"] for row in result["standings"]] == [2, 2]
