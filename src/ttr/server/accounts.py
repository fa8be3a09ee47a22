"""Accounts (optional: guests play with seat tokens as before): register, log in and out, change the
password, delete the account, and the seats an account holds (docs/web-protocol.md, "Accounts").

Names are 3-24 characters (letters of any script, digits, spaces, `_ - .`), unique without regard to case
(NFKC and casefold), and none reads as a bot (`easy`, `Medium bot`, `random`, ...). Passwords are 8-200
characters, kept as argon2id hashes (argon2-cffi). Registration and login are rate-limited per client
address (and login per name) with the `limits` library.
"""

from __future__ import annotations

import asyncio
import hmac
import math
import re
import secrets
import time
import unicodedata
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, Response

from ttr.bots import BOTS
from ttr.server.config import LEVELS, ApiError
from ttr.server.deleted_players import forget_names
from ttr.server.online import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    Online,
    client_address,
    fields,
    hash_secret,
    read_json,
)
from ttr.server.online_store import Account, NameTakenError, Session
from ttr.server.rooms import hash_token
from ttr.server.store import RUNNING

NAME_MIN, NAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 200
MAX_CLAIMS = 100
BOT_WORDS = frozenset({*LEVELS, *(name.casefold() for name in BOTS), "bot", "bots", "ai", "cpu", "computer"})
_NAME_CHARS = re.compile(r"^[\w .\-]+$")


def name_key(name: str) -> str:
    """The form names are compared in: NFKC, casefolded."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(raw: Any) -> str:
    """The account name as kept (NFKC, spaces collapsed), or 400 `bad_name` saying what is wrong."""
    if not isinstance(raw, str):
        raise ApiError(400, "bad_name", "'name' must be a string")
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ApiError(400, "bad_name", f"a name is {NAME_MIN} to {NAME_MAX} characters, got {len(name)}")
    if not _NAME_CHARS.match(name) or not any(ch.isalnum() for ch in name):
        raise ApiError(400, "bad_name", "a name holds letters, digits, spaces and _ - . only, and a letter or digit")
    words = {w for w in re.split(r"[\W_]+", name_key(name)) if w}
    squashed = re.sub(r"[\W_\d]+", "", name_key(name))
    if words & BOT_WORDS or squashed in BOT_WORDS:
        raise ApiError(400, "bad_name", f"{name!r} reads as a bot: choose a name that does not name a bot level")
    return name


def check_password(raw: Any, field: str = "password") -> str:
    """A new password, or 400 `bad_password`."""
    if not isinstance(raw, str) or not PASSWORD_MIN <= len(raw) <= PASSWORD_MAX:
        raise ApiError(400, "bad_password", f"'{field}' must be {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return raw


def account_json(account: Account) -> dict[str, Any]:
    """An account as the page sees it."""
    return {"name": account.name, "created": account.created}


class Accounts:
    """The account routes' work: hashing off the event loop, sessions, seat claims."""

    def __init__(self, online: Online) -> None:
        self.online = online
        self._dummy: tuple[PasswordHasher, str] | None = None  # checked for unknown names: as slow as a known one

    @property
    def hasher(self) -> PasswordHasher:
        """argon2id with the settings' parameters (tests make them cheap)."""
        s = self.online.settings
        return PasswordHasher(time_cost=s.argon2_time_cost, memory_cost=s.argon2_memory_kib,
                              parallelism=s.argon2_parallelism)

    def dummy(self, hasher: PasswordHasher) -> str:
        """A hash of nothing anyone knows, made with `hasher`'s parameters."""
        if self._dummy is None or self._dummy[0].time_cost != hasher.time_cost \
                or self._dummy[0].memory_cost != hasher.memory_cost:
            self._dummy = (hasher, hasher.hash(secrets.token_hex(8)))
        return self._dummy[1]

    async def hash(self, password: str) -> str:
        """The argon2id hash of a password (in a thread: it takes tens of milliseconds)."""
        return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether the password matches the stored hash (an unknown name checks against a dummy hash)."""
        hasher = self.hasher
        try:
            return await asyncio.to_thread(hasher.verify, stored or self.dummy(hasher), password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False

    async def start_session(self, request: Request, response: Response, account: Account) -> str:
        """A new session for the account, its cookies set on `response`; its CSRF token."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        now = time.time()
        days = self.online.settings.session_days
        await self.online.db(self.online.store.create_session, hash_secret(token), account.id, csrf, now,
                             now + days * 86400)
        secure = request.url.scheme == "https"
        age = max(1, math.ceil(days * 86400))
        response.set_cookie(SESSION_COOKIE, token, max_age=age, httponly=True, samesite="lax", secure=secure, path="/")
        response.set_cookie(CSRF_COOKIE, csrf, max_age=age, httponly=False, samesite="lax", secure=secure, path="/")
        return csrf

    async def claim(self, account: Account, raw: Any) -> dict[str, Any]:
        """Give the account the seats whose tokens a page sent (`[{game, seat, token}]`): those whose token is
        right and that no other account holds. The answer counts them and says why others were not."""
        if raw is None:
            return {"claimed": 0, "refused": []}
        if not isinstance(raw, list) or len(raw) > MAX_CLAIMS:
            raise ApiError(400, "malformed", f"'seats' must be a list of at most {MAX_CLAIMS} {{game, seat, token}}")
        claimed, refused = 0, []
        manager = self.online.manager
        for entry in raw:
            ok = (isinstance(entry, dict) and isinstance(entry.get("game"), str) and isinstance(entry.get("token"), str)
                  and isinstance(entry.get("seat"), int) and not isinstance(entry.get("seat"), bool))
            if not ok:
                raise ApiError(400, "malformed", "each seat to claim is {game, seat, token}")
            game_id, seat, token = entry["game"][:64], entry["seat"], entry["token"]
            info = await manager.db(manager.store.get_game, game_id)
            held = info.seats[seat].token_hash if info is not None and 0 <= seat < len(info.seats) else None
            if held is None or not hmac.compare_digest(held, hash_token(token)):
                refused.append({"game": game_id, "seat": seat, "reason": "bad_token"})
            elif await self.online.db(self.online.store.claim_seat, game_id, seat, account.id, time.time()):
                claimed += 1
            else:
                refused.append({"game": game_id, "seat": seat, "reason": "held"})
        return {"claimed": claimed, "refused": refused}

    async def seats(self, session: Session) -> list[dict[str, Any]]:
        """The account's seats: game, seat, map, status, name, whether it is that seat's turn."""
        manager = self.online.manager
        out = []
        for game_id, seat in await self.online.db(self.online.store.account_seats, session.account.id):
            info = await manager.db(manager.store.get_game, game_id)
            if info is None or not 0 <= seat < len(info.seats):
                continue
            entry: dict[str, Any] = {"game": game_id, "seat": seat, "map": info.map, "status": info.status,
                                     "name": info.seats[seat].name, "created": info.created, "your_turn": False}
            if info.status == RUNNING:
                room = await manager.room(game_id)
                if room is not None and not room.game.is_over:
                    entry["your_turn"] = room.game.current == seat
                    entry["status"] = room.info.status
            out.append(entry)
        return out


def router(online: Online) -> APIRouter:
    """The `/api/account` routes."""
    api = APIRouter(prefix="/api/account")
    work = Accounts(online)
    store = online.store

    @api.get("")
    async def me(request: Request, response: Response) -> dict[str, Any]:
        try:
            session = await online.session(request, write=False)
        except ApiError:
            response.delete_cookie(SESSION_COOKIE, path="/")
            response.delete_cookie(CSRF_COOKIE, path="/")
            return {"account": None, "session_expired": True}
        if session is None:
            return {"account": None}
        return {"account": account_json(session.account), "csrf": session.csrf}

    @api.post("/register", status_code=201)
    async def register(request: Request, response: Response) -> dict[str, Any]:
        body = fields(await read_json(request), ("name", "password", "seats"))
        name = check_name(body.get("name"))
        password = check_password(body.get("password"))
        online.limit(online.settings.register_limit, "register", client_address(request))
        created = time.time()
        try:
            account = await online.db(store.create_account, secrets.token_hex(8), name, name_key(name),
                                      await work.hash(password), created)
        except NameTakenError:
            raise ApiError(409, "name_taken", f"the name {name!r} is taken (names are compared without case)") from None
        csrf = await work.start_session(request, response, account)
        claims = await work.claim(account, body.get("seats"))
        return {"account": account_json(account), "csrf": csrf, **claims}

    @api.post("/login")
    async def login(request: Request, response: Response) -> dict[str, Any]:
        body = fields(await read_json(request), ("name", "password", "seats"))
        name, password = body.get("name"), body.get("password")
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > PASSWORD_MAX:
            raise ApiError(400, "malformed", "'name' and 'password' must be strings")
        key = name_key(" ".join(name.split()))[:96]
        online.limit(online.settings.login_limit, "login", client_address(request))
        online.limit(online.settings.login_name_limit, "login-name", key)
        record = await online.db(store.login_record, key)
        if not await work.verify(record[1] if record else None, password) or record is None:
            raise ApiError(401, "wrong_password", "no account has that name and password")
        account = record[0]
        if work.hasher.check_needs_rehash(record[1]):
            await online.db(store.set_password, account.id, await work.hash(password))
        csrf = await work.start_session(request, response, account)
        claims = await work.claim(account, body.get("seats"))
        return {"account": account_json(account), "csrf": csrf, **claims}

    @api.post("/logout")
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        await online.require(request)
        await online.db(store.delete_session, hash_secret(request.cookies.get(SESSION_COOKIE, "")))
        response.delete_cookie(SESSION_COOKIE, path="/")
        response.delete_cookie(CSRF_COOKIE, path="/")
        return {"account": None}

    @api.post("/password")
    async def change_password(request: Request) -> dict[str, Any]:
        session = await online.require(request)
        body = fields(await read_json(request), ("password", "new_password"))
        new = check_password(body.get("new_password"), "new_password")
        old = body.get("password")
        online.limit(online.settings.login_name_limit, "login-name", name_key(session.account.name))
        stored = await online.db(store.password_hash, session.account.id)
        if not isinstance(old, str) or not await work.verify(stored, old):
            raise ApiError(401, "wrong_password", "the current password is not right; nothing changed")
        await online.db(store.set_password, session.account.id, await work.hash(new))
        await online.db(store.delete_other_sessions, session.account.id,
                        hash_secret(request.cookies.get(SESSION_COOKIE, "")))
        return {"account": account_json(session.account), "changed": True}

    @api.post("/delete")
    async def delete_account(request: Request, response: Response) -> dict[str, Any]:
        session = await online.require(request)
        body = fields(await read_json(request), ("password",))
        online.limit(online.settings.login_name_limit, "login-name", name_key(session.account.name))
        stored = await online.db(store.password_hash, session.account.id)
        password = body.get("password")
        if not isinstance(password, str) or not await work.verify(stored, password):
            raise ApiError(401, "wrong_password", "the password is not right; the account is kept")
        await online.db(store.delete_account, session.account.id, time.time())
        await forget_names(online, session.account.id)
        response.delete_cookie(SESSION_COOKIE, path="/")
        response.delete_cookie(CSRF_COOKIE, path="/")
        return {"account": None, "deleted": True}

    @api.get("/seats")
    async def my_seats(request: Request) -> list[dict[str, Any]]:
        return await work.seats(await online.require(request, write=False))

    @api.post("/seats")
    async def claim_seats(request: Request) -> dict[str, Any]:
        session = await online.require(request)
        body = fields(await read_json(request), ("seats",))
        return await work.claim(session.account, body.get("seats"))

    return api
