"""A real-time clock across a restart: `ttr serve` killed (SIGKILL) and started again on the same SQLite file
resumes each game's clock to the deadline it had (kept with the game), and a deadline that passed while
the server was down gives the seat `RESUME_GRACE` seconds from the restart."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from ttr.server.clocks import RESUME_GRACE

from .test_restart import Served


def clocked(server: Served, move: float) -> dict[str, Any]:
    made: dict[str, Any] = httpx.post(f"{server.http}/api/games", json={
        "map": "new_york", "bot_delay": 0, "when_people_leave": "wait",
        "clock": {"mode": "realtime", "move": move, "reserve": 0},
        "seats": [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]}).json()
    return made


def clock_of(server: Served, game: dict[str, Any]) -> dict[str, Any]:
    """The clock a page gets when it opens the game's first seat."""
    with connect(server.ws(game["id"])) as ws:
        ws.send(json.dumps({"type": "join", "token": game["seats"][0]["token"]}))
        while True:
            msg: dict[str, Any] = json.loads(ws.recv(timeout=30))
            if msg["type"] == "clock":
                return msg


def test_a_restart_resumes_each_clock(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    server = Served(db, tmp_path / "a.log")
    try:
        long, short = clocked(server, 600), clocked(server, 2)
        before = clock_of(server, long)
        assert before["seat"] == 0 and 590 < before["left"] <= 600
        passed = clock_of(server, short)["deadline"]
        server.kill()
        killed = time.time()
        time.sleep(max(0.0, passed - killed) + 0.2)  # the short clock's deadline passes while no server runs
        restarting = time.time()
        assert passed < restarting
        server = Served(db, tmp_path / "b.log")
        after = clock_of(server, long)
        assert after["deadline"] == pytest.approx(before["deadline"], abs=0.01)  # the same moment, not 600 s again
        assert after["left"] < before["left"] - (restarting - killed)  # it ran while no server did
        grace = clock_of(server, short)
        assert grace["seat"] == 0 and grace["version"] == 0  # no bot played Ana's move while the server was down
        assert restarting < grace["deadline"] - RESUME_GRACE <= time.time()
    finally:
        if server.proc.poll() is None:
            server.kill()
