"""Whole games with bots and people through the real WebSocket (uvicorn on loopback): every message to a
seat is exactly that seat's view, every message to a spectator the public view, and no message ever holds
another seat's hand or tickets, a deck order, the RNG state, the seed or a token."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from ttr.engine import Game
from ttr.maps import load_map
from ttr.server.views import last_for, view_for

from .kit import Client, LiveServer, live_server

FORBIDDEN_KEYS = {"deck", "discard", "rng", "seed", "ticket_deck", "token", "token_hash", "hands", "initial_train",
                  "initial_tickets", "reshuffles", "offered", "state"}


def walk(value: Any, keys: set[str], strings: set[str], numbers: set[int],
         lists: list[list[str]] | None = None) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            keys.add(k)
            walk(v, keys, strings, numbers, lists)
    elif isinstance(value, list):
        if lists is not None and len(value) >= 4 and all(isinstance(v, str) for v in value):
            lists.append(value)
        for v in value:
            walk(v, keys, strings, numbers, lists)
    elif isinstance(value, str):
        strings.add(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        numbers.add(value)


async def person(client: Client, token: str, rng: random.Random, reconnect_at: int | None, url: str,
                 log: list[tuple[int | None, dict[str, Any]]], seat: int) -> None:
    """A person who plays random legal actions, reconnecting once (a new socket, a fresh snapshot)."""
    msg = await client.join(token)
    moves = 0
    while True:
        log.append((seat, msg))
        if msg.get("status") == "finished":
            return
        if msg["type"] in ("snapshot", "update") and msg["legal"]:
            if reconnect_at is not None and moves == reconnect_at:
                await client.close()
                client = await Client.open(url)
                reconnect_at = None
                msg = await client.join(token)
                assert msg["type"] == "snapshot"
                continue
            await client.send({"type": "action", "version": msg["version"], "id": rng.choice(msg["legal"])["id"]})
            moves += 1
        msg = await client.recv(60)
        assert msg["type"] != "error", msg


async def spectator(client: Client, log: list[tuple[int | None, dict[str, Any]]]) -> None:
    msg = await client.join()
    while True:
        log.append((None, msg))
        if msg.get("status") == "finished":
            return
        msg = await client.recv(60)


async def play(server: LiveServer, map_name: str, seats: list[dict[str, Any]], seed: int
               ) -> tuple[dict[str, Any], list[tuple[int | None, dict[str, Any]]], list[str]]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/games", json={"map": map_name, "seats": seats, "seed": seed, "bot_delay": 0,
                                                "when_people_leave": "wait"})
        assert r.status_code == 201, r.text
        created = r.json()
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"] if "token" in s]
    log: list[tuple[int | None, dict[str, Any]]] = []
    tasks = [spectator(await Client.open(server.ws_url(gid)), log)]
    rng = random.Random(seed)
    for s in created["seats"]:
        if "token" in s:
            reconnect = 5 if s["seat"] == 0 else None
            tasks.append(person(await Client.open(server.ws_url(gid)), s["token"], random.Random(rng.random()),
                                reconnect, server.ws_url(gid), log, s["seat"]))
    await asyncio.wait_for(asyncio.gather(*tasks), 240)
    async with httpx.AsyncClient(base_url=server.http) as http:
        for path in (f"/api/games/{gid}", "/api/games", f"/api/games/{gid}/replay/3"):
            text = (await http.get(path)).text
            assert not any(t in text for t in tokens), path
    return created, log, tokens


def check_messages(server: LiveServer, created: dict[str, Any], log: list[tuple[int | None, dict[str, Any]]],
                   tokens: list[str], map_name: str, seed: int) -> tuple[int, int]:
    """Compare every message with the server's own game at that version; how many were checked, and actions."""
    gid = created["id"]
    names = [s["name"] for s in created["seats"]]
    ids = [a.action_id for a in server.store.actions(gid)]
    game_map = load_map(map_name)
    routes = {r.name for r in game_map.routes}
    by_version: dict[int, list[tuple[int | None, dict[str, Any]]]] = {}
    for seat, msg in log:
        if msg["type"] in ("snapshot", "update"):
            by_version.setdefault(msg["version"], []).append((seat, msg))
        else:
            assert msg["type"] == "seats", msg
    game = Game.new(game_map, names, seed=seed)
    checked = 0
    whole_logs: dict[tuple[int, int | None], list[dict[str, Any]]] = {}  # each reader's whole log, per version
    for version in range(len(ids) + 1):
        for seat, msg in by_version.get(version, []):
            assert msg["seat"] == seat if msg["type"] == "snapshot" else True
            expected = view_for(game, seat)
            whole_logs[(version, seat)] = expected["log"]
            if msg["type"] == "update":
                assert msg["last"] == last_for(expected)
                assert msg["log_from"] == version - 1  # each update carries the one new entry of the log
                expected["log"] = expected["log"][msg["log_from"]:]
            assert msg["view"] == expected
            legal = [e["id"] for e in msg["legal"]]
            assert legal == (game.legal_ids() if seat == game.current and not game.is_over else [])
            keys: set[str] = set()
            strings: set[str] = set()
            numbers: set[int] = set()
            lists: list[list[str]] = []
            walk(msg, keys, strings, numbers, lists)
            cards = game.map.card_names
            deck_top = [cards[c] for c in reversed(game._deck)]  # the deck's order, top first
            tickets_next = [game_map.tickets[t].name for t in game._ticket_deck]
            for found in lists:  # no run of the deck's or the ticket deck's order, however short
                n = len(found)
                assert found != deck_top[:n] or n > len(deck_top) or len(set(found)) == 1
                assert found != tickets_next[:n] or n > len(tickets_next)
            assert not keys & FORBIDDEN_KEYS, keys & FORBIDDEN_KEYS
            assert not any(t in s for t in tokens for s in strings)
            assert game._rng.state not in numbers and seed not in numbers
            for p, entry in enumerate(msg["view"]["players"]):
                if p != seat:
                    assert "hand" not in entry and "tickets" not in entry
            if not game.is_over:
                hidden = {game_map.tickets[t].name for p in range(game.n) if p != seat for t in game.tickets[p]}
                if seat != game.current:
                    hidden |= {game_map.tickets[t].name for t in game.offered}
                assert not (hidden - routes) & strings, (hidden - routes) & strings
            for entry in msg["view"]["log"]:
                if entry["player"] != seat:
                    assert "card" not in entry or entry.get("from") == "face_up"
                    assert "tickets" not in entry
            checked += 1
        if version < len(ids):
            game.apply_id(ids[version])
    assert game.is_over
    have: dict[int | None, list[dict[str, Any]]] = {}  # each socket's log as a page puts it together
    for seat, msg in log:
        if msg["type"] == "snapshot":
            have[seat] = msg["view"]["log"]
        elif msg["type"] == "update":
            assert len(have[seat]) >= msg["log_from"]
            have[seat] = have[seat][:msg["log_from"]] + msg["view"]["log"]
            assert have[seat] == whole_logs[(msg["version"], seat)]
    return checked, len(ids)


@pytest.mark.parametrize(("map_name", "seats", "seed"), [
    ("europe", [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "greedy"},
                {"type": "human", "name": "Ben"}], 1_234_567_890_123),
    ("new_york", [{"type": "bot", "level": "random"}, {"type": "human", "name": "Ana"}], 9_876_543_210_987),
])
def test_no_message_leaks_hidden_information(map_name: str, seats: list[dict[str, Any]], seed: int) -> None:
    with live_server() as server:
        created, log, tokens = asyncio.run(play(server, map_name, seats, seed))
        checked, actions = check_messages(server, created, log, tokens, map_name, seed)
    humans = sum(1 for s in seats if s["type"] == "human")
    assert actions > 50
    assert checked >= (humans + 1) * (actions - 5)  # every connection saw (nearly) every update
