"""Blunders a person would see: the largest final hands and the tunnels tried again and again, per level.

Each level (default: `easy`, `medium`, `hard`, `expert`) plays GAMES two-player games per map against a mix of
opponents (by turns: `random`, the four FDG 2017 agents, the greedy presets and `examples/bots/simple_bot.py`),
its seat alternating, on the seeds S, S+1, ... (the same deals for every level). Per level it prints the games,
its wins (ties count half), the largest final hands (cards held when the game ended, with the trains left, the
map, the seed and the opponent), how many games ended with at least `--hand` cards held, and the tunnel
attempts: per game the most times the level's seat claimed one tunnel and abandoned it, the largest of those
over the games, and in how many games one tunnel was abandoned twice or more.

`--out FILE` appends every game to FILE as a JSON line as soon as it ends (after a first line naming the run:
commit, build, command), and a run given an `--out` that already holds games plays only the games it lacks, so
a long run that stops keeps what it played and goes on where it stopped. `--markdown FILE` writes the figures
as a Markdown table per level and map (games, wins with a Wilson 95% interval, the largest final hands, the
games ending with `--hand` cards and `--trains` trains, the games with a tunnel abandoned twice or more),
headed with the commit, the build (pure Python or compiled) and the command of every run it counts. `--from
FILE ...` reads the games of earlier `--out` files instead of playing, so several runs make one table: only
the games of `--levels`, `--maps` and the seeds of `--seed`/`--games` when those are given, and a game of a
later file replaces the same game (level, opponent, map, seed, seat) of an earlier one, such as a run of the
code after a change.

    python research/blunders.py --games 200
    python research/blunders.py --levels expert --maps europe --games 60 --json
    scripts/compiled python research/blunders.py --levels hard --maps europe --games 300 --out hard.jsonl
    python research/blunders.py --from easy.jsonl hard.jsonl --markdown research/blunders.md
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields
from multiprocessing import Pool
from pathlib import Path

from ttr.bots import make_bot, play_game
from ttr.bots.cmd_bot import end_bots
from ttr.engine import Game, final_score
from ttr.engine.actions import KIND_NAMES
from ttr.maps import load_map
from ttr.sim.ratings import wilson

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / 'simple_bot.py'}"
MIX = ["random", "destination_hungry", "route_focus", "one_step_thinker", "long_route_junkie", "greedy",
       "greedy_long", "greedy_long_fitted", EXAMPLE]
LEVELS = ["easy", "medium", "hard", "expert"]


@dataclass(frozen=True)
class Outcome:
    """One game of a level: its seat's final hand and trains, the tunnel it abandoned most, the result."""

    level: str
    opponent: str
    map_name: str
    seed: int
    seat: int
    hand: int  # cards the level's seat held at the end
    trains: int  # trains it had left
    tunnel_retries: int  # the most times it abandoned one tunnel in the game
    tunnel: str  # that tunnel's name ("" when it abandoned none)
    win: float  # 1 a win, 1/k a shared win, 0 a loss


def abandons(game: Game, seat: int) -> Counter[int]:
    """Per route, how many times `seat` claimed that tunnel and then abandoned it in `game`."""
    cat = game.cat
    counts: Counter[int] = Counter()
    claimed = -1
    for p, aid, *_ in game.history:
        if p != seat:
            continue
        kind = KIND_NAMES[cat.kind[aid]]
        if kind == "claim_route":
            claimed = cat.a[aid]
        elif kind == "abandon_tunnel" and claimed >= 0:
            counts[claimed] += 1
    return counts


def play(task: tuple[str, str, str, int, int]) -> Outcome:
    """One game: `level` in `seat` against `opponent` on `map_name` with `seed`."""
    level, opponent, map_name, seed, seat = task
    game_map = load_map(map_name)
    specs = [opponent, opponent]
    specs[seat] = level
    bots = [make_bot(spec, game_map, s, seed) for s, spec in enumerate(specs)]
    game = None
    try:
        game = play_game(game_map, bots, seed, players=["a", "b"])
    finally:
        end_bots(bots, game)
    counts = abandons(game, seat)
    route, retries = counts.most_common(1)[0] if counts else (-1, 0)
    winners: list[object] = list(final_score(game).winners)
    win = 1 / len(winners) if seat in winners or ["a", "b"][seat] in winners else 0.0
    name = "" if route < 0 else game_map.routes[route].name
    return Outcome(level, "example" if opponent == EXAMPLE else opponent, map_name, seed, seat,
                   sum(game.hands[seat]), game.trains[seat], retries, name, win)


def tasks(levels: list[str], maps: list[str], games: int, seed: int,
          mix: list[str]) -> Iterator[tuple[str, str, str, int, int]]:
    """Every game to play: per level and map, `games` seeds, the opponent by turns and the seat alternating."""
    for level in levels:
        for map_name in maps:
            for i in range(games):
                yield level, mix[i % len(mix)], map_name, seed + i, (i // len(mix)) % 2


def summary(outcomes: list[Outcome], top: int, hand: int, trains: int) -> dict[str, object]:
    """Per level: games, wins, the largest final hands, games ending with `hand` cards or more (and with
    `trains` trains or more left), tunnel retries."""
    out: dict[str, object] = {}
    for level in dict.fromkeys(o.level for o in outcomes):
        mine = [o for o in outcomes if o.level == level]
        by_hand = sorted(mine, key=lambda o: (-o.hand, -o.trains, o.seed))
        by_tunnel = sorted(mine, key=lambda o: (-o.tunnel_retries, o.seed))
        out[level] = {
            "games": len(mine),
            "wins": sum(o.win for o in mine),
            "largest_hands": [asdict(o) for o in by_hand[:top]],
            f"hands_{hand}_or_more": sum(o.hand >= hand for o in mine),
            f"hands_{hand}_or_more_with_{trains}_trains": sum(o.hand >= hand and o.trains >= trains for o in mine),
            "most_tunnel_retries": [asdict(o) for o in by_tunnel[:top] if o.tunnel_retries],
            "games_with_a_tunnel_abandoned_twice": sum(o.tunnel_retries >= 2 for o in mine),
        }
    return out


Task = tuple[str, str, str, int, int]


def key_of(task: Task) -> Task:
    """`task` with the example bot named "example" (its command names this Python, which differs by build)."""
    level, opponent, map_name, seed, seat = task
    return level, "example" if opponent == EXAMPLE else opponent, map_name, seed, seat


def task_key(outcome: Outcome) -> Task:
    """The key (`key_of`) of the task that played `outcome`."""
    return outcome.level, outcome.opponent, outcome.map_name, outcome.seed, outcome.seat


def build() -> str:
    """Which build of ttr runs this script: "compiled" when the engine is a C extension, else "pure Python"."""
    import ttr.engine.game as engine_game

    return "pure Python" if str(engine_game.__file__).endswith(".py") else "compiled"


def commit() -> str:
    """The short commit of the source, marked when `src/` has changes not committed or the compiled build is
    not of this source (`scripts/compiled --check`); "unknown" outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "src"], cwd=ROOT, capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    if dirty:
        return f"{head} with uncommitted changes to src/"
    if build() == "compiled" and subprocess.run([str(ROOT / "scripts" / "compiled"), "--check"], cwd=ROOT,
                                                capture_output=True, check=False).returncode != 0:
        return f"{head}, but the compiled build is of other source"
    return head


def run_header(argv: list[str]) -> dict[str, str]:
    """What names this run: its commit, build and command."""
    return {"commit": commit(), "build": build(), "command": shlex.join(["research/blunders.py", *argv])}


def read_games(path: Path) -> tuple[list[dict[str, str]], list[Outcome]]:
    """The runs (headers) and games of an `--out` file."""
    runs: list[dict[str, str]] = []
    games: list[Outcome] = []
    names = {f.name for f in fields(Outcome)}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if "run" in row:
                runs.append({k: str(v) for k, v in row["run"].items()})
            else:
                games.append(Outcome(**{k: row[k] for k in names}))
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"{path}:{number}: not a line of a blunders.py --out file ({exc})") from exc
    return runs, games


@dataclass(frozen=True)
class Row:
    """The figures of one level on one map."""

    level: str
    map_name: str
    games: int
    wins: float
    interval: tuple[float, float]  # the win rate's Wilson 95% interval
    largest_hands: list[tuple[int, int]]  # (cards held, trains left) at the end, largest first
    stuck: int  # games ending with `hand`+ cards and `trains`+ trains left
    retried: int  # games with a tunnel abandoned twice or more
    most_retries: int  # the most times one tunnel was abandoned in a game


def rows(outcomes: list[Outcome], hand: int, trains: int, top: int) -> list[Row]:
    """Per level and map (in the order first played), its figures, with the `top` largest final hands."""
    out: list[Row] = []
    for level, map_name in dict.fromkeys((o.level, o.map_name) for o in outcomes):
        mine = [o for o in outcomes if (o.level, o.map_name) == (level, map_name)]
        wins = sum(o.win for o in mine)
        by_hand = sorted(mine, key=lambda o: (-o.hand, -o.trains, o.seed))
        out.append(Row(level, map_name, len(mine), wins, wilson(wins, len(mine)),
                       [(o.hand, o.trains) for o in by_hand[:top]],
                       sum(o.hand >= hand and o.trains >= trains for o in mine),
                       sum(o.tunnel_retries >= 2 for o in mine), max(o.tunnel_retries for o in mine)))
    return out


def markdown(outcomes: list[Outcome], runs: list[dict[str, str]], this: dict[str, str], hand: int, trains: int,
             top: int) -> str:
    """The Markdown table of `outcomes`, headed with the commit, build and command of `this` run (the one
    writing the table) and of every run in `runs` that played the games."""
    lines = ["# Blunders a person would see, per level", ""]
    if runs:
        lines += [f"Written by `{this['command']}` from the games of these runs; do not edit by hand:", ""]
        lines += [f"- `{run['command']}` ({run['build']}, commit {run['commit']})" for run in runs]
    else:
        lines.append(f"Written by `{this['command']}` ({this['build']}, commit {this['commit']}); "
                     "do not edit by hand.")
    opponents = ", ".join(dict.fromkeys(o.opponent for o in outcomes))
    lines += [
        "",
        f"Two-player games, the level's seat alternating, against by turns: {opponents}. Wins: ties count half. "
        f"Largest final hands: the {top} largest, as cards held when the game ended / trains left. "
        f"Stuck: games ending with {hand}+ cards held and {trains}+ trains left. Tunnel 2+: games in which the "
        "level claimed and abandoned one tunnel twice or more (in brackets, the most times in one game).",
        "",
        f"| level | map | games | wins | win rate (95% Wilson) | largest final hands | stuck ({hand}+ cards, "
        f"{trains}+ trains) | tunnel 2+ (most) |",
        "|---|---|---:|---:|---|---|---:|---:|",
    ]
    for row in rows(outcomes, hand, trains, top):
        lo, hi = row.interval
        largest = ", ".join(f"{h}/{t}" for h, t in row.largest_hands)
        lines.append(f"| {row.level} | {row.map_name} | {row.games} | {row.wins:g} | {row.wins / row.games:.0%} "
                     f"({lo:.0%}-{hi:.0%}) | {largest} | {row.stuck} | {row.retried} ({row.most_retries}) |")
    return "\n".join(lines) + "\n"


def play_all(todo: list[Task], jobs: int, out: Path | None, header: dict[str, str]) -> list[Outcome]:
    """Play `todo` (on `jobs` processes), appending each game to `out` as it ends, after `header`."""
    sink = None
    if out is not None:
        sink = out.open("a")
        sink.write(json.dumps({"run": header}) + "\n")
        sink.flush()
    outcomes: list[Outcome] = []
    try:
        if jobs > 1:
            with Pool(jobs) as pool:
                for outcome in pool.imap(play, todo):
                    outcomes.append(outcome)
                    if sink is not None:
                        sink.write(json.dumps(asdict(outcome)) + "\n")
                        sink.flush()
        else:
            for task in todo:
                outcome = play(task)
                outcomes.append(outcome)
                if sink is not None:
                    sink.write(json.dumps(asdict(outcome)) + "\n")
                    sink.flush()
    finally:
        if sink is not None:
            sink.close()
    return outcomes


def main(argv: list[str] | None = None) -> int:
    """Play the games (or read them, `--from`) and print the report (a table, or `--json`; `--markdown`)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default=None, help="comma-separated bot names (default: the levels)")
    parser.add_argument("--maps", default=None, help="comma-separated maps (default: europe,new_york)")
    parser.add_argument("--games", type=int, default=None, help="games per level and map (default: 200)")
    parser.add_argument("--seed", type=int, default=70000)
    parser.add_argument("--against", default=None, help="comma-separated opponents (default: the mix)")
    parser.add_argument("--top", type=int, default=3, help="games listed per level (default: 3)")
    parser.add_argument("--hand", type=int, default=20, help="a final hand this large counts (default: 20)")
    parser.add_argument("--trains", type=int, default=6, help="... with this many trains left (default: 6)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--out", type=Path, default=None,
                        help="append each game to this file as a JSON line; games already in it are not played again")
    parser.add_argument("--markdown", type=Path, default=None, help="write the figures as a Markdown table here")
    parser.add_argument("--from", dest="sources", type=Path, nargs="+", default=None,
                        help="read the games of these --out files instead of playing (only those of --levels, "
                             "--maps and the seeds of --seed/--games when given; a game of a later file replaces "
                             "the same game of an earlier one)")
    args = parser.parse_args(argv)
    header = run_header(sys.argv[1:] if argv is None else argv)
    runs: list[dict[str, str]] = []
    if args.sources:
        picked: dict[Task, Outcome] = {}  # a later file's game replaces the same game of an earlier file
        for source in args.sources:
            if not source.is_file():
                parser.error(f"--from {source}: no such file")
            more_runs, games = read_games(source)
            runs += more_runs
            picked.update((task_key(o), o) for o in games)
        levels = args.levels.split(",") if args.levels else None
        maps = args.maps.split(",") if args.maps else None
        window = range(args.seed, args.seed + args.games) if args.games is not None else None
        outcomes = [o for o in picked.values() if (levels is None or o.level in levels)
                    and (maps is None or o.map_name in maps) and (window is None or o.seed in window)]
        if not outcomes:
            parser.error("--from: the files hold no games of those levels, maps and seeds")
    else:
        args.levels = args.levels or ",".join(LEVELS)
        args.maps = args.maps or "europe,new_york"
        args.games = 200 if args.games is None else args.games
        mix = args.against.split(",") if args.against else MIX
        todo = list(tasks(args.levels.split(","), args.maps.split(","), args.games, args.seed, mix))
        done: list[Outcome] = []
        if args.out is not None and args.out.is_file():
            runs, done = read_games(args.out)
            wanted = {key_of(t) for t in todo}
            done = [o for o in done if task_key(o) in wanted]
            have = {task_key(o) for o in done}
            todo = [t for t in todo if key_of(t) not in have]
        outcomes = done + play_all(todo, args.jobs, args.out, header)
        order = {key_of(t): i for i, t in enumerate(tasks(args.levels.split(","), args.maps.split(","), args.games,
                                                  args.seed, mix))}
        outcomes.sort(key=lambda o: order[task_key(o)])
        if runs:
            runs.append(header)
    if args.markdown is not None:
        args.markdown.write_text(markdown(outcomes, runs, header, args.hand, args.trains, args.top))
    report = summary(outcomes, args.top, args.hand, args.trains)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    for level, row in report.items():
        assert isinstance(row, dict)
        stuck = row[f"hands_{args.hand}_or_more_with_{args.trains}_trains"]
        print(f"{level}: {row['games']} games, {row['wins']:g} wins; {row[f'hands_{args.hand}_or_more']} ended with "
              f"{args.hand}+ cards ({stuck} with {args.trains}+ trains left); "
              f"{row['games_with_a_tunnel_abandoned_twice']} with a tunnel abandoned twice or more")
        for o in row["largest_hands"]:
            print(f"  hand {o['hand']:2d} cards, {o['trains']:2d} trains left  {o['map_name']} seed {o['seed']} "
                  f"seat {o['seat']} against {o['opponent']}")
        for o in row["most_tunnel_retries"]:
            print(f"  {o['tunnel']} abandoned {o['tunnel_retries']} times  {o['map_name']} seed {o['seed']} "
                  f"seat {o['seat']} against {o['opponent']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
