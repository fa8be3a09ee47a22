"""Strength before and after a change, on the same deals: `research/before_after.py play|report ...`.

    scripts/compiled python research/before_after.py play --out /tmp/after.jsonl            # this checkout
    /tmp/ttr-before/.venv-fast/bin/python research/before_after.py play --out /tmp/before.jsonl  # another one
    python research/before_after.py report /tmp/before.jsonl /tmp/after.jsonl --markdown research/before-after.md

`play` plays every game of the comparisons below (or of `--only`) with the `ttr` that the interpreter imports,
so the same script measures any commit whose `ttr.bots` has `make_bot(spec, map, seat, seed)` and
`play_game(map, bots, seed, players=...)`: run it with the interpreter of a build of the other commit. Each
game is one JSON line (the comparison, seed, seat, opponent, the bot's win, both scores, the CPU seconds,
the commit and build that played it); games already in `--out` are not played again, so a run can be
stopped and resumed. A comparison's game i is seed `seed + i` against `opponents[i % len(opponents)]`, the
bot's seat alternating every round of opponents: the same seed, seat and opponent at both commits is the
same deal (the deck and tickets come from the seed).

`report` pairs the two files game by game and writes, per comparison, the wins before and after (ties count
half), the games decided differently each way, a paired 95% interval of the change of win rate, and the
exact two-sided sign test (McNemar's test) of that split.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / 'simple_bot.py'}"
PAPER = ["destination_hungry", "route_focus", "one_step_thinker", "long_route_junkie"]
MIX = ["random", *PAPER, "greedy", "greedy_long", "greedy_long_fitted", EXAMPLE]
MIN_INTERVAL = 10  # paired games below which no normal interval is given


@dataclass(frozen=True)
class Comparison:
    """`bot` in two-player `map_name` against `opponents` by turns, `games` games from seed `seed`."""

    name: str
    bot: str
    map_name: str
    opponents: tuple[str, ...]
    games: int
    seed: int


def comparisons() -> list[Comparison]:
    """Every comparison measured: the level ladder against the mix, the search against greedy and the paper
    agents. Game counts fit about an hour of one core on the compiled build (two commits)."""
    out: list[Comparison] = []
    for m, map_name in enumerate(("europe", "new_york")):
        for level, games in (("easy", 200), ("medium", 200), ("hard", 200), ("expert", 45)):
            out.append(Comparison(f"{level}-mix-{map_name}", level, map_name, tuple(MIX), games,
                                  100_000 + 10_000 * m))
    for m, map_name in enumerate(("europe", "new_york")):
        for bot, games in (("mcts", 40), ("expert", 40)):
            out.append(Comparison(f"{bot}-greedy-{map_name}", bot, map_name, ("greedy",), games,
                                  200_000 + 10_000 * m))
            out.append(Comparison(f"{bot}-paper-{map_name}", bot, map_name, tuple(PAPER), games,
                                  300_000 + 10_000 * m))
    return out


def opponent_label(spec: str) -> str:
    """The opponent as the tables name it (`example` for the example program)."""
    return "example" if spec.startswith("cmd:") else spec


def tasks(chosen: list[Comparison], games: int | None = None) -> Iterator[tuple[str, str, str, str, int, int]]:
    """Every game of `chosen` (the first `games` of each when given): (comparison, bot, opponent, map, seed,
    seat)."""
    for c in chosen:
        for i in range(c.games if games is None else min(games, c.games)):
            yield (c.name, c.bot, c.opponents[i % len(c.opponents)], c.map_name, c.seed + i,
                   (i // len(c.opponents)) % 2)


def round_robin(todo: list[tuple[str, str, str, str, int, int]]) -> list[tuple[str, str, str, str, int, int]]:
    """`todo` in turns: each comparison's next game in turn, so a run stopped early has played about as many
    games of each (and two commits' runs stopped at the same point hold about the same games)."""
    by: dict[str, list[tuple[str, str, str, str, int, int]]] = {}
    for t in todo:
        by.setdefault(t[0], []).append(t)
    queues = list(by.values())
    return [q[i] for i in range(max(map(len, queues), default=0)) for q in queues if i < len(q)]


def play_one(task: tuple[str, str, str, str, int, int]) -> dict[str, Any]:
    """Play one game of a comparison and return its JSON line."""
    from ttr.bots import make_bot, play_game
    from ttr.bots.cmd_bot import end_bots
    from ttr.engine import final_score
    from ttr.maps import load_map

    name, bot, opponent, map_name, seed, seat = task
    game_map = load_map(map_name)
    specs = [opponent, opponent]
    specs[seat] = bot
    names = ["a", "b"]
    start = time.process_time()
    bots = [make_bot(spec, game_map, s, seed) for s, spec in enumerate(specs)]
    game = None
    try:
        game = play_game(game_map, bots, seed, players=names)
    finally:
        end_bots(bots, game)
    final = final_score(game).to_json()
    winners = [w if isinstance(w, str) else names[w] for w in final["winners"]]
    rows = final["players"]
    return {"comparison": name, "bot": bot, "opponent": opponent_label(opponent), "map": map_name,
            "seed": seed, "seat": seat, "win": 1 / len(winners) if names[seat] in winners else 0.0,
            "score": rows[seat]["total"], "opponent_score": rows[1 - seat]["total"],
            "cpu": round(time.process_time() - start, 2), "commit": commit(), "build": build()}


def build() -> str:
    """"compiled" where the engine is a mypyc extension, else "pure Python"."""
    import ttr.engine.game

    return "compiled" if Path(ttr.engine.game.__file__ or "").suffix in (".so", ".pyd") else "pure Python"


def commit() -> str:
    """The commit of the checkout whose `ttr` this process imports (a build's venv sits inside it)."""
    import ttr

    here = Path(ttr.__file__ or ".").resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True, text=True,
                             check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.stdout.strip()


def same_source(commits: list[str]) -> bool:
    """Whether `commits` (of this repository) hold the same `src/`: a run resumed after a commit elsewhere."""
    return all(subprocess.run(["git", "diff", "--quiet", commits[0], c, "--", "src"], cwd=ROOT,
                              capture_output=True).returncode == 0 for c in commits[1:])


def key(row: dict[str, Any]) -> tuple[str, int]:
    """A game's identity across commits: its comparison and seed (the seat and opponent follow from them)."""
    return row["comparison"], int(row["seed"])


def read(path: Path) -> dict[tuple[str, int], dict[str, Any]]:
    """The games of a `play --out` file, by comparison and seed."""
    out: dict[tuple[str, int], dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                out[key(row)] = row
    return out


def sign_test(better: int, worse: int) -> float:
    """Exact two-sided sign test: the chance of a split at least this uneven if each way were equally likely."""
    n = better + worse
    if n == 0:
        return 1.0
    tail: float = sum(math.comb(n, k) for k in range(min(better, worse) + 1)) / 2**n
    return min(1.0, 2 * tail)


def paired_interval(diffs: list[float]) -> tuple[float, float]:
    """95% normal interval of the mean of paired differences (after minus before, per game)."""
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean - half, mean + half


def fmt(x: float) -> str:
    """A win count: whole, or with the half of a shared win."""
    return f"{x:g}"


def report(before_path: Path, after_path: Path, notes: list[str] | None = None) -> str:
    """The Markdown table of every comparison played at both commits (`notes`: lines said under the commits,
    such as how each side was played)."""
    before, after = read(before_path), read(after_path)
    meta = {}
    for label, rows in (("before", before), ("after", after)):
        meta[label] = sorted({f"commit `{r['commit']}`, {r['build']} build" for r in rows.values()})
        commits = sorted({r["commit"] for r in rows.values()})
        if len(commits) > 1 and same_source(commits):
            meta[label].append("the same `src/` at each of these commits")
    lines = [
        "# Strength before and after, on the same deals",
        "",
        f"Written by `research/before_after.py report {before_path.name} {after_path.name} --markdown ...` from "
        "the games of `research/before_after.py play` at each commit; do not edit by hand.",
        "",
        f"- before: {'; '.join(meta['before'])}",
        f"- after: {'; '.join(meta['after'])}",
        *(f"- {note}" for note in notes or []),
        "",
        "Two-player games, the bot's seat alternating each round of opponents; game i of a comparison is seed "
        "`seed + i` at both commits, so each pair is the same deal. Mix: random, the four FDG 2017 agents, "
        "greedy, greedy_long, greedy_long_fitted and examples/bots/simple_bot.py by turns; paper: the four "
        "agents by turns. Wins count a shared win as half. Better / worse: games the bot's result rose / fell "
        "from before to after. Change: after minus before, in points of win rate, with a paired 95% interval "
        "(with no game changed, ±3/games: the rule of three; none under 10 games). "
        "p: exact two-sided sign test (McNemar) of better against worse. Same scores: games ending with both "
        "seats' scores as before (most likely played move for move as before). By opponent: better/worse "
        "against each opponent where any game changed. CPU: mean seconds per game of the measured process "
        "(the example program's own time not counted).",
        "",
        "| comparison | games | wins before | wins after | better | worse | change (95%) | p | same scores "
        "| by opponent | CPU before / after |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|---|---|",
    ]
    for c in comparisons():
        pairs = [(before[k], after[k]) for k in sorted(set(before) & set(after)) if k[0] == c.name]
        if not pairs:
            continue
        n = len(pairs)
        wb = sum(b["win"] for b, _ in pairs)
        wa = sum(a["win"] for _, a in pairs)
        better = sum(a["win"] > b["win"] for b, a in pairs)
        worse = sum(a["win"] < b["win"] for b, a in pairs)
        # With no game changed the normal interval is empty; the rule of three bounds the share changed.
        bound = min(1.0, 3 / n)
        lo, hi = paired_interval([a["win"] - b["win"] for b, a in pairs]) if better + worse else (-bound, bound)
        interval = f"({lo * 100:+.1f} to {hi * 100:+.1f})" if n >= MIN_INTERVAL else "(too few games)"
        same = sum((b["score"], b["opponent_score"]) == (a["score"], a["opponent_score"]) for b, a in pairs)
        split: dict[str, list[int]] = {}
        for b, a in pairs:
            if a["win"] != b["win"]:
                split.setdefault(b["opponent"], [0, 0])[0 if a["win"] > b["win"] else 1] += 1
        by = ", ".join(f"{o} {u}/{d}" for o, (u, d) in sorted(split.items())) or "-"
        cpu_b = sum(b["cpu"] for b, _ in pairs) / n
        cpu_a = sum(a["cpu"] for _, a in pairs) / n
        lines.append(
            f"| {c.name} | {n} | {fmt(wb)} ({wb / n:.0%}) | {fmt(wa)} ({wa / n:.0%}) | {better} | {worse} | "
            f"{(wa - wb) / n * 100:+.1f} {interval} | {sign_test(better, worse):.2f} | "
            f"{same} | {by} | {cpu_b:.2f} / {cpu_a:.2f} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    """Play the comparisons' games at this interpreter's `ttr`, or report two runs side by side."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play the games with the ttr this interpreter imports")
    p.add_argument("--out", type=Path, required=True, help="JSON lines, appended; games in it are skipped")
    p.add_argument("--only", default="", help="comma-separated comparison names or prefixes (default: all)")
    p.add_argument("--games", type=int, default=None, help="only the first GAMES of each comparison")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--list", action="store_true", help="print the comparisons and stop")
    r = sub.add_parser("report", help="pair two runs and print (or write) the table")
    r.add_argument("before", type=Path)
    r.add_argument("after", type=Path)
    r.add_argument("--markdown", type=Path, default=None)
    r.add_argument("--note", action="append", default=[], help="a line for the page's heading (repeatable)")
    args = parser.parse_args()
    if args.command == "report":
        text = report(args.before, args.after, args.note)
        if args.markdown:
            args.markdown.write_text(text)
        print(text, end="")
        return 0
    wanted = [w for w in args.only.split(",") if w]
    chosen = [c for c in comparisons() if not wanted or any(c.name.startswith(w) for w in wanted)]
    if args.list:
        for c in chosen:
            print(f"{c.name}: {c.bot} against {', '.join(map(opponent_label, c.opponents))}, {c.games} games "
                  f"from seed {c.seed}")
        return 0
    done = read(args.out)
    todo = round_robin([t for t in tasks(chosen, args.games) if (t[0], t[4]) not in done])
    with args.out.open("a") as out:
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                for row in pool.map(play_one, todo):
                    out.write(json.dumps(row) + "\n")
                    out.flush()
        else:
            for task in todo:
                out.write(json.dumps(play_one(task)) + "\n")
                out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
