"""Fuzzing the REST API (docs/web-protocol.md) with Hypothesis: any body, query or path gets a 2xx answer
or an error naming a documented code, never a 500; a refused game is never created."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.store import MemoryStore

from .kit import server_config, wait_until

REST_CODES = {"malformed", "unknown_map", "unknown_level", "bad_seats", "not_found", "forbidden", "not_finished",
              "too_large"}
FUZZ = settings(derandomize=True, database=None, deadline=None, max_examples=120,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
VALID = {"map": "new_york", "seats": [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Ben"}],
         "seed": 3, "bot_delay": 0, "when_people_leave": "wait"}
FIELDS = [*VALID, "extra"]
SEAT = st.fixed_dictionaries({}, optional={"type": st.sampled_from(["human", "bot", "alien"]) | JSON,
                                           "name": st.text(max_size=50) | JSON,
                                           "level": st.sampled_from(["easy", "expert", "cmd:ls", ""]) | JSON})
# a valid body with some fields replaced by anything, or seats of any shape, or any JSON at all
BODIES = st.one_of(
    st.builds(lambda changes: {**VALID, **changes}, st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=3)),
    st.builds(lambda seats: {**VALID, "seats": seats}, st.lists(SEAT, max_size=6)),
    JSON,
)
DIGITS = st.text(alphabet="0123456789", min_size=1, max_size=6000)
NUMBERISH = DIGITS | st.text(max_size=30) | st.sampled_from(["٣", "1e3", "-1", " 5", "0x10", "５"])


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(server_config(), store=MemoryStore(), pool=BotPool(1, "thread"))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def finished(client: TestClient) -> str:
    body = {"map": "new_york", "seed": 4, "bot_delay": 0, "seats": [{"type": "bot", "level": "random"}] * 2}
    gid: str = client.post("/api/games", json=body).json()["id"]
    wait_until(lambda: client.get(f"/api/games/{gid}").json()["status"] == "finished")
    return gid


def assert_answered(r: Any) -> Any:
    """A success, or an error with a documented code and a message; never a server error."""
    assert r.status_code < 500, r.text
    body = r.json()
    if r.status_code >= 400:
        assert body["error"]["code"] in REST_CODES and body["error"]["message"], body
    return body


def game_count(client: TestClient) -> int:
    return len(client.get("/api/games?limit=500").json())


@FUZZ
@given(body=BODIES)
def test_any_body_creates_a_game_or_is_refused_by_name(client: TestClient, body: Any) -> None:
    before = game_count(client)
    r = client.post("/api/games", content=json.dumps(body), headers={"content-type": "application/json"})
    answer = assert_answered(r)
    if r.status_code == 201:
        assert client.get(f"/api/games/{answer['id']}").status_code == 200
        assert game_count(client) == before + 1
    else:
        assert r.status_code in (400, 413) and game_count(client) == before


@FUZZ
@given(limit=NUMBERISH)
@example(limit="1" * 5000)  # int() refuses digit strings this long: once a 500
def test_any_limit_lists_or_is_refused(client: TestClient, limit: str) -> None:
    r = client.get("/api/games", params={"limit": limit})
    answer = assert_answered(r)
    ok = limit.isascii() and limit.isdecimal() and len(limit.lstrip("0")) <= 3 and 1 <= int(limit) <= 500
    assert (r.status_code == 200 and isinstance(answer, list)) == ok


@FUZZ
@given(step=NUMBERISH)
@example(step="1" * 5000)
@example(step="0" * 40 + "3")
def test_any_replay_step_is_a_view_or_refused(client: TestClient, finished: str, step: str) -> None:
    r = client.get(f"/api/games/{finished}/replay/{quote(step, safe='')}")
    answer = assert_answered(r)
    steps = client.get(f"/api/games/{finished}/replay/0").json()["steps"]
    ok = step.isascii() and step.isdecimal() and len(step.lstrip("0")) <= 4 and int(step) <= steps
    assert (r.status_code == 200) == ok
    if ok:
        assert answer["step"] == int(step) and all("hand" not in p for p in answer["view"]["players"])


@FUZZ
@given(name=st.text(min_size=1, max_size=300), tail=st.sampled_from(["", "/record", "/replay/0", "/board.svg"]))
def test_any_game_or_map_name_is_found_or_not(client: TestClient, name: str, tail: str) -> None:
    for base in ("/api/games/", "/api/maps/"):
        r = client.get(base + quote(name, safe="") + tail)
        if r.headers.get("content-type", "").startswith("image/svg"):
            assert r.status_code == 200
        else:
            assert_answered(r)


def test_a_content_length_of_many_digits_is_too_large(client: TestClient) -> None:
    r = client.post("/api/games", content=b"{}", headers={"content-type": "application/json",
                                                            "content-length": "9" * 5000})
    assert r.status_code in (400, 413) and r.status_code < 500
