"""Per-client rate limits and caps: new games (429 with Retry-After), running games per client, socket
messages and hints (`rate_limited` with `retry_after`), sockets per game; and the expiry of idle games
(status `abandoned`, counted as such, not loaded at start)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, update
from starlette.websockets import WebSocketDisconnect

from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.sql_store import SqlStore, games
from ttr.server.store import MemoryStore

from .kit import server_config

GAME = {"map": "europe", "bot_delay": 0, "when_people_leave": "wait",
        "seats": [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]}


def make_client(store: Any = None, **changes: Any) -> TestClient:
    config = server_config(**changes)
    return TestClient(create_app(config, store=store or MemoryStore(), pool=BotPool(1, "thread")))


def test_new_games_per_client_are_limited(monkeypatch: pytest.MonkeyPatch) -> None:
    with make_client(create_limit="3/minute") as client:
        for _ in range(3):
            assert client.post("/api/games", json=GAME).status_code == 201
        r = client.post("/api/games", json=GAME)
        assert r.status_code == 429
        assert r.json()["error"]["code"] == "rate_limited" and "3/minute" in r.json()["error"]["message"]
        assert 1 <= int(r.headers["retry-after"]) <= 60
        assert len(client.get("/api/games").json()) == 3  # nothing more was created
        other = TestClient(client.app, client=("10.0.0.7", 50000))  # another client has its own count
        assert other.post("/api/games", json=GAME).status_code == 201


def test_running_games_per_client_are_capped() -> None:
    with make_client(max_running_per_client=2) as client:
        for _ in range(2):
            assert client.post("/api/games", json=GAME).status_code == 201
        r = client.post("/api/games", json=GAME)
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_games"
        assert "(2)" in r.json()["error"]["message"]
        other = TestClient(client.app, client=("10.0.0.8", 50000))
        assert other.post("/api/games", json=GAME).status_code == 201


def test_socket_messages_per_client_are_limited() -> None:
    with make_client(message_limit="4/10 seconds") as client:
        g = client.post("/api/games", json=GAME).json()
        with client.websocket_connect(f"/ws/{g['id']}") as ws:
            ws.send_json({"type": "join"})
            assert ws.receive_json()["type"] == "snapshot"
            for _ in range(3):
                ws.send_json({"type": "ping"})
                assert ws.receive_json() == {"type": "pong"}
            ws.send_json({"type": "ping"})
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["code"] == "rate_limited", msg
            assert 0 < msg["retry_after"] <= 10 and "4/10 seconds" in msg["message"]


def test_hints_per_client_are_limited() -> None:
    with make_client(hint_limit="1/minute") as client:
        g = client.post("/api/games", json=GAME).json()
        with client.websocket_connect(f"/ws/{g['id']}") as ws:
            ws.send_json({"type": "join", "token": g["seats"][0]["token"]})
            assert ws.receive_json()["type"] == "snapshot"
            ws.send_json({"type": "hint"})
            assert ws.receive_json()["type"] == "hint"
            ws.send_json({"type": "hint"})
            msg = ws.receive_json()
            assert msg["code"] == "rate_limited" and msg["retry_after"] > 0


def test_sockets_per_game_are_capped() -> None:
    with make_client(max_sockets_per_game=2) as client:
        g = client.post("/api/games", json=GAME).json()
        with client.websocket_connect(f"/ws/{g['id']}") as one, client.websocket_connect(f"/ws/{g['id']}") as two:
            for ws in (one, two):
                ws.send_json({"type": "join"})
                assert ws.receive_json()["type"] == "snapshot"
            with client.websocket_connect(f"/ws/{g['id']}") as three:
                msg = three.receive_json()
                assert msg["code"] == "too_many_sockets"
                with pytest.raises(WebSocketDisconnect) as closed:
                    three.receive_json()
                assert closed.value.code == 1013
        with client.websocket_connect(f"/ws/{g['id']}") as again:  # the others closed: room again
            again.send_json({"type": "join"})
            assert again.receive_json()["type"] == "snapshot"


def test_idle_games_are_abandoned() -> None:
    store = MemoryStore()
    with make_client(store) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        waiting = client.post("/api/games", json=GAME).json()
        played = client.post("/api/games", json=GAME).json()
        fresh = client.post("/api/games", json=GAME).json()
        with client.websocket_connect(f"/ws/{played['id']}") as ws:
            ws.send_json({"type": "join", "token": played["seats"][0]["token"]})
            snap = ws.receive_json()
            ws.send_json({"type": "action", "version": 0, "id": snap["legal"][0]["id"]})
            update = ws.receive_json()
            assert update["type"] == "update"
            while not update.get("legal"):  # the bot's moves come first: the game is idle from here on
                update = ws.receive_json()
        store._games[waiting["id"]].updated -= 86400 + 5  # created a day ago, never moved in
        store._games[played["id"]].updated -= 6 * 86400  # moved in 6 days ago: still running
        assert client.portal.call(manager.sweep) == [waiting["id"]]  # type: ignore[union-attr]
        store._games[played["id"]].updated -= 86400 + 5  # now 7 days
        with client.websocket_connect(f"/ws/{played['id']}") as ws:
            ws.send_json({"type": "join", "token": played["seats"][0]["token"]})
            snap = ws.receive_json()
            clocks = client.app.state.online.clocks.clocks  # type: ignore[attr-defined]
            assert played["id"] in clocks
            assert client.portal.call(manager.sweep) == [played["id"]]  # type: ignore[union-attr]
            assert played["id"] not in clocks  # an abandoned game's clock leaves memory with it
            abandoned = ws.receive_json()  # the page is told
            assert abandoned["type"] == "snapshot" and abandoned["status"] == "abandoned"
            ws.send_json({"type": "action", "version": snap["version"], "id": 0})
            msg = ws.receive_json()
            assert msg["code"] == "game_over" and "abandoned" in msg["message"]
        status = {g["id"]: g["status"] for g in client.get("/api/games").json()}
        assert status == {waiting["id"]: "abandoned", played["id"]: "abandoned", fresh["id"]: "running"}
        assert client.get("/api/stats").json()["games"] == {"running": 1, "finished": 0, "abandoned": 2}


def test_an_idle_game_is_abandoned_at_start_not_loaded(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with make_client(SqlStore(url), db=url) as client:
        gid = client.post("/api/games", json=GAME).json()["id"]
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(update(games).where(games.c.id == gid).values(updated=time.time() - 2 * 86400))
    engine.dispose()
    with make_client(SqlStore(url), db=url) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        deadline = time.monotonic() + 30
        while client.get(f"/api/games/{gid}").json()["status"] != "abandoned":
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert gid not in manager.rooms


def test_counting_starts_no_thread_and_expired_entries_are_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """The limits are counted without a thread per burst of messages (limits' own storage starts a timer thread
    10 ms after each), refuse past the limit, and drop what expired on a later count."""
    import threading

    from ttr.server.rate_limits import QuietMemoryStorage, RateLimits

    limits = RateLimits(server_config(message_limit="5/second"))
    started: list[threading.Thread] = []
    monkeypatch.setattr(threading.Thread, "start", lambda self: started.append(self))
    waits = [limits.hit(limits.message, "client-a") for _ in range(7)]
    assert waits[:5] == [None] * 5 and all(w is not None and w > 0 for w in waits[5:])
    assert limits.hit(limits.message, "client-b") is None  # another client counts apart
    assert started == []
    storage = limits._limiter.storage
    assert isinstance(storage, QuietMemoryStorage)

    def entries(client: str) -> int:
        return sum(len(events) for key, events in storage.events.items() if client in key)

    assert entries("client-a") == 5
    monkeypatch.setattr(time, "time", lambda real=time.time: real() + 2.0)  # the window has passed
    storage._next_expiry = 0.0
    assert limits.hit(limits.message, "client-a") is None
    assert entries("client-a") == 1 and entries("client-b") == 0
    assert started == []
