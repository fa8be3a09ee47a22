"""Tournaments: many games between bots, seats rotated, run in parallel, with standings and ratings.

Game `i` uses seed `seed + i` and seats `bots[(i + s) % len(bots)]` at seat `s` (with more bots than
seats, every group of bots in turn, each rotated through the seats: `TournamentConfig.seating`), so every
bot plays every seat equally often, and the results are the same whatever the number of worker processes.
Standings count seats played: a bot that holds two seats of one game (fewer bots than seats) plays two
seat-games there. A win shared by k seats counts 1/k to each. Ratings are Elo-scaled Bradley-Terry
strengths fitted to every pairwise result of every game (order-independent; `ttr.sim.ratings`), each with
a 95% interval; win rates are also given by seat.

With a records folder the tournament is resumable (`ttr.sim.run_folder`): the folder holds
`tournament.json` (the settings), `results.jsonl` (one line per finished game, appended as games end) and
`game-NNNNN.json` (each game's `ttr-record/1`). An interrupted tournament keeps its finished games, and the
same settings again (any number of games) play only the missing ones; other settings are refused.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ttr.bots import make_bot, play_game
from ttr.bots.cmd_bot import CmdBot, end_bots
from ttr.engine import Action, Game, final_score
from ttr.maps import GameMap, load_map
from ttr.maps.model import parse_map
from ttr.records import write_record
from ttr.sim.ratings import elo, elo_difference_errors, elo_errors, wilson
from ttr.sim.run_folder import (
    SettingsMismatchError,
    check_settings,
    end_line,
    lock,
    pool_map,
    read_log,
    write_game_record,
    write_json,
)

FORMAT = "ttr-tournament/1"
RUN_FORMAT = "ttr-tournament-run/1"  # the settings file of a records folder
SETTINGS = "tournament.json"
RESULTS = "results.jsonl"


@dataclass(frozen=True)
class TournamentConfig:
    """What to play: the map, the seat count, the bots (specs as `make_bot` reads them), how many games."""

    map_name: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    jobs: int = 1
    time_per_move: float = 1.0  # for `cmd:` bots
    records_dir: str | None = None  # where to write each game's record (and the cmd bots' stderr logs)
    map_json: str | None = None  # the map file's text, read once by the caller (workers need no file path)

    def labels(self) -> list[str]:
        """A unique label per bot entry: the spec, with `#2`, `#3` for repeated specs."""
        seen: dict[str, int] = {}
        out = []
        for spec in self.bots:
            seen[spec] = seen.get(spec, 0) + 1
            out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
        return out

    def seating(self, game: int) -> list[int]:
        """The bot entry (index into `bots`) at each seat of game `game`.

        With no more bots than seats, bot `(game + s) % len(bots)` sits at seat `s` (rotated by one seat
        per game). With more bots than seats, the games go through every group of `players` bots in turn
        (`itertools.combinations` order), each group playing `players` games in a row, rotated by one seat.
        """
        k, n = len(self.bots), self.players
        if k <= n:
            return [(game + s) % k for s in range(n)]
        groups = _groups(k, n)
        group = groups[(game // n) % len(groups)]
        return [group[(game + s) % n] for s in range(n)]


@functools.cache
def _groups(bots: int, players: int) -> list[tuple[int, ...]]:
    return list(itertools.combinations(range(bots), players))


@dataclass
class GameResult:
    """One game's outcome, seat by seat."""

    game: int
    seed: int
    entries: list[int]  # bot entry per seat
    scores: list[int]
    winners: list[int]  # seats
    tickets_completed: list[int]
    tickets_failed: list[int]
    actions: int
    notes: list[dict[str, Any]] = field(default_factory=list)  # cmd bots' reports
    record: dict[str, Any] | None = None

    def to_json(self, labels: list[str]) -> dict[str, Any]:
        """The game as the tournament JSON lists it."""
        return {"game": self.game, "seed": self.seed, "seats": [labels[e] for e in self.entries],
                "scores": self.scores, "winners": self.winners, "tickets_completed": self.tickets_completed,
                "tickets_failed": self.tickets_failed, "actions": self.actions, "notes": self.notes}

    def to_log(self) -> dict[str, Any]:
        """The line of `results.jsonl` (bot entries by index; no record)."""
        return {"game": self.game, "seed": self.seed, "entries": self.entries, "scores": self.scores,
                "winners": self.winners, "tickets_completed": self.tickets_completed,
                "tickets_failed": self.tickets_failed, "actions": self.actions, "notes": self.notes}

    @classmethod
    def from_log(cls, entry: dict[str, Any]) -> GameResult:
        """A result from its `results.jsonl` line (`ValueError`, `KeyError` or `TypeError` if malformed)."""
        return cls(game=int(entry["game"]), seed=int(entry["seed"]), entries=[int(e) for e in entry["entries"]],
                   scores=[int(x) for x in entry["scores"]], winners=[int(w) for w in entry["winners"]],
                   tickets_completed=[int(x) for x in entry["tickets_completed"]],
                   tickets_failed=[int(x) for x in entry["tickets_failed"]], actions=int(entry["actions"]),
                   notes=[dict(n) for n in entry["notes"]])


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, as the CLI maps it) stopped the tournament; `summary` is that of the games
    finished by then (kept in the records folder, if any, for a re-run to continue)."""

    def __init__(self, summary: dict[str, Any]) -> None:
        super().__init__("tournament interrupted")
        self.summary = summary


_MAPS: dict[tuple[str, str | None], GameMap] = {}


def config_map(config: TournamentConfig) -> GameMap:
    """The config's map (from `map_json` when given, else `load_map(map_name)`), cached per process."""
    key = (config.map_name, config.map_json)
    game_map = _MAPS.get(key)
    if game_map is None:
        if config.map_json is not None:
            game_map = parse_map(json.loads(config.map_json), where=config.map_name)
        else:
            game_map = load_map(config.map_name)
        game_map = _MAPS[key] = game_map
    return game_map


def play_seated(config: TournamentConfig, index: int, on_action: Callable[[Game, Action], None] | None = None,
                ) -> tuple[Game, list[int], list[dict[str, Any]]]:
    """Play game `index` (seed `config.seed + index`, seats `config.seating(index)`) in this process
    (`on_action` as `play_game` takes it).

    Returns the finished game, the bot entry per seat and the `cmd:` bots' reports.
    """
    game_map = config_map(config)
    seed = config.seed + index
    labels = config.labels()
    entries = config.seating(index)
    log_dir = Path(config.records_dir) / "bot-logs" if config.records_dir else None
    bots: list[Any] = []
    game: Game | None = None
    try:
        for seat, entry in enumerate(entries):
            spec = config.bots[entry]
            if spec.startswith("cmd:"):
                bots.append(CmdBot(spec[4:], game_map, seat, seed, time_per_move=config.time_per_move,
                                   log_dir=log_dir))
            else:
                bots.append(make_bot(spec, game_map, seat, seed))
        names = [f"{labels[e]} {s + 1}" for s, e in enumerate(entries)]
        game = play_game(game_map, bots, seed, players=names, on_action=on_action)
    finally:
        end_bots(bots, game)  # the end message, or just closing the programs if the game failed
    notes = [bot.report() for bot in bots if isinstance(bot, CmdBot)]
    return game, entries, notes


def play_one(config: TournamentConfig, index: int) -> GameResult:
    """Play game `index` of the tournament (in this process)."""
    game, entries, notes = play_seated(config, index)
    final = final_score(game)
    winners = list(final.winner_seats)
    return GameResult(
        game=index, seed=game.seed, entries=entries, scores=[p.total for p in final.players], winners=winners,
        tickets_completed=[len(p.tickets_completed) for p in final.players],
        tickets_failed=[len(p.tickets_failed) for p in final.players], actions=len(game.history),
        notes=[{k: v for k, v in note.items() if k != "stderr_log"} | {"game": index} for note in notes],
        record=write_record(game) if config.records_dir else None)


def _play_task(task: tuple[TournamentConfig, int]) -> GameResult:
    return play_one(*task)


def run_games(config: TournamentConfig, indexes: list[int] | None = None) -> Iterator[GameResult]:
    """The results of games `indexes` (default: all), in the order they finish (`config.jobs` workers)."""
    todo = range(config.games) if indexes is None else indexes
    return pool_map(_play_task, [(config, i) for i in todo], config.jobs)


def run_settings(config: TournamentConfig) -> dict[str, Any]:
    """What `tournament.json` records: everything that decides the games (not the job or game count)."""
    source = json.dumps(config_map(config).source, sort_keys=True, ensure_ascii=False)
    return {"format": RUN_FORMAT, "map": config.map_name,
            "map_sha256": hashlib.sha256(source.encode("utf-8")).hexdigest(), "players": config.players,
            "bots": list(config.bots), "seed": config.seed, "time_per_move": config.time_per_move}


def finished_games(folder: Path) -> dict[int, GameResult]:
    """The games a records folder holds as finished (`results.jsonl`; a malformed line is skipped)."""
    done: dict[int, GameResult] = {}
    for entry in read_log(folder / RESULTS):
        try:
            result = GameResult.from_log(entry)
        except (ValueError, KeyError, TypeError):
            continue
        done[result.game] = result
    return done


def _prepare(config: TournamentConfig, folder: Path) -> dict[int, GameResult]:
    """Create or check the records folder; the games already finished there."""
    folder.mkdir(parents=True, exist_ok=True)
    if (folder / "simulation.json").exists():
        raise SettingsMismatchError(f"{folder} holds a simulation (ttr simulate --out); use another --records folder")
    wanted = run_settings(config)
    if not check_settings(folder, SETTINGS, wanted, "tournament", "--records"):
        write_json(folder / SETTINGS, {"settings": wanted, "labels": config.labels()})
        (folder / RESULTS).unlink(missing_ok=True)  # a log without settings is no run of these settings
    n = config.players
    return {g: r for g, r in finished_games(folder).items()  # a line that does not fit is played again
            if g >= 0 and r.entries == config.seating(g) and r.seed == config.seed + g
            and all(len(column) == n for column in (r.scores, r.tickets_completed, r.tickets_failed))
            and all(0 <= w < n for w in r.winners)}


def run_tournament(config: TournamentConfig, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play the tournament and return its summary (the `--json` document); records written on request.

    With `config.records_dir`, the games already finished there are taken as they are and only the others
    are played (see the module). `progress(done, total)` is called at the start and after every game. On
    Ctrl-C it raises `TournamentInterrupted` with the summary of the games finished by then.
    """
    if config.games < 1:
        raise ValueError("a tournament needs at least 1 game")
    if not config.bots:
        raise ValueError("a tournament needs at least one bot")
    config_map(config)  # a bad map name fails here, not in a worker
    folder = Path(config.records_dir) if config.records_dir else None
    done: dict[int, GameResult] = _prepare(config, folder) if folder is not None else {}
    held = lock(folder, "ttr tournament") if folder is not None else None
    todo = [i for i in range(config.games) if i not in done]
    count = config.games - len(todo)
    if progress is not None:
        progress(count, config.games)
    try:
        if folder is not None:
            end_line(folder / RESULTS)
        for result in run_games(config, todo):
            if folder is not None:
                _keep(folder, result)
            done[result.game] = result
            count += 1
            if progress is not None:
                progress(count, config.games)
    except KeyboardInterrupt:
        raise TournamentInterrupted(summarize(config, _in_range(config, done))) from None
    finally:
        if held is not None:
            held.close()
    return summarize(config, _in_range(config, done))


def _keep(folder: Path, result: GameResult) -> None:
    """Write a finished game's record, then its line of `results.jsonl` (the line says it is finished)."""
    if result.record is not None:
        write_game_record(folder, result.game, result.record)
    with (folder / RESULTS).open("a", encoding="utf-8") as log:
        log.write(json.dumps(result.to_log(), ensure_ascii=False) + "\n")


def _in_range(config: TournamentConfig, done: dict[int, GameResult]) -> list[GameResult]:
    return [done[i] for i in sorted(done) if i < config.games]


# ---------------------------------------------------------------------- tallies of the results


def pairwise(results: list[GameResult], bots: int) -> list[list[list[float]]]:
    """`table[a][b] = [wins, draws, losses]` of bot a's seats against bot b's seats, over every game.

    Within a game a seat beats another if it is among the winners and the other is not, or neither is and
    it scored more; equal standing is a draw. Seats of the same bot are not compared.
    """
    table = [[[0.0, 0.0, 0.0] for _ in range(bots)] for _ in range(bots)]
    for r in results:
        rank = [(1 if s in r.winners else 0, r.scores[s]) for s in range(len(r.entries))]
        for i, a in enumerate(r.entries):
            for j, b in enumerate(r.entries):
                if a == b:
                    continue
                outcome = 0 if rank[i] > rank[j] else (1 if rank[i] == rank[j] else 2)
                table[a][b][outcome] += 1
    return table


def by_seat(results: list[GameResult], bots: int, players: int) -> tuple[list[list[list[float]]], list[float]]:
    """Wins by seat position: `per_bot[e][s] = [seats played, wins]` of bot e in seat s (seat 0 moves first;
    a win shared by k seats counts 1/k), and `overall[s]`, the wins of whichever bot sat in seat s."""
    per_bot = [[[0.0, 0.0] for _ in range(players)] for _ in range(bots)]
    overall = [0.0] * players
    for r in results:
        share = 1.0 / len(r.winners) if r.winners else 0.0
        for s, e in enumerate(r.entries):
            cell = per_bot[e][s]
            cell[0] += 1
            if s in r.winners:
                cell[1] += share
                overall[s] += share
    return per_bot, overall


def _seat_row(played: float, wins: float) -> dict[str, Any]:
    return {"seats_played": int(played), "wins": round(wins, 6),
            "win_rate": round(wins / played, 6) if played else None}


def _ci95(value: float, error: float) -> list[float]:
    """The 95% interval of an Elo figure with standard error `error`, as the summary gives it."""
    return [round(value - 1.96 * error, 1), round(value + 1.96 * error, 1)]


def _difference(difference: float, error: float) -> dict[str, Any]:
    """One Elo difference (row minus column) with its 95% interval."""
    return {"difference": round(difference, 1), "ci95": _ci95(difference, error)}


def summarize(config: TournamentConfig, results: list[GameResult]) -> dict[str, Any]:
    """The tournament's JSON summary: settings, standings per bot (with wins by seat), wins by seat over
    all bots, pairwise results and Elo differences, every game."""
    labels = config.labels()
    k = len(labels)
    score = [0] * k
    done = [0] * k
    failed = [0] * k
    replaced = [0] * k
    for r in results:
        for s, e in enumerate(r.entries):
            score[e] += r.scores[s]
            done[e] += r.tickets_completed[s]
            failed[e] += r.tickets_failed[s]
        for note in r.notes:
            if note.get("replaced_by"):
                replaced[r.entries[note["seat"]]] += 1
    seat_table, seat_wins = by_seat(results, k, config.players)  # seats and wins per bot are their sums
    seats = [int(sum(played for played, _ in cells)) for cells in seat_table]
    wins = [sum(won for _, won in cells) for cells in seat_table]
    table = pairwise(results, k)
    ratings = elo(table)
    errors = elo_errors(table, ratings)
    apart = elo_difference_errors(table, ratings)
    standings = []
    for e in range(k):
        lo, hi = wilson(wins[e], seats[e])
        row: dict[str, Any] = {
            "bot": labels[e], "seats_played": seats[e], "wins": round(wins[e], 6),
            "win_rate": round(wins[e] / seats[e], 6) if seats[e] else 0.0,
            "win_rate_ci95": [round(lo, 6), round(hi, 6)],
            "mean_score": round(score[e] / seats[e], 3) if seats[e] else 0.0,
            "ticket_completion": round(done[e] / (done[e] + failed[e]), 6) if done[e] + failed[e] else None,
            "elo": round(ratings[e], 1),
            "elo_ci95": _ci95(ratings[e], errors[e]),
            "by_seat": [_seat_row(played, won) for played, won in seat_table[e]],
        }
        if config.bots[e].startswith("cmd:"):
            row["replaced_by_random"] = replaced[e]
        standings.append(row)
    return {
        "format": FORMAT,
        "map": config.map_name,
        "players": config.players,
        "bots": labels,
        "games": len(results),
        "seed": config.seed,
        "standings": standings,
        "by_seat": [_seat_row(len(results), won) for won in seat_wins],
        "pairwise": {labels[a]: {labels[b]: table[a][b] for b in range(k) if b != a} for a in range(k)},
        "elo_differences": {labels[a]: {labels[b]: _difference(ratings[a] - ratings[b], apart[a][b])
                                        for b in range(k) if b != a} for a in range(k)},
        "results": [r.to_json(labels) for r in sorted(results, key=lambda r: r.game)],
    }
