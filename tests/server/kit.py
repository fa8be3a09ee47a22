"""Test helpers for the server: a real uvicorn on a free loopback port, WebSocket clients, game replay."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import uvicorn
import websockets

from ttr.engine import Game
from ttr.maps import load_map
from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.rooms import GameManager, ServerConfig
from ttr.server.store import GameStore, MemoryStore


def server_config(**changes: Any) -> ServerConfig:
    """A config for tests: in-memory store, bots in threads, no bot delay, no grace, and fixed seeds for
    games of several people too (the tests replay known deals; `ServerConfig.chosen_seeds`), and limits
    far above what a test sends (every request comes from one client; tests/server/test_limits.py sets them)."""
    base: dict[str, Any] = {"db": "memory", "bot_workers": 2, "bot_pool": "thread", "bot_delay": 0.0,
                            "leave_grace": 0.0, "standin_level": "random", "chosen_seeds": True,
                            "create_limit": "100000/minute", "message_limit": "1000000/10 seconds",
                            "hint_limit": "100000/minute", "max_running_per_client": 100000,
                            "max_sockets_per_game": 10000}
    base.update(changes)
    return ServerConfig(**base)


class LiveServer:
    """`ttr.server.app` under a real uvicorn, in a background thread, on a free loopback port."""

    def __init__(self, config: ServerConfig | None = None, store: GameStore | None = None) -> None:
        self.config = config or server_config()
        self.store = store if store is not None else MemoryStore()
        pool = BotPool(self.config.bot_workers, self.config.bot_pool)
        self.app = create_app(self.config, store=self.store, pool=pool)
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", ws="websockets-sansio",
                                                    ws_max_size=64 * 1024, lifespan="on"))
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve(sockets=[self.sock])), daemon=True)

    @property
    def http(self) -> str:
        """The base URL."""
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, game_id: str) -> str:
        """The game's WebSocket URL."""
        return f"ws://127.0.0.1:{self.port}/ws/{game_id}"

    @property
    def manager(self) -> GameManager:
        """The server's game manager (to compare messages with the real games)."""
        manager: GameManager = self.app.state.manager
        return manager

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)


@contextlib.contextmanager
def live_server(**changes: Any) -> Iterator[LiveServer]:
    """A started `LiveServer` with `server_config(**changes)`."""
    with LiveServer(server_config(**changes)) as server:
        yield server


class Client:
    """A WebSocket client that keeps every message it receives."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, url: str) -> Client:
        """Connect."""
        return cls(await websockets.connect(url, max_size=None))

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send a message (a dict as JSON, a str as is)."""
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = 30) -> dict[str, Any]:
        """The next message."""
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.received.append(msg)
        return msg

    async def recv_type(self, *types: str, timeout: float = 30) -> dict[str, Any]:
        """The next message of one of `types` (others are kept but skipped)."""
        while True:
            msg = await self.recv(timeout)
            if msg["type"] in types:
                return msg

    async def join(self, token: str | None = None) -> dict[str, Any]:
        """Join (as the seat of `token`, or as a spectator) and return the snapshot."""
        await self.send({"type": "join", "token": token} if token else {"type": "join"})
        return await self.recv_type("snapshot", "error")

    async def close(self) -> None:
        """Close the socket."""
        await self.ws.close()


def replay_game(map_name: str, names: list[str], seed: int, ids: list[int]) -> Game:
    """The game after `ids` (what the server rebuilds from its store)."""
    game = Game.new(load_map(map_name), names, seed=seed)
    for aid in ids:
        game.apply_id(aid)
    return game


def wait_until(predicate: Any, timeout: float = 60.0, step: float = 0.01) -> None:
    """Poll `predicate` until it is true; fail after `timeout` seconds (a hang, not a speed test)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        time.sleep(step)
