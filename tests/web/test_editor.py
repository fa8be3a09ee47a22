"""The map editor (#/editor) in the browser: build a small map, see a problem at its place and fix it, save
the file, play a game on it to the end, and run a simulation to its report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ttr.maps.check import check_map

from .conftest import Served, shot
from .driver import play_to_end, wait_turn

CORNERS = [(120, 110), (520, 110), (520, 420), (120, 420)]  # on the sheet, in CSS pixels


def problems(page: Any) -> int:
    page.wait_for_function("() => document.querySelector('main').dataset.problems !== undefined")
    page.wait_for_timeout(400)  # the check runs 250 ms after the last change
    page.wait_for_function("() => !document.querySelector('#ed-status').textContent.startsWith('Checking')")
    return int(page.evaluate("() => document.querySelector('main').dataset.problems"))


def city(page: Any, n: int) -> Any:
    return page.locator(f'g.ed-city[data-city="City {n}"] circle').first


def test_build_check_fix_save_play_and_simulate(page: Any, server: Served, tmp_path: Path) -> None:
    page.goto(f"{server.base}/#/editor")
    page.wait_for_selector("main[data-view=editor]")
    page.select_option("#ed-start", "blank")
    page.click("#ed-start-go")
    page.click("#ed-tool-city")
    sheet = page.locator("#editor-sheet")
    for x, y in CORNERS:
        sheet.click(position={"x": x, "y": y})
    assert page.locator("g.ed-city").count() == 4
    assert problems(page) > 0
    assert "the map has no routes" in page.locator("#editor-problems").inner_text()
    # routes: the square and both diagonals
    page.click("#ed-tool-route")
    for a, b in ((1, 2), (2, 3), (3, 4), (4, 1), (1, 3), (2, 4)):
        city(page, a).click()
        city(page, b).click()
    assert page.locator("g.ed-route").count() == 6
    # a length with no entry in route_points: flagged on that route, then fixed
    page.click("#ed-tool-select")
    page.locator('g.ed-route[data-route-index="0"]').click()
    page.fill("#ed-route-length", "9")
    page.press("#ed-route-length", "Enter")
    page.wait_for_selector('g.ed-route.problem[data-route-index="0"]')
    assert "routes[0].length" in page.locator("#editor-problems").inner_text()
    shot(page, "editor-problem")
    page.fill("#ed-route-length", "3")
    page.press("#ed-route-length", "Enter")
    page.wait_for_function("() => !document.querySelector('g.ed-route.problem')")
    page.locator('g.ed-route[data-route-index="0"]').click()
    page.click("#ed-route-double")  # a second track beside it
    assert page.locator("g.ed-route").count() == 7
    page.wait_for_selector('g.ed-route.selected[data-route-index="1"]')  # the new track is the one selected
    page.select_option("#ed-route-color", "red")
    # the rules block: two players, six trains
    rules = json.loads(page.input_value("#ed-rules"))
    rules["rules"].update(players_max=2, pieces=6, end_trigger_pieces=2)
    page.click("#ed-rules-panel summary")
    page.fill("#ed-rules", json.dumps(rules))
    page.locator("#ed-rules").blur()
    # four tickets, their points suggested from the shortest path
    for a, b in ((1, 3), (2, 4), (1, 2), (3, 4)):
        page.select_option("#ed-ticket-a", f"City {a}")
        page.select_option("#ed-ticket-b", f"City {b}")
        page.click("#ed-ticket-suggest")
        page.wait_for_function("() => document.querySelector('#ed-ticket-suggestion').textContent.includes('Shortest')")
        page.click("#ed-ticket-add")
    assert page.locator("#ed-tickets li").count() == 4
    assert problems(page) == 0, page.locator("#editor-problems").inner_text()
    assert page.locator("#ed-status").inner_text() == "No problems: the map is ready to play."
    # undo takes the last ticket away, redo brings it back
    page.click("#ed-undo")
    page.wait_for_function("() => document.querySelectorAll('#ed-tickets li').length === 3")
    page.click("#ed-redo")
    page.wait_for_function("() => document.querySelectorAll('#ed-tickets li').length === 4")
    shot(page, "editor-ready")
    # save: a ttr-map/1 file that `ttr map check` passes
    with page.expect_download() as info:
        page.click("#ed-save")
    saved = tmp_path / "saved.json"
    info.value.save_as(saved)
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["format"] == "ttr-map/1" and len(data["routes"]) == 7 and check_map(data) == []
    # play it now: a game against a bot on this map, to the end
    page.click("#ed-play")
    page.wait_for_selector("main[data-version]")
    wait_turn(page)
    play_to_end(page)
    page.wait_for_selector("#breakdown")
    # back to the editor (the draft is kept), simulate, open the report
    page.goto(f"{server.base}/#/editor")
    page.wait_for_selector("main[data-view=editor]")
    assert page.locator("g.ed-city").count() == 4
    page.fill("#ed-sim-games", "6")
    page.click("#ed-simulate")
    page.wait_for_selector("#ed-sim-report:not([hidden])", timeout=120000)
    assert page.evaluate("() => document.querySelector('#ed-sim-progress').value") == 6
    href = page.get_attribute("#ed-sim-report", "href")
    report = page.request.get(server.base + href)
    assert report.ok and "Ticket to Ride simulation report" in report.text() and "6 games" in report.text()


def test_start_from_usa_in_chinese_and_drag_a_city(page: Any, server: Served) -> None:
    page.goto(f"{server.base}/#/editor")
    page.wait_for_selector("main[data-view=editor]")
    page.select_option("#lang-select", "zh-Hans")
    page.wait_for_function("() => document.querySelector('#ed-start-go').textContent === '开始'")
    page.select_option("#ed-start", "usa")
    page.click("#ed-start-go")
    page.wait_for_function("() => document.querySelectorAll('g.ed-city').length === 36")
    assert page.locator("g.ed-route").count() == 100
    assert problems(page) == 0
    assert page.locator("#ed-status").inner_text() == "没有问题：地图可以游玩。"
    # drag Miami: its board place changes, and undo puts it back
    before = page.evaluate("() => JSON.parse(localStorage.getItem('ttr.editor.doc')).board['Miami']")
    dot = page.locator('g.ed-city[data-city="Miami"] circle').first.bounding_box()
    page.mouse.move(dot["x"] + dot["width"] / 2, dot["y"] + dot["height"] / 2)
    page.mouse.down()
    page.mouse.move(dot["x"] - 60, dot["y"] - 40, steps=5)
    page.mouse.up()
    moved = page.evaluate("() => JSON.parse(localStorage.getItem('ttr.editor.doc')).board['Miami']")
    assert moved != before and moved[0] < before[0]
    page.click("#ed-undo")
    assert page.evaluate("() => JSON.parse(localStorage.getItem('ttr.editor.doc')).board['Miami']") == before
