"""Seats played by programs over `ttr-bot/1` (docs/bot-protocol.md): `cmd:COMMAND` bot names.

A web page may seat a program only if the server's operator listed its command (`ttr serve --bot-program
COMMAND`, `ServerConfig.programs`): nobody can make the server run anything else. As the built-in bots are
kept per game and seat in the bot pool (`ttr.server.bot_pool`), a program is one process per game and seat, started
at its first decision (`ttr.bots.cmd_bot.CmdBot`: the hello, then a decide per move) and sent the end
message with the final breakdown when the game ends. Its answers are awaited in a thread, so the server
goes on serving meanwhile. A program that fails 3 times is replaced by `random` for the rest of the game,
as in tournaments. A server restarted mid-game starts the program again at its next decision, and so does a
game whose program was closed for waiting longer than `idle` seconds for its next move (people thinking, or
gone from a game that waits for them): an idle process is not kept for ever. The program then gets a new
hello before that decision, which holds the whole seat view as every decision does.
"""

from __future__ import annotations

import asyncio
import logging
import re
import shutil
from pathlib import Path

from ttr.bots.cmd_bot import CmdBot, command_args
from ttr.engine import Action, Game, SeatView, final_score

PREFIX = "cmd:"

log = logging.getLogger("ttr.server")


def program_name(command: str) -> str:
    """The bot name of a program: `cmd:COMMAND`."""
    return PREFIX + command


INTERPRETER = re.compile(r"(python|pypy|node|java|ruby|perl|bash|sh|lua|php|julia|deno|bun|Rscript)[0-9.]*")


def program_label(name: str) -> str:
    """A short label of a `cmd:COMMAND` bot name for seat names: the program's file name, which after an
    interpreter (`python3`, `node`, `java`, ...) is its first word that is no option
    (`cmd:python3 examples/bots/simple_bot.py log.txt` -> `simple_bot.py`)."""
    command = name.removeprefix(PREFIX)
    try:
        words = command_args(command)
    except ValueError:
        words = command.split() or [command]
    program = words[0]
    if INTERPRETER.fullmatch(Path(program).name):
        program = next((w for w in words[1:] if not w.startswith("-")), program)
    return Path(program).name or command


def check_command(command: str) -> str | None:
    """Why `command` cannot be run (None: it can): unreadable quoting, empty (`command_args`), or no such
    program."""
    try:
        args = command_args(command)
    except ValueError as exc:
        return str(exc)
    if shutil.which(args[0]) is None and not Path(args[0]).is_file():
        return f"no program {args[0]!r} (not a file, nor on the PATH)"
    return None


class ProgramSeats:
    """The running programs of the server's games, by game and seat."""

    def __init__(self, time_per_move: float, idle: float = 600.0) -> None:
        self.time_per_move = time_per_move
        self.idle = idle  # seconds a program may wait for its next decision before it is closed
        self.bots: dict[tuple[str, int], CmdBot] = {}
        self._idle_timers: dict[tuple[str, int], asyncio.TimerHandle] = {}
        self._closing: set[asyncio.Task[None]] = set()  # idle programs being closed

    async def choose(self, game_id: str, game: Game, seat: int, name: str, legal: list[Action], seed: int) -> int:
        """The index in `legal` of the program's move (its first legal action if the answer is unusable)."""
        key = (game_id, seat)
        timer = self._idle_timers.pop(key, None)
        if timer is not None:
            timer.cancel()
        bot = self.bots.get(key)
        if bot is None:
            bot = self.bots[key] = CmdBot(name.removeprefix(PREFIX), game.map, seat, seed,
                                          time_per_move=self.time_per_move)
        view = SeatView.of(game, seat)
        before = len(bot.failures)
        action = await asyncio.to_thread(bot.choose, view, legal)
        for failure in bot.failures[before:]:
            log.warning("game %s, seat %d (%s): %s", game_id, seat, name, failure)
        if self.bots.get(key) is bot:
            self._idle_timers[key] = asyncio.get_running_loop().call_later(self.idle, self._close_idle, key, bot)
        try:
            return legal.index(action)
        except ValueError:
            return 0

    def _close_idle(self, key: tuple[str, int], bot: CmdBot) -> None:
        """Close a program that has waited `idle` seconds for its next decision (it starts again at that one)."""
        self._idle_timers.pop(key, None)
        if self.bots.get(key) is not bot:
            return
        del self.bots[key]
        log.info("game %s, seat %d: program closed after %.0f s without a decision", key[0], key[1], self.idle)
        task = asyncio.get_running_loop().create_task(asyncio.to_thread(bot.close))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def _forget(self, keys: list[tuple[str, int]]) -> list[CmdBot]:
        """Take the programs of `keys` out of the running ones, with their idle timers."""
        for key in keys:
            timer = self._idle_timers.pop(key, None)
            if timer is not None:
                timer.cancel()
        return [self.bots.pop(key) for key in keys]

    async def end(self, game_id: str, game: Game) -> None:
        """Send the game's programs the end message (final breakdown) and close them."""
        ended = self._forget([k for k in self.bots if k[0] == game_id])
        if not ended:
            return
        final = final_score(game).to_json()
        await asyncio.gather(*(asyncio.to_thread(bot.end, final) for bot in ended))

    async def close(self) -> None:
        """Close every program (the server is stopping; an unfinished game starts them again later)."""
        bots = self._forget(list(self.bots))
        await asyncio.gather(*(asyncio.to_thread(bot.close) for bot in bots), *self._closing, return_exceptions=True)

