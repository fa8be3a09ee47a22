"""`ttr.bots.tracking`: worlds kept in step with the game and weighed by the other seats' modelled moves (what
`mcts` samples in two-player New York), and the face-up row in the public log that it reads."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

import pytest

from ttr.bots.base import legal_actions
from ttr.bots.greedy import GreedyBot
from ttr.bots.mcts import MctsBot, MctsExpert
from ttr.bots.tracking import WorldFilter
from ttr.engine import Game, SeatView
from ttr.engine.phases import CHOOSE_SETUP
from ttr.engine.sample import InfoSet
from ttr.engine.views import history_actions, public_log
from ttr.maps import load_map


def _greedy_game(map_name: str, seed: int, on_view: Callable[[Game, SeatView], None] | None = None,
                 watcher: int = 0) -> Game:
    """A two-seat game of greedy against greedy; `on_view(view)` at each decision of seat `watcher`."""
    game_map = load_map(map_name)
    bots = [GreedyBot(game_map, s, seed) for s in range(2)]
    game = Game.new(game_map, ["a", "b"], seed=seed)
    while not game.is_over:
        seat = game.current
        ids, legal = legal_actions(game)
        view = SeatView.of(game, seat)
        if seat == watcher and on_view is not None:
            on_view(game, view)
        action = bots[seat].choose(view, legal)
        game.apply_id(ids[legal.index(action)])
    return game


def test_a_face_up_draw_in_the_log_carries_the_row_after_it_and_the_record_form_does_not() -> None:
    game_map = load_map("new_york")
    game = Game.new(game_map, ["a", "b"], seed=3)
    bots = [GreedyBot(game_map, s, 3) for s in range(2)]
    rows: list[list[str | None]] = []
    while not game.is_over:
        ids, legal = legal_actions(game)
        action = bots[game.current].choose(SeatView.of(game, game.current), legal)
        game.apply_id(ids[legal.index(action)])
        if action.kind == "draw_card" and action.source == "face_up":
            rows.append([game_map.card_names[c] if c >= 0 else None for c in game.face_up])
    logged = [e["face_up"] for e in public_log(game, 1) if e.get("from") == "face_up"]
    assert rows and logged == rows
    assert all("face_up" not in entry for entry in history_actions(game))


@pytest.mark.parametrize("map_name", ["new_york", pytest.param("europe", marks=pytest.mark.full)])
def test_tracked_worlds_show_exactly_what_the_seat_has_seen(map_name: str) -> None:
    """Every world follows every move, tunnels (the reveal forced, the other seat's extra cards paid from
    the deck when the world's hand lacks them, a reveal that runs the deck out) and stations included. The
    only worlds dropped are those that gave the other seat a ticket this seat was then offered."""
    game_map = load_map(map_name)
    checked = 0
    dropped = 0

    def check(game: Game, view: SeatView) -> None:
        nonlocal checked
        info = InfoSet(game_map, view.to_json())
        rng = random.Random(len(view.log))
        tracker.update(view, lambda: info.sample(rng))
        for _ in range(3):
            world = tracker.sample(rng)
            assert SeatView.of(world, 0) == view
            assert sorted(world.legal_ids()) == sorted(game.legal_ids())
            checked += 1

    for seed in (1, 2) if map_name == "new_york" else (300, 301, 302):
        tracker = WorldFilter(game_map, 0, 2, GreedyBot, size=40, seed=seed)
        _greedy_game(map_name, seed, check)
        assert tracker.restarts == 0
        dropped += tracker.dropped
    assert checked > 60
    assert dropped == 0 if map_name == "new_york" else dropped < 20


def _real_setup_weight(tracker: WorldFilter, game: Game) -> float:
    """The share of the worlds' weight on seat 1's real setup tickets (those it kept first)."""
    kept = len(game.tickets[1]) if len(game.tickets[1]) < 2 else 2
    real = sorted(game.tickets[1][:kept])
    total = sum(p.weight for p in tracker.particles)
    return sum(p.weight for p in tracker.particles if sorted(p.world.tickets[1][:kept]) == real) / total


@pytest.mark.full  # a particle filter over a whole game: about 15 s, left out of --quick
def test_against_the_modelled_policy_the_weight_gathers_on_the_other_seats_real_tickets() -> None:
    game_map = load_map("new_york")
    first: list[float] = []
    last: list[float] = []
    for seed in range(6):
        tracker = WorldFilter(game_map, 0, 2, GreedyBot, size=200, seed=seed)
        shares: list[float] = []

        def follow(game: Game, view: SeatView, tracker: WorldFilter = tracker,
                   shares: list[float] = shares) -> None:
            info = InfoSet(game_map, view.to_json())
            rng = random.Random(len(view.log))
            tracker.update(view, lambda: info.sample(rng))
            if game.phase != CHOOSE_SETUP and game.tickets[1]:
                shares.append(_real_setup_weight(tracker, game))

        _greedy_game("new_york", 100 + seed, follow)
        first.append(shares[0])
        last.append(shares[-1])
    # A seat holds one of 120 pairs of the 16 tickets it may hold; the worlds start near that prior.
    assert sum(first) / len(first) < 0.1
    assert sum(last) / len(last) > 0.6


def test_a_shorter_log_is_a_new_game_and_the_worlds_start_again() -> None:
    game_map = load_map("new_york")
    views: list[SeatView] = []
    _greedy_game("new_york", 5, lambda game, view: views.append(view))
    tracker = WorldFilter(game_map, 0, 2, GreedyBot, size=20, seed=0)
    for view in (views[-1], views[0]):
        info = InfoSet(game_map, view.to_json())
        rng = random.Random(0)
        tracker.update(view, partial(info.sample, rng))
        assert tracker.seen == len(view.log)
        assert all(SeatView.of(p.world, 0) == view for p in tracker.particles)


def test_the_search_tracks_worlds_in_two_seat_new_york_against_one_modelled_policy_only() -> None:
    def tracked(bot_class: type[MctsBot], map_name: str, players: int) -> bool:
        game_map = load_map(map_name)
        game = Game.new(game_map, players, seed=0)
        bot = bot_class(game_map, game.current, 0, iterations=20)
        bot._fit_guide(players)
        view = SeatView.of(game, game.current)
        return bot.tracked(view, InfoSet(game_map, view.to_json()), None) is not None

    assert tracked(MctsBot, "new_york", 2)
    assert not tracked(MctsBot, "new_york", 4)
    assert not tracked(MctsBot, "europe", 2)
    assert not tracked(MctsExpert, "new_york", 2)  # two models of the other seats: greedy and the guide


def test_against_another_policy_the_worlds_still_show_what_the_seat_has_seen() -> None:
    """A seat that does not play the modelled policy (here `random`) leaves most moves unexplained: the
    weights spread out, worlds that cannot follow are dropped and fresh ones drawn, and every world still
    matches the view."""
    from ttr.bots import make_bot

    game_map = load_map("new_york")
    for seed in (7, 8):
        tracker = WorldFilter(game_map, 0, 2, GreedyBot, size=30, seed=seed)
        bots = [GreedyBot(game_map, 0, seed), make_bot("random", game_map, 1, seed)]
        game = Game.new(game_map, ["a", "b"], seed=seed)
        while not game.is_over:
            seat = game.current
            ids, legal = legal_actions(game)
            view = SeatView.of(game, seat)
            if seat == 0:
                info = InfoSet(game_map, view.to_json())
                rng = random.Random(len(view.log))
                tracker.update(view, partial(info.sample, rng))
                world = tracker.sample(rng)
                assert SeatView.of(world, 0) == view
            game.apply_id(ids[legal.index(bots[seat].choose(view, legal))])
