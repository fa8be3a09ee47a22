"""What a bot is, how one is built, and how a game between bots is run.

A bot sees only what its seat may see (`ttr.engine.views.SeatView`, typed and frozen) and the list of legal
actions; it never touches the `Game`. Every bot class is built the same way, `Cls(game_map, seat, seed)`, so a
registry entry is just the class (see `ttr.bots.make_bot`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ttr.engine import Action, Game, SeatView
from ttr.engine import actions as A
from ttr.maps import GameMap

MAX_ACTIONS = 20_000  # far more than any real game takes; a guard against a bot that loops forever


class Bot(Protocol):
    """A player program: given the seat's view and the legal actions, pick one of the actions."""

    name: str

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """One action out of `legal` (the bot's seat is to move; `view` is what that seat sees,
        `SeatView.of(game, seat)`)."""
        ...


BotFactory = Callable[[GameMap, int, int], Bot]
"""Builds a bot for (map, seat, seed); every bot class is one."""


@dataclass(frozen=True, slots=True)
class BotContext:
    """What a bot is told when it is built: the map (public rules and board), its seat, its seed."""

    game_map: GameMap
    seat: int
    seed: int

    def rng(self) -> random.Random:
        """A random generator fixed by (seed, seat): two seats with one seed still differ."""
        return random.Random(self.seed * 1_000_003 + self.seat)


class BaseBot:
    """Convenience base class: stores the `BotContext` and a seeded `rng`; subclasses set `name`."""

    name = "base"

    def __init__(self, game_map: GameMap, seat: int, seed: int) -> None:
        self.ctx = BotContext(game_map, seat, seed)
        self.game_map = game_map
        self.seat = seat
        self.rng = self.ctx.rng()

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """Subclasses decide; the base plays the first legal action."""
        return legal[0]


STATIC_KINDS = A.STATIC_KINDS  # actions whose decoding depends only on the id (`ttr.engine.actions`)


def legal_actions(game: Game) -> tuple[list[int], list[Action]]:
    """`game.legal_ids()` and the same actions as `Action` values (equal to `game.legal_actions()`; the
    catalogue decodes an id once where the id alone fixes the action)."""
    ids = game.legal_ids()
    return ids, [game.decode(aid) for aid in ids]


class IllegalBotActionError(ValueError):
    """A bot answered with an action that is not in the legal list."""


def play_game(
    game_map: GameMap,
    bots: Sequence[Bot],
    seed: int,
    players: Sequence[str] | None = None,
    strict: bool = True,
    on_action: Callable[[Game, Action], None] | None = None,
) -> Game:
    """Play one full game between `bots` (seat i is `bots[i]`) and return the finished game.

    Each decision asks the bot of the seat to move with `SeatView.of(game, seat)` and the legal actions
    (`legal_actions`, equal to `game.legal_actions()`); the bot never sees the `Game`. With `strict`
    (the default) an answer that is not in the legal list raises `IllegalBotActionError`; otherwise the
    first legal action is played instead (as `docs/bot-protocol.md` does for programs). `on_action`, if
    given, is called with the game and each action just before it is applied (e.g. to print the game as
    it goes).
    """
    names = list(players) if players is not None else [f"{bot.name} {i + 1}" for i, bot in enumerate(bots)]
    game = Game.new(game_map, names, seed=seed)
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return game
        seat = game.current
        ids, legal = legal_actions(game)
        action = bots[seat].choose(SeatView.of(game, seat), legal)
        try:
            index = legal.index(action)
        except ValueError:
            if strict:
                raise IllegalBotActionError(
                    f"bot {bots[seat].name!r} (seat {seat}) chose {action}, which is not legal here") from None
            index = 0
        if on_action is not None:
            on_action(game, legal[index])
        game.apply_id(ids[index])
    raise RuntimeError(f"the game did not end within {MAX_ACTIONS} actions")
