"""Optional compiled build of the rules engine.

`pip install .` installs pure Python. With `TTR_COMPILE=1` set, the engine modules are also compiled
to C extensions by mypyc (same source, same behaviour, about twice as fast); `scripts/bench` does this
in its own virtual environment. Editable installs for development stay pure Python.
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

ext_modules = []
if os.environ.get("TTR_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(ENGINE_MODULES, opt_level="3")

setup(ext_modules=ext_modules)
