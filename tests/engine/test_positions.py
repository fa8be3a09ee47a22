"""Setting up a position (`ttr.engine.positions`) and the ticket surgery that trades tickets' places keep a game
the engine's invariant checker accepts: random games on both maps with random moves between their steps pass
every check (cards and tickets conserved, pieces and scores matching the routes, the listed ids legal, the views
holding no secret); a move that cannot be made raises and changes nothing; `Game`'s public state is read only."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.test_properties import MAPS, Checker, fingerprint, internal
from ttr.engine import Game, positions, surgery
from ttr.engine.game import starting_orders
from ttr.engine.phases import CHOOSE_SETUP
from ttr.maps import load_map


def _card_places(game: Game) -> list[positions.Place]:
    return [positions.DECK, positions.DISCARD, *(positions.hand(q) for q in range(game.n)),
            *(positions.row(i) for i in range(len(game.face_up)))]


def _random_move(game: Game, rnd: random.Random, done: Counter[str]) -> None:
    """One move chosen at random (one it may refuse: then nothing may change)."""
    seat = rnd.randrange(game.n)
    choice = rnd.randrange(6)
    if choice == 0:
        source, dest = rnd.choice(_card_places(game)), rnd.choice(_card_places(game))
        card = rnd.randrange(game.wild + 1)
        before = internal(game)
        try:
            positions.move_card(game, card, source, dest)
            done["move_card"] += 1
        except ValueError:
            assert internal(game) == before
    elif choice == 1:
        positions.move_cards(game, positions.hand(seat), rnd.choice([positions.DECK, positions.DISCARD]))
        done["move_cards"] += 1
    elif choice == 2:
        holdings = [*surgery.hidden_ticket_deck(game), *(t for held in game.tickets for t in held)]
        if holdings:
            dest = rnd.choice([positions.TICKET_DECK, positions.held(seat)])
            positions.move_ticket(game, rnd.choice(holdings), dest)
            done["move_ticket"] += 1
    elif choice == 3:
        open_ = [r for r, ok in enumerate(game.open_to(seat)) if ok and game.map.routes[r].length <= game.trains[seat]]
        if open_:
            positions.give_route(game, seat, rnd.choice(open_))
            done["give_route"] += 1
    elif choice == 4:
        a, b = rnd.randrange(len(game.map.tickets)), rnd.randrange(len(game.map.tickets))
        surgery.trade_tickets(game, a, b)
        done["trade_tickets"] += 1
    elif choice == 5 and game.phase == CHOOSE_SETUP:
        offer = list(game.offered)
        offer[rnd.randrange(len(offer))] = rnd.randrange(len(game.map.tickets))
        before = internal(game)
        try:
            surgery.offer_setup_tickets(game, offer)
            assert list(game.offered) == offer
            done["offer_setup_tickets"] += 1
        except ValueError:
            assert internal(game) == before


@pytest.mark.parametrize("map_name", sorted(MAPS))
def test_random_moves_between_the_steps_of_random_games_keep_every_invariant(map_name: str) -> None:
    m = load_map(map_name)
    done: Counter[str] = Counter()
    for seed in range(10):
        rnd = random.Random(seed)
        game = Game.new(m, MAPS[map_name][seed % len(MAPS[map_name])], seed=seed)
        checker = Checker(game, rnd, deep=False)
        while not game.is_over:
            if rnd.random() < 0.3 or game.phase == CHOOSE_SETUP:
                _random_move(game, rnd, done)
                checker.after_surgery()  # a ticket trade rewrites the past keeps that the views show
                checker.check_state()
                checker.check_ids(deep=False, fp=fingerprint(game))
            checker.step(rnd.choice(checker.next_ids))
    assert set(done) == {"move_card", "move_cards", "move_ticket", "give_route", "trade_tickets",
                         "offer_setup_tickets"}, done


def test_a_move_that_cannot_be_made_changes_nothing() -> None:
    game = Game.new(load_map("europe"), 2, seed=3)
    before = internal(game)
    empty = next(c for c, k in enumerate(game.hands[0]) if k == 0)
    with pytest.raises(ValueError, match=r"no .* card in hand 0"):
        positions.move_card(game, empty, positions.hand(0), positions.DISCARD)
    with pytest.raises(ValueError, match="face-up slot 0 is not empty"):
        positions.move_card(game, game.face_up[1], positions.row(1), positions.row(0))
    with pytest.raises(ValueError, match="no seat 2"):
        positions.move_cards(game, positions.hand(2), positions.DISCARD)
    with pytest.raises(ValueError, match=r"no .* card"):
        positions.stack_deck(game, [0, empty, *([game.wild] * 30)], [positions.DISCARD])
    with pytest.raises(ValueError, match="neither in the ticket deck nor kept"):
        positions.move_ticket(game, game.offered[0], positions.held(1))
    with pytest.raises(ValueError, match="0-45 pieces"):
        positions.set_trains(game, 0, 46)
    with pytest.raises(ValueError, match="an offer is 4 different tickets"):
        surgery.offer_setup_tickets(game, [game.offered[0]] * 4)
    with pytest.raises(ValueError, match="no ticket"):
        surgery.trade_tickets(game, 0, 10_000)
    assert internal(game) == before


def test_a_stacked_deck_is_what_the_next_draws_take() -> None:
    game = Game.new(load_map("new_york"), 2, seed=4)
    cards = [game.wild, 0, 0, 1]
    positions.stack_deck(game, cards, [positions.DECK, positions.DISCARD])
    assert list(surgery.hidden_deck(game)[-4:]) == cards[::-1]


def test_an_offer_put_before_a_seat_is_what_it_keeps_and_the_record_agrees() -> None:
    game = Game.new(load_map("new_york"), 2, seed=5)
    offer = [t for t in surgery.hidden_ticket_deck(game)[:len(game.offered)]]
    surgery.offer_setup_tickets(game, offer)
    assert list(game.offered) == offer
    game.apply_id(game.legal_ids()[-1])  # keeps every ticket
    assert sorted(game.tickets[0]) == sorted(offer)
    orders = starting_orders(game)
    assert sorted(orders.tickets[:len(offer)]) == sorted(offer)  # the starting order deals what was offered


def test_the_public_state_has_no_setter_and_hidden_state_no_property() -> None:
    game = Game.new(load_map("europe"), 3, seed=1)
    for name in ("hands", "tickets", "owner", "phase", "current", "face_up", "history", "offered", "trains"):
        with pytest.raises(AttributeError):
            setattr(game, name, getattr(game, name))
    for name in ("deck", "ticket_deck", "rng", "initial_train", "initial_tickets", "reshuffles"):
        assert not hasattr(game, name), name
    assert game.deck_size == len(surgery.hidden_deck(game))
    assert game.ticket_deck_size == len(surgery.hidden_ticket_deck(game))
