"""Chat over the game socket: the seats talk, spectators read them and talk on their own channel; length,
rate and who-may-write refusals change nothing; quick phrases; kept with the game and shown in its replay."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import connect

from .online_kit import Live, error_of, live, play_out, register  # noqa: F401  (the live fixture)

PEOPLE = [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Ben"}]


def recv_type(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if msg["type"] == kind:
            return msg


def test_seats_talk_spectators_read_and_refusals(live: Live) -> None:  # noqa: F811
    b = live.browser()
    game = b.post("/api/games", json={"map": "new_york", "seats": PEOPLE, "bot_delay": 0,
                                      "when_people_leave": "wait"}).json()
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    watcher = live.browser()
    register(watcher, "Watcher")
    url = live.server.ws_url(gid)
    with connect(url) as ana, connect(url) as ben, \
            connect(url, additional_headers=live.ws_headers(watcher)) as spec, connect(url) as guest:
        for ws, join in ((ana, {"token": tokens[0]}), (ben, {"token": tokens[1]}), (spec, {}), (guest, {})):
            ws.send(json.dumps({"type": "join", **join}))
            recv_type(ws, "snapshot")
        ana.send(json.dumps({"type": "chat", "text": "  <b>hi</b> Ben  "}))
        for ws in (ana, ben, spec, guest):
            msg = recv_type(ws, "chat")["message"]
            assert (msg["n"], msg["seat"], msg["name"], msg["channel"], msg["text"]) == (0, 0, "Ana", "seats",
                                                                                          "<b>hi</b> Ben")
        ben.send(json.dumps({"type": "chat", "phrase": "good_luck"}))
        for ws in (ana, ben, spec, guest):
            assert recv_type(ws, "chat")["message"]["phrase"] == "good_luck"
        spec.send(json.dumps({"type": "chat", "text": "go Ana"}))  # a spectator: the spectators' channel
        assert recv_type(guest, "chat")["message"]["channel"] == "spectators"
        assert recv_type(spec, "chat")["message"]["name"] == "Watcher"
        refusals = [
            (spec, {"type": "chat", "text": "x", "channel": "seats"}, "not_seated"),
            (guest, {"type": "chat", "text": "x"}, "not_logged_in"),
            (ana, {"type": "chat", "text": "x" * 301}, "chat_too_long"),
            (ana, {"type": "chat", "text": " \n "}, "chat_empty"),
            (ana, {"type": "chat", "text": 5}, "malformed"),
            (ana, {"type": "chat", "phrase": "insult"}, "malformed"),
            (ana, {"type": "chat", "text": "x", "channel": "spectators"}, "not_seated"),
        ]
        for ws, message, code in refusals:
            ws.send(json.dumps(message))
            assert recv_type(ws, "error")["code"] == code
        live.online.settings.chat_limit = "2/minute"
        ben.send(json.dumps({"type": "chat", "text": "one more"}))
        assert recv_type(ben, "chat")["message"]["text"] == "one more"
        ben.send(json.dumps({"type": "chat", "text": "two more"}))
        recv_type(ben, "chat")
        ben.send(json.dumps({"type": "chat", "text": "three"}))
        assert recv_type(ben, "error")["code"] == "rate_limited"
    # the seats' messages reached the seats; the spectators' one did not (a late joiner's history)
    with connect(url) as again:
        again.send(json.dumps({"type": "join", "token": tokens[1]}))
        history = recv_type(again, "chat_history")["messages"]
        assert [m.get("text", m.get("phrase")) for m in history] == ["<b>hi</b> Ben", "good_luck", "one more",
                                                                     "two more"]
    error_of(b.get(f"/api/games/{gid}/chat"), 409, "not_finished")
    play_out(live, gid, tokens, seed=2)
    kept = b.get(f"/api/games/{gid}/chat").json()["messages"]
    assert [m["channel"] for m in kept] == ["seats", "seats", "spectators", "seats", "seats"]
    assert all(m["version"] == 0 for m in kept)  # said before the first move: placed at the replay's start
    error_of(b.get("/api/games/nope/chat"), 404, "not_found")
