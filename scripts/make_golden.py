#!/usr/bin/env python3
"""Regenerate the golden files in tests/golden/ from the engine as it is now.

    .venv/bin/python scripts/make_golden.py

Run it ONLY after a deliberate rule change (a rule in docs/rules.md changed, or the engine was wrong
about one and has been fixed), then review the diff of tests/golden/ and say in the commit why the
counts or finals moved. Never run it to make tests/engine/test_golden.py pass after a speed-up or a refactoring:
such a change must not alter a single legal-action count, record or final score, and if it does, the
change has a bug.

Writes:
- tests/golden/games/<map>-<n>p-s<seed>.record.json: a whole game of uniformly random legal actions
  (`Game.new(map, n, seed)` played by `play_random(game, random.Random(seed))`), as `ttr-record/1`;
- tests/golden/games/<map>-<n>p-s<seed>.final.json: its final breakdown (as `ttr score --json` prints it);
- tests/golden/perft.json: legal-action counts along seeded random games ("lines") and at hand-built
  positions (total, per kind, and perft(2)).
The games, lines and positions themselves are listed in tests/golden_support.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from golden_support import (  # noqa: E402
    GAMES,
    GAMES_DIR,
    LINES,
    PERFT_FILE,
    POSITIONS,
    build_position,
    dump,
    game_stem,
    golden_record,
    perft_line,
    position_counts,
)


def main() -> int:
    """Write every golden file; print one line per file."""
    GAMES_DIR.mkdir(parents=True, exist_ok=True)
    for map_name, players, seed in GAMES:
        record, final = golden_record(map_name, players, seed)
        stem = game_stem(map_name, players, seed)
        (GAMES_DIR / f"{stem}.record.json").write_text(dump(record), encoding="utf-8")
        (GAMES_DIR / f"{stem}.final.json").write_text(dump(final), encoding="utf-8")
        totals = [p["total"] for p in final["players"]]
        print(f"{stem}: {len(record['actions'])} actions, {len(record['reshuffles'])} reshuffles, totals {totals}")
    lines = [perft_line(*line) for line in LINES]
    positions = [{"name": spec["name"], **position_counts(build_position(spec))} for spec in POSITIONS]
    perft = {
        "about": "Legal-action counts from the engine (scripts/make_golden.py). lines: counts[0] before the "
                 "first action, counts[i] after actions[i-1]. positions: built by tests/golden_support.py.",
        "positions": positions,
        "lines": lines,
    }
    PERFT_FILE.write_text(_dump_perft(perft), encoding="utf-8")
    print(f"{PERFT_FILE.relative_to(ROOT)}: {len(lines)} lines, {len(positions)} positions")
    return 0


def _dump_perft(perft: dict[str, object]) -> str:
    """perft.json with one position per line and each line's actions one per line."""
    import json

    out = ["{", f' "about": {json.dumps(perft["about"])},', ' "positions": [']
    positions = perft["positions"]
    assert isinstance(positions, list)
    out.append(",\n".join("  " + json.dumps(p) for p in positions))
    out.append(" ],")
    out.append(' "lines": [')
    lines = perft["lines"]
    assert isinstance(lines, list)
    out.append(",\n".join(dump(line).rstrip("\n") for line in lines))
    out.append(" ]")
    out.append("}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main())
