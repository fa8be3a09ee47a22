"""The whole server on PostgreSQL (store calls from worker threads): a game with a person and a bot is
played over the WebSocket to its end, and a fresh store reads back the same finished game."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import httpx
import pytest

from ttr.engine import Game, final_score
from ttr.maps import load_map
from ttr.server.sql_store import SqlStore

from .kit import Client, LiveServer, server_config
from .postgres import Postgres, drop_tables


@pytest.fixture
def pg_url(postgres_server: Postgres) -> Iterator[str]:
    yield postgres_server.url
    drop_tables(postgres_server.url)


def test_a_game_on_postgres(pg_url: str) -> None:
    store = SqlStore(pg_url)
    assert not store.inline_ok  # a networked database is called from threads
    with LiveServer(server_config(db=pg_url), store=store) as server:
        body = {"map": "new_york", "seed": 77, "bot_delay": 0, "when_people_leave": "wait",
                "seats": [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]}
        created = httpx.post(f"{server.http}/api/games", json=body).json()
        gid = created["id"]

        async def play() -> dict[str, object]:
            client = await Client.open(server.ws_url(gid))
            msg = await client.join(created["seats"][0]["token"])
            rng = random.Random(3)
            while msg.get("status") != "finished":
                if msg["type"] in ("snapshot", "update") and msg["legal"]:
                    await client.send({"type": "action", "version": msg["version"],
                                       "id": rng.choice(msg["legal"])["id"]})
                msg = await client.recv()
                assert msg["type"] != "error", msg
            await client.close()
            return msg

        final = asyncio.run(play())
    again = SqlStore(pg_url)
    try:
        info = again.get_game(gid)
        assert info is not None and info.status == "finished"
        game = Game.new(load_map("new_york"), ["Ana", "Bot 2 (random)"], seed=77)
        for action in again.actions(gid):
            game.apply_id(action.action_id)
        assert game.is_over and info.version == len(game.history) == final["version"]
        assert info.winners == final["view"]["final"]["winner_seats"]  # type: ignore[index]
        assert final_score(game).to_json()["players"][0]["total"] == final["view"]["final"]["players"][0]["total"]  # type: ignore[index]
    finally:
        again.close()
