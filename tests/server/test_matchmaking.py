"""Quick play: queues per map and table size seat people of close rating together (a rated game, a
real-time clock); a player who waited may fill the table with bots of a level near their rating; joining
twice, an unknown queue, a wait out of range and filling too early are refused and change nothing."""

from __future__ import annotations

import time
from typing import Any

import httpx

from .online_kit import Live, error_of, live, register  # noqa: F401  (the live fixture)


def queued(live: Live, *names: str) -> list[httpx.Client]:  # noqa: F811
    out = []
    for name in names:
        b = live.browser()
        register(b, name)
        out.append(b)
    return out


def test_two_players_are_matched_into_a_rated_game(live: Live) -> None:  # noqa: F811
    ana, ben = queued(live, "Ana", "Ben")
    first = ana.post("/api/queue", json={"queue": "new_york-2"}).json()
    assert first["queued"]["queue"] == "new_york-2" and first["match"] is None and first["queued"]["can_fill"] is False
    error_of(ana.post("/api/queue", json={"queue": "europe-2"}), 409, "already_queued")
    assert ana.get("/api/queue").json()["queued"]["queue"] == "new_york-2"  # unchanged
    second = ben.post("/api/queue", json={"queue": "new_york-2"}).json()
    assert second["queued"] is None and second["match"]["seat"] in (0, 1)
    match = ana.get("/api/queue").json()["match"]
    assert match["game"] == second["match"]["game"] and {match["seat"], second["match"]["seat"]} == {0, 1}
    game = live.server.manager.rooms[match["game"]]
    assert [s.type for s in game.info.seats] == ["human", "human"] and "seed_chosen" not in game.info.extra
    assert game.info.extra["clock"]["mode"] == "realtime"
    seats = {s["game"]: s for s in ana.get("/api/account/seats").json()}
    assert seats[match["game"]]["seat"] == match["seat"]  # the account holds its seat: it opens it by account


def test_bad_queue_requests(live: Live) -> None:  # noqa: F811
    [cleo] = queued(live, "Cleo")
    error_of(cleo.post("/api/queue", json={"queue": "mars-2"}), 400, "unknown_queue")
    error_of(cleo.post("/api/queue", json={"queue": "europe-2", "wait": 1}), 400, "bad_wait")
    error_of(cleo.post("/api/queue/leave"), 409, "not_queued")
    error_of(cleo.post("/api/queue/fill"), 409, "not_queued")
    assert cleo.get("/api/queue").json()["queued"] is None
    guest = live.browser()
    error_of(guest.post("/api/queue", json={"queue": "europe-2"}), 401, "not_logged_in")
    cleo.post("/api/queue", json={"queue": "europe-2", "wait": 5})
    error_of(cleo.post("/api/queue/fill"), 409, "not_yet")
    assert cleo.post("/api/queue/leave").json()["queued"] is None


def test_fill_with_bots_after_the_wait(live: Live) -> None:  # noqa: F811
    [dan] = queued(live, "Dan")
    dan.post("/api/queue", json={"queue": "europe-3-5", "wait": 5})
    deadline = time.monotonic() + 15
    status: dict[str, Any] = {}
    while time.monotonic() < deadline:
        status = dan.get("/api/queue").json()
        if status["queued"]["can_fill"]:
            break
        time.sleep(0.3)
    assert status["queued"]["bot_level"] == "medium"  # a new player's mu (25) is nearest medium's (29)
    done = dan.post("/api/queue/fill").json()
    game = live.server.manager.rooms[done["match"]["game"]]
    assert [s.type for s in game.info.seats] == ["human", "bot", "bot"]
    assert {s.level for s in game.info.seats[1:]} == {status["queued"]["bot_level"]}
    assert done["queued"] is None and done["match"]["bots"] is True


def test_close_ratings_are_seated_together(live: Live) -> None:  # noqa: F811
    store = live.online.store
    names = ["Eve", "Finn", "Gus"]
    players = queued(live, *names)
    mus = {"Eve": 40.0, "Finn": 25.0, "Gus": 26.0}  # Eve is far stronger
    for name in names:
        account = store.account_by_name(name.casefold())
        assert account is not None
        store.save_results([], {account.id: (mus[name], 3.0)}, "europe", 2, 1.0)
    for b in players:
        b.post("/api/queue", json={"queue": "europe-2"})
    games = {n: b.get("/api/queue").json()["match"] for n, b in zip(names, players, strict=True)}
    assert games["Eve"] is None  # still waiting: nobody close enough yet
    assert games["Finn"] is not None and games["Finn"]["game"] == games["Gus"]["game"]
