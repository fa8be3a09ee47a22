"""A real-time clock in the page: the seat's time shown, running out (a bot plays the move, the chat log says
so), and the turn coming back while the tab is hidden: the title and a browser notification say so."""

from __future__ import annotations

from typing import Any

from .conftest import Served, new_context, shot
from .driver import api

RECORD_NOTIFICATIONS = """
window.__notes = [];
if (window.Notification) {
  window.Notification = new Proxy(window.Notification, {
    construct(target, args) { window.__notes.push(args[0]); return new target(...args); },
  });
}
"""


def test_a_clock_runs_out_and_the_hidden_tab_is_told_of_its_turn(browser: Any, server: Served) -> None:
    context = new_context(browser, viewport={"width": 1200, "height": 900}, locale="en-US")
    context.grant_permissions(["notifications"], origin=server.base)
    context.add_init_script(RECORD_NOTIFICATIONS)
    page = context.new_page()
    try:
        page.goto(server.base + "/")  # the page loaded first, so that the 2 s clock does not wait for its scripts
        page.wait_for_selector("body[data-ready='1']")
        seats = [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "greedy"}]
        game = api(server.base, "/api/games", {"map": "new_york", "seats": seats, "bot_delay": 0, "seed": 3,
                                               "clock": {"mode": "realtime", "move": 2, "reserve": 0}})
        page.goto(f"{server.base}/#/play/{game['id']}/0/{game['seats'][0]['token']}")
        page.wait_for_selector("#clock:not([hidden])")
        # the seat's own 2 s clock (waited for: on a loaded machine the page may first show a clock message of
        # no seat, or Ana's first clock may run out before the page has loaded, and her next turn is shown)
        page.wait_for_function("() => document.querySelector('#clock').textContent.startsWith('Your clock: 0:0')",
                               timeout=20000)
        assert page.evaluate("() => Notification.permission") == "granted"
        assert page.locator("#notify-button").count() == 0  # granted already: nothing to ask
        # the tab goes to the background
        page.evaluate("() => { Object.defineProperty(document, 'hidden', { get: () => true, configurable: true }); }")
        page.wait_for_selector("#chat-list .chat-event", timeout=20000)
        assert page.locator("#chat-list .chat-event").first.inner_text() == \
            "Time ran out for Ana: the medium bot played the move."
        # the bot chose Ana's tickets, the greedy bot its own: Ana's turn again, while the tab is hidden
        page.wait_for_function("() => window.__notes.length > 0", timeout=20000)
        # every notification says it is Ana's turn (on a slow machine the 2 s clock may run out again, and
        # the next turn is told of too)
        notes = page.evaluate("() => window.__notes")
        assert notes and set(notes) == {"Your turn in Ticket to Ride"}
        assert page.title() == "● Your turn – Ticket to Ride"
        shot(page, "clock-ran-out")
        page.evaluate("() => { Object.defineProperty(document, 'hidden', { get: () => false, configurable: true });"
                      " document.dispatchEvent(new Event('visibilitychange')); }")
        assert page.title() == "Ticket to Ride"
    finally:
        context.close()


def test_the_lobby_offers_clocks_and_refuses_one_out_of_range(page: Any, server: Served) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#create-form")
    page.select_option("#clock-mode", "realtime")
    page.fill("#clock-move", "900")
    page.click("#create-game")
    page.wait_for_selector("#create-error .error-text")
    assert page.locator("#create-error .error-text").inner_text().startswith(
        "Could not create the game: the clock is out of range")
    page.fill("#clock-move", "60")
    page.click("#create-game")
    page.wait_for_url("**/#/play/**")
    page.wait_for_selector("#clock:not([hidden])")
    page.wait_for_function("() => /^Your clock: 5:[45]\\d/.test(document.querySelector('#clock').textContent)")
    # 60 s a move and the default 300 s reserve (the clock started when the game was made)
