"""`research/departures.py`: the real tickets are put into a sampled world without losing or doubling one
(a displaced ticket takes the real one's place: in Europe, among the long tickets set aside at setup)."""

from __future__ import annotations

import random
from collections import Counter
from types import ModuleType

import pytest

from helpers import greedy_main_turn, load_module
from ttr.engine import Game, seat_view
from ttr.engine.sample import InfoSet
from ttr.maps import load_map


def load_script() -> ModuleType:
    return load_module("research/departures.py", "departures")


def every_ticket(game: Game) -> Counter[int]:
    return Counter([t for hand in game.tickets for t in hand] + list(game._ticket_deck) + list(game.offered))


@pytest.mark.parametrize(("map_name", "players"), [("europe", 2), ("new_york", 3)])
def test_the_real_tickets_replace_the_sampled_ones_and_every_ticket_stays_once(map_name: str, players: int) -> None:
    script = load_script()
    game_map, game = greedy_main_turn(map_name, players, seed=3, seat=0, after=12)
    info = InfoSet(game_map, seat_view(game, 0))
    rng = random.Random(1)
    changed = 0
    for _ in range(20):
        world = info.sample(rng)
        before = every_ticket(world)
        changed += any(sorted(world.tickets[q]) != sorted(game.tickets[q]) for q in range(1, players))
        script.with_real_tickets(world, game, 0)
        after = every_ticket(world)
        assert max(after.values()) == 1 and after.total() == before.total()  # nothing lost, nothing doubled
        assert set(after) - set(before) <= {t for q in range(1, players) for t in game.tickets[q]}
        assert world.tickets[0] == game.tickets[0]  # the seat's own tickets are as they were (known)
        for q in range(1, players):
            assert sorted(world.tickets[q]) == sorted(game.tickets[q])
    assert changed  # the sampled worlds did deal other tickets, so the swap was tested


def test_a_departure_kind_says_where_a_card_comes_from() -> None:
    kind = load_script().kind
    assert kind({"action": "draw_card", "from": "deck"}) == "draw deck"
    assert kind({"action": "draw_card", "from": "face_up", "card": "red"}) == "draw face_up"
    assert kind({"action": "claim_route", "route": "Paris-Brest"}) == "claim"
    assert kind({"action": "draw_tickets"}) == "draw_tickets"


def test_positions_compare_searches_move_by_move_on_the_same_positions() -> None:
    """`--positions`: every bot decides at the same main turns of the guide's game; two copies of one search
    (same budget, same seeds) agree row by row, and a move that is the guide's is worth 0."""
    script = load_script()
    game_map = load_map("new_york")
    rows = script.position_rows(game_map, 2, 6, ["mcts:40", "mcts:40", "mcts:80"], 6, 8)
    by_bot = {spec: [r for r in rows if r["bot"] == spec] for spec in ("mcts:40", "mcts:80")}
    assert len(by_bot["mcts:40"]) == 2 * 8 and len(by_bot["mcts:80"]) == 8  # 8 turns, the first spec twice
    first, second = by_bot["mcts:40"][0::2], by_bot["mcts:40"][1::2]
    assert first == second  # the same search, the same seeds: the same moves and gains
    assert [(r["seed"], r["turn"]) for r in first] == [(r["seed"], r["turn"]) for r in by_bot["mcts:80"]]
    assert all(r["gain"] == 0.0 for r in rows if not r["departed"])
    assert any(r["departed"] and r["gain"] != 0.0 for r in by_bot["mcts:80"])  # departures were valued
    assert script.position_rows(game_map, 2, 6, ["mcts:80"], 6, 8) == by_bot["mcts:80"]  # reproducible
    report = script.position_report(rows, ["mcts:40", "mcts:80"], game_map.rules.pieces)
    assert report[0].split()[:2] == ["bot", "laid"]
    assert any(line.startswith("mcts:80 - mcts:40: ") for line in report)


def test_positions_take_only_search_bots_and_stages_follow_the_map() -> None:
    script = load_script()
    with pytest.raises(ValueError, match="'greedy' is not a search bot"):
        script.search_bot("greedy", load_map("europe"), 0, 1)
    assert script.stage_labels(45) == ["0-9", "10-19", "20-29", "30-39", "40+"]
    assert script.stage_labels(15) == ["0-2", "3-5", "6-8", "9-11", "12+"]
    assert script.stage_of(45, 45) == "40+" and script.stage_of(9, 45) == "0-9" and script.stage_of(3, 15) == "3-5"


def test_variants_are_the_search_with_knobs_and_bad_ones_are_refused_by_name() -> None:
    """`--variant NAME=JSON`: `mcts` with class knobs laid over, usable in `--positions`; a knob it lacks, a
    value of the wrong type, a knob JSON cannot set or text that is not NAME=JSON is refused by name."""
    script = load_script()
    game_map = load_map("new_york")
    name, knobs = script.parse_variant('wide={"claims": 8, "margin": 1, "iterations": 40, "time_limit": null}')
    assert (name, knobs["claims"]) == ("wide", 8)
    bot = script.search_bot("wide", game_map, 1, 7, {name: knobs})
    config = bot.config
    assert (config.claims, config.margin, config.iterations, config.time_limit, bot.name) == (8, 1, 40, None, "wide")
    assert script.search_bot("mcts", game_map, 1, 7, {name: knobs}).config.claims == 3  # the class itself is untouched
    for text, problem in [('x={"claimz": 8}', "no knob 'claimz'"), ('x={"claims": "8"}', "claims must be a whole"),
                          ('x={"belief": 1}', "belief must be true or false"),
                          ('x={"opponent_styles": 1}', "'opponent_styles' is not a number or flag"),
                          ("x=[1]", "must be a JSON object"), ("x={", "x: not JSON"), ('{"claims": 8}', "NAME=JSON"),
                          ('mcts={"claims": 8}', "a bot has that name")]:
        with pytest.raises(ValueError, match=problem):
            script.parse_variant(text)


def test_positions_from_laid_skip_the_early_turns() -> None:
    script = load_script()
    game_map = load_map("new_york")
    every = script.position_rows(game_map, 2, 5, ["mcts:30"], 4, None)
    late = script.position_rows(game_map, 2, 5, ["mcts:30"], 4, None, from_laid=6)
    assert late and len(late) < len(every)
    assert late == [r for r in every if r["laid"] >= 6]  # the same turns, numbered as in the whole game
