"""The map speaks: a ticket offered or held marks its cities and its cheapest open path on the board, a held
one says how far it has come, the claimable highlights narrow to the tickets' paths, and the hint draws its
move on the board, worded by the ticket it serves in all three languages."""

from __future__ import annotations

import json
import re
from typing import Any

from .conftest import Served, shot
from .driver import click_and_wait, create_game, open_seat, state, wait_turn

PATH_CHAIN = """(ticket) => {
  const i = ticket.indexOf('-'); const [a, b] = [ticket.slice(0, i), ticket.slice(i + 1)];
  const routes = [...document.querySelectorAll('svg.board g.route.on-path')].map((g) => [g.dataset.a, g.dataset.b]);
  // the routes join the ticket's two cities: walk from one end
  let here = a; const left = routes.slice();
  while (here !== b) { const k = left.findIndex(([x, y]) => x === here || y === here); if (k < 0) return false;
    const [x, y] = left.splice(k, 1)[0]; here = x === here ? y : x; }
  return left.length === 0;
}"""



def set_lang(page: Any, lang: str) -> None:
    """Switch the page's language and wait until it is drawn in it."""
    page.select_option("#lang-select", lang)
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")


def marked(page: Any) -> list[str]:
    return sorted(page.eval_on_selector_all("svg.board g.city.marked", "els => els.map(e => e.dataset.city)"))


def test_open_paths_in_the_browser(page: Any, server: Served) -> None:
    """paths.js: own routes cost nothing, another player's route is closed, and so is a double route's other
    track where only one may be claimed or whose other track the seat holds."""
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    got = page.evaluate("""async () => {
        const p = await import('/js/paths.js');
        const routes = [{id: 0, a: "A", b: "B", length: 2, twin: -1}, {id: 1, a: "B", b: "C", length: 2, twin: 2},
                        {id: 2, a: "B", b: "C", length: 2, twin: 1}, {id: 3, a: "A", b: "C", length: 6, twin: -1}];
        const run = (owners, singleUse) => p.openPath("A", "C", routes, {owners: new Map(owners), seat: 0, singleUse});
        return [run([], false), run([[0, 0]], false), run([[0, 0], [1, 1]], false), run([[0, 0], [1, 1]], true),
                run([[0, 1]], false), run([[0, 1], [3, 1]], false)];
    }""")
    assert got[0] == {"routes": [1, 0], "built": 0, "toBuild": 4}
    assert got[1] == {"routes": [1, 0], "built": 2, "toBuild": 2}
    assert got[2] == {"routes": [2, 0], "built": 2, "toBuild": 2}  # the other track is still open
    assert got[3] == {"routes": [3], "built": 0, "toBuild": 6}  # single use: the double route is closed
    assert got[4] == {"routes": [3], "built": 0, "toBuild": 6}
    assert got[5] is None


def test_tickets_show_their_cities_path_and_progress(page: Any, server: Served) -> None:
    game_id, token = create_game(server.base, "europe", seed=3)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    offered = page.locator("#action-panel li[data-ticket]").first
    name = offered.get_attribute("data-ticket")
    offered.hover()
    assert marked(page) == sorted(name.split("-"))
    assert page.evaluate(PATH_CHAIN, name)
    assert re.search(r"about \d+ trains to build", offered.inner_text())
    page.locator("#action-panel h2").hover()  # away: the marks go
    assert marked(page) == []
    page.locator("#offer-1").focus()  # focus shows it too
    assert marked(page) == sorted(page.locator("#offer-1").get_attribute("data-ticket").split("-"))
    click_and_wait(page, "#keep-tickets")
    held = page.locator("#ticket-list li").first
    name = held.get_attribute("data-ticket")
    held.click()  # a tap keeps it shown
    page.locator("#players").hover()
    assert marked(page) == sorted(name.split("-")) and page.evaluate(PATH_CHAIN, name)
    progress = held.locator(".ticket-progress")
    lengths = page.eval_on_selector_all("svg.board g.route.on-path", "els => els.map(e => e.dataset.length)")
    total = sum(int(n) for n in lengths)
    assert progress.get_attribute("data-total") == str(total) and progress.get_attribute("data-built") == "0"
    assert progress.inner_text() == f"0 of {total} built, {total} trains to go"
    # the routes still to claim are dashed apart from those already yours (none yet: all of them)
    assert page.locator("svg.board g.route.path-todo").count() == page.locator("svg.board g.route.on-path").count()
    shot(page, "ticket-path")
    held.click()  # a second tap hides it
    assert marked(page) == []



# whether each marked city's dot is inside the board's frame and the window, above the hand-and-draw bar; and
# its ring's colour (a ticket's cities are cyan, over any other ring)
CITIES_IN_VIEW = """() => { const frame = document.querySelector('.board-wrap').getBoundingClientRect();
  const bar = document.getElementById('dock').getBoundingClientRect();
  return [...document.querySelectorAll('svg.board g.city.marked circle.city-dot')].map((dot) => {
    const r = dot.getBoundingClientRect(); const x = r.x + r.width / 2, y = r.y + r.height / 2;
    return [x >= frame.left && x <= frame.right && y >= frame.top && y <= frame.bottom && y >= 0 && y <= bar.top,
            getComputedStyle(dot).stroke]; }); }"""


def test_a_tapped_ticket_on_a_phone_brings_its_cities_into_view(open_page: Any, server: Served) -> None:
    """On a 390x844 phone the ticket choice fills the screen above the board: tapping a ticket's ◎ brings the
    board into the window and zooms out as far as needed for both of its cities to show, ringed in cyan."""
    page = open_page(viewport={"width": 390, "height": 844}, locale="en-US", has_touch=True, is_mobile=True)
    game_id, token = create_game(server.base, "europe", seed=5)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    first = page.locator("#action-panel li[data-ticket]").first
    name = str(first.get_attribute("data-ticket"))
    scale = float(page.locator("#board").get_attribute("data-scale"))
    assert [seen for seen, _ in page.evaluate(CITIES_IN_VIEW)] == []  # nothing marked yet
    first.locator(".show-ticket").tap()
    assert marked(page) == sorted(name.split("-"))
    assert page.evaluate(CITIES_IN_VIEW) == [[True, "rgb(0, 172, 193)"]] * 2
    assert float(page.locator("#board").get_attribute("data-scale")) <= scale
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "ticket-tapped-phone", full_page=False)

def test_claimable_highlights_narrow_to_the_tickets_paths(page: Any, server: Served) -> None:
    game_id, token = create_game(server.base, "europe", seed=3)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    click_and_wait(page, "#keep-tickets")
    for _ in range(12):  # gather cards until a few routes can be claimed
        if page.locator("svg.board g.route.claimable").count() >= 4:
            break
        click_and_wait(page, "#draw-deck")
    claimable = page.locator("svg.board g.route.claimable").count()
    assert claimable >= 4 and state(page)[0] == "main"
    quiet = page.locator("svg.board g.route.claimable.quiet").count()
    summary = page.locator("#route-list summary").inner_text()
    on_paths = int(re.search(r"(\d+) on your tickets' paths", summary).group(1))
    assert quiet == claimable - on_paths and quiet > 0
    # the cities where a station may go are ringed only along the paths (all of them stay clickable)
    stations = page.locator("svg.board g.city.station-choice").count()
    quiet_cities = page.locator("svg.board g.city.station-choice.quiet").count()
    assert 0 < quiet_cities < stations
    page.evaluate("document.getElementById('route-list').open = true")
    page.locator("#narrow-toggle").uncheck()
    assert page.locator("svg.board g.route.claimable.quiet").count() == 0
    assert page.locator("svg.board g.city.station-choice.quiet").count() == 0
    page.locator("#narrow-toggle").check()
    assert page.locator("svg.board g.route.claimable.quiet").count() == quiet


def test_the_hint_draws_its_move_and_names_its_ticket(page: Any, server: Served) -> None:
    hints: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: hints.extend(
            m for m in [json.loads(payload)] if m.get("type") == "hint"))

    page.on("websocket", on_socket)
    game_id, token = create_game(server.base, "europe", seed=3)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    click_and_wait(page, "#keep-tickets")
    page.click("#hint-button")
    page.wait_for_function("document.getElementById('hint-text').textContent.startsWith('Hint: ')", timeout=60000)
    reason = hints[-1]["reason_i18n"]
    # the move is drawn: its route, city or face-up card, and the cities of the tickets it serves
    drawn = page.evaluate("""() => ({
        routes: [...document.querySelectorAll('svg.board g.route.hinted')].map(e => e.dataset.route),
        cities: [...document.querySelectorAll('svg.board g.city.hinted')].map(e => e.dataset.city),
        card: [...document.querySelectorAll('#draw .slot.hinted')].map(e => e.dataset.card)})""")
    assert drawn["routes"] or drawn["cities"] or drawn["card"], (drawn, reason)
    if "card" in reason:
        assert drawn["card"] == [reason["card"]] or reason["key"] == "hint.deck_for_wild"
    for route in reason.get("routes", []) + ([reason["route"]] if reason.get("route") else []):
        assert route in drawn["routes"]
    texts = {}
    for lang in ("en", "zh-Hans", "zh-Hant"):
        set_lang(page, lang)
        texts[lang] = page.locator("#hint-text").inner_text()
        assert "{" not in texts[lang] and "hint." not in texts[lang]
    set_lang(page, "en")
    for ticket in reason.get("tickets", []):
        a, b = ticket.split("-")
        assert f"{a} – {b}" in texts["en"]
        assert {a, b} <= set(marked(page))
    assert reason["key"] != "hint.take_needed"  # a card for routes says which ticket they serve (seed 3)
    shot(page, "hint-drawn")
    page.remove_listener("websocket", on_socket)
