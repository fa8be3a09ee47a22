"""Open games: a table opened by a guest or an account, free seats taken by guests with a name or accounts;
the last seat makes the game, each player gets their seat; full tables, names taken twice, bad sizes and
unknown tickets are refused and change nothing."""

from __future__ import annotations

import json

from websockets.sync.client import connect

from .online_kit import Live, error_of, live, register  # noqa: F401  (the live fixture)


def test_a_guest_opens_a_table_an_account_and_a_guest_fill_it(live: Live) -> None:  # noqa: F811
    host, member, guest = live.browser(), live.browser(), live.browser()
    register(member, "Member")
    opened = host.post("/api/open-games", json={"map": "new_york", "seats": 3, "name": "Host",
                                                "clock": {"mode": "turn"}})
    assert opened.status_code == 201
    table = opened.json()["table"]
    assert [t["id"] for t in guest.get("/api/open-games").json()] == [table["id"]]
    taken = member.post(f"/api/open-games/{table['id']}/take", json={}).json()
    assert taken["table"]["players"] == ["Host", "Member"] and taken["match"] is None
    error_of(member.post(f"/api/open-games/{table['id']}/take", json={}), 409, "already_seated")
    error_of(guest.post(f"/api/open-games/{table['id']}/take", json={"name": "host"}), 409, "name_taken")
    error_of(guest.post(f"/api/open-games/{table['id']}/take", json={}), 400, "bad_name")
    last = guest.post(f"/api/open-games/{table['id']}/take", json={"name": "Guest"}).json()
    assert last["match"]["seat"] == 2
    assert guest.get("/api/open-games").json() == []  # full: no longer listed
    error_of(live.browser().post(f"/api/open-games/{table['id']}/take", json={"name": "Late"}), 409, "table_full")
    host_seat = host.post("/api/open-games/status", json={"ticket": opened.json()["ticket"]}).json()["match"]
    member_seat = member.post("/api/open-games/status", json={"ticket": taken["ticket"]}).json()["match"]
    assert (host_seat["game"], host_seat["seat"], member_seat["seat"]) == (last["match"]["game"], 0, 1)
    room = live.server.manager.rooms[host_seat["game"]]
    assert [s.name for s in room.info.seats] == ["Host", "Member", "Guest"]
    assert room.info.extra["clock"]["mode"] == "turn"
    assert [s["game"] for s in member.get("/api/account/seats").json()] == [host_seat["game"]]
    with connect(live.server.ws_url(host_seat["game"])) as ws:  # the guest's token opens its seat
        ws.send(json.dumps({"type": "join", "token": last["match"]["token"]}))
        assert json.loads(ws.recv(timeout=30))["seat"] == 2


def test_bad_tables_and_tickets(live: Live) -> None:  # noqa: F811
    b = live.browser()
    error_of(b.post("/api/open-games", json={"map": "new_york", "seats": 5, "name": "X"}), 400, "bad_seats")
    error_of(b.post("/api/open-games", json={"map": "mars", "seats": 2, "name": "X"}), 400, "unknown_map")
    error_of(b.post("/api/open-games", json={"map": "europe", "seats": 2, "name": "X",
                                             "clock": {"mode": "realtime", "move": 0}}), 400, "bad_clock")
    error_of(b.post("/api/open-games", json={"map": "europe", "seats": 2}), 400, "bad_name")
    assert b.get("/api/open-games").json() == []
    error_of(b.post("/api/open-games/status", json={"ticket": "nope"}), 404, "not_found")
    error_of(b.post("/api/open-games/nope/take", json={"name": "X"}), 404, "not_found")
    ticket = b.post("/api/open-games", json={"map": "europe", "seats": 2, "name": "Solo"}).json()["ticket"]
    assert b.post("/api/open-games/leave", json={"ticket": ticket}).json() == {"table": None}
    assert b.get("/api/open-games").json() == []  # an empty table goes
    # a logged-in request rides on the cookie: it needs the CSRF token
    register(b, "Careful")
    del b.headers["X-CSRF-Token"]
    error_of(b.post("/api/open-games", json={"map": "europe", "seats": 2}), 403, "csrf")
