"""Optional compiled build of the rules engine and the greedy bots.

`pip install .` installs pure Python. With `TTR_COMPILE=1` set, the engine modules and the greedy policy
that tournaments, simulations and the search's playouts spend their time in are also compiled to C
extensions by mypyc (same source, same games: `tests/bots/test_compiled.py`); `scripts/bench` does this in its
own virtual environment. Editable installs for development stay pure Python.
"""

import os

from setuptools import setup

ENGINE_MODULES = [
    "src/ttr/engine/actions.py",
    "src/ttr/engine/encoding.py",
    "src/ttr/engine/game.py",
    "src/ttr/engine/legality.py",
    "src/ttr/engine/phases.py",
    "src/ttr/engine/rng.py",
    "src/ttr/engine/scoring.py",
]
BOT_MODULES = [  # greedy and its playouts: about 1.7-2.3 times as fast compiled (docs/engine.md)
    "src/ttr/bots/planning/board.py",
    "src/ttr/bots/planning/index.py",
    "src/ttr/bots/planning/networks.py",
    "src/ttr/bots/planning/options.py",
    "src/ttr/bots/planning/paths.py",
    "src/ttr/bots/planning/plans.py",
    "src/ttr/bots/planning/trails.py",
    "src/ttr/bots/greedy.py",
    "src/ttr/bots/denial.py",
    "src/ttr/bots/playout.py",
]
COMPILED_MODULES = ENGINE_MODULES + BOT_MODULES

ext_modules = []
if os.environ.get("TTR_COMPILE") == "1":
    from mypyc.build import mypycify

    # TTR_COMPILE_OPT: the C compiler's optimization level (0-3, s or g), 3 unless set; tests/bots/test_compiled.py
    # builds at g without debug information (the same games, under three quarters of -O1's CPU to build)
    opt_level = os.environ.get("TTR_COMPILE_OPT", "3")
    ext_modules = mypycify(COMPILED_MODULES, opt_level=opt_level, debug_level="1" if opt_level == "3" else "0")

setup(ext_modules=ext_modules)
