"""One lock per game: of two simultaneous actions at the same version one applies, the other is told why not."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from ttr.server.bot_pool import BotPool
from ttr.server.protocol import ProtocolError
from ttr.server.rooms import Connection, GameManager
from ttr.server.store import MemoryStore

from .kit import Client, live_server, server_config

TWO_PEOPLE = {"map": "europe", "seed": 8, "bot_delay": 0, "when_people_leave": "wait",
              "seats": [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Ben"}]}


def test_two_tabs_of_one_seat_send_at_once() -> None:
    with live_server() as server:
        gid, token = "", ""

        async def run() -> list[dict[str, Any]]:
            nonlocal gid, token
            async with httpx.AsyncClient(base_url=server.http) as http:
                created = (await http.post("/api/games", json=TWO_PEOPLE)).json()
            gid, token = created["id"], created["seats"][0]["token"]
            a, b = await Client.open(server.ws_url(gid)), await Client.open(server.ws_url(gid))
            snap = await a.join(token)
            await b.join(token)
            first, second = snap["legal"][0]["id"], snap["legal"][-1]["id"]
            await asyncio.gather(a.send({"type": "action", "version": 0, "id": first}),
                                 b.send({"type": "action", "version": 0, "id": second}))
            out = []
            for client in (a, b):
                out.append(await client.recv_type("update"))
            # whoever lost gets its error right after the update it lost to
            errors = []
            for client in (a, b):
                await client.send({"type": "ping"})
                while (msg := await client.recv_type("error", "pong")) and msg["type"] == "error":
                    errors.append(msg)
            await a.close()
            await b.close()
            return out + errors

        messages = asyncio.run(run())
        updates = [m for m in messages if m["type"] == "update"]
        errors = [m for m in messages if m["type"] == "error"]
        assert [u["version"] for u in updates] == [1, 1]
        assert len(errors) == 1 and errors[0]["code"] == "stale_version"
        assert len(server.store.actions(gid)) == 1
        assert server.manager.rooms[gid].version == 1


def test_simultaneous_applies_in_the_manager() -> None:
    async def run() -> None:
        store = MemoryStore()
        manager = GameManager(store, BotPool(1, "thread"), server_config())
        created = await manager.create(dict(TWO_PEOPLE))
        room = await manager.room(created["id"])
        assert room is not None
        ids = room.game.legal_ids()
        results = await asyncio.gather(manager.apply(room, 0, 0, ids[0]), manager.apply(room, 0, 0, ids[-1]),
                                       return_exceptions=True)
        assert results[0] is None
        assert isinstance(results[1], ProtocolError) and results[1].code == "stale_version"
        assert [a.action_id for a in store.actions(created["id"])] == [ids[0]]
        assert room.version == 1
        # a connection that never joined is refused before anything else
        conn = Connection(lambda _text: asyncio.sleep(0))
        try:
            await manager.act(conn, 1, ids[0])
        except ProtocolError as exc:
            assert exc.code == "join_first"
        else:
            raise AssertionError("an action without join was accepted")
        await manager.stop()

    asyncio.run(run())


def test_a_client_that_does_not_read_is_hung_up_on() -> None:
    async def run() -> None:
        stuck = asyncio.Event()
        hung_up: list[bool] = []

        async def send(_text: str) -> None:
            await stuck.wait()  # the socket never drains

        async def hang_up() -> None:
            hung_up.append(True)

        conn = Connection(send, hang_up)
        writer = asyncio.create_task(conn.writer())
        for i in range(Connection.MAX_QUEUE + 5):
            conn.push({"type": "pong", "n": i})
        assert conn.closed and conn.too_slow
        stuck.set()
        await asyncio.wait_for(writer, 10)
        assert hung_up == [True]

    asyncio.run(run())


def test_a_game_asked_for_at_once_is_loaded_once() -> None:
    async def run() -> None:
        store = MemoryStore()
        first = GameManager(store, BotPool(1, "thread"), server_config())
        created = await first.create(dict(TWO_PEOPLE))
        room = await first.room(created["id"])
        assert room is not None
        await first.apply(room, 0, 0, room.game.legal_ids()[0])
        second = GameManager(store, BotPool(1, "thread"), server_config())  # as after a restart
        rooms = await asyncio.gather(*(second.room(created["id"]) for _ in range(5)))
        assert rooms[0] is not None and all(r is rooms[0] for r in rooms)
        assert rooms[0].version == 1 and second.rooms[created["id"]] is rooms[0]
        assert await second.room("nope") is None and not second._loading

    asyncio.run(run())
