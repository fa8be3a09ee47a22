"""The WebSocket protocol's messages (docs/web-protocol.md): reading what a page sends, the error codes.

`parse_client_message(text)` turns one received frame into a checked dict or raises `ProtocolError`
with the code and a message naming the problem; it never raises anything else.
"""

from __future__ import annotations

import json
from typing import Any

MAX_MESSAGE = 4096  # bytes, per WebSocket message from a page
MAX_BODY = 16 * 1024  # bytes, per REST request body

# Every error code a client can be sent (docs/web-protocol.md).
ERROR_CODES = (
    "malformed", "too_large", "unknown_type", "join_first", "bad_token", "spectator", "not_your_turn",
    "stale_version", "illegal", "game_over", "not_found", "forbidden_origin", "hint_pending",
    "rate_limited", "too_many_sockets", "not_your_seat", "not_logged_in", "not_seated", "chat_empty",
    "chat_too_long",
)

CLIENT_TYPES = ("join", "action", "hint", "ping", "chat")


class ProtocolError(Exception):
    """A client message or request the server refuses: `code` (one of ERROR_CODES) and a message."""

    def __init__(self, code: str, message: str, rule: str | None = None, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.retry_after = retry_after  # seconds, for `rate_limited`

    def to_message(self) -> dict[str, Any]:
        """The `error` message sent to the client."""
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.rule:
            out["rule"] = self.rule
        if self.retry_after is not None:
            out["retry_after"] = self.retry_after
        return out


def _int_field(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError("malformed", f"'{key}' must be an integer, got {_kind(value)}")
    return value


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", float: "a number"}.get(
        type(value), type(value).__name__)


def parse_client_message(raw: str | bytes | None) -> dict[str, Any]:
    """A checked client message: `{"type": ..., ...}` with the fields of its type, of the right types."""
    if raw is None:
        raise ProtocolError("malformed", "empty message")
    size = len(raw.encode("utf-8")) if isinstance(raw, str) else len(raw)
    if size > MAX_MESSAGE:
        raise ProtocolError("too_large", f"message of {size} bytes; at most {MAX_MESSAGE} bytes")
    if isinstance(raw, bytes):
        raise ProtocolError("malformed", "binary message: send JSON text")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError) as exc:
        detail = f" (line {exc.lineno}, column {exc.colno}: {exc.msg})" if isinstance(exc, json.JSONDecodeError) else ""
        raise ProtocolError("malformed", f"not JSON{detail}") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", f"a message is a JSON object, got {_kind(data)}")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("malformed", f"'type' must be a string, got {_kind(kind)}")
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r} (known: {', '.join(CLIENT_TYPES)})")
    if kind == "join":
        token = data.get("token")
        if token is not None and not isinstance(token, str):
            raise ProtocolError("malformed", f"'token' must be a string, got {_kind(token)}")
        seat = data.get("seat")  # a seat of the logged-in account (the socket's session cookie), without a token
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise ProtocolError("malformed", f"'seat' must be an integer, got {_kind(seat)}")
        return {"type": "join", "token": token or None, "seat": seat}
    if kind == "action":
        return {"type": "action", "version": _int_field(data, "version"), "id": _int_field(data, "id")}
    if kind == "chat":  # checked further by ttr.server.chat
        return {"type": "chat", "text": data.get("text"), "phrase": data.get("phrase"), "channel": data.get("channel")}
    return {"type": kind}
