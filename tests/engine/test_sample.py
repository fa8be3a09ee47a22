"""Determinization (`ttr.engine.sample`): a sampled game is a legal game the seat cannot tell apart from the real one.

Over random positions of random games on both maps and every seat count, for the seat to play and for
other seats: the sample's view from that seat equals the real view (the log included), its legal ids
equal the real ones when it is that seat's turn, every card and ticket is accounted for, and the
sample plays on to the end.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from ttr.engine import Action, Game, seat_view
from ttr.engine.phases import CHOOSE_SETUP, CHOOSE_TICKETS, MAIN, SECOND_CARD, TUNNEL
from ttr.engine.sample import InfoSet, determinize, draw_weighted
from ttr.maps import load_map

CASES = [("europe", 2), ("europe", 3), ("europe", 4), ("europe", 5), ("new_york", 2), ("new_york", 3),
         ("new_york", 4)]


def _check_accounting(real: Game, sample: Game) -> None:
    """Every card and every ticket of the sample is somewhere, once; the hidden sizes are the real ones."""
    m = sample.map
    cards = Counter(sample._deck) + Counter(sample.discard) + Counter(c for c in sample.face_up if c >= 0)
    cards += Counter(sample.t_revealed)
    for hand in sample.hands:
        cards += Counter({c: k for c, k in enumerate(hand) if k})
    if sample.phase == TUNNEL:
        cards[sample.t_color] += m.routes[sample.t_route].length - sample.t_wild
        cards[sample.wild] += sample.t_wild
    expected = Counter({c: m.per_color for c in range(len(m.colors))})
    expected[sample.wild] = m.wild_count
    assert +cards == +expected
    assert len(sample._deck) == len(real._deck)
    assert [sum(h) for h in sample.hands] == [sum(h) for h in real.hands]
    held = [t for ts in sample.tickets for t in ts] + list(sample.offered) + sample._ticket_deck
    if sample.phase == CHOOSE_SETUP:
        held += [t for q, offer in enumerate(sample._setup_offers) if q > sample.current for t in offer]
    assert len(held) == len(set(held))
    assert [len(t) for t in sample.tickets] == [len(t) for t in real.tickets]
    assert len(sample._ticket_deck) == len(real._ticket_deck)
    assert len(sample.offered) == len(real.offered)
    if m.rules.setup_returned == "box":  # Europe: long tickets never enter the deck; one at most per seat
        assert not any(m.tickets[t].long for t in sample._ticket_deck)
        assert all(sum(m.tickets[t].long for t in ts) <= 1 for ts in sample.tickets)


@pytest.mark.parametrize(("map_name", "players"), CASES)
def test_samples_match_the_view_and_the_legal_actions(map_name: str, players: int) -> None:
    game_map = load_map(map_name)
    phases: Counter[int] = Counter()
    final_round = 0
    for seed in range(6):
        game = Game.new(game_map, players, seed=seed)
        rng = random.Random(seed)
        step = 0
        while not game.is_over:
            if rng.random() < 0.08 or game.phase == TUNNEL:
                seat = game.current if rng.random() < 0.7 else rng.randrange(players)
                view = seat_view(game, seat)
                sample = determinize(game_map, view, random.Random(step))
                assert seat_view(sample, seat) == view
                assert sample.final_turns == game.final_turns
                assert sample.passes == game.passes
                if seat == game.current:
                    assert sample.legal_ids() == game.legal_ids()
                _check_accounting(game, sample)
                phases[game.phase] += 1
                final_round += game.final_turns >= 0
                if step % 5 == 0:  # the sample is a game that plays on to the end
                    play = random.Random(step)
                    while not sample.is_over:
                        ids = sample.legal_ids()
                        sample.apply_id(ids[play.randrange(len(ids))])
            ids = game.legal_ids()
            game.apply_id(ids[rng.randrange(len(ids))])
            step += 1
    # The positions checked cover every phase (tunnels on Europe) and the final round.
    wanted = {CHOOSE_SETUP, MAIN, SECOND_CARD, CHOOSE_TICKETS} | ({TUNNEL} if map_name == "europe" else set())
    assert wanted <= set(phases)
    assert final_round > 0


def test_cards_taken_face_up_stay_in_the_hand_until_played() -> None:
    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=5)
    while game.phase == CHOOSE_SETUP:
        game.apply(game.legal_actions()[-1])
    game.apply(Action("draw_card", source="deck"))
    game.apply(Action("draw_card", source="deck"))
    colour = next(c for c in game.face_up if 0 <= c < game.wild)
    game.apply(Action("draw_card", source="face_up", card=game_map.card_names[colour]))
    game.apply(Action("draw_card", source="deck"))
    view = seat_view(game, 0)
    info = InfoSet(game_map, view)
    rng = random.Random(1)
    hands = [info.sample(rng).hands[1] for _ in range(50)]
    assert all(hand[colour] >= 1 for hand in hands)
    assert len({tuple(h) for h in hands}) > 1  # the rest of the hand is sampled


def test_hidden_parts_vary_and_the_seed_decides() -> None:
    game_map = load_map("new_york")
    game = Game.new(game_map, 3, seed=2)
    while game.phase == CHOOSE_SETUP:
        game.apply(game.legal_actions()[0])
    view = seat_view(game, 0)
    a = determinize(game_map, view, random.Random(7))
    b = determinize(game_map, view, random.Random(7))
    assert (a.hands, a._deck, a.tickets, a._ticket_deck) == (b.hands, b._deck, b.tickets, b._ticket_deck)
    decks = {tuple(determinize(game_map, view, random.Random(s))._deck) for s in range(10)}
    assert len(decks) > 1
    assert a.hands[0] == game.hands[0] and a.tickets[0] == game.tickets[0]


def test_a_finished_game_cannot_be_sampled() -> None:
    game_map = load_map("new_york")
    game = Game.new(game_map, 2, seed=0)
    rng = random.Random(0)
    while not game.is_over:
        ids = game.legal_ids()
        game.apply_id(ids[rng.randrange(len(ids))])
    with pytest.raises(ValueError, match="over"):
        determinize(game_map, seat_view(game, 0), rng)


def _keep_first_only(game: Game) -> None:
    """Keep only the first ticket offered (or the fewest the rules allow) and play on."""
    keeps = [a for a in game.legal_actions() if a.kind == "keep_tickets"]
    game.apply(min(keeps, key=lambda a: len(a.tickets)))


def test_tickets_the_seat_gave_back_at_setup_stay_out_of_the_game_in_europe() -> None:
    """E-SETUP-5: returned at setup means out of the game, so no sample deals them to anyone."""
    game_map = load_map("europe")
    game = Game.new(game_map, 3, seed=11)
    offered = [game_map.tickets[t].name for t in game.offered]
    _keep_first_only(game)
    view = seat_view(game, 0)
    returned = view["log"][0]["returned"]
    assert returned and set(returned) <= set(offered)
    assert "returned" not in seat_view(game, 1)["log"][0]  # the others see a count only
    boxed = {game_map.ticket(t).index for t in returned}
    rng = random.Random(3)
    while game.phase == CHOOSE_SETUP:
        _keep_first_only(game)
    for _ in range(200):
        sample = InfoSet(game_map, seat_view(game, 0)).sample(rng)
        placed = {t for ts in sample.tickets for t in ts} | set(sample._ticket_deck)
        assert not boxed & placed


def test_tickets_the_seat_gave_back_lie_at_the_bottom_of_the_deck_until_drawn() -> None:
    """E-TICK-2 / N-TICK-1: the seat knows where its returned tickets are; no sample moves them."""
    game_map = load_map("new_york")
    game = Game.new(game_map, 2, seed=4)
    while game.phase == CHOOSE_SETUP:
        _keep_first_only(game)
    game.apply(Action("draw_tickets"))
    assert game.current == 0 or game.phase == CHOOSE_TICKETS
    seat = game.current
    _keep_first_only(game)
    returned = seat_view(game, seat)["log"][-1]["returned"]
    ids = [game_map.ticket(t).index for t in returned]
    assert game._ticket_deck[-len(ids):] == ids
    rng = random.Random(5)
    for _ in range(100):
        sample = InfoSet(game_map, seat_view(game, seat)).sample(rng)
        assert sample._ticket_deck[-len(ids):] == ids
        assert not set(ids) & {t for ts in sample.tickets for t in ts}
    # The other seat draws tickets until it reaches them: then they may be anywhere unseen.
    other = 1 - seat
    while min(game._ticket_deck.index(t) for t in ids) >= game_map.rules.draw_tickets:
        if game.current != other:
            game.apply(Action("draw_card", source="deck"))
            game.apply(Action("draw_card", source="deck"))
            continue
        game.apply(Action("draw_tickets"))
        _keep_first_only(game)
    if game.current != other:
        game.apply(Action("draw_card", source="deck"))
        game.apply(Action("draw_card", source="deck"))
    game.apply(Action("draw_tickets"))  # the other seat's offer reaches the returned tickets
    view = seat_view(game, seat)
    held: Counter[int] = Counter()
    for _ in range(300):
        sample = InfoSet(game_map, view).sample(rng)
        held.update(t for t in ids if t in sample.offered)
    reached = [t for t in ids if t in game.offered]
    assert reached and all(held[t] == 300 for t in reached)  # known: the seat saw where they went


def test_weights_make_a_ticket_likelier_without_breaking_the_view() -> None:
    """A belief about another seat's tickets changes the deal, not what the seat sees."""
    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=8)
    while game.phase == CHOOSE_SETUP:
        game.apply(game.legal_actions()[-1])
    view = seat_view(game, 0)
    info = InfoSet(game_map, view)
    favourite = next(t.index for t in game_map.tickets if not t.long and t.index not in game.tickets[0])
    weights: list[list[float] | None] = [None, [1.0] * len(game_map.tickets)]
    assert weights[1] is not None
    weights[1][favourite] = 50.0
    rng = random.Random(2)
    with_belief = sum(favourite in info.sample(rng, weights).tickets[1] for _ in range(200))
    uniform = sum(favourite in info.sample(rng).tickets[1] for _ in range(200))
    assert with_belief > 150 and uniform < 100
    sample = info.sample(rng, weights)
    assert seat_view(sample, 0) == view
    _check_accounting(game, sample)


def test_long_held_odds_decide_how_many_long_tickets_a_seat_kept_at_setup() -> None:
    """E-SETUP-5: a seat keeps at least 2 of its 1 long and 3 regular tickets; a model of how it keeps (odds
    per long-ticket count) replaces the uniform deal of a keep-set, and the samples still match the view."""
    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=5)
    while game.phase == CHOOSE_SETUP:  # each seat keeps 2 of its 4 tickets
        game.apply(min((a for a in game.legal_actions() if a.kind == "keep_tickets"), key=lambda a: len(a.tickets)))
    view = seat_view(game, 0)
    info = InfoSet(game_map, view)
    assert info.setup_keep(1) == 2 and info.setup_keep(0) == 2
    rng = random.Random(4)

    def longs(sample: Game) -> int:
        return sum(game_map.tickets[t].long for t in sample.tickets[1])

    uniform = Counter(longs(info.sample(rng)) for _ in range(400))
    assert 140 < uniform[1] < 260  # a keep-set of 2 of 4 holds the long ticket half the time
    assert {longs(info.sample(rng, None, [None, [0.0, 1.0]])) for _ in range(100)} == {1}
    assert {longs(info.sample(rng, None, [None, [1.0, 0.0]])) for _ in range(100)} == {0}
    skewed = Counter(longs(info.sample(rng, None, [None, [0.1, 0.9]])) for _ in range(400))
    assert skewed[1] > 320
    sample = info.sample(rng, None, [None, [0.0, 1.0]])
    assert seat_view(sample, 0) == view
    _check_accounting(game, sample)


def test_long_held_odds_that_give_no_count_a_chance_are_refused_by_name() -> None:
    game_map = load_map("europe")
    game = Game.new(game_map, 2, seed=5)
    while game.phase == CHOOSE_SETUP:
        game.apply(game.legal_actions()[-1])
    info = InfoSet(game_map, seat_view(game, 0))
    with pytest.raises(ValueError, match="long_held: odds"):
        info.sample(random.Random(1), None, [None, [0.0, 0.0]])


@pytest.mark.parametrize(("change", "message"), [
    (lambda v: v["players"][1].update(trains=v["players"][1]["trains"] - 1), "trains do not match its log"),
    (lambda v: v["players"][0]["hand"].update(red=50), "more red cards than the map has"),
    (lambda v: v["players"][1].update(hand_size=v["players"][1]["hand_size"] + 1), "card counts do not add up"),
    (lambda v: v.update(deck_size=v["deck_size"] + 1), "card counts do not add up"),
    (lambda v: v.update(ticket_deck_size=v["ticket_deck_size"] + 1), "ticket counts do not add up"),
], ids=["trains", "too-many-of-a-colour", "hand-size", "deck-size", "ticket-deck-size"])
def test_a_view_that_does_not_add_up_is_refused_by_name(change: Any, message: str) -> None:
    """A view edited so that it contradicts itself or the map cannot be sampled: the error says what is wrong."""
    game_map = load_map("new_york")
    game = Game.new(game_map, 2, seed=3)
    rng = random.Random(1)
    for _ in range(30):
        ids = game.legal_ids()
        game.apply_id(ids[rng.randrange(len(ids))])
    view = seat_view(game, 0)
    InfoSet(game_map, view)  # the view as it is samples
    change(view)
    with pytest.raises(ValueError, match=message):
        InfoSet(game_map, view)



def test_draw_weighted_draws_each_item_in_proportion_to_the_weight_left() -> None:
    """Successive sampling: the chance of each ordered draw is the product of weight / weight left; checked
    against exact inclusion and first-draw chances, enumerated."""
    pool = list(range(10, 25))
    weights = [0.0] * 25
    for t in pool:
        weights[t] = 1.0
    weights[10], weights[11] = 40.0, 5.0
    total = sum(weights)
    inclusion = dict.fromkeys(pool, 0.0)
    for a in pool:
        for b in pool:
            for c in pool:
                if len({a, b, c}) == 3:
                    chance = (weights[a] / total * weights[b] / (total - weights[a])
                              * weights[c] / (total - weights[a] - weights[b]))
                    for t in (a, b, c):
                        inclusion[t] += chance
    rng = random.Random(5)
    n = 20000
    included: Counter[int] = Counter()
    first: Counter[int] = Counter()
    before = pool[:]
    for _ in range(n):
        drawn = draw_weighted(pool, 3, weights, rng)
        assert len(set(drawn)) == 3 and set(drawn) <= set(pool)
        included.update(drawn)
        first[drawn[0]] += 1
    assert pool == before
    for t in pool:
        assert abs(included[t] / n - inclusion[t]) < 0.015, t
        assert abs(first[t] / n - weights[t] / total) < 0.015, t
    assert sorted(draw_weighted(pool, 40, weights, rng)) == pool and draw_weighted(pool, 0, weights, rng) == []


@pytest.mark.parametrize(("map_name", "players"), CASES)
def test_a_ticket_deal_completed_is_a_sample(map_name: str, players: int) -> None:
    """`sample` is `complete(deal_tickets(...))`: the deal fixes the other seats' tickets, the completion
    deals the rest (cards, deck orders), and the same seed gives the same game either way."""
    game_map = load_map(map_name)
    game = Game.new(game_map, players, seed=11)
    rng = random.Random(11)
    while len(game.history) < 30 and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    seat = game.current
    info = InfoSet(game_map, seat_view(game, seat))
    whole = info.sample(random.Random(4))
    split_rng = random.Random(4)
    split = info.complete(split_rng, info.deal_tickets(split_rng))
    assert (whole.tickets, whole.hands, whole._deck, whole._ticket_deck, whole.offered) == (
        split.tickets, split.hands, split._deck, split._ticket_deck, split.offered)
    deal = info.deal_tickets(random.Random(8))
    assert deal.tickets[seat] == []  # the seat's own tickets are the template's, not dealt
    games = [info.complete(random.Random(s), deal) for s in range(6)]
    for g in games:
        assert [g.tickets[q] for q in range(players) if q != seat] == [
            deal.tickets[q] for q in range(players) if q != seat]
        assert g.tickets[seat] == game.tickets[seat]
        _check_accounting(game, g)
        assert seat_view(g, seat) == seat_view(game, seat)
    assert len({tuple(g._deck) for g in games}) > 1
