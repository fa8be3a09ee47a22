"""Game reviews on the server: made in the bot pool's review lane, one decision at a time, with progress, one
at a time per client, and kept with the game once made (docs/web-protocol.md, docs/review.md).

`POST /api/games/{id}/review/{seat}` starts the review of a seat of a finished game (or joins the one under
way, or answers at once with the stored one); `GET` the same path says how far it is, or gives it. A review
is made with the map's default budget (`ttr.review.default_playouts`), so it is the one `ttr review` makes of
the game's record.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request

from ttr.records import read_record, write_record
from ttr.review import assemble, decision_seed, decisions, default_playouts
from ttr.server.config import ApiError
from ttr.server.rooms import GameManager
from ttr.server.store import FINISHED

log = logging.getLogger("ttr.server")


@dataclass
class ReviewJob:
    """A review being made: how many decisions are rated of how many, who asked, and how it ended."""

    game_id: str
    seat: int
    total: int = 0
    done: int = 0
    clients: set[str] = field(default_factory=set)
    error: str | None = None
    task: asyncio.Task[None] | None = None

    def progress(self) -> dict[str, Any]:
        """The answer while it runs: `{status, done, total}` (or `failed` and why)."""
        if self.error is not None:
            return {"status": "failed", "message": self.error, "seat": self.seat}
        return {"status": "running", "done": self.done, "total": self.total, "seat": self.seat}


class Reviews:
    """The reviews being made and the rule of one at a time per client."""

    def __init__(self, manager: GameManager, playouts: int | None = None) -> None:
        """The reviews of `manager`'s games, `playouts` per decision (None: the map's default)."""
        self.manager = manager
        self.playouts = playouts
        self.jobs: dict[tuple[str, int], ReviewJob] = {}
        self.by_client: dict[str, tuple[str, int]] = {}  # a client's review under way

    async def _finished_game(self, game_id: str, seat_text: str) -> tuple[Any, int]:
        room = await self.manager.room(game_id)
        if room is None:
            raise ApiError(404, "not_found", f"no game {game_id[:40]!r}")
        if room.info.status != FINISHED:
            raise ApiError(409, "not_finished", "the game is still running: reviews are for finished games")
        n = len(room.info.seats)
        if not (seat_text.isascii() and seat_text.isdecimal() and len(seat_text) <= 2 and int(seat_text) < n):
            raise ApiError(400, "malformed", f"'seat' must be a seat number from 0 to {n - 1}")
        return room, int(seat_text)

    async def stored(self, game_id: str, seat: int) -> dict[str, Any] | None:
        """The stored review of the seat, or None."""
        text = await self.manager.db(self.manager.store.get_review, game_id, seat)
        return json.loads(text) if text is not None else None

    async def status(self, game_id: str, seat_text: str) -> dict[str, Any]:
        """The review of the seat if made, else how far it is, else `{"status": "none"}`."""
        _room, seat = await self._finished_game(game_id, seat_text)
        job = self.jobs.get((game_id, seat))
        if job is not None:
            return job.progress()
        review = await self.stored(game_id, seat)
        if review is not None:
            return {"status": "done", "seat": seat, "review": review}
        return {"status": "none", "seat": seat}

    async def start(self, game_id: str, seat_text: str, client: str) -> dict[str, Any]:
        """Start the review of the seat for `client` (the stored one at once when made; the one under way when
        another client started it); 429 when this client has another review under way."""
        room, seat = await self._finished_game(game_id, seat_text)
        key = (game_id, seat)
        job = self.jobs.get(key)
        if job is None or job.error is not None:
            review = await self.stored(game_id, seat)
            if review is not None:
                return {"status": "done", "seat": seat, "review": review}
        mine = self.by_client.get(client)
        if mine is not None and mine != key and mine in self.jobs and self.jobs[mine].error is None:
            raise ApiError(429, "busy", "a review you asked for is still being made: one at a time "
                           f"(game {mine[0]}, seat {mine[1]})")
        if job is None or job.error is not None:
            job = ReviewJob(game_id, seat)
            self.jobs[key] = job
            record = read_record(write_record(room.game))
            job.task = asyncio.get_running_loop().create_task(self._make(job, record))
        job.clients.add(client)
        self.by_client[client] = key
        return job.progress()

    async def _make(self, job: ReviewJob, record: Any) -> None:
        """Rate the seat's decisions one by one in the review lane, then store the review."""
        try:
            made, game = decisions(record, job.seat)
            job.total = len(made)
            playouts = self.playouts or default_playouts(record.map)
            name = record.map.origin or record.map.name
            ratings = []
            for d in made:
                ratings.append(await self.manager.pool.review_move(
                    name, job.seat, decision_seed(record.seed, d.index), playouts, d.view, d.legal, d.played))
                job.done += 1
            review = assemble(record, job.seat, playouts, made, ratings, game)
            await self.manager.db(self.manager.store.save_review, job.game_id, job.seat, json.dumps(review))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("review of game %s seat %d failed", job.game_id, job.seat)
            job.error = "the review could not be made"
            return
        finally:
            for client in job.clients:
                if self.by_client.get(client) == (job.game_id, job.seat):
                    del self.by_client[client]
        del self.jobs[(job.game_id, job.seat)]

    async def stop(self) -> None:
        """Cancel the reviews under way (the server is stopping)."""
        tasks = [j.task for j in self.jobs.values() if j.task is not None and not j.task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task


def client_of(request: Request) -> str:
    """Who asks, for the one-review-at-a-time rule: the client's address."""
    return request.client.host if request.client else "unknown"


def add_review_routes(app: FastAPI, reviews: Reviews) -> None:
    """The review paths of the API (before the catch-all of unknown API paths)."""

    @app.get("/api/games/{game_id}/review/{seat}")
    async def get_review(game_id: str, seat: str) -> dict[str, Any]:
        return await reviews.status(game_id, seat)

    @app.post("/api/games/{game_id}/review/{seat}")
    async def post_review(game_id: str, seat: str, request: Request) -> dict[str, Any]:
        return await reviews.start(game_id, seat, client_of(request))
