"""Bots and hints run off the event loop: a pool of worker processes (or threads, for tests).

A game's bots are kept across its moves: a game's moves all go to one worker (its *lane*, chosen from the game
id), which keeps one bot per game, seat and level, built at its first move as `ttr tournament` builds it,
`make_bot(level, map, seat, seed)` with the game's seed, so that the bot people meet plays as the bot that was
measured (the same seeded game gives the same moves in a tournament and here: tests/server/test_kept_bots.py).
A worker keeps at most `KEPT_BOTS` bots, the least recently used dropped first, and forgets a game's bots when
it ends; a bot lost with its worker (a restart, or the game moving to another server) is built again at the
next move from the game's seed. A bot sees only its seat's view (a `SeatView`) and the legal actions. Work is
sent as plain data (the game id, the map name, the view, the actions), so the same functions run in a process
or a thread.

Game reviews (`ttr.review`) run in a lane of their own: one more worker, started at the lowest CPU priority
(`os.nice`), given one decision at a time, so that they take only the time the live games' bots leave and
never hold a bot worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import threading
import zlib
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ttr.engine import Action, SeatView

log = logging.getLogger("ttr.server")

KEPT_BOTS = 1024  # bots a worker keeps (per game, seat and level), the least recently used dropped first
_kept: OrderedDict[tuple[str, int, str], Any] = OrderedDict()  # in a worker: (game id, seat, level) -> bot
_kept_lock = threading.Lock()  # the thread pool's lanes share one process


def choose_move(game_id: str, level: str, map_name: str, seat: int, seed: int, view: SeatView,
                legal: list[Action]) -> int:
    """The index in `legal` of the action the bot `level` of `seat` plays in game `game_id` (in the game's
    worker): the bot kept for the game and seat, or a new one, `make_bot(level, map, seat, seed)`."""
    from ttr.bots import make_bot
    from ttr.maps import load_map

    key = (game_id, seat, level)
    with _kept_lock:
        bot = _kept.pop(key, None)
    if bot is None:
        bot = make_bot(level, load_map(map_name), seat, seed)
    try:
        action = bot.choose(view, legal)
    finally:
        with _kept_lock:
            _kept[key] = bot
            while len(_kept) > KEPT_BOTS:
                _kept.popitem(last=False)
    try:
        return legal.index(action)
    except ValueError:
        return 0  # an answer outside the list: the first legal action, as play_game(strict=False) does


def forget_game(game_id: str) -> int:
    """Drop the bots kept for game `game_id` (in its worker); how many there were."""
    with _kept_lock:
        keys = [key for key in _kept if key[0] == game_id]
        for key in keys:
            del _kept[key]
    return len(keys)


def hint_move(map_name: str, view: SeatView, legal: list[Action]) -> tuple[int, str, dict[str, Any]]:
    """The hint for the seat of `view`: the index in `legal` of the suggested action, why in English, and why
    as data to translate (`ttr.bots.hint.explain_reason`), in a worker."""
    from ttr.bots.hint import hint_explained
    from ttr.maps import load_map

    action, reason, data = hint_explained(view, legal, load_map(map_name))
    try:
        return legal.index(action), reason, data
    except ValueError:
        return 0, reason, data


def rate_move(map_name: str, seat: int, seed: int, playouts: int, view: SeatView, legal: list[Action],
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
    """Runs bot moves and hints in `workers` processes (`kind="process"`) or threads (`kind="thread"`), one
    lane each: a game's bot moves always go to the same lane, which keeps its bots (see the module)."""

    def __init__(self, workers: int = 2, kind: str = "process") -> None:
        if kind not in ("process", "thread"):
            raise ValueError(f"bot pool kind must be 'process' or 'thread', got {kind!r}")
        self.workers = max(1, workers)
        self.kind = kind
        self._lanes: list[Executor] = [self._make() for _ in range(self.workers)]
        self._turns = itertools.count()  # work that belongs to no game goes to the lanes by turns
        self._reviews: Executor = self._make_review()

    def _make_review(self) -> Executor:
        if self.kind == "thread":
            return ThreadPoolExecutor(1, thread_name_prefix="ttr-review")
        return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_review_worker, initargs=(os.getpid(),))

    def _make(self) -> Executor:
        if self.kind == "thread":
            return ThreadPoolExecutor(1, thread_name_prefix="ttr-bot")
        return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_watch_parent, initargs=(os.getpid(),))

    async def start(self) -> None:
        """Start the workers now rather than at the first move."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(lane, _warm) for lane in self._lanes))

    def lane_of(self, game_id: str) -> int:
        """The lane that plays game `game_id`'s bot moves (the same for the server's whole life)."""
        return zlib.crc32(game_id.encode()) % self.workers

    async def _run_in(self, lane: int, fn: Any, *args: Any) -> Any:
        """`fn(*args)` in worker `lane`; a broken process is replaced once and the call tried again (the bots
        it kept are built again at their next move)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._lanes[lane], fn, *args)
        except BrokenProcessPool:
            log.warning("bot worker %d broke; starting a new one", lane)
            self._lanes[lane].shutdown(wait=False, cancel_futures=True)
            self._lanes[lane] = self._make()
            return await loop.run_in_executor(self._lanes[lane], fn, *args)

    async def run(self, fn: Any, *args: Any) -> Any:
        """`fn(*args)` in a worker (the lanes by turns); a broken process is replaced once and the call tried
        again."""
        return await self._run_in(next(self._turns) % self.workers, fn, *args)

    async def choose(self, game_id: str, level: str, map_name: str, seat: int, seed: int, view: SeatView,
                     legal: list[Action]) -> int:
        """The index in `legal` that the bot `level` kept for game `game_id` and `seat` plays (built with `seed`,
        the game's, at its first move)."""
        index: int = await self._run_in(self.lane_of(game_id), choose_move, game_id, level, map_name, seat, seed,
                                        view, legal)
        return index

    async def forget(self, game_id: str) -> None:
        """Drop the bots kept for game `game_id` (it has ended)."""
        await self._run_in(self.lane_of(game_id), forget_game, game_id)

    async def hint(self, map_name: str, view: SeatView, legal: list[Action]) -> tuple[int, str, dict[str, Any]]:
        """The hint's index in `legal`, its reason, and the reason as data to translate."""
        result: tuple[int, str, dict[str, Any]] = await self.run(hint_move, map_name, view, legal)
        return result

    async def review_move(self, map_name: str, seat: int, seed: int, playouts: int, view: SeatView,
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
        for lane in self._lanes:
            lane.shutdown(wait=True, cancel_futures=True)
        self._reviews.shutdown(wait=True, cancel_futures=True)
