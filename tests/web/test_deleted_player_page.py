"""A deleted account's finished game in the page: the lobby's list, the game's own page, the replay and the
other player's history show "a deleted player" in the page's language, never the name it had."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
from websockets.sync.client import connect

from ttr.server.config import OnlineSettings

from .conftest import Served, shot

SERVER_CHANGES = {"online": OnlineSettings(argon2_time_cost=1, argon2_memory_kib=1024, argon2_parallelism=1)}
GONE, HERE = "Zora Gone", "Yann Here"


def registered(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    r = client.post("/api/account/register", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    client.headers["X-CSRF-Token"] = r.json()["csrf"]
    return client


def finished_game(base: str, people: list[httpx.Client]) -> tuple[str, list[str]]:
    """A New York game between the accounts, played to its end by random moves; (id, seat tokens)."""
    game = people[0].post("/api/games", json={"map": "new_york", "bot_delay": 0, "seats": [
        {"type": "human", "name": GONE}, {"type": "human", "name": HERE}]}).json()
    tokens = [s["token"] for s in game["seats"]]
    for seat, client in enumerate(people):
        client.post("/api/account/seats", json={"seats": [{"game": game["id"], "seat": seat, "token": tokens[seat]}]})
    rng = random.Random(4)
    url = base.replace("http://", "ws://") + f"/ws/{game['id']}"
    with connect(url) as a, connect(url) as b:
        socks = [a, b]
        states: list[dict[str, Any]] = []
        for ws, token in zip(socks, tokens, strict=True):
            ws.send(json.dumps({"type": "join", "token": token}))
            states.append(_until(ws, lambda m: m["type"] == "snapshot"))
        while states[0]["status"] != "finished":
            mover = next(i for i, s in enumerate(states) if s["legal"])
            version = states[mover]["version"]
            socks[mover].send(json.dumps({"type": "action", "version": version,
                                          "id": rng.choice(states[mover]["legal"])["id"]}))
            states = [_until(ws, lambda m, v=version: m["type"] == "update" and m["version"] > v) for ws in socks]
    return game["id"], tokens


def _until(ws: Any, want: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if want(msg):
            return msg


def test_a_deleted_player_reads_as_such_everywhere(page: Any, server: Served) -> None:
    gone, here = registered(server.base, GONE), registered(server.base, HERE)
    game_id, tokens = finished_game(server.base, [gone, here])
    assert gone.post("/api/account/delete", json={"password": "correct horse"}).json()["deleted"] is True

    page.goto(server.base + "/#/")
    entry = page.locator(f'#recent-games li[data-game="{game_id}"]')
    entry.wait_for()
    assert "deleted player" in entry.inner_text() and HERE in entry.inner_text() and GONE not in entry.inner_text()

    page.goto(f"{server.base}/#/play/{game_id}/1/{tokens[1]}")  # the game's own page, from the other seat
    page.wait_for_selector("main[data-version]")
    players = page.locator("#players")
    players.wait_for()
    assert "deleted player" in players.inner_text() and GONE not in page.locator("main").inner_text()
    shot(page, "deleted-player-game")

    page.goto(f"{server.base}/#/replay/{game_id}")
    page.wait_for_selector("#replay-status")
    page.wait_for_function("() => document.querySelector('main')?.innerText.includes('deleted player')")
    assert GONE not in page.locator("main").inner_text()

    page.goto(f"{server.base}/#/player/{HERE.replace(' ', '%20')}")
    history = page.locator("#profile-history")
    history.wait_for()
    page.wait_for_function("() => document.querySelector('#profile-history')?.innerText.includes('deleted player')")
    assert GONE not in history.inner_text()

    for lang, label in (("zh-Hans", "已删除的玩家"), ("zh-Hant", "已刪除的玩家")):
        page.goto(server.base + "/#/")
        page.select_option("#lang-select", lang)
        entry = page.locator(f'#recent-games li[data-game="{game_id}"]')
        entry.wait_for()
        page.wait_for_function(f"(l) => document.querySelector('#recent-games li[data-game=\"{game_id}\"]')"
                               "?.innerText.includes(l)", arg=label)
        assert GONE not in entry.inner_text()
