"""The tables of playing people online: accounts, sessions, the seats accounts hold, results, ratings, chat;
and the state several servers on one database share (`ttr.server.shared_state`): each game's clock, the
quick-play queues and their matches, the open tables and their seats.

They sit on the same `MetaData` as the game store's tables (`ttr.server.schema.metadata`); migrations 0003
and 0005 (`ttr.server.migrations`) add them. None refers to `ttr_games` by a foreign key: a game id is a plain column,
so the in-memory game store can pair with an in-memory SQLite database for these tables.
"""

from __future__ import annotations

from sqlalchemy import Column, Float, ForeignKey, Index, Integer, String, Table, Text, UniqueConstraint

from ttr.server.schema import metadata

accounts = Table(
    "ttr_accounts", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(24), nullable=False),  # as the player wrote it (kept on a deleted account's games)
    Column("name_key", String(96), nullable=True, unique=True),  # NFKC + casefold; NULL once deleted
    Column("password_hash", Text, nullable=True),  # argon2id; NULL once deleted
    Column("created", Float, nullable=False),
    Column("deleted", Float, nullable=True),  # when the account was deleted (its games stay)
)

sessions = Table(
    "ttr_sessions", metadata,
    Column("token_hash", String(64), primary_key=True),  # SHA-256 of the session cookie
    Column("account_id", String(32), ForeignKey("ttr_accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("csrf", String(64), nullable=False),  # the token every state-changing request sends in a header
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False, index=True),
)

seat_accounts = Table(
    "ttr_seat_accounts", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(32), ForeignKey("ttr_accounts.id"), nullable=False, index=True),
    Column("claimed", Float, nullable=False),
)

results = Table(
    "ttr_results", metadata,  # one row per account seat of a finished game (profiles, histories)
    Column("game_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(32), ForeignKey("ttr_accounts.id"), nullable=False, index=True),
    Column("map", String(200), nullable=False),
    Column("seats", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("tickets_done", Integer, nullable=False),
    Column("tickets_failed", Integer, nullable=False),
    Column("won", Integer, nullable=False),  # 1 or 0
    Column("place", Integer, nullable=False),  # 1 = first (winners share it)
    Column("rated", Integer, nullable=False),  # 1 if the game changed ratings
    Column("mu_before", Float, nullable=True),
    Column("mu_after", Float, nullable=True),
    Column("finished", Float, nullable=False),
)

ratings = Table(
    "ttr_ratings", metadata,  # an account's openskill rating per map and table size
    Column("account_id", String(32), ForeignKey("ttr_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("map", String(200), primary_key=True),
    Column("seats", Integer, primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_ttr_ratings_board", "map", "seats", "mu"),
)

chat = Table(
    "ttr_chat", metadata,  # a game's messages, kept with it and shown in its replay
    Column("game_id", String(64), primary_key=True),
    Column("n", Integer, primary_key=True),  # 0, 1, ... per game
    Column("channel", String(16), nullable=False),  # "seats" or "spectators"
    Column("seat", Integer, nullable=True),  # None: a spectator
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("version", Integer, nullable=False),  # the game's version when it was said (placed in the replay)
    Column("created", Float, nullable=False),
)

clocks = Table(
    "ttr_clocks", metadata,  # a game's clock and who made its seats' moves, as JSON (`ttr.server.clocks`)
    Column("game_id", String(64), primary_key=True),
    Column("state", Text, nullable=False),
    Column("updated", Float, nullable=False),
)

queue = Table(
    "ttr_queue", metadata,  # a player waiting in a quick-play queue (`ttr.server.matchmaking`)
    Column("account_id", String(32), ForeignKey("ttr_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("name", String(24), nullable=False),
    Column("queue", String(32), nullable=False),
    Column("mu", Float, nullable=False),
    Column("since", Float, nullable=False),
    Column("wait", Float, nullable=False),  # seconds after which the player may fill the table with bots
    Column("held_by", String(64), nullable=True),  # the server seating this player now (until `held_until`)
    Column("held_until", Float, nullable=True),
    Index("ix_ttr_queue_queue_since", "queue", "since"),
)

matches = Table(
    "ttr_matches", metadata,  # the game a queue made for a player, until they queue again
    Column("account_id", String(32), ForeignKey("ttr_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("match", Text, nullable=False),  # JSON: {game, seat, map, queue, players, bots}
    Column("created", Float, nullable=False),
)

open_tables = Table(
    "ttr_open_tables", metadata,  # a table open for anyone (`ttr.server.open_games`)
    Column("id", String(16), primary_key=True),
    Column("map", String(200), nullable=False),
    Column("seats", Integer, nullable=False),
    Column("clock", Text, nullable=True),  # JSON, as `ttr.server.clocks.parse_clock` returns it
    Column("created", Float, nullable=False, index=True),
    Column("game_id", String(64), nullable=True),  # the game made once every seat was taken
    Column("starting_by", String(64), nullable=True),  # the server making that game (until `starting_until`)
    Column("starting_until", Float, nullable=True),
)

open_seats = Table(
    "ttr_open_seats", metadata,  # a seat taken at an open table, held by a secret ticket (its SHA-256 here)
    Column("ticket_hash", String(64), primary_key=True),
    Column("table_id", String(16), ForeignKey("ttr_open_tables.id", ondelete="CASCADE"), nullable=False),
    Column("n", Integer, nullable=False),  # 0, 1, ... in the order the seats were taken
    Column("name", String(64), nullable=False),
    Column("name_key", String(96), nullable=False),
    Column("account_id", String(32), nullable=True),
    Column("seat", Integer, nullable=True),  # the seat of the game, once made
    Column("token_hash", String(64), nullable=False),  # SHA-256 of the seat token the ticket gives (`seat_token`)
    UniqueConstraint("table_id", "n", name="uq_ttr_open_seats_n"),
    UniqueConstraint("table_id", "name_key", name="uq_ttr_open_seats_name"),
    UniqueConstraint("table_id", "account_id", name="uq_ttr_open_seats_account"),
)

SHARED_TABLES = (clocks, queue, matches, open_tables, open_seats)
ONLINE_TABLES = (accounts, sessions, seat_accounts, results, ratings, chat, *SHARED_TABLES)
