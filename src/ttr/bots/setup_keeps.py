"""How greedy keeps its tickets at setup, offer by offer: a prior for dealing the other seats' tickets.

In Europe each seat is offered 1 long and 3 regular tickets and keeps 2 to 4. Greedy keeps a set it can
finish within its trains, so the tickets it keeps share paths far more often than a uniform deal of as
many tickets would. The search (`ttr.bots.mcts`) deals the setup tickets of a seat it models as greedy
from this table: an offer drawn from the tickets it cannot see (weighted by the belief), greedy's keep
of it looked up, and the offer drawn again until greedy keeps as many as the seat did. In two-player
Europe its worlds then held 45% of the other seat's real tickets at 10 trains laid instead of 40%, and
greedy's ticket points in its playouts came 3 points closer to those of its real tickets (the experiment log,
`git show 4584f41:research/bot-experiments.md`, "what the search's worlds foresee": "Greedy's setup keep as
the prior").

The table (`data/setup-keeps-<map>.json`, made by `scripts/make_setup_keeps.py`) holds greedy's keep of
every setup offer (Europe: 6 x 9,880) under the starting hands of a few seeded games: its keep depends
a little on the hand (the same offer kept differently in 14% of pairs of random hands), not on the
number of seats. `keep_mask` computes an entry afresh: the tests check the table against it.
"""

from __future__ import annotations

import base64
import json
import math
import random
import zlib
from collections.abc import Sequence
from importlib import resources
from typing import Any

from ttr.bots.base import legal_actions
from ttr.bots.greedy import GreedyBot
from ttr.engine import Game, SeatView, surgery
from ttr.engine.sample import draw_weighted
from ttr.maps import GameMap

FORMAT = 1
TRIES = 30  # offers drawn for one deal before giving up (the caller then deals as before)


def keep_mask(game_map: GameMap, offer: Sequence[int], hand_seed: int) -> int:
    """Greedy's keep of the setup `offer` (ticket indexes) with the starting hand of `Game.new(map,
    2 seats, seed=hand_seed)`'s seat to choose first: bit i set when it keeps `offer[i]`."""
    return _Keeper(game_map, hand_seed).mask(offer)


class _Keeper:
    """Greedy at the setup of one seeded game, asked about any offer."""

    def __init__(self, game_map: GameMap, hand_seed: int) -> None:
        self.game = Game.new(game_map, ["a", "b"], seed=hand_seed)
        self.bot = GreedyBot(game_map, self.game.current, 0)

    def mask(self, offer: Sequence[int]) -> int:
        """Greedy's keep of `offer` as a bit mask (see `keep_mask`)."""
        game = self.game
        surgery.offer_setup_tickets(game, offer)
        _, legal = legal_actions(game)
        action = self.bot.choose(SeatView.of(game, game.current), legal)
        kept = {game.map.ticket(name).index for name in action.tickets}
        return sum(1 << i for i, t in enumerate(offer) if t in kept)


def setup_pools(game_map: GameMap) -> tuple[list[int], list[int]]:
    """The map's long and regular tickets (indexes, ascending): the order of the table's offers."""
    return ([t.index for t in game_map.tickets if t.long], [t.index for t in game_map.tickets if not t.long])


def subset_rank(positions: Sequence[int]) -> int:
    """The colex rank of a set of ascending positions (0, 1, 2 ... as `subsets` lists them)."""
    return sum(math.comb(p, i + 1) for i, p in enumerate(positions))


def subsets(n: int, k: int) -> list[tuple[int, ...]]:
    """The k-subsets of range(n), ascending within, in colex order (rank 0, 1, 2 ...)."""
    if k == 0:
        return [()]
    return [(*head, last) for last in range(k - 1, n) for head in subsets(last, k - 1)]


class SetupKeeps:
    """Greedy's setup keep of every offer of one map (see the module); `deal` draws a kept set."""

    def __init__(self, game_map: GameMap, data: dict[str, Any]) -> None:
        """Read a table made by `scripts/make_setup_keeps.py`; `ValueError` naming what does not match
        `game_map` (another map, other tickets, a damaged table)."""
        rules = game_map.rules
        self.n_long, self.n_regular = rules.setup_long_tickets, rules.setup_regular_tickets
        self.longs, self.regulars = setup_pools(game_map)
        names = [game_map.tickets[t].name for t in self.longs + self.regulars]
        if data.get("format") != FORMAT or data.get("map") != game_map.name:
            raise ValueError(f"setup keeps: the table is not format {FORMAT} for map {game_map.name!r}")
        if data.get("tickets") != names:
            raise ValueError("setup keeps: the table lists other tickets than the map: make it again")
        self.hands: list[int] = data["hands"]
        self._masks = zlib.decompress(base64.b64decode(data["masks"]))
        self._per_long = math.comb(len(self.regulars), self.n_regular)
        offers = math.comb(len(self.longs), self.n_long) * self._per_long
        if len(self._masks) != offers * len(self.hands):
            raise ValueError(f"setup keeps: {len(self._masks)} entries, not {offers} offers x {len(self.hands)} hands")
        self._long_at = {t: i for i, t in enumerate(self.longs)}
        self._regular_at = {t: i for i, t in enumerate(self.regulars)}

    @classmethod
    def for_map(cls, game_map: GameMap) -> SetupKeeps | None:
        """The table of `game_map` (read once, cached with the map), or None if it has none."""
        key = "bots.setup_keeps"
        cache = game_map.engine_cache
        if key not in cache:
            path = resources.files("ttr.bots").joinpath("data", f"setup-keeps-{game_map.name}.json")
            cache[key] = cls(game_map, json.loads(path.read_text(encoding="utf-8"))) if path.is_file() else None
        found: SetupKeeps | None = cache[key]
        return found

    def kept(self, longs: Sequence[int], regulars: Sequence[int], hand: int) -> list[int]:
        """The tickets greedy keeps of the offer of these long and regular tickets (any order) with the
        table's `hand`-th starting hand."""
        long_at = sorted(self._long_at[t] for t in longs)
        regular_at = sorted(self._regular_at[t] for t in regulars)
        offer = [self.longs[i] for i in long_at] + [self.regulars[i] for i in regular_at]
        index = subset_rank(long_at) * self._per_long + subset_rank(regular_at)
        mask = self._masks[index * len(self.hands) + hand]
        return [t for i, t in enumerate(offer) if mask >> i & 1]

    def deal(self, rng: random.Random, longs: Sequence[int], regulars: Sequence[int], count: int,
             weights: Sequence[float] | None = None) -> list[int] | None:
        """A set of `count` tickets greedy kept at setup: offers drawn from the hidden `longs` and
        `regulars` (with chances in proportion to `weights`, by ticket, if given) until greedy keeps
        `count` of one (with a random one of the table's hands); None after `TRIES` offers."""
        if len(longs) < self.n_long or len(regulars) < self.n_regular:
            return None
        for _ in range(TRIES):
            kept = self.kept(_draw(rng, longs, self.n_long, weights), _draw(rng, regulars, self.n_regular, weights),
                             rng.randrange(len(self.hands)))
            if len(kept) == count:
                return kept
        return None


def _draw(rng: random.Random, pool: Sequence[int], k: int, weights: Sequence[float] | None) -> list[int]:
    """`k` tickets of `pool` without replacement, with chances in proportion to `weights` if given."""
    return rng.sample(list(pool), k) if weights is None else draw_weighted(pool, k, weights, rng)


def build_table(game_map: GameMap, hands: Sequence[int]) -> dict[str, Any]:
    """The table of `game_map` (the JSON `SetupKeeps` reads): greedy's keep of every offer under the
    starting hands of the games seeded `hands`. About 0.6 ms per offer and hand."""
    rules = game_map.rules
    longs, regulars = setup_pools(game_map)
    keepers = [_Keeper(game_map, seed) for seed in hands]
    masks = bytearray()
    for long_set in subsets(len(longs), rules.setup_long_tickets):
        for regular_set in subsets(len(regulars), rules.setup_regular_tickets):
            offer = [longs[i] for i in long_set] + [regulars[i] for i in regular_set]
            masks.extend(keeper.mask(offer) for keeper in keepers)
    return {"format": FORMAT, "map": game_map.name, "policy": "greedy", "hands": list(hands),
            "tickets": [game_map.tickets[t].name for t in longs + regulars],
            "masks": base64.b64encode(zlib.compress(bytes(masks), 9)).decode("ascii")}
