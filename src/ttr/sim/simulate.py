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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ttr.records import write_record
from ttr.sim.rows import game_rows, write_table
from ttr.sim.run_folder import (
    FolderLock,
    SettingsMismatchError,
    check_settings,
    end_line,
    lock,
    pool_map,
    read_log,
    write_game_record,
    write_json,
)
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


def play_rows(config: TournamentConfig, index: int, with_record: bool = False) -> GameOutput:
    """Play game `index` of the simulation in this process and return its rows."""
    game, entries, _ = play_seated(config, index)
    return GameOutput(index, game_rows(game, list(config.bots), entries, index),
                      write_record(game) if with_record else None)


def _play_task(task: tuple[TournamentConfig, int, bool]) -> GameOutput:
    return play_rows(*task)


def run_local(config: TournamentConfig, indexes: list[int], with_records: bool) -> Iterator[GameOutput]:
    """The games `indexes`, in the order they finish, on `config.jobs` worker processes (1: in this process)."""
    return pool_map(_play_task, [(config, i, with_records) for i in indexes], config.jobs)


Runner = Callable[[TournamentConfig, list[int], bool], Iterator[GameOutput]]


def settings(config: TournamentConfig, fmt: str) -> dict[str, Any]:
    """What `simulation.json` records: everything that decides the rows (not the job count or game count)."""
    return {"format": FORMAT, "map": config.map_name, "map_json": config.map_json, "players": config.players,
            "bots": list(config.bots), "seed": config.seed, "time_per_move": config.time_per_move,
            "table_format": fmt}


def load_progress(out: Path) -> dict[int, list[dict[str, Any]]]:
    """The rows of the games finished so far in `out` (a line cut short by an interrupt is ignored)."""
    done: dict[int, list[dict[str, Any]]] = {}
    for entry in read_log(out / PROGRESS):
        try:
            done[int(entry["game"])] = list(entry["rows"])
        except (ValueError, KeyError, TypeError):
            continue
    return done


def prepare(config: TournamentConfig, out: Path, fmt: str) -> dict[int, list[dict[str, Any]]]:
    """Create or check the output folder; return the games already finished there."""
    out.mkdir(parents=True, exist_ok=True)
    wanted = settings(config, fmt)
    if not check_settings(out, SETTINGS, wanted, "simulation", "--out"):
        _write_settings(out, wanted, config, 0, 0.0)
    return load_progress(out)


def _write_settings(out: Path, wanted: dict[str, Any], config: TournamentConfig, games: int,
                    seconds: float) -> None:
    write_json(out / SETTINGS, {"settings": wanted, "labels": config.labels(), "games_done": games,
                                "last_run": {"jobs": config.jobs, "seconds": round(seconds, 3)}})


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
    held = _lock(out)
    records = out / "records"
    if with_records:
        records.mkdir(exist_ok=True)
    end_line(out / PROGRESS)
    todo = [i for i in range(config.games) if i not in done]
    count = sum(1 for i in done if i < config.games)
    if progress is not None:
        progress(count, config.games)
    start = time.perf_counter()
    try:
        with (out / PROGRESS).open("a", encoding="utf-8") as log:
            for result in runner(config, todo, with_records):
                if result.record is not None:
                    write_game_record(records, result.game, result.record)
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
        held.close()
    return len(finished)


def _lock(out: Path) -> FolderLock:
    """Hold the folder's lock for this run (`run_folder.lock`)."""
    return lock(out, "ttr simulate")


__all__ = ["FORMAT", "PROGRESS", "SETTINGS", "GameOutput", "Runner", "SettingsMismatchError", "load_progress",
           "play_rows", "prepare", "run_local", "settings", "simulate", "table_path"]
