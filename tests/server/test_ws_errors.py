"""Every error code of docs/web-protocol.md, one test each: the error goes to the sender only, names the
problem, nothing changes (same version, same full state, same stored actions) and the server still answers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ttr.engine import full_state
from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.protocol import ERROR_CODES
from ttr.server.store import MemoryStore

from .kit import server_config


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(server_config(), store=MemoryStore(), pool=BotPool(1, "thread"))
    with TestClient(app) as c:
        yield c


def new_game(client: TestClient, seats: list[dict[str, Any]] | None = None, seed: int = 3) -> dict[str, Any]:
    body = {"map": "europe", "seats": seats or [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Ben"}],
            "seed": seed, "bot_delay": 0, "when_people_leave": "wait"}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


def state_of(client: TestClient, game_id: str) -> tuple[int, dict[str, Any], int]:
    manager = client.app.state.manager  # type: ignore[attr-defined]
    room = manager.rooms[game_id]
    return room.version, full_state(room.game), len(manager.store.actions(game_id))


def receive(ws: Any) -> dict[str, Any]:
    """The next message that is not a `seats` notice (another tab coming or going)."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] != "seats":
            return msg


def expect_error(ws: Any, code: str) -> dict[str, Any]:
    msg = receive(ws)
    assert msg["type"] == "error", msg
    assert msg["code"] == code, msg
    assert isinstance(msg["message"], str) and msg["message"]
    return msg


def still_answers(ws: Any) -> None:
    ws.send_json({"type": "ping"})
    assert receive(ws) == {"type": "pong"}


def joined(ws: Any, token: str | None = None) -> dict[str, Any]:
    ws.send_json({"type": "join", "token": token} if token else {"type": "join"})
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "snapshot", msg
    return msg


def test_the_codes_tested_here_are_the_protocols() -> None:
    assert set(ERROR_CODES) | {"internal"} == {
        "malformed", "too_large", "unknown_type", "join_first", "bad_token", "spectator", "not_your_turn",
        "stale_version", "illegal", "game_over", "not_found", "internal",
        "forbidden_origin", "hint_pending",  # these two: tests/server/test_defences.py
        "rate_limited", "too_many_sockets",  # these two: tests/server/test_limits.py (and chat's)
        "not_your_seat", "not_logged_in",  # joining by account: tests/server/test_accounts.py
        "not_seated", "chat_empty", "chat_too_long"}  # chat: tests/server/test_chat.py


@pytest.mark.parametrize("raw", ["not json", "[1, 2]", '"join"', '{"type": 5}', '{"no": "type"}',
                                 '{"type": "action", "version": "0", "id": 1}',
                                 '{"type": "action", "version": 0}', '{"type": "action", "version": 0, "id": 1.5}',
                                 '{"type": "action", "version": true, "id": 1}', '{"type": "join", "token": 7}'])
def test_malformed(client: TestClient, raw: str) -> None:
    g = new_game(client)
    before = state_of(client, g["id"])
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        joined(ws, g["seats"][0]["token"])
        ws.send_text(raw)
        expect_error(ws, "malformed")
        still_answers(ws)
    assert state_of(client, g["id"]) == before


def test_binary_frame_is_malformed(client: TestClient) -> None:
    g = new_game(client)
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        joined(ws, g["seats"][0]["token"])
        ws.send_bytes(b'{"type": "ping"}')
        expect_error(ws, "malformed")
        still_answers(ws)


def test_too_large(client: TestClient) -> None:
    g = new_game(client)
    before = state_of(client, g["id"])
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        joined(ws, g["seats"][0]["token"])
        ws.send_text(json.dumps({"type": "action", "version": 0, "id": 0, "pad": "x" * 5000}))
        msg = expect_error(ws, "too_large")
        assert "4096" in msg["message"]
        still_answers(ws)
    assert state_of(client, g["id"]) == before


def test_unknown_type(client: TestClient) -> None:
    g = new_game(client)
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        joined(ws, g["seats"][0]["token"])
        msg = expect_error(ws_send(ws, {"type": "dance"}), "unknown_type")
        assert "dance" in msg["message"]
        still_answers(ws)


def ws_send(ws: Any, message: dict[str, Any]) -> Any:
    ws.send_json(message)
    return ws


def test_join_first(client: TestClient) -> None:
    g = new_game(client)
    before = state_of(client, g["id"])
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        expect_error(ws_send(ws, {"type": "action", "version": 0, "id": 0}), "join_first")
        expect_error(ws_send(ws, {"type": "ping"}), "join_first")
        joined(ws)
        still_answers(ws)
    assert state_of(client, g["id"]) == before


def test_bad_token(client: TestClient) -> None:
    g = new_game(client)
    other = new_game(client)
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        expect_error(ws_send(ws, {"type": "join", "token": "nope"}), "bad_token")
        # a real token of another game is no token here either
        expect_error(ws_send(ws, {"type": "join", "token": other["seats"][0]["token"]}), "bad_token")
        expect_error(ws_send(ws, {"type": "action", "version": 0, "id": 0}), "join_first")
        snapshot = joined(ws, g["seats"][1]["token"])
        assert snapshot["seat"] == 1


def test_spectator(client: TestClient) -> None:
    g = new_game(client)
    before = state_of(client, g["id"])
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        snap = joined(ws)
        assert snap["seat"] is None and snap["legal"] == []
        aid = client.app.state.manager.rooms[g["id"]].game.legal_ids()[0]  # type: ignore[attr-defined]
        expect_error(ws_send(ws, {"type": "action", "version": 0, "id": aid}), "spectator")
        expect_error(ws_send(ws, {"type": "hint"}), "spectator")
        still_answers(ws)
    assert state_of(client, g["id"]) == before


def test_not_your_turn(client: TestClient) -> None:
    g = new_game(client)
    before = state_of(client, g["id"])
    game = client.app.state.manager.rooms[g["id"]].game  # type: ignore[attr-defined]
    assert game.current == 0
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        snap = joined(ws, g["seats"][1]["token"])
        assert snap["legal"] == []
        msg = expect_error(ws_send(ws, {"type": "action", "version": 0, "id": game.legal_ids()[0]}), "not_your_turn")
        assert "seat 0" in msg["message"]
        expect_error(ws_send(ws, {"type": "hint"}), "not_your_turn")
        still_answers(ws)
    assert state_of(client, g["id"]) == before


def test_stale_version(client: TestClient) -> None:
    g = new_game(client)
    before = state_of(client, g["id"])
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        snap = joined(ws, g["seats"][0]["token"])
        aid = snap["legal"][0]["id"]
        msg = expect_error(ws_send(ws, {"type": "action", "version": 4, "id": aid}), "stale_version")
        assert "version 0" in msg["message"]
        still_answers(ws)
        assert state_of(client, g["id"]) == before
        ws.send_json({"type": "action", "version": 0, "id": aid})  # the same action at the right version applies
        update = ws.receive_json()
        assert update["type"] == "update" and update["version"] == 1


def test_illegal(client: TestClient) -> None:
    g = new_game(client)
    before = state_of(client, g["id"])
    game = client.app.state.manager.rooms[g["id"]].game  # type: ignore[attr-defined]
    draw_deck = game.encode(__import__("ttr.engine", fromlist=["Action"]).Action("draw_card", source="deck"))
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        joined(ws, g["seats"][0]["token"])
        msg = expect_error(ws_send(ws, {"type": "action", "version": 0, "id": draw_deck}), "illegal")
        assert msg["rule"] == game.why_illegal(draw_deck)[0]
        assert msg["rule"].startswith("E-")
        msg = expect_error(ws_send(ws, {"type": "action", "version": 0, "id": 10**9}), "illegal")
        assert "10000000" in msg["message"]
        expect_error(ws_send(ws, {"type": "action", "version": 0, "id": -1}), "illegal")
        still_answers(ws)
    assert state_of(client, g["id"]) == before


def test_game_over(client: TestClient) -> None:
    g = new_game(client, [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}], seed=11)
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        msg = joined(ws, g["seats"][0]["token"])
        while msg.get("status") != "finished":
            if msg["type"] in ("snapshot", "update") and msg["legal"]:
                ws.send_json({"type": "action", "version": msg["version"], "id": msg["legal"][-1]["id"]})
            msg = ws.receive_json()
            assert msg["type"] != "error", msg
        final = msg["view"]["final"]
        assert final["winner_seats"] and "decided_by" in final
        before = state_of(client, g["id"])
        expect_error(ws_send(ws, {"type": "action", "version": msg["version"], "id": 0}), "game_over")
        expect_error(ws_send(ws, {"type": "hint"}), "game_over")
        still_answers(ws)
    assert state_of(client, g["id"]) == before


def test_not_found(client: TestClient) -> None:
    with client.websocket_connect("/ws/no-such-game") as ws:
        expect_error(ws, "not_found")
    assert client.get("/api/maps").status_code == 200


def test_internal_error_changes_nothing(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    g = new_game(client)
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    before = state_of(client, g["id"])

    def broken(*_args: Any) -> None:
        raise RuntimeError("disk on fire")

    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        snap = joined(ws, g["seats"][0]["token"])
        monkeypatch.setattr(store, "append_action", broken)
        msg = expect_error(ws_send(ws, {"type": "action", "version": 0, "id": snap["legal"][0]["id"]}), "internal")
        assert "disk" not in msg["message"]
        still_answers(ws)
        monkeypatch.undo()
        assert state_of(client, g["id"]) == before
        ws.send_json({"type": "action", "version": 0, "id": snap["legal"][0]["id"]})
        assert ws.receive_json()["version"] == 1


def test_errors_go_to_the_sender_only(client: TestClient) -> None:
    g = new_game(client)
    with client.websocket_connect(f"/ws/{g['id']}") as a, client.websocket_connect(f"/ws/{g['id']}") as b:
        joined(a, g["seats"][0]["token"])
        joined(b, g["seats"][1]["token"])
        expect_error(ws_send(b, {"type": "action", "version": 0, "id": 0}), "not_your_turn")
        still_answers(a)  # a's next message is the pong, not b's error
        still_answers(b)


def from_address(client: TestClient, host: str) -> TestClient:
    """A client of the same running app whose requests come from `host`."""
    return TestClient(client.app, client=(host, 50000))


def test_stats_count_accepted_actions_only(client: TestClient) -> None:
    local = from_address(client, "127.0.0.1")
    assert local.post("/api/stats/reset").json()["action_ms"]["actions"] == 0
    g = new_game(client)
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        snap = joined(ws, g["seats"][0]["token"])
        expect_error(ws_send(ws, {"type": "action", "version": 3, "id": snap["legal"][0]["id"]}), "stale_version")
        ws.send_json({"type": "action", "version": 0, "id": snap["legal"][0]["id"]})
        assert receive(ws)["type"] == "update"
        stats = client.get("/api/stats").json()
    assert stats["action_ms"]["actions"] == 1 and stats["action_ms"]["p50"] >= 0
    assert stats["games_running"] >= 1
    assert local.post("/api/stats/reset").json()["action_ms"] == {
        "actions": 0, "p50": None, "p90": None, "p99": None, "max": None}


def test_stats_reset_only_from_the_servers_machine(client: TestClient) -> None:
    """Anyone may read the timing figures; only a loopback client, not one behind a proxy, may zero them."""
    g = new_game(client)
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        snap = joined(ws, g["seats"][0]["token"])
        ws.send_json({"type": "action", "version": 0, "id": snap["legal"][0]["id"]})
        assert receive(ws)["type"] == "update"
    for host in ("10.0.0.5", "2001:db8::7", "testclient", "::ffff:10.1.2.3"):
        r = from_address(client, host).post("/api/stats/reset")
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden", host
        assert "own machine" in r.json()["error"]["message"]
        assert client.get("/api/stats").json()["action_ms"]["actions"] == 1, host  # nothing was reset
    local = from_address(client, "127.0.0.1")
    for header in ({"X-Forwarded-For": "203.0.113.9"}, {"Forwarded": "for=203.0.113.9"}, {"X-Real-IP": "10.0.0.5"}):
        r = local.post("/api/stats/reset", headers=header)  # a reverse proxy on the same machine
        assert r.status_code == 403 and "not through a proxy" in r.json()["error"]["message"], header
        assert client.get("/api/stats").json()["action_ms"]["actions"] == 1, header
    for host in ("::1", "127.0.0.9", "::ffff:127.0.0.1"):
        from_address(client, "127.0.0.1").get("/api/stats")  # reading is open to all
        assert from_address(client, host).post("/api/stats/reset").json()["action_ms"]["actions"] == 0, host


def test_hint_for_the_seat_to_move(client: TestClient) -> None:
    g = new_game(client)
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        snap = joined(ws, g["seats"][0]["token"])
        ws.send_json({"type": "hint"})
        msg = ws.receive_json()
        assert msg["type"] == "hint" and msg["version"] == 0
        assert msg["id"] in {entry["id"] for entry in snap["legal"]}
        assert msg["text"].startswith("keep") and msg["reason"]
        pool = client.app.state.manager.pool  # type: ignore[attr-defined]
        asked = pool.hint
        calls: list[str] = []

        async def counted(*args: Any) -> Any:
            calls.append(args[0])
            return await asked(*args)

        pool.hint = counted
        try:
            ws.send_json({"type": "hint"})
            assert ws.receive_json() == msg  # the same position: the same hint, without another search
            assert calls == []
            ws.send_json({"type": "action", "version": 0, "id": msg["id"]})
            assert receive(ws)["type"] == "update"
        finally:
            pool.hint = asked


def test_a_stored_game_that_does_not_replay(client: TestClient) -> None:
    from ttr.server.store import GameInfo, SeatInfo

    store = client.app.state.manager.store  # type: ignore[attr-defined]
    store.create_game(GameInfo("broken", "europe", 1, [SeatInfo("A", "human"), SeatInfo("B", "human")]))
    store.append_action("broken", 0, 0, 0)  # draw_deck during the ticket choice: not a legal first action
    with client.websocket_connect("/ws/broken") as ws:
        msg = expect_error(ws, "internal")
        assert "cannot be loaded" in msg["message"]
    g = new_game(client)
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        joined(ws, g["seats"][0]["token"])
        still_answers(ws)
