"""The action path's PostgreSQL calls on the event loop (`ttr.server.pg_async`) keep the store's guarantees:
compare-and-set on the version, the last action and the game's end in one statement, refusals that store
nothing, and the NOTIFY of a stored action (and of it only) delivered to a listener."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from ttr.server.cluster import CHANNEL
from ttr.server.sql_store import SqlStore
from ttr.server.store import FINISHED, GameInfo, SeatInfo, StaleVersionError, StoredAction, UnknownGameError

from .postgres import Postgres, drop_tables


@pytest.fixture
def pg_store(postgres_server: Postgres) -> Iterator[SqlStore]:
    store = SqlStore(postgres_server.url)
    yield store
    store.close()
    drop_tables(postgres_server.url)


def _info(game_id: str) -> GameInfo:
    return GameInfo(id=game_id, map="europe", seed=5, seats=[SeatInfo("A", "human", None, None),
                                                             SeatInfo("B", "human", None, None)],
                    when_people_leave="wait", bot_delay=0.0, created=1.0)


def test_async_appends_are_compare_and_set_and_announce_only_what_they_stored(pg_store: SqlStore) -> None:
    pg_store.create_game(_info("g1"))
    aio = pg_store.aio
    assert aio is not None

    async def run() -> list[str]:
        heard: list[str] = []
        listening = asyncio.Event()
        listener = asyncio.create_task(aio.listen(CHANNEL, heard.append, listening.set))
        await asyncio.wait_for(listening.wait(), 30)
        await aio.append(CHANNEL, "g1", 0, 0, 11, None, "a|g1|1|0|11|me")
        await aio.append(CHANNEL, "g1", 1, 1, 12, None, "a|g1|2|1|12|me")
        with pytest.raises(StaleVersionError, match="at version 2, not 1"):
            await aio.append(CHANNEL, "g1", 1, 0, 13, None, "a|g1|2|0|13|me")
        with pytest.raises(UnknownGameError):
            await aio.append(CHANNEL, "nope", 0, 0, 1, None, "a|nope|1|0|1|me")
        await aio.append(CHANNEL, "g1", 2, 0, 14, [1], "a|g1|3|0|14|me")  # the last action, with the end
        with pytest.raises(StaleVersionError, match="over"):
            await aio.append(CHANNEL, "g1", 3, 1, 15, None, "a|g1|4|1|15|me")
        assert await aio.actions("g1", 1) == [StoredAction(1, 1, 12), StoredAction(2, 0, 14)]
        for _ in range(100):
            if len(heard) >= 3:
                break
            await asyncio.sleep(0.05)
        listener.cancel()
        await aio.close()
        return heard

    heard = asyncio.run(run())
    assert heard == ["a|g1|1|0|11|me", "a|g1|2|1|12|me", "a|g1|3|0|14|me"]  # the refused ones said nothing
    game = pg_store.get_game("g1")
    assert game is not None and game.status == FINISHED and game.winners == [1] and game.version == 3
    assert pg_store.actions("g1") == [StoredAction(0, 0, 11), StoredAction(1, 1, 12), StoredAction(2, 0, 14)]


def test_a_broken_listen_connection_comes_back_and_says_so(pg_store: SqlStore) -> None:
    """The listener opens its connection again and says when the LISTEN is back (the cluster then has every
    game read the log, so nothing sent while it was down is missed), and hears what is sent after."""
    aio = pg_store.aio
    assert aio is not None

    async def run() -> tuple[int, list[str]]:
        heard: list[str] = []
        listened: list[float] = []
        listener = asyncio.create_task(aio.listen(CHANNEL, heard.append, lambda: listened.append(1.0)))
        for _ in range(600):
            if len(listened) == 1:
                break
            await asyncio.sleep(0.05)
        killed = await aio.rows("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE query = %s AND pid <> pg_backend_pid()", (f"LISTEN {CHANNEL}",))
        assert killed == [(True,)]
        for _ in range(600):
            if len(listened) == 2:
                break
            await asyncio.sleep(0.05)
        await aio.notify(CHANNEL, "after")
        for _ in range(200):
            if heard:
                break
            await asyncio.sleep(0.05)
        listener.cancel()
        await aio.close()
        return len(listened), heard

    assert asyncio.run(run()) == (2, ["after"])
