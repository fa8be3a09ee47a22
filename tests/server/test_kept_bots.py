"""The bot people meet is the bot that was measured: the server keeps one bot per game and seat across its
moves, built with the game's seed as `ttr tournament` builds it, so a seeded game of bots served move by move
through the API gives the same actions as the same game played by `play_game` (`random` and the search draw
from their random generator at every move: a bot built afresh per move would play another game)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ttr.bots import BOTS, make_bot, play_game
from ttr.bots.base import legal_actions
from ttr.bots.mcts import MctsBot
from ttr.engine import Game, SeatView
from ttr.maps import load_map
from ttr.records import write_record
from ttr.server import bot_pool
from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.store import MemoryStore

from .kit import server_config


def _served(map_name: str, levels: list[str], seed: int, workers: int) -> list[Any]:
    """The actions of a game of bots `levels` with `seed`, served to its end through the REST API."""
    app = create_app(server_config(bot_workers=workers), store=MemoryStore(), pool=BotPool(workers, "thread"))
    with TestClient(app) as client:
        seats = [{"type": "bot", "level": level} for level in levels]
        created = client.post("/api/games", json={"map": map_name, "seed": seed, "bot_delay": 0, "seats": seats})
        assert created.status_code == 201, created.text
        gid = created.json()["id"]
        deadline = time.monotonic() + 120
        while client.get(f"/api/games/{gid}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the served game did not finish"
            time.sleep(0.02)
        record = client.get(f"/api/games/{gid}/record").json()
    actions: list[Any] = record["actions"]
    return actions


@pytest.mark.parametrize(("map_name", "levels", "seed"), [("new_york", ["random", "hard"], 5),
                                                           ("new_york", ["mcts_6", "medium"], 8)])
def test_a_served_game_of_bots_is_the_tournament_game_of_the_same_seed(map_name: str, levels: list[str], seed: int,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "mcts_6", lambda m, s, sd: MctsBot(m, s, sd, iterations=6))  # a search, cheaply
    game_map = load_map(map_name)
    bots = [make_bot(level, game_map, seat, seed) for seat, level in enumerate(levels)]
    played = write_record(play_game(game_map, bots, seed))["actions"]
    assert _served(map_name, levels, seed, workers=2) == played


def test_the_worker_keeps_one_bot_per_game_seat_and_level_and_forgets_a_finished_game() -> None:
    game = Game.new(load_map("europe"), 2, seed=3)
    _ids, legal = legal_actions(game)
    view = SeatView.of(game, 0)
    bot_pool.choose_move("g-kept", "random", "europe", 0, 3, view, legal)
    first = bot_pool._kept[("g-kept", 0, "random")]
    bot_pool.choose_move("g-kept", "random", "europe", 0, 3, view, legal)
    assert bot_pool._kept[("g-kept", 0, "random")] is first  # the same bot, not a new one
    bot_pool.choose_move("g-kept", "medium", "europe", 0, 3, view, legal)  # a stand-in level: its own bot
    assert bot_pool.forget_game("g-kept") == 2 and not any(k[0] == "g-kept" for k in bot_pool._kept)

    def lanes() -> list[int]:
        pool = BotPool(3, "thread")
        try:
            return [pool.lane_of(f"game-{i}") for i in range(30)]
        finally:
            pool.close()

    spread = lanes()
    assert set(spread) == {0, 1, 2} and spread == lanes()  # every lane used, the same on every start
