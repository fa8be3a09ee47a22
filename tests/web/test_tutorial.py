"""The guided first game, played to its end from the lobby's "Learn to play" (Europe against an easy bot, the
deal of src/ttr/web/static/tutorial/europe.json): each step shown, its move named and marked by the coach and
done by clicking what the coach marks (tickets, drawing, claiming, more tickets, a tunnel paid, a ferry, a
station), then the game played on (over its socket, then its last turns in the page) to its end and the final
scoring explained beside the breakdown; and the rules
page of each map in the three languages."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

import pytest

from .conftest import Served, shot
from .driver import click_and_wait, play_by_socket, play_one, state, wait_turn

STEPS = ["tickets", "draw", "claim", "more_tickets", "tunnel", "ferry", "station"]


def lesson(page: Any) -> str:
    return str(page.locator("#coach").get_attribute("data-lesson"))


def play_named_move(page: Any, move: dict[str, Any]) -> None:
    """Do the coach's next move by clicking what it marks (the dialogs open with the coach's cards chosen)."""
    kind = move["action"]
    marked = page.locator(".coach-move")
    assert marked.count() >= 1, f"nothing marked for {move}"
    if kind == "keep_tickets":
        for box in page.locator("#action-panel input[type=checkbox]").all():
            box.set_checked(box.get_attribute("data-ticket") in move["tickets"])
        marked_tickets = page.eval_on_selector_all("#action-panel li.coach-move", "l => l.map(e => e.dataset.ticket)")
        assert sorted(marked_tickets) == sorted(move["tickets"])
        click_and_wait(page, "#keep-tickets")
    elif kind in ("draw_card", "draw_tickets", "pay_tunnel"):
        assert marked.count() == 1
        click_and_wait(page, ".coach-move")
    elif kind == "claim_route":
        page.evaluate("document.getElementById('route-list').open = true")
        page.locator(f"#route-list button.coach-move[data-route={json.dumps(move['route'])}]").click()
        assert page.locator(f"svg.board g.route.coach-move[data-route={json.dumps(move['route'])}]").count() == 1
        chosen = page.locator("#dialog input[name=claim-option]:checked").locator("xpath=..").inner_text()
        assert all(f"{n}" in chosen for n in move["cards"].values()), chosen
        click_and_wait(page, "#claim-confirm")
    elif kind == "build_station":
        page.click("#build-station.coach-move")
        assert page.locator("#station-city").input_value() == move["city"]
        click_and_wait(page, "#station-confirm")
    else:
        raise AssertionError(f"a move the tutorial does not name: {move}")


def test_the_guided_first_game_to_its_end(page: Any, server: Served) -> None:
    script = page.request.get(server.base + "/tutorial/europe.json").json()
    page.goto(server.base + "/")
    page.wait_for_selector("#learn")
    page.click("#learn")
    page.wait_for_selector("#coach")
    wait_turn(page)
    assert page.locator("#players tbody tr").count() == 2 and "easy bot 2" in page.locator("#players").inner_text()
    shot(page, "tutorial-start", full_page=False)
    shown: list[str] = []  # each step as the coach showed it, in order
    played: dict[str, list[dict[str, Any]]] = {}  # the moves played while each step was shown
    for _ in range(60):
        wait_turn(page)
        now = lesson(page)
        if not shown or shown[-1] != now:
            shown.append(now)
        if now == "final":
            break
        raw = page.locator("#coach").get_attribute("data-next")
        assert raw, f"the coach names no move at step {now}: {page.locator('#coach').inner_text()}"
        move = json.loads(raw)
        assert page.locator("#coach-next").is_visible()
        if now == "tunnel" and move["action"] == "pay_tunnel":
            assert page.locator("#tunnel-extra").is_visible()
            shot(page, "tutorial-tunnel", full_page=False)
        played.setdefault(now, []).append(move)
        play_named_move(page, move)
    assert shown == [*STEPS, "final"], shown
    assert played == {s["id"]: s["moves"] for s in script["steps"] if s["moves"]}
    assert page.locator("#coach-own").count() == 0  # every move was the coach's
    assert "Play on to the end" in page.locator("#coach-text").inner_text()
    # each step done, as the log says
    log = page.locator("#log").inner_text()
    claims = [m["route"].split("/")[0].replace("-", " – ") for s in script["steps"] for m in s["moves"]
              if m["action"] == "claim_route"]
    assert len(claims) == 3  # a route, a tunnel, a ferry
    kept = [m["tickets"][0].replace("-", " – ") for s in script["steps"] for m in s["moves"]
            if m["action"] == "keep_tickets"]
    words = [f"You kept {kept[0]}", f"You kept {kept[1]}", f"You claimed {claims[0]}",
             f"You tried the tunnel {claims[1]}", f"and claimed {claims[1]}", f"You claimed {claims[2]}",
             "You drew destination tickets", "You built a station"]
    for w in words:
        assert w in log, (w, log)
    # the middle of the game over its socket (the coach has no more steps for it; test_full_game.py plays a
    # whole game through the page), its last turns here
    game_id, seat, token = page.evaluate("location.hash").removeprefix("#/play/").split("/")
    assert seat == "0"
    now = play_by_socket(server.base, game_id, unquote(token), "europe",
                         lambda view, _: min(p["trains"] for p in view["players"]) <= 6)
    page.wait_for_function(f"document.querySelector('main').dataset.version === '{now['version']}'")
    for _ in range(400):
        phase, _, _ = state(page)
        if phase == "game_over":
            break
        play_one(page, longest=True)
    else:
        raise AssertionError("the guided game did not end")
    page.wait_for_selector("#breakdown")
    assert lesson(page) == "final"
    assert page.locator("#coach-text").inner_text().startswith("The game is over.")
    assert "null" not in page.locator("#coach").inner_text()
    assert page.locator("#coach .coach-target, .coach-target").count() == 1  # the breakdown is pointed at
    shot(page, "tutorial-final")
    page.click("#coach-end")
    assert page.locator("#coach").count() == 0 and page.evaluate("localStorage.getItem('ttr.tutorial')") is None


def test_the_guided_game_that_cannot_start_says_why(page: Any, server: Served) -> None:
    """Without its script (the server unreachable), "Learn to play" says so under the form; nothing opens."""
    page.route("**/tutorial/europe.json", lambda route: route.abort())
    page.goto(server.base + "/")
    page.wait_for_selector("#learn")
    page.click("#learn")
    page.wait_for_selector("#create-error .error-text")
    assert page.locator("#create-error").inner_text().strip() != ""
    assert page.evaluate("location.hash") in ("", "#/")
    assert page.evaluate("localStorage.getItem('ttr.tutorial')") is None


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
