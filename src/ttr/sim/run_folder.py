"""A results folder that a long run fills game by game and a re-run continues (`ttr simulate --out`,
`ttr tournament --records`), and the worker pool that plays the games.

Such a folder holds a settings file, written before the first game, and a progress log: one JSON line per
finished game, appended and flushed as each game ends, so an interrupted run (Ctrl-C, SIGTERM, a crash)
loses at most the games still being played. A re-run with the same settings plays only the games missing
from the log; a re-run with other settings is refused and changes nothing. One run at a time may write to
a folder (a lock file).
"""

from __future__ import annotations

import json
import multiprocessing
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from filelock import BaseFileLock, FileLock, Timeout

T = TypeVar("T")
R = TypeVar("R")

LOCK = ".lock"


class SettingsMismatchError(ValueError):
    """The folder holds a run with other settings, or another run is writing to it."""


def stored_settings(out: Path, name: str) -> dict[str, Any] | None:
    """The `settings` object of the settings file `out/name` (None: no file yet); `{}` if unreadable."""
    path = out / name
    if not path.exists():
        return None
    try:
        found = json.loads(path.read_text(encoding="utf-8")).get("settings")
    except (ValueError, AttributeError, OSError):
        return {}
    return found if isinstance(found, dict) else {}


def check_settings(out: Path, name: str, wanted: dict[str, Any], what: str, option: str) -> bool:
    """Whether `out/name` already holds a run of these settings (False: no run there yet). Raises
    `SettingsMismatchError`, naming the settings that differ, when it holds a run of others."""
    found = stored_settings(out, name)
    if found is None:
        return False
    if found != wanted:
        diff = [k for k in wanted if found.get(k) != wanted[k]]
        raise SettingsMismatchError(
            f"{out} holds a {what} with other settings ({', '.join(diff) or 'unreadable'}); "
            f"use another {option} folder, or the same settings to continue it")
    return True


def write_json(path: Path, doc: dict[str, Any]) -> None:
    """Write `doc` to `path` whole or not at all (a temporary file, then a rename)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)


def write_game_record(folder: Path, game: int, record: dict[str, Any]) -> None:
    """Write game `game`'s `ttr-record/1` (counted from 0) as `folder/game-NNNNN.json` (numbered from 1)."""
    path = folder / f"game-{game + 1:05d}.json"
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")


def read_log(path: Path) -> Iterator[dict[str, Any]]:
    """The entries of a progress log, in order; a line cut short by an interrupt is skipped."""
    if not path.exists():
        return
    with path.open(encoding="utf-8") as f:
        for line in f:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict):
                yield entry


def end_line(path: Path) -> None:
    """End a last line cut short by an interrupt, so the next game's line starts on its own line."""
    if path.exists() and path.stat().st_size:
        with path.open("rb") as f:
            f.seek(-1, 2)
            last = f.read(1)
        if last != b"\n":
            with path.open("ab") as f:
                f.write(b"\n")


class FolderLock:
    """The lock of a results folder, held until `close` (`lock`)."""

    def __init__(self, held: BaseFileLock) -> None:
        self._held = held

    def close(self) -> None:
        """Let the folder go: another run may write to it."""
        self._held.release()


def lock(out: Path, command: str) -> FolderLock:
    """Hold `out/.lock` for this run: a second run into the same folder at the same time, in this process or
    another, is refused. An operating-system lock (`filelock`: `flock` on POSIX, `msvcrt` on Windows), so it
    holds on every system and goes with the process that held it, however that ends."""
    held = FileLock(out / LOCK, timeout=0, thread_local=False)
    try:
        held.acquire()
    except Timeout:
        raise SettingsMismatchError(f"{out}: another {command} is writing to this folder") from None
    return FolderLock(held)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the pool


def pool_map(func: Callable[[T], R], tasks: list[T], jobs: int) -> Iterator[R]:
    """`func` of every task, in the order they finish, on `jobs` worker processes (1: in this process).

    The workers ignore Ctrl-C: the parent's `KeyboardInterrupt` ends the iteration and stops them all.
    """
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield func(task)
        return
    ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(min(jobs, len(tasks)), initializer=_ignore_sigint)
    try:
        yield from pool.imap_unordered(func, tasks)
        pool.close()
    finally:
        pool.terminate()
        pool.join()
