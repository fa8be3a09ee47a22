"""Games played by clicking against a fast bot to the final breakdown (New York from its first move, Europe
from its last turns: its opening is played over the game's socket); the replay viewer and the game record to
download."""

from __future__ import annotations

import re
from typing import Any

from .conftest import Served, shot
from .driver import api, create_game, open_seat, play_by_socket, play_one, play_to_end, state, wait_turn


def breakdown(page: Any) -> dict[str, list[str]]:
    """The final table as the page shows it: row key -> one cell per player."""
    rows: dict[str, list[str]] = {}
    for row in page.locator("#breakdown tbody tr").all():
        rows[row.get_attribute("data-row")] = [cell.inner_text() for cell in row.locator("td").all()]
    return rows


def final_of(server: Served, game_id: str) -> dict[str, Any]:
    """The final breakdown as the server tells a spectator (the replay's last step)."""
    first = api(server.base, f"/api/games/{game_id}/replay/0")
    last = api(server.base, f"/api/games/{game_id}/replay/{first['steps']}")
    final: dict[str, Any] = last["view"]["final"]
    final["steps"] = first["steps"]
    return final


def test_new_york_to_the_end_then_replay_and_record(page: Any, server: Served) -> None:
    game_id, token = create_game(server.base, "new_york", seed=8)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    play_to_end(page)
    page.wait_for_selector("#breakdown")
    final = final_of(server, game_id)
    rows = breakdown(page)
    assert rows["final.total"] == [str(p["total"]) for p in final["players"]]
    assert rows["final.routes"] == [str(p["route_points"]) for p in final["players"]]
    assert [c.split("\n")[0] for c in rows["final.attractions"]] == [str(p["attractions"]) for p in final["players"]]
    assert "final.express" not in rows and "final.borrowed" not in rows  # New York has neither
    # bots by their level, in the page's language (the server names them "Bot 2 (greedy)")
    names = [p["name"] if i == 0 else f"greedy bot {i + 1}" for i, p in enumerate(final["players"])]
    winners = ", ".join(names[s] for s in final["winner_seats"])
    # the result opens above the board, as wide as the board, scrolled into view
    placed = page.evaluate("""() => { const f = document.getElementById('final').getBoundingClientRect();
        const b = document.getElementById('board').getBoundingClientRect();
        return [Boolean(document.querySelector('.board-col #final')), f.width / b.width, f.top, f.bottom, b.top,
                window.innerHeight]; }""")
    assert placed[0] and placed[1] > 0.95 and placed[2] < placed[4], placed
    assert 0 <= placed[2] < placed[5] / 2, placed
    assert page.locator("#winners").inner_text() in (f"Winner: {winners}", f"Winners (tied): {winners}")
    assert page.locator("#turn").inner_text() == "The game is over."
    # English counts agree with their nouns: "kept 1 destination ticket", "1 space"
    kept = re.findall(r"kept (\d+) destination (tickets?)\.", page.locator("#log-list").inner_text())
    assert kept and all((n == "1") == (word == "ticket") for n, word in kept)
    labels = page.eval_on_selector_all("svg.board g.route",
                                       "els => els.map(e => [e.dataset.length, e.getAttribute('aria-label')])")
    assert any(length == "1" for length, _ in labels)
    for length, label in labels:
        assert f", {length} space{'' if length == '1' else 's'}," in label
    shot(page, "final-new-york")
    # the record to download
    href = page.locator("#download-record").get_attribute("href")
    record = page.request.get(server.base + href).json()
    assert record["format"] == "ttr-record/1" and record["map"] == "new_york" and record["seed"] == 8
    assert len(record["actions"]) == final["steps"]
    # the replay viewer steps through the game
    page.click("#open-replay")
    page.wait_for_selector("#replay-status")
    page.wait_for_function("document.getElementById('replay-status').textContent.startsWith('Step 0 of')")
    assert page.locator("#replay-prev").is_disabled()
    page.click("#replay-next")
    page.wait_for_function("document.getElementById('replay-status').textContent.startsWith('Step 1 of')")
    assert re.search(r"Step 1 of \d+ · Ana kept 1 destination tickets?\.|Step 1 of \d+ · Ana kept",
                     page.locator("#replay-status").inner_text())
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.getElementById('replay-status').textContent.startsWith('Step 2 of')")
    page.evaluate("document.activeElement.blur()")  # the arrow keys step with the focus nowhere in particular,
    for _ in range(3):  # and each press counts, even before the step before it has arrived
        page.keyboard.press("ArrowRight")
    page.wait_for_function("document.getElementById('replay-status').textContent.startsWith('Step 5 of')")
    # the route claimed by the step shown is outlined on the board
    k = next(i for i, a in enumerate(record["actions"]) if a["action"] == "claim_route")
    page.evaluate(f"(() => {{ const s = document.getElementById('replay-slider'); s.value = '{k + 1}';"
                  " s.dispatchEvent(new Event('change')); })()")
    page.wait_for_function(f"document.getElementById('replay-status').textContent.startsWith('Step {k + 1} of')")
    outlined = page.eval_on_selector_all("svg.board g.route.last-move", "els => els.map(e => e.dataset.route)")
    assert outlined == [record["actions"][k]["route"]]
    page.click("#replay-last")
    steps = final["steps"]
    page.wait_for_function(f"document.getElementById('replay-status').textContent.startsWith('Step {steps} of')")
    page.wait_for_selector("#breakdown")
    assert breakdown(page)["final.total"] == rows["final.total"]
    last = api(server.base, f"/api/games/{game_id}/replay/{steps}")
    owned = sum(len(p["routes"]) for p in last["view"]["players"])
    assert page.locator("svg.board g.route.taken").count() == owned
    shot(page, "replay")
    # in the lobby, the game is among yours as finished, with its replay
    page.goto(server.base + "/#/")
    page.wait_for_selector(f'#your-games li[data-game="{game_id}"] .game-status a')
    status = page.locator(f'#your-games li[data-game="{game_id}"] .game-status')
    assert status.locator(".tag").inner_text() == "finished" and status.locator("a").inner_text() == "Replay"


def test_europe_to_the_end_with_the_express_path(page: Any, server: Served) -> None:
    game_id, token = create_game(server.base, "europe", seed=6)
    # the opening over the socket (the New York game above plays one through the page), the last turns here
    play_by_socket(server.base, game_id, token, "europe",
                   lambda view, _: min(p["trains"] for p in view["players"]) <= 8)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    warnings: list[tuple[str, list[int]]] = []  # the final-round line on each of this seat's turns, and the trains
    for _ in range(400):
        if state(page)[0] == "game_over":
            break
        banner = page.locator("#final-round")
        if banner.is_visible():
            trains = [int(x) for x in page.eval_on_selector_all("#players tbody tr td:nth-child(3)",
                                                                "els => els.map(e => e.textContent)")]
            warnings.append((banner.inner_text(), trains))
            if len(warnings) == 1:
                shot(page, "final-round")
        play_one(page, longest=True)
    # the final round is announced on this seat's last turn, once someone is down to 2 trains or fewer: the
    # last turn of the game, or (the bot ended it) this one and the bot's
    assert warnings and warnings[-1][0] in (
        "Final round! This is the last turn of the game.",
        "Final round! 2 turns left, this one included: everyone plays one last turn.")
    assert all(min(trains) <= 2 for _, trains in warnings)
    page.wait_for_selector("#breakdown")
    assert page.locator("#final-round").is_hidden()
    final = final_of(server, game_id)
    rows = breakdown(page)
    assert rows["final.total"] == [str(p["total"]) for p in final["players"]]
    assert rows["final.express"] == [str(p["express_bonus"]) for p in final["players"]]
    assert rows["final.longest"] == [str(p["longest_path"]) for p in final["players"]]
    kept = [f"{p['stations_unbuilt']} (+{p['station_points']})" for p in final["players"]]
    assert rows["final.stations_kept"] == kept
    for p, cell in zip(final["players"], rows["final.tickets_failed"], strict=True):
        assert cell.count("–") == max(1, len(p["tickets_failed"]))  # one "A – B" per ticket, or a dash
    # the seat's own ticket list agrees with the final scoring: done or failed, none left "not yet"
    marks = dict(page.eval_on_selector_all("#ticket-list li", "els => els.map(e => [e.dataset.ticket, "
                                                              "e.querySelector('.state').textContent])"))
    mine = final["players"][0]
    assert marks == {**dict.fromkeys(mine["tickets_completed"], "done"),
                     **dict.fromkeys(mine["tickets_failed"], "failed")}
    # the European Express path is highlighted on the board
    on_path = set(page.eval_on_selector_all("svg.board g.route.on-path", "els => els.map(e => e.dataset.route)"))
    express = {r for p in final["players"] if p["express_bonus"] for r in p["longest_path_routes"]}
    assert express and on_path == express
    shot(page, "final-europe")
