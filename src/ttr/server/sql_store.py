"""The SQL adapter of the game store: SQLAlchemy 2 Core over any database URL (SQLite, PostgreSQL, ...).

Three tables: `ttr_games` (one row per game: map, seed, seats and options as JSON, status, version,
winners), `ttr_actions` (one row per accepted action, primary key (game, version)) and `ttr_reviews` (a
finished game's review of a seat, `ttr.review`, as JSON text, primary key (game, seat)). Appending an
action is one transaction: `UPDATE ttr_games SET version = v + 1 WHERE id = ? AND version = v AND
status = 'running'`, then the insert; if no row was updated, nothing is written (`StaleVersionError`).
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from ttr.server.store import (
    FINISHED,
    RUNNING,
    GameInfo,
    SeatInfo,
    StaleVersionError,
    StoredAction,
    StoreError,
    UnknownGameError,
)

metadata = MetaData()

games = Table(
    "ttr_games", metadata,
    Column("id", String(64), primary_key=True),
    Column("map", String(200), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", Text, nullable=False),
    Column("when_people_leave", String(16), nullable=False),
    Column("bot_delay", Float, nullable=False),
    Column("created", Float, nullable=False, index=True),
    Column("status", String(16), nullable=False, index=True),
    Column("version", Integer, nullable=False),
    Column("winners", Text, nullable=True),
    Column("extra", Text, nullable=False),
)

actions = Table(
    "ttr_actions", metadata,
    Column("game_id", String(64), ForeignKey("ttr_games.id"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action_id", Integer, nullable=False),
)

reviews = Table(
    "ttr_reviews", metadata,
    Column("game_id", String(64), ForeignKey("ttr_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("review", Text, nullable=False),
)


# Statements built once (building a statement costs more than running it on SQLite).
_ADVANCE = (
    update(games)
    .where(games.c.id == bindparam("gid"), games.c.version == bindparam("v"), games.c.status == RUNNING)
    .values(version=bindparam("next_v"))
)
_APPEND = insert(actions)
_ACTIONS = (
    select(actions.c.version, actions.c.seat, actions.c.action_id)
    .where(actions.c.game_id == bindparam("gid")).order_by(actions.c.version)
)


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
        self.engine: Engine = create_engine(url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    # ------------------------------------------------------------------ games

    def create_game(self, info: GameInfo) -> None:
        """Store a new game at version 0; `StoreError` if the id is taken."""
        row = {
            "id": info.id, "map": info.map, "seed": info.seed,
            "seats": json.dumps([s.to_json() for s in info.seats]),
            "when_people_leave": info.when_people_leave, "bot_delay": info.bot_delay, "created": info.created,
            "status": RUNNING, "version": 0, "winners": None, "extra": json.dumps(info.extra),
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

    def append_action(self, game_id: str, version: int, seat: int, action_id: int) -> None:
        """Store the action applied at `version` (compare-and-set on the game's version)."""
        try:
            with self.engine.begin() as conn:
                done = conn.execute(_ADVANCE, {"gid": game_id, "v": version, "next_v": version + 1})
                if done.rowcount != 1:
                    raise self._why_not(conn, game_id, version)
                conn.execute(_APPEND, {"game_id": game_id, "version": version, "seat": seat, "action_id": action_id})
        except IntegrityError:  # a concurrent writer inserted this version first
            raise StaleVersionError(f"game {game_id} has an action at version {version} already") from None

    def _why_not(self, conn: Any, game_id: str, version: int) -> StoreError:
        row = conn.execute(select(games.c.version, games.c.status).where(games.c.id == game_id)).first()
        if row is None:
            return UnknownGameError(f"no game {game_id!r}")
        if row.status != RUNNING:
            return StaleVersionError(f"game {game_id} is over")
        return StaleVersionError(f"game {game_id} is at version {row.version}, not {version}")

    def actions(self, game_id: str) -> list[StoredAction]:
        """Every stored action of the game, in order."""
        with self.engine.connect() as conn:
            found = conn.execute(select(games.c.id).where(games.c.id == game_id)).first()
            if found is None:
                raise UnknownGameError(f"no game {game_id!r}")
            rows = conn.execute(_ACTIONS, {"gid": game_id}).all()
        return [StoredAction(r.version, r.seat, r.action_id) for r in rows]

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
        """Close the connection pool."""
        self.engine.dispose()


def _info(row: Any) -> GameInfo:
    return GameInfo(
        id=row["id"], map=row["map"], seed=int(row["seed"]),
        seats=[SeatInfo.from_json(s) for s in json.loads(row["seats"])],
        when_people_leave=row["when_people_leave"], bot_delay=float(row["bot_delay"]), created=float(row["created"]),
        status=row["status"], version=int(row["version"]),
        winners=json.loads(row["winners"]) if row["winners"] is not None else None,
        extra=json.loads(row["extra"]),
    )
