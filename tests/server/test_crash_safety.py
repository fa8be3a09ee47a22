"""Crash safety: a game's last action and its end (status, winners) are stored in one transaction, and a
game whose stored actions end it is finished when it is loaded, whatever its row says."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, update

from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.sql_store import SqlStore, games

from .kit import server_config, wait_until

BOTS = {"map": "new_york", "bot_delay": 0,
        "seats": [{"type": "bot", "level": "random"}, {"type": "bot", "level": "random"}]}


def serve(url: str) -> TestClient:
    return TestClient(create_app(server_config(db=url), store=SqlStore(url), pool=BotPool(1, "thread")))


def test_a_finished_game_set_back_to_running_is_finished_at_the_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with serve(url) as client:
        gid = client.post("/api/games", json=BOTS).json()["id"]
        wait_until(lambda: client.get(f"/api/games/{gid}").json()["status"] == "finished")
        finished = client.get(f"/api/games/{gid}").json()
    assert finished["winners"]
    engine = create_engine(url)
    with engine.begin() as conn:  # what a server killed between the last action and the end left behind
        conn.execute(update(games).where(games.c.id == gid).values(status="running", winners=None))
    engine.dispose()
    with serve(url) as client:
        wait_until(lambda: client.get(f"/api/games/{gid}").json()["status"] == "finished")
        again = client.get(f"/api/games/{gid}").json()
        assert again["winners"] == finished["winners"] and again["version"] == finished["version"]
        assert client.get(f"/api/games/{gid}/record").status_code == 200
    store = SqlStore(url)  # and the row says so again
    try:
        info = store.get_game(gid)
        assert info is not None and info.status == "finished" and info.winners == finished["winners"]
    finally:
        store.close()
