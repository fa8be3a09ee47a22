"""`ttr.bots.setup_keeps`: greedy's keep of every Europe setup offer, and the search dealing by it."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from importlib import resources

import pytest

from engine.test_sample import _check_accounting
from helpers import greedy_main_turn
from ttr.bots.mcts import MctsBot, MctsExpert
from ttr.bots.planning import Board
from ttr.bots.setup_keeps import SetupKeeps, keep_mask, setup_pools, subset_rank, subsets
from ttr.engine import Game, SeatView
from ttr.engine.phases import CHOOSE_SETUP
from ttr.engine.sample import InfoSet
from ttr.maps import load_map


def test_offers_are_ranked_in_the_order_they_are_listed() -> None:
    for n, k in ((6, 1), (7, 3), (5, 0), (4, 4)):
        listed = subsets(n, k)
        assert [subset_rank(s) for s in listed] == list(range(len(listed)))
        assert len(set(listed)) == len(listed) and all(list(s) == sorted(s) for s in listed)


def test_the_shipped_table_is_greedys_keep_today() -> None:
    """E-SETUP-5: each seat keeps at least 2 of its 1 long and 3 regular tickets. The table holds greedy's
    keep of every such offer; a sample of entries, computed afresh, must agree (if greedy's ticket choice
    changes, run `scripts/make_setup_keeps.py`)."""
    game_map = load_map("europe")
    keeps = SetupKeeps.for_map(game_map)
    assert keeps is not None and SetupKeeps.for_map(game_map) is keeps  # cached with the map
    longs, regulars = setup_pools(game_map)
    rng = random.Random(20)
    sizes = set()
    for _ in range(12):
        offer_long, offer_regular = rng.sample(longs, 1), sorted(rng.sample(regulars, 3))
        for hand, seed in enumerate(keeps.hands):
            mask = keep_mask(game_map, offer_long + offer_regular, seed)
            expected = [t for i, t in enumerate(offer_long + offer_regular) if mask >> i & 1]
            kept = keeps.kept(offer_long, offer_regular[::-1], hand)  # any order of the offer
            assert kept == expected
            assert len(kept) >= 2
            sizes.add(len(kept))
    assert len(sizes) > 1  # not one answer for every offer
    assert SetupKeeps.for_map(load_map("new_york")) is None  # no long tickets, no table


def test_a_table_for_another_map_or_damaged_is_refused_by_name() -> None:
    game_map = load_map("europe")
    text = resources.files("ttr.bots").joinpath("data", "setup-keeps-europe.json").read_text(encoding="utf-8")
    data = json.loads(text)
    with pytest.raises(ValueError, match="not format 1 for map 'new_york'"):
        SetupKeeps(load_map("new_york"), data)
    with pytest.raises(ValueError, match="other tickets than the map"):
        SetupKeeps(game_map, {**data, "tickets": data["tickets"][::-1]})
    with pytest.raises(ValueError, match="offers x 2 hands"):
        SetupKeeps(game_map, {**data, "hands": data["hands"][:2]})


def test_a_deal_is_a_set_greedy_keeps_drawn_from_the_tickets_given() -> None:
    game_map = load_map("europe")
    keeps = SetupKeeps.for_map(game_map)
    assert keeps is not None
    longs, regulars = setup_pools(game_map)
    hidden_long, hidden_regular = longs[:4], regulars[5:30]
    rng = random.Random(3)
    for count in (2, 3, 4):  # greedy keeps 2 of an offer in 17% of the table's entries, 3 in 58%, 4 in 25%
        dealt = [keeps.deal(rng, hidden_long, hidden_regular, count) for _ in range(50)]
        found = [kept for kept in dealt if kept is not None]
        assert len(found) >= 45  # rarely no offer of the 30 drawn (the caller then deals as before)
        for kept in found:
            assert len(kept) == count == len(set(kept))
            assert set(kept) <= set(hidden_long) | set(hidden_regular)
            assert sum(t in hidden_long for t in kept) <= 1
        assert len({tuple(sorted(kept)) for kept in found}) > 10
    assert keeps.deal(rng, hidden_long, hidden_regular, 1) is None  # greedy never keeps a single ticket
    assert keeps.deal(rng, [], hidden_regular, 2) is None  # no long ticket left to offer
    weights = [1.0] * len(game_map.tickets)
    favourite = hidden_regular[0]
    weights[favourite] = 40.0
    weighted = sum(favourite in (keeps.deal(rng, hidden_long, hidden_regular, 2, weights) or ()) for _ in range(400))
    plain = sum(favourite in (keeps.deal(rng, hidden_long, hidden_regular, 2) or ()) for _ in range(400))
    # Offered in most weighted draws (about 94%) and then often kept: about 29% of deals, against about 4%
    # without the weight (offered in 3 of 25 draws).
    assert weighted > 3 * plain and weighted > 80


def test_a_sample_keeps_the_setup_tickets_it_is_given_and_refuses_bad_ones() -> None:
    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=8)
    while game.phase == CHOOSE_SETUP:
        game.apply(game.legal_actions()[-1])
    view = SeatView.of(game, 0)
    info = InfoSet(game_map, view.to_json())
    k = info.setup_keep(1)
    longs, regulars = info.hidden_tickets()
    given = longs[:1] + regulars[:k - 1]
    rng = random.Random(5)
    for _ in range(20):
        sample = info.sample(rng, None, None, [None, given])
        assert sample.tickets[1][:k] == given
        assert SeatView.of(sample, 0) == view
        _check_accounting(game, sample)
    with pytest.raises(ValueError, match="seat 1 did not keep 1 tickets"):
        info.sample(rng, None, None, [None, given[:1]])
    with pytest.raises(ValueError, match="seat 0 did not keep"):
        info.sample(rng, None, None, [given, None])
    mine = game.tickets[0][0]
    with pytest.raises(ValueError, match=f"ticket {mine} for seat 1 is not hidden"):
        info.sample(rng, None, None, [None, [mine, *given[1:]]])
    with pytest.raises(ValueError, match="1 entries for 2 seats"):
        info.sample(rng, None, None, [given])


def test_the_search_deals_the_other_seats_setup_tickets_as_greedy_keeps_them() -> None:
    """Every world of the search holds, as the other seat's setup tickets, a set greedy keeps from some
    offer of the table (without it, 18 of these 30 worlds do)."""
    game_map, game = greedy_main_turn("europe", 2, 4, seat=0, after=12)
    view = SeatView.of(game, 0)
    info = InfoSet(game_map, view.to_json())
    keeps = SetupKeeps.for_map(game_map)
    assert keeps is not None
    k = info.setup_keep(1)
    kept_sets = set()
    bot = MctsBot(game_map, 0, 1, iterations=10)
    belief = bot.belief_of(view, Board.from_view(bot.guide.ix, view))
    rng = random.Random(9)
    for _ in range(30):
        world = bot.sample_world(info, rng, belief)
        setup = list(world.tickets[1][:k])
        offer_long = [t for t in setup if game_map.tickets[t].long]
        kept_sets.add(tuple(sorted(setup)))
        assert len(offer_long) <= 1
        assert SeatView.of(world, 0) == view
        _check_accounting(game, world)
        assert _greedy_keeps(keeps, setup)
    assert len(kept_sets) > 5


def test_with_more_seats_or_a_mix_of_models_the_search_deals_as_before() -> None:
    """The table serves two-seat games (where it was measured) and a model of greedy alone: a search with
    three seats, or the expert (greedy and `GreedyLong`), deals the same worlds with it as without it."""
    plain = type("NoTable", (MctsBot,), {"config": replace(MctsBot.config, assume_greedy_setup_keeps=False)})
    table_expert = type("TableExpert", (MctsExpert,),
                        {"config": replace(MctsExpert.config, assume_greedy_setup_keeps=True)})
    for players, with_table, without in ((3, MctsBot, plain), (2, table_expert, MctsExpert)):
        game_map, game = greedy_main_turn("europe", players, 4, seat=0, after=12)
        view = SeatView.of(game, 0)
        info = InfoSet(game_map, view.to_json())
        worlds = []
        for cls in (with_table, without):
            bot = cls(game_map, 0, 1, iterations=10)
            belief = bot.belief_of(view, Board.from_view(bot.guide.ix, view))
            rng = random.Random(9)
            worlds.append([bot.sample_world(info, rng, belief).tickets for _ in range(5)])
        assert worlds[0] == worlds[1]


def _greedy_keeps(keeps: SetupKeeps, setup: list[int]) -> bool:
    """Whether some offer holding `setup` (plus tickets of the table's pools) is kept as exactly `setup`
    by greedy with some table hand."""
    longs, regulars = keeps.longs, keeps.regulars
    have_long = [t for t in setup if t in longs]
    have_regular = [t for t in setup if t in regulars]
    long_choices = [have_long] if have_long else [[t] for t in longs]
    for offer_long in long_choices:
        for extra in subsets(len(regulars), 3 - len(have_regular)):
            offer_regular = have_regular + [regulars[i] for i in extra]
            if len(set(offer_regular)) < 3:
                continue
            if any(sorted(keeps.kept(offer_long, offer_regular, h)) == sorted(setup) for h in range(len(keeps.hands))):
                return True
    return False
