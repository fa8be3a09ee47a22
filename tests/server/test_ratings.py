"""Ratings (openskill PlackettLuce) of finished games between accounts, the leaderboards, and the bots'
reference ratings; games with a chosen seed, a bot seat or a seat without an account are not rated."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce

from ttr.server.ratings import bot_ratings, like_level, ordinal

from .online_kit import Live, error_of, live, play_out, register  # noqa: F401  (the live fixture)

PEOPLE = [{"type": "human", "name": "P1"}, {"type": "human", "name": "P2"}]


def two_players(live: Live, names: tuple[str, str] = ("Ana", "Ben")) -> list[httpx.Client]:  # noqa: F811
    browsers = [live.browser(), live.browser()]
    for b, name in zip(browsers, names, strict=True):
        register(b, name)
    return browsers


def game_of(live: Live, browsers: list[httpx.Client], seats: list[dict[str, Any]] | None = None,  # noqa: F811
            seed: int | None = None) -> tuple[str, list[str]]:
    """A New York game created by the first browser; each browser claims its seat. (id, tokens)."""
    body: dict[str, Any] = {"map": "new_york", "seats": seats or PEOPLE, "bot_delay": 0}
    if seed is not None:
        body["seed"] = seed
    game = browsers[0].post("/api/games", json=body).json()
    tokens = [s["token"] for s in game["seats"] if s.get("token")]
    for seat, (b, token) in enumerate(zip(browsers, tokens, strict=False)):
        claim = b.post("/api/account/seats", json={"seats": [{"game": game["id"], "seat": seat, "token": token}]})
        assert claim.json()["claimed"] == 1
    return game["id"], tokens


def wait_results(live: Live, account_name: str, games: int) -> list[dict[str, Any]]:  # noqa: F811
    """The account's result rows, once there are `games` of them (the finish hook runs as a task)."""
    account = live.online.store.account_by_name(account_name.casefold())
    assert account is not None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        rows = live.online.store.account_results(account.id)
        if len(rows) >= games:
            return rows
        time.sleep(0.05)
    raise AssertionError(f"no results for {account_name}")


def test_a_game_between_accounts_is_rated(live: Live) -> None:  # noqa: F811
    browsers = two_players(live)
    game_id, tokens = game_of(live, browsers)
    last = play_out(live, game_id, tokens, seed=3)
    places = {p["seat"]: p for p in last["view"]["final"]["players"]}
    winners = set(last["view"]["final"]["winner_seats"])
    rows = {r["seat"]: r for r in wait_results(live, "Ana", 1)} | {r["seat"]: r for r in wait_results(live, "Ben", 1)}
    assert all(r["rated"] == 1 for r in rows.values())
    assert {s for s, r in rows.items() if r["won"]} == winners
    assert {s: r["score"] for s, r in rows.items()} == {s: p["total"] for s, p in places.items()}
    # the same numbers as openskill gives for that placement
    model = PlackettLuce()
    ranks = [rows[0]["place"], rows[1]["place"]]
    expected = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
    board = browsers[1].get("/api/leaderboard", params={"map": "new_york", "seats": "2"}).json()
    by_name = {p["name"]: p for p in board["players"]}
    for seat, name in ((0, "Ana"), (1, "Ben")):
        mu, sigma = expected[seat][0].mu, expected[seat][0].sigma
        assert by_name[name]["mu"] == round(mu, 2) and by_name[name]["rating"] == ordinal(mu, sigma)
        assert by_name[name]["games"] == 1 and by_name[name]["like"] == like_level("new_york", 2, mu)
    assert [p["rank"] for p in board["players"]] == [1, 2]
    assert board["players"][0]["rating"] >= board["players"][1]["rating"]
    if len(winners) == 1:
        assert by_name["Ana" if 0 in winners else "Ben"]["mu"] > 25 > by_name["Ben" if 0 in winners else "Ana"]["mu"]
    assert {b["level"] for b in board["bots"]} == set(bot_ratings()["ratings"]["new_york"]["2"])
    assert browsers[0].get("/api/leaderboard", params={"map": "new_york", "seats": "3"}).json()["players"] == []


@pytest.mark.parametrize("case", ["seed", "bot", "guest"])
def test_games_that_are_not_rated(live: Live, case: str) -> None:  # noqa: F811
    browsers = two_players(live)
    if case == "seed":
        game_id, tokens = game_of(live, browsers, seed=11)
    elif case == "bot":
        game_id, tokens = game_of(live, browsers[:1], seats=[PEOPLE[0], {"type": "bot", "level": "random"}])
    else:  # the second seat is a guest's
        game = browsers[0].post("/api/games", json={"map": "new_york", "seats": PEOPLE, "bot_delay": 0}).json()
        game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
        browsers[0].post("/api/account/seats", json={"seats": [{"game": game_id, "seat": 0, "token": tokens[0]}]})
    play_out(live, game_id, tokens, seed=4)
    rows = wait_results(live, "Ana", 1)
    assert rows[0]["rated"] == 0 and rows[0]["mu_after"] is None  # kept for the profile, not rated
    board = browsers[0].get("/api/leaderboard", params={"map": "new_york", "seats": "2"}).json()
    assert board["players"] == []


def test_leaderboard_refuses_bad_tables(live: Live) -> None:  # noqa: F811
    b = live.browser()
    error_of(b.get("/api/leaderboard", params={"map": "mars"}), 400, "unknown_map")
    error_of(b.get("/api/leaderboard", params={"map": "new_york", "seats": "5"}), 400, "bad_seats")
    error_of(b.get("/api/leaderboard", params={"map": "europe", "seats": "٣"}), 400, "bad_seats")
    error_of(b.get("/api/leaderboard", params={"limit": "0"}), 400, "malformed")


def test_the_bots_reference_ratings_cover_every_table() -> None:
    data = bot_ratings()
    assert data["model"] == "PlackettLuce"
    for map_name, sizes in (("europe", range(2, 6)), ("new_york", range(2, 5))):
        for n in sizes:
            table = data["ratings"][map_name][str(n)]
            assert {"easy", "medium", "hard"} <= set(table)
            assert all(0 < r["sigma"] < 8.34 for r in table.values())
    # a player as strong as a level reads as that level
    hard = data["ratings"]["europe"]["2"]["hard"]["mu"]
    assert like_level("europe", 2, hard) == "hard"


def play_one_seat(live: Live, game_id: str, token: str, seed: int) -> dict[str, Any]:  # noqa: F811
    """Play one seat of a game to its end, badly (it draws cards while it can and keeps the fewest tickets),
    the other seats left to the server; the last update."""
    import json
    import random

    from websockets.sync.client import connect

    rng = random.Random(seed)
    with connect(live.server.ws_url(game_id)) as ws:
        ws.send(json.dumps({"type": "join", "token": token}))
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg["type"] not in ("snapshot", "update"):
                continue
            if msg["status"] == "finished":
                return dict(msg)
            if msg["legal"]:
                legal = msg["legal"]
                draws = [a for a in legal if a["action"]["action"] == "draw_card"]
                keeps = sorted((a for a in legal if a["action"]["action"] == "keep_tickets"),
                               key=lambda a: len(a["action"].get("tickets", [])))
                choice = draws[0] if draws else keeps[0] if keeps else rng.choice(legal)
                ws.send(json.dumps({"type": "action", "version": msg["version"], "id": choice["id"]}))


def test_a_seat_abandoned_to_the_bot_is_rated_last(live: Live) -> None:  # noqa: F811
    """Ana never moves: her clock runs out three times, a bot plays her seat to the end. The game is rated,
    Ana last whatever her bot scored; Ben, who played to the end, first."""
    browsers = two_players(live)
    live.server.manager.config.standin_level = "medium"  # a bot that scores, for Ana's seat
    body: dict[str, Any] = {"map": "new_york", "seats": PEOPLE, "bot_delay": 0,
                            "clock": {"mode": "realtime", "move": 1, "reserve": 0}}
    game = browsers[0].post("/api/games", json=body).json()
    tokens = [s["token"] for s in game["seats"]]
    for seat, b in enumerate(browsers):
        b.post("/api/account/seats", json={"seats": [{"game": game["id"], "seat": seat, "token": tokens[seat]}]})
    last = play_one_seat(live, game["id"], tokens[1], seed=5)
    rows = {r["seat"]: r for r in wait_results(live, "Ana", 1)} | {r["seat"]: r for r in wait_results(live, "Ben", 1)}
    assert rows[0]["rated"] == 1 and rows[1]["rated"] == 1
    assert rows[0]["mu_after"] < rows[0]["mu_before"] and rows[1]["mu_after"] > rows[1]["mu_before"]
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=[2, 1])
    assert rows[1]["mu_after"] == pytest.approx(expected[1][0].mu)
    # the result rows keep the game's own places: the bot playing for Ana outscored Ben, who only drew cards
    scores = {p["seat"]: p["total"] for p in last["view"]["final"]["players"]}
    assert {s: r["score"] for s, r in rows.items()} == scores and scores[0] > scores[1]
    assert rows[0]["place"] == 1 and rows[1]["place"] == 2


def test_rating_ranks_put_abandoned_seats_last() -> None:
    from ttr.server.ratings import rating_ranks

    assert rating_ranks([1, 2, 3], set()) == [1, 2, 3]
    assert rating_ranks([1, 2, 3], {0}) == [4, 2, 3]
    assert rating_ranks([1, 1, 3, 4], {0, 2}) == [5, 1, 5, 4]
    assert rating_ranks([1, 2], {0, 1}) == [1, 1]
