"""Profiles (`GET /api/players/{name}`): ratings, totals and the history of finished games; a deleted
account's games stay, showing a deleted player."""

from __future__ import annotations

from .online_kit import Live, error_of, live, play_out  # noqa: F401  (the live fixture)
from .test_ratings import game_of, two_players, wait_results


def test_a_profile_after_a_rated_game_and_a_deleted_opponent(live: Live) -> None:  # noqa: F811
    browsers = two_players(live, ("Cara", "Dan"))
    game_id, tokens = game_of(live, browsers)
    last = play_out(live, game_id, tokens, seed=8)
    wait_results(live, "Cara", 1)
    wait_results(live, "Dan", 1)
    final = {p["seat"]: p for p in last["view"]["final"]["players"]}
    profile = browsers[1].get("/api/players/cara").json()  # any case
    assert profile["name"] == "Cara" and profile["games"] == 1
    assert profile["won"] == int(0 in last["view"]["final"]["winner_seats"])
    assert profile["tickets_done"] == len(final[0]["tickets_completed"])
    assert profile["mean_score"] == float(final[0]["total"])
    assert [(r["map"], r["seats"], r["games"]) for r in profile["ratings"]] == [("new_york", 2, 1)]
    [entry] = profile["history"]
    assert (entry["game"], entry["seat"], entry["score"], entry["rated"]) == (game_id, 0, final[0]["total"], True)
    seats = [(p["seat"], p["account"], p["deleted"]) for p in entry["players"]]
    assert seats == [(0, "Cara", False), (1, "Dan", False)]
    assert browsers[1].get(f"/api/games/{game_id}/replay/0").status_code == 200  # the history's replay link
    # Dan deletes his account: his profile is gone, Cara's game stays and shows a deleted player
    assert browsers[1].post("/api/account/delete", json={"password": "correct horse"}).status_code == 200
    error_of(browsers[0].get("/api/players/Dan"), 404, "not_found")
    again = browsers[0].get("/api/players/Cara").json()["history"][0]["players"][1]
    assert (again["account"], again["deleted"]) == (None, True)
    board = browsers[0].get("/api/leaderboard", params={"map": "new_york", "seats": "2"}).json()
    assert [p["name"] for p in board["players"]] == ["Cara"]  # a deleted account leaves the leaderboard


def test_an_unknown_player(live: Live) -> None:  # noqa: F811
    error_of(live.browser().get("/api/players/nobody"), 404, "not_found")
