"""Fuzzing the game socket: hundreds of random, malformed and hostile messages on one connection. Each
gets an answer naming a known error (or the normal answer of a valid message), the game changes only by
legal actions of the seat to move, and the server keeps answering."""

from __future__ import annotations

import json
import random
from typing import Any

from fastapi.testclient import TestClient

from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.protocol import ERROR_CODES
from ttr.server.store import MemoryStore

from .kit import server_config

VALUES: list[Any] = [None, True, 0, -1, 1, 2**70, 1.5, "", "x", "join", "action", [], {}, [1], {"a": 1}, "\x00",
                     "é" * 10, 10**6]


def random_message(rng: random.Random, version: int, token: str, legal: list[int]) -> str:
    roll = rng.random()
    if roll < 0.1:
        broken = "\udcff".encode("utf-8", "surrogatepass").decode("utf-8", "replace")
        return rng.choice(["", "{", "null", "[]", "42", '"text"', '{"type":', broken, "{}" * 3000])
    message: dict[str, Any] = {}
    if rng.random() < 0.9:
        message["type"] = rng.choice(["join", "action", "hint", "ping", "dance", *VALUES])
    for key in rng.sample(["version", "id", "token", "extra"], rng.randrange(4)):
        message[key] = rng.choice(VALUES)
    if message.get("type") == "action" and rng.random() < 0.5:
        message["version"] = version if rng.random() < 0.7 else version - 1
        message["id"] = rng.choice(legal) if legal and rng.random() < 0.3 else rng.randrange(-5, 4000)
    if message.get("type") == "join" and rng.random() < 0.5:
        message["token"] = token if rng.random() < 0.3 else token[:-1] + "A"
    return json.dumps(message)


def test_random_messages_never_break_the_server() -> None:
    app = create_app(server_config(), store=MemoryStore(), pool=BotPool(1, "thread"))
    rng = random.Random(2024)
    with TestClient(app) as client:
        body = {"map": "europe", "seed": 6, "bot_delay": 0, "when_people_leave": "wait",
                "seats": [{"type": "human"}, {"type": "human"}]}
        created = client.post("/api/games", json=body).json()
        gid, tokens = created["id"], [s["token"] for s in created["seats"]]
        room = app.state.manager.rooms[gid]
        codes: set[str] = set()
        with client.websocket_connect(f"/ws/{gid}") as ws:
            for _ in range(400):
                before = room.version
                seat = room.game.current
                raw = random_message(rng, room.version, tokens[seat], room.game.legal_ids())
                ws.send_text(raw)
                while True:
                    answer = ws.receive_json()
                    if answer["type"] != "seats":
                        break
                if answer["type"] == "error":
                    assert answer["code"] in (*ERROR_CODES, "internal") and answer["code"] != "internal", answer
                    assert answer["message"] and not any(t in answer["message"] for t in tokens)
                    codes.add(answer["code"])
                    assert room.version == before
                else:
                    assert answer["type"] in ("snapshot", "update", "hint", "pong"), answer
                    assert not any(t in json.dumps(answer) for t in tokens)
                    if answer["type"] == "update":
                        assert room.version == before + 1 and room.game.history[-1][0] == seat
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] in ("pong", "seats")
        assert len(app.state.manager.store.actions(gid)) == room.version
    # the fuzz reached the refusals that matter
    assert {"malformed", "unknown_type", "bad_token", "stale_version", "illegal", "too_large"} <= codes
    assert room.version > 0  # and some actions were accepted on the way
