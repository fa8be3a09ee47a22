"""The colour-blind setting: a pattern per colour on every route space and card chip, not only letters;
screenshots in grayscale and with deuteranopia simulated (an SVG colour matrix) to look at."""

from __future__ import annotations

from typing import Any

from .conftest import Served, shot
from .driver import click_and_wait, create_game, open_seat, wait_turn

# Machado, Oliveira and Fernandes (2009), deuteranopia at severity 1.0
DEUTERANOPIA = ("0.367 0.861 -0.228 0 0  0.280 0.673 0.047 0 0  -0.012 0.043 0.969 0 0  0 0 0 1 0")
SIMULATE = """(matrix) => {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg'); svg.setAttribute('width', '0'); svg.setAttribute('height', '0');
  svg.style.position = 'absolute';
  svg.innerHTML = `<filter id="sim-cvd"><feColorMatrix type="matrix" values="${matrix}"/></filter>`;
  document.body.append(svg);
  document.documentElement.style.filter = 'url(#sim-cvd)';
}"""


def test_patterns_on_routes_and_cards(page: Any, server: Served) -> None:
    game_id, token = create_game(server.base, "europe", seed=3)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    click_and_wait(page, "#keep-tickets")
    assert page.locator("svg.board .space-pattern").first.is_hidden()  # off by default
    page.locator("#patterns-toggle").check()
    # every space of a coloured route has its colour's pattern; gray routes stay plain
    spaces = page.evaluate("""() => [...document.querySelectorAll('svg.board g.route')].map((g) => [g.dataset.color,
        g.querySelectorAll('g.space').length,
        [...g.querySelectorAll('.space-pattern')].filter((p) => getComputedStyle(p).display !== 'none'
          && p.getAttribute('fill') === `url(#pat-${g.dataset.color})`).length])""")
    for color, n, patterned in spaces:
        assert patterned == (0 if color == "gray" else n), (color, n, patterned)
    # one pattern per colour, each drawn differently (yellow and black share dots: dark on light, light on dark)
    tiles = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('svg.board pattern')]
        .map((p) => [p.id, p.innerHTML]))""")
    colours = {c for c, _, _ in spaces if c != "gray"}
    assert {f"pat-{c}" for c in colours} <= set(tiles)
    assert len(set(tiles.values())) == len(tiles)
    # the card chips of the draw and the hand carry the same patterns
    chips = page.evaluate("""() => [...document.querySelectorAll('#draw .swatch, #hand .swatch')].map((s) => {
        const layer = s.querySelector('.swatch-pattern');
        return [s.parentNode.dataset.card, layer ? getComputedStyle(layer).display : null,
                layer ? getComputedStyle(layer).backgroundImage : ''];
    })""")
    assert chips
    backgrounds: dict[str, str] = {}
    for card, display, background in chips:
        if card in ("locomotive", "gray"):
            continue  # the wild card has its own rainbow
        assert display == "block" and "gradient" in background, (card, display)
        backgrounds[card] = background
    assert len(set(backgrounds.values())) == len(backgrounds)
    shot(page, "patterns", full_page=False)
    page.evaluate("document.documentElement.style.filter = 'grayscale(1)'")
    shot(page, "patterns-grayscale", full_page=False)
    page.evaluate(SIMULATE, DEUTERANOPIA)
    shot(page, "patterns-deuteranopia", full_page=False)
    page.evaluate("document.documentElement.style.filter = ''")
    page.reload()  # the setting is remembered
    page.wait_for_selector("main[data-version]")
    assert page.locator("#patterns-toggle").is_checked()
    assert page.locator("svg.board .space-pattern").first.is_visible()
