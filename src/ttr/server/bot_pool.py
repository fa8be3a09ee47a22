"""Bots and hints run off the event loop: a pool of worker processes (or threads, for tests).

A bot is built afresh for every move, `make_bot(level, map, seat, seed)` with a seed fixed by the
game's seed and version, and sees only its seat's view and the legal actions. Work is sent as plain
data (the map name, the view, the actions), so the same functions run in a process or a thread.

Game reviews (`ttr.review`) run in a lane of their own: one more worker, started at the lowest CPU priority
(`os.nice`), given one decision at a time, so that they take only the time the live games' bots leave and
never hold a bot worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ttr.engine import Action

log = logging.getLogger("ttr.server")


def move_seed(game_seed: int, version: int) -> int:
    """The seed of a bot's move at `version` (the number of actions played) of the game of `game_seed`: the same
    game and moves give the bots the same answers (the guided first game's deal rests on it)."""
    return (game_seed * 1_000_003 + version) % 2**63


def choose_move(level: str, map_name: str, seat: int, seed: int, view: dict[str, Any], legal: list[Action]) -> int:
    """The index in `legal` of the action the bot `level` plays (in a worker)."""
    from ttr.bots import make_bot
    from ttr.maps import load_map

    bot = make_bot(level, load_map(map_name), seat, seed)
    action = bot.choose(view, legal)
    try:
        return legal.index(action)
    except ValueError:
        return 0  # an answer outside the list: the first legal action, as play_game(strict=False) does


def hint_move(map_name: str, view: dict[str, Any], legal: list[Action]) -> tuple[int, str, dict[str, Any]]:
    """The hint for the seat of `view`: the index in `legal` of the suggested action, why in English, and why
    as data to translate (`ttr.bots.hint.explain_reason`), in a worker."""
    from ttr.bots.hint import hint_explained
    from ttr.maps import load_map

    action, reason, data = hint_explained(view, legal, load_map(map_name))
    try:
        return legal.index(action), reason, data
    except ValueError:
        return 0, reason, data


def rate_move(map_name: str, seat: int, seed: int, playouts: int, view: dict[str, Any], legal: list[Action],
              played: Action) -> dict[str, Any]:
    """One decision of a game review rated (`ttr.review.rate_decision`), in the review worker."""
    from ttr.review import rate_decision

    return rate_decision(map_name, seat, seed, playouts, view, legal, played)


REVIEW_NICE = 19  # the review worker's niceness: the lowest CPU priority


def _review_worker(parent: int) -> None:
    """In the review worker process: the lowest CPU priority, and exit with the server."""
    with contextlib.suppress(OSError, AttributeError):  # where the OS has no nice, the lane still runs alone
        os.nice(REVIEW_NICE)
    _watch_parent(parent)


def _watch_parent(parent: int) -> None:
    """In a worker: exit when the server is gone (killed with SIGKILL, its workers would linger)."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="ttr-parent-watch", daemon=True).start()


def _warm() -> int:
    """Import the bots in a fresh worker (so the first move is not slow)."""
    import ttr.bots.hint  # noqa: F401

    return os.getpid()


class BotPool:
    """Runs bot moves and hints in `workers` processes (`kind="process"`) or threads (`kind="thread"`)."""

    def __init__(self, workers: int = 2, kind: str = "process") -> None:
        if kind not in ("process", "thread"):
            raise ValueError(f"bot pool kind must be 'process' or 'thread', got {kind!r}")
        self.workers = max(1, workers)
        self.kind = kind
        self._executor: Executor = self._make()
        self._reviews: Executor = self._make_review()

    def _make_review(self) -> Executor:
        if self.kind == "thread":
            return ThreadPoolExecutor(1, thread_name_prefix="ttr-review")
        return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_review_worker, initargs=(os.getpid(),))

    def _make(self) -> Executor:
        if self.kind == "thread":
            return ThreadPoolExecutor(self.workers, thread_name_prefix="ttr-bot")
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_watch_parent, initargs=(os.getpid(),))

    async def start(self) -> None:
        """Start the workers now rather than at the first move."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._executor, _warm) for _ in range(self.workers)))

    async def run(self, fn: Any, *args: Any) -> Any:
        """`fn(*args)` in a worker; a broken process pool is replaced once and the call tried again."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, fn, *args)
        except BrokenProcessPool:
            log.warning("bot worker pool broke; starting a new one")
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._make()
            return await loop.run_in_executor(self._executor, fn, *args)

    async def choose(self, level: str, map_name: str, seat: int, seed: int, view: dict[str, Any],
                     legal: list[Action]) -> int:
        """The index in `legal` that bot `level` plays."""
        index: int = await self.run(choose_move, level, map_name, seat, seed, view, legal)
        return index

    async def hint(self, map_name: str, view: dict[str, Any], legal: list[Action]) -> tuple[int, str, dict[str, Any]]:
        """The hint's index in `legal`, its reason, and the reason as data to translate."""
        result: tuple[int, str, dict[str, Any]] = await self.run(hint_move, map_name, view, legal)
        return result

    async def review_move(self, map_name: str, seat: int, seed: int, playouts: int, view: dict[str, Any],
                          legal: list[Action], played: Action) -> dict[str, Any]:
        """One decision of a review rated in the review lane (see the module)."""
        loop = asyncio.get_running_loop()
        args = (map_name, seat, seed, playouts, view, legal, played)
        try:
            result: dict[str, Any] = await loop.run_in_executor(self._reviews, rate_move, *args)
        except BrokenProcessPool:
            log.warning("review worker broke; starting a new one")
            self._reviews.shutdown(wait=False, cancel_futures=True)
            self._reviews = self._make_review()
            result = await loop.run_in_executor(self._reviews, rate_move, *args)
        return result

    def close(self) -> None:
        """Stop the workers: pending moves are cancelled, a move being computed is let finish (a bot decision
        is well under a second), so that no worker outlives the server. Without the wait, a server stopped by
        SIGTERM (uvicorn re-raises it once shut down) left its workers and their semaphores behind."""
        self._executor.shutdown(wait=True, cancel_futures=True)
        self._reviews.shutdown(wait=True, cancel_futures=True)
