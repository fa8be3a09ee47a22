"""`scripts/departures.py`: the real tickets are put into a sampled world without losing or doubling one
(a displaced ticket takes the real one's place: in Europe, among the long tickets set aside at setup)."""

from __future__ import annotations

import random
from collections import Counter
from types import ModuleType

import pytest

from helpers import greedy_main_turn, load_module
from ttr.engine import Game, seat_view
from ttr.engine.sample import InfoSet


def load_script() -> ModuleType:
    return load_module("scripts/departures.py", "departures")


def every_ticket(game: Game) -> Counter[int]:
    return Counter([t for hand in game.tickets for t in hand] + list(game.ticket_deck) + list(game.offered))


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
