"""Restart: `ttr serve` killed mid-game (SIGKILL) and started again on the same SQLite file; every game
goes on from the same state (the same snapshot, byte for byte), people and bots alike. Stopped by SIGTERM
(as a service manager stops it), it shuts down cleanly and leaves no bot worker behind."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .kit import Client

GAME = {"map": "europe", "seed": 424242, "bot_delay": 0, "when_people_leave": "wait",
        "seats": [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]}
BOTS_ONLY = {"map": "new_york", "seed": 7, "bot_delay": 0.05,
             "seats": [{"type": "bot", "level": "random"}, {"type": "bot", "level": "random"}]}


class Served:
    """A `ttr serve` subprocess."""

    def __init__(self, db: str, log: Path, pool: str = "thread", extra: tuple[str, ...] = ()) -> None:
        self.log = log
        with log.open("ab") as err:  # a file, not a pipe: nobody reads the server's log while it runs
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "ttr.cli.main", "serve", "--port", "0", "--db", db, "--bot-pool", pool,
                 "--bot-delay", "0", "--leave-grace", "600", *extra],
                stdout=subprocess.PIPE, stderr=err, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if match is None:
            self.kill()
            raise AssertionError(f"no address printed: {line!r} {log.read_text(errors='replace')[-2000:]}")
        self.port = int(match.group(1))
        self.http = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while True:  # the address is printed before the lifespan has loaded the games
            try:
                if httpx.get(f"{self.http}/api/maps", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("the server did not answer")
            time.sleep(0.05)

    def ws(self, gid: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{gid}"

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    yield f"sqlite:///{tmp_path / 'games.sqlite3'}"


async def play_moves(url: str, token: str, moves: int, rng: random.Random) -> dict[str, Any]:
    """Play `moves` random actions as the seat of `token`; the snapshot-like state at its next turn."""
    client = await Client.open(url)
    msg = await client.join(token)
    done = 0
    while True:
        if msg["type"] in ("snapshot", "update") and msg["legal"]:
            if done == moves:
                break
            await client.send({"type": "action", "version": msg["version"], "id": rng.choice(msg["legal"])["id"]})
            done += 1
        msg = await client.recv()
        assert msg["type"] != "error", msg
    await client.close()
    return msg


async def snapshot(url: str, token: str) -> dict[str, Any]:
    client = await Client.open(url)
    msg = await client.join(token)
    await client.close()
    return msg


def test_killed_server_resumes_every_game(db: str, tmp_path: Path) -> None:
    server = Served(db, tmp_path / "server.log")
    try:
        created = httpx.post(f"{server.http}/api/games", json=GAME).json()
        bots = httpx.post(f"{server.http}/api/games", json=BOTS_ONLY).json()
        gid, token = created["id"], created["seats"][0]["token"]
        asyncio.run(play_moves(server.ws(gid), token, 12, random.Random(1)))
        before = asyncio.run(snapshot(server.ws(gid), token))
        assert before["version"] >= 12 and before["legal"]
        bots_before = httpx.get(f"{server.http}/api/games/{bots['id']}").json()["version"]
    finally:
        server.kill()

    server = Served(db, tmp_path / "server.log")
    try:
        after = asyncio.run(snapshot(server.ws(gid), token))
        assert after == before
        summary = httpx.get(f"{server.http}/api/games/{gid}").json()
        assert summary["version"] == before["version"] and summary["status"] == "running"
        # play goes on: the next move is accepted at the same version, and the bot answers
        state = asyncio.run(play_moves(server.ws(gid), token, 1, random.Random(2)))
        assert state["version"] > before["version"]
        # the bots-only game resumed from where it was and goes on by itself
        deadline = time.monotonic() + 60
        while httpx.get(f"{server.http}/api/games/{bots['id']}").json()["version"] <= bots_before + 2:
            assert time.monotonic() < deadline, "the bots-only game did not resume"
            time.sleep(0.05)
    finally:
        server.kill()


def _stat(pid: int) -> list[str] | None:
    """The fields of `/proc/PID/stat` after the command name (state, parent, ...), or None if gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux `/proc`)."""
    pids = (int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit())
    return [child for child in pids if (fields := _stat(child)) is not None and int(fields[1]) == pid]


def _alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from Linux /proc")
def test_sigterm_stops_the_server_and_its_bot_workers(db: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = Served(db, log, pool="process")
    try:
        bots = httpx.post(f"{server.http}/api/games", json={**BOTS_ONLY, "bot_delay": 0}).json()
        deadline = time.monotonic() + 60
        while httpx.get(f"{server.http}/api/games/{bots['id']}").json()["version"] < 3:  # the workers are busy
            assert time.monotonic() < deadline, "the bots did not move"
            time.sleep(0.05)
        workers = _children(server.proc.pid)
        assert workers, "no bot worker process"
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(30)
    finally:
        if server.proc.poll() is None:
            server.kill()
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers):
        assert time.monotonic() < deadline, "a bot worker outlived the server"
        time.sleep(0.1)
    text = log.read_text(errors="replace")
    assert "leaked" not in text and "Traceback" not in text, text[-2000:]
