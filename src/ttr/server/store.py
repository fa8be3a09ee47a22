"""The game store: an append-only action log per game, behind one small port with two adapters.

`GameStore` is the port the server uses; `MemoryStore` (here) keeps everything in a dict and
`SqlStore` (`ttr.server.sql_store`) in any SQLAlchemy database. Both pass the same contract tests
(tests/server/test_store_contract.py). A game is stored as what makes it: the map, the seed, the seats
and options, then one row per accepted action (seat, catalogue id), numbered by the version it was
applied at. Appending is compare-and-set on that version: of two writers at the same version one wins,
the other gets `StaleVersionError`. The game itself is rebuilt by replaying (`Game.new` + `apply_id`).
A finished game may also have a review per seat (`ttr.review`), kept as JSON text.
"""

from __future__ import annotations

import copy
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

RUNNING = "running"
FINISHED = "finished"
ABANDONED = "abandoned"  # running with no action for too long (ServerConfig.idle_expiry, unstarted_expiry)


class StoreError(Exception):
    """A store operation could not be done (unknown game, duplicate id, wrong version)."""


class UnknownGameError(StoreError):
    """No game has this id."""


class StaleVersionError(StoreError):
    """The game is not at the version the writer expected (someone else wrote first), or it is over."""


@dataclass(slots=True)
class SeatInfo:
    """One seat: who plays it. `token_hash` is the SHA-256 of a human seat's token (never the token)."""

    name: str
    type: str  # "human" or "bot"
    level: str | None = None  # the bot name for bot seats
    token_hash: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The stored form (with the token hash: never send this to a client)."""
        return {"name": self.name, "type": self.type, "level": self.level, "token_hash": self.token_hash}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatInfo:
        """Read the stored form."""
        return cls(str(data["name"]), str(data["type"]), data.get("level"), data.get("token_hash"))


@dataclass(slots=True)
class GameInfo:
    """What the store keeps about a game besides its actions."""

    id: str
    map: str
    seed: int
    seats: list[SeatInfo]
    when_people_leave: str = "finish"  # "finish" (bots finish it) or "wait"
    bot_delay: float = 0.0  # seconds a bot waits before it moves, so people can follow
    created: float = 0.0  # Unix time
    status: str = RUNNING
    version: int = 0  # the number of actions stored
    winners: list[int] | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # room for later options, stored as JSON
    creator: str | None = None  # a digest of the creating client's address (the per-client cap on running games)
    updated: float = 0.0  # Unix time of the last action (of the creation before the first)


@dataclass(frozen=True, slots=True)
class StoredAction:
    """One accepted action: applied at `version` (0 = the first action) by `seat`, catalogue id `action_id`."""

    version: int
    seat: int
    action_id: int


class GameStore(Protocol):
    """The repository port. Every method is synchronous (the server calls it from a worker thread)."""

    def create_game(self, info: GameInfo) -> None:
        """Store a new game at version 0; `StoreError` if the id is taken."""
        ...

    def get_game(self, game_id: str) -> GameInfo | None:
        """The game's info, or None."""
        ...

    def list_games(self, limit: int = 50, status: str | None = None) -> list[GameInfo]:
        """Up to `limit` games, newest first (all of them with `limit` <= 0), optionally of one status."""
        ...

    def append_action(self, game_id: str, version: int, seat: int, action_id: int,
                      winners: list[int] | None = None) -> None:
        """Store the action applied at `version`; the game's version becomes `version + 1`. With `winners`
        (the action ends the game) the game is marked finished with them in the same transaction, so a
        server stopped at any moment leaves either both or neither.

        `StaleVersionError` (and nothing stored) if the game is not at `version` or not running;
        `UnknownGameError` if there is no such game.
        """
        ...

    def actions(self, game_id: str, since: int = 0) -> list[StoredAction]:
        """The stored actions of the game from version `since` on (all by default), in order;
        `UnknownGameError` if there is no such game."""
        ...

    def running_by(self, creator: str) -> int:
        """How many running games `creator` made."""
        ...

    def count_by_status(self) -> dict[str, int]:
        """How many games there are of each status (`running`, `finished`, `abandoned`)."""
        ...

    def abandon_idle(self, unstarted_before: float, idle_before: float) -> list[str]:
        """Mark `abandoned` the running games with no action whose last activity (their creation) is before
        `unstarted_before`, and every running game whose last action is before `idle_before`; their ids."""
        ...

    def finish(self, game_id: str, version: int, winners: list[int]) -> None:
        """Mark the game finished at `version` with its winners (`StaleVersionError` if not at it)."""
        ...

    def ping(self) -> None:
        """Raise if the store cannot be reached."""
        ...

    def set_seats(self, game_id: str, seats: list[SeatInfo], extra: dict[str, Any]) -> None:
        """Replace a game's seats and extra options (a deleted account's seats renamed); nothing if unknown."""
        ...

    def save_review(self, game_id: str, seat: int, review: str) -> None:
        """Keep the review (a `ttr-review/1` document as JSON text) of a seat of a finished game, replacing an
        older one; `UnknownGameError` if there is no such game."""
        ...

    def get_review(self, game_id: str, seat: int) -> str | None:
        """The stored review of the seat, or None."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...


class MemoryStore:
    """The in-memory adapter: for tests and `--db memory` (nothing survives the process)."""

    inline_ok = True  # fast enough to call on the event loop

    def __init__(self) -> None:
        self._games: dict[str, GameInfo] = {}
        self._actions: dict[str, list[StoredAction]] = {}
        self._reviews: dict[tuple[str, int], str] = {}
        self._lock = threading.Lock()

    def create_game(self, info: GameInfo) -> None:
        """Store a new game at version 0."""
        with self._lock:
            if info.id in self._games:
                raise StoreError(f"a game with id {info.id!r} exists already")
            stored = copy.deepcopy(info)
            stored.version, stored.status, stored.winners, stored.updated = 0, RUNNING, None, info.created
            self._games[info.id] = stored
            self._actions[info.id] = []

    def get_game(self, game_id: str) -> GameInfo | None:
        """The game's info, or None."""
        with self._lock:
            info = self._games.get(game_id)
            return copy.deepcopy(info) if info is not None else None

    def set_seats(self, game_id: str, seats: list[SeatInfo], extra: dict[str, Any]) -> None:
        """Replace a game's seats and extra options."""
        with self._lock:
            info = self._games.get(game_id)
            if info is not None:
                info.seats, info.extra = copy.deepcopy(seats), copy.deepcopy(extra)

    def list_games(self, limit: int = 50, status: str | None = None) -> list[GameInfo]:
        """Up to `limit` games, newest first."""
        with self._lock:
            games = [g for g in self._games.values() if status is None or g.status == status]
            games.sort(key=lambda g: (g.created, g.id), reverse=True)
            return [copy.deepcopy(g) for g in (games[:limit] if limit > 0 else games)]

    def append_action(self, game_id: str, version: int, seat: int, action_id: int,
                      winners: list[int] | None = None) -> None:
        """Store the action applied at `version` (compare-and-set); with `winners`, the game's end too."""
        with self._lock:
            info = self._games.get(game_id)
            if info is None:
                raise UnknownGameError(f"no game {game_id!r}")
            if info.status != RUNNING:
                raise StaleVersionError(f"game {game_id} is over")
            if info.version != version:
                raise StaleVersionError(f"game {game_id} is at version {info.version}, not {version}")
            self._actions[game_id].append(StoredAction(version, seat, action_id))
            info.version = version + 1
            info.updated = time.time()
            if winners is not None:
                info.status, info.winners = FINISHED, list(winners)

    def actions(self, game_id: str, since: int = 0) -> list[StoredAction]:
        """The stored actions from version `since` on, in order."""
        with self._lock:
            if game_id not in self._actions:
                raise UnknownGameError(f"no game {game_id!r}")
            return list(self._actions[game_id][since:])

    def running_by(self, creator: str) -> int:
        """How many running games `creator` made."""
        with self._lock:
            return sum(1 for g in self._games.values() if g.creator == creator and g.status == RUNNING)

    def count_by_status(self) -> dict[str, int]:
        """How many games there are of each status."""
        with self._lock:
            counts: dict[str, int] = {}
            for g in self._games.values():
                counts[g.status] = counts.get(g.status, 0) + 1
            return counts

    def abandon_idle(self, unstarted_before: float, idle_before: float) -> list[str]:
        """Mark abandoned the running games idle too long; their ids."""
        with self._lock:
            ids = [g.id for g in self._games.values() if g.status == RUNNING and (
                g.updated < idle_before or (g.version == 0 and g.updated < unstarted_before))]
            for game_id in ids:
                self._games[game_id].status = ABANDONED
            return ids

    def finish(self, game_id: str, version: int, winners: list[int]) -> None:
        """Mark the game finished."""
        with self._lock:
            info = self._games.get(game_id)
            if info is None:
                raise UnknownGameError(f"no game {game_id!r}")
            if info.version != version or info.status != RUNNING:
                raise StaleVersionError(f"game {game_id} is at version {info.version} ({info.status}), not {version}")
            info.status, info.winners = FINISHED, list(winners)

    def ping(self) -> None:
        """Always reachable."""

    def save_review(self, game_id: str, seat: int, review: str) -> None:
        """Keep a seat's review."""
        with self._lock:
            if game_id not in self._games:
                raise UnknownGameError(f"no game {game_id!r}")
            self._reviews[(game_id, seat)] = review

    def get_review(self, game_id: str, seat: int) -> str | None:
        """A seat's stored review, or None."""
        with self._lock:
            return self._reviews.get((game_id, seat))

    def close(self) -> None:
        """Nothing to release."""
