"""Accounts (docs/web-protocol.md, "Accounts"): register, log in and out, CSRF, expiry, password change,
deletion, rate limits, names, and the seats an account holds (claimed by token, joined from any browser)."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import update
from websockets.sync.client import connect

from ttr.server.online_tables import sessions

from .online_kit import Live, error_of, live, register  # noqa: F401  (the live fixture)

TWO = [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]


@pytest.fixture
def client(live: Live) -> httpx.Client:  # noqa: F811
    return live.browser()


def test_register_sets_a_session_cookie_and_me_names_the_account(client: httpx.Client) -> None:
    assert client.get("/api/account").json() == {"account": None}
    r = client.post("/api/account/register", json={"name": "Ana Lee", "password": "correct horse"})
    assert r.status_code == 201
    cookies = r.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("ttr_session="))
    assert "HttpOnly" in session and "SameSite=lax" in session and "Path=/" in session
    assert "Secure" not in session  # plain HTTP here; Secure over TLS
    csrf_cookie = next(c for c in cookies if c.startswith("ttr_csrf="))
    assert "HttpOnly" not in csrf_cookie
    me = client.get("/api/account").json()
    assert me["account"]["name"] == "Ana Lee" and me["csrf"] == r.json()["csrf"]


def test_cookie_is_secure_over_tls(client: httpx.Client) -> None:
    # behind a TLS proxy on this machine (uvicorn trusts its X-Forwarded-Proto from 127.0.0.1)
    r = client.post("/api/account/register", json={"name": "Tls user", "password": "correct horse"},
                    headers={"X-Forwarded-Proto": "https"})
    assert r.status_code == 201
    cookies = r.headers.get_list("set-cookie")
    assert len(cookies) == 2 and all("Secure" in v for v in cookies)


@pytest.mark.parametrize("name, why", [
    ("ab", "3 to 24"), ("x" * 25, "3 to 24"), ("Easy", "bot"), ("medium bot", "bot"), ("Random", "bot"),
    ("HARD", "bot"), ("expert_2", "bot"), ("Bot 3", "bot"), ("<b>x</b>", "letters"), ("---", "letters"),
])
def test_bad_names_are_refused(client: httpx.Client, name: str, why: str) -> None:
    message = error_of(client.post("/api/account/register", json={"name": name, "password": "correct horse"}),
                       400, "bad_name")
    assert why in message
    assert client.get("/api/account").json() == {"account": None}


def test_names_are_unique_without_regard_to_case(client: httpx.Client, live: Live) -> None:  # noqa: F811
    register(client, "Zoë")
    with live.browser() as c2:
        error_of(c2.post("/api/account/register", json={"name": "ZOË", "password": "another pw"}), 409, "name_taken")
        register(c2, "李小龍")
    assert client.get("/api/account").json()["account"]["name"] == "Zoë"


def test_a_short_password_is_refused(client: httpx.Client) -> None:
    error_of(client.post("/api/account/register", json={"name": "Shorty", "password": "1234567"}), 400, "bad_password")


def test_login_and_a_wrong_password(client: httpx.Client, live: Live) -> None:  # noqa: F811
    register(client, "Ben")
    with live.browser() as c2:
        error_of(c2.post("/api/account/login", json={"name": "Ben", "password": "wrong one"}), 401, "wrong_password")
        error_of(c2.post("/api/account/login", json={"name": "Nobody", "password": "wrong one"}), 401, "wrong_password")
        assert c2.get("/api/account").json() == {"account": None}
        r = c2.post("/api/account/login", json={"name": "BEN", "password": "correct horse"})  # any case
        assert r.status_code == 200 and r.json()["account"]["name"] == "Ben"
        assert c2.get("/api/account").json()["account"]["name"] == "Ben"


def test_state_changes_need_the_csrf_token(client: httpx.Client) -> None:
    body = register(client, "Cleo")
    del client.headers["X-CSRF-Token"]
    error_of(client.post("/api/account/logout"), 403, "csrf")
    client.headers["X-CSRF-Token"] = "not-the-token"
    error_of(client.post("/api/account/logout"), 403, "csrf")
    error_of(client.post("/api/account/password", json={"password": "correct horse", "new_password": "x" * 10}),
             403, "csrf")
    assert client.get("/api/account").json()["account"]["name"] == "Cleo"  # nothing changed
    client.headers["X-CSRF-Token"] = body["csrf"]
    assert client.post("/api/account/logout").json() == {"account": None}
    assert client.get("/api/account").json() == {"account": None}


def test_an_expired_session_is_refused(client: httpx.Client, live: Live) -> None:  # noqa: F811
    register(client, "Dora")
    with live.online.store.engine.begin() as conn:  # its 30 days have passed
        conn.execute(update(sessions).values(expires=time.time() - 1))
    error_of(client.post("/api/account/seats", json={"seats": []}), 401, "session_expired")
    assert client.get("/api/account").json() == {"account": None, "session_expired": True}


def test_change_the_password(client: httpx.Client, live: Live) -> None:  # noqa: F811
    register(client, "Eve")
    with live.browser() as c2:
        register_again = c2.post("/api/account/login", json={"name": "Eve", "password": "correct horse"})
        assert register_again.status_code == 200
        error_of(client.post("/api/account/password", json={"password": "wrong", "new_password": "new password"}),
                 401, "wrong_password")
        error_of(client.post("/api/account/password", json={"password": "correct horse", "new_password": "short"}),
                 400, "bad_password")
        r = client.post("/api/account/password", json={"password": "correct horse", "new_password": "new password"})
        assert r.status_code == 200
        assert client.get("/api/account").json()["account"]["name"] == "Eve"  # this session stays
        assert c2.get("/api/account").json()["account"] is None  # the other browser is logged out
        error_of(c2.post("/api/account/login", json={"name": "Eve", "password": "correct horse"}), 401,
                 "wrong_password")
        assert c2.post("/api/account/login", json={"name": "Eve", "password": "new password"}).status_code == 200


def test_delete_the_account_frees_its_name(client: httpx.Client, live: Live) -> None:  # noqa: F811
    register(client, "Finn")
    error_of(client.post("/api/account/delete", json={"password": "wrong"}), 401, "wrong_password")
    assert client.get("/api/account").json()["account"]["name"] == "Finn"
    assert client.post("/api/account/delete", json={"password": "correct horse"}).json()["deleted"] is True
    assert client.get("/api/account").json()["account"] is None
    with live.browser() as c2:
        error_of(c2.post("/api/account/login", json={"name": "Finn", "password": "correct horse"}), 401,
                 "wrong_password")
        register(c2, "finn")


def test_registration_and_login_are_rate_limited(client: httpx.Client, live: Live) -> None:  # noqa: F811
    settings = live.online.settings
    settings.register_limit, settings.login_name_limit = "2/minute", "3/minute"
    register(client, "Gus one")
    register(client, "Gus two")
    message = error_of(client.post("/api/account/register", json={"name": "Gus three", "password": "correct horse"}),
                       429, "rate_limited")
    assert "try again" in message
    for _ in range(3):
        error_of(client.post("/api/account/login", json={"name": "Gus one", "password": "bad guess"}), 401,
                 "wrong_password")
    error_of(client.post("/api/account/login", json={"name": "Gus one", "password": "correct horse"}), 429,
             "rate_limited")


def test_malformed_bodies(client: httpx.Client) -> None:
    error_of(client.post("/api/account/register", content=b"{"), 400, "malformed")
    error_of(client.post("/api/account/register", json={"name": "Hal", "password": "correct horse", "x": 1}),
             400, "malformed")
    error_of(client.post("/api/account/login", json=[1]), 400, "malformed")
    error_of(client.post("/api/account/seats", json={"seats": []}), 401, "not_logged_in")


def new_game(client: httpx.Client, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    r = client.post("/api/games", json={"map": "new_york", "seats": seats or TWO})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def test_a_guest_who_registers_keeps_the_games_of_that_browser(client: httpx.Client, live: Live) -> None:  # noqa: F811
    game = new_game(client)
    token = game["seats"][0]["token"]
    body = register(client, "Iris", seats=[{"game": game["id"], "seat": 0, "token": token},
                                           {"game": game["id"], "seat": 1, "token": token},
                                           {"game": "nope", "seat": 0, "token": token}])
    assert body["claimed"] == 1
    assert sorted(r["seat"] for r in body["refused"]) == [0, 1]
    assert {r["reason"] for r in body["refused"]} == {"bad_token"}
    seats = client.get("/api/account/seats").json()
    assert [(s["game"], s["seat"], s["map"], s["status"]) for s in seats] == [(game["id"], 0, "new_york", "running")]
    assert seats[0]["your_turn"] is True  # New York's setup: seat 0 chooses tickets first
    with live.browser() as c2:  # another account cannot take the seat with the same token
        register(c2, "Jack")
        again = c2.post("/api/account/seats", json={"seats": [{"game": game["id"], "seat": 0, "token": token}]}).json()
        assert again == {"claimed": 0, "refused": [{"game": game["id"], "seat": 0, "reason": "held"}]}
        assert c2.get("/api/account/seats").json() == []


def ws_join(live: Live, game_id: str, browser: httpx.Client | None, seat: int, origin: str | None = None) -> Any:  # noqa: F811
    """Open the game's socket as `browser` (None: no cookies), join `seat` by account; the first answer."""
    headers = live.ws_headers(browser, origin) if browser is not None else {}
    with connect(live.server.ws_url(game_id), additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "join", "seat": seat}))
        return json.loads(ws.recv(timeout=30))


def test_an_account_joins_its_seat_from_another_browser(client: httpx.Client, live: Live) -> None:  # noqa: F811
    game = new_game(client)
    register(client, "Kim", seats=[{"game": game["id"], "seat": 0, "token": game["seats"][0]["token"]}])
    with live.browser() as c2:
        assert c2.post("/api/account/login", json={"name": "Kim", "password": "correct horse"}).status_code == 200
        snapshot = ws_join(live, game["id"], c2, 0)
        assert snapshot["type"] == "snapshot" and snapshot["seat"] == 0 and snapshot["legal"]
        assert ws_join(live, game["id"], c2, 1)["code"] == "not_your_seat"
        # a socket opened by another site's page is refused before it can ride on the cookie: told why at once
        with connect(live.server.ws_url(game["id"]),
                     additional_headers=live.ws_headers(c2, "http://evil.example")) as foreign:
            assert json.loads(foreign.recv(timeout=30))["code"] == "forbidden_origin"
    assert ws_join(live, game["id"], None, 0)["code"] == "not_logged_in"
