"""Playing agents trained on `python_ttr` against the ttr bots, and what they learn from.

`info_scale(game)` gives, per entry of the information-state tensor, a divisor that brings it to about
[0, 1] (what a network is fed). `bot_action(state, bot)` is the id a ttr bot plays at an OpenSpiel state,
and `play_paired(game, act, opponent, deals, seed)` plays an agent against a bot on paired deals: each deal
once with the agent in every seat, the chance outcomes of a deal drawn from the same seeded stream, so
every seating of a deal starts from the same hands, face-up cards and ticket offers. Needs the
`openspiel` extra.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import rl_environment

import ttr.envs.openspiel  # noqa: F401  # registers python_ttr
from ttr.bots import Bot, make_bot
from ttr.bots.base import legal_actions
from ttr.engine import SeatView, final_score
from ttr.engine.actions import KEEP_TICKETS

#: An agent: (state, player, rng) -> the action id it plays; it may read only the player's information.
Act = Callable[[pyspiel.State, int, np.random.Generator], int]

COUNT_SCALE = 50.0  # the per-seat counts of public moves
DECISION_SCALE = 200.0  # the number of decisions made


def info_scale(game: pyspiel.Game) -> np.ndarray:
    """Per entry of `game`'s information-state tensor, the divisor that brings it to about [0, 1]."""
    data = game.data
    info = data.infostate
    scale = np.ones(info.size, np.float32)
    scale[:data.encoder.size] = np.maximum(data.encoder.high, 1.0)
    scale[info.offsets["seat_actions"]:info.offsets["decisions"]] = COUNT_SCALE
    scale[info.offsets["decisions"]] = DECISION_SCALE
    return scale


def scaled(time_step: rl_environment.TimeStep, scale: np.ndarray) -> rl_environment.TimeStep:
    """`time_step` with every player's information state divided by `scale` (`info_scale`)."""
    states = time_step.observations["info_state"]
    time_step.observations["info_state"] = [np.asarray(s, np.float32) / scale for s in states]
    return time_step


def self_play_game(env: rl_environment.Environment, agents: list[Any], scale: np.ndarray) -> int:
    """Play one game of `env` with each seat's OpenSpiel RL agent (its `step` learns as it goes) and show
    every agent the final step; the number of decisions made."""
    time_step = scaled(env.reset(), scale)
    decisions = 0
    while not time_step.last():
        p = time_step.observations["current_player"]
        action = agents[p].step(time_step).action
        time_step = scaled(env.step([action]), scale)
        decisions += 1
    for agent in agents:
        agent.step(time_step)
    return decisions


def bot_action(state: pyspiel.State, bot: Bot) -> int:
    """The id a ttr bot plays at `state`, from the mover's seat view (a ticket choice as keep/return steps)."""
    core = state.core
    game = core.game
    ids, legal = legal_actions(game)
    engine_id = ids[legal.index(bot.choose(SeatView.of(game, game.current), legal))]
    if core.cat.kind[engine_id] != KEEP_TICKETS:
        return engine_id
    keep = (core.cat.a[engine_id] >> len(core.kept)) & 1
    return int(core.keep_id if keep else core.return_id)


@dataclass
class PairedResult:
    """An agent's games against one opponent: wins (a tie shared among its winners), games, deals."""

    opponent: str
    deals: int
    games: int
    wins: float


def play_one(game: pyspiel.Game, act: Act, seat: int, opponent: str, deal_seed: int) -> float:
    """One game of `act` in `seat`, every other seat `opponent` (a bot spec, or `random` legal moves); the
    chance outcomes and the random moves come from `deal_seed`. The agent's share of the win (0 to 1)."""
    chance = np.random.default_rng(deal_seed)
    moves = np.random.default_rng([deal_seed, 1])
    agent_rng = np.random.default_rng([deal_seed, 2])
    players = game.num_players()
    bots = {p: make_bot(opponent, game.data.game_map, p, deal_seed * players + p)
            for p in range(players) if p != seat and opponent != "random"}
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(outcomes, p=probs)))
            continue
        p = state.current_player()
        if p == seat:
            action = act(state, p, agent_rng)
        elif opponent == "random":
            action = int(moves.choice(state.legal_actions()))
        else:
            action = bot_action(state, bots[p])
        state.apply_action(int(action))
    game_state = state.core.game
    winners = final_score(game_state).winner_seats
    return 1.0 / len(winners) if seat in winners else 0.0


def play_paired(game: pyspiel.Game, act: Act, opponent: str, deals: int, seed: int) -> PairedResult:
    """`act` against `opponent` on `deals` deals (seeds `seed`, `seed + 1`, ...), each once per seat."""
    wins = 0.0
    for d in range(deals):
        for seat in range(game.num_players()):
            wins += play_one(game, act, seat, opponent, seed + d)
    return PairedResult(opponent, deals, deals * game.num_players(), wins)
