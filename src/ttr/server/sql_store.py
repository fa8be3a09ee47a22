"""The SQL adapter of the game store: SQLAlchemy 2 Core over any database URL (SQLite, PostgreSQL, ...).

The tables are those of `ttr.server.schema`, brought up to date by the migrations when the store opens:
`ttr_games` (one row per game: map, seed, seats and options as JSON, status, version, winners, creator,
last activity), `ttr_actions` (one row per accepted action, primary key (game, version)) and `ttr_reviews`
(a finished game's review of a seat, `ttr.review`, as JSON text, primary key (game, seat)). Appending an
action is one transaction: `UPDATE ttr_games SET version = v + 1 WHERE id = ? AND version = v AND
status = 'running'`, then the insert; if no row was updated, nothing is written (`StaleVersionError`).
On PostgreSQL the two and the NOTIFY to the other servers are one statement (`_PG_APPEND`), run in
autocommit: one round trip to the database per accepted action, atomic as any single statement is. The
server itself sends that statement (and reads newer actions) from its event loop through `aio`
(`ttr.server.pg_async`, psycopg's async connections); `append_action` is the same append for other callers.
On SQLite the two statements go straight to the driver on one connection the store keeps for appends
(`_SQLITE_ADVANCE`, `_SQLITE_APPEND`): the same transaction without SQLAlchemy's per-statement work, which
cost more than SQLite's own.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from typing import Any

from sqlalchemy import bindparam, create_engine, delete, event, func, insert, or_, select, text, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from ttr.server.migrate import upgrade
from ttr.server.pg_async import AsyncPostgres
from ttr.server.schema import actions, games, leases, metadata, reviews
from ttr.server.store import (
    ABANDONED,
    FINISHED,
    RUNNING,
    GameInfo,
    SeatInfo,
    StaleVersionError,
    StoredAction,
    StoreError,
    UnknownGameError,
)

# Statements built once (building a statement costs more than running it on SQLite).
_ADVANCE = (
    update(games)
    .where(games.c.id == bindparam("gid"), games.c.version == bindparam("v"), games.c.status == RUNNING)
    .values(version=bindparam("next_v"), updated=bindparam("now"))
)
_ADVANCE_AND_FINISH = _ADVANCE.values(status=FINISHED, winners=bindparam("winners"))
_APPEND = insert(actions)
_NOTIFY = text("SELECT pg_notify('ttr', :payload)")
# PostgreSQL: advance the version, insert the action and NOTIFY, as one statement (one round trip, its own
# transaction): a data-modifying CTE, where the insert and the notification happen only if the version moved.
_PG_APPEND_SQL = """
WITH advanced AS (
    UPDATE ttr_games SET version = :next_v, updated = :now{finish}
    WHERE id = :gid AND version = :v AND status = 'running' RETURNING id
), inserted AS (
    INSERT INTO ttr_actions (game_id, version, seat, action_id)
    SELECT id, :v, :seat, :action_id FROM advanced RETURNING game_id
)
SELECT pg_notify('ttr', :payload) FROM inserted
"""
_PG_APPEND = text(_PG_APPEND_SQL.format(finish=""))
_PG_APPEND_AND_FINISH = text(_PG_APPEND_SQL.format(finish=", status = 'finished', winners = :winners"))
_SQLITE_ADVANCE = ("UPDATE ttr_games SET version = ?, updated = ? WHERE id = ? AND version = ? AND status = 'running'")
_SQLITE_ADVANCE_AND_FINISH = ("UPDATE ttr_games SET version = ?, updated = ?, status = 'finished', winners = ? "
                              "WHERE id = ? AND version = ? AND status = 'running'")
_SQLITE_APPEND = "INSERT INTO ttr_actions (game_id, version, seat, action_id) VALUES (?, ?, ?, ?)"
_ACTIONS = (
    select(actions.c.version, actions.c.seat, actions.c.action_id)
    .where(actions.c.game_id == bindparam("gid"), actions.c.version >= bindparam("since")).order_by(actions.c.version)
)


POOL_SIZE = 16  # connections kept open to a networked database (the server calls it from as many threads)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class SqlStore:
    """The game store in a SQL database; the tables are created if missing."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.inline_ok = self.is_sqlite  # a local file: the server may call it on its event loop
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 10}
        else:  # a connection for each of the server's database threads, kept open
            kwargs["pool_size"], kwargs["max_overflow"] = POOL_SIZE, 8
        self.engine: Engine = create_engine(url, **kwargs)
        self.dialect = self.engine.dialect.name
        self.notifies = self.dialect == "postgresql"  # each append NOTIFYs the other servers (ttr.server.cluster)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")  # one statement each
        upgrade(self.engine)
        # PostgreSQL: the action path's calls (append, newer actions, NOTIFY, LISTEN) on the event loop
        self.aio: AsyncPostgres | None = AsyncPostgres(self.libpq_url()) if self.dialect == "postgresql" else None
        self._appender: Any = None  # SQLite: the driver connection kept for appends (opened on first use)
        self._append_lock = threading.Lock()

    # ------------------------------------------------------------------ games

    def create_game(self, info: GameInfo) -> None:
        """Store a new game at version 0; `StoreError` if the id is taken."""
        row = {
            "id": info.id, "map": info.map, "seed": info.seed,
            "seats": json.dumps([s.to_json() for s in info.seats]),
            "when_people_leave": info.when_people_leave, "bot_delay": info.bot_delay, "created": info.created,
            "status": RUNNING, "version": 0, "winners": None, "extra": json.dumps(info.extra),
            "creator": info.creator, "updated": info.created,
        }
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(games).values(**row))
        except IntegrityError:
            raise StoreError(f"a game with id {info.id!r} exists already") from None

    def get_game(self, game_id: str) -> GameInfo | None:
        """The game's info, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
        return _info(row) if row is not None else None

    def list_games(self, limit: int = 50, status: str | None = None) -> list[GameInfo]:
        """Up to `limit` games (all with `limit` <= 0), newest first, optionally of one status."""
        query = select(games).order_by(games.c.created.desc(), games.c.id.desc())
        if status is not None:
            query = query.where(games.c.status == status)
        if limit > 0:
            query = query.limit(limit)
        with self.engine.connect() as conn:
            return [_info(row) for row in conn.execute(query).mappings()]

    # ------------------------------------------------------------------ actions

    def append_action(self, game_id: str, version: int, seat: int, action_id: int,
                      winners: list[int] | None = None) -> None:
        """Store the action applied at `version` (compare-and-set on the game's version); with `winners`, the
        game's end (status and winners) in the same transaction."""
        if self.dialect == "postgresql":
            self._append_pg(game_id, version, seat, action_id, winners)
            return
        if self.dialect == "sqlite":
            self._append_sqlite(game_id, version, seat, action_id, winners)
            return
        try:
            with self.engine.begin() as conn:
                values = {"gid": game_id, "v": version, "next_v": version + 1, "now": time.time()}
                if winners is None:
                    done = conn.execute(_ADVANCE, values)
                else:
                    done = conn.execute(_ADVANCE_AND_FINISH, {**values, "winners": json.dumps(list(winners))})
                if done.rowcount != 1:
                    raise self._why_not(conn, game_id, version)
                conn.execute(_APPEND, {"game_id": game_id, "version": version, "seat": seat, "action_id": action_id})
                if self.notifies:  # delivered at the commit, to every server listening
                    conn.execute(_NOTIFY, {"payload": f"a|{game_id}|{version + 1}|{seat}|{action_id}"})
        except IntegrityError:  # a concurrent writer inserted this version first
            raise StaleVersionError(f"game {game_id} has an action at version {version} already") from None

    def _append_pg(self, game_id: str, version: int, seat: int, action_id: int, winners: list[int] | None) -> None:
        values: dict[str, Any] = {"gid": game_id, "v": version, "next_v": version + 1, "now": time.time(),
                                  "seat": seat, "action_id": action_id,
                                  "payload": f"a|{game_id}|{version + 1}|{seat}|{action_id}"}
        statement = _PG_APPEND
        if winners is not None:
            statement, values["winners"] = _PG_APPEND_AND_FINISH, json.dumps(list(winners))
        try:
            with self._autocommit.connect() as conn:
                stored = conn.execute(statement, values).first() is not None
                if not stored:
                    raise self._why_not(conn, game_id, version)
        except IntegrityError:  # a concurrent writer inserted this version first
            raise StaleVersionError(f"game {game_id} has an action at version {version} already") from None

    def _append_sqlite(self, game_id: str, version: int, seat: int, action_id: int,
                       winners: list[int] | None) -> None:
        with self._append_lock:
            if self._appender is None:
                self._appender = self.engine.raw_connection()  # with the store's pragmas (WAL, busy timeout)
            db = self._appender
            cursor = db.cursor()
            try:
                if winners is None:
                    cursor.execute(_SQLITE_ADVANCE, (version + 1, time.time(), game_id, version))
                else:
                    cursor.execute(_SQLITE_ADVANCE_AND_FINISH,
                                   (version + 1, time.time(), json.dumps(list(winners)), game_id, version))
                if cursor.rowcount != 1:
                    db.rollback()
                    with self.engine.connect() as conn:
                        raise self._why_not(conn, game_id, version)
                cursor.execute(_SQLITE_APPEND, (game_id, version, seat, action_id))
                db.commit()
            except sqlite3.IntegrityError:  # a concurrent writer inserted this version first
                db.rollback()
                raise StaleVersionError(f"game {game_id} has an action at version {version} already") from None
            except BaseException:
                db.rollback()
                raise
            finally:
                cursor.close()

    def _why_not(self, conn: Any, game_id: str, version: int) -> StoreError:
        row = conn.execute(select(games.c.version, games.c.status).where(games.c.id == game_id)).first()
        if row is None:
            return UnknownGameError(f"no game {game_id!r}")
        if row.status != RUNNING:
            return StaleVersionError(f"game {game_id} is over")
        return StaleVersionError(f"game {game_id} is at version {row.version}, not {version}")

    def actions(self, game_id: str, since: int = 0) -> list[StoredAction]:
        """The stored actions of the game from version `since` on, in order."""
        with self.engine.connect() as conn:
            found = conn.execute(select(games.c.id).where(games.c.id == game_id)).first()
            if found is None:
                raise UnknownGameError(f"no game {game_id!r}")
            rows = conn.execute(_ACTIONS, {"gid": game_id, "since": since}).all()
        return [StoredAction(r.version, r.seat, r.action_id) for r in rows]

    def set_seats(self, game_id: str, seats: list[SeatInfo], extra: dict[str, Any]) -> None:
        """Replace a game's seats and extra options."""
        with self.engine.begin() as conn:
            conn.execute(update(games).where(games.c.id == game_id).values(
                seats=json.dumps([s.to_json() for s in seats]), extra=json.dumps(extra)))

    def finish(self, game_id: str, version: int, winners: list[int]) -> None:
        """Mark the game finished at `version`."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.version == version, games.c.status == RUNNING)
                .values(status=FINISHED, winners=json.dumps(list(winners)))
            )
            if done.rowcount != 1:
                raise self._why_not(conn, game_id, version)

    def running_by(self, creator: str) -> int:
        """How many running games `creator` made."""
        query = select(func.count()).select_from(games).where(games.c.creator == creator, games.c.status == RUNNING)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def count_by_status(self) -> dict[str, int]:
        """How many games there are of each status."""
        query = select(games.c.status, func.count()).group_by(games.c.status)
        with self.engine.connect() as conn:
            return {str(status): int(n) for status, n in conn.execute(query).all()}

    def abandon_idle(self, unstarted_before: float, idle_before: float) -> list[str]:
        """Mark abandoned the running games never started (no action) with no activity since
        `unstarted_before`, and those with no action since `idle_before`; their ids."""
        stale = (games.c.status == RUNNING) & or_(
            (games.c.version == 0) & (games.c.updated < unstarted_before), games.c.updated < idle_before)
        with self.engine.begin() as conn:
            ids = [row.id for row in conn.execute(select(games.c.id).where(stale))]
            if ids:
                conn.execute(update(games).where(games.c.id.in_(ids), games.c.status == RUNNING)
                             .values(status=ABANDONED))
                conn.execute(delete(leases).where(leases.c.game_id.in_(ids)))
        return ids

    def ping(self) -> None:
        """Raise if the database does not answer."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def notify(self, payload: str) -> None:
        """NOTIFY the servers sharing this PostgreSQL database (`ttr.server.cluster`)."""
        with self._autocommit.connect() as conn:
            conn.execute(_NOTIFY, {"payload": payload})

    def libpq_url(self) -> str:
        """The database URL as libpq (psycopg) takes it, for the notification listener."""
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def save_review(self, game_id: str, seat: int, review: str) -> None:
        """Keep a seat's review, replacing an older one (one transaction)."""
        with self.engine.begin() as conn:
            if conn.execute(select(games.c.id).where(games.c.id == game_id)).first() is None:
                raise UnknownGameError(f"no game {game_id!r}")
            conn.execute(delete(reviews).where(reviews.c.game_id == game_id, reviews.c.seat == seat))
            conn.execute(insert(reviews).values(game_id=game_id, seat=seat, review=review))

    def get_review(self, game_id: str, seat: int) -> str | None:
        """A seat's stored review, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(reviews.c.review).where(reviews.c.game_id == game_id,
                                                              reviews.c.seat == seat)).first()
        return str(row.review) if row is not None else None

    def close(self) -> None:
        """Close the connection pool (and the appends' connection)."""
        with self._append_lock:
            if self._appender is not None:
                self._appender.close()
                self._appender = None
        self.engine.dispose()


def _info(row: Any) -> GameInfo:
    return GameInfo(
        id=row["id"], map=row["map"], seed=int(row["seed"]),
        seats=[SeatInfo.from_json(s) for s in json.loads(row["seats"])],
        when_people_leave=row["when_people_leave"], bot_delay=float(row["bot_delay"]), created=float(row["created"]),
        status=row["status"], version=int(row["version"]),
        winners=json.loads(row["winners"]) if row["winners"] is not None else None,
        extra=json.loads(row["extra"]), creator=row["creator"],
        updated=float(row["updated"]) if row["updated"] is not None else float(row["created"]),
    )


__all__ = ["SqlStore", "actions", "games", "leases", "metadata", "reviews"]
