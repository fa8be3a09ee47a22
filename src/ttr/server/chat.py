"""Chat per game, over the game socket (docs/web-protocol.md, "Chat"): the seats talk on the `seats`
channel, spectators read it and talk on their own (`spectators`), which the seats do not see. A message is
at most 300 characters of text (never markup: the page shows it as text), or a quick phrase by its key, which
each reader sees in their own language. Messages are rate-limited per writer, kept with the game, and
shown in its replay (`GET /api/games/{id}/chat`, finished games only).
"""

from __future__ import annotations

import json
import time
import weakref
from typing import Any

from fastapi import APIRouter

from ttr.server.config import ApiError
from ttr.server.connection import Connection
from ttr.server.online import Online
from ttr.server.protocol import ProtocolError
from ttr.server.store import FINISHED

MAX_CHAT = 300
PHRASES = ("good_game", "your_turn", "thanks", "hello", "good_luck")  # keys `chat.phrase.{key}` of the page
SEATS, SPECTATORS = "seats", "spectators"


NOTICE = "chat"  # the kind of the notice other servers get of a new message
MARK = "\x01"  # begins the server's own lines (quick phrases, timeouts)
MARKS = ("\x00", MARK)


class ChatHistory:
    """The messages of the games this server has shown, read from the store once per game and kept up to
    date by the messages kept here and the other servers' notices, so that a socket joining reads nothing.
    A game whose messages may have changed unseen (a notice while nobody here watched it, a rename, the
    game dropped from memory) is read again at its next join."""

    def __init__(self) -> None:
        self.games: dict[str, list[dict[str, Any]]] = {}
        self._told: dict[str, int] = {}  # game -> messages heard of (a read that overlapped one is not kept)

    async def of(self, online: Online, game_id: str) -> list[dict[str, Any]]:
        """Every message of the game, every channel, in order."""
        kept = self.games.get(game_id)
        if kept is not None:
            return kept
        told = self._told.get(game_id, 0)
        stored = await online.db(online.store.chat, game_id, (SEATS, SPECTATORS))
        if self._told.get(game_id, 0) == told:
            self.games[game_id] = stored
        return stored

    def add(self, game_id: str, stored: dict[str, Any]) -> None:
        """A message kept (here or, told by a notice, on another server)."""
        self._told[game_id] = self._told.get(game_id, 0) + 1
        kept = self.games.get(game_id)
        if kept is not None and all(m["n"] != stored["n"] for m in kept):
            kept.append(stored)
            kept.sort(key=lambda m: int(m["n"]))

    def forget(self, game_id: str) -> None:
        """Read the game's messages again next time."""
        self.games.pop(game_id, None)
        self._told[game_id] = self._told.get(game_id, 0) + 1
        if not any(self.games) and len(self._told) > 10_000:
            self._told.clear()


_histories: weakref.WeakKeyDictionary[Online, ChatHistory] = weakref.WeakKeyDictionary()


def history(online: Online) -> ChatHistory:
    """The server's `ChatHistory`."""
    found = _histories.get(online)
    if found is None:
        found = _histories[online] = ChatHistory()
        online.manager.forget_hooks.append(found.forget)
    return found


def channels_for(seat: int | None) -> tuple[str, ...]:
    """The channels a reader sees: a seat its own, a spectator both."""
    return (SEATS,) if seat is not None else (SEATS, SPECTATORS)


def clean_text(raw: Any) -> str:
    """A message's text: a string of 1-300 characters once control characters are dropped and spaces
    trimmed; `ProtocolError` saying what is wrong otherwise."""
    if not isinstance(raw, str):
        raise ProtocolError("malformed", "'text' must be a string")
    text = "".join(ch for ch in raw if ch.isprintable() or ch == " ").strip()
    if not text:
        raise ProtocolError("chat_empty", "a chat message needs some text")
    if len(text) > MAX_CHAT:
        raise ProtocolError("chat_too_long", f"a chat message is at most {MAX_CHAT} characters, got {len(text)}")
    return text


def message_json(stored: dict[str, Any]) -> dict[str, Any]:
    """A stored message as sent: a quick phrase (kept as `MARK + "phrase:KEY"`) as `phrase`, a clock's timeout
    as `event` ({kind: "timeout" or "autoplay", seat, bot}), else `text`. The mark is a control character,
    which no one's text keeps (`clean_text`): U+0001 (PostgreSQL's text holds no U+0000; older SQLite rows
    have it)."""
    out = dict(stored)
    text = str(out.pop("text"))
    if text[:1] in MARKS:
        text = MARK + text[1:]
    if text.startswith(f"{MARK}phrase:"):
        out["phrase"] = text.split(":", 1)[1]
    elif text.startswith(f"{MARK}timeout:"):  # the server's line: a seat's clock ran out (ttr.server.clocks)
        seat, bot = text.split(":", 1)[1].split(":", 1)
        out["event"] = {"kind": "autoplay" if bot == "autoplay" else "timeout", "seat": int(seat),
                        "bot": None if bot == "autoplay" else bot}
    else:
        out["text"] = text
    return out


async def after_join(online: Online, conn: Connection) -> None:
    """Send a socket that just joined the chat it may read (nothing when there is none yet)."""
    room = conn.room
    if room is None:
        return
    channels = channels_for(conn.seat)
    stored = [m for m in await history(online).of(online, room.info.id) if m["channel"] in channels]
    if stored:
        conn.push({"type": "chat_history", "messages": [message_json(m) for m in stored]})


async def say(online: Online, conn: Connection, data: dict[str, Any]) -> None:
    """A `chat` message from a socket: checked (who may write where, length, rate), kept, and sent to every
    socket of the game that reads its channel; refusals are `ProtocolError`s and change nothing."""
    room = conn.room
    if room is None or not conn.joined:
        raise ProtocolError("join_first", "send 'join' before 'chat'")
    channel = data.get("channel") or (SEATS if conn.seat is not None else SPECTATORS)
    if channel not in (SEATS, SPECTATORS):
        raise ProtocolError("malformed", f"'channel' is {SEATS!r} or {SPECTATORS!r}")
    session = online.ws_session(conn)
    if conn.seat is None:
        if channel == SEATS:
            raise ProtocolError("not_seated", "only the seats talk on the seats' channel: spectators talk on "
                                              "'spectators'")
        if session is None:
            raise ProtocolError("not_logged_in", "spectators chat under their account's name: log in first")
        name = session.account.name
    else:
        if channel == SPECTATORS:
            raise ProtocolError("not_seated", "the spectators' channel is for spectators")
        name = room.info.seats[conn.seat].name
    phrase = data.get("phrase")
    if phrase is not None:
        if phrase not in PHRASES:
            raise ProtocolError("malformed", f"unknown phrase {str(phrase)[:30]!r} (phrases: {', '.join(PHRASES)})")
        text = f"{MARK}phrase:{phrase}"
    else:
        text = clean_text(data.get("text"))
    who = f"seat {conn.seat}" if conn.seat is not None else f"account {session.account.id if session else '-'}"
    rule = online.settings.chat_limit
    try:
        online.limit(rule, "chat", room.info.id, who)
    except ApiError:
        raise ProtocolError("rate_limited", f"too many messages ({rule}): wait a little") from None
    now = time.time()
    n = await online.db(online.store.add_chat, room.info.id, channel, conn.seat, name, text, room.version, now)
    deliver(online, room, {"n": n, "channel": channel, "seat": conn.seat, "name": name, "text": text,
                           "version": room.version, "time": now})


def deliver(online: Online, room: Any, stored: dict[str, Any]) -> None:
    """Send a kept message to the game's sockets here that read its channel, and tell the other servers
    sharing the database (they send it to theirs: `noticed`)."""
    history(online).add(room.info.id, stored)
    _push(room, stored)
    online.manager.cluster.notify(f"{NOTICE}|{room.info.id}|{stored['n']}")


def _push(room: Any, stored: dict[str, Any]) -> None:
    encoded = json.dumps({"type": "chat", "message": message_json(stored)})
    for c in room.conns:
        if stored["channel"] in channels_for(c.seat):
            c.push(encoded)


def noticed(online: Online, parts: list[str]) -> None:
    """Another server kept a message of a game: send it to this server's sockets on that game."""
    if len(parts) != 2 or not parts[1].isdecimal():
        return
    room = online.manager.rooms.get(parts[0])
    if room is None or not room.conns:
        history(online).forget(parts[0])  # read again when someone joins here
        return

    async def send() -> None:
        stored = await online.db(online.store.chat_message, room.info.id, int(parts[1]))
        if stored is not None:
            history(online).add(room.info.id, stored)
            _push(room, stored)

    online.spawn(send())


def router(online: Online) -> APIRouter:
    """`GET /api/games/{id}/chat`: a finished game's messages, every channel, for its replay."""
    api = APIRouter(prefix="/api")
    manager = online.manager

    @api.get("/games/{game_id}/chat")
    async def game_chat(game_id: str) -> dict[str, Any]:
        info = await manager.db(manager.store.get_game, game_id[:64])
        if info is None:
            raise ApiError(404, "not_found", f"no game {game_id[:40]!r}")
        if info.status != FINISHED:
            raise ApiError(409, "not_finished", "the chat of a running game is read in the game; replays are for "
                                                "finished games")
        stored = await online.db(online.store.chat, info.id, (SEATS, SPECTATORS))
        return {"messages": [message_json(m) for m in stored]}

    return api
