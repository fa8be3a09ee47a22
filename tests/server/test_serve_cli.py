"""`ttr serve`'s command line: options, the default database, refusals with a clear message."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttr.cli.main import build_parser, main
from ttr.server import default_db_url


def test_options() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.db, args.bot_pool) == ("127.0.0.1", 8000, None, "process")
    assert 1 <= args.bot_workers <= 4
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "9", "--db", "memory",
                                      "--bot-workers", "3", "--bot-delay", "0", "--leave-grace", "5"])
    assert (args.host, args.port, args.db, args.bot_workers, args.bot_delay, args.leave_grace) == (
        "0.0.0.0", 9, "memory", 3, 0.0, 5.0)


def test_default_database_is_in_the_user_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    url = default_db_url()
    assert url.startswith("sqlite:///") and url.endswith("ttr.sqlite3")
    folder = Path(url.removeprefix("sqlite:///")).parent
    assert folder.is_dir() and str(folder).startswith(str(tmp_path))


@pytest.mark.parametrize(("argv", "status", "message"), [
    (["--bot-workers", "0"], 2, "--bot-workers must be at least 1"),
    (["--bot-delay", "-1"], 2, "--bot-delay"),
    (["--port", "99999"], 2, "--port must be from 0 to 65535"),
    (["--port", "-1"], 2, "--port must be from 0 to 65535"),
    (["--db", "nonsense://x"], 1, "cannot open the database nonsense://x"),
    (["--create-limit", "many"], 2, "--create-limit: 'many' is not a rate limit"),
    (["--message-limit", "5 per fortnight"], 2, "--message-limit"),
    (["--max-running-per-client", "0"], 2, "--max-running-per-client must be at least 1"),
    (["--idle-expiry", "0"], 2, "--idle-expiry must be a positive number of seconds"),
])
def test_refusals(argv: list[str], status: int, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "0", *argv]) == status  # a later --port wins
    assert message in capsys.readouterr().err


def test_port_in_use(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}"]) == 1
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_unwritable_data_directory(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                   tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))  # the data directory would have to be inside a file
    assert main(["serve", "--port", "0"]) == 1
    assert "cannot create the data directory" in capsys.readouterr().err


def test_a_second_server_on_one_sqlite_file_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from .test_restart import Served

    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    first = Served(db, tmp_path / "first.log")
    try:
        assert main(["serve", "--port", "0", "--db", db]) == 1
        err = capsys.readouterr().err
        assert "another ttr serve is using the database" in err and "games.sqlite3.lock" in err
        assert "PostgreSQL" in err
    finally:
        first.kill()
