"""`mcts` (information-set Monte Carlo search with greedy playouts): legal whole games with a tiny budget,
reproducible by seed, reading only the seat view; the playouts' board equals the view's; candidates."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest

from helpers import greedy_main_turn, policy_of
from ttr.bots import make_bot, play_game
from ttr.bots.base import legal_actions
from ttr.bots.budgets import FALLBACK_SECONDS
from ttr.bots.greedy import GreedyBot
from ttr.bots.mcts import MctsBot, MctsExpert
from ttr.bots.mcts_policy import estimate, ticket_paths
from ttr.bots.planning import Board, map_index, sort_options
from ttr.bots.playout import GreedyPlayout
from ttr.bots.profiles import profile_of
from ttr.bots.search.gate import t_critical
from ttr.bots.styles import Greedy
from ttr.engine import Action, Game, SeatView, final_score, positions
from ttr.engine import actions as A
from ttr.engine.phases import SECOND_CARD
from ttr.engine.sample import InfoSet, determinize
from ttr.maps import load_map


class TinyMcts(MctsBot):
    name = "tiny"
    config = replace(MctsBot.config, iterations=6, depth=8)


@pytest.mark.parametrize(("map_name", "players"), [("europe", 2), ("new_york", 3)])
def test_tiny_mcts_plays_legal_games_reproducibly(map_name: str, players: int) -> None:
    game_map = load_map(map_name)

    def play() -> Game:
        bots = [TinyMcts(game_map, 0, 1)] + [make_bot("greedy", game_map, s, 1) for s in range(1, players)]
        return play_game(game_map, bots, seed=1)  # strict: an illegal choice would raise

    game = play()
    assert game.is_over
    assert play().history == game.history  # same seeds, same game


def test_a_setting_given_as_a_class_attribute_is_refused() -> None:
    with pytest.raises(TypeError, match="iterations"):
        type("Stray", (MctsBot,), {"iterations": 6})  # the search reads its settings only from `config`
    assert TinyMcts(load_map("europe"), 0, 1).config.iterations == 6


@pytest.mark.parametrize("map_name", ["europe", "new_york"])
def test_the_playout_board_is_the_view_board(map_name: str) -> None:
    game_map = load_map(map_name)
    ix = map_index(game_map)
    game = Game.new(game_map, 3, seed=5)
    playout = GreedyPlayout(game_map, 3, 5)
    seen_phases = set()
    while not game.is_over:
        for seat in range(3):
            assert Board.from_game(ix, game, seat) == Board.from_view(ix, SeatView.of(game, seat))
        seen_phases.add(game.phase)
        game.apply_unchecked(playout.choose_id(game))
    assert {0, 1, 2} <= seen_phases  # setup, main, second card at least


def test_greedy_playouts_play_as_greedy_does() -> None:
    game_map = load_map("europe")
    bots = [GreedyBot(game_map, s, 3) for s in range(2)]
    reference = play_game(game_map, bots, seed=3, players=["a", "b"])
    game = Game.new(game_map, ["a", "b"], seed=3)
    GreedyPlayout(game_map, 2, 3).run(game)
    assert game.history == reference.history
    assert final_score(game).to_json() == final_score(reference).to_json()


def test_the_search_reads_only_the_view() -> None:
    game_map = load_map("new_york")
    game = Game.new(game_map, 2, seed=2)
    playout = GreedyPlayout(game_map, 2, 2)
    while len(game.history) < 12:
        game.apply_unchecked(playout.choose_id(game))
    seat = game.current
    view = SeatView.of(game, seat)
    other = determinize(game_map, view.to_json(), random.Random(9))  # other hidden cards and tickets, same view
    assert other.hands[1 - seat] != game.hands[1 - seat] or other._deck != game._deck
    assert SeatView.of(other, seat) == view
    answers = []
    for g in (game, other):
        bot = MctsBot(game_map, seat, 4, iterations=30)
        answers.append((bot.choose(SeatView.of(g, seat), legal_actions(g)[1]), bot.last_values))
    assert answers[0] == answers[1]


def test_candidates_are_legal_and_varied() -> None:
    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=7)
    playout = GreedyPlayout(game_map, 2, 7)
    bot = MctsBot(game_map, 0, 7, iterations=1)
    kinds_seen: set[int] = set()
    while not game.is_over:
        view = SeatView.of(game, game.current)
        _, legal = legal_actions(game)
        if game.current == 0 and game.phase in (0, 1, 4) and len(legal) > 1:
            guide = game.encode(bot.guide.choose(view, legal))
            cands = bot.candidates(game, guide, view, legal)
            assert cands[0] == guide and len(set(cands)) == len(cands)
            assert set(cands) <= set(game.legal_ids())
            kinds_seen.update(game.cat.kind[c] for c in cands)
        game.apply_unchecked(playout.choose_id(game))
    assert {A.DRAW_DECK, A.DRAW_TICKETS, A.CLAIM, A.KEEP_TICKETS} <= kinds_seen


def test_claim_candidates_pay_as_greedy_pays() -> None:
    """A claim weighed beside the guide's move pays as greedy would (`GreedyBot._cheapest`: fewest wilds, then
    the colour the plan needs least), not with the colour it holds most of, which may be the colour its plan
    is waiting for."""
    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=11)
    playout = GreedyPlayout(game_map, 2, 11)
    bot = MctsBot(game_map, 0, 11, iterations=1)
    ix = bot.guide.ix
    checked = spared = 0
    while not game.is_over:
        view = SeatView.of(game, game.current)
        _, legal = legal_actions(game)
        if game.current == 0 and game.phase == 1 and len(legal) > 1:
            guide = game.encode(bot.guide.choose(view, legal))
            board = Board.from_view(ix, view)
            opts = sort_options(ix, legal)
            need = bot.guide.plan_needs(bot.guide.current_plan(board), board)
            for aid in bot.candidates(game, guide, view, legal)[1:]:
                if game.cat.kind[aid] != A.CLAIM:
                    continue
                action = game.decode(aid)
                options = opts.claims[game.cat.a[aid]]
                assert action == bot.guide.cheapest_claim(board, options, need).action
                checked += 1
                most = max(options, key=lambda o: (-o.wilds, board.hand[o.colour] if o.colour != ix.wild else -1))
                spared += most.action != action  # the colour held most of was not the one to spend
        game.apply_unchecked(playout.choose_id(game))
    assert checked > 20 and spared


def test_late_in_a_game_more_claims_are_candidates() -> None:
    """`late_claims`: once the leader has laid `late_from` of its pieces the search weighs that many claims
    (its playouts are short, so worlds are cheap); before, `claims` as always."""
    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=11)
    playout = GreedyPlayout(game_map, 2, 11)
    narrow = MctsBot(game_map, 0, 11, iterations=1)
    narrow.config = replace(narrow.config, late_claims=narrow.config.claims)  # no more claims late in the game
    wide = MctsBot(game_map, 0, 11, iterations=1)
    assert wide.config.late_claims == 8
    pieces = game_map.rules.pieces
    early = late = widened = 0
    while not game.is_over:
        view = SeatView.of(game, game.current)
        _, legal = legal_actions(game)
        if game.current == 0 and game.phase == 1 and len(legal) > 1:
            guide = game.encode(narrow.guide.choose(view, legal))
            claims = [{c for c in bot.candidates(game, guide, view, legal) if game.cat.kind[c] == A.CLAIM}
                      for bot in (narrow, wide)]
            open_routes = {game.cat.a[aid] for aid in game.legal_ids() if game.cat.kind[aid] == A.CLAIM}
            if pieces - min(game.trains) < wide.config.late_from * pieces:
                early += 1
                assert claims[0] == claims[1]
            else:
                late += 1
                assert claims[0] <= claims[1]
                assert len({game.cat.a[c] for c in claims[1]}) >= min(len(open_routes), 8)
                widened += len(claims[1]) > len(claims[0])
        game.apply_unchecked(playout.choose_id(game))
    assert early and late and widened


def test_two_seat_new_york_weighs_every_claim_it_can_pay_from_the_start() -> None:
    """`wide_claims`: in two-seat New York every route the seat can pay now is a candidate at every stage
    (up to `wide`, one card set each); with four seats, and in Europe, `claims` / `late_claims` as before."""
    game_map = load_map("new_york")
    for seats, wide in ((2, True), (4, False)):
        game = Game.new(game_map, seats, seed=5)
        playout = GreedyPlayout(game_map, seats, 5)
        bot = MctsBot(game_map, 0, 5, iterations=1)
        checked = beyond = 0
        while not game.is_over:
            view = SeatView.of(game, game.current)
            _, legal = legal_actions(game)
            if game.current == 0 and game.phase == 1 and len(legal) > 1:
                guide = game.encode(bot.guide.choose(view, legal))
                routes = {game.cat.a[c] for c in bot.candidates(game, guide, view, legal)
                          if game.cat.kind[c] == A.CLAIM}
                payable = {game.cat.a[aid] for aid in game.legal_ids() if game.cat.kind[aid] == A.CLAIM}
                late = game_map.rules.pieces - min(game.trains) >= bot.config.late_from * game_map.rules.pieces
                narrow = bot.config.late_claims if late else bot.config.claims
                if wide:
                    assert routes == payable or len(routes) >= bot.config.wide
                else:
                    # + the guide's own claim
                    assert len(routes) <= narrow + bot.config.blocks + bot.config.world_blocks + 1
                checked += 1
                beyond += len(payable) > narrow + bot.config.blocks + bot.config.world_blocks + 1 and routes == payable
            game.apply_unchecked(playout.choose_id(game))
        assert checked > 5
        assert (beyond > 0) == wide, (seats, beyond)  # more routes weighed than the narrow count allows
    assert not any(profile_of("europe", n).search.wide_claims for n in range(2, 6))


def test_every_card_draw_is_a_candidate_and_the_second_card_is_searched() -> None:
    """With `search_draws` (the default) a main turn tries the blind draw and each face-up card, and the
    second card of a draw is searched over every card it may take; without it, only the blind draw, and
    the second card is the guide's."""
    game_map, game = greedy_main_turn("new_york", 2, seed=3, seat=0, after=6)
    view, (ids, legal) = SeatView.of(game, 0), legal_actions(game)
    kind = game.cat.kind
    draws = {aid for aid in ids if kind[aid] in (A.DRAW_DECK, A.DRAW_FACE_UP)}
    assert len(draws) > 2  # the blind draw and several face-up colours
    bot = MctsBot(game_map, 0, 1, iterations=40)
    guide = game.encode(bot.guide.choose(view, legal))
    assert draws <= set(bot.candidates(game, guide, view, legal))
    plain = MctsBot(game_map, 0, 1, iterations=40)
    plain.config = replace(plain.config, search_draws=False)
    assert len(draws & set(plain.candidates(game, guide, view, legal))) == 1
    game.apply_unchecked(game.cat.draw_deck)  # a blind first card: the second card is to choose
    view, (ids, legal) = SeatView.of(game, 0), legal_actions(game)
    assert game.phase == SECOND_CARD and len(ids) > 2
    action = bot.choose(view, legal)
    assert action in legal and bot.last_iterations > 0
    assert set(bot.last_values) == set(ids)  # every card it may take, valued against the guide's
    assert plain.choose(view, legal) == plain.guide.choose(view, legal) and plain.last_iterations == 0


def test_keep_ranking_starts_with_greedys_choice() -> None:
    game_map = load_map("europe")
    for seed in range(4):
        game = Game.new(game_map, 2, seed=seed)
        view = SeatView.of(game, 0)
        _, legal = legal_actions(game)
        bot = GreedyBot(game_map, 0, seed)
        ranking = bot.keep_ranking(Board.from_view(bot.ix, view), sort_options(bot.ix, legal))
        assert sorted(ranking) == list(range(len(legal)))
        assert legal[ranking[0]] == GreedyBot(game_map, 0, seed).choose(view, legal)


def test_search_values_are_margins_of_finished_playouts() -> None:
    game_map, game = greedy_main_turn("new_york", 2, seed=11, seat=0)
    bot = MctsBot(game_map, 0, 1, iterations=40)
    action = bot.choose(SeatView.of(game, 0), legal_actions(game)[1])
    assert action in game.legal_actions()
    assert len(bot.last_values) <= bot.last_iterations <= 40
    assert len(bot.last_values) >= 3  # the guide's move and some alternatives
    guide = game.encode(bot.guide.choose(SeatView.of(game, 0), legal_actions(game)[1]))
    assert bot.last_values[guide] == 0.0  # values are gains over the guide's move in the same worlds
    assert all(-100 < v < 100 for v in bot.last_values.values())  # New York margins are a few dozen points
    if game.encode(action) != guide:  # another move only when the search found it clearly better
        assert bot.last_values[game.encode(action)] >= bot.margin_for(2)


def test_a_script_can_value_a_move_with_the_searchs_parts() -> None:
    """`belief_of`, `sample_world`, `playouts_for` and `play_candidate`, as `research/departures.py` uses them:
    a world keeps what the seat has seen, and a candidate's value is its seat's final margin in a playout
    of a copy of the world."""
    game_map, game = greedy_main_turn("europe", 2, seed=5, seat=1, after=20)
    bot = MctsBot(game_map, 1, 3, iterations=10)
    view = SeatView.of(game, 1)
    belief = bot.belief_of(view, Board.from_view(bot.guide.ix, view))
    world = bot.sample_world(InfoSet(game_map, view.to_json()), random.Random(4), belief)
    assert world.hands[1] == game.hands[1] and world.tickets[1] == game.tickets[1]  # its own, as seen
    assert world.owner == game.owner and world.face_up == game.face_up
    assert world.tickets[0] != game.tickets[0] or world.hands[0] != game.hands[0]  # the hidden part is dealt
    guide = world.encode(bot.guide.choose(view, game.legal_actions()))
    before = list(world.history)
    by_own_style = bot.playouts_for(2)[0]
    value = bot.play_candidate(world, guide, by_own_style)
    assert world.history == before  # played on a copy
    finished = world.copy()
    finished.apply_unchecked(guide)
    by_own_style[0].run(finished)
    totals = [p.total for p in final_score(finished).players]
    assert value == totals[1] - totals[0]
    assert bot.playouts_for(2) is bot.playouts_for(2)  # made once


def test_budgets_are_checked_and_a_bot_without_one_gets_the_fitted_playout_actions() -> None:
    game_map = load_map("new_york")
    with pytest.raises(ValueError, match="iteration"):
        MctsBot(game_map, 0, 0, iterations=0)
    with pytest.raises(ValueError, match="playout action"):
        MctsBot(game_map, 0, 0, playout_actions=0)
    with pytest.raises(ValueError, match="time"):
        MctsBot(game_map, 0, 0, time_limit=-1.0)
    bot = MctsBot(game_map, 0, 0)
    assert bot.budget_for(3) == (None, profile_of("new_york", 3).search.playout_actions)
    assert MctsExpert(game_map, 0, 0).budget_for(2) == (None, profile_of("new_york", 2).search.playout_actions)
    assert MctsBot(game_map, 0, 0, time_limit=2.0).budget_for(2) == (2.0, None)  # `mcts:2s`
    assert MctsBot(game_map, 0, 0, iterations=40).budget_for(2) == (None, None)  # `mcts:40`: 40 playouts
    custom = dataclasses.replace(game_map, name="my_map")  # a map without fitted figures: seconds, as before
    assert MctsBot(custom, 0, 0).budget_for(2) == (FALLBACK_SECONDS, None)


def test_the_default_budget_is_a_count_not_a_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """`mcts` without a budget makes the same decision, after the same playouts and playout actions, however
    fast the clock runs (a slow build or a loaded machine): its budget is the fitted playout actions, and it
    stops at them (within a world's worth)."""
    game_map, game = greedy_main_turn("new_york", 2, seed=3, seat=0, after=8)
    view, legal = SeatView.of(game, 0), legal_actions(game)[1]
    budget = profile_of("new_york", 2).search.playout_actions
    assert budget is not None

    def decide(tick: float) -> tuple[Action, int, int]:
        now = [0.0]

        def clock() -> float:
            now[0] += tick
            return now[0]

        monkeypatch.setattr("ttr.bots.mcts.time.thread_time", clock)
        bot = MctsBot(game_map, 0, 1)
        return bot.choose(view, legal), bot.last_iterations, bot.last_actions

    fast, slow = decide(1e-6), decide(1.0)  # a microsecond or a second a clock read
    assert fast == slow
    assert fast[1] > 0 and 0 < fast[2] <= 1.5 * budget


def test_the_estimate_is_the_final_score_at_the_end_and_values_done_tickets() -> None:
    game_map = load_map("new_york")
    game = Game.new(game_map, 2, seed=1)
    while game.phase != 1:
        game.apply_id(game.legal_ids()[-1])  # keep every ticket offered
    base = estimate(game)[0]
    (_, cost, path), *_ = ticket_paths(game, 0)
    assert cost > 0 and path
    done = game.copy()
    for r in path:  # seat 0 holds the whole path: the ticket is done
        positions.give_route(done, 0, r)
    assert ticket_paths(done, 0)[0][1] == 0
    assert estimate(done)[0] > base
    GreedyPlayout(game_map, 2, 1).run(game)
    assert estimate(game) == [float(p.total) for p in final_score(game).players]


def test_short_playouts_use_the_estimate() -> None:
    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=6)
    playout = GreedyPlayout(game_map, 2, 6)
    assert playout.run(game, 30) == 30 and not game.is_over
    while game.phase != 1:  # a main turn: the search runs
        playout.run(game, 1)
    bot = MctsBot(game_map, game.current, 6, iterations=12, depth=10)
    action = bot.choose(SeatView.of(game, game.current), legal_actions(game)[1])
    assert action in game.legal_actions() and 0 < bot.last_iterations <= 12


def test_t_critical_is_close_to_students_table() -> None:
    table = {2: 2.920, 3: 2.353, 5: 2.015, 10: 1.812, 30: 1.697}  # one-sided 95% points
    for dof, value in table.items():
        assert abs(t_critical(dof) - value) <= 0.14
    assert t_critical(0) == float("inf")


def test_a_playout_can_give_one_seat_another_style() -> None:
    """`GreedyPlayout(styles=...)`: the styled seat plays its variant, the others greedy."""
    from ttr.bots.styles import GreedyRush

    game_map = load_map("new_york")
    plain = GreedyPlayout(game_map, 2, 1)
    styled = GreedyPlayout(game_map, 2, 1, {0: GreedyRush})
    assert policy_of(styled.bots[0]) == GreedyRush and policy_of(styled.bots[1]) == Greedy
    differ = 0
    for seed in range(6):
        a, b = Game.new(game_map, 2, seed=seed), Game.new(game_map, 2, seed=seed)
        plain.run(a)
        styled.run(b)
        differ += a.history != b.history
    assert differ > 0  # rushing is another plan: some games go otherwise


def test_main_turn_candidates_include_each_styles_move() -> None:
    """Given `styles`, a main turn also tries each style's move, continued in that style; by default none."""
    from ttr.bots.styles import STYLES

    game_map, game = greedy_main_turn("europe", 2, seed=4, seat=0, after=10)
    view, legal = SeatView.of(game, 0), game.legal_actions()
    stride = len(game.cat)
    plain = MctsBot(game_map, 0, 1, iterations=12)
    plain.choose(view, legal)
    assert plain.config.styles == () and len(plain.last_values) > 1
    assert all(key < stride for key in plain.last_values)
    styled_bot = MctsBot(game_map, 0, 1, iterations=12)
    styled_bot.config = replace(styled_bot.config, styles=STYLES)
    styled_bot.choose(view, legal)
    styled = [key for key in styled_bot.last_values if key >= stride]
    assert {key // stride for key in styled} == set(range(1, len(STYLES) + 1))


def test_the_search_plays_greedy_long_for_its_own_seat_and_greedy_for_the_others() -> None:
    """The guide and the seat's own playouts are `GreedyLong`; the other seats are modelled as greedy."""
    from ttr.bots.styles import GreedyLong

    game_map, game = greedy_main_turn("new_york", 3, seed=2, seat=1, after=8)
    bot = MctsBot(game_map, 1, 1, iterations=30)
    view, legal = SeatView.of(game, 1), game.legal_actions()
    bot.choose(view, legal)
    assert policy_of(bot.guide) == GreedyLong
    assert bot.last_values[game.encode(GreedyLong(game_map, 1, 1).choose(view, legal))] == 0.0  # the guide's move
    (by_own_style,) = bot.playouts_for(3)  # one opponent style: greedy; the ones the search made
    for styled, style in zip(by_own_style, (GreedyLong, *bot.config.styles), strict=True):
        assert [policy_of(b) for b in styled.bots] == [Greedy, style, Greedy]


def test_the_other_seats_policy_changes_from_world_to_world() -> None:
    """With two opponent styles the worlds alternate between them: every own style is played against each."""
    from ttr.bots.styles import GreedyLong

    game_map, game = greedy_main_turn("new_york", 2, seed=2, seat=0, after=6)
    bot = MctsBot(game_map, 0, 1, iterations=40)
    bot.opponent_styles = (Greedy, GreedyLong)
    seen: list[Any] = []
    play = bot.play_candidate

    def spy(world: Game, key: int, playouts: list[GreedyPlayout]) -> float:
        seen.append(policy_of(playouts[0].bots[1]))
        return play(world, key, playouts)

    bot.play_candidate = spy  # type: ignore[method-assign]
    bot.choose(SeatView.of(game, 0), game.legal_actions())
    assert Greedy in seen and GreedyLong in seen
    switches = sum(a != b for a, b in pairwise(seen))
    assert switches >= 2  # world after world, not one style for the whole search
    assert [[policy_of(b.bots[1]) for b in by_own] for by_own in bot.playouts_for(2)] == [
        [Greedy] * (1 + len(bot.config.styles)), [GreedyLong] * (1 + len(bot.config.styles))]
    assert all(policy_of(b.bots[0]) == own for by_own in bot.playouts_for(2)
               for b, own in zip(by_own, (GreedyLong, *bot.config.styles), strict=True))


def test_expert_models_the_other_seats_as_greedy_and_greedy_long_by_turns() -> None:
    """`expert` (people's top level) plays the other seats as greedy in half its worlds and as `GreedyLong`
    in the other half; `mcts` (the measured search) models them as greedy only."""

    from ttr.bots.styles import GreedyLong

    game_map, game = greedy_main_turn("new_york", 2, seed=2, seat=0, after=6)
    view, legal = SeatView.of(game, 0), game.legal_actions()
    expert = MctsExpert(game_map, 0, 1, iterations=40, time_limit=None)
    expert.choose(view, legal)
    assert [policy_of(by_own[0].bots[1]) for by_own in expert.playouts_for(2)] == [Greedy, GreedyLong]
    plain = MctsBot(game_map, 0, 1, iterations=40)
    plain.choose(view, legal)
    assert [policy_of(by_own[0].bots[1]) for by_own in plain.playouts_for(2)] == [Greedy]
    # The claims are replayed on the paths of the same policies (`inference.ClaimReplay`).
    assert expert._replay is not None and plain._replay is not None
    assert [policy_of(getattr(f, "__self__", None)) for f in expert._replay.path_costs] == [Greedy, GreedyLong]
    assert [policy_of(getattr(f, "__self__", None)) for f in plain._replay.path_costs] == [Greedy]
    assert expert._replay.seen == len(view.log) and any(expert._replay.claims)


@pytest.mark.parametrize(("map_name", "seats", "fitted"), [
    ("europe", 2, "GreedyLongDuel"), ("europe", 3, "GreedyLongFour"), ("europe", 4, "GreedyLongFour"),
    ("new_york", 2, "GreedyLong"), ("new_york", 4, "GreedyLong")])
def test_expert_models_the_other_seats_as_greedy_and_the_games_fitted_guide(map_name: str, seats: int,
                                                                           fitted: str) -> None:
    """`expert`'s second model of the other seats is the guide fitted to the map and seat count, the bot
    people meet as `hard`: its playouts and the belief's claim replay use it."""
    from ttr.bots import styles


    style = getattr(styles, fitted)
    game_map, game = greedy_main_turn(map_name, seats, seed=3, seat=0, after=2 * seats)
    view, legal = SeatView.of(game, 0), game.legal_actions()
    expert = MctsExpert(game_map, 0, 1, iterations=2 * seats + 6, time_limit=None)
    expert.choose(view, legal)
    assert expert.opponent_styles == (Greedy, style) == (Greedy, MctsExpert.guide_for(map_name, seats))
    assert [policy_of(by_own[0].bots[1]) for by_own in expert.playouts_for(seats)] == [Greedy, style]
    assert expert._replay is not None
    assert [policy_of(getattr(f, "__self__", None)) for f in expert._replay.path_costs] == [Greedy, style]



def test_a_candidate_leaves_the_guide_only_when_clearly_better() -> None:
    """The gate: at least `margin` points better on average, in `min_worlds` worlds, beyond the noise."""
    bot = MctsBot(load_map("new_york"), 0, 1, iterations=10)

    def gate(gains: list[float]) -> bool:
        return bot.clearly_better(sum(gains), sum(g * g for g in gains), len(gains))

    assert gate([3.0, 4.0, 5.0, 4.0])  # steady gains above the margin
    assert not gate([1.0, 1.5, 1.0, 1.5])  # steady, but below the margin (2 points)
    assert not gate([5.0, 5.0])  # too few worlds
    assert not gate([20.0, -12.0, 15.0, -10.0])  # a mean of 3.25 within the noise
    steady = [1.5, 1.4, 1.6, 1.5]
    assert not gate(steady)
    two_seats = bot.margin_for(2)  # two-seat New York: the lower `wide_margin`, which a steady 1.5 clears
    assert two_seats == 1.0 and bot.clearly_better(sum(steady), sum(g * g for g in steady), 4, two_seats)
    assert bot.margin_for(4) == bot.config.margin == 2.0
    assert MctsBot(load_map("europe"), 0, 1, iterations=10).margin_for(2) == 2.0


@pytest.mark.parametrize(("map_name", "players", "guide", "own"), [
    ("europe", 2, "GreedyLongDuel", "DenyingLongDuel"), ("europe", 3, "GreedyLongFour", "GreedyLongFour"),
    ("europe", 4, "GreedyLongFour", "GreedyLongFour"), ("europe", 5, "GreedyLongFour", "GreedyLongFour"),
    ("new_york", 2, "GreedyLong", "GreedyLong"), ("new_york", 4, "GreedyLong", "GreedyLong")])
def test_europe_games_have_a_guide_fitted_to_their_seat_count(map_name: str, players: int, guide: str,
                                                             own: str) -> None:
    """The profiles (`ttr.bots.profiles`): in two-seat Europe games the guide and the seat's own playouts
    take the values fitted to two-player Europe (`GreedyLongDuel`, `DenyingLongDuel`), with three to five
    seats those fitted to four-player Europe (`GreedyLongFour`); in New York the guide is `GreedyLong`. The
    guide's move is the candidate the search values at 0."""
    from ttr.bots import styles

    game_map, game = greedy_main_turn(map_name, players, seed=4, seat=0, after=6)
    bot = MctsBot(game_map, 0, 1, iterations=20)
    view, legal = SeatView.of(game, 0), game.legal_actions()
    bot.choose(view, legal)
    guide_class = getattr(styles, guide)
    assert policy_of(bot.guide) == guide_class
    duel = guide == "GreedyLongDuel" or (map_name, players) == ("new_york", 2)  # two-seat knobs
    params = bot.guide.params
    assert params.overhead == (0.8 if duel else 0.4)
    fitted = guide in ("GreedyLongDuel", "GreedyLongFour")
    assert params.long_min == (4 if fitted else 3)
    assert not params.face_up_wilds  # no guide takes a face-up wild
    if guide == "GreedyLongDuel":  # ... and two-seat Europe's draws no tickets after setup
        assert not params.draws_tickets
    elif map_name == "europe":
        assert params.ticket_draw_others == 0.45 and params.draws_tickets
    else:  # New York's guide draws no tickets after setup
        assert not params.draws_tickets
    assert bot.last_values[game.encode(guide_class(game_map, 0, 1).choose(view, legal))] == 0.0
    own_class = getattr(styles, own)
    assert policy_of(bot.playouts_for(players)[0][0].bots[0]) == own_class


def test_the_time_budget_counts_the_whole_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guide's own choice counts against `time_limit`: a guide that takes the whole budget leaves the
    search one world (the first is always played) instead of many. The clock is faked: it moves 1 ms a read
    (about one read a world: some 25 worlds in the budget), and the guide's choice moves it by the budget."""
    now = [0.0]

    def clock() -> float:
        now[0] += 0.001
        return now[0]

    monkeypatch.setattr("ttr.bots.mcts.time.thread_time", clock)
    game_map, game = greedy_main_turn("new_york", 2, seed=3, seat=0, after=8)
    view, legal = SeatView.of(game, 0), legal_actions(game)[1]

    budget = 0.03

    def searched(slow_guide: bool) -> int:
        bot = MctsBot(game_map, 0, 1, time_limit=budget)
        bot.config = replace(bot.config, prune=1e9)  # no candidate is dropped: every world plays them all
        if slow_guide:
            choose = bot.guide.choose

            def slow(view: SeatView, legal: list[Action]) -> Action:
                now[0] += budget
                return choose(view, legal)

            monkeypatch.setattr(bot.guide, "choose", slow)
        bot.choose(view, legal)
        return bot.last_iterations // len(bot.last_values)  # worlds

    assert searched(slow_guide=False) > 5
    assert searched(slow_guide=True) == 1


@pytest.mark.parametrize(("map_name", "players", "guide"), [
    ("europe", 2, "GreedyLongDuel"), ("europe", 3, "GreedyLongFour"), ("new_york", 2, "GreedyLong")])
def test_hard_is_the_search_guide_alone(map_name: str, players: int, guide: str) -> None:
    """The `hard` level plays the guide `mcts` asks in a game of that map and seat count
    (`MctsBot.guide_for`): a whole game with `hard` in the first seat is the game with that guide class there
    (and, in these Europe deals, not the one with `GreedyLong` there)."""
    from ttr.bots import styles

    game_map = load_map(map_name)
    guide_class = getattr(styles, guide)
    assert MctsBot.guide_for(map_name, players) == guide_class

    def history(first: Any) -> list[Any]:
        bots = [first, *(make_bot("greedy", game_map, s, 2) for s in range(1, players))]
        return list(play_game(game_map, bots, 2).history)

    hard = make_bot("hard", game_map, 0, 2)
    played = history(hard)
    assert policy_of(getattr(hard, "guide", None)) == guide_class
    assert played == history(guide_class(game_map, 0, 2))
    if guide_class != styles.GreedyLong:
        assert played != history(styles.GreedyLong(game_map, 0, 2))
