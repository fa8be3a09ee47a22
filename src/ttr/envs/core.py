"""The state every environment steps: an engine `Game` plus the ticket choice as sequential sub-decisions.

The action space is the map's engine catalogue (`ttr.engine.actions.Catalogue`, ids `0 .. len(cat) - 1`)
followed by two environment ids: `KEEP` (keep the ticket now under decision) and `RETURN` (give it back).
The engine's own keep-ticket ids (`keep_base + mask`) are never legal in an environment: a ticket choice is
asked one offered ticket at a time, in the order offered, and when the last one is decided the engine's
keep action for that mask is applied. `RETURN` is masked out when keeping every ticket still undecided is
the only way to reach the rules' minimum.
"""

from __future__ import annotations

from typing import Any

from ttr.engine import Game, final_score
from ttr.engine.actions import KEEP_TICKETS
from ttr.engine.game import catalogue_for
from ttr.engine.phases import CHOOSE_SETUP, CHOOSE_TICKETS, OVER
from ttr.errors import IllegalActionError
from ttr.maps import GameMap, load_map

REWARD_MODES = ("win_loss", "margin")


def resolve_map(map_name: str | GameMap) -> GameMap:
    """A map by name (`europe`, `new_york`, a map file path) or a loaded `GameMap` as is."""
    return map_name if isinstance(map_name, GameMap) else load_map(map_name)


def agent_name(seat: int) -> str:
    """The agent name of a seat: `player_0`, `player_1`, ..."""
    return f"player_{seat}"


class EnvCore:
    """A game with ticket choices split into keep/return sub-decisions; fixed action ids per map."""

    def __init__(self, game_map: GameMap, num_players: int) -> None:
        rules = game_map.rules
        if not isinstance(num_players, int) or not rules.players_min <= num_players <= rules.players_max:
            raise ValueError(f"{game_map.name} is for {rules.players_min}-{rules.players_max} players, "
                             f"got {num_players!r}")
        self.map = game_map
        self.n = num_players
        self.cat = catalogue_for(game_map)
        self.keep_id = len(self.cat)
        self.return_id = len(self.cat) + 1
        self.num_actions = len(self.cat) + 2
        self.game = Game.new(game_map, [agent_name(p) for p in range(num_players)], seed=0)
        self.kept: list[bool] = []  # the decisions so far in the current ticket choice, in offer order

    def __deepcopy__(self, memo: dict[int, Any]) -> EnvCore:
        """A copy with its own game (the map and the catalogue shared)."""
        new = EnvCore.__new__(EnvCore)
        new.__dict__.update(self.__dict__)
        new.game = self.game.copy()
        new.kept = self.kept[:]
        return new

    def reset(self, seed: int) -> None:
        """A new game dealt from `seed` (every shuffle of the game comes from it)."""
        self.game = Game.new(self.map, [agent_name(p) for p in range(self.n)], seed=seed)
        self.kept = []

    @property
    def choosing(self) -> bool:
        """Whether the seat to move is choosing tickets (one keep/return decision at a time)."""
        return self.game.phase in (CHOOSE_SETUP, CHOOSE_TICKETS)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.game.phase == OVER

    def keep_min(self) -> int:
        """How many of the tickets on offer must be kept."""
        return self.game.keep_min()

    def can_return(self) -> bool:
        """Whether the ticket under decision may be returned (the minimum stays reachable)."""
        offered = len(self.game.offered)
        undecided_after = offered - len(self.kept) - 1
        return sum(self.kept) + undecided_after >= self.keep_min()

    def legal_ids(self) -> list[int]:
        """The legal environment action ids for the seat to move, ascending (empty when over)."""
        if self.choosing:
            return [self.keep_id, self.return_id] if self.can_return() else [self.keep_id]
        return self.game.legal_ids()

    def why_illegal(self, aid: int) -> str | None:
        """None if environment action `aid` is legal now, else what is wrong."""
        if not 0 <= aid < self.num_actions:
            return f"no action has id {aid} (the action space is 0..{self.num_actions - 1})"
        if self.is_over:
            return "the game is over"
        if self.choosing:
            if aid == self.keep_id:
                return None
            if aid == self.return_id:
                return None if self.can_return() else (
                    f"keep at least {self.keep_min()} of the {len(self.game.offered)} tickets offered")
            return (f"decide on the offered tickets one at a time: KEEP ({self.keep_id}) or "
                    f"RETURN ({self.return_id})")
        if aid in (self.keep_id, self.return_id):
            return "no tickets are on offer: draw tickets first"
        if self.cat.kind[aid] == KEEP_TICKETS:  # the engine's keep_tickets ids: the environment asks ticket by ticket
            return "ticket choices are sequential: use KEEP / RETURN, not the engine's keep ids"
        why = self.game.why_illegal(aid)
        return None if why is None else f"{why[0]}: {why[1]}" if why[0] else why[1]

    def step(self, aid: int) -> None:
        """Play environment action `aid` for the seat to move; `IllegalActionError` and no change if illegal."""
        why = self.why_illegal(aid)
        if why is not None:
            raise IllegalActionError(why, "")
        self.step_unchecked(aid)

    def step_unchecked(self, aid: int) -> None:
        """Play a legal environment action id (taken from `legal_ids`) without checking it."""
        if aid < self.keep_id:
            self.game.apply_unchecked(aid)
            return
        self.kept.append(aid == self.keep_id)
        if len(self.kept) == len(self.game.offered):
            mask = 0
            for i, keep in enumerate(self.kept):
                if keep:
                    mask |= 1 << i
            self.kept = []
            self.game.apply_unchecked(self.cat.keep_base + mask)

    def final_rewards(self, mode: str) -> list[float]:
        """Each seat's reward for the finished game: `win_loss` (+1 a winner, -1 otherwise) or `margin`
        (its final score minus the best final score of the other seats)."""
        scores = final_score(self.game)
        totals = [p.total for p in scores.players]
        if mode == "margin":
            return [float(totals[p] - max(totals[:p] + totals[p + 1:])) for p in range(self.n)]
        return [1.0 if p in scores.winner_seats else -1.0 for p in range(self.n)]


def check_reward_mode(mode: str) -> str:
    """`mode` if it is a known reward mode, else `ValueError` naming the known ones."""
    if mode not in REWARD_MODES:
        raise ValueError(f"reward must be one of {', '.join(REWARD_MODES)}, got {mode!r}")
    return mode


__all__ = ["REWARD_MODES", "EnvCore", "agent_name", "check_reward_mode", "resolve_map"]
