"""Clocks: real time and turn-based settings and their ranges; a real-time clock running out has the
stand-in bot play the move (and the game's chat log says so); three in a row, and a bot plays the seat for
the rest of the game."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.sync.client import connect

from .online_kit import Live, error_of, live  # noqa: F401  (the live fixture)

TWO = [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]


def create(live: Live, clock: Any) -> Any:  # noqa: F811
    return live.browser().post("/api/games", json={"map": "new_york", "seats": TWO, "bot_delay": 0, "clock": clock})


@pytest.mark.parametrize("clock, why", [
    ({"mode": "blitz"}, "'realtime' or 'turn'"), ({"mode": "realtime", "move": 0.5}, "1 to 600"),
    ({"mode": "realtime", "move": 601}, "1 to 600"), ({"mode": "realtime", "reserve": -1}, "0 to 3600"),
    ({"mode": "turn", "move": 60}, "3600 to 604800"), ({"mode": "turn", "move": "1d"}, "3600 to 604800"),
    ({"mode": "realtime", "extra": 1}, "fields"), ("90s", "fields"),
])
def test_clocks_out_of_range_are_refused(live: Live, clock: Any, why: str) -> None:  # noqa: F811
    assert why in error_of(create(live, clock), 400, "bad_clock")
    assert live.browser().get("/api/games").json() == []  # nothing was created


def recv(ws: Any, kind: str, want: Any = lambda m: True) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if msg["type"] == kind and want(msg):
            return msg


def test_turn_based_defaults(live: Live) -> None:  # noqa: F811
    game = create(live, {"mode": "turn"}).json()
    with connect(live.server.ws_url(game["id"])) as ws:
        ws.send(json.dumps({"type": "join", "token": game["seats"][0]["token"]}))
        clock = recv(ws, "clock")
        assert (clock["mode"], clock["move"], clock["seat"]) == ("turn", 86400.0, 0)
        assert 86390 < clock["left"] <= 86400


def test_a_clock_running_out_three_times_hands_the_seat_to_a_bot(live: Live) -> None:  # noqa: F811
    game = create(live, {"mode": "realtime", "move": 1, "reserve": 0.5}).json()
    with connect(live.server.ws_url(game["id"])) as ws:
        ws.send(json.dumps({"type": "join", "token": game["seats"][0]["token"]}))
        first = recv(ws, "clock")
        assert first["seat"] == 0 and 0.5 < first["left"] <= 1.5 and first["reserves"] == [0.5, 0.5]
        # nobody moves: after 1.5 s the stand-in bot plays seat 0's ticket choice, and the log says so
        note = recv(ws, "chat")["message"]
        assert note["event"] == {"kind": "timeout", "seat": 0, "bot": "random"} and note["name"] == "Ana"
        update = recv(ws, "update", lambda m: m["last"]["seat"] == 0)
        assert update["version"] == 1
        events = [note["event"]["kind"]]
        while events.count("timeout") + events.count("autoplay") < 3:
            events.append(recv(ws, "chat")["message"]["event"]["kind"])
        assert events == ["timeout", "timeout", "autoplay"]
        after = recv(ws, "clock", lambda m: 0 in m["autoplay"])
        assert after["reserves"][0] == 0.0
        # from now on the bot plays seat 0 without waiting for its clock
        done = recv(ws, "update", lambda m: m["status"] == "finished")
        assert done["view"]["final"]
