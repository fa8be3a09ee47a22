"""The store tests' throwaway PostgreSQL cluster goes with the test process that started it, even a killed one:
its watchdog stops the server and removes its folder (tests/server/postgres.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

# Starts a cluster and prints its folder and its server's process id, then waits to be killed.
STARTER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from postgres import PostgresUnavailable, start_postgres
try:
    server = start_postgres()
except PostgresUnavailable as exc:
    print(json.dumps({"unavailable": str(exc)}), flush=True)
    sys.exit(0)
with open(server.base + "/data/postmaster.pid") as f:
    pid = int(f.readline())
print(json.dumps({"base": server.base, "pid": pid}), flush=True)
time.sleep(600)
"""


def running(pid: int) -> bool:
    """Whether process `pid` runs (a zombie does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc to see the server's process")
def test_a_killed_test_process_leaves_no_cluster_running() -> None:
    starter = subprocess.Popen([sys.executable, "-c", STARTER, str(HERE)], stdout=subprocess.PIPE, text=True)
    try:
        assert starter.stdout is not None
        started = json.loads(starter.stdout.readline())
        if "unavailable" in started:
            pytest.skip(f"no PostgreSQL server for the store tests: {started['unavailable']}")
        assert running(started["pid"]) and os.path.isdir(started["base"])
        starter.send_signal(signal.SIGKILL)  # no finaliser, no fixture teardown runs
        starter.wait(timeout=30)
        deadline = time.monotonic() + 60
        while (running(started["pid"]) or os.path.exists(started["base"])) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not running(started["pid"]), "the server outlived the killed test process"
        assert not os.path.exists(started["base"]), "the cluster's folder was left behind"
    finally:
        starter.kill()
        starter.wait(timeout=30)
