"""What the server sends about a game: views without the map, the legal list, the last action, summaries.

Every message about a game's state is built here from `SeatView.of(game, seat)` (seat None: a spectator)
only, so no message can hold more than its reader may see.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Mapping
from typing import Any

from ttr.bots.base import legal_actions
from ttr.engine import Action, FinalScore, Game, SeatView, final_score
from ttr.engine.actions import STATIC_KINDS
from ttr.server.store import GameInfo


def view_for(game: Game, seat: int | None) -> dict[str, Any]:
    """The wire form of `SeatView.of(game, seat)` (None: a spectator's) without the `map` key; once over,
    `final` is the full breakdown (`final_json`)."""
    view = SeatView.of(game, seat)
    out = view_body(view)
    out["log"] = [dict(entry) for entry in view.log]
    return out


def view_body(view: SeatView) -> dict[str, Any]:
    """The wire form of `view` without the `map` and `log` keys (the caller adds the log it sends), and
    with `final_json`'s breakdown once the game is over."""
    out = dataclasses.replace(view, log=()).to_json()
    del out["map"], out["log"]
    if view.final is not None:
        out["final"] = final_json(view.final)
    return out


def final_json(fs: FinalScore) -> dict[str, Any]:
    """The final breakdown (`fs.to_json()`) with the seats of the winners, the tie-break that decided, and
    per player the European Express path and the New York attractions reached."""
    out = fs.to_json()
    for seat, (entry, score) in enumerate(zip(out["players"], fs.players, strict=True)):
        entry["seat"] = seat
        entry["longest_path_routes"] = list(score.longest_path_routes)
        entry["attraction_cities"] = list(score.attraction_cities)
    out["winner_seats"] = list(fs.winner_seats)
    out["decided_by"] = fs.decided_by
    return out


def winner_seats(game: Game) -> list[int]:
    """The seats of the winners of a finished game."""
    return list(final_score(game).winner_seats)


def legal_json(game: Game) -> tuple[list[int], list[Action], str]:
    """The legal ids, the same as `Action`s, and the protocol's `legal` list (`[{id, text, action}]`) as
    JSON text; the entry of an id that alone fixes its action is encoded once per map."""
    ids, actions = legal_actions(game)
    known: dict[int, str] = game.map.engine_cache.setdefault("server.legal_entry_json", {})
    kinds = game.cat.kind
    parts = []
    for aid, action in zip(ids, actions, strict=True):
        text = known.get(aid)
        if text is None:
            text = json.dumps({"id": aid, "text": str(action), "action": action.to_json()})
            if kinds[aid] in STATIC_KINDS:
                known[aid] = text
        parts.append(text)
    return ids, actions, "[" + ",".join(parts) + "]"


def log_text(entry: dict[str, Any]) -> str:
    """The short text of a log entry as its reader sees it (others' blind draws read "draw deck")."""
    kind = entry.get("action")
    if kind == "keep_tickets" and "tickets" not in entry:
        count = int(entry.get("count", 0))
        return f"keep {count} ticket{'s' if count != 1 else ''}"
    if kind == "draw_card" and entry.get("from") == "deck":
        return "draw deck"
    try:
        return str(Action.from_json(entry))
    except ValueError:
        return str(kind)


def last_for(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """`{seat, text, action}` for the last action of a wire view's log, as the view's reader may see it."""
    log = view.get("log") or []
    return last_entry(log[-1]) if log else None


def last_entry(logged: Mapping[str, Any]) -> dict[str, Any]:
    """`{seat, text, action}` for one log entry (as its reader sees it)."""
    entry = dict(logged)
    seat = entry.pop("player", None)
    return {"seat": seat, "text": log_text(entry), "action": entry}


def iso_time(stamp: float) -> str:
    """A Unix time as ISO 8601 UTC (seconds)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stamp))


def seats_json(info: GameInfo, connected: set[int]) -> list[dict[str, Any]]:
    """`[{seat, name, type, level, connected}]`: never a token or its hash. Bot seats count as connected. A
    seat of a deleted account (`ttr.server.deleted_players`) also has `deleted: true`."""
    out = [
        {"seat": i, "name": s.name, "type": s.type, "level": s.level, "connected": s.type == "bot" or i in connected}
        for i, s in enumerate(info.seats)
    ]
    for i in info.extra.get("deleted_seats", ()):
        out[i]["deleted"] = True
    return out


def summary_json(info: GameInfo, connected: set[int], bots_stopped: bool = False) -> dict[str, Any]:
    """A game's summary for `/api/games`: `{id, map, status, version, created, seats, winners, when_people_leave,
    bots_stopped, seed_chosen}`: `seed_chosen` when the creator chose the seed (so knows the decks)."""
    return {
        "id": info.id, "map": info.map, "status": info.status, "version": info.version,
        "created": iso_time(info.created), "seats": seats_json(info, connected), "winners": info.winners,
        "when_people_leave": info.when_people_leave, "bots_stopped": bots_stopped,
        "seed_chosen": seed_chosen(info),
    }


def seed_chosen(info: GameInfo) -> bool:
    """Whether the game's creator chose its seed (allowed only with at most one person in the game)."""
    return bool(info.extra.get("seed_chosen", False))
