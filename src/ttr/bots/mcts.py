"""`mcts`: information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012), guided by
the greedy bot.

Each iteration samples a full game consistent with the seat's view (`ttr.engine.sample.InfoSet`), so the
hidden parts (other hands and tickets, the deck order, hence blind draws and tunnel reveals) are chance
resolved inside that sample. It then walks one tree shared by all samples, keyed by action ids, choosing
among the actions legal *in this sample* by UCB with availability counts; adds one node; plays the
ticket-aware rollout policy of `ttr.bots.mcts_policy` for `depth` more actions; and scores the result for
every seat (its estimated final score's lead over the best other seat, squashed to [0, 1]).

The greedy bot guides the search: its move starts with virtual visits at the root (a fifth of the
budget), the second card of a draw and tunnel payments are left to it, the root weighs a single draw
(greedy's colour choice), and another move is played only if the search rates it clearly better. So the
search decides what greedy's plan cannot see: claim now or draw, tickets, stations, the end of the game.
Claims are considered with one card set per route (fewest wilds, then the colour held most), stations
with their cheapest card set where they could borrow a route.

Budgets: `iterations` per decision (reproducible) and/or `time_limit` seconds (not reproducible).
Difficulty names: `easy` (long_route_junkie), `medium` (greedy), `hard` (mcts, 300 iterations), `expert`
(mcts, 1500 iterations). Measured so far (Europe, 2 players, 20 games, 200 iterations): 7-13 against
greedy, within the noise of greedy against itself; the search seldom overrules greedy, so `hard` and
`expert` are not yet shown to be stronger than `medium`.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ttr.bots.base import BaseBot
from ttr.bots.greedy import GreedyBot
from ttr.bots.mcts_policy import rewards, rollout
from ttr.engine import Action, Game
from ttr.engine import actions as A
from ttr.engine.game import MAIN
from ttr.engine.sample import InfoSet
from ttr.maps import GameMap


class Node:
    """A tree node: the action that led here, who played it, and its statistics (for that player)."""

    __slots__ = ("avail", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


class MctsBot(BaseBot):
    """Information-set MCTS over sampled games; see the module docstring."""

    name = "mcts"
    iterations: int | None = 200
    time_limit: float | None = None
    depth = 24  # rollout actions after the new node before the position is scored
    exploration = 0.7
    margin_scale = 20.0
    guide_visits = 8  # virtual visits of the guide bot's move at the root (at least a fifth of the iterations)
    guide_value = 0.55  # and their mean reward: the search must find better to play something else
    deviation_margin = 0.02  # another move must beat the guide's mean reward by this much

    def __init__(self, game_map: GameMap, seat: int, seed: int, *, iterations: int | None = None,
                 time_limit: float | None = None, depth: int | None = None) -> None:
        """A bot with the class budget, or the `iterations` / `time_limit` / rollout `depth` given."""
        super().__init__(game_map, seat, seed)
        if iterations is not None or time_limit is not None:
            self.iterations = iterations
            self.time_limit = time_limit
        if depth is not None:
            self.depth = depth
        if self.iterations is None and self.time_limit is None:
            raise ValueError("an mcts bot needs an iteration or time budget")
        self.last_iterations = 0
        self.guide = GreedyBot(game_map, seat, seed)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """The guide's move, unless the search finds a clearly better one (main turns and ticket choices)."""
        if len(legal) == 1:
            return legal[0]
        guide_action = self.guide.choose(view, legal)
        if view["turn"]["phase"] in ("second_card", "tunnel_payment"):
            return guide_action  # card colours and tunnel payments: the guide's plan knows best
        info = InfoSet(self.game_map, view)
        root = Node(-1)
        rng = self.rng
        first = info.sample(rng)
        guide = first.encode(guide_action)
        root_ids = root_candidates(first, guide)
        virtual = max(self.guide_visits, (self.iterations or 0) // 5)
        prior = root.children[guide] = Node(self.seat)
        prior.visits = prior.avail = virtual
        prior.reward = virtual * self.guide_value
        deadline = time.monotonic() + self.time_limit if self.time_limit is not None else math.inf
        limit = self.iterations if self.iterations is not None else 1 << 60
        count = 0
        sample = first
        while count < limit and (count == 0 or time.monotonic() < deadline):
            if count:
                sample = info.sample(rng)
            self._iterate(root, sample, rng, root_ids)
            count += 1
        self.last_iterations = count
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].reward, -kv[0]))[0]
        if best != guide:  # leave the guide's move only for one the search found clearly better
            node, real = root.children[best], prior.visits - virtual
            guide_mean = (prior.reward - virtual * self.guide_value) / real if real else self.guide_value
            if node.reward / node.visits < guide_mean + self.deviation_margin:
                best = guide
        game = info.sample(rng)
        action = game.decode(best)
        return action if action in legal else legal[0]

    # ------------------------------------------------------------------ one iteration

    def _iterate(self, root: Node, game: Game, rng: random.Random, root_ids: list[int]) -> None:
        path = [root]
        node = root
        c = self.exploration
        while not game.is_over:
            ids = root_ids if node is root else candidate_ids(game)
            untried = []
            for aid in ids:
                child = node.children.get(aid)
                if child is None:
                    untried.append(aid)
                else:
                    child.avail += 1
            player = game.current
            if untried:
                aid = untried[rng.randrange(len(untried))]
                child = node.children[aid] = Node(player)
                child.avail = 1
                game.apply_unchecked(aid)
                path.append(child)
                break
            best_score = -1.0
            best_aid = ids[0]
            for aid in ids:
                child = node.children[aid]
                score = child.reward / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if score > best_score:
                    best_score, best_aid = score, aid
            game.apply_unchecked(best_aid)
            node = node.children[best_aid]
            path.append(node)
        rollout(game, rng, self.depth)
        values = rewards(game, self.margin_scale)
        for n in path:
            n.visits += 1
            if n.player >= 0:
                n.reward += values[n.player]


# ---------------------------------------------------------------------- actions considered


def root_candidates(game: Game, guide: int) -> list[int]:
    """The moves the search weighs for the seat to play: the tree's candidates with a single draw (the
    guide's own if it draws, else a blind one), and the guide's move."""
    kind = game.cat.kind
    ids = candidate_ids(game)
    draws = [aid for aid in ids if kind[aid] in (A.DRAW_DECK, A.DRAW_FACE_UP)]
    keep = guide if guide in draws else (draws[0] if draws else -1)
    out = [aid for aid in ids if aid == keep or kind[aid] not in (A.DRAW_DECK, A.DRAW_FACE_UP)]
    if guide not in out:
        out.append(guide)
    return sorted(out)


def candidate_ids(game: Game) -> list[int]:
    """The legal ids the tree considers: every one, except claims and stations thinned to one card set."""
    ids = game.legal_ids()
    if game.phase != MAIN or len(ids) < 8:
        return ids
    cat = game.cat
    kind = cat.kind
    hand = game.hands[game.current]
    wild = game.wild
    out: list[int] = []
    best_claim: dict[int, tuple[tuple[int, int], int]] = {}
    best_station: dict[int, tuple[tuple[int, int], int]] = {}
    for aid in ids:
        k = kind[aid]
        if k == A.CLAIM or k == A.BUILD_STATION:
            colour, w = cat.b[aid], cat.c[aid]
            key = (-w, hand[colour] if colour != wild else -1)
            table = best_claim if k == A.CLAIM else best_station
            where = cat.a[aid]
            if where not in table or key > table[where][0]:
                table[where] = (key, aid)
        else:
            out.append(aid)
    out.extend(aid for _, aid in best_claim.values())
    if best_station:
        owner = game.owner
        city_routes = game.map.city_routes
        p = game.current
        for city, (_, aid) in best_station.items():
            if any(owner[r] >= 0 and owner[r] != p for r in city_routes[city]):
                out.append(aid)
    out.sort()
    return out


class MctsHard(MctsBot):
    """`hard`: MCTS with 300 iterations per decision."""

    name = "hard"
    iterations = 300


class MctsExpert(MctsBot):
    """`expert`: MCTS with 1500 iterations per decision."""

    name = "expert"
    iterations = 1500
