"""The fast paths of greedy playouts decide exactly as greedy does from views: whole games action for
action, `game_options` equal to `sort_options`, the cached longest trails equal to the engine's, greedy's
one-pass path costs equal to `route_costs` with its adjustments, cached shortest paths equal to fresh ones,
its longest-path gain (worked out on the part a route joins) equal to the engine's trails before and after."""

from __future__ import annotations

import random

import pytest

from ttr.bots import make_bot, play_game
from ttr.bots.base import legal_actions
from ttr.bots.greedy import GreedyBot
from ttr.bots.mcts import MctsBot
from ttr.bots.mcts_policy import estimate
from ttr.bots.planning import (
    INF,
    Board,
    Options,
    game_options,
    map_index,
    plan_tickets,
    route_costs,
    sort_options,
    static_action,
    static_id,
    trail_length,
)
from ttr.bots.playout import GreedyPlayout
from ttr.engine import Game, final_score, longest_trail
from ttr.engine.phases import MAIN, SECOND_CARD
from ttr.maps import load_map


@pytest.mark.parametrize(("map_name", "players", "seeds"), [
    ("europe", 2, (0, 1, 2)), ("europe", 4, (5,)), ("new_york", 2, (0, 1, 2, 3)), ("new_york", 4, (4,)),
])
def test_playouts_are_the_games_greedy_bots_play_from_views(map_name: str, players: int,
                                                            seeds: tuple[int, ...]) -> None:
    game_map = load_map(map_name)
    names = [f"p{i}" for i in range(players)]
    for seed in seeds:
        reference = play_game(game_map, [GreedyBot(game_map, s, seed) for s in range(players)], seed=seed,
                              players=names)
        game = Game.new(game_map, names, seed=seed)
        GreedyPlayout(game_map, players, seed).run(game)
        assert game.history == reference.history
        assert final_score(game).to_json() == final_score(reference).to_json()


def _same_options(fast: Options, slow: Options) -> None:
    assert list(fast.claims.items()) == list(slow.claims.items())  # same card sets, same order
    assert list(fast.face_up.items()) == list(slow.face_up.items())
    assert (fast.draw_deck, fast.draw_tickets, fast.pass_) == (slow.draw_deck, slow.draw_tickets, slow.pass_)
    assert not fast.keeps and not fast.pays and fast.abandon is None
    assert list(fast.stations.items()) == list(slow.stations.items())  # decoded on this first read


@pytest.mark.parametrize(("map_name", "players"), [("europe", 3), ("new_york", 2)])
def test_game_options_equal_sort_options(map_name: str, players: int) -> None:
    """Every main turn and second card of games mixing greedy and random moves (odd hands, stations)."""
    game_map = load_map(map_name)
    ix = map_index(game_map)
    kinds: set[str] = set()
    for seed in range(3):
        game = Game.new(game_map, players, seed=seed)
        playout = GreedyPlayout(game_map, players, seed)
        rng = random.Random(seed)
        while not game.is_over:
            if game.phase in (MAIN, SECOND_CARD):
                ids, legal = legal_actions(game)
                fast = game_options(ix, game, ids)
                _same_options(fast, sort_options(ix, legal, ids))
                _same_options(game_options(ix, game, ids), sort_options(ix, legal))
                assert static_action(ix, game, ids[0]) == legal[0]
                for aid, action in zip(ids, legal, strict=True):
                    assert static_id(ix, action) == aid
                kinds.update(a.kind for a in legal)
            if rng.random() < 0.3:
                game.apply_unchecked(rng.choice(game.legal_ids()))
            else:
                game.apply_unchecked(playout.choose_id(game))
    expected = {"draw_card", "claim_route"} | ({"build_station"} if game_map.rules.stations else set())
    assert expected <= kinds


@pytest.mark.parametrize("map_name", ["europe", "new_york"])
def test_trail_lengths_are_the_engines(map_name: str) -> None:
    game_map = load_map(map_name)
    ix = map_index(game_map)
    rng = random.Random(3)
    count = len(game_map.routes)
    for i in range(300):
        if i % 2:  # scattered routes
            routes = rng.sample(range(count), rng.randrange(0, 20))
        else:  # one growing network (long trails, circuits), about what a seat holds
            routes = [rng.randrange(count)]
            for _ in range(rng.randrange(0, 14)):
                cities = {ix.route_a[r] for r in routes} | {ix.route_b[r] for r in routes}
                near = [r for r in range(count)
                        if r not in routes and (ix.route_a[r] in cities or ix.route_b[r] in cities)]
                if near:
                    routes.append(rng.choice(near))
        expected = longest_trail(game_map, routes)[0]
        assert trail_length(ix, routes) == expected
        assert trail_length(ix, list(reversed(routes))) == expected  # the cached answer, by route set


def _reference_costs(bot: GreedyBot, board: Board, borrow: bool) -> list[float]:
    """Greedy's path costs as they were first written: `route_costs`, then its adjustments route by route
    (and the tourist attractions' share, added later)."""
    ix = bot.ix
    stations = bot.game_map.rules.stations > 0 and borrow
    costs = route_costs(board, bot.params.overhead, bot.params.tunnel_penalty, bot.params.ferry_penalty,
                        borrow_cost=bot.params.borrow_cost if stations else None)
    best_held = max(board.hand[: ix.ncol])
    for r, is_open in enumerate(board.open):
        if is_open and costs[r] < INF:
            held = best_held if ix.colour[r] < 0 else board.hand[ix.colour[r]]
            cost = costs[r] - bot.params.points_weight * ix.points[r] - bot.params.hand_weight * min(held, ix.length[r])
            costs[r] = max(cost, 0.25)
    reached = {c for x, o in enumerate(board.owner) if o == board.seat for c in (ix.route_a[x], ix.route_b[x])}
    for r, o in enumerate(board.owner):  # New York: a share of the tourist attractions a route newly reaches
        gain = sum(ix.attraction[c] for c in {ix.route_a[r], ix.route_b[r]} - reached)
        if o < 0 and costs[r] < INF and gain:
            costs[r] = max(costs[r] - bot.params.attraction_cost * gain, 0.25)
    return costs


@pytest.mark.parametrize("map_name", ["europe", "new_york"])
def test_greedy_costs_and_cached_plans_are_unchanged(map_name: str) -> None:
    game_map = load_map(map_name)
    ix = map_index(game_map)
    game = Game.new(game_map, 3, seed=8)
    playout = GreedyPlayout(game_map, 3, 8)
    checked = 0
    while not game.is_over:
        if game.phase == MAIN and len(game.history) % 5 == 0:
            for seat in range(3):
                bot = playout.bots[seat]
                board = Board.from_game(ix, game, seat)
                for borrow in (True, False):
                    assert bot._costs(board, borrow) == _reference_costs(bot, board, borrow)
                costs = bot._costs(board)
                tickets = board.tickets
                cached = plan_tickets(board, tickets, costs)
                ix.paths.clear()
                assert plan_tickets(board, tickets, costs) == cached
                checked += 1
        game.apply_unchecked(playout.choose_id(game))
    assert checked >= 10


def _reference_express_gain(bot: GreedyBot, board: Board, r: int) -> float:
    """Greedy's longest-path gain of route r as first written, with the engine's `longest_trail`."""
    owned: list[list[int]] = [[] for _ in range(board.n)]
    for route, o in enumerate(board.owner):
        if o >= 0:
            owned[o].append(route)
    mine = owned[board.seat]
    ix = bot.ix
    cities = {ix.route_a[x] for x in mine} | {ix.route_b[x] for x in mine}
    if ix.route_a[r] not in cities and ix.route_b[r] not in cities:
        return 0.0
    before = longest_trail(bot.game_map, mine)[0]
    best_other = max(longest_trail(bot.game_map, owned[p])[0] for p in range(board.n) if p != board.seat)
    after = longest_trail(bot.game_map, [*mine, r])[0]
    gain = bot.params.express_weight * (after - before)
    if before <= best_other < after:
        gain += bot.game_map.rules.longest_path_bonus
    return gain


def test_express_gain_is_the_longest_trail_gain() -> None:
    game_map = load_map("europe")
    ix = map_index(game_map)
    game = Game.new(game_map, 2, seed=4)
    playout = GreedyPlayout(game_map, 2, 4)
    touching = 0
    while not game.is_over:
        if game.phase == MAIN and len(game.history) % 12 == 0:
            for seat in range(2):
                bot = playout.bots[seat]
                board = Board.from_game(ix, game, seat)
                for r, is_open in enumerate(board.open):
                    if is_open:
                        gain = bot._express_gain(board, r)
                        assert gain == _reference_express_gain(bot, board, r)
                        touching += gain != 0
        game.apply_unchecked(playout.choose_id(game))
    assert touching >= 20


def test_a_playout_stops_at_its_limit_and_search_values_the_unfinished_game() -> None:
    """A sampled world whose play never ends (seats going round in a circle) must not hang the search:
    `GreedyPlayout.run` plays at most `limit` actions, and the search values what is left by its estimate."""
    game_map = load_map("europe")
    playout = GreedyPlayout(game_map, 2, 0)
    playout.limit = 10
    game = Game.new(game_map, ["a", "b"], seed=3)
    assert playout.run(game) == 10
    assert not game.is_over
    assert playout.run(game, 1_000) == 10  # a larger request is cut to the limit too
    unlimited = GreedyPlayout(game_map, 2, 0)
    finished = Game.new(game_map, ["a", "b"], seed=3)
    assert unlimited.run(finished) > 20 and finished.is_over
    search = make_bot("mcts:5", game_map, 0, 1)
    assert isinstance(search, MctsBot)
    playouts = search.playouts_for(2)[0]
    for p in playouts:
        p.limit = 10
    world = Game.new(game_map, ["a", "b"], seed=3)
    candidate = world.legal_ids()[0]
    value = search.play_candidate(world, candidate, playouts)
    cut = world.copy()
    cut.apply_unchecked(candidate)
    assert playouts[0].run(cut) == 10 and not cut.is_over
    totals = estimate(cut)
    assert value == totals[0] - totals[1]  # the candidate's worth: the estimate of the game left unfinished
