"""Helpers of the online tests: an app with cheap password hashing, and logged-in clients."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from ttr.server.config import OnlineSettings
from ttr.server.online import Online

from .kit import LiveServer, server_config

FAST = {"argon2_time_cost": 1, "argon2_memory_kib": 1024, "argon2_parallelism": 1}


class Live:
    """The app under a real uvicorn (`LiveServer`): browsers are `httpx.Client`s, each with its own cookies."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.app = server.app
        self.clients: list[httpx.Client] = []

    @property
    def online(self) -> Online:
        """The server's online features."""
        online: Online = self.app.state.online
        return online

    def browser(self) -> httpx.Client:
        """A new browser (its own cookie jar)."""
        client = httpx.Client(base_url=self.server.http, timeout=30)
        self.clients.append(client)
        return client

    def ws_headers(self, client: httpx.Client, origin: str | None = None) -> dict[str, str]:
        """The headers a page of this server sends when it opens a game socket: its cookies and Origin."""
        cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
        return {"Cookie": cookie, "Origin": origin or self.server.http}


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    """A live server with an in-memory store and cheap argon2."""
    server = LiveServer(server_config(static_dir=str(tmp_path / "no-page")))
    server.app.state.online.settings = OnlineSettings(**FAST)
    with server:
        out = Live(server)
        try:
            yield out
        finally:
            for c in out.clients:
                c.close()


def register(client: Any, name: str, password: str = "correct horse", **extra: Any) -> dict[str, Any]:
    """Register `name` on `client` (it keeps the cookies); sets the CSRF header; the answer."""
    r = client.post("/api/account/register", json={"name": name, "password": password, **extra})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    client.headers["X-CSRF-Token"] = body["csrf"]
    return body


def error_of(r: Any, status: int, code: str) -> str:
    """The message of an error answer, checked for its status and code."""
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    assert message
    return message


def play_out(live: Live, game_id: str, tokens: list[str], seed: int = 0) -> dict[str, Any]:
    """Play a game to its end over its people's sockets (each seat its own; random legal moves, seeded), its
    bots moving on the server; the last update."""
    rng = random.Random(seed)
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(connect(live.server.ws_url(game_id))) for _ in tokens]
        states: list[dict[str, Any]] = []
        for ws, token in zip(socks, tokens, strict=True):
            ws.send(json.dumps({"type": "join", "token": token}))
            states.append(_recv_until(ws, lambda m: m["type"] == "snapshot"))
        for _ in range(5000):
            if states[0]["status"] == "finished":
                return states[0]
            movers = [i for i, s in enumerate(states) if s["legal"]]
            version = states[0]["version"]
            if movers:
                choice = rng.choice(states[movers[0]]["legal"])
                socks[movers[0]].send(json.dumps({"type": "action", "version": version, "id": choice["id"]}))
            # else a bot is to move: wait for its update
            for i, ws in enumerate(socks):
                states[i] = _recv_until(ws, lambda m, v=version: m["type"] == "update" and m["version"] > v)
        raise AssertionError("the game did not end")


def _recv_until(ws: Any, want: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if msg["type"] == "error":
            raise AssertionError(msg)
        if want(msg):
            return msg
