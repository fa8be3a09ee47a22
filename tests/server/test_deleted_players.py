"""A deleted account's finished games: its name leaves them everywhere the API gives it (the game's summary
and the lobby's list with `deleted: true` on its seat, the socket's seats and view, the replay, the record,
the chat, the other player's profile, the leaderboard); a running game keeps it."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import connect

from .online_kit import Live, live, play_out  # noqa: F401  (the live fixture)
from .test_ratings import game_of, two_players, wait_results


def test_a_deleted_players_name_leaves_their_finished_games(live: Live) -> None:  # noqa: F811
    ana, ben = two_players(live, ("Ana Gone", "Ben Here"))
    game_id, tokens = game_of(live, [ana, ben])
    play_out(live, game_id, tokens, seed=3)
    wait_results(live, "Ben Here", 1)
    running = ana.post("/api/games", json={"map": "new_york", "seats": [{"type": "human", "name": "Ana Gone"},
                                                                         {"type": "bot", "level": "random"}]}).json()
    ana.post("/api/account/seats", json={"seats": [{"game": running["id"], "seat": 0,
                                                    "token": running["seats"][0]["token"]}]})
    with connect(live.server.ws_url(game_id)) as ws:  # the finished game's chat, from Ana's seat
        ws.send(json.dumps({"type": "join", "token": tokens[0]}))
        ws.send(json.dumps({"type": "chat", "phrase": "good_game"}))
        while json.loads(ws.recv(timeout=30))["type"] != "chat":
            pass
    with connect(live.server.ws_url(game_id)) as watching:  # Ben's page, open on the finished game meanwhile
        watching.send(json.dumps({"type": "join", "token": tokens[1]}))
        assert json.loads(watching.recv(timeout=30))["view"]["players"][0]["name"] == "P1"
        assert ana.post("/api/account/delete", json={"password": "correct horse"}).json()["deleted"] is True
        while (message := json.loads(watching.recv(timeout=30)))["type"] != "snapshot":
            pass
        assert message["view"]["players"][0]["name"] == "Player 1" and message["seats"][0]["deleted"] is True

    summary = ben.get(f"/api/games/{game_id}").json()
    assert summary["seats"][0]["deleted"] is True and summary["seats"][0]["name"] == "Player 1"
    assert "deleted" not in summary["seats"][1] and summary["seats"][1]["name"] == "P2"
    listed = {g["id"]: g for g in ben.get("/api/games").json()}
    assert listed[game_id]["seats"][0]["deleted"] is True
    assert "deleted" not in listed[running["id"]]["seats"][0]  # a running game keeps the name
    everything: list[Any] = [summary, ben.get(f"/api/games/{game_id}/record").json(),
                             ben.get(f"/api/games/{game_id}/replay/3").json(),
                             ben.get(f"/api/games/{game_id}/chat").json(),
                             ben.get("/api/players/Ben Here").json(),
                             ben.get("/api/leaderboard", params={"map": "new_york", "seats": "2"}).json()]
    with connect(live.server.ws_url(game_id)) as ws:
        ws.send(json.dumps({"type": "join", "token": tokens[1]}))
        snapshot = json.loads(ws.recv(timeout=30))
        assert snapshot["seats"][0]["deleted"] is True and snapshot["view"]["players"][0]["name"] == "Player 1"
        everything.append(snapshot)
    for doc in everything:
        assert "Ana Gone" not in json.dumps(doc) and "P1" not in json.dumps(doc), doc
    chat = everything[3]["messages"]
    assert chat and chat[0]["name"] == "Player 1"
    history = everything[4]["history"][0]["players"]
    assert history[0]["deleted"] is True and history[0]["account"] is None
    assert [p["name"] for p in everything[5]["players"]] == ["Ben Here"]
