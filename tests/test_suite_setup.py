"""The suite's own settings (tests/conftest.py): the skip summary grouped by reason, the `full` marker
that `scripts/test --quick` leaves out, and the slowest tests first under `--dist loadgroup`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import LONG_TESTS, TESTS, is_full, long_rank, pytest_ignore_collect

# The inner pytest runs load only the plugins they use (xdist for --dist), not every installed one (a
# second of start-up instead of five).
BARE = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}

SAMPLE = '''
import pytest

def test_runs():
    assert True

@pytest.mark.skip(reason="no PostgreSQL (initdb not found)")
def test_store_a():
    pass

@pytest.mark.skip(reason="no PostgreSQL (initdb not found)")
def test_store_b():
    pass

def test_browser():
    pytest.skip("no Chromium at /usr/bin/chromium")
'''

WHOLE_FILE = '''
import pytest

pytest.importorskip("no_such_module_for_ttr", reason="Ray is not installed (pip install 'ttr-game[ray]')")

def test_never():
    pass
'''


def test_the_skipped_tests_are_listed_by_reason_with_counts_and_files(tmp_path: Path) -> None:
    shutil.copy(TESTS / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    (tmp_path / "test_whole_file.py").write_text(WHOLE_FILE)
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tmp_path)],
                         cwd=tmp_path, env=BARE, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    text = out.stdout
    assert "skipped: 4 test(s) or file(s), for 3 reason(s)" in text
    lines = [line.strip() for line in text.splitlines()]
    assert "2  no PostgreSQL (initdb not found)  (test_sample.py)" in lines  # the largest group first
    assert "1  no Chromium at /usr/bin/chromium  (test_sample.py)" in lines
    assert "1  Ray is not installed (pip install 'ttr-game[ray]')  (test_whole_file.py)" in lines


def test_quick_leaves_out_the_server_web_envs_and_sim_folders_and_the_slow_files() -> None:
    assert not is_full(TESTS / "engine" / "test_records.py")
    assert not is_full(TESTS / "rules" / "test_europe_claiming.py")
    assert not is_full(TESTS / "bots" / "test_mcts.py")
    assert all(is_full(TESTS / folder / "test_x.py") for folder in ("web", "server", "envs", "sim"))
    assert is_full(TESTS / "bots" / "test_compiled.py") and is_full(TESTS / "bots" / "test_hint.py")
    assert is_full(TESTS / "test_bot_targets_script.py")
    assert not is_full(Path("/elsewhere/test_compiled.py"))



class _Options:
    """The one option `pytest_ignore_collect` reads, as a pytest config gives it."""

    def __init__(self, markexpr: str) -> None:
        self.markexpr = markexpr

    def getoption(self, name: str, default: object = None) -> object:
        return self.markexpr if name == "markexpr" else default


def test_quick_does_not_collect_the_full_folders_at_all() -> None:
    quick: Any = _Options("not full")
    whole: Any = _Options("")
    other: Any = _Options("not full and not slow")
    for path in ("web", "server", "envs", "sim", "server/test_api.py"):
        assert pytest_ignore_collect(TESTS / path, quick) is True
    for path in ("engine", "bots", "rules", "bots/test_compiled.py", "test_suite_setup.py"):  # deselected by mark
        assert pytest_ignore_collect(TESTS / path, quick) is None
    assert pytest_ignore_collect(TESTS / "web", whole) is None
    assert pytest_ignore_collect(TESTS / "web", other) is None


ORDER_SAMPLE = '''
import pytest

def test_first_of_a():
    pass

@pytest.mark.parametrize("n", [1, 2])
def test_slow_of_a(n):
    pass

def test_last_of_a():
    pass
'''


def test_every_long_test_entry_names_a_test_file_and_a_test_in_it() -> None:
    for entry in LONG_TESTS:
        file, _, name = entry.partition("::")
        path = TESTS / file
        assert path.is_file(), entry
        assert not name or f"def {name}(" in path.read_text(), entry


def test_long_tests_rank_by_their_entry_and_only_test_entries_stand_alone() -> None:
    first_file = next(i for i, e in enumerate(LONG_TESTS) if "::" not in e)
    assert long_rank(f"{LONG_TESTS[first_file]}::test_anything") == (first_file, False)  # a file entry: one unit
    entry = next(i for i, e in enumerate(LONG_TESTS) if "::" in e)
    file, _, name = LONG_TESTS[entry].partition("::")
    assert long_rank(f"{file}::{name}") == (entry, True)
    assert long_rank(f"{file}::{name}[a-1]") == (entry, True)  # each parameter
    assert long_rank(f"{file}::{name}_not") == (len(LONG_TESTS), False)
    assert long_rank("engine/test_nothing_slow.py::test_x") == (len(LONG_TESTS), False)


def test_under_loadgroup_the_long_tests_come_first_and_the_rest_keep_their_files_order(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(
        (TESTS / "conftest.py").read_text().replace("TESTS = Path(__file__).resolve().parent",
                                                    "TESTS = Path(__file__).resolve().parent / 'tests'"))
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text(ORDER_SAMPLE)
    (tmp_path / "tests" / "test_b.py").write_text("def test_b():\n    pass\n")
    (tmp_path / "tests" / "test_c.py").write_text("def test_c():\n    pass\n")
    (tmp_path / "tests" / "web").mkdir()  # a folder of the full suite: its files before the quick ones
    (tmp_path / "tests" / "web" / "test_w.py").write_text("def test_w():\n    pass\n")
    text = (tmp_path / "conftest.py").read_text()
    start = text.index("LONG_TESTS = (")
    end = text.index("\n)\n", start) + 3
    (tmp_path / "conftest.py").write_text(
        text[:start] + 'LONG_TESTS = ("test_a.py::test_slow_of_a", "test_c.py")\n' + text[end:])
    args = [sys.executable, "-m", "pytest", "-p", "xdist", "-p", "no:cacheprovider", "--collect-only", "-q", "-o",
            "addopts=", "tests"]
    plain = subprocess.run(args, cwd=tmp_path, env=BARE, capture_output=True, text=True, timeout=120)
    grouped = subprocess.run([*args, "--dist", "loadgroup"], cwd=tmp_path, env=BARE, capture_output=True, text=True,
                             timeout=120)
    assert plain.returncode == 0 and grouped.returncode == 0, plain.stdout + grouped.stdout + grouped.stderr

    def ids(out: str) -> list[str]:
        return [line.removeprefix("tests/") for line in out.splitlines() if "::" in line]

    assert ids(plain.stdout) == ["test_a.py::test_first_of_a", "test_a.py::test_slow_of_a[1]",
                                 "test_a.py::test_slow_of_a[2]", "test_a.py::test_last_of_a", "test_b.py::test_b",
                                 "test_c.py::test_c", "web/test_w.py::test_w"]  # without loadgroup: the usual order
    assert ids(grouped.stdout) == ["test_a.py::test_slow_of_a[1]", "test_a.py::test_slow_of_a[2]",
                                   "test_c.py::test_c", "web/test_w.py::test_w", "test_a.py::test_first_of_a",
                                   "test_a.py::test_last_of_a", "test_b.py::test_b"]
