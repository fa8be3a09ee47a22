"""The online state that several `ttr serve` on one database share, kept in it (`ttr.server.online_tables`):
each game's clock, the quick-play queues and the games they made, the open tables and their seats.

A queue's players are seated by one server at a time: the rows it picks are locked while it reads them
(`SELECT ... FOR UPDATE SKIP LOCKED` on PostgreSQL: another server skips them) and held for it (`held_by`,
`held_until`) while it makes the game; a server that dies meanwhile lets the hold lapse and the players
are seated again. Taking the last seat of an open table locks the table's row, so of two servers taking
seats at once one fills the table and makes the game. Every method is synchronous, like the game store's.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from ttr.server.online_tables import clocks, matches, open_seats, open_tables, queue


class TableRefusal(Exception):
    """A seat at an open table cannot be taken or given back: `code` and a message naming why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Queued:
    """A player waiting in a quick-play queue."""

    account_id: str
    name: str
    queue: str
    mu: float
    since: float
    wait: float
    held: bool = False  # a server is seating this player now


def secret_hash(secret: str) -> str:
    """The stored form of a ticket (SHA-256)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def seat_token(ticket: str) -> str:
    """The seat token of a game made at an open table for the holder of `ticket`: worked out from the ticket
    (HMAC-SHA256), so the database keeps neither (only the ticket's hash and the token's, as for every seat)."""
    digest = hmac.new(ticket.encode("utf-8", "surrogatepass"), b"ttr-open-table-seat", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


class SharedState:
    """Clocks, queues and open tables in the online store's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ clocks

    def clock(self, game_id: str) -> dict[str, Any] | None:
        """A game's stored clock state, or None."""
        with self.engine.connect() as conn:
            text = conn.execute(select(clocks.c.state).where(clocks.c.game_id == game_id)).scalar()
        return json.loads(text) if text is not None else None

    def save_clock(self, game_id: str, state: dict[str, Any], when: float) -> None:
        """Store a game's clock state (replacing the one stored)."""
        text = json.dumps(state)
        with self.engine.begin() as conn:
            done = conn.execute(update(clocks).where(clocks.c.game_id == game_id).values(state=text, updated=when))
            if done.rowcount == 0:
                try:
                    with conn.begin_nested():
                        conn.execute(insert(clocks).values(game_id=game_id, state=text, updated=when))
                except IntegrityError:  # stored meanwhile by a server that owned the game a moment ago
                    conn.execute(update(clocks).where(clocks.c.game_id == game_id).values(state=text, updated=when))

    # ------------------------------------------------------------------ quick-play queues

    def enqueue(self, entry: Queued) -> bool:
        """Put a player in a queue (the game a queue made for them before is forgotten); False if they wait
        in a queue already (nothing changed)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(queue).values(account_id=entry.account_id, name=entry.name, queue=entry.queue,
                                                  mu=entry.mu, since=entry.since, wait=entry.wait))
                conn.execute(delete(matches).where(matches.c.account_id == entry.account_id))
        except IntegrityError:
            return False
        return True

    def queued(self, account_id: str) -> Queued | None:
        """Where the player waits, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(queue).where(queue.c.account_id == account_id)).first()
        return _queued(row, 0.0) if row is not None else None

    def queue_size(self, name: str) -> int:
        """How many players wait in a queue."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(queue).where(queue.c.queue == name)).scalar_one())

    def waiting_count(self) -> int:
        """How many players wait in every queue together."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(queue)).scalar_one())

    def dequeue(self, account_id: str, now: float) -> bool | None:
        """Take a player out of their queue: True; None if they wait in none; False if a server is seating
        them right now (they stay)."""
        with self.engine.begin() as conn:
            done = conn.execute(delete(queue).where(
                queue.c.account_id == account_id, or_(queue.c.held_until.is_(None), queue.c.held_until < now)))
            if done.rowcount:
                return True
            found = conn.execute(select(queue.c.account_id).where(queue.c.account_id == account_id)).first()
        return False if found is not None else None

    def hold_tables(self, now: float, server: str, hold: float,
                    pick: Callable[[list[Queued]], list[list[Queued]]]) -> list[list[Queued]]:
        """The games to make now: `pick` chooses them from the players nobody else is seating (read under a
        row lock another server skips); their rows are held for `server` for `hold` seconds."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(queue).where(or_(queue.c.held_until.is_(None), queue.c.held_until < now))
                                .order_by(queue.c.since).with_for_update(skip_locked=True)).all()
            if not rows:
                return []
            tables = pick([_queued(r, now) for r in rows])
            ids = [p.account_id for table in tables for p in table]
            if ids:
                conn.execute(update(queue).where(queue.c.account_id.in_(ids))
                             .values(held_by=server, held_until=now + hold))
        return tables

    def record_match(self, account_ids: Sequence[str], found: Sequence[dict[str, Any]], server: str | None,
                     when: float) -> None:
        """The game made for these players: their queue rows go (those held by `server`, or any with None),
        each gets their match."""
        with self.engine.begin() as conn:
            where: list[Any] = [queue.c.account_id.in_(list(account_ids))]
            if server is not None:
                where.append(queue.c.held_by == server)
            conn.execute(delete(queue).where(*where))
            conn.execute(delete(matches).where(matches.c.account_id.in_(list(account_ids))))
            conn.execute(insert(matches), [{"account_id": a, "match": json.dumps(m), "created": when}
                                           for a, m in zip(account_ids, found, strict=True)])

    def match(self, account_id: str) -> dict[str, Any] | None:
        """The game a queue made for the player, or None."""
        with self.engine.connect() as conn:
            text = conn.execute(select(matches.c.match).where(matches.c.account_id == account_id)).scalar()
        return json.loads(text) if text is not None else None

    # ------------------------------------------------------------------ open tables

    def open_count(self) -> int:
        """How many tables wait for players."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(open_tables)
                                    .where(open_tables.c.game_id.is_(None))).scalar_one())

    def open_table(self, table: dict[str, Any], ticket_hash: str, token_hash: str, name: str, name_key: str,
                   account_id: str | None) -> None:
        """A new table, its first seat taken."""
        with self.engine.begin() as conn:
            clock = json.dumps(table["clock"]) if table["clock"] is not None else None
            conn.execute(insert(open_tables).values({**table, "clock": clock}))
            conn.execute(insert(open_seats).values(ticket_hash=ticket_hash, table_id=table["id"], n=0, name=name,
                                                   name_key=name_key, account_id=account_id, token_hash=token_hash))

    def listing(self, limit: int) -> list[dict[str, Any]]:
        """The tables with a free seat, newest first, with their players' names."""
        with self.engine.connect() as conn:
            tables = conn.execute(select(open_tables).where(open_tables.c.game_id.is_(None),
                                                            open_tables.c.starting_by.is_(None))
                                  .order_by(open_tables.c.created.desc()).limit(limit)).all()
            ids = [t.id for t in tables]
            takers = conn.execute(select(open_seats.c.table_id, open_seats.c.name)
                                  .where(open_seats.c.table_id.in_(ids)).order_by(open_seats.c.n)).all() if ids else []
        names: dict[str, list[str]] = {}
        for row in takers:
            names.setdefault(row.table_id, []).append(row.name)
        return [{**_table(t), "players": names.get(t.id, [])} for t in tables]

    def take_seat(self, table_id: str, ticket_hash: str, token_hash: str, name: str, name_key: str,
                  account_id: str | None, now: float, server: str, hold: float) -> bool:
        """Take a free seat at a table (its row locked meanwhile); True when it was the last: the table is then
        held for `server` to make its game. `TableRefusal` otherwise, nothing changed."""
        with self.engine.begin() as conn:
            table = conn.execute(select(open_tables).where(open_tables.c.id == table_id).with_for_update()).first()
            if table is None:
                raise TableRefusal("not_found", f"no open table {table_id[:40]!r}")
            taken = conn.execute(select(open_seats).where(open_seats.c.table_id == table_id)).all()
            if table.game_id is not None or table.starting_by is not None or len(taken) >= table.seats:
                raise TableRefusal("table_full", "every seat at this table is taken")
            if account_id is not None and any(t.account_id == account_id for t in taken):
                raise TableRefusal("already_seated", "you have a seat at this table already")
            if any(t.name_key == name_key for t in taken):
                raise TableRefusal("name_taken", f"someone at this table is named {name!r} already")
            conn.execute(insert(open_seats).values(ticket_hash=ticket_hash, table_id=table_id, n=len(taken), name=name,
                                                   name_key=name_key, account_id=account_id, token_hash=token_hash))
            full = len(taken) + 1 == int(table.seats)
            if full:
                conn.execute(update(open_tables).where(open_tables.c.id == table_id)
                             .values(starting_by=server, starting_until=now + hold))
        return full

    def hold_start(self, table_id: str, now: float, server: str, hold: float) -> bool:
        """Take over making the game of a full table whose maker's hold lapsed (it died); whether this server
        now holds it."""
        with self.engine.begin() as conn:
            done = conn.execute(update(open_tables).where(
                open_tables.c.id == table_id, open_tables.c.game_id.is_(None), open_tables.c.starting_by.is_not(None),
                open_tables.c.starting_until < now).values(starting_by=server, starting_until=now + hold))
        return done.rowcount == 1

    def table(self, table_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """A table and its seats in order (with their ticket hashes: for the server only), or None."""
        with self.engine.connect() as conn:
            table = conn.execute(select(open_tables).where(open_tables.c.id == table_id)).first()
            if table is None:
                return None
            seats = conn.execute(select(open_seats).where(open_seats.c.table_id == table_id)
                                 .order_by(open_seats.c.n)).mappings().all()
        return _table(table), [dict(s) for s in seats]

    def table_of(self, ticket_hash: str) -> str | None:
        """The table where a ticket holds a seat, or None."""
        with self.engine.connect() as conn:
            value = conn.execute(select(open_seats.c.table_id).where(open_seats.c.ticket_hash == ticket_hash)).scalar()
        return str(value) if value is not None else None

    def table_started(self, table_id: str, game_id: str, seats: dict[str, int]) -> None:
        """The table's game is made: each ticket's seat of it."""
        with self.engine.begin() as conn:
            for ticket_hash, seat in seats.items():
                conn.execute(update(open_seats).where(open_seats.c.ticket_hash == ticket_hash).values(seat=seat))
            conn.execute(update(open_tables).where(open_tables.c.id == table_id)
                         .values(game_id=game_id, starting_by=None, starting_until=None))

    def leave_table(self, ticket_hash: str) -> None:
        """Give a seat back before the game is made (an empty table goes); `TableRefusal` otherwise."""
        with self.engine.begin() as conn:
            table_id = conn.execute(select(open_seats.c.table_id)
                                    .where(open_seats.c.ticket_hash == ticket_hash)).scalar()
            if table_id is None:
                raise TableRefusal("not_found", "no seat at an open table has that ticket")
            table = conn.execute(select(open_tables).where(open_tables.c.id == table_id).with_for_update()).one()
            if table.game_id is not None or table.starting_by is not None:
                raise TableRefusal("started", "the game has started: play it from your seat")
            conn.execute(delete(open_seats).where(open_seats.c.ticket_hash == ticket_hash))
            left = conn.execute(select(open_seats.c.n).where(open_seats.c.table_id == table_id)
                                .order_by(open_seats.c.n)).scalars().all()
            if not left:
                conn.execute(delete(open_tables).where(open_tables.c.id == table_id))
            else:  # keep the seats numbered 0, 1, ... in the order they were taken
                for i, n in enumerate(left):
                    if i != n:
                        conn.execute(update(open_seats).where(open_seats.c.table_id == table_id, open_seats.c.n == n)
                                     .values(n=i))

    def expire_tables(self, before: float) -> int:
        """Drop the tables opened before `before` (never filled, or filled long ago); how many."""
        with self.engine.begin() as conn:
            old = conn.execute(select(open_tables.c.id).where(open_tables.c.created < before)).scalars().all()
            if not old:
                return 0
            conn.execute(delete(open_seats).where(open_seats.c.table_id.in_(old)))
            conn.execute(delete(open_tables).where(open_tables.c.id.in_(old)))
        return len(old)


def _queued(row: Any, now: float) -> Queued:
    held = row.held_until is not None and row.held_until >= now
    return Queued(str(row.account_id), str(row.name), str(row.queue), float(row.mu), float(row.since),
                  float(row.wait), held)


def _table(row: Any) -> dict[str, Any]:
    return {"id": row.id, "map": row.map, "seats": int(row.seats),
            "clock": json.loads(row.clock) if row.clock is not None else None, "created": float(row.created),
            "game": row.game_id, "starting_by": row.starting_by, "starting_until": row.starting_until}


