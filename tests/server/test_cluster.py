"""Two `ttr serve` on one PostgreSQL database: a game with a seat on each server and a bot is played, each
server's sockets getting the other's actions; the server that runs the bots is killed (SIGKILL) mid-game,
the other takes the game's lease over and it is finished there. About 20 s: the takeover waits for the dead
server's lease to lapse (6 s) and for the next renewal round (2 s)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ttr.server.sql_store import SqlStore

from .kit import Client, replay_game
from .postgres import Postgres, drop_tables
from .test_restart import Served

GAME = {"map": "europe", "bot_delay": 0, "when_people_leave": "wait",
        "seats": [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Ben"},
                  {"type": "bot", "level": "random"}]}


@pytest.fixture
def pg_url(postgres_server: Postgres) -> Iterator[str]:
    drop_tables(postgres_server.url)
    yield postgres_server.url
    drop_tables(postgres_server.url)


class Seat:
    """A seat's client: plays a random legal action on each turn, keeps the versions it was sent."""

    def __init__(self, name: str, token: str, rng: random.Random) -> None:
        self.name, self.token, self.rng = name, token, rng
        self.versions: list[int] = []
        self.errors: list[dict[str, Any]] = []
        self.last: dict[str, Any] = {}
        self.log: list[dict[str, Any]] = []  # the game's log as this seat's page puts it together
        self.moves = 0
        self.seen_here: set[int] = set()  # seats its pages were told are connected

    async def play(self, url: str, until: Any) -> None:
        """Play on `url` until `until(last message)` or the game ends; a closed socket just returns."""
        client = await Client.open(url)
        try:
            msg = await client.join(self.token)
            while True:
                self.last = msg
                if "seats" in msg:
                    self.seen_here |= {s["seat"] for s in msg["seats"] if s["type"] == "human" and s["connected"]}
                if msg["type"] == "error":
                    self.errors.append(msg)
                if msg["type"] in ("snapshot", "update"):
                    self.versions.append(msg["version"])
                    start = msg.get("log_from", 0)
                    assert len(self.log) >= start, (len(self.log), start)
                    self.log = self.log[:start] + msg["view"]["log"]
                    assert len(self.log) == msg["version"]
                    if msg["status"] == "finished" or until(msg):
                        return
                    if msg["legal"]:
                        self.moves += 1
                        await client.send({"type": "action", "version": msg["version"],
                                           "id": self.rng.choice(msg["legal"])["id"]})
                msg = await client.recv(60)
        except Exception as exc:  # the server was killed under this socket
            if "ConnectionClosed" not in type(exc).__name__:
                raise
        finally:
            await client.close()


def test_two_servers_play_one_game_and_one_takes_over_when_the_other_dies(pg_url: str, tmp_path: Path) -> None:
    fast = ("--message-limit", "100000/10 seconds")  # the clients play as fast as they can
    a = Served(pg_url, tmp_path / "a.log", extra=fast)
    b = Served(pg_url, tmp_path / "b.log", extra=fast)
    try:
        made = httpx.post(f"{a.http}/api/games", json=GAME).json()  # A takes the lease: it runs the bot
        gid = made["id"]
        ana = Seat("Ana", made["seats"][0]["token"], random.Random(1))
        ben = Seat("Ben", made["seats"][1]["token"], random.Random(2))

        async def first_half() -> None:
            await asyncio.gather(ana.play(a.ws(gid), lambda m: m["version"] >= 40),
                                 ben.play(b.ws(gid), lambda m: m["version"] >= 40))

        asyncio.run(first_half())
        assert ana.errors == [] and ben.errors == [], (ana.errors, ben.errors)
        assert min(ana.last["version"], ben.last["version"]) >= 40
        # Ben, on B, was sent the actions of Ana and of the bot, both stored by A, and could move in turn
        assert ben.moves >= 5 and ana.moves >= 5
        bot_moves = [e for e in ben.log if e.get("player") == 2]
        assert bot_moves, "the bot played (on A), and B's socket saw it"
        assert 0 in ben.seen_here  # Ana's socket is on A: B's pages counted her as here

        a.kill()
        killed = time.monotonic()

        async def second_half() -> None:  # Ana comes back through B; the bot goes on, now run by B
            await asyncio.gather(ana.play(b.ws(gid), lambda m: False), ben.play(b.ws(gid), lambda m: False))

        asyncio.run(second_half())
        took = time.monotonic() - killed
        assert ana.last["status"] == "finished" and ben.last["status"] == "finished", (ana.last, ben.last)
        summary = httpx.get(f"{b.http}/api/games/{gid}").json()
        assert summary["status"] == "finished" and summary["winners"]
    finally:
        a.kill() if a.proc.poll() is None else None
        b.kill()
    store = SqlStore(pg_url)
    try:
        info = store.get_game(gid)
        assert info is not None and info.status == "finished"
        game = replay_game("europe", ["Ana", "Ben", "Bot 3 (random)"], info.seed,
                           [x.action_id for x in store.actions(gid)])
        assert game.is_over and len(game.history) == info.version
    finally:
        store.close()
    for log in ("a.log", "b.log"):  # never two servers moving one bot: no bot move was refused as stale
        assert "bot move refused" not in (tmp_path / log).read_text(errors="replace"), log
    assert took < 120
