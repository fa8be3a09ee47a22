"""The server's tables, in one SQLAlchemy `MetaData` that the migrations (`ttr.server.migrations`) read.

- `ttr_games`: one row per game (map, seed, seats and options as JSON, status, version, winners), with
  `creator` (a digest of the creating client's address, for the per-client cap on running games) and
  `updated` (Unix time of the last action, or of the creation: games idle too long are abandoned).
- `ttr_actions`: one row per accepted action, primary key (game, version).
- `ttr_reviews`: a finished game's review of a seat (`ttr.review`), primary key (game, seat).
- `ttr_leases`: which server runs a game's bots and timers (owner id, expiry as Unix time), when several
  servers share one database.

The tables of playing people online (accounts, sessions, ratings, chat...) are in `ttr.server.online_tables`,
on this `MetaData`. A new table or column goes in one of the two and gets a migration in `migrations/versions/`.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table, Text

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
    Column("creator", String(64), nullable=True),
    Column("updated", Float, nullable=True),
    Index("ix_ttr_games_creator_status", "creator", "status"),
    Index("ix_ttr_games_status_updated", "status", "updated"),
)

actions = Table(
    "ttr_actions", metadata,
    Column("game_id", String(64), ForeignKey("ttr_games.id"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action_id", Integer, nullable=False),
)

reviews = Table(
    "ttr_reviews", metadata,  # a finished game's review of one seat (`ttr.review`), as JSON text
    Column("game_id", String(64), ForeignKey("ttr_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("review", Text, nullable=False),
)

leases = Table(
    "ttr_leases", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("owner", String(64), nullable=False, index=True),
    Column("expires", Float, nullable=False),
)
