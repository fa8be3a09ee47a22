"""Bots: programs that play a seat from its view (`ttr.bots.base.Bot`), and the registry of bot names.

`make_bot("greedy", game_map, seat, seed)` builds one; `BOT_NAMES` lists the names. To add a bot, add a
line to `BOTS` (name -> a factory `(game_map, seat, seed) -> Bot`, usually the class). Bot specs with an
argument (`prefix:argument`) go in `PREFIXES` (prefix -> `(argument, game_map, seat, seed) -> Bot`):
`cmd:COMMAND` (a program, `ttr.bots.cmd_bot`) and `mcts:LEVEL` or `mcts:N` (MCTS with `MCTS_LEVELS[LEVEL]` or N
playouts per decision and no time limit, so reproducible from the seed), or `mcts:Ts` (T seconds of CPU per
decision; `mcts` alone searches its fitted playout actions, `ttr.bots.budgets`).

A prefix this package does not define comes from an installed package's entry point in the group
`ttr.bots` (`PLUGIN_GROUP`; name = the prefix, value = a factory like those of `PREFIXES`), looked up only
when a spec's prefix is not built in. ttr itself declares `policy:PATH` / `policy_sample:PATH` (a trained
policy file, `ttr.envs.policy_bot`, needs the envs extra) that way, so this package never imports the
learning environments; another package adds its own prefix the same way (docs/architecture.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import cast

from ttr.bots.base import BaseBot, Bot, BotContext, BotFactory, IllegalBotActionError, play_game
from ttr.bots.cmd_bot import make_cmd_bot
from ttr.bots.greedy import GreedyBot
from ttr.bots.levels import FittedGuide
from ttr.bots.mcts import MctsBot, MctsExpert
from ttr.bots.paper import DestinationHungry, LongRouteJunkie, OneStepThinker, RouteFocus
from ttr.bots.random_bot import RandomBot
from ttr.bots.styles import GreedyLong, GreedyLongDuel, GreedyLongFour
from ttr.maps import GameMap

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "greedy_long": GreedyLong,
    "greedy_long_duel": GreedyLongDuel,
    "greedy_long_four": GreedyLongFour,
    "greedy_long_fitted": FittedGuide,
    "destination_hungry": DestinationHungry,
    "route_focus": RouteFocus,
    "one_step_thinker": OneStepThinker,
    "long_route_junkie": LongRouteJunkie,
    "mcts": MctsBot,
    "easy": LongRouteJunkie,
    "medium": GreedyBot,
    "hard": FittedGuide,
    "expert": MctsExpert,
}

LEVEL_BOTS: dict[str, str] = {"easy": "long_route_junkie", "medium": "greedy", "hard": "greedy_long_fitted",
                              "expert": "expert"}
"""The difficulty levels people meet: level -> the name of the bot that plays it (`BOTS[level]` is that bot)."""

# playouts per decision; a greedy playout of 4-player Europe costs tens of ms, so `mcts:easy` adds about 18 s of
# CPU to a 4-player Europe game (measured), `mcts:expert` hours
MCTS_LEVELS: dict[str, int] = {"easy": 4, "medium": 25, "hard": 300,
                               "expert": 1500}


MAX_MCTS_SECONDS = 600.0  # the longest time budget `mcts:Ts` accepts per decision


def make_mcts_bot(argument: str, game_map: GameMap, seat: int, seed: int) -> Bot:
    """`mcts:LEVEL` (easy 4, medium 25, hard 300, expert 1500 playouts per decision), `mcts:N` playouts, or
    `mcts:Ts` (e.g. `mcts:2s`, `mcts:0.25s`): T seconds of CPU per decision."""
    iterations = MCTS_LEVELS.get(argument)
    if iterations is not None:
        return MctsBot(game_map, seat, seed, iterations=iterations)
    if argument.isdigit() and int(argument) >= 1:
        return MctsBot(game_map, seat, seed, iterations=int(argument))
    if argument.endswith("s"):
        seconds = _seconds(argument[:-1])
        if seconds is not None:
            return MctsBot(game_map, seat, seed, time_limit=seconds)
    levels = ", ".join(MCTS_LEVELS)
    raise ValueError(f"mcts:{argument}: give a level ({levels}), a positive number of iterations, or seconds "
                     f"per decision such as 0.5s (more than 0, at most {MAX_MCTS_SECONDS:g})")


def _seconds(text: str) -> float | None:
    """`text` as a time budget in seconds, or None when it is not a number in (0, MAX_MCTS_SECONDS]."""
    if not re.fullmatch(r"\d+(\.\d*)?|\.\d+", text):
        return None
    seconds = float(text)
    return seconds if 0 < seconds <= MAX_MCTS_SECONDS else None


PrefixFactory = Callable[[str, GameMap, int, int], Bot]
"""A bot spec's factory: `(argument, game_map, seat, seed) -> Bot` for the spec `prefix:argument`."""

PREFIXES: dict[str, PrefixFactory] = {
    "cmd": make_cmd_bot,
    "mcts": make_mcts_bot,
}

PLUGIN_GROUP = "ttr.bots"
"""The entry-point group of the bot prefixes that installed packages add (pyproject.toml
`[project.entry-points."ttr.bots"]`: `prefix = "module:factory"`)."""

_PLUGINS: dict[str, PrefixFactory] = {}  # prefix -> its entry point's factory, loaded once


def plugin_prefixes() -> list[str]:
    """The prefixes the installed packages' `ttr.bots` entry points provide, sorted."""
    return sorted({point.name for point in entry_points(group=PLUGIN_GROUP)})


def _plugin(prefix: str) -> PrefixFactory | None:
    """The factory of the entry point named `prefix` in `PLUGIN_GROUP`, or None when no package provides one;
    `ValueError` naming the prefix when its module cannot be imported (an extra not installed)."""
    factory = _PLUGINS.get(prefix)
    if factory is not None:
        return factory
    points = {point.value: point for point in entry_points(group=PLUGIN_GROUP, name=prefix)}
    if not points:
        return None
    if len(points) > 1:
        raise ValueError(f"bot prefix {prefix}: is provided by several entry points ({', '.join(sorted(points))})")
    (point,) = points.values()
    try:
        loaded = point.load()
    except ImportError as exc:
        raise ValueError(f"bot prefix {prefix}: cannot load {point.value} ({exc})") from exc
    if not callable(loaded):
        raise ValueError(f"bot prefix {prefix}: {point.value} is not a bot factory")
    factory = _PLUGINS[prefix] = cast(PrefixFactory, loaded)
    return factory


BOT_NAMES: list[str] = list(BOTS)


def make_bot(spec: str, game_map: GameMap, seat: int, seed: int) -> Bot:
    """The bot named `spec`: a name of `BOTS`, or `prefix:argument` for a prefix of `PREFIXES` or of an installed
    `ttr.bots` entry point (`PLUGIN_GROUP`)."""
    factory = BOTS.get(spec)
    if factory is not None:
        return factory(game_map, seat, seed)
    prefix, colon, argument = spec.partition(":")
    if colon:
        prefix_factory = PREFIXES.get(prefix) or _plugin(prefix)
        if prefix_factory is not None:
            return prefix_factory(argument, game_map, seat, seed)
    known = ", ".join([*BOTS, *(f"{p}:..." for p in [*PREFIXES, *plugin_prefixes()])])
    if colon:
        raise ValueError(f"unknown bot prefix {prefix!r} in {spec!r}: not built in, and no installed package's "
                         f"{PLUGIN_GROUP!r} entry point provides it (known: {known}; entry points are read from "
                         "installed metadata: a package changed since its install needs installing again)")
    raise ValueError(f"unknown bot {spec!r} (known: {known})")


def check_bot_spec(spec: str, game_map: GameMap) -> None:
    """`ValueError` naming the problem when `spec` cannot make a bot for `game_map` (no program is started:
    a `cmd:` spec needs only a command)."""
    if spec.startswith("cmd:"):
        if not spec[4:].strip():
            raise ValueError("cmd: needs a command, e.g. 'cmd:python3 mybot.py'")
        return
    make_bot(spec, game_map, 0, 0)


__all__ = ["BOTS", "BOT_NAMES", "LEVEL_BOTS", "MCTS_LEVELS", "PLUGIN_GROUP", "PREFIXES", "BaseBot", "Bot", "BotContext",
           "BotFactory", "IllegalBotActionError", "PrefixFactory", "check_bot_spec", "make_bot", "make_mcts_bot",
           "play_game", "plugin_prefixes"]
