"""The map editor's API: problems with their places, ticket suggestions, custom maps in games (kept with the
game, so they load again after a restart), and simulations in the bot pool with their report."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ttr.server import custom_maps
from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.store import MemoryStore

from .kit import server_config, wait_until


def tiny_map() -> dict[str, Any]:
    """Five cities: a square A-B-C-D with the diagonal A-C, and D-E."""
    data = copy.deepcopy(json.loads(resources.files("ttr.maps").joinpath("new_york.json").read_text(encoding="utf-8")))
    data.update(name="tiny", title="Tiny", tourist_attractions=[], spelling_variants={})
    data.pop("board")
    data["cities"] = [{"name": n, "lat": 40 + i * 0.01, "lon": -74 + (i % 2) * 0.01} for i, n in enumerate("ABCDE")]

    def route(a: str, b: str, length: int, color: str) -> dict[str, Any]:
        return {"a": a, "b": b, "length": length, "color": color, "tunnel": False, "ferry_locomotives": 0}

    data["routes"] = [route("A", "B", 1, "blue"), route("B", "C", 1, "green"), route("C", "D", 2, "gray"),
                      route("D", "A", 2, "red"), route("A", "C", 3, "orange"), route("D", "E", 4, "gray")]
    data["rules"]["route_points"] = {"1": 1, "2": 2, "3": 4, "4": 7}
    data["rules"].update(players_max=2, pieces=8, end_trigger_pieces=1, starting_hand=2)
    data["rules"]["setup_tickets"] = {"long": 0, "regular": 2, "keep_min": 1, "returned": "bottom"}
    data["rules"]["draw_tickets"] = {"draw": 2, "keep_min": 1}
    data["tickets"] = [{"a": a, "b": b, "points": p, "long": False}
                       for a, b, p in (("A", "C", 2), ("B", "D", 3), ("A", "E", 6), ("B", "E", 7), ("C", "E", 6))]
    return data


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


@pytest.fixture
def client(tmp_path: Path, store: MemoryStore) -> Iterator[TestClient]:
    app = create_app(server_config(static_dir=str(tmp_path / "no-page")), store=store, pool=BotPool(1, "thread"))
    with TestClient(app) as c:
        yield c


def test_check_gives_each_problem_its_place(client: TestClient) -> None:
    data = tiny_map()
    data["routes"][2]["color"] = "teal"
    data["tickets"][1]["b"] = "Z"
    body = client.post("/api/maps/check", json={"map": data}).json()
    assert body["ok"] is False
    places = {(p["section"], p["index"], p["field"]) for p in body["problems"]}
    assert ("routes", 2, "color") in places and ("tickets", 1, "b") in places
    assert all(p["message"] and p["where"] for p in body["problems"])
    assert client.post("/api/maps/check", json={"map": tiny_map()}).json() == {"ok": True, "problems": []}
    assert client.post("/api/maps/check", json={"nope": 1}).status_code == 400
    assert client.post("/api/maps/check", json={"map": "not a map"}).json()["ok"] is False


def test_suggest_uses_the_shortest_path(client: TestClient) -> None:
    body = client.post("/api/maps/suggest", json={"map": tiny_map(), "a": "B", "b": "E"}).json()
    assert body["shortest"] == 7 and body["points"] == 7  # 1 + 2 + 4 trains; the shipped maps: about 1 a train
    lonely = tiny_map()
    lonely["routes"].pop()  # E cut off
    assert client.post("/api/maps/suggest", json={"map": lonely, "a": "A", "b": "E"}).json() == \
        {"shortest": None, "points": None}
    assert client.post("/api/maps/suggest", json={"map": tiny_map(), "a": "A", "b": "A"}).status_code == 400


def test_custom_map_names_and_refusals(client: TestClient) -> None:
    first = client.post("/api/maps/custom", json={"map": tiny_map()})
    assert first.status_code == 201
    name = first.json()["name"]
    assert custom_maps.is_custom(name) and first.json()["players_max"] == 2
    assert client.post("/api/maps/custom", json={"map": tiny_map()}).json()["name"] == name  # by content
    bad = tiny_map()
    bad["routes"][0]["a"] = "Nowhere"
    refused = client.post("/api/maps/custom", json={"map": bad})
    assert refused.status_code == 400 and "Nowhere" in refused.json()["error"]["message"]
    assert client.get(f"/api/maps/{name}").json()["title"] == "Tiny"
    assert client.get(f"/api/maps/{name}/board.svg").text.startswith("<?xml")
    assert client.get("/api/maps/custom-0000000000000000").status_code == 404


def test_a_game_on_a_custom_map_plays_and_replays_after_a_restart(client: TestClient, store: MemoryStore,
                                                                  tmp_path: Path) -> None:
    name = client.post("/api/maps/custom", json={"map": tiny_map()}).json()["name"]
    seats = [{"type": "bot", "level": "greedy"}, {"type": "bot", "level": "random"}]
    game = client.post("/api/games", json={"map": name, "seats": seats, "seed": 3, "bot_delay": 0}).json()
    wait_until(lambda: client.get(f"/api/games/{game['id']}").json()["status"] == "finished", timeout=60)
    steps = client.get(f"/api/games/{game['id']}/replay/0").json()["steps"]
    assert steps > 4
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record["map"] == "tiny" and len(record["actions"]) == steps
    assert store.get_game(game["id"]).extra[custom_maps.EXTRA_KEY]  # the map's text is kept with the game
    # a fresh server on the same store, the custom map forgotten: the game loads from its own text
    custom_maps._maps.clear()
    app = create_app(server_config(static_dir=str(tmp_path / "no-page")), store=store, pool=BotPool(1, "thread"))
    with TestClient(app) as again:
        last = again.get(f"/api/games/{game['id']}/replay/{steps}").json()
        assert last["view"]["final"]["players"]
        assert again.get(f"/api/maps/{name}").status_code == 200


def test_a_simulation_runs_in_the_pool_to_its_report(client: TestClient) -> None:
    pytest.importorskip("matplotlib")
    name = client.post("/api/maps/custom", json={"map": tiny_map()}).json()["name"]
    assert client.post("/api/studio/simulations", json={"map": "europe2", "games": 5}).status_code == 400
    assert client.post("/api/studio/simulations", json={"map": name, "games": 0}).status_code == 400
    assert client.post("/api/studio/simulations", json={"map": name, "players": 5}).status_code == 400
    sim = client.post("/api/studio/simulations", json={"map": name, "players": 2, "bots": "greedy,random",
                                                       "games": 12}).json()
    wait_until(lambda: client.get(f"/api/studio/simulations/{sim['id']}").json()["status"] != "running", timeout=120)
    status = client.get(f"/api/studio/simulations/{sim['id']}").json()
    assert status == {"id": sim["id"], "status": "done", "done": 12, "total": 12, "error": ""}
    page = client.get(f"/api/studio/simulations/{sim['id']}/report").text
    assert "Ticket to Ride simulation report" in page and "12 games" in page


def test_map_files_to_start_from(client: TestClient) -> None:
    from ttr.maps import load_map
    from ttr.maps.check import check_map

    europe = client.get("/api/maps/europe/file").json()
    assert check_map(europe) == []  # a board placement added from the drawn layout is a valid one
    assert client.post("/api/maps/check", json={"map": europe}).json()["ok"]  # 24 KB: above the game API's limit
    assert client.post("/api/maps/check", content=b"[" * 600_000).status_code == 413
    assert set(europe["board"]) == {c.name for c in load_map("europe").cities}
    assert client.get("/api/maps/usa/file").json() == load_map("usa").to_json()  # it has its own placement
    assert client.get("/api/maps/atlantis/file").status_code == 404
