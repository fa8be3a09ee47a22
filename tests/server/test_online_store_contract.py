"""The online store's contract (accounts, sessions, seat owners, results, ratings, chat) on every database:
in memory (SQLite in memory, beside the in-memory game store), a SQLite file and a throwaway PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ttr.server.online_store import NameTakenError, OnlineStore
from ttr.server.stores import open_store


@pytest.fixture
def online(store_url: str) -> Iterator[OnlineStore]:
    games = open_store(store_url)
    store = OnlineStore.beside(games)
    try:
        yield store
    finally:
        store.close()
        games.close()


def test_accounts_are_unique_by_name_key(online: OnlineStore) -> None:
    ana = online.create_account("a1", "Ana", "ana", "hash-a", 1.0)
    with pytest.raises(NameTakenError):
        online.create_account("a2", "ANA", "ana", "hash-b", 2.0)
    record = online.login_record("ana")
    assert record is not None and record[0] == ana and record[1] == "hash-a"
    assert online.login_record("bob") is None
    online.set_password("a1", "hash-c")
    assert online.password_hash("a1") == "hash-c"


def test_sessions_expire_and_log_out(online: OnlineStore) -> None:
    online.create_account("a1", "Ana", "ana", "h", 1.0)
    online.create_session("s1", "a1", "csrf-1", 10.0, 100.0)
    online.create_session("s2", "a1", "csrf-2", 10.0, 100.0)
    live = online.session("s1", 50.0)
    assert live is not None and live.account.name == "Ana" and live.csrf == "csrf-1"
    assert online.session("s1", 100.0) is None  # expired: removed
    assert online.session("s1", 50.0) is None
    online.delete_other_sessions("a1", keep="s3")
    assert online.session("s2", 50.0) is None


def test_seats_claims_and_deletion(online: OnlineStore) -> None:
    online.create_account("a1", "Ana", "ana", "h", 1.0)
    online.create_account("b1", "Ben", "ben", "h", 1.0)
    assert online.claim_seat("g1", 0, "a1", 5.0) and online.claim_seat("g2", 1, "a1", 6.0)
    assert online.claim_seat("g1", 0, "a1", 7.0)  # already hers
    assert not online.claim_seat("g1", 0, "b1", 8.0)  # another account's
    assert online.seat_owner("g1", 0) == "a1" and online.seat_owner("g1", 1) is None
    assert online.account_seats("a1") == [("g2", 1), ("g1", 0)]
    online.create_session("s1", "a1", "c", 1.0, 100.0)
    online.delete_account("a1", 9.0)
    assert online.session("s1", 2.0) is None and online.login_record("ana") is None
    kept = online.game_accounts("g1")[0]
    assert kept.name == "Ana" and kept.deleted == 9.0  # the game still shows a (deleted) player
    online.create_account("a3", "ana", "ana", "h", 10.0)  # the name is free again


def result_row(game: str, seat: int, account: str, score: int, won: int, finished: float = 3.0) -> dict[str, object]:
    return {"game_id": game, "seat": seat, "account_id": account, "map": "new_york", "seats": 2, "score": score,
            "tickets_done": 2, "tickets_failed": 1, "won": won, "place": 1 if won else 2, "rated": 1,
            "mu_before": 25.0, "mu_after": 27.0 if won else 23.0, "finished": finished}


def test_results_and_ratings_are_stored_once(online: OnlineStore) -> None:
    online.create_account("a1", "Ana", "ana", "h", 1.0)
    online.create_account("b1", "Ben", "ben", "h", 1.0)
    rows = [result_row("g1", 0, "a1", 40, 1), result_row("g1", 1, "b1", 30, 0)]
    assert online.save_results(rows, {"a1": (27.0, 7.0), "b1": (23.0, 7.0)}, "new_york", 2, 3.0)
    assert not online.save_results(rows, {"a1": (99.0, 1.0)}, "new_york", 2, 4.0)  # the same game again
    assert online.rating("a1", "new_york", 2) == (27.0, 7.0, 1)
    assert online.save_results([result_row("g2", 0, "a1", 50, 1, 5.0)], {"a1": (28.0, 6.0)}, "new_york", 2, 5.0)
    assert online.rating("a1", "new_york", 2) == (28.0, 6.0, 2)
    assert [r["name"] for r in online.leaderboard("new_york", 2, 10)] == ["Ana", "Ben"]
    assert online.leaderboard("europe", 2, 10) == []
    assert online.totals("a1") == {"games": 2, "won": 2, "tickets_done": 4, "mean_score": 45.0}
    assert [r["game_id"] for r in online.account_results("a1")] == ["g2", "g1"]  # newest first
    assert online.account_ratings("b1") == [{"map": "new_york", "seats": 2, "mu": 23.0, "sigma": 7.0, "games": 1}]


def test_chat_is_numbered_per_game_by_channel(online: OnlineStore) -> None:
    assert online.add_chat("g1", "seats", 0, "Ana", "hello", 3, 1.0) == 0
    assert online.add_chat("g1", "spectators", None, "watcher", "hi all", 4, 2.0) == 1
    assert online.add_chat("g2", "seats", 1, "Ben", "other game", 0, 3.0) == 0
    assert [m["text"] for m in online.chat("g1", ("seats",))] == ["hello"]
    both = online.chat("g1", ("seats", "spectators"))
    assert [(m["n"], m["seat"], m["version"]) for m in both] == [(0, 0, 3), (1, None, 4)]
