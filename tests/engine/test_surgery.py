"""World surgery (`ttr.engine.surgery`) keeps a game one the rules could have reached: random games on both maps
with random surgery between their steps pass every check of the invariant checker (cards and tickets conserved,
pieces, scores, double routes, the listed ids legal and applying, the views holding no secret); each function
does what it says, and one that cannot changes nothing."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.test_properties import MAPS, Checker, card_counts, fingerprint
from ttr.engine import Game, seat_view, surgery
from ttr.engine.phases import CHOOSE_SETUP
from ttr.maps import load_map


def _random_surgery(game: Game, rnd: random.Random, done: Counter[str]) -> None:
    """One surgery chosen at random, with arguments it accepts (or refuses, checking that nothing changed)."""
    seat = rnd.randrange(game.n)
    hand = game.hands[seat]
    held = [c for c, k in enumerate(hand) if k]
    kinds = len(hand)
    choice = rnd.randrange(9)
    if choice == 0 and game._deck:
        cards = rnd.sample(game._deck, min(len(game._deck), rnd.randrange(1, 4)))
        assert surgery.force_draws(game, cards)
        assert game._deck[len(game._deck) - len(cards):] == cards[::-1]
        done["force_draws"] += 1
    elif choice == 1 and held and game._deck:
        depth = rnd.randrange(len(game._deck))
        surgery.swap_with_deck(game, seat, rnd.choice(held), depth)
        done["swap_with_deck"] += 1
    elif choice == 2 and held and game._deck:
        if surgery.exchange_with_deck(game, seat, rnd.choice(held), rnd.choice(game._deck)):
            done["exchange_with_deck"] += 1
    elif choice == 3 and held:
        counts = [rnd.randint(0, k) for k in hand]
        surgery.return_to_deck(game, seat, counts)
        surgery.shuffle_deck(game, rnd)
        surgery.deal_from_deck(game, seat, sum(counts))
        done["redeal"] += 1
    elif choice == 4:
        size = sum(hand)
        pool = [c for c in game._deck] + [c for c, k in enumerate(hand) for _ in range(k)]
        new = [0] * kinds
        for c in rnd.sample(pool, size):
            new[c] += 1
        surgery.set_hand(game, seat, new)
        assert game.hands[seat] == new
        done["set_hand"] += 1
    elif choice == 5 and game._ticket_deck:
        front = rnd.sample(game._ticket_deck, min(3, len(game._ticket_deck)))
        assert surgery.force_tickets(game, front)
        assert game._ticket_deck[:len(front)] == front
        done["force_tickets"] += 1
    elif choice == 6 and game._ticket_deck:
        holding = game.tickets[seat] or surgery.setup_offer(game, seat)
        if holding:
            surgery.swap_hidden_ticket(game, seat, rnd.choice(holding), rnd.choice(game._ticket_deck))
            done["swap_hidden_ticket"] += 1
    elif choice == 7:
        surgery.reseed(game, rnd)
        done["reseed"] += 1
    elif choice == 8:
        surgery.reshuffle_under(game)
        done["reshuffle_under"] += 1


def _play_with_surgery(game: Game, rnd: random.Random, done: Counter[str]) -> None:
    checker = Checker(game, rnd, deep=False)
    while not game.is_over:
        if rnd.random() < 0.3:
            _random_surgery(game, rnd, done)
            checker.after_surgery()  # a ticket swap rewrites the past keeps that the views show
            checker.check_state()
            deep = rnd.random() < 0.05
            checker.check_ids(deep=deep, fp=None if deep else fingerprint(game))
            if rnd.random() < 0.05:
                checker.views.check(every_seat=True)
        ids = checker.next_ids
        checker.step(rnd.choice(ids))


@pytest.mark.parametrize("map_name", sorted(MAPS))
def test_random_surgery_between_the_steps_of_random_games_keeps_every_invariant(map_name: str) -> None:
    m = load_map(map_name)
    done: Counter[str] = Counter()
    for seed in range(12):
        rnd = random.Random(seed)
        game = Game.new(m, MAPS[map_name][seed % len(MAPS[map_name])], seed=seed)
        _play_with_surgery(game, rnd, done)
    assert set(done) == {"force_draws", "swap_with_deck", "exchange_with_deck", "redeal", "set_hand",
                         "force_tickets", "swap_hidden_ticket", "reseed", "reshuffle_under"}, done


def test_surgery_that_cannot_be_done_changes_nothing() -> None:
    game = Game.new(load_map("europe"), 2, seed=3)
    before = (game._deck[:], [h[:] for h in game.hands], game._ticket_deck[:])
    assert not surgery.force_tickets(game, [game.tickets[0][0]] if game.tickets[0] else [10_000])
    with pytest.raises(ValueError, match="holds no card"):
        surgery.swap_with_deck(game, 0, next(c for c, k in enumerate(game.hands[0]) if k == 0), 0)
    with pytest.raises(ValueError, match="does not hold"):
        surgery.return_to_deck(game, 0, [9] * len(game.hands[0]))
    with pytest.raises(ValueError, match="deck holds"):
        surgery.deal_from_deck(game, 0, len(game._deck) + 1)
    with pytest.raises(ValueError, match="deck holds"):
        surgery.set_hand(game, 0, [len(game._deck) + 5] * len(game.hands[0]))
    with pytest.raises(ValueError, match="not in the ticket deck"):
        surgery.swap_hidden_ticket(game, 1, surgery.setup_offer(game, 1)[0], surgery.setup_offer(game, 1)[1])
    assert (game._deck, game.hands, game._ticket_deck) == before


def test_forced_draws_are_what_the_next_draws_take_and_a_missing_card_comes_from_a_giver() -> None:
    game = Game.new(load_map("europe"), 2, seed=5)
    wild = game.wild
    while game.phase == CHOOSE_SETUP:
        game.apply_id(game.legal_ids()[-1])
    hand = game.hands[1][:]
    hand[wild] += game._deck.count(wild)
    surgery.set_hand(game, 1, hand)  # every wild of the deck into seat 1's hand
    assert wild not in game._deck
    total = card_counts(game)
    assert not surgery.force_draws(game, [wild])  # nobody may give one
    assert surgery.force_draws(game, [wild, game._deck[0]], lambda seat, card: seat == 1)
    assert card_counts(game) == total
    game.apply_id(game.cat.draw_deck)
    assert game.hands[game.history[-1][0]][wild] >= 1 and game.history[-1][2] == (wild,)


def test_a_swapped_ticket_is_held_and_named_by_the_history() -> None:
    game = Game.new(load_map("new_york"), 2, seed=8)
    game.apply_id(game.legal_ids()[-1])  # seat 0 keeps every ticket offered
    held = game.tickets[0][0]
    other = game._ticket_deck[-1]
    surgery.swap_hidden_ticket(game, 0, held, other)
    assert other in game.tickets[0] and held in game._ticket_deck and held not in game.tickets[0]
    assert other in game.history[0][2] and held not in game.history[0][2]
    names = seat_view(game, 0)["players"][0]["tickets"]
    assert game.map.tickets[other].name in names


def test_undealt_holds_every_card_in_the_deck_and_no_offer() -> None:
    game = Game.new(load_map("europe"), 3, seed=2)
    blank = surgery.undealt(game)
    assert sorted(blank._deck) == sorted(card_counts_list(game))
    assert not any(map(sum, blank.hands)) and blank.face_up == [-1] * 5 and blank.legal_ids() == []
    assert game.hands != blank.hands  # the original is untouched


def card_counts_list(game: Game) -> list[int]:
    """Every train card of the game as a list of card types."""
    return [c for c, k in enumerate(card_counts(game)) for _ in range(k)]
