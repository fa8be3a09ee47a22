"""Blocking claims judged on sampled worlds (`ttr.bots.blocking`) and the search's use of them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from helpers import give_route, set_tickets
from ttr.bots.blocking import world_block_damage
from ttr.bots.mcts import MctsBot
from ttr.bots.mcts_policy import route_costs
from ttr.bots.planning import map_index, shortest_path
from ttr.bots.playout import GreedyPlayout
from ttr.engine import Game
from ttr.engine import actions as A
from ttr.engine.phases import MAIN
from ttr.engine.views import SeatView
from ttr.maps import load_map


def world_with(players: int, tickets: list[str], owned: list[str]) -> Game:
    """A Europe game of `players` seats in its first main turn, seat 1 holding `tickets` and `owned` routes,
    seat 0 no tickets."""
    game_map = load_map("europe")
    game = Game.new(game_map, players, seed=1)
    while game.phase != MAIN:
        game.apply(game.legal_actions()[0])
    set_tickets(game, 0, [])
    set_tickets(game, 1, tickets)
    for name in owned:
        give_route(game, 1, name)
    return game


def test_a_claim_on_another_seats_path_counts_its_detour() -> None:
    """Seat 1 holds Berlin-Bucuresti and has laid Berlin-Wien: a route still on its cheapest path counts the
    detour it forces; in a two-player game so does the other track of a double route on it (it closes with
    the claim), not with four seats; a route far away counts nothing."""
    game_map = load_map("europe")
    route = game_map.route
    on_path, track = route("Bucuresti-Budapest").index, route("Budapest-Wien/red").index
    other_track, far = game_map.routes[track].twin, route("Moskva-Smolensk").index
    two = world_with(2, ["Berlin-Bucuresti"], ["Berlin-Wien"])
    ix = map_index(game_map)
    costs = route_costs(two, 1)
    ticket = game_map.ticket("Berlin-Bucuresti").index
    base, path = shortest_path(ix, costs, ix.ticket_a[ticket], ix.ticket_b[ticket])
    assert on_path in path and track in path
    costs[on_path] = float("inf")
    detour = shortest_path(ix, costs, ix.ticket_a[ticket], ix.ticket_b[ticket])[0]
    damage = world_block_damage([two], 0, {on_path, other_track, far})
    assert damage[on_path] == min(detour - base, 2.0 * ix.ticket_points[ticket])
    assert damage[other_track] > 0 and far not in damage
    four = world_block_damage([world_with(4, ["Berlin-Bucuresti"], ["Berlin-Wien"])], 0, {on_path, other_track})
    assert on_path in four and other_track not in four


def test_the_damage_is_averaged_over_the_worlds() -> None:
    """A route one world's tickets need and another's do not counts half its damage over both."""
    game_map = load_map("europe")
    on_path = game_map.route("Bucuresti-Budapest").index
    needs = world_with(2, ["Berlin-Bucuresti"], ["Berlin-Wien"])
    elsewhere = world_with(2, ["Brest-Marseille"], [])
    alone = world_block_damage([needs], 0, {on_path})[on_path]
    assert world_block_damage([needs, elsewhere], 0, {on_path})[on_path] == alone / 2
    assert world_block_damage([elsewhere], 0, {on_path}) == {}
    assert world_block_damage([needs], 1, {on_path}) == {}  # a seat's own tickets are not blocked


@pytest.mark.full  # a whole search with its worlds: 20-30 s, left out of --quick
def test_the_search_adds_the_worlds_blocking_claim() -> None:
    """With `world_blocks`, a main turn of `mcts` samples `block_worlds` worlds first and adds, to the
    candidates it has without them (`world_blocks = 0`), the claim of the open route that hurts the other
    seats most on those worlds."""
    game_map = load_map("new_york")
    game = Game.new(game_map, 2, seed=4)  # a deal with such claims (seed 3 has none)
    playout = GreedyPlayout(game_map, 2, 1)
    seen = 0
    for _ in range(300):
        if game.is_over or seen >= 3:
            break
        if game.current == 0 and game.phase == MAIN and 1 in game.owner:
            view, legal = SeatView.of(game, 0), game.legal_actions()
            bot = MctsBot(game_map, 0, 1, iterations=40)
            # two-seat New York weighs every claim (`wide_claims`): narrow it, so one is left to add
            bot.config = replace(bot.config, world_blocks=1, wide=3)
            captured: list[list[Game]] = []
            spy = WorldSpy(bot, captured)
            setattr(bot, "candidates", spy)  # noqa: B010  # an instance attribute: mypy refuses assigning a method
            bot.choose(view, legal)
            plain = MctsBot(game_map, 0, 1, iterations=40)
            plain.config = replace(plain.config, world_blocks=0, wide=3)
            plain.choose(view, legal)
            (worlds,) = captured
            assert len(worlds) == bot.config.block_worlds
            cat = game.cat
            routes = {cat.a[aid] for aid in plain.last_values if cat.kind[aid] == A.CLAIM}
            open_claims = {cat.a[aid] for aid in game.legal_ids() if cat.kind[aid] == A.CLAIM} - routes
            damage = world_block_damage(worlds, 0, open_claims)
            added = {cat.a[aid] for aid in set(bot.last_values) - set(plain.last_values)}
            assert set(plain.last_values) <= set(bot.last_values)
            if damage:
                assert added == {min(damage, key=lambda r: (-damage[r], r))}
                seen += 1
            else:
                assert not added
        game.apply_unchecked(playout.choose_id(game))
    assert seen > 0


class WorldSpy:
    """Wraps `MctsBot.candidates` to keep the worlds it is given."""

    def __init__(self, bot: MctsBot, captured: list[list[Game]]) -> None:
        self.candidates = bot.candidates
        self.captured = captured

    def __call__(self, *args: object) -> list[int]:
        worlds = args[6]
        assert isinstance(worlds, list)
        self.captured.append(worlds)
        return self.candidates(*args)  # type: ignore[arg-type]
