"""`ttr --version`, the one version of the package, and the base install's `ttr serve` message."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

import ttr
from ttr.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_version_is_the_one_in_pyproject_and_ttr_version_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == ttr.DISTRIBUTION == "ttr-game"
    assert ttr.__version__ == project["version"]
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith(f"ttr (ttr-game) {project['version']}, ")
    assert out.endswith(("pure Python", "compiled (mypyc)"))


def test_serve_without_the_server_extra_names_the_extra_and_changes_nothing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if not installed: importing it raises ImportError
    db = tmp_path / "games.sqlite3"
    assert main(["serve", "--port", "0", "--db", f"sqlite:///{db}"]) == 1
    err = capsys.readouterr().err
    assert "ttr serve: error: the browser game needs the server extra: pip install 'ttr-game[server]'" in err
    assert not db.exists()


def test_the_license_is_mit_and_the_changelog_has_this_version() -> None:
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n\nCopyright (c) ttr contributors")
    assert f"## {ttr.__version__}\n" in (ROOT / "CHANGELOG.md").read_text()
