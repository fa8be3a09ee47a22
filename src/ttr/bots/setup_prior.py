"""How a policy keeps its long tickets at setup: a prior for dealing the other seats' tickets.

In Europe each seat is dealt 1 long and 3 regular tickets and keeps at least 2. Every keep-set of a given
size is not equally likely: greedy keeps its long ticket in about 9 of 10 deals when it keeps 2 tickets
(a uniform deal of 2 of the 4 would hold it half the time) and nearly always when it keeps 3. The
search (`ttr.bots.mcts`) deals the other seats' tickets with this prior (`InfoSet.sample(long_held=...)`)
instead of the uniform one, so its worlds hold a 20-point ticket where the policy it models would.
"""

from __future__ import annotations

from collections.abc import Callable

from ttr.bots.base import legal_actions
from ttr.bots.greedy import GreedyBot
from ttr.engine import Game, SeatView
from ttr.maps import GameMap

DEALS = 200  # setup deals the policy is asked about (once per map, policy and seat count, then cached)


def long_held_odds(game_map: GameMap, policy: Callable[[GameMap, int, int], GreedyBot], players: int,
                   deals: int = DEALS) -> dict[int, list[float]]:
    """Per number of tickets kept at setup, the chance that j of them are long (index j): how `policy`
    keeps on `deals` random setup offers, with one uniform keep added as a prior (so no count is ever
    ruled out). Empty for a map without long tickets. Cached with the map."""
    rules = game_map.rules
    n_long, n_regular = rules.setup_long_tickets, rules.setup_regular_tickets
    if not n_long:
        return {}
    key = f"bots.long_held_odds.{policy!r}.{players}.{deals}"
    cache = game_map.engine_cache
    found: dict[int, list[float]] | None = cache.get(key)
    if found is not None:
        return found
    offered = n_long + n_regular
    counts = {k: [0.0] * (min(k, n_long) + 1) for k in range(1, offered + 1)}
    for k, row in counts.items():  # the prior: one keep-set of k tickets drawn uniformly
        total = _choose(offered, k)
        for j in range(len(row)):
            row[j] += _choose(n_long, j) * _choose(n_regular, k - j) / total
    longs = {t.index for t in game_map.tickets if t.long}
    names = [f"p{i}" for i in range(players)]
    for deal in range(deals):
        game = Game.new(game_map, names, seed=deal)
        seat = game.current
        _, legal = legal_actions(game)
        action = policy(game_map, seat, deal).choose(SeatView.of(game, seat), legal)
        kept = [game_map.ticket(name).index for name in action.tickets]
        counts[len(kept)][sum(t in longs for t in kept)] += 1
    found = {k: [x / sum(row) for x in row] for k, row in counts.items()}
    cache[key] = found
    return found


def _choose(n: int, k: int) -> int:
    """n choose k (0 outside 0 <= k <= n)."""
    if not 0 <= k <= n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out
