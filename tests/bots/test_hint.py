"""`ttr.bots.hint`: the move the hint bot would make, legal, with a reason in words that fits the move, and
the same reason as data to translate (a key of `REASONS` and the values of its placeholders)."""

from __future__ import annotations

import json
import os
import random
import string
from pathlib import Path
from typing import Any

import pytest

from helpers import give_route, logging_program, set_hand, set_tickets, stack_deck, started
from ttr.bots import hint as hint_module
from ttr.bots import make_bot
from ttr.bots.base import Bot
from ttr.bots.hint import LIST_PARAMS, REASONS, explain, explain_reason, hint, hint_bot, hint_explained, reason_text
from ttr.bots.mcts import MctsExpert
from ttr.engine import Action, Game, SeatView
from ttr.engine.phases import MAIN
from ttr.maps import load_map

OPENINGS = {
    "keep_tickets": "Keep",
    "draw_tickets": "",
    "claim_route": "Claim ",
    "build_station": "A station in ",
    "pay_tunnel": "Pay ",
    "abandon_tunnel": "Abandon ",
    "pass": "No other action",
}


EXPLAINED_BOT = "greedy_long"  # the search's guide: whole games of hints at once (the search is the default)


@pytest.mark.parametrize(("map_name", "players", "seed"), [("europe", 3, 4), ("new_york", 2, 1)])
def test_hints_follow_the_bot_asked_with_a_reason(map_name: str, players: int, seed: int) -> None:
    game_map = load_map(map_name)
    game = Game.new(game_map, players, seed=seed)
    rng = random.Random(seed)
    kinds = set()
    keys: set[str] = set()
    while not game.is_over:
        view = SeatView.of(game, game.current)
        legal = game.legal_actions()
        action, reason = hint(view, legal, bot=EXPLAINED_BOT)
        assert action in legal
        assert action == make_bot(EXPLAINED_BOT, game_map, game.current, 0).choose(view, legal)
        same, text, data = hint_explained(view, legal, bot=EXPLAINED_BOT)
        assert (same, text) == (action, reason)
        check_reason_data(data, text)
        keys.add(data["key"])
        assert reason.endswith(".") and len(reason) < 200
        if action.kind == "draw_card":
            expected = "Draw from the deck" if action.source == "deck" else f"Take the face-up {action.card}"
            assert reason.startswith(expected)
        else:
            assert reason.startswith(OPENINGS[action.kind])
        if action.kind == "claim_route":
            assert action.route is not None and action.route in reason
        kinds.add(action.kind)
        # Play on with a mix of the hint and random moves so that positions vary.
        game.apply(action if rng.random() < 0.7 else rng.choice(legal))
    assert {"keep_tickets", "claim_route", "draw_card"} <= kinds
    assert len(keys) >= 5, keys


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def check_reason_data(data: dict[str, Any], text: str) -> None:
    """A reason's data: a known key, exactly that key's placeholders, JSON, and the English text made from it."""
    assert data["key"] in REASONS
    assert set(data) - {"key"} == placeholders(REASONS[data["key"]])
    assert json.loads(json.dumps(data)) == data
    for name in LIST_PARAMS:
        if name in data:
            assert data[name] and all(isinstance(x, str) for x in data[name])
    assert reason_text(data) == text


def test_reason_templates_are_sentences_with_known_placeholders() -> None:
    known = {"route", "routes", "tickets", "city", "card", "pieces", "n", "length", "points"}
    for key, template in REASONS.items():
        assert key.startswith("hint.") and template.endswith(".")
        assert placeholders(template) <= known, key


def test_reason_text_fills_names_and_lists() -> None:
    data = {"key": "hint.claim_completes", "route": "Chelsea-Soho", "length": 4, "pieces": "taxis", "points": 7,
            "tickets": ["Chelsea-Wall Street", "Soho-Times Square", "Brooklyn-Chelsea"]}
    assert reason_text(data) == ("Claim Chelsea-Soho (4 taxis, +7 pts): it completes Chelsea-Wall Street, "
                                 "Soho-Times Square and Brooklyn-Chelsea.")
    assert reason_text({"key": "hint.station", "city": "Wien"}) == "A station in Wien keeps your tickets within reach."


def test_a_claim_that_completes_a_ticket_says_so() -> None:
    game_map = load_map("new_york")
    game = Game.new(game_map, 2, seed=1)
    while not game.is_over:
        view = SeatView.of(game, game.current)
        legal = game.legal_actions()
        action, reason, data = hint_explained(view, legal, bot=EXPLAINED_BOT)
        if "completes" in reason:
            assert action.kind == "claim_route"
            assert data["key"] == "hint.claim_completes" and data["route"] == action.route
            assert all(t in reason for t in data["tickets"])
            return
        game.apply(action)
    pytest.fail("no hint completed a ticket in a whole game of hints")


def test_keep_reason_names_the_tickets() -> None:
    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=9)
    action, reason, data = hint_explained(SeatView.of(game, 0), game.legal_actions())
    assert action.kind == "keep_tickets"
    assert all(t in reason for t in action.tickets)
    assert "trains" in reason
    assert data["key"] in ("hint.keep_all", "hint.keep_some") and data["tickets"] == list(action.tickets)
    assert data["points"] == sum(game_map.ticket(t).points for t in action.tickets)


@pytest.mark.parametrize(("map_name", "players", "seed", "every"), [("europe", 2, 3, 40), ("new_york", 3, 2, 23)])
def test_the_default_hint_is_the_expert_search_and_the_same_every_time(monkeypatch: pytest.MonkeyPatch,
                                                                        map_name: str, players: int,
                                                                        seed: int, every: int) -> None:
    """Without `bot=`, the hint is the `expert` search's move on its playout budget (no clock), so asking
    twice, or asking the hint bot directly, gives the same move after the same work (playouts and their actions:
    a search on another seed, even where it picks the same move, plays other playouts); and it comes with a
    reason that fits it. Asked every `every` steps: 3 positions spread over the game (a Europe game is about
    twice as long)."""
    made: list[Bot] = []  # the bots the hint asks

    def recorded(*args: Any, **kwargs: Any) -> Bot:
        made.append(hint_bot(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(hint_module, "hint_bot", recorded)
    game_map = load_map(map_name)
    game = Game.new(game_map, players, seed=seed)
    players_bots = [make_bot("greedy", game_map, s, s) for s in range(players)]
    asked = 0
    for step in range(400):
        if game.is_over:
            break
        view = SeatView.of(game, game.current)
        legal = game.legal_actions()
        if step % every == 0 and len(legal) > 1:
            action, text, data = hint_explained(view, legal)
            assert action in legal
            again = hint_bot(game_map, game.current, seats=players)
            assert action == again.choose(view, legal)  # a second search, the same move
            asked_bot = made[-1]
            assert isinstance(asked_bot, MctsExpert) and isinstance(again, MctsExpert)
            assert (asked_bot.last_iterations, asked_bot.last_actions) == (again.last_iterations, again.last_actions)
            assert again.last_actions > 0
            assert (text, data) == (explain(game_map, view, action), explain_reason(game_map, view, action))
            check_reason_data(data, text)
            asked += 1
        game.apply(players_bots[game.current].choose(view, legal))
    assert asked == 3


def test_a_claim_off_the_plan_that_another_seat_likely_needs_is_called_a_block() -> None:
    """Claims on the seat's own plan say whose ticket they serve; a claim off it that lies on the likely
    paths of the other seat's tickets (by its claims so far) by a train or more says so; one far from both is
    a long route."""
    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=5)
    bots = [make_bot("greedy", game_map, s, s) for s in range(2)]
    keys: dict[str, set[str]] = {}
    for step in range(400):
        if game.is_over:
            break
        view = SeatView.of(game, game.current)
        legal = game.legal_actions()
        if game.current == 0 and game.phase == MAIN and step >= 30 and step % 6 == 0:
            for action in {a.route: a for a in legal if a.kind == "claim_route"}.values():
                data = explain_reason(game_map, view, action)
                check_reason_data(data, reason_text(data))
                keys.setdefault(data["key"], set()).add(action.route or "")
        game.apply(bots[game.current].choose(view, legal))
    assert keys.get("hint.claim_block") and keys.get("hint.claim_long"), keys
    assert "Essen-Kobenhavn/1" in keys["hint.claim_block"]  # 2.6 trains more for the other seat (seed 5)


def test_a_program_asked_for_a_hint_is_closed_after_its_answer(tmp_path: Path) -> None:
    """`hint(..., bot="cmd:...")` asks the program once (hello, one decide) and closes it: no process left."""
    command, log = logging_program(tmp_path)
    game = Game.new(load_map("new_york"), 2, seed=3)
    view = SeatView.of(game, game.current)
    legal = game.legal_actions()
    action, reason = hint(view, legal, bot=f"cmd:{command}")
    assert action == legal[0] and reason  # the logging program answers the first legal action
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["type"] for e in entries] == ["hello", "decide"]
    with pytest.raises(ProcessLookupError):
        os.kill(entries[0]["pid"], 0)


def _two_hop_ticket(game_map: Any) -> tuple[str, str, str, str]:
    """A ticket a-b of the map with a city c joined to both by a route: (ticket, route a-c, route c-b, c)."""
    by_pair = {frozenset((r.a, r.b)): r.name for r in game_map.routes}
    for t in game_map.tickets:
        for c in (city.name for city in game_map.cities):
            first, second = by_pair.get(frozenset((t.a, c))), by_pair.get(frozenset((c, t.b)))
            if first and second:
                return t.name, first, second, c
    raise AssertionError("no two-route ticket on the map")


def test_ticket_draw_station_and_pass_reasons_fit_the_position() -> None:
    """The reasons the whole-game test seldom meets: a ticket draw (tickets done or not), a station that
    completes a ticket through another seat's route (or merely keeps them in reach), a pass."""
    game_map = load_map("europe")
    game = started("europe", 2, seed=5)
    ticket, first, second, middle = _two_hop_ticket(game_map)
    set_tickets(game, 0, [ticket])
    draw_tickets = Action.from_json({"action": "draw_tickets"})
    assert explain_reason(game_map, SeatView.of(game, 0), draw_tickets) == {"key": "hint.draw_tickets_more"}
    give_route(game, 0, first)
    give_route(game, 1, second)
    view = SeatView.of(game, 0)
    station = explain_reason(game_map, view, Action.from_json({"action": "build_station", "city": middle,
                                                               "cards": {"red": 1}}))
    assert station == {"key": "hint.station_completes", "city": middle, "tickets": [ticket]}
    elsewhere = next(c.name for c in game_map.cities if c.name not in ticket.split("-") and c.name != middle)
    plain = explain_reason(game_map, view, Action.from_json({"action": "build_station", "city": elsewhere,
                                                             "cards": {"red": 1}}))
    assert plain == {"key": "hint.station", "city": elsewhere}
    set_tickets(game, 0, [])
    assert explain_reason(game_map, SeatView.of(game, 0), draw_tickets) == {"key": "hint.draw_tickets_done"}
    passing = explain_reason(game_map, SeatView.of(game, 0), Action.from_json({"action": "pass"}))
    assert reason_text(passing) == "No other action is possible: pass."


def test_an_abandoned_tunnel_is_named() -> None:
    game_map = load_map("europe")
    game = started("europe", 2, seed=5)
    seat = game.current
    set_hand(game, seat, {"orange": 3})
    stack_deck(game, ["orange", "orange", "orange"])
    game.apply(Action.from_json({"action": "claim_route", "route": "Angora-Smyrna", "cards": {"orange": 3}}))
    legal = game.legal_actions()
    assert [a.kind for a in legal] == ["abandon_tunnel"]  # three extra orange cards, none in hand
    data = explain_reason(game_map, SeatView.of(game, seat), legal[0])
    assert data == {"key": "hint.abandon_tunnel", "route": "Angora-Smyrna"}
    assert reason_text(data).startswith("Abandon Angora-Smyrna:")


def test_reasons_name_the_ticket_a_card_serves_and_call_only_long_routes_long() -> None:
    """A face-up card taken for routes names the ticket those routes serve; a claim called "long" is one of
    `LONG_ROUTE` spaces or more (a shorter one is "points while you have the cards")."""
    from ttr.bots.hint import LONG_ROUTE

    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=7)
    bots = [make_bot("greedy", game_map, s, s) for s in range(2)]
    seen: dict[str, list[dict[str, Any]]] = {}
    for _ in range(300):
        if game.is_over:
            break
        view = SeatView.of(game, game.current)
        legal = game.legal_actions()
        if game.current == 0 and game.phase == MAIN:
            # a claim's reason names its route, never its cards: one claim per route
            claims = {a.route: a for a in legal if a.kind == "claim_route"}
            for action in [*claims.values(), *(a for a in legal if a.kind == "draw_card")]:
                data = explain_reason(game_map, view, action)
                check_reason_data(data, reason_text(data))
                seen.setdefault(data["key"], []).append(data)
        game.apply(bots[game.current].choose(view, legal))
    assert seen.get("hint.take_for_ticket"), sorted(seen)
    mine = set()
    for data in seen["hint.take_for_ticket"]:
        assert data["tickets"] and data["routes"]
        mine.update(data["tickets"])
    assert all(t in game_map.ticket_index for t in mine)
    assert all(d["length"] >= LONG_ROUTE for d in seen.get("hint.claim_long", []))
    assert all(d["length"] < LONG_ROUTE for d in seen.get("hint.claim_points", []))
    assert seen.get("hint.claim_points") or seen.get("hint.claim_long"), sorted(seen)
