"""Bots: programs that play a seat from its view (`ttr.bots.base.Bot`), and the registry of bot names.

`make_bot("greedy", game_map, seat, seed)` builds one; `BOT_NAMES` lists the names. To add a bot, add a
line to `BOTS` (name -> a factory `(game_map, seat, seed) -> Bot`, usually the class). Bot specs with an
argument (`prefix:argument`) go in `PREFIXES` (prefix -> `(argument, game_map, seat, seed) -> Bot`):
`cmd:COMMAND` (a program, `ttr.bots.cmd_bot`), `policy:PATH` / `policy_sample:PATH` (a trained policy file,
`ttr.bots.policy_bot`) and `mcts:LEVEL` or `mcts:N` (MCTS with `MCTS_LEVELS[LEVEL]` or N
playouts per decision and no time limit, so reproducible from the seed), or `mcts:Ts` (T seconds of CPU per
decision; `mcts` alone searches its fitted playout actions, `ttr.bots.budgets`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

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


def make_policy_bot(argument: str, game_map: GameMap, seat: int, seed: int) -> Bot:
    """`policy:PATH`: a trained policy file playing its most likely legal action (`ttr.bots.policy_bot`;
    needs the envs extra)."""
    from ttr.bots.policy_bot import make_policy_bot as make

    bot: Bot = make(argument, game_map, seat, seed)  # typed here: the compiled build's check skips that module
    return bot


def make_policy_sample_bot(argument: str, game_map: GameMap, seat: int, seed: int) -> Bot:
    """`policy_sample:PATH`: a trained policy file sampling its masked softmax (seeded)."""
    from ttr.bots.policy_bot import make_policy_bot as make

    bot: Bot = make(argument, game_map, seat, seed, sample=True)
    return bot


PREFIXES: dict[str, Callable[[str, GameMap, int, int], Bot]] = {
    "cmd": make_cmd_bot,
    "mcts": make_mcts_bot,
    "policy": make_policy_bot,
    "policy_sample": make_policy_sample_bot,
}

BOT_NAMES: list[str] = list(BOTS)


def make_bot(spec: str, game_map: GameMap, seat: int, seed: int) -> Bot:
    """The bot named `spec` (a name of `BOTS`, or `prefix:argument` for a prefix of `PREFIXES`)."""
    factory = BOTS.get(spec)
    if factory is not None:
        return factory(game_map, seat, seed)
    prefix, colon, argument = spec.partition(":")
    if colon and prefix in PREFIXES:
        return PREFIXES[prefix](argument, game_map, seat, seed)
    known = ", ".join([*BOTS, *(f"{p}:..." for p in PREFIXES)])
    raise ValueError(f"unknown bot {spec!r} (known: {known})")


def check_bot_spec(spec: str, game_map: GameMap) -> None:
    """`ValueError` naming the problem when `spec` cannot make a bot for `game_map` (no program is started:
    a `cmd:` spec needs only a command)."""
    if spec.startswith("cmd:"):
        if not spec[4:].strip():
            raise ValueError("cmd: needs a command, e.g. 'cmd:python3 mybot.py'")
        return
    make_bot(spec, game_map, 0, 0)


__all__ = ["BOTS", "BOT_NAMES", "LEVEL_BOTS", "MCTS_LEVELS", "PREFIXES", "BaseBot", "Bot", "BotContext", "BotFactory",
           "IllegalBotActionError", "check_bot_spec", "make_bot", "make_mcts_bot", "play_game"]
