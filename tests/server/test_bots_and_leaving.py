"""Bots on the server: the worker pool (processes and threads), the event loop free while a bot thinks,
and what a game does when its people leave ("finish": bots finish it; "wait": it waits for them)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
import pytest

from ttr.bots import BOTS, make_bot
from ttr.bots.base import BaseBot, legal_actions
from ttr.bots.hint import hint_explained
from ttr.engine import Action, Game, SeatView
from ttr.maps import GameMap, load_map
from ttr.server.bot_pool import BotPool

from .kit import Client, live_server, wait_until


def test_process_pool_plays_like_the_bot_in_process() -> None:
    game = Game.new(load_map("new_york"), 3, seed=12)
    for _ in range(9):
        game.apply_id(game.legal_ids()[-1])
    view = SeatView.of(game, game.current)
    _ids, legal = legal_actions(game)

    async def run() -> tuple[int, tuple[int, str, dict[str, Any]]]:
        pool = BotPool(1, "process")
        try:
            await pool.start()
            return await pool.choose("g1", "greedy", "new_york", game.current, 5, view, legal), await pool.hint(
                "new_york", view, legal)
        finally:
            pool.close()

    index, (hint_index, reason, reason_i18n) = asyncio.run(run())
    assert legal[index] == make_bot("greedy", load_map("new_york"), game.current, 5).choose(view, legal)
    assert (legal[hint_index], reason, reason_i18n) == hint_explained(view, legal, load_map("new_york"))


def test_bots_only_game_finishes_with_the_process_pool() -> None:
    with live_server(bot_pool="process", bot_workers=1) as server:
        body = {"map": "new_york", "seed": 3, "bot_delay": 0,
                "seats": [{"type": "bot", "level": "random"}, {"type": "bot", "level": "greedy"}]}
        created = httpx.post(f"{server.http}/api/games", json=body).json()
        gid = created["id"]
        wait_until(lambda: httpx.get(f"{server.http}/api/games/{gid}").json()["status"] == "finished", 120, 0.05)
        summary = httpx.get(f"{server.http}/api/games/{gid}").json()
        assert summary["winners"] and summary["version"] == len(server.store.actions(gid))


def test_bots_stop_moving_in_a_game_at_the_bot_action_limit(caplog: pytest.LogCaptureFixture) -> None:
    """A guard against bots that loop (claim a tunnel, abandon it, for ever): past `bot_action_limit`
    actions the bots of a game stop, the game stays open as it was, and the server says so in its log, in the
    game's summary and to the pages watching it (a fresh snapshot with `bots_stopped`)."""
    with caplog.at_level("ERROR"), live_server(bot_action_limit=40) as server:
        body = {"map": "europe", "seed": 5, "bot_delay": 0.05,
                "seats": [{"type": "bot", "level": "greedy"}, {"type": "bot", "level": "random"}]}
        gid = httpx.post(f"{server.http}/api/games", json=body).json()["id"]

        async def watch() -> list[dict[str, Any]]:
            client = await Client.open(server.ws_url(gid))
            try:
                await client.join()
                await client.recv_type("snapshot", timeout=60)  # sent again when the bots stop
                return client.received
            finally:
                await client.close()

        received = asyncio.run(watch())
        first, last = received[0], received[-1]
        assert (first["type"], first["bots_stopped"]) == ("snapshot", False) and first["version"] < 40
        assert not any(m["bots_stopped"] for m in received[1:-1])
        assert (last["bots_stopped"], last["version"], last["status"]) == (True, 40, "running")
        wait_until(lambda: "bot_action_limit" in caplog.text, 10, 0.05)
        summary = httpx.get(f"{server.http}/api/games/{gid}").json()
        assert (summary["version"], summary["status"], summary["bots_stopped"]) == (40, "running", True)
        assert [g["bots_stopped"] for g in httpx.get(f"{server.http}/api/games").json() if g["id"] == gid] == [True]
        assert len(server.store.actions(gid)) == 40
        assert f"game {gid} has 40 actions" in caplog.text


class GatedBot(BaseBot):
    """A bot that thinks until the test opens its gate (to hold a move in the worker pool)."""

    name = "gated"
    gate = threading.Event()
    thinking = threading.Event()

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        GatedBot.thinking.set()
        assert GatedBot.gate.wait(60)
        return legal[0]


def gated(game_map: GameMap, seat: int, seed: int) -> GatedBot:
    return GatedBot(game_map, seat, seed)


def test_the_server_answers_while_a_bot_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "gated", gated)
    GatedBot.gate.clear()
    GatedBot.thinking.clear()
    with live_server() as server:
        body = {"map": "europe", "seed": 4, "bot_delay": 0, "when_people_leave": "wait",
                "seats": [{"type": "bot", "level": "gated"}, {"type": "human", "name": "Ana"}]}
        created = httpx.post(f"{server.http}/api/games", json=body).json()
        gid = created["id"]
        assert GatedBot.thinking.wait(30)

        async def while_thinking() -> dict[str, Any]:
            client = await Client.open(server.ws_url(gid))
            snap = await client.join(created["seats"][1]["token"])
            await client.send({"type": "ping"})
            assert (await client.recv_type("pong"))["type"] == "pong"
            async with httpx.AsyncClient(base_url=server.http) as http:
                assert (await http.get(f"/api/games/{gid}")).json()["version"] == 0
            GatedBot.gate.set()
            update = await client.recv_type("update")
            await client.close()
            return {"snap": snap, "update": update}

        got = asyncio.run(while_thinking())
        assert got["snap"]["version"] == 0 and got["update"]["version"] == 1
        assert got["update"]["last"]["seat"] == 0


async def join_play_leave(url: str, token: str, moves: int) -> int:
    client = await Client.open(url)
    msg = await client.join(token)
    done = 0
    while done < moves or not msg.get("legal"):
        if msg["type"] in ("snapshot", "update") and msg["legal"]:
            await client.send({"type": "action", "version": msg["version"], "id": msg["legal"][0]["id"]})
            done += 1
        msg = await client.recv()
    await client.close()
    version: int = msg["version"]
    return version


def test_when_people_leave_finish() -> None:
    with live_server(leave_grace=0) as server:
        body = {"map": "europe", "seed": 9, "bot_delay": 0, "when_people_leave": "finish",
                "seats": [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]}
        created = httpx.post(f"{server.http}/api/games", json=body).json()
        gid = created["id"]
        # nobody has come yet: the game waits for its people
        room = server.manager.rooms[gid]
        assert room.game.current == 0 and room.bot_task is None
        asyncio.run(join_play_leave(server.ws_url(gid), created["seats"][0]["token"], 3))
        wait_until(lambda: room.game.is_over, 120)
        summary = httpx.get(f"{server.http}/api/games/{gid}").json()
        assert summary["status"] == "finished"
        seats = [a.seat for a in server.store.actions(gid)]
        assert seats.count(0) > 20  # the stand-in bot played Ana's seat to the end


def test_when_people_leave_wait() -> None:
    with live_server(leave_grace=0) as server:
        body = {"map": "europe", "seed": 9, "bot_delay": 0, "when_people_leave": "wait",
                "seats": [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]}
        created = httpx.post(f"{server.http}/api/games", json=body).json()
        gid, token = created["id"], created["seats"][0]["token"]
        version = asyncio.run(join_play_leave(server.ws_url(gid), token, 3))
        room = server.manager.rooms[gid]
        wait_until(lambda: not room.conns and (room.bot_task is None or room.bot_task.done()))
        assert room.version == version and room.game.current == 0 and not room.game.is_over
        assert server.manager._bot_level(room) is None  # nobody will play Ana's seat
        # and she can come back and play on
        assert asyncio.run(join_play_leave(server.ws_url(gid), token, 1)) > version


def test_stand_in_starts_after_the_grace_and_stops_when_a_person_returns() -> None:
    with live_server(leave_grace=0.3, bot_delay=0.0) as server:
        body = {"map": "europe", "seed": 10, "bot_delay": 0.02, "when_people_leave": "finish",
                "seats": [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]}
        created = httpx.post(f"{server.http}/api/games", json=body).json()
        gid, token = created["id"], created["seats"][0]["token"]
        left_at = asyncio.run(join_play_leave(server.ws_url(gid), token, 2))
        room = server.manager.rooms[gid]
        wait_until(lambda: room.version > left_at + 4)  # the timer fired and the stand-in plays Ana's seat
        assert any(a.seat == 0 for a in server.store.actions(gid)[left_at:])

        async def come_back() -> None:
            client = await Client.open(server.ws_url(gid))
            await client.join(token)
            # with Ana here again nobody plays for her: when it is her turn, the game waits for her
            while not room.game.is_over and not (room.game.current == 0 and
                                                 (room.bot_task is None or room.bot_task.done())):
                await asyncio.sleep(0.01)  # (a game that ends meanwhile ends the wait too)
            assert server.manager._bot_level(room) is None and room.people_left_at is None
            await client.close()

        if not room.game.is_over:
            asyncio.run(come_back())


def test_bot_workers_exit_when_the_server_is_killed() -> None:
    import os
    import subprocess
    import sys

    script = (
        "import asyncio, os\n"
        "from ttr.server.bot_pool import BotPool, _warm\n"
        "async def main():\n"
        "    pool = BotPool(1, 'process')\n"
        "    print(await pool.run(_warm), flush=True)\n"
        "    os._exit(0)  # like SIGKILL: no shutdown code runs\n"
        "asyncio.run(main())\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    worker = int(out.stdout.split()[-1])

    def gone() -> bool:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return True
        return False

    wait_until(gone, 30, 0.1)



async def one_stays_one_goes(server: Any, gid: str, stays: str, goes: str, wanted: int) -> int:
    """Seat 0 (token `stays`) plays whenever it is its turn; seat 1 (token `goes`) looks in and leaves. The
    number of seat 1's moves seen, up to `wanted` (or until seat 0 has waited 2 s for seat 1)."""
    stay = await Client.open(server.ws_url(gid))
    msg = await stay.join(stays)
    gone = await Client.open(server.ws_url(gid))
    await gone.join(goes)
    await gone.close()
    moved = 0
    while moved < wanted:
        if msg["type"] in ("snapshot", "update") and msg["legal"]:
            await stay.send({"type": "action", "version": msg["version"], "id": msg["legal"][0]["id"]})
        try:
            msg = await stay.recv(timeout=2)
        except TimeoutError:
            break  # nobody moved for seat 1
        if msg["type"] == "update" and msg["last"]["seat"] == 1:
            moved += 1
    await stay.close()
    return moved


@pytest.mark.parametrize("mode", ["finish", "wait"])
def test_a_person_left_behind_does_not_wait_forever(mode: str) -> None:
    """"finish": when one of two people leaves, a bot plays the leaver's turns after the grace, though the other
    is still here; "wait": the other waits for them."""
    with live_server(leave_grace=0.2, bot_delay=0.0) as server:
        body = {"map": "europe", "seed": 12, "bot_delay": 0, "when_people_leave": mode,
                "seats": [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Ben"}]}
        created = httpx.post(f"{server.http}/api/games", json=body).json()
        gid = created["id"]
        room = server.manager.rooms[gid]
        tokens = [s["token"] for s in created["seats"]]
        moved = asyncio.run(one_stays_one_goes(server, gid, tokens[0], tokens[1], 6))
        if mode == "finish":
            assert moved == 6  # Ben's seat is played for him while Ana is still here
            assert 1 in room.seat_left_at
        else:
            assert moved == 0 and room.game.current == 1 and server.manager._bot_level(room) is None
