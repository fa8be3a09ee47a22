#!/usr/bin/env python3
"""Make greedy's setup-keep table of a map: `scripts/make_setup_keeps.py [MAP] [--hands SEED ...]`.

Writes `src/ttr/bots/data/setup-keeps-MAP.json` (`ttr.bots.setup_keeps`): greedy's keep of every setup
offer of MAP (Europe: 1 long and 3 regular tickets, 59,280 offers) under the starting hands of the games
seeded SEED. About 100 s for Europe with 3 hands. Make it again whenever greedy's ticket choice or the
map's tickets change: `tests/bots/test_setup_keeps.py` fails until then.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ttr.bots.setup_keeps import build_table
from ttr.maps import load_map

DATA = Path(__file__).resolve().parent.parent / "src" / "ttr" / "bots" / "data"


def main() -> int:
    """Build the table and write it."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("map", nargs="?", default="europe")
    parser.add_argument("--hands", type=int, nargs="+", default=[1000, 1001, 1002], metavar="SEED")
    args = parser.parse_args()
    game_map = load_map(args.map)
    if not game_map.rules.setup_long_tickets:
        parser.error(f"{args.map}: no long tickets at setup, so no table is needed")
    start = time.process_time()
    table = build_table(game_map, args.hands)
    DATA.mkdir(exist_ok=True)
    out = DATA / f"setup-keeps-{args.map}.json"
    out.write_text(json.dumps(table) + "\n", encoding="utf-8")
    print(f"{out}: {out.stat().st_size} bytes in {time.process_time() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
