"""Program seats in `ttr serve` (`cmd:COMMAND`, docs/bot-protocol.md): only the programs the operator lists
with `--bot-program` may be seated; each is one process per game and seat that gets the hello, a decide per
move and the end of the game; a program the server no longer offers is never run."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpers import logging_program
from ttr.cli.main import main
from ttr.server.programs import program_label
from ttr.server.store import MemoryStore

from .kit import Client, LiveServer, server_config, wait_until


@pytest.fixture
def program(tmp_path: Path) -> tuple[str, Path]:
    """The logging program's command, and its log file."""
    return logging_program(tmp_path)


def _game(level: str) -> dict[str, Any]:
    return {"map": "new_york", "seed": 11, "bot_delay": 0,
            "seats": [{"type": "bot", "level": level}, {"type": "bot", "level": "random"}]}


def test_a_listed_program_plays_a_whole_game_in_one_process(program: tuple[str, Path]) -> None:
    command, log = program
    name = f"cmd:{command}"
    with LiveServer(server_config(programs=(name,), program_time=2.0)) as server:
        bots = httpx.get(f"{server.http}/api/bots").json()
        assert [b["level"] for b in bots][-1] == name and "ttr-bot/1" in bots[-1]["description"]
        created = httpx.post(f"{server.http}/api/games", json=_game(name))
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        seat = created.json()["seats"][0]
        assert seat["level"] == name and seat["name"] == f"Bot 1 ({program_label(name)})"  # the program's file
        assert seat["name"].endswith(".py)") and "/" not in seat["name"]
        wait_until(lambda: httpx.get(f"{server.http}/api/games/{game_id}").json()["status"] == "finished")
        wait_until(lambda: log.exists() and '"end"' in log.read_text())
        final = httpx.get(f"{server.http}/api/games/{game_id}").json()
        record = httpx.get(f"{server.http}/api/games/{game_id}/record").json()
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    kinds = [e["type"] for e in entries]
    assert kinds[0] == "hello" and kinds[-1] == "end" and set(kinds[1:-1]) == {"decide"}
    assert entries[0]["seat"] == 0 and entries[0]["map"] == "new_york" and entries[0]["time_per_move"] == 2.0
    assert len({e["pid"] for e in entries}) == 1  # one process for the whole game
    assert kinds.count("decide") == sum(1 for a in record["actions"] if a["player"] == 0)  # each of its moves
    decides = [e for e in entries if e["type"] == "decide"]
    assert all(e["own_hand"] and e["others_hidden"] for e in decides)  # its own hand, no other seat's
    assert entries[-1]["winners"] and final["status"] == "finished"


def test_an_unlisted_program_is_refused_and_nothing_is_created(program: tuple[str, Path]) -> None:
    command, log = program
    with LiveServer(server_config()) as server:
        before = httpx.get(f"{server.http}/api/games").json()
        answer = httpx.post(f"{server.http}/api/games", json=_game(f"cmd:{command}"))
        assert answer.status_code == 400
        error = answer.json()["error"]
        assert error["code"] == "unknown_level" and "--bot-program" in error["message"]
        assert httpx.get(f"{server.http}/api/games").json() == before
        assert all(not b["level"].startswith("cmd:") for b in httpx.get(f"{server.http}/api/bots").json())
    assert not log.exists()  # never started


def test_a_program_no_longer_offered_is_never_run(program: tuple[str, Path]) -> None:
    """A game stored with a program seat, served again by a server that does not list the program: when that
    seat is to move the stand-in bot plays it, and the program is not started."""
    command, log = program
    name = f"cmd:{command}"
    store = MemoryStore()
    game = {**_game(name), "seats": [{"type": "human", "name": "Ana"}, {"type": "bot", "level": name}],
            "when_people_leave": "wait"}
    with LiveServer(server_config(programs=(name,)), store=store) as server:
        created = httpx.post(f"{server.http}/api/games", json=game).json()  # seat 0 (Ana) keeps tickets first
    game_id, token = created["id"], created["seats"][0]["token"]
    with LiveServer(server_config(), store=store) as server:
        asyncio.run(_first_move(server.ws_url(game_id), token))
        wait_until(lambda: httpx.get(f"{server.http}/api/games/{game_id}").json()["version"] >= 2)
    assert not log.exists()


async def _first_move(url: str, token: str) -> None:
    client = await Client.open(url)
    msg = await client.join(token)
    assert msg["type"] == "snapshot" and msg["legal"], msg
    await client.send({"type": "action", "version": msg["version"], "id": msg["legal"][0]["id"]})
    await client.recv_type("update")
    await client.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _entries(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def test_an_idle_program_is_closed_and_started_again_at_its_next_decision(program: tuple[str, Path]) -> None:
    """A program waiting for a person longer than `program_idle` is closed (no idle process is kept); when its
    seat is asked again, a new process gets a hello and the decide, and the game goes on."""
    command, log = program
    name = f"cmd:{command}"
    game = {**_game(name), "seats": [{"type": "human", "name": "Ana"}, {"type": "bot", "level": name}],
            "when_people_leave": "wait"}

    async def play(url: str, token: str) -> None:
        client = await Client.open(url)
        msg = await client.join(token)
        await client.send({"type": "action", "version": msg["version"], "id": msg["legal"][0]["id"]})  # tickets
        while not msg.get("legal") or msg["version"] < 2:  # the program keeps its tickets: Ana's turn again
            msg = await client.recv_type("update")
        first = [e for e in _entries(log) if e["type"] == "hello"]
        assert len(first) == 1
        await asyncio.to_thread(wait_until, lambda: not _alive(first[0]["pid"]), 30)  # closed while Ana thinks
        assert httpx.get(f"{server.http}/api/games/{game_id}").json()["status"] == "running"
        while sum(e["type"] == "hello" for e in _entries(log)) < 2:  # Ana plays until the program is asked
            if msg.get("legal"):
                await client.send({"type": "action", "version": msg["version"], "id": msg["legal"][0]["id"]})
            msg = await client.recv_type("update")
        await client.close()

    with LiveServer(server_config(programs=(name,), program_idle=0.5)) as server:
        created = httpx.post(f"{server.http}/api/games", json=game).json()
        game_id = created["id"]
        asyncio.run(play(server.ws_url(game_id), created["seats"][0]["token"]))
        wait_until(lambda: [e["type"] for e in _entries(log)][-1] == "decide")  # the new process answered
        state = httpx.get(f"{server.http}/api/games/{game_id}").json()
    entries = _entries(log)
    hellos = [e for e in entries if e["type"] == "hello"]
    assert len(hellos) == 2 and hellos[0]["pid"] != hellos[1]["pid"] and hellos[1]["seat"] == 1
    assert [e["type"] for e in entries if e["pid"] == hellos[1]["pid"]][:2] == ["hello", "decide"]
    assert state["status"] == "running" and state["version"] > 3


@pytest.mark.parametrize(("argv", "message"), [
    (["--bot-program", "no-such-program-here --x"], "--bot-program: no program 'no-such-program-here'"),
    (["--bot-program", "python3 'unclosed"], "--bot-program: cannot read the command"),
    (["--bot-program", "  "], "--bot-program: the command is empty"),
    (["--bot-program-time", "0"], "--bot-program-time must be positive"),
    (["--bot-program-idle", "0"], "--bot-program-idle must be from 1 to 86400 seconds"),
])
def test_serve_refuses_bad_programs(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "0", "--db", "memory", *argv]) == 2
    assert message in capsys.readouterr().err
