"""The store of playing people online (accounts, sessions, seat owners, results, ratings, chat): SQLAlchemy
Core over the tables of `ttr.server.online_tables`.

It shares the game store's database when that is SQL (`SqlStore.engine`); beside the in-memory game store it
keeps its tables in an in-memory SQLite database, so there is one adapter and one set of contract tests.
Every method is synchronous, like the game store's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import create_engine, delete, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

from ttr.server.online_tables import (
    ONLINE_TABLES,
    accounts,
    chat,
    matches,
    queue,
    ratings,
    results,
    seat_accounts,
    sessions,
)
from ttr.server.shared_state import SharedState
from ttr.server.sql_store import metadata


class NameTakenError(Exception):
    """Another account has this name (case aside)."""


@dataclass(frozen=True, slots=True)
class Account:
    """An account as the server uses it (never with its password hash outside the store)."""

    id: str
    name: str
    created: float
    deleted: float | None = None


@dataclass(frozen=True, slots=True)
class Session:
    """A logged-in browser: its account, its CSRF token and when it expires."""

    account: Account
    csrf: str
    expires: float


def _account(row: Any) -> Account:
    return Account(row.id, row.name, float(row.created), row.deleted)


class OnlineStore:
    """Accounts, sessions, seat owners, results, ratings and chat in one SQL database."""

    def __init__(self, engine: Engine | None = None) -> None:
        if engine is None:  # beside the in-memory game store: one in-memory SQLite database for every thread
            engine = create_engine("sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool)
            self.owns_engine = True
        else:
            self.owns_engine = False
        self.engine = engine
        metadata.create_all(engine, tables=list(ONLINE_TABLES))
        self.shared = SharedState(engine)  # clocks, queues, open tables

    @classmethod
    def beside(cls, game_store: object) -> OnlineStore:
        """The online store in the game store's database (a `SqlStore`), else in memory."""
        engine = getattr(game_store, "engine", None)
        return cls(engine if isinstance(engine, Engine) else None)

    def close(self) -> None:
        """Release the connections this store opened itself."""
        if self.owns_engine:
            self.engine.dispose()

    # ------------------------------------------------------------------ accounts

    def create_account(self, account_id: str, name: str, name_key: str, password_hash: str, created: float) -> Account:
        """A new account; `NameTakenError` if the name (case aside) is taken."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(accounts).values(id=account_id, name=name, name_key=name_key,
                                                     password_hash=password_hash, created=created, deleted=None))
        except IntegrityError:
            raise NameTakenError(name) from None
        return Account(account_id, name, created)

    def login_record(self, name_key: str) -> tuple[Account, str] | None:
        """The live account of a name (case aside) and its password hash, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.name_key == name_key)).first()
        if row is None or row.password_hash is None:
            return None
        return _account(row), str(row.password_hash)

    def password_hash(self, account_id: str) -> str | None:
        """The account's password hash (None once deleted)."""
        with self.engine.connect() as conn:
            value = conn.execute(select(accounts.c.password_hash).where(accounts.c.id == account_id)).scalar()
        return str(value) if value is not None else None

    def account(self, account_id: str) -> Account | None:
        """An account by id (deleted ones too)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
        return _account(row) if row is not None else None

    def account_by_name(self, name_key: str) -> Account | None:
        """A live account by its name key."""
        record = self.login_record(name_key)
        return record[0] if record is not None else None

    def set_password(self, account_id: str, password_hash: str) -> None:
        """Replace the account's password hash."""
        with self.engine.begin() as conn:
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(password_hash=password_hash))

    def delete_account(self, account_id: str, when: float) -> None:
        """Delete an account: its name is free again, its sessions and ratings go, its finished games stay
        (their seats then show a deleted player)."""
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            conn.execute(delete(ratings).where(ratings.c.account_id == account_id))
            conn.execute(delete(queue).where(queue.c.account_id == account_id))
            conn.execute(delete(matches).where(matches.c.account_id == account_id))
            conn.execute(update(accounts).where(accounts.c.id == account_id)
                         .values(name_key=None, password_hash=None, deleted=when))

    # ------------------------------------------------------------------ sessions

    def create_session(self, token_hash: str, account_id: str, csrf: str, created: float, expires: float) -> None:
        """Store a new session."""
        with self.engine.begin() as conn:
            conn.execute(insert(sessions).values(token_hash=token_hash, account_id=account_id, csrf=csrf,
                                                 created=created, expires=expires))

    def session(self, token_hash: str, now: float) -> Session | None:
        """The live session of a cookie (an expired one is removed), or None."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(sessions.c.csrf, sessions.c.expires, accounts)
                .join(accounts, accounts.c.id == sessions.c.account_id)
                .where(sessions.c.token_hash == token_hash)).first()
        if row is None:
            return None
        if row.expires <= now or row.deleted is not None:
            self.delete_session(token_hash)
            return None
        return Session(_account(row), str(row.csrf), float(row.expires))

    def delete_session(self, token_hash: str) -> None:
        """Log a session out."""
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash))

    def delete_other_sessions(self, account_id: str, keep: str) -> None:
        """Log out every other session of the account (after a password change)."""
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id, sessions.c.token_hash != keep))

    # ------------------------------------------------------------------ seats

    def claim_seat(self, game_id: str, seat: int, account_id: str, when: float) -> bool:
        """Give the seat to the account; False (and nothing changed) if another account holds it."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(seat_accounts).values(game_id=game_id, seat=seat, account_id=account_id,
                                                          claimed=when))
            return True
        except IntegrityError:
            return self.seat_owner(game_id, seat) == account_id

    def seat_owner(self, game_id: str, seat: int) -> str | None:
        """The account holding the seat, or None."""
        with self.engine.connect() as conn:
            value = conn.execute(select(seat_accounts.c.account_id).where(
                seat_accounts.c.game_id == game_id, seat_accounts.c.seat == seat)).scalar()
        return str(value) if value is not None else None

    def game_accounts(self, game_id: str) -> dict[int, Account]:
        """The accounts holding seats of a game, by seat."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(seat_accounts.c.seat, accounts)
                                .join(accounts, accounts.c.id == seat_accounts.c.account_id)
                                .where(seat_accounts.c.game_id == game_id)).all()
        return {int(r.seat): _account(r) for r in rows}

    def account_seats(self, account_id: str, limit: int = 200) -> list[tuple[str, int]]:
        """The (game, seat) pairs the account holds, most recently claimed first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(seat_accounts.c.game_id, seat_accounts.c.seat)
                                .where(seat_accounts.c.account_id == account_id)
                                .order_by(seat_accounts.c.claimed.desc()).limit(limit)).all()
        return [(str(r.game_id), int(r.seat)) for r in rows]

    # ------------------------------------------------------------------ results and ratings

    def rating(self, account_id: str, map_name: str, seats: int) -> tuple[float, float, int] | None:
        """(mu, sigma, games) of the account on that map and table size, or None (never rated)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
                ratings.c.account_id == account_id, ratings.c.map == map_name, ratings.c.seats == seats)).first()
        return (float(row.mu), float(row.sigma), int(row.games)) if row is not None else None

    def save_results(self, rows: list[dict[str, Any]], new_ratings: dict[str, tuple[float, float]],
                     map_name: str, seats: int, when: float) -> bool:
        """Store a finished game's result rows and its players' new ratings in one transaction; False (and
        nothing changed) if the game's results are stored already."""
        try:
            with self.engine.begin() as conn:
                if rows:
                    conn.execute(insert(results), rows)
                for account_id, (mu, sigma) in new_ratings.items():
                    done = conn.execute(update(ratings).where(
                        ratings.c.account_id == account_id, ratings.c.map == map_name, ratings.c.seats == seats)
                        .values(mu=mu, sigma=sigma, games=ratings.c.games + 1, updated=when))
                    if done.rowcount == 0:
                        conn.execute(insert(ratings).values(account_id=account_id, map=map_name, seats=seats, mu=mu,
                                                            sigma=sigma, games=1, updated=when))
        except IntegrityError:
            return False
        return True

    def account_ratings(self, account_id: str) -> list[dict[str, Any]]:
        """Every rating of the account: [{map, seats, mu, sigma, games}]."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings).where(ratings.c.account_id == account_id)
                                .order_by(ratings.c.map, ratings.c.seats)).all()
        return [{"map": r.map, "seats": int(r.seats), "mu": float(r.mu), "sigma": float(r.sigma),
                 "games": int(r.games)} for r in rows]

    def leaderboard(self, map_name: str, seats: int, limit: int) -> list[dict[str, Any]]:
        """The best live accounts on a map and table size, by conservative rating (mu - 3 sigma)."""
        score = (ratings.c.mu - 3 * ratings.c.sigma).label("ordinal")
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(accounts.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.games, score)
                .join(accounts, accounts.c.id == ratings.c.account_id)
                .where(ratings.c.map == map_name, ratings.c.seats == seats, accounts.c.deleted.is_(None))
                .order_by(score.desc(), accounts.c.name_key).limit(limit)).all()
        return [{"name": r.name, "mu": float(r.mu), "sigma": float(r.sigma), "games": int(r.games)} for r in rows]

    def account_results(self, account_id: str, limit: int = 200) -> list[dict[str, Any]]:
        """The account's finished games, newest first: its result rows."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(results).where(results.c.account_id == account_id)
                                .order_by(results.c.finished.desc()).limit(limit)).mappings().all()
        return [dict(r) for r in rows]

    def totals(self, account_id: str) -> dict[str, Any]:
        """Games played and won, tickets completed, mean score (all finished games of the account)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(func.count(), func.coalesce(func.sum(results.c.won), 0),
                                      func.coalesce(func.sum(results.c.tickets_done), 0), func.avg(results.c.score))
                               .where(results.c.account_id == account_id)).one()
        return {"games": int(row[0]), "won": int(row[1]), "tickets_done": int(row[2]),
                "mean_score": round(float(row[3]), 1) if row[3] is not None else None}

    # ------------------------------------------------------------------ chat

    def add_chat(self, game_id: str, channel: str, seat: int | None, name: str, text: str, version: int,
                 created: float) -> int:
        """Keep a message with its game; its number in the game (0, 1, ...)."""
        for _attempt in range(5):
            try:
                with self.engine.begin() as conn:
                    n = conn.execute(select(func.coalesce(func.max(chat.c.n) + 1, 0))
                                     .where(chat.c.game_id == game_id)).scalar_one()
                    conn.execute(insert(chat).values(game_id=game_id, n=n, channel=channel, seat=seat, name=name,
                                                     text=text, version=version, created=created))
                return int(n)
            except IntegrityError:  # another writer took that number
                continue
        raise RuntimeError(f"cannot number a chat message of game {game_id}")

    def chat_message(self, game_id: str, n: int) -> dict[str, Any] | None:
        """One message of a game by its number, or None."""
        with self.engine.connect() as conn:
            r = conn.execute(select(chat).where(chat.c.game_id == game_id, chat.c.n == n)).mappings().first()
        if r is None:
            return None
        return {"n": int(r["n"]), "channel": r["channel"], "seat": r["seat"], "name": r["name"], "text": r["text"],
                "version": int(r["version"]), "time": float(r["created"])}

    def rename_chat(self, game_id: str, seat: int, name: str) -> None:
        """Give a seat's messages in a game another name (its account was deleted)."""
        with self.engine.begin() as conn:
            conn.execute(update(chat).where(chat.c.game_id == game_id, chat.c.seat == seat).values(name=name))

    def chat(self, game_id: str, channels: tuple[str, ...]) -> list[dict[str, Any]]:
        """A game's messages on the given channels, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(chat).where(chat.c.game_id == game_id, chat.c.channel.in_(channels))
                                .order_by(chat.c.n)).mappings().all()
        return [{"n": int(r["n"]), "channel": r["channel"], "seat": r["seat"], "name": r["name"], "text": r["text"],
                 "version": int(r["version"]), "time": float(r["created"])} for r in rows]
