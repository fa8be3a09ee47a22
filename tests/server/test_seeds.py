"""Fair seeds: in a game of several people the server chooses the seed (whoever chose it would know every
hand and deck); a chosen seed is taken only where at most one person plays, and the game says so."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.store import MemoryStore

from .kit import server_config

HUMAN = {"type": "human"}
BOT = {"type": "bot", "level": "random"}


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(server_config(chosen_seeds=False), store=MemoryStore(), pool=BotPool(1, "thread"))
    with TestClient(app) as c:
        yield c


def create(client: TestClient, seats: list[dict[str, Any]], **fields: Any) -> Any:
    return client.post("/api/games", json={"map": "europe", "seats": seats, "bot_delay": 0, **fields})


@pytest.mark.parametrize("seats", [[HUMAN, HUMAN], [HUMAN, BOT, HUMAN]])
def test_people_cannot_be_dealt_a_seed_one_of_them_chose(client: TestClient, seats: list[dict[str, Any]]) -> None:
    r = create(client, seats, seed=5)
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["code"] == "malformed" and "'seed'" in error["message"] and "people" in error["message"]
    assert client.get("/api/games").json() == []
    r = create(client, seats)
    assert r.status_code == 201
    assert client.get(f"/api/games/{r.json()['id']}").json()["seed_chosen"] is False


@pytest.mark.parametrize("seats", [[HUMAN, BOT], [BOT, BOT]])
def test_a_chosen_seed_where_at_most_one_person_plays_is_marked(client: TestClient,
                                                               seats: list[dict[str, Any]]) -> None:
    made = create(client, seats, seed=5).json()
    summary = client.get(f"/api/games/{made['id']}").json()
    assert summary["seed_chosen"] is True
    assert [g["seed_chosen"] for g in client.get("/api/games").json()] == [True]
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "join"})
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and snap["game"]["seed_chosen"] is True
    other = create(client, seats).json()
    assert client.get(f"/api/games/{other['id']}").json()["seed_chosen"] is False
    with client.websocket_connect(f"/ws/{other['id']}") as ws:
        ws.send_json({"type": "join"})
        assert ws.receive_json()["game"]["seed_chosen"] is False
