"""The OpenSpiel information-state tensor: its layout, OpenSpiel's observation API, what it may and may not show."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.observation import make_observation  # noqa: E402

import ttr.envs.openspiel  # noqa: E402, F401  # registers python_ttr
from ttr.engine import surgery  # noqa: E402
from ttr.engine.actions import DRAW_DECK, KEEP_TICKETS  # noqa: E402
from ttr.envs.observation import ObservationEncoder  # noqa: E402
from ttr.maps import load_map  # noqa: E402


def load(map_name: str = "new_york", players: int = 2) -> object:
    return pyspiel.load_game(f"python_ttr(map={map_name},players={players})")


def play(game: object, seed: int, decisions: int) -> object:
    """A state after the deal and `decisions` random player decisions (random chance outcomes too)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        if made == decisions:
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
        made += 1
    return state


@pytest.mark.parametrize("map_name,players", [("new_york", 2), ("new_york", 3), ("europe", 2)])
def test_the_tensor_shapes_follow_the_layout(map_name: str, players: int) -> None:
    game = load(map_name, players)
    game_map = load_map(map_name)
    obs_size = ObservationEncoder(game_map, players).size
    size = obs_size + len(game_map.tickets) + 5 * players + 1
    assert game.information_state_tensor_shape() == [size]
    assert game.observation_tensor_shape() == [obs_size]
    state = play(game, 0, 30)
    for p in range(players):
        assert len(state.information_state_tensor(p)) == size
        assert state.information_state_tensor(p)[:obs_size] == pytest.approx(state.observation_tensor(p))
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    info.set_from(state, 0)
    assert list(info.dict) == ["observation", "tickets_returned", "seat_actions", "decisions"]
    assert [v.size for v in info.dict.values()] == [obs_size, len(game_map.tickets), 5 * players, 1]
    assert info.tensor.tolist() == pytest.approx(state.information_state_tensor(0))
    assert info.dict["decisions"][0] == 30
    obs = make_observation(game)
    obs.set_from(state, 1)
    assert sum(v.size for v in obs.dict.values()) == obs_size and "known_cards" in obs.dict
    assert obs.tensor.tolist() == pytest.approx(state.observation_tensor(1))


def hide_differently(state: object, seat: int, seed: int) -> object:
    """A copy of `state` that differs only in what `seat` cannot know: the other seats' hands (a card swapped
    with the deck), tickets (one swapped with the ticket deck), their blind draws and ticket choices in the
    record, and the deck order."""
    rng = random.Random(seed)
    other = state.clone()
    game = other.core.game
    n = len(game.hands)
    for q in range(n):
        if q == seat:
            continue
        hand = game.hands[q]
        held = [c for c, k in enumerate(hand) if k]
        swap = [c for c in game._deck if c not in held[:1]]
        if held and swap:
            assert surgery.exchange_with_deck(game, q, held[0], swap[0])
        if game.tickets[q] and game._ticket_deck:
            surgery.swap_hidden_ticket(game, q, game.tickets[q][0], game._ticket_deck[-1])
    surgery.shuffle_deck(game, rng)
    kind = game.cat.kind
    history = []
    for p, aid, detail in game.history:
        if p != seat and kind[aid] == DRAW_DECK:
            detail = ((detail[0] + 1) % (len(game.hands[p])),)
        elif p != seat and kind[aid] == KEEP_TICKETS:
            detail = tuple(reversed(detail))
        history.append((p, aid, detail))
    game._history = history  # the others' draws and keeps told otherwise: what seat `seat` must not see
    return other


@pytest.mark.parametrize("seed", range(4))
def test_the_tensor_never_shows_another_seats_hidden_cards_and_tickets(seed: int) -> None:
    game = load("new_york", 2)
    state = play(game, seed, 20 + 4 * seed)
    assert not state.is_chance_node() and not state.is_terminal()
    other = hide_differently(state, 0, seed)
    assert other.core.game.hands[1] != state.core.game.hands[1]  # the copy really differs for seat 1
    assert other.information_state_tensor(0) == state.information_state_tensor(0)
    assert other.information_state_tensor(1) != state.information_state_tensor(1)
    # a world resampled from seat 0's information state is one seat 0 cannot tell apart
    sampled = state.resample_from_infostate(0, random.Random(seed).random)
    assert sampled.information_state_tensor(0) == state.information_state_tensor(0)


def test_the_tensor_shows_the_seats_own_cards_and_returned_tickets() -> None:
    game = load("new_york", 2)
    state = play(game, 7, 40)
    changed = state.clone()
    g = changed.core.game
    held = next(c for c, k in enumerate(g.hands[0]) if k)
    into = next(c for c in g._deck if c != held)
    assert surgery.exchange_with_deck(g, 0, held, into)
    assert changed.information_state_tensor(0) != state.information_state_tensor(0)
    assert changed.information_state_tensor(1) == state.information_state_tensor(1)
    # the tickets a seat gave back are in its own tensor, and in no one else's
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    kind, mask = state.core.game.cat.kind, state.core.game.cat.a
    gave_back = 0
    for seat in range(2):
        returned = {t for p, aid, detail in state.core.game.history if p == seat and kind[aid] == KEEP_TICKETS
                    for t in detail[mask[aid].bit_count():]}
        info.set_from(state, seat)
        assert set(np.flatnonzero(info.dict["tickets_returned"]).tolist()) == returned
        gave_back += len(returned)
        assert info.dict["seat_actions"][3] == state._returns[seat]
    assert gave_back and sum(state._returns) == gave_back  # one RETURN decision per ticket given back
    public = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True,
                                                               private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, 0)
    assert not public.dict["tickets_returned"].any()
    info.set_from(state, 0)
    assert (public.dict["seat_actions"] == info.dict["seat_actions"]).all()
