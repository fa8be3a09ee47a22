"""The review endpoints (docs/web-protocol.md): progress, the review itself (the one `ttr review` makes of the
record), kept with the game and given again at once, one at a time per client, and the refusals."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ttr.records import read_record
from ttr.review import review_record
from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.store import MemoryStore

from .kit import server_config, wait_until

BOTS = [{"type": "bot", "level": "medium"}, {"type": "bot", "level": "medium"}]
PLAYOUTS = 4  # per decision: a quick review


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(server_config(static_dir=str(tmp_path / "no-page")), store=MemoryStore(),
                     pool=BotPool(1, "thread"))
    app.state.reviews.playouts = PLAYOUTS
    with TestClient(app) as c:
        yield c


def _finished_game(client: TestClient, seed: int) -> str:
    r = client.post("/api/games", json={"map": "new_york", "seats": BOTS, "seed": seed})
    gid: str = r.json()["id"]
    wait_until(lambda: client.get(f"/api/games/{gid}").json()["status"] == "finished")
    return gid


def _review(client: TestClient, gid: str, seat: int) -> dict[str, Any]:
    seen: list[dict[str, Any]] = []

    def done() -> bool:
        seen.append(client.get(f"/api/games/{gid}/review/{seat}").json())
        return seen[-1]["status"] == "done"

    wait_until(done, step=0.05)
    running = [s for s in seen if s["status"] == "running"]
    assert all(0 <= s["done"] <= s["total"] for s in running)
    review: dict[str, Any] = seen[-1]["review"]
    return review


def test_review_is_made_stored_given_again_and_one_at_a_time(client: TestClient) -> None:
    gid, other = _finished_game(client, 11), _finished_game(client, 12)
    assert client.get(f"/api/games/{gid}/review/1").json() == {"status": "none", "seat": 1}
    first = client.post(f"/api/games/{gid}/review/1").json()
    assert first["status"] == "running" and first["seat"] == 1
    r = client.post(f"/api/games/{other}/review/0")  # one review at a time per client
    assert r.status_code == 429 and r.json()["error"]["code"] == "busy"
    assert client.post(f"/api/games/{gid}/review/1").json()["status"] in ("running", "done")  # the same: joined
    review = _review(client, gid, 1)
    record = read_record(client.get(f"/api/games/{gid}/record").json())
    assert review == review_record(record, 1, PLAYOUTS)  # the review `ttr review` makes of the record
    again = client.post(f"/api/games/{gid}/review/1").json()  # kept: at once, no new search
    assert again == {"status": "done", "seat": 1, "review": review}
    assert client.post(f"/api/games/{other}/review/0").json()["status"] == "running"  # the first is done: free


def test_review_refusals(client: TestClient) -> None:
    r = client.post("/api/games/nosuch/review/0")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    running = client.post("/api/games", json={"map": "new_york", "seats": [{"type": "human", "name": "Ana"}, BOTS[0]]})
    gid = running.json()["id"]
    r = client.post(f"/api/games/{gid}/review/0")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    done = _finished_game(client, 14)
    for seat in ("2", "-1", "x", "0" * 50, "٣"):
        r = client.get(f"/api/games/{done}/review/{seat}")
        assert r.status_code == 400 and r.json()["error"]["code"] == "malformed", seat
