"""Motion and sound, and changing a move before it is sent: a card slides from the row or the deck to the
hand, a refilled slot turns over, a claim lays its pieces and sounds, none of it delays the next click, and
nothing moves with reduced motion; with "Confirm each move" the chosen claim can be changed first."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from .conftest import Served
from .driver import click_and_wait, create_game, deck_only, open_seat, play_by_socket, state, wait_turn

COUNT_FLYING = """() => { window.__flying = 0; new MutationObserver((ms) => { for (const m of ms)
  for (const n of m.addedNodes) if (n.classList && n.classList.contains('flying-card')) window.__flying += 1; })
  .observe(document.body, {childList: true}); }"""
SOUNDS = "(document.body.dataset.sounds || '').split(' ')"


def start(page: Any, server: Served) -> None:
    game_id, token = create_game(server.base, "europe", seed=3)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    page.evaluate(COUNT_FLYING)
    click_and_wait(page, "#keep-tickets")


@pytest.fixture
def moving_page(open_page: Any) -> Any:
    """A page in a browser whose system lets things move (no "reduce motion"); page errors fail the test."""
    return open_page(viewport={"width": 1400, "height": 1000}, locale="en-US", reduced_motion="no-preference")


def test_cards_slide_slots_refill_claims_lay_and_sound(moving_page: Any, server: Served) -> None:
    page = moving_page
    start(page, server)
    assert "turn" in page.evaluate(SOUNDS) and page.locator("#sound-toggle").is_checked()
    slot = page.locator("#draw button[data-act=face-up]:enabled").first
    index = slot.get_attribute("data-slot")
    version = state(page)[1]
    slot.click()
    page.wait_for_function(f"document.querySelector('main').dataset.version !== '{version}'")
    assert page.evaluate("window.__flying") == 1
    # the slot refilled from the deck turns over, and the deck is usable at once (no waiting for the motion)
    refilled = page.locator(f"#draw .face-up > .slot:nth-child({int(index) + 1})").get_attribute("class") or ""
    assert "refilled" in refilled
    if state(page)[0] == "second_card":
        click_and_wait(page, "#draw-deck")
        assert page.evaluate("window.__flying") == 2
    for _ in range(15):
        if page.locator("#route-list button[data-act=claim]").count():
            break
        click_and_wait(page, "#draw-deck")
    name = page.locator("#route-list button[data-act=claim]").first.get_attribute("data-route")
    page.evaluate("document.getElementById('route-list').open = true")
    page.locator("#route-list button[data-act=claim]").first.click()
    version = state(page)[1]
    page.click("#claim-confirm")
    page.wait_for_function(f"document.querySelector('main').dataset.version !== '{version}'")
    if state(page)[0] != "tunnel_payment":
        route = page.locator(f'svg.board g.route[data-route="{name}"]')
        pieces = route.locator(".owner-piece.laying")
        assert pieces.count() == int(route.get_attribute("data-length"))
        delays = pieces.evaluate_all("els => els.map(e => e.style.animationDelay)")
        assert delays == [f"{90 * i}ms" for i in range(len(delays))]  # one after the other
        assert "claim" in page.evaluate(SOUNDS)
    page.locator("#sound-toggle").uncheck()  # the switch: no more sounds
    page.evaluate("document.body.dataset.sounds = ''")
    click_and_wait(page, "#draw-deck")
    assert page.evaluate(SOUNDS) == [""]


def test_nothing_moves_with_reduced_motion(open_page: Any, server: Served) -> None:
    page = open_page(viewport={"width": 1400, "height": 900}, locale="en-US", reduced_motion="reduce")
    start(page, server)
    for _ in range(2):
        click_and_wait(page, "#draw-deck")
    assert page.evaluate("window.__flying") == 0
    animations = page.evaluate("document.getAnimations().filter((a) => a.playState === 'running')"
                               ".map((a) => a.animationName)")
    assert animations == [], animations


def confirmed(page: Any, selector: str) -> None:
    """Click a move, say yes to it, and wait for this seat's next turn."""
    version = state(page)[1]
    page.locator(selector).click()
    page.click("#confirm-yes")
    wait_turn(page, version)


def two_ways(_view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """Whether some route can be claimed with two different sets of cards."""
    claims = Counter(e["action"]["route"] for e in legal if e["action"]["action"] == "claim_route")
    return any(n >= 2 for n in claims.values())


def test_a_confirmed_claim_can_be_changed_before_it_is_sent(page: Any, server: Served) -> None:
    sent: list[str] = []

    def on_socket(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(payload))

    page.on("websocket", on_socket)
    game_id, token = create_game(server.base, "europe", seed=3)
    # cards gathered over the socket (test_actions.py draws through the page) until a route can be paid in two
    # ways, then one more draw here, confirmed
    play_by_socket(server.base, game_id, token, "europe", lambda view, legal: two_ways(view, legal) and any(
        e["action"]["action"] == "draw_card" and e["action"].get("from") == "deck" for e in legal), deck_only)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    page.locator("#confirm-toggle").check()
    confirmed(page, "#draw-deck")
    if state(page)[0] == "second_card":
        confirmed(page, "#draw-deck")
    page.evaluate("document.getElementById('route-list').open = true")
    ways = 0
    for button in page.locator("#route-list button[data-act=claim]").all():
        button.click()
        ways = page.locator("#dialog input[name=claim-option]").count()
        if ways >= 2:
            break
        page.locator("#dialog button:not(.primary)").click()
    assert ways >= 2
    before = len([p for p in sent if '"action"' in p])
    page.locator("#claim-option-1").check()
    page.click("#claim-confirm")
    first = page.locator("#confirm-text").inner_text()
    page.click("#confirm-change")  # back to the choice, the same set still chosen, nothing sent
    assert page.locator("#claim-option-1").is_checked()
    assert len([p for p in sent if '"action"' in p]) == before
    page.locator("#claim-option-0").check()
    page.click("#claim-confirm")
    second = page.locator("#confirm-text").inner_text()
    assert second != first and second.startswith("Claim ")
    version = state(page)[1]
    page.click("#confirm-yes")
    page.wait_for_function(f"document.querySelector('main').dataset.version !== '{version}'")
    assert len([p for p in sent if '"action"' in p]) == before + 1
    cards = second.split(" with ", 1)[1]
    log = page.locator("#log-list").inner_text()
    assert "Ana claimed" in log or "Ana tries" in log
    assert cards in log
    page.remove_listener("websocket", on_socket)
