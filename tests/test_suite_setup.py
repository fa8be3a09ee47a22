"""The suite's own settings (tests/conftest.py): the skip summary grouped by reason, and the `full` marker
that `scripts/test --quick` leaves out."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import TESTS, is_full

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
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", str(tmp_path)],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
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
