"""The research harnesses' tests run apart from the main suite (`pytest research/tests`): they share the
main suite's helpers (`tests/helpers.py`), put on the import path here."""

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[2] / "tests"
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
