"""The garbage collector's pauses, counted per generation (`/api/stats`' `gc`), and the freezing that keeps
long-lived objects out of its scans (`ttr.server.collector`)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.collector import Collector
from ttr.server.store import MemoryStore

from .kit import server_config


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(server_config(), store=MemoryStore(), pool=BotPool(1, "thread"))
    with TestClient(app) as c:
        yield c


def test_collections_are_counted_per_generation() -> None:
    collector = Collector()
    collector.install()
    try:
        gc.collect(0)
        gc.collect(2)
    finally:
        collector.remove()
    gc.collect(2)  # after `remove`: not counted
    got = collector.summary()
    assert got["0"]["collections"] == 1 and got["2"]["collections"] == 1
    assert got["2"]["max_ms"] >= 0 and got["1"]["collections"] == 0
    collector.reset()
    assert collector.summary()["2"]["collections"] == 0


def test_freezing_moves_live_objects_out_of_the_scans_and_the_sweep_frees_cycles() -> None:
    collector = Collector()
    try:
        collector.freeze()
        assert gc.get_freeze_count() > 1000 and collector.summary()["frozen"] == gc.get_freeze_count()
        cycle: list[object] = []
        cycle.append(cycle)
        collector.freeze()  # the cycle is frozen: dropping it leaves it to the next sweep
        del cycle
        assert gc.collect() == 0
        before = collector.sweeps
        collector.sweep()
        assert collector.sweeps == before + 1
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()


def test_the_freeze_loop_freezes_until_cancelled_then_unfreezes() -> None:
    collector = Collector()

    async def run() -> int:
        task = asyncio.get_running_loop().create_task(collector.freeze_loop(0.01, 0.03))
        for _ in range(500):  # until it swept once (a loaded machine may be slow to wake it)
            await asyncio.sleep(0.01)
            if collector.sweeps:
                break
        frozen = gc.get_freeze_count()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return frozen

    try:
        assert asyncio.run(run()) > 1000
        assert collector.sweeps >= 1 and gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()


def test_stats_say_the_collectors_pauses(client: TestClient) -> None:
    gc.collect(1)
    stats = client.get("/api/stats").json()["gc"]
    assert set(stats) == {"0", "1", "2", "frozen", "sweeps"}
    assert stats["1"]["collections"] >= 1 and stats["1"]["total_ms"] >= 0
