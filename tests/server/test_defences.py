"""The server's defences against hostile input: a token of any text, request bodies that are not JSON, game
sockets opened by pages of other sites, and a slow hint that must not hold up its socket's other messages."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ttr.server.app import create_app, origin_allowed
from ttr.server.bot_pool import BotPool
from ttr.server.store import MemoryStore

from .kit import server_config

HUMAN_AND_BOT = [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]


def make_client(**changes: Any) -> TestClient:
    app = create_app(server_config(**changes), store=MemoryStore(), pool=BotPool(1, "thread"))
    return TestClient(app)


@pytest.fixture
def client() -> Iterator[TestClient]:
    with make_client() as c:
        yield c


def new_game(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/games", json={"map": "europe", "seats": HUMAN_AND_BOT, "bot_delay": 0,
                                        "when_people_leave": "wait"})
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


@pytest.mark.parametrize("token", ["\ud800", "\udfff\ud800x", "\x00", "é" * 500, "🂡", ""])
def test_a_token_of_any_text_is_bad_token(client: TestClient, token: str) -> None:
    g = new_game(client)
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        ws.send_text(json.dumps({"type": "join", "token": token}))  # JSON escapes the lone surrogates
        msg = ws.receive_json()
        if token == "":  # an empty token is no token: a spectator
            assert msg["type"] == "snapshot" and msg["seat"] is None
        else:
            assert msg["type"] == "error" and msg["code"] == "bad_token", msg
        ws.send_json({"type": "join", "token": g["seats"][0]["token"]})  # the socket still serves
        assert ws.receive_json()["seat"] == 0


def test_the_raw_surrogate_escape_is_bad_token(client: TestClient) -> None:
    g = new_game(client)
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        ws.send_text('{"type":"join","token":"\\ud800"}')
        msg = ws.receive_json()
        assert msg["code"] == "bad_token", msg


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/jsonp", "json"])
def test_a_body_that_is_not_declared_json_is_refused(client: TestClient, content_type: str | None) -> None:
    body = json.dumps({"map": "europe", "seats": HUMAN_AND_BOT})
    headers = {"content-type": content_type} if content_type is not None else {}
    r = client.post("/api/games", content=body.encode(), headers=headers)
    assert r.status_code == 415, r.text
    error = r.json()["error"]
    assert error["code"] == "unsupported_media_type" and "application/json" in error["message"]
    assert client.get("/api/games").json() == []  # nothing was created


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "Application/JSON"])
def test_json_bodies_are_taken(client: TestClient, content_type: str) -> None:
    body = json.dumps({"map": "europe", "seats": HUMAN_AND_BOT})
    r = client.post("/api/games", content=body.encode(), headers={"content-type": content_type})
    assert r.status_code == 201, r.text


def test_origin_rule() -> None:
    assert origin_allowed(None, "example.org", ())  # not a browser
    assert origin_allowed("http://example.org:8000", "example.org:8000", ())
    assert origin_allowed("https://Example.org", "example.org", ())
    assert not origin_allowed("http://evil.test", "example.org", ())
    assert not origin_allowed("http://example.org.evil.test", "example.org", ())
    assert not origin_allowed("http://example.org:8001", "example.org:8000", ())
    assert not origin_allowed("null", "example.org", ())
    assert not origin_allowed("file://", "", ())
    assert origin_allowed("https://play.example.org", "10.0.0.5:8000", ("https://play.example.org",))


def test_a_page_of_another_origin_cannot_open_the_game_socket(client: TestClient) -> None:
    g = new_game(client)
    with client.websocket_connect(f"/ws/{g['id']}", headers={"origin": "http://evil.test"}) as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "forbidden_origin" and "evil.test" in msg["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(f"/ws/{g['id']}", headers={"origin": "http://testserver"}) as ws:
        ws.send_json({"type": "join", "token": g["seats"][0]["token"]})
        assert ws.receive_json()["type"] == "snapshot"  # the server's own page


def test_an_allowed_origin_may_open_it() -> None:
    with make_client(allowed_origins=("https://play.example.org/",)) as client:
        g = new_game(client)
        with client.websocket_connect(f"/ws/{g['id']}", headers={"origin": "https://play.example.org"}) as ws:
            ws.send_json({"type": "join"})
            assert ws.receive_json()["type"] == "snapshot"
        with client.websocket_connect(f"/ws/{g['id']}", headers={"origin": "https://other.example.org"}) as ws:
            assert ws.receive_json()["code"] == "forbidden_origin"


def test_a_hint_does_not_hold_up_the_sockets_other_messages(client: TestClient) -> None:
    g = new_game(client)
    pool = client.app.state.manager.pool  # type: ignore[attr-defined]
    asked = pool.hint
    release = asyncio.Event()
    calls: list[int] = []

    async def slow(*args: Any) -> Any:
        calls.append(1)
        await release.wait()
        return await asked(*args)

    pool.hint = slow
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        ws.send_json({"type": "join", "token": g["seats"][0]["token"]})
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_json({"type": "hint"})
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}  # answered while the hint is still being worked out
        ws.send_json({"type": "hint"})  # one hint at a time per seat
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "hint_pending", msg
        client.portal.call(release.set)  # type: ignore[union-attr]
        msg = ws.receive_json()
        assert msg["type"] == "hint" and msg["version"] == 0
        assert calls == [1]
        ws.send_json({"type": "hint"})  # done: asking again is answered (the same position, the same hint)
        assert ws.receive_json() == msg
