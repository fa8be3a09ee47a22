"""Ticket to Ride as an OpenSpiel game (`pip install 'ttr-game[openspiel]'`): `pyspiel.load_game("python_ttr")`.

Parameters: `map` (`europe`, `new_york`), `players`, `reward` (`win_loss` or `margin`), `max_game_length`
(player decisions; a longer game ends there and is scored as it stands).

Player actions are the environments' ids (docs/envs.md: the engine catalogue, then KEEP and RETURN for the
ticket choice asked one ticket at a time). Every draw is a chance node: a card from the deck is a chance
outcome over the card types weighted by how many of each the deck holds (the deck order is never fixed in
advance, so no state holds a hidden order), and a ticket drawn is a chance outcome over the tickets whose
place in the ticket deck nobody knows (tickets returned under the deck come back in their known order).
The deal (hands, face-up row, starting tickets), face-up refills, and a tunnel's revealed cards are chance
nodes too. Chance outcomes are card indexes (colours in map order, then the wild card) or ticket indexes.

`TicketToRideObserver` is the one place that says what a player knows: the observation tensor is the
environments' observation vector (`ObservationEncoder`), the information-state tensor that vector followed by
a summary of what the player remembers (`ttr.envs.infostate`), and the information state string is the
player's record of every event it saw, in order (its own cards and tickets by name; other seats' deck draws and
tickets as `?`). `resample_from_infostate` deals a world consistent with a player's view
(`ttr.engine.sample.InfoSet`), so OpenSpiel's Python ISMCTS bot can play the game.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        f"the OpenSpiel game needs the openspiel extra: pip install 'ttr-game[openspiel]' ({exc})") from None

from ttr.engine import Game, seat_view
from ttr.engine import actions as A
from ttr.engine.sample import InfoSet
from ttr.engine.surgery import undealt
from ttr.envs.core import REWARD_MODES, EnvCore, check_reward_mode
from ttr.envs.infostate import PRIVATE_SEGMENTS, InfoStateEncoder
from ttr.envs.observation import ObservationEncoder
from ttr.envs.render import ansi
from ttr.maps import load_map

GAME_NAME = "python_ttr"
DEFAULTS: dict[str, Any] = {"map": "europe", "players": 2, "reward": "win_loss", "max_game_length": 5000}
MARGIN_BOUND = 1000.0  # far beyond any score margin

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Ticket to Ride (Europe, New York)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class _NeedCard(Exception):
    """Raised by `_Script` when a game must take a card nobody has chosen yet: the card counts it draws from."""

    def __init__(self, counts: list[int]) -> None:
        super().__init__("a card outcome is needed")
        self.counts = counts


class _NeedTicket(Exception):
    """Raised by `_Script` when a game must take a ticket nobody has chosen yet: the tickets it draws from."""

    def __init__(self, pool: list[int]) -> None:
        super().__init__("a ticket outcome is needed")
        self.pool = pool


class _Script:
    """The engine's chance source (`ttr.engine.chance`) for one pending step: the cards and tickets chosen at
    chance nodes so far, in order; `_NeedCard` or `_NeedTicket` when the step needs one more.

    The train deck is a multiset here: a card drawn is one of the chosen type. Tickets are drawn from the
    first `unknown` of the ticket deck (those whose order nobody knows; tickets returned under the deck come
    back in their known order), or at the deal from every ticket not dealt yet.
    """

    def __init__(self, cards: list[int], tickets: list[int], unknown: int, kinds: int) -> None:
        self.kinds = kinds  # card types
        self.cards = cards
        self.tickets = tickets
        self.unknown = unknown  # -1 at the deal

    def card(self, deck: list[int]) -> int:
        """The position of the next scripted card type in `deck`."""
        if not self.cards:
            counts = [0] * self.kinds
            for c in deck:
                counts[c] += 1
            raise _NeedCard(counts)
        return deck.index(self.cards.pop(0))

    def ticket(self, pool: list[int], start: int) -> int:
        """The position of the next scripted ticket in `pool` (`start` itself when its order is known)."""
        end = len(pool) if self.unknown < 0 else self.unknown
        if start >= end:
            return start
        if not self.tickets:
            raise _NeedTicket(pool[start:end])
        return pool.index(self.tickets.pop(0), start, end)


class GameData:
    """What a game's states share: the map, the seat count, the reward mode, the encoder.

    Kept in a plain object that every state holds, since OpenSpiel may hand states a game wrapper
    without the Python attributes of the game object.
    """

    def __init__(self, values: dict[str, Any]) -> None:
        self.game_map = load_map(str(values["map"]))
        self.num_seats = int(values["players"])
        self.reward_mode = check_reward_mode(str(values["reward"]))
        self.max_length = int(values["max_game_length"])
        if self.max_length < 1:
            raise ValueError(f"max_game_length must be at least 1, got {self.max_length}")
        self.num_actions = EnvCore(self.game_map, self.num_seats).num_actions  # validates the player count
        self.encoder = ObservationEncoder(self.game_map, self.num_seats)
        self.infostate = InfoStateEncoder(self.encoder)
        self.undealt: EnvCore | None = None  # the state before the deal, made by the first state

    def __deepcopy__(self, memo: dict[int, Any]) -> GameData:
        return self  # shared by every state of the game, never changed


class TicketToRideGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """The OpenSpiel game; `pyspiel.load_game("python_ttr(map=new_york,players=3)")` makes one."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**DEFAULTS, **(params or {})}
        self.data = data = GameData(values)
        cards = len(data.game_map.colors) + 1
        bound = 1.0 if data.reward_mode == "win_loss" else MARGIN_BOUND
        info = pyspiel.GameInfo(
            num_distinct_actions=data.num_actions,
            max_chance_outcomes=max(cards, len(data.game_map.tickets)),
            num_players=data.num_seats,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=data.max_length,
        )
        super().__init__(_GAME_TYPE, info, values)

    def new_initial_state(self) -> TicketToRideState:
        """The state before the deal (a chance node)."""
        return TicketToRideState(self, self.data)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TicketToRideObserver:
        """The observer: what each player knows (see `TicketToRideObserver`)."""
        return TicketToRideObserver(self.data, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class TicketToRideState(pyspiel.State):  # type: ignore[misc]
    """One position: the engine game, the pending chance event, and every player's record of events seen."""

    def __init__(self, game: Any, data: GameData, blank: bool = False) -> None:
        super().__init__(game)
        self._data = data
        if blank:
            return
        n = data.num_seats
        if data.undealt is None:
            core = EnvCore(data.game_map, n)
            core.game = undealt(core.game)
            data.undealt = core
        self.core = copy.deepcopy(data.undealt)  # shown while the deal is made of chance nodes
        self._dealing = True
        self._op: tuple[str, int] | None = None  # a pending engine step waiting for chance outcomes
        self._cards: list[int] = []  # the card outcomes chosen so far for the pending step
        self._tickets: list[int] = []  # the ticket outcomes chosen so far for the pending step
        self._need: list[int] | None = None  # the card counts a pending card chance draws from
        self._need_tickets: list[int] | None = None  # the tickets a pending ticket chance draws from
        self._ticket_unknown = 0  # the first tickets of the ticket deck, in an order nobody knows
        self._events = _Events(n)
        self._decisions = 0
        self._returns = [0] * n  # tickets each seat gave back (public: every keep/return decision is)
        self._truncated = False
        self._start_op("deal", -1)

    # ------------------------------------------------------------------ OpenSpiel API

    def current_player(self) -> int:
        """The player to move, CHANCE, or TERMINAL."""
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._op is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return self.core.game.current

    def is_terminal(self) -> bool:
        """Whether the game is over (or cut at `max_game_length` decisions)."""
        return self.core.is_over or self._truncated

    def _legal_actions(self, player: int) -> list[int]:
        return self.core.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The possible outcomes of this chance node and their probabilities."""
        if self._need is not None:
            return _weighted(self._need)
        assert self._need_tickets is not None
        return _uniform(self._need_tickets)

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._apply_chance(int(action))
        else:
            self._apply_player(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        m = self._data.game_map
        if player == pyspiel.PlayerId.CHANCE:
            if self._chance_is_ticket():
                return f"ticket {m.tickets[action].name}" if 0 <= action < len(m.tickets) else f"ticket #{action}"
            return f"card {m.card_names[action]}" if 0 <= action < len(m.card_names) else f"card #{action}"
        core = self.core
        if action == core.keep_id:
            return "keep ticket"
        if action == core.return_id:
            return "return ticket"
        if not 0 <= action < len(core.cat) or core.cat.kind[action] == A.KEEP_TICKETS:
            return f"action #{action}"
        return str(core.game.decode(action))

    def returns(self) -> list[float]:
        """Each player's return: the final reward once the game is over, 0 before."""
        if not self.is_terminal():
            return [0.0] * self._data.num_seats
        return self.core.final_rewards(self._data.reward_mode)

    def __str__(self) -> str:
        """The public picture of the position (no hand, ticket or deck order)."""
        return ansi(self.core.game)

    def __deepcopy__(self, memo: dict[int, Any]) -> TicketToRideState:
        return self.clone_state()

    def clone_state(self) -> TicketToRideState:
        """An independent copy (the map and the catalogue shared)."""
        new = TicketToRideState(self.get_game(), self._data, blank=True)
        new.core = copy.deepcopy(self.core)
        new._dealing = self._dealing
        new._op = self._op
        new._cards = self._cards[:]
        new._tickets = self._tickets[:]
        new._need = None if self._need is None else self._need[:]
        new._need_tickets = None if self._need_tickets is None else self._need_tickets[:]
        new._ticket_unknown = self._ticket_unknown
        new._events = copy.deepcopy(self._events)
        new._decisions = self._decisions
        new._returns = self._returns[:]
        new._truncated = self._truncated
        return new

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> TicketToRideState:
        """A state `player_id` cannot tell from this one: the hidden cards and tickets dealt at random.

        Only at a decision node after the deal. The other players' records in the new state are the public
        record and what each now holds (they have no history of their own in the sampled world).
        """
        if self._dealing or self.is_chance_node() or self.is_terminal():
            raise ValueError("resample_from_infostate needs a decision node after the deal")
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        view = seat_view(self.core.game, player_id)
        sampled = InfoSet(self._data.game_map, view).sample(rng)
        new = self.clone_state()
        new.core.game = sampled
        new._ticket_unknown = sampled.ticket_deck_size
        m = self._data.game_map
        for q in range(self._data.num_seats):
            if q != player_id:
                hand = ",".join(str(k) for k in sampled.hands[q])
                tickets = ",".join(m.tickets[t].name for t in sorted(sampled.tickets[q]))
                new._events.seen[q] = [*self._events.public, f"[sampled hand {hand} tickets {tickets}]"]
        return new

    # ------------------------------------------------------------------ the events

    def _record(self, private_to: int, secret: str, public: str) -> None:
        """An event: `private_to` sees `secret`, everyone else sees `public` (-1: all see `secret`)."""
        for q, seen in enumerate(self._events.seen):
            seen.append(secret if private_to in (-1, q) else public)
        self._events.public.append(secret if private_to == -1 else public)

    def _chance_is_ticket(self) -> bool:
        return self._need_tickets is not None

    def _apply_player(self, aid: int) -> None:
        core = self.core
        game = core.game
        p = game.current
        why = core.why_illegal(aid)
        if why is not None:
            raise ValueError(f"illegal action {aid}: {why}")
        self._record(-1, f"{p}:{aid}", "")
        self._decisions += 1
        if aid == core.return_id:
            self._returns[p] += 1
        if aid in (core.keep_id, core.return_id):
            if len(core.kept) + 1 < len(game.offered):
                core.step_unchecked(aid)
                self._check_length()
                return
            kept = [*core.kept, aid == core.keep_id]
            core.kept = []
            mask = sum(1 << i for i, keep in enumerate(kept) if keep)
            self._start_op("action", core.cat.keep_base + mask)
        else:
            self._start_op("action", aid)
        self._check_length()

    def _check_length(self) -> None:
        if self._decisions >= self._data.max_length and not self.is_chance_node():
            self._truncated = True

    def _start_op(self, kind: str, arg: int) -> None:
        self._op = (kind, arg)
        self._cards = []
        self._tickets = []
        self._try_op()

    def _try_op(self) -> None:
        """Run the pending engine step with the chance outcomes chosen so far; keep its game if it finished.

        The deal is `Game.new` itself; an action runs on a copy of the game."""
        assert self._op is not None
        kind, arg = self._op
        data = self._data
        script = _Script(self._cards[:], self._tickets[:], -1 if kind == "deal" else self._ticket_unknown,
                         len(data.game_map.card_names))
        try:
            if kind == "deal":
                trial = Game.new(data.game_map, self.core.game.players, seed=0, chance=script)
            else:
                trial = self.core.game.copy()
                trial.set_chance(script)
                trial.apply_unchecked(arg)
        except _NeedCard as need:
            self._need, self._need_tickets = need.counts, None
            return
        except _NeedTicket as need:
            self._need, self._need_tickets = None, need.pool
            return
        trial.set_chance(None)
        if kind == "deal":
            self._dealing = False
            self._ticket_unknown = trial.ticket_deck_size
        elif arg == self.core.cat.draw_tickets:
            self._ticket_unknown -= len(self._tickets)
        self.core.game = trial
        self._op = None
        self._need = self._need_tickets = None
        self._cards = []
        self._tickets = []
        if not self._dealing:
            self._check_length()

    def _private_to(self) -> int:
        """Who sees the next chance outcome of the pending step: at the deal, the seat dealt a hand card or a
        ticket (the face-up row is public); later, the drawer of a blind draw or of tickets; else everyone."""
        seat = self.core.game.current
        if self._op == ("deal", -1):
            rules = self._data.game_map.rules
            if self._need_tickets is not None:
                return len(self._tickets) // (rules.setup_long_tickets + rules.setup_regular_tickets)
            dealt = len(self._cards)
            return dealt // rules.starting_hand if dealt < self._data.num_seats * rules.starting_hand else -1
        if self._need_tickets is not None:
            return seat
        if self._op == ("action", self.core.cat.draw_deck) and not self._cards:
            return seat
        return -1

    def _apply_chance(self, outcome: int) -> None:
        if self._need is not None:
            if not 0 <= outcome < len(self._need) or not self._need[outcome]:
                raise ValueError(f"chance outcome {outcome} is not a card left to draw")
            self._record(self._private_to(), f"c{outcome}", "c?")
            self._cards.append(outcome)
        else:
            assert self._need_tickets is not None
            if outcome not in self._need_tickets:
                raise ValueError(f"chance outcome {outcome} is not a ticket that can be drawn now")
            self._record(self._private_to(), f"t{outcome}", "t?")
            self._tickets.append(outcome)
        self._try_op()


class _Events:
    """Every player's record of the events it saw, in order, and the record of one who sees no secret."""

    def __init__(self, n: int) -> None:
        self.seen: list[list[str]] = [[] for _ in range(n)]
        self.public: list[str] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Events:
        new = _Events(0)
        new.seen = [s[:] for s in self.seen]
        new.public = self.public[:]
        return new


def _weighted(counts: list[int]) -> list[tuple[int, float]]:
    total = sum(counts)
    return [(c, k / total) for c, k in enumerate(counts) if k]


def _uniform(pool: list[int]) -> list[tuple[int, float]]:
    return [(t, 1.0 / len(pool)) for t in sorted(pool)]


class TicketToRideObserver:
    """What a player knows, defined once: the observation vector, the information-state vector, and the record
    of events it saw.

    With `perfect_recall` (information states) the tensor is the information-state vector
    (`ttr.envs.infostate.InfoStateEncoder`: the observation vector, the tickets the player gave back, per-seat
    counts of the public moves, the decisions so far) and the string is the player's record of every event
    (own cards and tickets by index, others' as `?`); otherwise the tensor is the environments' observation
    vector and the string lists its non-zero entries. `dict` names each segment of the tensor (views into it).
    With no private information observed, the player's own cards, tickets and offers are left out (zero).
    """

    def __init__(self, data: GameData, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        if private not in (pyspiel.PrivateInfoType.SINGLE_PLAYER, pyspiel.PrivateInfoType.NONE):
            raise ValueError("only a single player's private information (or none) can be observed")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.encoder = data.encoder
        self.infostate = data.infostate
        layout = self.infostate if self.perfect_recall else self.encoder
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {name: self.tensor[layout.offsets[name]:layout.offsets[name] + size]
                     for name, size, _ in layout.segments}

    def set_from(self, state: TicketToRideState, player: int) -> None:
        """Fill `tensor` with what `player` knows in `state`."""
        if self.perfect_recall:
            game = state.core.game
            kept = state.core.kept if game.current == player else None
            self.tensor[:] = self.infostate.encode(game, player, kept, state._decisions, state._returns,
                                                   self.public_only)
            return
        self.tensor[:] = self._vector(state, player)

    def _vector(self, state: TicketToRideState, player: int) -> np.ndarray:
        game = state.core.game
        vec = self.encoder.encode(game, player, state.core.kept if game.current == player else None)
        if self.public_only:
            enc = self.encoder
            for name in PRIVATE_SEGMENTS:
                enc.segment(vec, name)[:] = 0.0
        return vec

    def string_from(self, state: TicketToRideState, player: int) -> str:
        """What `player` knows, as a string."""
        if self.perfect_recall:
            events = state._events.public if self.public_only else state._events.seen[player]
            return f"p{player} " + " ".join(events)
        vec = self._vector(state, player)
        nonzero = np.flatnonzero(vec)
        return f"p{player} " + " ".join(f"{i}:{vec[i]:g}" for i in nonzero)


pyspiel.register_game(_GAME_TYPE, TicketToRideGame)

__all__ = ["DEFAULTS", "GAME_NAME", "REWARD_MODES", "GameData", "TicketToRideGame", "TicketToRideObserver",
           "TicketToRideState"]
