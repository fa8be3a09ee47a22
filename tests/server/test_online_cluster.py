"""Playing people online on two `ttr serve` sharing one PostgreSQL database: players queued on different
servers are seated together (each queue matched by one server at a time: no player in two games); an open
table opened on one server is filled from the other, its players talking across them; a real-time clock
goes on when the server running it is killed (SIGKILL) and the other takes the game's lease over, running
out at the deadline it had. The three share one pair of servers (the last kills one); about 24 s once
they run: the clock's 14 s, and the takeover waits for the dead server's lease to lapse."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from ttr.server.online_tables import accounts, matches
from ttr.server.sql_store import SqlStore

from .postgres import Postgres, drop_tables
from .test_restart import Served


@pytest.fixture(scope="module")
def servers(postgres_server: Postgres,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Served, str]]:
    """Two servers on a fresh database (started at once), and its URL."""
    url = postgres_server.url
    drop_tables(url)
    SqlStore(url).close()  # the schema, made once before both start
    logs = tmp_path_factory.mktemp("online-cluster")
    started: dict[str, Served] = {}

    def start(name: str) -> None:
        started[name] = Served(url, logs / f"{name}.log")

    threads = [threading.Thread(target=start, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert set(started) == {"a", "b"}, "a server did not start"
        yield started["a"], started["b"], url
    finally:
        for server in started.values():
            if server.proc.poll() is None:
                server.kill()
        drop_tables(url)


def browser(server: Served, name: str) -> httpx.Client:
    """A logged-in browser on `server` (registered there)."""
    client = httpx.Client(base_url=server.http, timeout=30)
    r = client.post("/api/account/register", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    client.headers["X-CSRF-Token"] = r.json()["csrf"]
    return client


def test_players_queued_on_two_servers_are_seated_together(servers: tuple[Served, Served, str]) -> None:
    a, b, pg_url = servers
    players = {name: browser(server, name) for name, server in
               (("Ana", a), ("Ben", b), ("Cleo", a), ("Dan", b))}
    answers: dict[str, Any] = {}

    def join(name: str) -> None:
        answers[name] = players[name].post("/api/queue", json={"queue": "new_york-2"})

    threads = [threading.Thread(target=join, args=(n,)) for n in players]  # all four at once
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.status_code == 200 for r in answers.values()), {n: r.text for n, r in answers.items()}
    found: dict[str, dict[str, Any]] = {}
    deadline = time.monotonic() + 20
    while len(found) < 4 and time.monotonic() < deadline:
        for name, client in players.items():
            status = client.get("/api/queue").json()
            if status["match"] is not None:
                found[name] = status["match"]
        time.sleep(0.2)
    assert len(found) == 4, found
    games: dict[str, set[int]] = {}
    for match in found.values():
        games.setdefault(match["game"], set()).add(match["seat"])
    assert len(games) == 2 and all(seats == {0, 1} for seats in games.values())  # two games, nobody twice
    # a player queued again on the other server is refused there: one queue row per account
    ana_on_b = httpx.Client(base_url=b.http, cookies=players["Ana"].cookies, headers=players["Ana"].headers)
    assert ana_on_b.post("/api/queue", json={"queue": "europe-2"}).status_code == 200
    refused = players["Ana"].post("/api/queue", json={"queue": "europe-2"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "already_queued"
    assert players["Ana"].get("/api/queue").json()["queued"]["queue"] == "europe-2"
    ana_on_b.close()
    store = SqlStore(pg_url)
    try:
        with store.engine.connect() as conn:
            kept = {row.account_id for row in conn.execute(matches.select())}
            names = {row.id: row.name for row in conn.execute(accounts.select())}
        assert {names[k] for k in kept} == {"Ben", "Cleo", "Dan"}  # Ana queued again: her match was forgotten
        for game_id in games:
            info = store.get_game(game_id)
            assert info is not None and [s.type for s in info.seats] == ["human", "human"]
    finally:
        store.close()


def test_an_open_table_opened_on_one_server_is_filled_from_the_other(servers: tuple[Served, Served, str]) -> None:
    a, b, _url = servers
    opened = httpx.post(f"{a.http}/api/open-games", json={"map": "new_york", "seats": 2, "name": "Ana"}).json()
    listed = httpx.get(f"{b.http}/api/open-games").json()
    assert [(t["id"], t["players"]) for t in listed] == [(opened["table"]["id"], ["Ana"])]
    taken = httpx.post(f"{b.http}/api/open-games/{opened['table']['id']}/take", json={"name": "Ben"}).json()
    assert taken["match"] is not None and taken["match"]["seat"] == 1
    mine = httpx.post(f"{a.http}/api/open-games/status", json={"ticket": opened["ticket"]}).json()["match"]
    assert mine["game"] == taken["match"]["game"] and mine["seat"] == 0
    with connect(a.ws(mine["game"])) as ws, connect(b.ws(mine["game"])) as other:
        ws.send(json.dumps({"type": "join", "token": mine["token"]}))  # Ana's token, worked out from her ticket
        snap = recv(ws, lambda m: m["type"] == "snapshot")
        assert snap["seat"] == 0
        other.send(json.dumps({"type": "join", "token": taken["match"]["token"]}))
        recv(other, lambda m: m["type"] == "snapshot")
        other.send(json.dumps({"type": "chat", "phrase": "good_luck"}))  # Ben, on B, talks to Ana, on A
        said = recv(ws, lambda m: m["type"] == "chat", 30)["message"]
        assert (said["phrase"], said["seat"], said["name"]) == ("good_luck", 1, "Ben")
    assert httpx.get(f"{a.http}/api/open-games").json() == []


def recv(ws: Any, want: Any, timeout: float = 60) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=max(0.1, end - time.monotonic())))
        if want(msg):
            return msg


def test_a_clock_goes_on_when_its_server_dies(servers: tuple[Served, Served, str]) -> None:
    a, b, _url = servers
    game = httpx.post(f"{a.http}/api/games", json={
        "map": "new_york", "bot_delay": 0, "when_people_leave": "wait",
        "clock": {"mode": "realtime", "move": 14, "reserve": 0},
        "seats": [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]}).json()
    with connect(b.ws(game["id"])) as ws:  # Ana plays on B; A holds the lease and runs the clock
        ws.send(json.dumps({"type": "join", "token": game["seats"][0]["token"]}))
        first = recv(ws, lambda m: m["type"] == "clock" and m["seat"] == 0)
        deadline = first["deadline"]
        assert 10 < deadline - time.time() <= 14
        a.kill()
        # B takes the lease over (within 8 s) and runs the clock to the same deadline
        resumed = recv(ws, lambda m: m["type"] == "clock" and m["seat"] == 0 and m["left"] < first["left"], 30)
        assert resumed["deadline"] == pytest.approx(deadline, abs=0.01)
        seen: dict[str, dict[str, Any]] = {}  # the timeout's chat line and the stand-in's move, in either order
        ran_out = 0.0
        while len(seen) < 2:
            msg = recv(ws, lambda m: m["type"] == "chat" or (m["type"] == "update" and m["version"] == 1), 30)
            ran_out = ran_out or time.time()
            seen[msg["type"]] = msg
        note, update = seen["chat"]["message"], seen["update"]
        assert note["event"]["kind"] == "timeout" and note["event"]["seat"] == 0
        assert deadline - 0.5 <= ran_out <= deadline + 3  # at the deadline, not a fresh 14 s after the takeover
        assert update["last"]["seat"] == 0  # the stand-in played Ana's move, on B
