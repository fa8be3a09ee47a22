"""A throwaway PostgreSQL server for the store's contract tests (Debian's postgresql package).

`start_postgres()` runs initdb and pg_ctl from /usr/lib/postgresql/*/bin in a temporary folder, on a free
loopback port (or the port `TTR_TEST_PG_PORT` names, plus the pytest-xdist worker's number), with trust
authentication; as root it runs them as the `postgres` user (runuser) in a folder that user owns. It raises
`PostgresUnavailable` with the reason when that cannot be done.

A server started by pg_ctl outlives the process that started it, so each cluster has a watchdog: a small process
of its own session that holds the read end of a pipe from the test process and, when the pipe closes (`stop()`,
or the test process ending in any way, killed included), stops the server and removes its folder.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass


class PostgresUnavailable(Exception):
    """No PostgreSQL server can be started here; the message says why."""


# The watchdog (argv: this module's folder, the cluster's folder, the bindir, then the prefix): waits for the end of
# its standard input, then stops the server and removes the folder with `_stop`.
WATCHDOG = r"""
import sys
sys.path.insert(0, sys.argv[1])
from postgres import _stop
sys.stdin.buffer.read()
_stop(sys.argv[2], sys.argv[3], sys.argv[4:])
"""


@dataclass
class Postgres:
    """A running throwaway cluster and its watchdog."""

    url: str
    base: str
    bindir: str
    prefix: list[str]
    watchdog: subprocess.Popen[bytes]

    def stop(self) -> None:
        """Stop the server and remove its folder (the watchdog does, once its pipe is closed)."""
        _end(self.watchdog, self.base, self.bindir, self.prefix)


def _stop(base: str, bindir: str, prefix: list[str]) -> None:
    """Stop the server of the cluster in `base` (if it runs) and remove the folder."""
    if os.path.isdir(base):
        subprocess.run([*prefix, f"{bindir}/pg_ctl", "-D", f"{base}/data", "-m", "immediate", "-w", "stop"],
                       capture_output=True, timeout=60, check=False)
        shutil.rmtree(base, ignore_errors=True)


def _end(watchdog: subprocess.Popen[bytes], base: str, bindir: str, prefix: list[str]) -> None:
    """Close the watchdog's pipe and wait while it stops the server; stop it here if the watchdog did not."""
    if watchdog.stdin is not None:
        watchdog.stdin.close()
    try:
        watchdog.wait(timeout=90)
    except subprocess.TimeoutExpired:
        watchdog.kill()
    _stop(base, bindir, prefix)  # already done, unless the watchdog failed


def _watchdog(base: str, bindir: str, prefix: list[str]) -> subprocess.Popen[bytes]:
    """Start the watchdog of the cluster in `base`; the caller keeps its pipe open while the server is wanted."""
    here = os.path.dirname(os.path.abspath(__file__))
    return subprocess.Popen([sys.executable, "-c", WATCHDOG, here, base, bindir, *prefix],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)  # its own session: a Ctrl-C to the tests does not end it first


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _version(initdb: str) -> tuple[int, str]:
    """Sort key of /usr/lib/postgresql/VERSION/bin/initdb: the newest version last."""
    version = initdb.split("/")[4]
    return (int(version) if version.isdecimal() else -1, version)


def start_postgres(port: int | None = None) -> Postgres:
    """Start a cluster (on `port`, else a free one); `PostgresUnavailable` says why not."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise PostgresUnavailable("psycopg is not installed (pip install 'ttr-game[postgres]')") from None
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if not found:
        raise PostgresUnavailable("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb; "
                                  "Debian: apt-get install postgresql)")
    bindir = os.path.dirname(found[-1])
    base = tempfile.mkdtemp(prefix="ttr-pg-")
    prefix: list[str] = []
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(base, ignore_errors=True)
            raise PostgresUnavailable("running as root and there is no 'postgres' user to run the server") from None
        if shutil.which("runuser") is None:
            shutil.rmtree(base, ignore_errors=True)
            raise PostgresUnavailable("running as root and runuser is missing")
        os.chown(base, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    first = os.environ.get("TTR_TEST_PG_PORT", "")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:]
    port = port or (int(first) + (int(worker) if worker.isdecimal() else 0) if first.isdecimal() else _free_port())

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=120, check=False)

    watchdog = _watchdog(base, bindir, prefix)  # from here on, the folder goes when this process does
    try:
        return Postgres(_start(base, bindir, port, run), base, bindir, prefix, watchdog)
    except BaseException:
        _end(watchdog, base, bindir, prefix)
        raise


def _start(base: str, bindir: str, port: int, run: Callable[..., subprocess.CompletedProcess[str]]) -> str:
    """Create the cluster in `base` and start its server on `port`; its URL (`PostgresUnavailable` if it fails)."""
    done = run(f"{bindir}/initdb", "-D", f"{base}/data", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
    if done.returncode != 0:
        raise PostgresUnavailable(f"initdb failed: {(done.stderr or done.stdout).strip()[-300:]}")
    options = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
    done = run(f"{bindir}/pg_ctl", "-D", f"{base}/data", "-o", options, "-l", f"{base}/server.log", "-w", "-t", "60",
               "start")
    if done.returncode != 0:
        log = ""
        try:
            with open(f"{base}/server.log", encoding="utf-8", errors="replace") as f:
                log = f.read()[-300:]
        except OSError:
            pass
        raise PostgresUnavailable(f"pg_ctl start failed: {(done.stderr or done.stdout).strip()[-200:]} {log}")
    return f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"


def drop_tables(url: str) -> None:
    """Drop every table the database holds, the migrations' record included (the next store starts from an empty
    database). The tables are read from the database itself, not from `ttr.server.schema.metadata`, which holds
    only the tables of the modules imported so far (`ttr.server.online_tables` adds its own when imported)."""
    from sqlalchemy import MetaData, create_engine

    engine = create_engine(url)
    present = MetaData()
    present.reflect(engine)
    present.drop_all(engine)
    engine.dispose()
