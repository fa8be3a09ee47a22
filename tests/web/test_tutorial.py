"""The guided first game, played to its end from the lobby's "Learn to play" (Europe against an easy bot,
a fixed deal): each step of the coach done (or skipped when the game does not offer it), then the final
scoring explained beside the breakdown; and the rules page of each map in the three languages."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import Served, shot
from .driver import claim_first, click_and_wait, draw_something, play_one, state, wait_turn


def lesson(page: Any) -> str:
    return str(page.locator("#coach").get_attribute("data-lesson"))


def claim_kind(page: Any, kind: str) -> bool:
    """Claim a claimable route of this kind (the board's class: tunnel, ferry) from the list, if any."""
    names = page.eval_on_selector_all("#route-list button[data-act=claim]", "els => els.map(e => e.dataset.route)")
    for name in names:
        g = page.locator(f"svg.board g.route[data-route={json.dumps(name)}]")
        if kind in (g.get_attribute("class") or "").split():
            page.evaluate("document.getElementById('route-list').open = true")
            page.locator(f"#route-list button[data-route={json.dumps(name)}]").click()
            click_and_wait(page, "#claim-confirm")
            return True
    return False


def test_the_guided_first_game_to_its_end(page: Any, server: Served) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#learn")
    page.click("#learn")
    page.wait_for_selector("#coach")
    wait_turn(page)
    assert page.locator("#players tbody tr").count() == 2 and "easy bot 2" in page.locator("#players").inner_text()
    shot(page, "tutorial-start", full_page=False)
    seen: list[str] = []
    tries = 0
    for _ in range(500):
        phase, _, _ = state(page)
        if phase == "game_over":
            break
        now = lesson(page)
        if not seen or seen[-1] != now:
            seen.append(now)
            tries = 0
        tries += 1
        if phase != "main":
            play_one(page, longest=True)
        elif now == "draw":
            draw_something(page)
        elif now == "claim":
            claim_first(page, longest=True) or draw_something(page)
        elif now == "more_tickets" and page.locator("#draw-tickets:enabled").count():
            click_and_wait(page, "#draw-tickets")
        elif now in ("tunnel", "ferry") and claim_kind(page, now):
            pass
        elif now == "station" and page.locator("#build-station:enabled").count():
            page.click("#build-station")
            click_and_wait(page, "#station-confirm")
        elif now in ("tunnel", "ferry", "station") and tries > 12:
            page.click("#coach-skip")  # not offered in time: the coach lets the player go on
        else:
            play_one(page, longest=True)
    else:
        raise AssertionError(f"the guided game did not end: {seen}")
    page.wait_for_selector("#breakdown")
    assert lesson(page) == "final"
    assert page.locator("#coach-text").inner_text().startswith("The game is over.")
    assert seen[:4] == ["tickets", "draw", "claim", "more_tickets"], seen
    assert set(seen) >= {"tickets", "draw", "claim", "more_tickets", "tunnel", "ferry", "station", "final"}, seen
    shot(page, "tutorial-final")
    page.click("#coach-end")
    assert page.locator("#coach").count() == 0 and page.evaluate("localStorage.getItem('ttr.tutorial')") is None


@pytest.mark.parametrize("map_name", ["europe", "new_york"])
def test_rules_pages_in_three_languages(page: Any, server: Served, map_name: str) -> None:
    page.goto(f"{server.base}/#/rules/{map_name}")
    page.wait_for_selector("#rules")
    rules = page.eval_on_selector_all("#rules p[data-rule]", "els => els.map(e => e.dataset.rule)")
    features = {"rules.tunnel", "rules.ferry", "rules.stations", "rules.longest", "rules.attractions"}
    expected = ({"rules.tunnel", "rules.ferry", "rules.stations", "rules.longest"} if map_name == "europe"
                else {"rules.attractions"})
    assert set(rules) & features == expected
    data = page.request.get(f"{server.base}/api/maps/{map_name}").json()
    setup = page.locator('#rules p[data-rule="rules.setup"]').inner_text()
    assert f"starts with {data['rules']['pieces']} " in setup
    points = page.eval_on_selector_all("#route-points tr:last-child td", "els => els.map(e => e.textContent)")
    assert points == [str(v) for v in data["rules"]["route_points"].values()]
    texts = {}
    for lang in ("zh-Hans", "zh-Hant"):
        page.select_option("#lang-select", lang)
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        texts[lang] = page.locator("#rules").inner_text()
        assert "rules." not in texts[lang] and "{" not in texts[lang]
    wild = {"europe": ("彩虹票", "彩虹票"), "new_york": ("出租车", "計程車")}[map_name]
    assert wild[0] in texts["zh-Hans"] and wild[1] in texts["zh-Hant"]
    assert "任务牌" in texts["zh-Hans"] and "任務牌" in texts["zh-Hant"]
    page.select_option("#lang-select", "en")
    shot(page, f"rules-{map_name}")
