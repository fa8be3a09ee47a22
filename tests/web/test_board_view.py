"""The board as players see it on a 1400x900 desktop and a 390x844 phone: text sizes at the default zoom
(measured in the browser), the first view on the seat's tickets, drag to pan, pinch and the zoom buttons,
the hand-and-draw bar that stays on screen (desktop and phone, the board zoomed or the page scrolled), and no
sideways scrolling of the page."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Served, shot
from .driver import create_game, open_seat, wait_turn

DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}

# the smallest drawn city name and route letter: getBoundingClientRect's height for text drawn level (a route
# within 5 degrees of level), its width for text drawn upright (within 5 degrees of vertical: the letter's
# height is then across the screen); and the font sizes in screen pixels (font-size times the board's scale)
SIZES = """() => {
  const rotation = (el) => { const m = /rotate\\(([-\\d.]+)\\)/.exec(el.parentNode.getAttribute('transform') || '');
    return m ? Math.abs(Number(m[1])) : 0; };
  const drawn = (el) => { const r = el.getBoundingClientRect(); const a = rotation(el);
    return a < 5 ? r.height : a > 85 ? r.width : null; };
  const scale = (el) => { const m = el.getScreenCTM(); return Math.hypot(m.a, m.b); };
  const font = (el) => Number(el.getAttribute('font-size')) * scale(el);
  const cities = [...document.querySelectorAll('svg.board text.city-name')];
  const letters = [...document.querySelectorAll('svg.board text.space-letter')];
  const min = (xs) => Math.min(...xs.filter((x) => x !== null));
  return {city: min(cities.map((e) => e.getBoundingClientRect().height)), cityFont: min(cities.map(font)),
          letter: min(letters.map(drawn)), letterFont: min(letters.map(font)),
          measured: letters.map(drawn).filter((x) => x !== null).length};
}"""


def open_game(open_page: Any, server: Served, viewport: dict[str, int], map_name: str, seed: int = 3) -> Any:
    """A page (a phone's below 500 pixels wide) at the first turn of a new game on `map_name`."""
    phone = viewport["width"] < 500
    page = open_page(viewport=viewport, locale="en-US", has_touch=phone, is_mobile=phone)
    game_id, token = create_game(server.base, map_name, seed=seed)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    return page


@pytest.mark.parametrize("map_name", ["europe", "new_york"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_text_is_readable_at_the_default_zoom(open_page: Any, server: Served, viewport: dict[str, int],
                                              map_name: str) -> None:
    page = open_game(open_page, server, viewport, map_name)
    sizes = page.evaluate(SIZES)
    assert sizes["measured"] >= 5, sizes  # letters level or upright (New York has few)
    assert sizes["city"] >= 11 and sizes["cityFont"] >= 11, sizes
    assert sizes["letter"] >= 8 and sizes["letterFont"] >= 8, sizes
    # the page never scrolls sideways: the board scrolls inside its own frame
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    # the first view is on the seat's tickets (offered at setup): their cities are in the frame
    inside = page.evaluate("""() => {
        const frame = document.querySelector('.board-wrap').getBoundingClientRect();
        const cities = [...document.querySelectorAll('#action-panel input[data-ticket]')]
          .flatMap((cb) => { const t = cb.dataset.ticket; const i = t.indexOf('-');
                             return [t.slice(0, i), t.slice(i + 1)]; });
        return cities.map((c) => {
          const dot = document.querySelector(`svg.board g.city[data-city="${c}"] circle.city-dot`);
          const r = dot.getBoundingClientRect();
          const x = r.left + r.width / 2, y = r.top + r.height / 2;
          return x >= frame.left && x <= frame.right && y >= frame.top && y <= frame.bottom; });
    }""")
    assert inside and sum(inside) >= len(inside) / 2, inside
    name = "desktop" if viewport is DESKTOP else "phone"
    shot(page, f"board-{map_name}-{name}", full_page=False)


def test_drag_pans_and_the_buttons_zoom(open_page: Any, server: Served) -> None:
    page = open_game(open_page, server, DESKTOP, "europe")
    frame = page.locator(".board-wrap")
    before = page.evaluate("""() => { const w = document.querySelector('.board-wrap');
        w.scrollLeft = w.scrollWidth - w.clientWidth; w.scrollTop = w.scrollHeight - w.clientHeight;
        return [w.scrollLeft, w.scrollTop]; }""")
    assert before[0] > 120 and before[1] > 80, before  # the board is larger than its frame
    box = frame.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 60, y + 40, steps=5)
    page.mouse.move(x + 120, y + 80, steps=5)
    page.mouse.up()
    after = page.evaluate("() => { const w = document.querySelector('.board-wrap');"
                          " return [w.scrollLeft, w.scrollTop]; }")
    assert before[0] - after[0] == pytest.approx(120, abs=2) and before[1] - after[1] == pytest.approx(80, abs=2)
    assert not page.locator("#dialog").is_visible()  # a drag is no click
    scale = float(page.locator("#board").get_attribute("data-scale"))
    assert scale == pytest.approx(0.85)
    page.click("#board .zoom-in")
    assert float(page.locator("#board").get_attribute("data-scale")) == pytest.approx(scale * 1.25, abs=0.002)
    for _ in range(4):
        page.click("#board .zoom-out")
    # zoomed out as far as it goes: the whole board in the frame
    fits = page.evaluate("""() => { const w = document.querySelector('.board-wrap');
        const r = w.querySelector('svg').getBoundingClientRect();
        return [r.width <= w.clientWidth + 1, r.height <= w.clientHeight + 1]; }""")
    assert fits == [True, True]


def test_pinch_zooms_on_a_phone(open_page: Any, server: Served) -> None:
    page = open_game(open_page, server, PHONE, "europe")
    scale = float(page.locator("#board").get_attribute("data-scale"))
    page.evaluate("document.querySelector('.board-wrap').scrollIntoView({block: 'start'})")
    box = page.locator(".board-wrap").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 150)  # clear of the bar below
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, spread: float) -> None:
        points = [{"x": cx - spread, "y": cy, "id": 1}, {"x": cx + spread, "y": cy, "id": 2}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [] if kind == "touchEnd" else points})

    touch("touchStart", 40)
    for spread in (50, 60, 70, 80):
        touch("touchMove", spread)
    touch("touchEnd", 80)
    pinched = float(page.locator("#board").get_attribute("data-scale"))
    assert pinched == pytest.approx(scale * 2, rel=0.05)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    cdp.detach()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_hand_and_the_draw_stay_on_screen_in_a_bar(open_page: Any, server: Served,
                                                       viewport: dict[str, int]) -> None:
    """On a desktop as on a phone the hand and the draw sit in a bar fixed at the bottom of the screen: on
    screen whether the page is scrolled to its end or the board zoomed in and panned, never over the end of
    the page, and the page never scrolls sideways."""
    phone = viewport is PHONE
    name = "phone" if phone else "desktop"
    page = open_game(open_page, server, viewport, "europe")
    page.locator("#keep-tickets").click()
    wait_turn(page, "0")
    on_screen = """() => ['dock', 'hand-cards', 'draw-deck', 'draw-tickets', 'build-station'].map((id) => {
        const r = document.getElementById(id).getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight + 0.5 && r.left >= 0
            && r.right <= window.innerWidth + 0.5 && r.height > 0; })
        .concat([...document.querySelectorAll('#draw button.slot')].map((b) => {
            const r = b.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight + 0.5; }))"""
    slots = page.locator("#draw button.slot").count()
    assert slots == 5
    assert page.evaluate(on_screen) == [True] * (5 + slots)
    bar = page.locator("#dock").bounding_box()
    assert bar["y"] + bar["height"] == pytest.approx(viewport["height"], abs=1)  # at the bottom
    assert bar["height"] < viewport["height"] * (0.25 if phone else 0.15), bar  # a bar, not half the screen
    # the board zoomed in and panned to its far corner: the bar stays
    for _ in range(3):
        page.click("#board .zoom-in")
    page.evaluate("""() => { const w = document.querySelector('.board-wrap');
        w.scrollLeft = w.scrollWidth; w.scrollTop = w.scrollHeight; }""")
    assert page.evaluate(on_screen) == [True] * (5 + slots)
    assert page.locator("#dock").bounding_box() == bar
    shot(page, f"bar-{name}-zoomed", full_page=False)
    # the page scrolled to its end: the bar stays, and the end of the page (the log) is above it
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("window.scrollY") > 0
    assert page.evaluate(on_screen) == [True] * (5 + slots)
    assert page.locator("#dock").bounding_box() == bar
    log = page.locator("#log").bounding_box()
    assert log["y"] + log["height"] <= bar["y"] + 1, (log, bar)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"bar-{name}-scrolled", full_page=False)
    deck = page.locator("#draw-deck")
    deck.tap() if phone else deck.click()  # it works from the bar
    page.wait_for_function("document.querySelector('main').dataset.phase === 'second_card'")
