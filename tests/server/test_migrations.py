"""Schema migrations (Alembic, `ttr.server.migrations`): a database made by the first SQL store (its two
tables, no migration record) is upgraded in place when a store opens it, its games kept; a new database
gets the whole schema; on PostgreSQL too."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.migrate import current, head
from ttr.server.schema import metadata
from ttr.server.sql_store import SqlStore

from .kit import server_config
from .postgres import Postgres, drop_tables

# The tables exactly as the store made them before the migrations (metadata.create_all of that schema).
OLD_DDL = [
    """CREATE TABLE ttr_games (
        id VARCHAR(64) NOT NULL, map VARCHAR(200) NOT NULL, seed BIGINT NOT NULL, seats TEXT NOT NULL,
        when_people_leave VARCHAR(16) NOT NULL, bot_delay FLOAT NOT NULL, created FLOAT NOT NULL,
        status VARCHAR(16) NOT NULL, version INTEGER NOT NULL, winners TEXT, extra TEXT NOT NULL,
        PRIMARY KEY (id))""",
    "CREATE INDEX ix_ttr_games_created ON ttr_games (created)",
    "CREATE INDEX ix_ttr_games_status ON ttr_games (status)",
    """CREATE TABLE ttr_actions (
        game_id VARCHAR(64) NOT NULL, version INTEGER NOT NULL, seat INTEGER NOT NULL, action_id INTEGER NOT NULL,
        PRIMARY KEY (game_id, version), FOREIGN KEY(game_id) REFERENCES ttr_games (id))""",
]
NOW = float(int(time.time()))
SEATS = json.dumps([{"name": "Ana", "type": "human", "level": None, "token_hash": "ab" * 32},
                    {"name": "Bot", "type": "bot", "level": "random", "token_hash": None}])


def make_old_database(url: str) -> None:
    """Today's tables and one running game with its first action (keep a ticket choice), as the old store
    left them."""
    engine = create_engine(url)
    with engine.begin() as conn:
        for statement in OLD_DDL:
            conn.execute(text(statement))
        conn.execute(text("INSERT INTO ttr_games VALUES ('old1', 'europe', 7, :seats, 'wait', 0.0, :now, "
                          "'running', 0, NULL, '{}')"), {"seats": SEATS, "now": NOW})
    engine.dispose()


def check_upgraded(url: str) -> None:
    store = SqlStore(url)
    try:
        assert current(store.engine) == head()
        tables = set(inspect(store.engine).get_table_names())
        assert {"ttr_games", "ttr_actions", "ttr_leases", "alembic_version"} <= tables
        columns = {c["name"] for c in inspect(store.engine).get_columns("ttr_games")}
        assert {"creator", "updated"} <= columns
        info = store.get_game("old1")
        assert info is not None and info.status == "running" and info.seats[0].name == "Ana"
        assert info.updated == NOW  # filled from `created`
    finally:
        store.close()
    app = create_app(server_config(db=url), store=SqlStore(url), pool=BotPool(1, "thread"))
    with TestClient(app) as client:  # the old game plays on
        with client.websocket_connect("/ws/old1") as ws:
            ws.send_json({"type": "join"})
            snap = ws.receive_json()
            assert snap["type"] == "snapshot" and snap["version"] == 0 and snap["status"] == "running"
        made = client.post("/api/games", json={"map": "europe", "seats": [{"type": "human"}, {"type": "bot"}]})
        assert made.status_code == 201
        assert {"old1", made.json()["id"]} <= {g["id"] for g in client.get("/api/games").json()}


def test_todays_sqlite_database_is_upgraded_in_place(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    make_old_database(url)
    check_upgraded(url)
    check_upgraded(url)  # opening it again changes nothing


def test_a_new_database_gets_the_whole_schema(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    SqlStore(url).close()
    engine = create_engine(url)
    try:
        assert current(engine) == head()
        assert set(inspect(engine).get_table_names()) == set(metadata.tables) | {"alembic_version"}
    finally:
        engine.dispose()


@pytest.fixture
def pg_url(postgres_server: Postgres) -> Iterator[str]:
    yield postgres_server.url
    drop_tables(postgres_server.url)


def test_todays_postgres_database_is_upgraded_in_place(pg_url: str) -> None:
    make_old_database(pg_url)
    check_upgraded(pg_url)


def make_0004_database(url: str) -> None:
    """The schema of the previous release (migration 0004: games, online tables, reviews), with an account, a
    running game and a quick phrase in its chat, as that release left them."""
    from alembic import command

    from ttr.server.migrate import alembic_config

    engine = create_engine(url)
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0004")
        conn.execute(text("INSERT INTO ttr_games (id, map, seed, seats, when_people_leave, bot_delay, created, "
                          "status, version, winners, extra, creator, updated) VALUES ('old1', 'europe', 7, :seats, "
                          "'wait', 0.0, :now, 'running', 0, NULL, '{}', NULL, :now)"), {"seats": SEATS, "now": NOW})
        conn.execute(text("INSERT INTO ttr_accounts VALUES ('acc1', 'Ana', 'ana', 'hash', :now, NULL)"), {"now": NOW})
    engine.dispose()


def check_0005(url: str) -> None:
    store = SqlStore(url)
    try:
        assert current(store.engine) == head()
        tables = set(inspect(store.engine).get_table_names())
        assert {"ttr_clocks", "ttr_queue", "ttr_matches", "ttr_open_tables", "ttr_open_seats"} <= tables
        from ttr.server.online_store import OnlineStore
        from ttr.server.shared_state import Queued

        online = OnlineStore(store.engine)
        account = online.account("acc1")
        assert account is not None and account.name == "Ana"
        assert online.shared.enqueue(Queued("acc1", "Ana", "europe-2", 25.0, NOW, 60.0))  # the new tables work
        assert online.shared.queued("acc1") == Queued("acc1", "Ana", "europe-2", 25.0, NOW, 60.0)
        online.shared.save_clock("old1", {"mode": None}, NOW)
        assert online.shared.clock("old1") == {"mode": None}
        info = store.get_game("old1")
        assert info is not None and info.status == "running"
    finally:
        store.close()


def test_the_previous_releases_sqlite_database_gets_the_shared_online_tables(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r0004.sqlite3'}"
    make_0004_database(url)
    check_0005(url)


def test_the_previous_releases_postgres_database_gets_the_shared_online_tables(pg_url: str) -> None:
    make_0004_database(pg_url)
    check_0005(pg_url)
