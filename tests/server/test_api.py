"""The REST API (docs/web-protocol.md): maps, bots, creating and listing games, records and replays, the page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ttr.engine import final_score
from ttr.maps import load_map
from ttr.records import read_record, replay
from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.store import MemoryStore

from .kit import server_config, wait_until

TWO = [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(server_config(static_dir=str(tmp_path / "no-page")), store=MemoryStore(),
                     pool=BotPool(1, "thread"))
    with TestClient(app) as c:
        yield c


def error_of(r: Any, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"]["code"] == code
    message: str = body["error"]["message"]
    assert message
    return message


def test_maps(client: TestClient) -> None:
    maps = {m["name"]: m for m in client.get("/api/maps").json()}
    assert set(maps) == {"europe", "new_york", "usa"}
    for name, entry in maps.items():
        m = load_map(name)
        assert (entry["players_min"], entry["players_max"]) == (m.rules.players_min, m.rules.players_max)
        assert (entry["cities"], entry["routes"]) == (len(m.cities), len(m.routes))
    assert maps["new_york"]["players_max"] == 4 and maps["europe"]["players_max"] == 5


def test_map_data(client: TestClient) -> None:
    data = client.get("/api/maps/europe").json()
    m = load_map("europe")
    assert [c["name"] for c in data["cities"]] == [c.name for c in m.cities]
    assert [r["name"] for r in data["routes"]] == [r.name for r in m.routes]
    assert len(data["tickets"]) == len(m.tickets) and data["colors"] == list(m.colors) and data["wild"] == m.wild_name
    assert all(0 <= c["x"] <= 1000 and 0 <= c["y"] <= data["height"] for c in data["cities"])
    doubles = [r for r in data["routes"] if r["double"]]
    assert doubles and all(data["routes"][r["twin"]]["twin"] == r["id"] for r in doubles)
    ny = client.get("/api/maps/new_york").json()
    assert any(c["attraction"] for c in ny["cities"])
    error_of(client.get("/api/maps/atlantis"), 404, "not_found")


def test_board_svg(client: TestClient) -> None:
    r = client.get("/api/maps/new_york/board.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    data = client.get("/api/maps/new_york").json()
    assert 'id="route-0"' in r.text and f'id="{data["cities"][0]["svg_id"]}"' in r.text


def test_bots(client: TestClient) -> None:
    bots = client.get("/api/bots").json()
    assert [b["level"] for b in bots] == ["easy", "medium", "hard", "expert"]
    assert all(b["description"] and b["bot"] for b in bots)


def test_create_game(client: TestClient) -> None:
    seats = [{"type": "human", "name": "  Ana  "}, {"type": "human", "name": "Ana"}, {"type": "bot", "level": "easy"}]
    r = client.post("/api/games", json={"map": "europe", "seats": seats})
    assert r.status_code == 201, r.text
    created = r.json()
    assert [s["name"] for s in created["seats"]] == ["Ana", "Ana (2)", "Bot 3 (easy)"]
    tokens = [s.get("token") for s in created["seats"]]
    assert all(isinstance(t, str) and len(t) >= 32 for t in tokens[:2]) and tokens[2] is None and tokens[0] != tokens[1]
    summary = client.get(f"/api/games/{created['id']}").json()
    assert summary["status"] == "running" and summary["version"] == 0 and summary["map"] == "europe"
    assert [s["connected"] for s in summary["seats"]] == [False, False, True]
    text = client.get(f"/api/games/{created['id']}").text + client.get("/api/games").text
    assert not any(t in text for t in tokens[:2])


@pytest.mark.parametrize(("body", "code"), [
    ("not json", "malformed"),
    ([1, 2], "malformed"),
    ({"map": "atlantis", "seats": TWO}, "unknown_map"),
    ({"map": 5, "seats": TWO}, "unknown_map"),
    ({"map": "europe", "seats": TWO[:1]}, "bad_seats"),
    ({"map": "new_york", "seats": TWO * 2 + TWO[:1]}, "bad_seats"),
    ({"map": "europe", "seats": "two"}, "malformed"),
    ({"map": "europe", "seats": [TWO[0], {"type": "bot", "level": "godlike"}]}, "unknown_level"),
    ({"map": "europe", "seats": [TWO[0], {"type": "bot", "level": "cmd:rm -rf /"}]}, "unknown_level"),
    ({"map": "europe", "seats": [TWO[0], {"type": "alien"}]}, "malformed"),
    ({"map": "europe", "seats": [TWO[0], {"type": "human", "name": 5}]}, "malformed"),
    ({"map": "europe", "seats": TWO, "when_people_leave": "never"}, "malformed"),
    ({"map": "europe", "seats": TWO, "seed": -1}, "malformed"),
    ({"map": "europe", "seats": TWO, "seed": "7"}, "malformed"),
    ({"map": "europe", "seats": TWO, "bot_delay": 99}, "malformed"),
    ({"map": "europe", "seats": TWO, "players": 2}, "malformed"),
    ({"map": "europe", "seats": [TWO[0], {"type": "bot", "bot": "expert"}]}, "malformed"),
])
def test_create_refusals(client: TestClient, body: Any, code: str) -> None:
    if isinstance(body, str):
        r = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    else:
        r = client.post("/api/games", json=body)
    error_of(r, 400, code)
    assert client.get("/api/games").json() == []


def test_an_unknown_field_is_named_not_ignored(client: TestClient) -> None:
    """A misspelt field (`bot` for `level`) would otherwise give a medium bot without a word."""
    r = client.post("/api/games", json={"map": "europe", "seats": [TWO[0], {"type": "bot", "bot": "expert"}]})
    assert "seat 1: unknown field 'bot'" in error_of(r, 400, "malformed")
    r = client.post("/api/games", json={"map": "europe", "seats": TWO, "sead": 5})
    assert "unknown field 'sead'" in error_of(r, 400, "malformed")
    assert "bot_delay" in error_of(client.post("/api/games", json=[1]), 400, "malformed")  # what a body may hold


def test_body_too_large(client: TestClient) -> None:
    body = '{"map": "europe", "pad": "' + "x" * 17000 + '"}'
    error_of(client.post("/api/games", content=body, headers={"content-type": "application/json"}), 413, "too_large")
    assert client.get("/api/games").json() == []


def test_list_games_newest_first(client: TestClient) -> None:
    ids = [client.post("/api/games", json={"map": "europe", "seats": TWO}).json()["id"] for _ in range(3)]
    listed = [g["id"] for g in client.get("/api/games").json()]
    assert sorted(listed) == sorted(ids)
    created = [g["created"] for g in client.get("/api/games").json()]
    assert created == sorted(created, reverse=True)
    assert len(client.get("/api/games?limit=2").json()) == 2
    error_of(client.get("/api/games?limit=0"), 400, "malformed")
    error_of(client.get("/api/games?limit=x"), 400, "malformed")


def test_unknown_game(client: TestClient) -> None:
    for path in ("/api/games/nope", "/api/games/nope/record", "/api/games/nope/replay/0", "/api/nothing/here"):
        error_of(client.get(path), 404, "not_found")
    error_of(client.delete("/api/games"), 404, "not_found")


def test_record_and_replay(client: TestClient) -> None:
    body = {"map": "new_york", "seed": 31, "bot_delay": 0,
            "seats": [{"type": "bot", "level": "random"}, {"type": "bot", "level": "greedy"}]}
    running = client.post("/api/games", json={"map": "new_york", "seats": TWO}).json()["id"]  # waits for people
    error_of(client.get(f"/api/games/{running}/record"), 409, "not_finished")
    error_of(client.get(f"/api/games/{running}/replay/0"), 409, "not_finished")
    gid = client.post("/api/games", json=body).json()["id"]
    manager = client.app.state.manager  # type: ignore[attr-defined]
    room = manager.rooms[gid]
    wait_until(lambda: client.get(f"/api/games/{gid}").json()["status"] == "finished")
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    result = replay(read_record(r.json()))
    assert result.error is None
    assert final_score(result.game).to_json() == final_score(room.game).to_json()
    steps = len(room.game.history)
    first = client.get(f"/api/games/{gid}/replay/0").json()
    assert first["step"] == 0 and first["steps"] == steps and first["last"] is None and first["view"]["log"] == []
    last = client.get(f"/api/games/{gid}/replay/{steps}").json()
    assert last["view"]["status"] == "finished" and last["view"]["final"]["winner_seats"]
    middle = client.get(f"/api/games/{gid}/replay/5").json()
    assert len(middle["view"]["log"]) == 5 and middle["last"]["seat"] == middle["view"]["log"][-1]["player"]
    assert all("hand" not in p and "tickets" not in p for p in middle["view"]["players"])
    error_of(client.get(f"/api/games/{gid}/replay/{steps + 1}"), 400, "malformed")
    error_of(client.get(f"/api/games/{gid}/replay/-1"), 400, "malformed")
    # a finished game nobody watches is forgotten from memory and read back from the store when asked for
    manager.KEEP_FINISHED = 0
    manager._trim()
    assert gid not in manager.rooms
    assert client.get(f"/api/games/{gid}/replay/5").json() == middle
    assert client.get(f"/api/games/{gid}/record").json() == r.json()


def test_page_fallback(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "ttr serve" in r.text and "not installed" in r.text


def test_page_served(tmp_path: Path) -> None:
    static = tmp_path / "static"
    (static / "js").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><title>the page</title>")
    (static / "js" / "app.js").write_text("console.log('hi')")
    app = create_app(server_config(static_dir=str(static)), store=MemoryStore(), pool=BotPool(1, "thread"))
    with TestClient(app) as c:
        assert "the page" in c.get("/").text
        assert c.get("/js/app.js").text == "console.log('hi')"
        assert c.get("/js/../../secret").status_code == 404
        assert c.get("/api/maps").status_code == 200


def test_an_unknown_page_gets_the_not_found_page_and_an_unknown_api_path_json() -> None:
    """A mistyped address in a browser shows a page in the three languages that leads to the lobby; the API
    keeps answering its unknown paths with its JSON error."""
    app = create_app(server_config(), store=MemoryStore(), pool=BotPool(1, "thread"))  # the package's page
    with TestClient(app) as c:
        for path in ("/game/abc", "/play", "/js/nothing.js"):
            r = c.get(path)
            assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
            assert "Page not found" in r.text and "找不到此页面" in r.text and "找不到此頁面" in r.text
            assert 'href="/"' in r.text
        error_of(c.get("/api/nothing"), 404, "not_found")
        assert c.get("/").status_code == 200 and "Page not found" not in c.get("/").text


def test_head_answers_as_get_without_the_body(client: TestClient) -> None:
    """`curl -I` and health checks: HEAD on an API path gets GET's status and headers, no body."""
    client.post("/api/games", json={"map": "europe", "seats": TWO})
    for path, status in (("/api/games", 200), ("/api/maps/new_york", 200), ("/api/maps/atlantis", 404),
                         ("/api/stats/reset", 404), ("/api/nothing", 404)):
        got, head = client.get(path), client.head(path)
        assert head.status_code == got.status_code == status, path
        assert head.content == b"" and head.headers["content-type"] == got.headers["content-type"], path
        assert int(head.headers["content-length"]) == len(got.content), path
    assert len(client.get("/api/games").json()) == 1  # HEAD never runs a POST route
