"""The playout policy that blocks on a playout world's tickets (`ttr.bots.denial`) and its use by `mcts`."""

from __future__ import annotations

from dataclasses import replace

from helpers import policy_of
from ttr.bots.denial import DETOUR_CAP, DenyingBot
from ttr.bots.greedy import GreedyBot
from ttr.bots.mcts import MctsBot
from ttr.bots.planning import INF, Board, dijkstra, distance_without, game_options, map_index, path_to, static_action
from ttr.bots.playout import GreedyPlayout
from ttr.bots.styles import Greedy, GreedyLong, GreedyLongDuel, GreedyLongFour
from ttr.engine import Action, Game, positions
from ttr.engine.phases import MAIN
from ttr.maps import load_map

EUROPE = load_map("europe")


def _choice(bot: GreedyBot, game: Game) -> Action:
    """What `bot` plays for the seat to move in a main turn of `game` (as a playout asks it)."""
    ix = map_index(game.map)
    ids = game.legal_ids()
    opts = game_options(ix, game, ids)
    return bot.decide_options(Board.from_game(ix, game, game.current), opts, static_action(ix, game, ids[0]))


def _ticket_trains(game: Game, q: int, closed: tuple[int, ...] = ()) -> float:
    """Seat q's incomplete tickets' shortest paths in trains (cut paths count 20 more than their length
    before), over q's routes (free) and the free open ones, with the routes `closed` shut."""
    ix = map_index(game.map)
    costs = [0.0 if o == q else (ix.length[r] + 0.4 if o < 0 and not game.blocked[r] else INF)
             for r, o in enumerate(game.owner)]
    total = 0.0
    for t in game.tickets[q]:
        a, b = ix.ticket_a[t], ix.ticket_b[t]
        base = dijkstra(ix, costs, a, b)[0][b]
        if base <= 0 or base >= INF:
            continue
        saved = [costs[x] for x in closed]
        for x in closed:
            costs[x] = INF
        total += min(dijkstra(ix, costs, a, b)[0][b], base + 20) - base
        for x, c in zip(closed, saved, strict=True):
            costs[x] = c
    return total


def _first_block(seeds: range) -> tuple[Game, Action, Action]:
    """The first main turn of seat 0 (`GreedyLong` against greedy) where `DenyingLong` with the game as its
    world plays otherwise than `GreedyLong`: the game then, and both moves."""
    for seed in seeds:
        game = Game.new(EUROPE, ["a", "b"], seed=seed)
        playout = GreedyPlayout(EUROPE, 2, seed, {0: GreedyLong})
        guide, denying = GreedyLong(EUROPE, 0, seed), DenyingBot(EUROPE, 0, seed)
        denying.world = game
        while not game.is_over:
            if game.current == 0 and game.phase == MAIN and len(game.legal_ids()) > 1:
                plain, blocking = _choice(guide, game), _choice(denying, game)
                if plain != blocking:
                    return game, plain, blocking
            game.apply_unchecked(playout.choose_id(game))
    raise AssertionError("no position where the denying policy blocks")


def test_denying_playout_policy_claims_what_lengthens_the_other_seats_real_paths() -> None:
    game, plain, blocking = _first_block(range(40))
    ix = map_index(EUROPE)
    assert plain.kind == "draw_card"  # it blocks only where the guide would draw
    assert blocking.kind == "claim_route" and blocking.route is not None
    r = EUROPE.route_index[blocking.route]
    assert "locomotive" not in dict(blocking.cards)
    # worked out again here: closing the route's link costs the other seat's real tickets 8 trains or more
    assert _ticket_trains(game, 1, ix.link_routes[ix.link[r]]) >= DenyingBot(EUROPE, 0, 1).params.min_damage
    # without a world (a bot playing from a seat view) it is the guide
    assert _choice(DenyingBot(EUROPE, 0, 1), game) == plain


def test_mcts_blocks_in_its_own_playouts_in_two_player_europe_only() -> None:
    searching = MctsBot(EUROPE, 0, 3, iterations=4)
    playouts = searching.playouts_for(2)
    guide_playout = playouts[0][0]
    assert isinstance(guide_playout.bots[0], DenyingBot)
    assert policy_of(guide_playout.bots[1]) == Greedy
    game = Game.new(EUROPE, ["a", "b"], seed=5)
    guide_playout.run(game, 10)
    assert guide_playout.bots[0].world is game  # the playout handed it the game it plays
    # elsewhere (not measured better: New York, more seats) and when turned off, the guide plays on
    plain_config = replace(MctsBot.config, own_playout_fitted=False)
    for game_map, seats, bot, guide in (
            (load_map("new_york"), 2, MctsBot, GreedyLong), (EUROPE, 3, MctsBot, GreedyLongFour),
            (EUROPE, 4, MctsBot, GreedyLongFour),
            (EUROPE, 2, type("Plain", (MctsBot,), {"config": plain_config}), GreedyLongDuel)):
        plain = bot(game_map, 0, 3, iterations=4).playouts_for(seats)[0][0]
        assert policy_of(plain.bots[0]) == guide
        assert plain.world_bots == []


def test_in_four_seat_games_the_other_seats_paths_use_the_twin_this_seat_cannot_take() -> None:
    """E-DOUBLE-1: with 4-5 seats only the owner of one half of a double route is barred from the other half,
    so another seat's path still runs through it (Edinburgh's only link is the double route to London)."""
    ix = map_index(EUROPE)
    game = Game.new(EUROPE, ["a", "b", "c", "d"], seed=1)
    half = next(r for r, route in enumerate(EUROPE.routes) if {route.a, route.b} == {"Edinburgh", "London"})
    owner = [-1] * len(EUROPE.routes)
    owner[half] = 0
    positions.move_ticket(game, EUROPE.ticket("Edinburgh-Paris").index, positions.held(1))
    assert game.tickets[1] == [EUROPE.ticket("Edinburgh-Paris").index]
    board = Board.bare(ix, 0, owner, [45] * 4)
    assert not board.open[ix.twin[half]]  # closed to this seat ...
    bot = DenyingBot(EUROPE, 0, 1)
    damage = bot._link_damage(board, game)
    # ... but open to seat 1, whose ticket would be cut without it: the cap, not nothing
    assert damage[ix.link[half]] == DETOUR_CAP


def test_the_other_seats_open_routes_follow_the_maps_double_route_rule() -> None:
    """In three-seat New York both tracks of a double route are used (unlike three-seat Europe): with this
    seat on one track of a route on the other seat's ticket path, that seat may still take the other track,
    so closing the route's link costs it trains."""
    game_map = load_map("new_york")
    ix = map_index(game_map)
    game = Game.new(game_map, 3, seed=1)
    costs = [ix.length[r] + 0.4 for r in range(len(game_map.routes))]
    for ticket in game_map.tickets:
        a, b = ix.ticket_a[ticket.index], ix.ticket_b[ticket.index]
        dist, prev = dijkstra(ix, costs, a, b)
        doubled = [r for r in path_to(ix, prev, a, b) if game_map.routes[r].twin >= 0]
        if doubled and distance_without(ix, costs, a, b, ix.link_routes[ix.link[doubled[0]]]) > dist[b]:
            break
    else:
        raise AssertionError("no New York ticket whose shortest path needs a double route")
    track = doubled[0]
    positions.move_ticket(game, ticket.index, positions.held(1))
    positions.give_route(game, 0, track)
    assert game.open_to(1)[game_map.routes[track].twin]  # E-DOUBLE-1 only: the other track stays open to seat 1
    bot = DenyingBot(game_map, 0, 1)
    damage = bot._link_damage(Board.from_game(ix, game, 0), game)
    assert damage.get(ix.link[track], 0.0) > 0
