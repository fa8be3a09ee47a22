"""Simulations: many bot games in parallel (processes or a Ray cluster), one row per seat, resumable.

Game `i` is the tournament's game `i` (`ttr.sim.tournament`): seed `S + i`, seats rotated, so the rows
do not depend on the number of jobs or on the order games finish. The output folder holds:

- `simulation.json`: the settings (and the map file's text), written first; a re-run with other settings
  into the same folder is refused.
- `progress.jsonl`: one line per finished game (its rows), appended as games finish. An interrupted run
  (Ctrl-C) keeps these; a re-run with the same settings plays only the missing games.
- `games.parquet` (or `games.csv`): every finished game's rows, ordered by game and seat
  (`ttr.sim.rows.COLUMNS`), rewritten at the end of every run, interrupted or not.
- `records/game-NNNNN.json` with `--records`: every game's `ttr-record/1`.
"""

from __future__ import annotations

import json
import multiprocessing
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ttr.records import write_record
from ttr.sim.rows import game_rows, write_table
from ttr.sim.tournament import TournamentConfig, config_map, play_seated

FORMAT = "ttr-simulation/1"
SETTINGS = "simulation.json"
PROGRESS = "progress.jsonl"


@dataclass(frozen=True)
class GameOutput:
    """One finished game: its index, its rows, and its record when asked."""

    game: int
    rows: list[dict[str, Any]]
    record: dict[str, Any] | None = None


class SettingsMismatchError(ValueError):
    """The output folder holds a simulation with other settings."""


def play_rows(config: TournamentConfig, index: int, with_record: bool = False) -> GameOutput:
    """Play game `index` of the simulation in this process and return its rows."""
    game, entries, _ = play_seated(config, index)
    return GameOutput(index, game_rows(game, list(config.bots), entries, index),
                      write_record(game) if with_record else None)


def _play_task(task: tuple[TournamentConfig, int, bool]) -> GameOutput:
    return play_rows(*task)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the pool


def run_local(config: TournamentConfig, indexes: list[int], with_records: bool) -> Iterator[GameOutput]:
    """The games `indexes`, in the order they finish, on `config.jobs` worker processes (1: in this process)."""
    tasks = [(config, i, with_records) for i in indexes]
    if config.jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield _play_task(task)
        return
    ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(min(config.jobs, len(tasks)), initializer=_ignore_sigint)
    try:
        yield from pool.imap_unordered(_play_task, tasks)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


Runner = Callable[[TournamentConfig, list[int], bool], Iterator[GameOutput]]


def settings(config: TournamentConfig, fmt: str) -> dict[str, Any]:
    """What `simulation.json` records: everything that decides the rows (not the job count or game count)."""
    return {"format": FORMAT, "map": config.map_name, "map_json": config.map_json, "players": config.players,
            "bots": list(config.bots), "seed": config.seed, "time_per_move": config.time_per_move,
            "table_format": fmt}


def load_progress(out: Path) -> dict[int, list[dict[str, Any]]]:
    """The rows of the games finished so far in `out` (a line cut short by an interrupt is ignored)."""
    done: dict[int, list[dict[str, Any]]] = {}
    path = out / PROGRESS
    if not path.exists():
        return done
    with path.open(encoding="utf-8") as f:
        for line in f:
            try:
                entry = json.loads(line)
                done[int(entry["game"])] = list(entry["rows"])
            except (ValueError, KeyError, TypeError):
                continue
    return done


def prepare(config: TournamentConfig, out: Path, fmt: str) -> dict[int, list[dict[str, Any]]]:
    """Create or check the output folder; return the games already finished there."""
    out.mkdir(parents=True, exist_ok=True)
    wanted = settings(config, fmt)
    path = out / SETTINGS
    if path.exists():
        try:
            found = json.loads(path.read_text(encoding="utf-8")).get("settings")
        except (ValueError, AttributeError):
            found = None
        if found != wanted:
            diff = [k for k in wanted if not isinstance(found, dict) or found.get(k) != wanted[k]]
            raise SettingsMismatchError(
                f"{out} holds a simulation with other settings ({', '.join(diff) or 'unreadable'}); "
                "use another --out folder, or the same settings to continue it")
    else:
        _write_settings(out, wanted, config, 0, 0.0)
    return load_progress(out)


def _write_settings(out: Path, wanted: dict[str, Any], config: TournamentConfig, games: int,
                    seconds: float) -> None:
    doc = {"settings": wanted, "labels": config.labels(), "games_done": games, "last_run": {
        "jobs": config.jobs, "seconds": round(seconds, 3)}}
    tmp = out / (SETTINGS + ".tmp")
    tmp.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    tmp.replace(out / SETTINGS)


def _end_line(path: Path) -> None:
    """End a last line cut short by an interrupt, so the next game's line starts on its own line."""
    if path.exists() and path.stat().st_size:
        with path.open("rb") as f:
            f.seek(-1, 2)
            last = f.read(1)
        if last != b"\n":
            with path.open("ab") as f:
                f.write(b"\n")


def table_path(out: Path, fmt: str) -> Path:
    """Where the table of a simulation folder goes."""
    return out / f"games.{fmt}"


def simulate(config: TournamentConfig, out: Path, fmt: str = "parquet", *, with_records: bool = False,
             runner: Runner = run_local, progress: Callable[[int, int], None] | None = None) -> int:
    """Play the games of `config` not yet in `out`, append each as it finishes, then write the table.

    `progress(done, total)` is called at the start and after every game. A `KeyboardInterrupt` stops the
    run after writing the table of the games finished so far, then propagates. Returns the games done.
    """
    import time

    if config.games < 1:
        raise ValueError("a simulation needs at least 1 game")
    config_map(config)  # a bad map fails here, not in a worker
    done = prepare(config, out, fmt)
    lock = _lock(out)
    records = out / "records"
    if with_records:
        records.mkdir(exist_ok=True)
    _end_line(out / PROGRESS)
    todo = [i for i in range(config.games) if i not in done]
    count = sum(1 for i in done if i < config.games)
    if progress is not None:
        progress(count, config.games)
    start = time.perf_counter()
    try:
        with (out / PROGRESS).open("a", encoding="utf-8") as log:
            for result in runner(config, todo, with_records):
                if result.record is not None:
                    path = records / f"game-{result.game + 1:05d}.json"
                    path.write_text(json.dumps(result.record, ensure_ascii=False) + "\n", encoding="utf-8")
                log.write(json.dumps({"game": result.game, "rows": result.rows}, ensure_ascii=False) + "\n")
                log.flush()
                if result.game not in done:
                    count += 1
                done[result.game] = result.rows
                if progress is not None:
                    progress(count, config.games)
    finally:
        finished = sorted(i for i in done if i < config.games)
        write_table((row for i in finished for row in done[i]), table_path(out, fmt), fmt)
        _write_settings(out, settings(config, fmt), config, len(finished), time.perf_counter() - start)
        lock.close()
    return len(finished)


def _lock(out: Path) -> Any:
    """Hold `out/.lock` for this run: a second run into the same folder at the same time is refused."""
    handle = (out / ".lock").open("a")
    try:
        import fcntl
    except ImportError:  # not on POSIX: no lock
        return handle
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise SettingsMismatchError(f"{out}: another ttr simulate is writing to this folder") from None
    return handle
