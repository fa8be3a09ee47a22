"""Bots: every bot plays legal full games on both maps, sees only its seat view, is deterministic; greedy
beats random; the planning helpers and the registry."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from helpers import give_route, set_face_up, set_hand, set_tickets, stack_deck, started
from ttr.bots import BOT_NAMES, IllegalBotActionError, make_bot, play_game
from ttr.bots.abandoned_tunnel import abandoned_in_log
from ttr.bots.base import Bot, legal_actions
from ttr.bots.greedy import GreedyBot
from ttr.bots.planning import (
    INF,
    Board,
    colour_needs,
    completed,
    cut_cost,
    dijkstra,
    map_index,
    path_to,
    plan_tickets,
    route_costs,
    sort_options,
)
from ttr.engine import Action, Game, SeatView, doubles, final_score, positions
from ttr.maps import GameMap, load_map

PAPER = ["destination_hungry", "route_focus", "one_step_thinker", "long_route_junkie"]
MINE = ["random", "greedy", *PAPER]  # the bots of this file (search bots have their own tests)


class Spy:
    """Wraps a bot: checks every call gets only the seat's view and a list of actions, and that the answer
    is one of them."""

    def __init__(self, bot: Bot, seat: int) -> None:
        self.bot = bot
        self.seat = seat
        self.name = bot.name
        self.calls = 0

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        assert isinstance(view, SeatView) and view.seat == self.seat
        assert view.turn is not None and view.turn.player == self.seat
        assert all(isinstance(a, Action) for a in legal)
        for p, entry in enumerate(view.players):
            if p != self.seat:
                assert entry.hand is None and entry.tickets is None
        wire = view.to_json()
        for p, entry in enumerate(wire["players"]):
            if p != self.seat:
                assert "hand" not in entry and "tickets" not in entry
                assert "hand_size" in entry and "ticket_count" in entry
        assert not {"deck", "rng", "ticket_deck"} & set(wire)
        self.calls += 1
        action = self.bot.choose(view, legal)
        assert action in legal, f"{self.name} chose {action}, not legal"
        return action


def lineups(players: range) -> list[list[str]]:
    """Seat lineups that put every bot in a game of every size."""
    out = []
    for n in players:
        for start in range(0, len(MINE), n):
            out.append([MINE[(start + i) % len(MINE)] for i in range(n)])
    return out


@pytest.mark.parametrize(("map_name", "lineup"),
                         [("europe", line) for line in lineups(range(2, 6))]
                         + [("new_york", line) for line in lineups(range(2, 5))])
def test_every_bot_plays_legal_full_games(map_name: str, lineup: list[str]) -> None:
    game_map = load_map(map_name)
    seed = 17 + len(lineup)
    spies = [Spy(make_bot(name, game_map, seat, seed), seat) for seat, name in enumerate(lineup)]
    game = play_game(game_map, spies, seed)
    assert game.is_over
    assert all(spy.calls > 0 for spy in spies)
    assert len(final_score(game).players) == len(lineup)


def test_registry() -> None:
    assert set(BOT_NAMES) >= set(MINE)
    game_map = load_map("europe")
    for name in MINE:
        assert make_bot(name, game_map, 0, 1).name == name
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nobody", game_map, 0, 1)


@pytest.mark.parametrize("name", MINE)
def test_same_seed_same_game(name: str) -> None:
    game_map = load_map("europe")

    def history(seed: int) -> list[tuple[int, int, tuple[int, ...]]]:
        bots = [make_bot(name, game_map, seat, seed) for seat in range(3)]
        return list(play_game(game_map, bots, seed).history)

    assert history(5) == history(5)


def test_random_bot_depends_on_seed() -> None:
    game_map = load_map("new_york")
    games = [play_game(game_map, [make_bot("random", game_map, s, seed) for s in range(2)], 1).history
             for seed in (1, 2)]
    assert games[0] != games[1]


class Cheater:
    name = "cheater"

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        return Action("draw_tickets") if view.turn is not None and view.turn.phase == "second_card" else legal[-1]


def test_play_game_rejects_an_illegal_answer() -> None:
    game_map = load_map("new_york")
    with pytest.raises(IllegalBotActionError, match="cheater"):
        play_game(game_map, [Cheater(), Cheater()], 3)
    game = play_game(game_map, [Cheater(), Cheater()], 3, strict=False)
    assert game.is_over


def test_legal_actions_cache_matches_the_engine() -> None:
    for map_name in ("europe", "new_york"):
        game = Game.new(load_map(map_name), 3 if map_name == "europe" else 2, seed=4)
        rng = random.Random(4)
        while not game.is_over:
            ids, actions = legal_actions(game)
            assert ids == game.legal_ids()
            assert actions == game.legal_actions()
            game.apply_id(ids[rng.randrange(len(ids))])


@cache
def greedy_vs_random() -> list[tuple[bool, int, int]]:
    """20 two-player Europe games, greedy in seat (seed % 2): (greedy won alone, tickets done, failed)."""
    game_map = load_map("europe")
    out = []
    for seed in range(100, 120):
        g = seed % 2
        bots = [make_bot("greedy" if s == g else "random", game_map, s, seed) for s in range(2)]
        final = final_score(play_game(game_map, bots, seed)).to_json()
        me = final["players"][g]
        out.append((final["winners"] == [me["name"]], len(me["tickets_completed"]), len(me["tickets_failed"])))
    return out


def test_greedy_beats_random() -> None:
    assert sum(won for won, _, _ in greedy_vs_random()) >= 18


def test_greedy_completes_most_of_its_tickets() -> None:
    done = sum(d for _, d, _ in greedy_vs_random())
    failed = sum(f for _, _, f in greedy_vs_random())
    assert done >= 4 * failed
    assert done >= 2 * 20


# ---------------------------------------------------------------------- planning helpers


def _board(game: Game, seat: int) -> Board:
    return Board.from_view(map_index(game.map), SeatView.of(game, seat))


def _claim(game: Game, name: str, seat: int) -> None:
    """Give `seat` route `name` directly (a test position, not a played move; the double-route rule closes
    its other track as a claim would)."""
    give_route(game, seat, name)


def _europe(seed: int = 1) -> tuple[GameMap, Game]:
    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=seed)
    while game.phase != 1:
        game.apply(game.legal_actions()[0])
    return game_map, game


def test_board_reads_the_view_and_closes_double_routes() -> None:
    game_map, game = _europe()
    _claim(game, "Madrid-Pamplona/white", 1)
    board = _board(game, 0)
    white = game_map.route("Madrid-Pamplona/white").index
    black = game_map.route("Madrid-Pamplona/black").index
    assert board.owner[white] == 1 and not board.open[white]
    assert not board.open[black]  # E-DOUBLE-2: two players, the other track is closed
    assert sum(board.hand) == sum(game.hands[0])
    assert [game_map.tickets[t].name for t in board.tickets] == [game_map.tickets[t].name for t in game.tickets[0]]


def test_paths_treat_own_routes_as_free_and_skip_others() -> None:
    game_map, game = _europe()
    ix = map_index(game_map)
    city = game_map.city_index
    _claim(game, "Berlin-Wien", 0)
    _claim(game, "Berlin-Essen", 1)
    board = _board(game, 0)
    costs = route_costs(board)
    assert costs[game_map.route("Berlin-Wien").index] == 0.0
    assert costs[game_map.route("Berlin-Essen").index] == INF
    dist, prev = dijkstra(ix, costs, city["Berlin"], city["Wien"])
    assert dist[city["Wien"]] == 0.0
    assert path_to(ix, prev, city["Berlin"], city["Wien"]) == [game_map.route("Berlin-Wien").index]
    dist, _ = dijkstra(ix, costs, city["Berlin"])
    assert dist[city["Essen"]] > 2  # the direct route is taken by the other seat


def test_a_blocking_claim_closes_the_twin_only_where_double_routes_are_single_use_and_costs_its_detour() -> None:
    """The engine's `closed_by` and the planner's `cut_cost`, which the search's blocking claims are valued with."""
    game_map, game = _europe()
    ix = map_index(game_map)
    city = game_map.city_index
    red = game_map.route("Budapest-Wien/red").index
    twin = game_map.routes[red].twin
    assert doubles.closed_by(game_map, red, 2) == (red, twin)
    assert doubles.closed_by(game_map, red, 4) == (red,)
    single = game_map.route("Bucuresti-Budapest").index
    assert game_map.routes[single].twin < 0 and doubles.closed_by(game_map, single, 2) == (single,)
    costs = route_costs(_board(game, 0))
    a, b = city["Budapest"], city["Wien"]
    given = list(costs)
    base = dijkstra(ix, costs, a, b)[0][b]
    assert base == costs[red] == costs[twin] > 0  # the direct double route
    both = cut_cost(ix, costs, a, b, base, [red, twin], points=5)
    assert 0 < both <= 10.0  # a detour, at most twice the ticket's points
    assert cut_cost(ix, costs, a, b, base, [red], points=5) == 0.0  # the other track is still there
    cut = [r for r in range(len(costs)) if a in (ix.route_a[r], ix.route_b[r])]
    assert cut_cost(ix, costs, a, b, base, cut, points=5) == 10.0  # cut off: twice its points
    assert costs == given  # the costs are left as given


def test_plan_and_completion() -> None:
    game_map, game = _europe()
    ticket = game_map.ticket("Berlin-Roma").index
    board = _board(game, 0)
    plan = plan_tickets(board, [ticket], route_costs(board))
    assert plan.routes and not plan.dropped
    assert plan.trains == sum(game_map.routes[r].length for r in plan.routes)
    for r in plan.routes:
        _claim(game, game_map.routes[r].name, 0)
    board = _board(game, 0)
    assert completed(board, [ticket]) == [True]
    assert plan_tickets(board, [ticket], route_costs(board)).routes == []


def test_colour_needs_and_options() -> None:
    game_map, game = _europe()
    ix = map_index(game_map)
    red = game_map.card("red")
    routes = [game_map.route("Berlin-Frankfurt/red").index, game_map.route("Berlin-Wien").index]
    hand = [0] * (ix.ncol + 1)
    hand[red] = 1
    need, _ = colour_needs(ix, routes, hand)
    assert need[red] == 3 and need[game_map.card("green")] == 3
    opts = sort_options(ix, game.legal_actions())
    assert opts.draw_deck is not None and opts.draw_tickets is not None
    assert all(o.route == r for r, options in opts.claims.items() for o in options)


def test_greedy_builds_a_station_that_completes_a_cut_ticket() -> None:
    game_map, game = _europe(seed=2)  # a deal that leaves Frankfurt-Kobenhavn in the game
    _claim(game, "Essen-Frankfurt", 0)
    _claim(game, "Essen-Kobenhavn/1", 1)  # the other track closes too (two players)
    set_tickets(game, 0, ["Frankfurt-Kobenhavn"])
    bot = make_bot("greedy", game_map, 0, 1)
    action = bot.choose(SeatView.of(game, 0), game.legal_actions())
    assert action.kind == "build_station" and action.city in ("Essen", "Kobenhavn")


def test_route_focus_keeps_the_first_three_tickets_at_setup() -> None:
    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=3)
    action = make_bot("route_focus", game_map, 0, 3).choose(SeatView.of(game, 0), game.legal_actions())
    assert action.tickets == tuple(game_map.tickets[t].name for t in game.offered[:3])


def test_greedy_values_the_tourist_attractions_a_route_newly_reaches() -> None:
    """N-SCORE-1 (New York): a route scores 1 more per tourist attraction it reaches first; greedy counts it
    in its claims and path costs, and not again once its routes reach that attraction."""
    from ttr.bots.greedy import GreedyBot

    game_map = load_map("new_york")
    ix = map_index(game_map)
    attraction = {c.index for c in game_map.cities if c.name in game_map.tourist_attractions}
    route = next(r for r in range(len(game_map.routes)) if ix.route_a[r] in attraction and ix.route_b[r] in attraction)
    other = next(r for r in range(len(game_map.routes)) if r != route and ix.twin[route] != r
                 and ix.route_a[route] in (ix.route_a[r], ix.route_b[r]))
    game = Game.new(game_map, 2, seed=1)
    bot = GreedyBot(game_map, 0, 1)
    fresh = Board.from_game(ix, game, 0)
    assert bot._attraction_gain(fresh, route) == 2
    costs = bot._costs(fresh)
    without = GreedyBot(game_map, 0, 1, params=bot.params.but({"attraction_cost": 0.0}))
    assert costs[route] < without._costs(fresh)[route]  # the attractions make the route cheaper to plan through
    give_route(game, 0, game_map.routes[other].name)  # seat 0 now reaches one end of `route` already
    assert bot._attraction_gain(Board.from_game(ix, game, 0), route) == 1
    assert bot._attraction_gain(Board.from_game(ix, game, 1), route) == 2  # the other seat does not
    assert not any(map_index(load_map("europe")).attraction)


def test_greedy_long_never_draws_more_tickets_in_new_york() -> None:
    """N-TICK-1 is open to every seat, but `greedy_long`'s New York values (its profiles) leave it out: in
    the same four-seat games greedy draws tickets and greedy_long never does; with two seats greedy's values
    leave it out too; in Europe greedy_long still draws."""
    from ttr.engine.actions import DRAW_TICKETS

    def ticket_draws(map_name: str, seeds: range, players: int = 2) -> dict[str, int]:
        game_map = load_map(map_name)
        counts = {"greedy": 0, "greedy_long": 0}
        for seed in seeds:
            names = [("greedy", "greedy_long")[(s + seed) % 2] for s in range(players)]
            game = play_game(game_map, [make_bot(n, game_map, s, seed) for s, n in enumerate(names)], seed)
            for seat, aid, _ in game.history:
                if game.cat.kind[aid] == DRAW_TICKETS:
                    counts[names[seat]] += 1
        return counts

    four = ticket_draws("new_york", range(20), players=4)
    assert four["greedy"] > 0 and four["greedy_long"] == 0
    assert ticket_draws("new_york", range(40)) == {"greedy": 0, "greedy_long": 0}
    assert ticket_draws("europe", range(6))["greedy_long"] > 0


def test_greedy_parameters_are_data_and_a_misspelled_one_is_refused() -> None:
    """A preset's parameters with changes laid over (`GreedyParams.but`): an unknown name or a value of the
    wrong type is refused naming it, not silently ignored; a profile naming an unknown preset is refused."""
    from ttr.bots.params import PRESETS

    assert PRESETS["greedy_long"].but({"attraction_cost": 0.2}).attraction_cost == 0.2
    with pytest.raises(ValueError, match="no greedy parameter 'atraction_cost'"):
        PRESETS["greedy_long"].but({"atraction_cost": 0.2})
    with pytest.raises(ValueError, match="long_min must be int"):
        PRESETS["greedy"].but({"long_min": 3.5})
    with pytest.raises(ValueError, match="no greedy preset 'greedy_longer'"):
        GreedyBot(load_map("europe"), 0, 1, preset="greedy_longer")


def test_the_profile_of_the_seat_count_applies_from_the_first_decision() -> None:
    """A preset plays the values its profile fits to the map and seat count (`ttr.bots.profiles`), set once
    the seat count is seen: greedy in two-seat New York plays the values fitted there, with four seats its
    own; parameters given outright are played in every game."""
    from ttr.bots.params import PRESETS
    from ttr.bots.profiles import profile_of

    game_map = load_map("new_york")
    fitted = profile_of("new_york", 2).params("greedy")
    for players, weight, share in ((2, fitted.points_weight, fitted.train_share),
                                   (4, PRESETS["greedy"].points_weight, PRESETS["greedy"].train_share)):
        game = Game.new(game_map, players, seed=1)
        bot = GreedyBot(game_map, game.current, 1)
        assert bot.params == PRESETS["greedy"]  # the seat count is not known yet
        _ids, legal = legal_actions(game)
        bot.choose(SeatView.of(game, game.current), legal)
        assert (bot.params.points_weight, bot.params.train_share) == (weight, share)
        assert bot.train_rate == share * max(p / n for n, p in game_map.rules.route_points.items() if n > 0)
        given = PRESETS["greedy"].but({"points_weight": 0.9})
        fixed = GreedyBot(game_map, game.current, 1, params=given)
        fixed.choose(SeatView.of(game, game.current), legal)
        assert fixed.params == given
    assert (weight, fitted.points_weight) == (PRESETS["greedy"].points_weight, 1.3)


def test_a_custom_map_plays_the_default_profile_and_says_so(caplog: pytest.LogCaptureFixture) -> None:
    """A map or seat count with no profile file plays the default profile (every preset as it is, the
    search's guide `greedy_long`, seconds for its budget), and a log line says so."""
    import dataclasses
    import logging

    from ttr.bots.params import PRESETS
    from ttr.bots.profiles import profile

    custom = dataclasses.replace(load_map("europe"), name="my_custom_map")
    with caplog.at_level(logging.INFO, logger="ttr.bots"):
        default = profile(custom, 3)
    assert not default.fitted and default.greedy == PRESETS and default.search.guide == "greedy_long"
    assert default.search.playout_actions is None
    assert any("no fitted profile for map 'my_custom_map' with 3 seats" in r.getMessage() for r in caplog.records)
    assert profile(load_map("europe"), 2).fitted


def _ordered(game_map: GameMap, seat: int, seed: int) -> Any:
    """`greedy_long` with its claims and draws ordered (`detour_weight` 1, `focus_draws` on)."""
    from ttr.bots.params import PRESETS

    return GreedyBot(game_map, seat, seed, preset="greedy_long",
                     params=PRESETS["greedy_long"].but({"detour_weight": 1.0, "focus_draws": True}))


def test_detour_weight_claims_the_bottleneck_of_the_plan_first() -> None:
    """With `detour_weight`, of the plan routes it can pay `greedy_long` claims first the one of most length
    plus detour (the path cost its loss would add between its cities): Kobenhavn-Stockholm (3 trains;
    Stockholm's only other link is the Petrograd tunnel) before Kharkov-Moskva (4), which the default
    longest-first order claims. The detours are worked out here again on the bot's path costs."""
    from ttr.bots.greedy import MAX_DETOUR
    from ttr.bots.styles import GreedyLong

    game_map, game = _europe()
    set_tickets(game, 0, ["Kobenhavn-Erzurum"])
    set_hand(game, 0, {c: 4 for c in game_map.card_names if c != "locomotive"})
    view, legal = SeatView.of(game, 0), game.legal_actions()
    bot = _ordered(game_map, 0, 1)
    chosen = bot.choose(view, legal)
    longest = GreedyLong(game_map, 0, 1).choose(view, legal)
    assert chosen.kind == longest.kind == "claim_route" and chosen.route != longest.route
    assert chosen.route is not None and longest.route is not None
    ix = bot.ix
    first, other = game_map.route(chosen.route).index, game_map.route(longest.route).index
    assert ix.length[first] < ix.length[other]
    costs = bot.path_costs(Board.from_view(ix, view))

    def way_round(r: int) -> float:
        closed = [INF if ix.link[x] == ix.link[r] else c for x, c in enumerate(costs)]
        return float(min(dijkstra(ix, closed, ix.route_a[r])[0][ix.route_b[r]] - costs[r], MAX_DETOUR))

    assert ix.length[first] + way_round(first) > ix.length[other] + way_round(other)
    assert way_round(first) > way_round(other)  # the shorter route is claimed for its detour


def test_focus_draws_take_the_colour_of_the_plan_route_nearest_to_paid() -> None:
    """Brest-Marseille runs over Brest-Pamplona (purple, 4) and Marseille-Pamplona (red, 4); holding 3
    red, `greedy_long` with `focus_draws` takes the face-up red that makes a claim possible next turn,
    where the default (the colour of the largest need) takes the purple."""
    from ttr.bots.styles import GreedyLong

    game_map, game = _europe()
    set_tickets(game, 0, ["Brest-Marseille"])
    set_hand(game, 0, {"red": 3})
    set_face_up(game, ["red", "purple", "blue", "green", "yellow"])
    view, legal = SeatView.of(game, 0), game.legal_actions()
    bot = _ordered(game_map, 0, 1)
    plan = bot.current_plan(Board.from_view(bot.ix, view))
    assert sorted(game_map.routes[r].name for r in plan.routes) == ["Brest-Pamplona", "Marseille-Pamplona"]
    focused = bot.choose(view, legal)
    assert (focused.kind, focused.source, focused.card) == ("draw_card", "face_up", "red")
    neediest = GreedyLong(game_map, 0, 1).choose(view, legal)
    assert (neediest.kind, neediest.source, neediest.card) == ("draw_card", "face_up", "purple")


def _tunnel_abandoned_with_few_cards_left(agent: str, seed: int, hand: dict[str, int],
                                          tunnel: str) -> tuple[Game, Action]:
    """Seat 0 (`agent`, holding `hand`) claims `tunnel` with six locomotives on top of the deck and every other
    card in seat 1's hand, abandons it, and seat 1 draws two cards: seat 0 is back at its hand and board."""
    game = started("europe", 2, seed=seed)
    set_hand(game, 0, hand)
    stack_deck(game, ["locomotive"] * 6)
    # the discard pile and all but the six locomotives on top of the deck go to the other seat's hand
    positions.move_cards(game, positions.DISCARD, positions.hand(1))
    positions.move_cards(game, positions.DECK, positions.hand(1), leave=6)
    _ids, legal = legal_actions(game)
    first = make_bot(agent, game.map, 0, 1).choose(SeatView.of(game, 0), legal)
    assert (first.kind, first.route) == ("claim_route", tunnel)
    game.apply(first)
    assert [a.kind for a in game.legal_actions()] == ["abandon_tunnel"]  # 3 more cards: not held
    game.apply(Action("abandon_tunnel"))
    for _ in range(2):  # the other seat draws: nothing on the board changes
        game.apply(Action("draw_card", source="deck"))
    assert game.current == 0 and len(game._deck) + len(game.discard) == 4
    return game, first


@pytest.mark.parametrize(("agent", "seed", "hand", "tunnel"), [
    ("greedy", 47, {"blue": 3}, "Munchen-Venezia"),
    ("route_focus", 40, {"blue": 3}, "Munchen-Venezia"),
    ("long_route_junkie", 64, {"blue": 8, "locomotive": 2}, "Petrograd-Stockholm"),
])
def test_bots_do_not_try_again_a_tunnel_they_abandoned_from_the_same_hand_and_board(
        agent: str, seed: int, hand: dict[str, int], tunnel: str) -> None:
    """With the deck and discard pile a few locomotives, every seat could claim its tunnel, abandon it and
    claim it again for ever (a playout of the search did). Back at the hand and board it
    abandoned from (read from the log: a bot keeps no memory of it), with 10 cards or fewer left to reveal, a
    bot does something else. With more left it tries the tunnel it has abandoned once again only holding spare
    cards for every card a reveal can ask (3): it draws or claims another route while it holds fewer (the paper
    agents plan around the tunnel then), and claims once it holds them."""
    game, first = _tunnel_abandoned_with_few_cards_left(agent, seed, hand, tunnel)
    _ids, legal = legal_actions(game)
    assert first in legal
    again = make_bot(agent, game.map, 0, 1).choose(SeatView.of(game, 0), legal)
    assert again.kind in ("draw_card", "claim_route") and again.route != tunnel  # a draw, or a route around it
    for _ in range(7):  # 11 cards to reveal
        positions.move_card(game, game.map.card_index["red"], positions.hand(1), positions.DISCARD)
    again = make_bot(agent, game.map, 0, 1).choose(SeatView.of(game, 0), legal)
    assert again.kind in ("draw_card", "claim_route") and again.route != tunnel
    wild = game.map.card_index["locomotive"]
    for _ in range(3):  # three locomotives from the other seat's hand: spare cards for the reveal
        positions.move_card(game, wild, positions.hand(1), positions.hand(0))
    ix = map_index(game.map)
    route = game.map.route_index[tunnel]
    board = Board.from_view(ix, SeatView.of(game, 0))
    assert board.tunnels_abandoned == Board.from_game(ix, game, 0).tunnels_abandoned == (route,)
    assert board.tunnel_spare(route) == 3 and board.tunnel_spare(game.map.route_index["Athina-Smyrna"]) == 1
    _ids, legal = legal_actions(game)
    assert any(a.kind == "claim_route" and a.route == tunnel for a in legal)
    assert make_bot(agent, game.map, 0, 1).choose(SeatView.of(game, 0), legal).kind == "claim_route"


def test_the_abandoned_tunnel_is_read_alike_from_the_log_and_from_the_history_until_the_board_changes() -> None:
    """`Board.from_view` (bots) and `Board.from_game` (search playouts) find the same abandoned tunnel; a
    ticket draw of the seat keeps it, a claim by another seat forgets it."""
    game, _claim = _tunnel_abandoned_with_few_cards_left("greedy", 47, {"blue": 3}, "Munchen-Venezia")
    ix = map_index(game.map)
    tunnel = game.map.route_index["Munchen-Venezia"]

    def read(g: Game) -> tuple[int, int]:
        return Board.from_view(ix, SeatView.of(g, 0)).abandoned_tunnel, Board.from_game(ix, g, 0).abandoned_tunnel

    assert read(game) == (tunnel, tunnel)
    tickets = game.copy()
    tickets.apply(Action("draw_tickets"))
    tickets.apply(next(a for a in tickets.legal_actions() if a.kind == "keep_tickets"))
    claimed = tickets.copy()
    for _ in range(2):  # seat 1 draws: nothing changes for seat 0
        tickets.apply(Action("draw_card", source="deck"))
    assert tickets.current == 0 and read(tickets) == (tunnel, tunnel)
    claim = next(a for a in claimed.legal_actions()
                 if a.kind == "claim_route" and not claimed.map.routes[claimed.map.route_index[a.route or ""]].tunnel)
    claimed.apply(claim)  # seat 1 claims a route: the board changed
    assert read(claimed) == (-1, -1)
    drawn = game.copy()
    for _ in range(2):  # seat 0 draws: its hand changed
        drawn.apply(Action("draw_card", source="deck"))
    assert read(drawn) == (-1, -1)
    log = [{"player": 0, "action": "claim_route", "route": "Munchen-Venezia"},
           {"player": 0, "action": "abandon_tunnel"},
           {"player": 1, "action": "claim_route", "route": "Wien-Zagrab"},
           {"player": 1, "action": "abandon_tunnel"},
           {"player": 0, "action": "draw_tickets"},
           {"player": 0, "action": "keep_tickets", "tickets": ["Roma-Smyrna"]}]
    assert abandoned_in_log(log, 0) == "Munchen-Venezia"  # the other seat's abandoned claim changed nothing
    assert abandoned_in_log([*log, {"player": 1, "action": "claim_route", "route": "Roma-Venezia"}], 0) is None
    assert abandoned_in_log([*log, {"player": 0, "action": "draw_card", "from": "deck"}], 0) is None
    paid = [{"player": 1, "action": "claim_route", "route": "Wien-Zagrab"}, {"player": 1, "action": "pay_tunnel"}]
    assert abandoned_in_log([*log, *paid], 0) is None  # the other seat's tunnel paid for: the board changed
    assert abandoned_in_log([*log, {"player": 1, "action": "build_station", "city": "Wien"}], 0) is None
    assert abandoned_in_log(log, 1) == "Wien-Zagrab"


def test_without_face_up_wilds_greedy_draws_blind_where_it_would_take_the_wild() -> None:
    """Two cards short of Brest-Marseille's two routes (3 red and 3 purple for Marseille-Pamplona and
    Brest-Pamplona, 4 each), with no red or purple face up: greedy takes the face-up locomotive, a whole
    turn's draw; with `face_up_wilds` off, as every guide of the search plays, it draws blind instead."""
    from ttr.bots.params import PRESETS
    from ttr.bots.profiles import profile_of

    game_map, game = _europe()
    set_tickets(game, 0, ["Brest-Marseille"])
    set_hand(game, 0, {"red": 3, "purple": 3})
    set_face_up(game, ["locomotive", "blue", "green", "yellow", "white"])
    view, legal = SeatView.of(game, 0), game.legal_actions()
    took = GreedyBot(game_map, 0, 1).choose(view, legal)
    assert (took.kind, took.source, took.card) == ("draw_card", "face_up", "locomotive")
    no_wilds = GreedyBot(game_map, 0, 1, params=PRESETS["greedy"].but({"face_up_wilds": False}))
    blind = no_wilds.choose(view, legal)
    assert (blind.kind, blind.source) == ("draw_card", "deck")
    duel = profile_of("europe", 2).params("greedy_long_duel")
    assert not duel.face_up_wilds and not duel.draws_tickets  # Europe's two-seat values
    four = profile_of("europe", 4).params("greedy_long_four")
    assert not four.face_up_wilds and four.draws_tickets  # Europe's three- to five-seat guide
    assert not any(profile_of("new_york", n).params("greedy_long").face_up_wilds for n in (2, 3, 4))  # New York's
    assert all(profile_of(m, n).params("greedy").face_up_wilds for m, n in (("europe", 2), ("new_york", 3)))


def test_two_seat_europes_guide_draws_no_more_tickets_where_greedy_would() -> None:
    """Its tickets all done (none held) with every seat's trains still in hand: greedy draws tickets;
    `GreedyLongDuel` (`draws_tickets` off in Europe) draws cards instead."""
    from ttr.bots.greedy import GreedyBot
    from ttr.bots.styles import GreedyLongDuel

    game_map, game = _europe()
    set_tickets(game, 0, [])
    set_hand(game, 0, {"red": 1})
    view, legal = SeatView.of(game, 0), game.legal_actions()
    assert GreedyBot(game_map, 0, 1).choose(view, legal).kind == "draw_tickets"
    assert GreedyLongDuel(game_map, 0, 1).choose(view, legal).kind == "draw_card"


def test_a_large_hand_waiting_for_the_plan_is_spent_on_points_late_in_the_game() -> None:
    """`hard` (seat 0, two-player Europe, seed 70005, against greedy) waited for the blue cards of its last plan
    route, Warszawa-Wien, drawing blind for twelve turns, and ended the game with 26 cards in hand and 13 trains
    unused. Late in the game, with 16 cards or more, greedy now claims routes for points with the colours its
    plan does not need (`GreedyBot._spare_claim`) instead of drawing more."""
    europe = load_map("europe")
    bots = [make_bot("hard", europe, 0, 70005), make_bot("greedy", europe, 1, 70005)]
    game = play_game(europe, bots, 70005, players=["a", "b"])
    assert sum(game.hands[0]) <= 16 and game.trains[0] <= 4  # the plan route's 4 trains kept


@pytest.mark.parametrize(("seed", "seat", "opponent"), [(70295, 0, "greedy_long_fitted"), (70069, 1, "greedy_long"),
                                                        (70102, 1, "one_step_thinker")])
def test_long_route_junkie_spends_a_large_hand_instead_of_drawing_to_the_end(seed: int, seat: int,
                                                                              opponent: str) -> None:
    """Deals on which `easy` (Long Route Junkie) held 52, 36 and 38 cards at the end with 28, 23 and 13 trains
    left, drawing for a tunnel it had abandoned, a ferry without its locomotives, or one long route: it plans
    around the tunnel, collects the ferry's locomotives, and with 16 cards spends them on its longest route."""
    game_map = load_map("europe")
    specs = [opponent, opponent]
    specs[seat] = "long_route_junkie"
    game = play_game(game_map, [make_bot(spec, game_map, s, seed) for s, spec in enumerate(specs)], seed)
    assert game.is_over
    assert sum(game.hands[seat]) < 20 or game.trains[seat] < 6
