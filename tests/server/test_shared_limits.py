"""Rate limits counted in a storage several servers share (`--rate-limit-storage redis://...`): a client's
new games and registrations are counted once for the whole cluster, where each server's memory counts
its own. Starts a throwaway Redis (Debian's redis-server, the `redis` package); skips, saying why, without."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.config import OnlineSettings

from .kit import server_config

GAME = {"map": "new_york", "seats": [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]}
FAST = OnlineSettings(register_limit="2/hour", argon2_time_cost=1, argon2_memory_kib=1024, argon2_parallelism=1)


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A Redis server on a free loopback port, keeping nothing on disk."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("no redis-server (Debian: apt-get install redis-server)")
    pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait(10)


def servers(storage: str) -> list[TestClient]:
    apps = [create_app(server_config(create_limit="3/minute", rate_storage=storage, online=FAST),
                       pool=BotPool(1, "thread")) for _ in range(2)]
    return [TestClient(app) for app in apps]


def creations(clients: list[TestClient]) -> list[int]:
    """The answers to four new games from one client, sent to the two servers in turn."""
    return [clients[i % 2].post("/api/games", json=GAME).status_code for i in range(4)]


def registrations(clients: list[TestClient]) -> list[int]:
    return [clients[i % 2].post("/api/account/register", json={"name": f"Ana {i}", "password": "correct horse"})
            .status_code for i in range(3)]


def test_a_shared_storage_counts_each_limit_once_for_every_server(redis_url: str) -> None:
    with ExitStack() as stack:
        clients = [stack.enter_context(c) for c in servers(redis_url)]
        assert creations(clients) == [201, 201, 201, 429]  # 3 a minute in all, whichever server is asked
        assert registrations(clients) == [201, 201, 429]
    with ExitStack() as stack:  # each server's memory counts its own: twice as much gets through
        clients = [stack.enter_context(c) for c in servers("memory://")]
        assert creations(clients) == [201, 201, 201, 201]
        assert registrations(clients) == [201, 201, 201]
