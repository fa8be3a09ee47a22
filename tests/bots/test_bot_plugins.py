"""Bot prefixes from entry points (`ttr.bots.PLUGIN_GROUP`): a package adds `prefix:argument` specs without
`ttr.bots` importing it; ttr's own `policy:` and `policy_sample:` come that way from its installed metadata."""

from __future__ import annotations

import sys
import tomllib
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

import ttr.bots
from ttr.bots import PLUGIN_GROUP, make_bot, plugin_prefixes
from ttr.bots.mcts import MctsBot
from ttr.maps import load_map

ROOT = Path(__file__).resolve().parents[2]

PLUGIN = '''
from ttr.bots.random_bot import RandomBot

NOT_A_FACTORY = 3


class EchoBot(RandomBot):
    name = "echo"


def make(argument, game_map, seat, seed):
    bot = EchoBot(game_map, seat, seed)
    bot.argument = argument
    return bot
'''


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed distribution `ttr-echo-plugin` (its metadata on sys.path) with four `ttr.bots` entry
    points: `echo` (a factory), `broken` (a module that cannot be imported), `three` (not callable) and `mcts`
    (a built-in prefix)."""
    info = tmp_path / "ttr_echo_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ttr-echo-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        f"[{PLUGIN_GROUP}]\necho = ttr_echo_plugin:make\nbroken = ttr_echo_broken:make\n"
        "three = ttr_echo_plugin:NOT_A_FACTORY\nmcts = ttr_echo_plugin:make\n")
    (tmp_path / "ttr_echo_plugin.py").write_text(PLUGIN)
    (tmp_path / "ttr_echo_broken.py").write_text("import ttr_no_such_library  # noqa: F401\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(ttr.bots, "_PLUGINS", {})
    for name in ("ttr_echo_plugin", "ttr_echo_broken"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return tmp_path


def test_an_installed_package_adds_a_bot_prefix(plugin: Path) -> None:
    bot: Any = make_bot("echo:hello", load_map("new_york"), 1, 5)
    assert (bot.name, bot.argument, bot.seat) == ("echo", "hello", 1)
    assert {"broken", "echo", "mcts", "three"} <= set(plugin_prefixes())


def test_a_built_in_prefix_wins_and_needs_no_lookup(plugin: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_lookup(**_: Any) -> None:
        raise AssertionError("entry points looked up for a built-in name or prefix")

    monkeypatch.setattr(ttr.bots, "entry_points", no_lookup)
    game_map = load_map("new_york")
    assert isinstance(make_bot("mcts:4", game_map, 0, 0), MctsBot)
    assert make_bot("greedy", game_map, 0, 0).name == "greedy"


def test_an_unknown_or_broken_prefix_names_the_problem(plugin: Path) -> None:
    game_map = load_map("new_york")
    with pytest.raises(ValueError, match=r"unknown bot prefix 'nobody' in 'nobody:1'.*known: .*cmd:\.\.\., .*echo"):
        make_bot("nobody:1", game_map, 0, 0)
    with pytest.raises(ValueError, match=r"bot prefix broken: cannot load ttr_echo_broken:make \(No module named "
                                         r"'ttr_no_such_library'\)"):
        make_bot("broken:x", game_map, 0, 0)
    with pytest.raises(ValueError, match="bot prefix three: ttr_echo_plugin:NOT_A_FACTORY is not a bot factory"):
        make_bot("three:x", game_map, 0, 0)


def test_the_installed_metadata_declares_pyprojects_bot_prefixes() -> None:
    """ttr's `policy:` prefixes reach the registry only through the installed metadata: an environment installed
    before pyproject.toml's entry points changed needs `scripts/setup` again."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][PLUGIN_GROUP]
    installed = {point.name: point.value for point in entry_points(group=PLUGIN_GROUP)
                 if point.dist is not None and point.dist.name == "ttr-game"}
    assert installed == declared, "the installed ttr-game is older than pyproject.toml: run scripts/setup"
    assert set(declared) == {"policy", "policy_sample"}
