"""Driving the page like a person: create games through the API, open a seat, act by clicking."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from websockets.sync.client import connect

from ttr.maps import load_map

BOT_LEVEL = "greedy"  # fast, and a real opponent


def api(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """A JSON call to the server (POST when there is a body)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as res:
        return json.load(res)


def create_game(base: str, map_name: str = "europe", seed: int = 1, bots: int = 1, level: str = BOT_LEVEL,
                name: str = "Ana") -> tuple[str, str]:
    """A game of one person (seat 0) against bots, with a fixed seed and no bot delay: (game id, token)."""
    seats = [{"type": "human", "name": name}] + [{"type": "bot", "level": level} for _ in range(bots)]
    game = api(base, "/api/games", {"map": map_name, "seed": seed, "bot_delay": 0, "seats": seats})
    return game["id"], game["seats"][0]["token"]


def open_seat(page: Any, base: str, game_id: str, token: str, seat: int = 0) -> None:
    """Open a seat's invite link and wait for the first state."""
    page.goto(f"{base}/#/play/{game_id}/{seat}/{token}")
    page.wait_for_selector("main[data-version]")


def state(page: Any) -> tuple[str, str, bool]:
    """(phase, version, whether it is this seat's turn) as the page shows them."""
    phase, version, mine = page.evaluate(
        "() => { const d = document.querySelector('main').dataset; return [d.phase, d.version, d.myTurn]; }")
    return phase, version, mine == "1"


def wait_turn(page: Any, after_version: str | None = None) -> None:
    """Wait until it is this seat's turn (after `after_version`, if given) or the game is over."""
    old = json.dumps(after_version)
    page.wait_for_function(
        f"() => {{ const m = document.querySelector('main'); return m.dataset.version !== undefined"
        f" && ({old} === null || m.dataset.version !== {old})"
        f" && (m.dataset.myTurn === '1' || m.dataset.phase === 'game_over'); }}", timeout=120000)


def click_and_wait(page: Any, selector: str) -> None:
    """Click something that sends an action, then wait for the next turn of this seat (or the end)."""
    _, version, _ = state(page)
    page.locator(selector).first.click()
    wait_turn(page, version)


def claim_first(page: Any, tunnel: bool | None = None, longest: bool = False) -> bool:
    """Claim the first claimable route from the route list (only tunnels / only non-tunnels if asked; the
    longest first if asked)."""
    routes = page.eval_on_selector_all(
        "#route-list button[data-act=claim]",
        "els => els.map(e => {"
        " const g = document.querySelector(`svg.board g.route[data-route=\"${e.dataset.route}\"]`);"
        " return [e.dataset.route, g.classList.contains('tunnel'), Number(g.dataset.length)]; })")
    if longest:
        routes.sort(key=lambda r: -r[2])
    for name, is_tunnel, _ in routes:
        if tunnel is None or is_tunnel == tunnel:
            page.evaluate("document.getElementById('route-list').open = true")
            page.locator(f"#route-list button[data-route={json.dumps(name)}]").click()
            click_and_wait(page, "#claim-confirm")
            return True
    return False


def draw_something(page: Any) -> None:
    """Draw a card (the deck, else the first face-up card that may be taken), else tickets, else pass."""
    if page.locator("#draw-deck:enabled").count():
        click_and_wait(page, "#draw-deck")
    elif page.locator("#draw button[data-act=face-up]:enabled").count():
        click_and_wait(page, "#draw button[data-act=face-up]:enabled")
    elif page.locator("#pass-button").count():
        click_and_wait(page, "#pass-button")
    else:
        click_and_wait(page, "#draw-tickets")


def play_one(page: Any, prefer_tunnels: bool = False, pay: bool = True, longest: bool = False) -> str:
    """One action of a simple policy: keep offered tickets, pay tunnels (or give up), claim when possible,
    else draw. Returns the phase it acted in."""
    phase, _, mine = state(page)
    assert mine, "not this seat's turn"
    if phase == "choose_tickets":
        click_and_wait(page, "#keep-tickets")
    elif phase == "tunnel_payment":
        if pay and page.locator("#action-panel button[data-act=pay]").count():
            click_and_wait(page, "#action-panel button[data-act=pay]")
        else:
            click_and_wait(page, "#abandon-tunnel")
    else:
        only = False if prefer_tunnels else None
        claimed = phase == "main" and (
            (prefer_tunnels and claim_first(page, tunnel=True)) or claim_first(page, only, longest=longest))
        if not claimed:
            draw_something(page)
    return phase


def play_to_end(page: Any, limit: int = 400) -> int:
    """Play this seat until the game is over; the number of actions taken."""
    for n in range(limit):
        phase, _, _ = state(page)
        if phase == "game_over":
            return n
        play_one(page, longest=True)
    raise AssertionError(f"the game did not end in {limit} actions")



def longest_claim(legal: list[dict[str, Any]], lengths: dict[str, int]) -> int:
    """The catalogue id of a simple policy's choice from `legal`: pay a tunnel, claim the longest route, draw
    from the deck, else the first action offered (a ticket choice keeps its first set)."""
    def rank(entry: dict[str, Any]) -> tuple[int, int]:
        action = entry["action"]
        kind = action["action"]
        if kind == "pay_tunnel":
            return (0, 0)
        if kind == "claim_route":
            return (1, -lengths[action["route"]])
        if kind == "draw_card" and action.get("from") == "deck":
            return (2, 0)
        return (3, 0)
    return int(min(legal, key=rank)["id"])


def deck_only(legal: list[dict[str, Any]], lengths: dict[str, int]) -> int:
    """The catalogue id of a policy that gathers cards: draw from the deck, else the first action offered."""
    deck = [e for e in legal if e["action"]["action"] == "draw_card" and e["action"].get("from") == "deck"]
    return int((deck or legal)[0]["id"])


Policy = Callable[[list[dict[str, Any]], dict[str, int]], int]


Until = Callable[[dict[str, Any], list[dict[str, Any]]], bool]


def play_by_socket(base: str, game_id: str, token: str | list[str], map_name: str, until: Until,
                   policy: Policy = longest_claim, limit: int = 400) -> dict[str, Any]:
    """Play the seat of `token` (or each seat of a list of tokens) over the game's WebSocket, as a page does
    without one, by `policy` until one of them is to move with a view and legal list for which
    `until(view, legal)` holds: that message (`version`, `view`, `legal`, ...). For tests whose subject is a
    later part of the game: the page opened afterwards plays on from there."""
    tokens = [token] if isinstance(token, str) else token
    return play_joined(base, game_id, [({"type": "join", "token": t}, {}) for t in tokens], map_name, until, policy,
                       limit)


def play_accounts_by_socket(base: str, game_id: str, seats: list[tuple[int, str]], map_name: str, until: Until,
                            policy: Policy = longest_claim, limit: int = 400) -> dict[str, Any]:
    """`play_by_socket` for seats joined by account: each (seat, the `Cookie` header of its logged-in page); the
    sockets come from the server's own origin, as its pages' do."""
    return play_joined(base, game_id, [({"type": "join", "seat": seat}, {"Cookie": cookie, "Origin": base})
                                     for seat, cookie in seats],
                       map_name, until, policy, limit)


def play_joined(base: str, game_id: str, joins: list[tuple[dict[str, Any], dict[str, str]]], map_name: str,
                until: Until, policy: Policy = longest_claim, limit: int = 400) -> dict[str, Any]:
    """`play_by_socket` for sockets that each send their `join` message with their own extra headers."""
    lengths = {r.name: r.length for r in load_map(map_name).routes}
    with ExitStack() as stack:
        sockets = [stack.enter_context(connect(base.replace("http", "ws", 1) + f"/ws/{game_id}",
                                               additional_headers=headers)) for _, headers in joins]
        seats: dict[int, Any] = {}
        pending: dict[Any, dict[str, Any]] = {}  # each socket's snapshot, read before the moves
        newest, to_move = -1, -1
        for ws, (join, _) in zip(sockets, joins, strict=True):
            ws.send(json.dumps(join))
            while True:
                msg = json.loads(ws.recv(timeout=60))
                if msg.get("type") == "snapshot":
                    seats[msg["seat"]] = ws
                    pending[ws] = msg
                    if msg["version"] > newest:
                        newest, to_move = msg["version"], msg["view"]["turn"]["player"]
                    break
        for _ in range(limit):
            while True:  # read the socket of the seat to move (if it is one of these), until it may act
                ws = seats.get(to_move, sockets[0])
                msg = pending.pop(ws, None) or json.loads(ws.recv(timeout=60))
                if msg.get("type") not in ("snapshot", "update"):
                    continue
                if msg["view"]["status"] != "in_progress":
                    raise AssertionError("the game ended before the position asked for")
                if msg["version"] > newest:
                    newest, to_move = msg["version"], msg["view"]["turn"]["player"]
                if msg["legal"] and msg["version"] == newest:  # only the seat to move is sent its legal list
                    break
            if until(msg["view"], msg["legal"]):
                return dict(msg)
            ws.send(json.dumps({"type": "action", "version": msg["version"], "id": policy(msg["legal"], lengths)}))
    raise AssertionError(f"the game did not reach the position asked for in {limit} actions")
