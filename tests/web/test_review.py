"""The review page of a finished game (docs/review.md): opened from the final screen and from the replay
viewer, its progress bar, the costliest decisions on the board with the better move and why, the standing
chart and the summary; in English and in simplified Chinese."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from .conftest import Served, shot
from .driver import api

SERVER_CHANGES = {"review_playouts": 4}  # a quick review: the page is under test, not the search
I18N = Path(__file__).resolve().parents[2] / "src" / "ttr" / "web" / "i18n"
BOTS = [{"type": "bot", "level": "medium", "name": "Ana"}, {"type": "bot", "level": "medium", "name": "Ben"}]


def finished_game(server: Served, seed: int) -> str:
    game = api(server.base, "/api/games", {"map": "new_york", "seed": seed, "bot_delay": 0, "seats": BOTS})
    deadline = time.monotonic() + 60
    while api(server.base, f"/api/games/{game['id']}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    gid: str = game["id"]
    return gid


def test_review_from_the_final_screen(page: Any, server: Served) -> None:
    gid = finished_game(server, 21)
    page.goto(f"{server.base}/#/watch/{gid}")
    page.locator("#open-review").click()
    page.wait_for_selector("#review-progress, #review-list, #review-none")
    page.wait_for_selector("#review-summary", timeout=90000)
    review = api(server.base, f"/api/games/{gid}/review/0")["review"]
    assert review["seat"] == 0 and review["playouts"] == 4
    items = page.locator("#review-list li").all()
    assert len(items) == len(review["costliest"][:5]) > 0
    rows = {d["index"]: d for d in review["decisions"]}
    first = rows[review["costliest"][0]]
    assert f"Move {first['move']}" in page.locator("#review-move").inner_text()
    assert f"{first['loss']:.1f}" in page.locator("#review-loss").inner_text()
    assert page.locator("#review-chart circle.costly").count() == len(items)
    assert page.locator("#review-chart polyline.curve").count() == 1
    summary = page.locator("#review-summary").inner_text()
    assert f"{review['summary']['score']} points, place {review['summary']['rank']}" in summary
    if len(items) > 1:  # another decision: its move on the board, the better move drawn as a hint is
        second = rows[review["costliest"][1]]
        items[1].locator("button").click()
        moved = f"Move {second['move']}"
        page.wait_for_function(f"() => document.querySelector('#review-move').textContent.includes('{moved}')")
        if second["best"]["action"] == "claim_route":
            route = second["best"]["route"]
            assert page.locator(f'svg.board g.route.on-path[data-route="{route}"]').count() == 1
    shot(page, "review-en")


def test_review_from_the_replay_in_chinese(page: Any, server: Served) -> None:
    gid = finished_game(server, 22)
    page.goto(f"{server.base}/#/replay/{gid}")
    page.select_option("#lang-select", "zh-Hans")
    page.wait_for_selector("#replay-review")
    assert page.locator("#replay-review").get_attribute("href") == f"#/review/{gid}/0"
    page.goto(f"{server.base}/#/review/{gid}/1")  # the other seat's game (its link in the seat row)
    page.wait_for_selector("#review-summary", timeout=90000)
    strings = json.loads((I18N / "zh-Hans.json").read_text(encoding="utf-8"))
    assert page.locator("h1").inner_text() == strings["review.title"]
    review = api(server.base, f"/api/games/{gid}/review/1")["review"]
    assert review["seat"] == 1
    summary = page.locator("#review-summary").inner_text()
    assert strings["review.score"].format(score=review["summary"]["score"], rank=review["summary"]["rank"]) in summary
    assert page.locator('#review-seats a[aria-current="page"]').inner_text().endswith("Ben")
    if review["costliest"]:
        why = page.locator("#review-why").inner_text()
        assert why.startswith("原因：") and "Claim" not in why and "Draw" not in why
    shot(page, "review-zh-Hans")
