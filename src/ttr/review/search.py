"""The review's look at one decision: the `expert` search's candidates, the played move among them, each
played out on the same sampled worlds, with a mean and a standard error.

`ReviewSearch` is the `expert` level's search (`ttr.bots.mcts.MctsExpert`: its guide, belief, worlds,
candidates and playouts) given a seat's view and legal actions, exactly as a live bot is given them, and
the move the seat played. Where the live search stops as soon as its guide's move is clearly best, the
review measures every candidate:

1. the candidates are the search's own (`MctsBot.candidates`), every legal action in a tunnel payment, and
   the played move if the search did not list it;
2. every candidate is played out on the same `screen` worlds (common random numbers: their differences are
   measured with less noise than their values);
3. then the played move, the guide's move and the `finalists` best others go on meeting the same new worlds
   until the budget of playouts is spent (at least the screen is played, whatever the budget).

The value of a move is the seat's final margin over the best other seat (points), averaged over its worlds;
the loss of the played move is the best finalist's mean minus the played move's, over the same worlds after
the screen (the screen chose the finalists, so its worlds favour them), with the standard error of those
paired differences. The budget is counted in playouts, and the seed is given,
so a decision is rated the same on every machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ttr.bots.mcts import MctsExpert
from ttr.bots.planning import Board
from ttr.engine import Action, Game, SeatView
from ttr.engine.phases import MAIN
from ttr.engine.sample import InfoSet
from ttr.maps import GameMap

Z95 = 1.96  # the two-sided 95% point of the normal distribution, for the intervals


@dataclass(frozen=True, slots=True)
class Candidate:
    """One move the review measured: its mean margin, the standard error of that mean, its worlds."""

    action: Action
    mean: float
    error: float
    worlds: int


@dataclass(frozen=True, slots=True)
class Rating:
    """One decision rated: the played move, the best move found, the points the played move gave up (with the
    standard error of that loss), the played move's value and chance of winning, every candidate measured."""

    played: Action
    best: Action
    guide: Action
    loss: float
    loss_error: float
    value: float  # the played move's mean margin over the best other seat
    win_chance: float  # the share of its worlds the played move won (a tie counts half)
    candidates: tuple[Candidate, ...]
    playouts: int

    @property
    def interval(self) -> tuple[float, float]:
        """About the 95% interval of the loss (never below 0: the best move is the best the search found)."""
        half = Z95 * self.loss_error
        return max(0.0, self.loss - half), self.loss + half


def _mean_error(values: list[float]) -> tuple[float, float]:
    """The mean of `values` and its standard error (0 for fewer than two)."""
    k = len(values)
    mean = sum(values) / k
    if k < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (k - 1)
    return mean, math.sqrt(var / k)


class ReviewSearch(MctsExpert):
    """The `expert` search measuring a played move against the best of its candidates (see the module)."""

    name = "review"
    screen = 3  # worlds every candidate meets
    finalists = 3  # best other candidates kept beside the played and the guide's move after the screen
    config = replace(MctsExpert.config, prune=math.inf)  # the live search's pruning is not used: the review
    # measures every candidate

    def __init__(self, game_map: GameMap, seat: int, seed: int, playouts: int) -> None:
        """A review search of `playouts` playouts per decision for `seat`, seeded by `seed`."""
        super().__init__(game_map, seat, seed, iterations=playouts)
        self.playouts = playouts

    def rate(self, view: SeatView, legal: list[Action], played: Action) -> Rating:
        """Rate `played` (one of `legal`) in the position of `view` (what the seat sees)."""
        if played not in legal:
            raise ValueError(f"the played move {played} is not among the legal actions")
        self._fit_guide(len(view.players))
        guide_action = self.guide.choose(view, legal)
        info = InfoSet(self.game_map, view.to_json())
        rng = self.rng
        board = Board.from_view(self.guide.ix, view)
        belief = self.belief_of(view, board) if self.config.belief else None
        tracked = self.tracked(view, info, belief)

        def draw_world() -> Game:
            return tracked.sample(rng) if tracked is not None else self.sample_world(info, rng, belief)

        first = draw_world()
        guide = first.encode(guide_action)
        played_id = first.encode(played)
        sampled = [first]
        if first.phase == MAIN and belief is not None and self.config.world_blocks:
            sampled += [draw_world() for _ in range(self.config.block_worlds - 1)]
        cands = [k for k in self.candidates(first, guide, view, legal, belief, board, sampled) if k < len(first.cat)]
        if view.turn is not None and view.turn.phase == "tunnel_payment":  # the live search leaves these to its guide
            cands += [first.encode(a) for a in legal if first.encode(a) not in cands]
        if played_id not in cands:
            cands.append(played_id)
        by_opponents = self.playouts_for(first.n)
        margins: dict[int, list[float]] = {aid: [] for aid in cands}
        live = cands[:]
        used = 0
        n = 0
        world = first
        while n < self.screen or used + len(live) <= self.playouts:
            playouts = by_opponents[n % len(by_opponents)]
            for aid in live:
                margins[aid].append(self.play_candidate(world, aid, playouts))
            used += len(live)
            n += 1
            if n == self.screen:
                keep = {guide, played_id}
                others = sorted((a for a in cands if a not in keep), key=lambda a: (-_mean_error(margins[a])[0], a))
                live = [a for a in cands if a in keep or a in others[:self.finalists]]
                if len(live) == 1:
                    break
            world = sampled[n] if n < len(sampled) else draw_world()
        # The best finalist and the loss are read from the worlds after the screen, where there are some: the
        # screen picked the finalists, and its worlds would favour them (the largest of many noisy means).
        start = self.screen if n >= self.screen + 2 else 0
        best_id = max(live, key=lambda a: (_mean_error(margins[a][start:])[0], a == played_id, a == guide, -a))
        diffs = [b - p for b, p in zip(margins[best_id][start:], margins[played_id][start:], strict=True)]
        loss, loss_error = _mean_error(diffs)
        mine = margins[played_id]
        value, _ = _mean_error(mine)
        wins = sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in mine) / len(mine)
        measured = tuple(Candidate(first.decode(a), *_mean_error(margins[a]), len(margins[a])) for a in cands)
        return Rating(played, first.decode(best_id), guide_action, max(0.0, loss), loss_error, value, wins,
                      measured, used)
