"""The store's contract: the same tests for the in-memory, SQLite and PostgreSQL adapters."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest

from ttr.engine import Game, full_state
from ttr.maps import load_map
from ttr.server.store import (
    ABANDONED,
    FINISHED,
    RUNNING,
    GameInfo,
    GameStore,
    SeatInfo,
    StaleVersionError,
    StoredAction,
    StoreError,
    UnknownGameError,
)
from ttr.server.stores import open_store


@pytest.fixture
def store(store_url: str) -> Iterator[GameStore]:
    s = open_store(store_url)
    yield s
    s.close()


def info(game_id: str = "g1", created: float = 100.0, seed: int = 7) -> GameInfo:
    return GameInfo(
        id=game_id, map="europe", seed=seed,
        seats=[SeatInfo("Ana", "human", None, "ab" * 32), SeatInfo("Bot", "bot", "greedy", None)],
        when_people_leave="wait", bot_delay=0.25, created=created, extra={"note": "x"}, creator="c1",
    )


def test_create_and_get(store: GameStore) -> None:
    store.create_game(info(seed=2**62 + 5))
    got = store.get_game("g1")
    assert got is not None
    assert got == GameInfo(
        id="g1", map="europe", seed=2**62 + 5,
        seats=[SeatInfo("Ana", "human", None, "ab" * 32), SeatInfo("Bot", "bot", "greedy", None)],
        when_people_leave="wait", bot_delay=0.25, created=100.0, status=RUNNING, version=0, winners=None,
        extra={"note": "x"}, creator="c1", updated=100.0)  # last activity: the creation
    assert store.get_game("nope") is None


def test_duplicate_id_is_refused(store: GameStore) -> None:
    store.create_game(info())
    with pytest.raises(StoreError, match="exists"):
        store.create_game(info())
    assert store.get_game("g1") is not None and store.actions("g1") == []


def test_append_in_order(store: GameStore) -> None:
    store.create_game(info())
    for v, (seat, aid) in enumerate([(0, 5), (1, 9), (0, 3000)]):
        store.append_action("g1", v, seat, aid)
    assert store.actions("g1") == [StoredAction(0, 0, 5), StoredAction(1, 1, 9), StoredAction(2, 0, 3000)]
    got = store.get_game("g1")
    assert got is not None and got.version == 3


@pytest.mark.parametrize("version", [1, -1, 5])
def test_append_at_a_wrong_version_changes_nothing(store: GameStore, version: int) -> None:
    store.create_game(info())
    store.append_action("g1", 0, 0, 1)
    if version == 1:
        version = 0  # the version just used
    with pytest.raises(StaleVersionError):
        store.append_action("g1", version, 0, 2)
    assert store.actions("g1") == [StoredAction(0, 0, 1)]
    got = store.get_game("g1")
    assert got is not None and got.version == 1


def test_unknown_game(store: GameStore) -> None:
    with pytest.raises(UnknownGameError):
        store.append_action("nope", 0, 0, 1)
    with pytest.raises(UnknownGameError):
        store.actions("nope")
    with pytest.raises(UnknownGameError):
        store.finish("nope", 0, [0])


def test_finish(store: GameStore) -> None:
    store.create_game(info())
    store.append_action("g1", 0, 0, 1)
    with pytest.raises(StaleVersionError):
        store.finish("g1", 0, [0])
    store.finish("g1", 1, [1, 0])
    got = store.get_game("g1")
    assert got is not None and got.status == FINISHED and got.winners == [1, 0] and got.version == 1
    with pytest.raises(StaleVersionError):
        store.append_action("g1", 1, 0, 2)
    with pytest.raises(StaleVersionError):
        store.finish("g1", 1, [0])
    assert store.actions("g1") == [StoredAction(0, 0, 1)]


def test_the_last_action_and_the_end_are_stored_together(store: GameStore) -> None:
    store.create_game(info())
    store.append_action("g1", 0, 0, 1)
    with pytest.raises(StaleVersionError):  # a stale last action stores neither the action nor the end
        store.append_action("g1", 0, 1, 2, [1])
    got = store.get_game("g1")
    assert got is not None and got.status == RUNNING and got.winners is None and got.version == 1
    store.append_action("g1", 1, 1, 2, [1])
    got = store.get_game("g1")
    assert got is not None and got.status == FINISHED and got.winners == [1] and got.version == 2
    assert store.actions("g1") == [StoredAction(0, 0, 1), StoredAction(1, 1, 2)]
    with pytest.raises(StaleVersionError):
        store.append_action("g1", 2, 0, 3)


def test_running_games_are_counted_by_creator_and_status(store: GameStore) -> None:
    store.create_game(info("g1"))
    store.create_game(info("g2"))
    other = info("g3")
    other.creator = "c2"
    store.create_game(other)
    store.append_action("g2", 0, 0, 1, [0])
    assert store.running_by("c1") == 1 and store.running_by("c2") == 1 and store.running_by("c9") == 0
    assert store.count_by_status() == {RUNNING: 2, FINISHED: 1}


def test_idle_games_are_abandoned(store: GameStore) -> None:
    import time

    now = time.time()
    store.create_game(info("never", created=now - 100))  # never started, idle 100 s
    store.create_game(info("fresh", created=now))
    store.create_game(info("played", created=now - 100))
    store.append_action("played", 0, 0, 1)  # its last action: now
    assert store.abandon_idle(now - 200, now - 200) == []
    assert store.abandon_idle(now - 50, now - 1000) == ["never"]  # the unstarted expire first
    assert sorted(store.abandon_idle(now - 50, now + 10)) == ["fresh", "played"]
    got = {g.id: g.status for g in store.list_games(0)}
    assert got == {"never": ABANDONED, "fresh": ABANDONED, "played": ABANDONED}
    with pytest.raises(StaleVersionError):  # an abandoned game takes no more actions
        store.append_action("played", 1, 1, 2)
    assert store.count_by_status() == {ABANDONED: 3}


def test_actions_since_a_version(store: GameStore) -> None:
    store.create_game(info())
    for v in range(4):
        store.append_action("g1", v, v % 2, 10 + v)
    assert [a.action_id for a in store.actions("g1", 2)] == [12, 13]
    assert store.actions("g1", 4) == []


def test_list_newest_first(store: GameStore) -> None:
    for i, created in enumerate([5.0, 50.0, 20.0, 40.0]):
        store.create_game(info(f"g{i}", created))
    store.finish("g2", 0, [0])
    assert [g.id for g in store.list_games(10)] == ["g1", "g3", "g2", "g0"]
    assert [g.id for g in store.list_games(2)] == ["g1", "g3"]
    assert [g.id for g in store.list_games(0)] == ["g1", "g3", "g2", "g0"]
    assert [g.id for g in store.list_games(10, RUNNING)] == ["g1", "g3", "g0"]
    assert [g.id for g in store.list_games(10, FINISHED)] == ["g2"]


def test_simultaneous_appends_at_one_version(store: GameStore) -> None:
    """Of many writers at the same version exactly one succeeds; the others are told the version is stale."""
    store.create_game(info())
    results: list[str] = []
    barrier = threading.Barrier(6)

    def write(aid: int) -> None:
        barrier.wait()
        try:
            store.append_action("g1", 0, 0, aid)
            results.append("ok")
        except StaleVersionError:
            results.append("stale")

    threads = [threading.Thread(target=write, args=(aid,)) for aid in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["ok"] + ["stale"] * 5
    stored = store.actions("g1")
    assert len(stored) == 1 and stored[0].version == 0
    got = store.get_game("g1")
    assert got is not None and got.version == 1


def test_a_game_rebuilt_from_its_actions_is_the_same_game(store: GameStore) -> None:
    game = Game.new(load_map("new_york"), ["Ana", "Bot"], seed=99)
    store.create_game(GameInfo("ny", "new_york", 99, [SeatInfo("Ana", "human"), SeatInfo("Bot", "bot", "random")]))
    rng = random.Random(4)
    while not game.is_over:
        aid = rng.choice(game.legal_ids())
        store.append_action("ny", len(game.history), game.current, aid)
        game.apply_id(aid)
    rebuilt = Game.new(load_map("new_york"), ["Ana", "Bot"], seed=99)
    for action in store.actions("ny"):
        assert action.seat == rebuilt.current
        rebuilt.apply_id(action.action_id)
    assert full_state(rebuilt) == full_state(game)


def test_data_survives_reopening(store_url: str) -> None:
    if store_url == "memory":
        pytest.skip("the in-memory store keeps nothing by design")
    first = open_store(store_url)
    first.create_game(info())
    first.append_action("g1", 0, 0, 42)
    first.close()
    second = open_store(store_url)
    try:
        assert second.actions("g1") == [StoredAction(0, 0, 42)]
        got = second.get_game("g1")
        assert got is not None and got.version == 1
    finally:
        second.close()


def test_reviews_kept_per_seat_and_replaced(store: GameStore) -> None:
    store.create_game(info())
    assert store.get_review("g1", 0) is None
    store.save_review("g1", 0, '{"format": "ttr-review/1", "seat": 0}')
    store.save_review("g1", 1, '{"seat": 1}')
    store.save_review("g1", 0, '{"seat": 0, "again": true}')
    assert store.get_review("g1", 0) == '{"seat": 0, "again": true}'
    assert store.get_review("g1", 1) == '{"seat": 1}'
    assert store.get_review("g2", 0) is None
    with pytest.raises(UnknownGameError):
        store.save_review("g2", 0, "{}")
