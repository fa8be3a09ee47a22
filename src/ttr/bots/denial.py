"""A playout policy for the searching seat that blocks: in a sampled world the other seats' tickets are known.

`mcts` plays its own seat's later moves in a playout with its guide (`GreedyLong`), which never blocks, while
the search itself wins mostly by what it takes from the other seat (the experiment log,
`git show 4584f41:research/bot-experiments.md`, "a stronger guide, a weaker search").
`DenyingBot` plays the guide's move, except where the guide would draw a card: then it claims the route it
can pay without locomotives (and, for a tunnel, with a spare card) whose loss lengthens the other seats'
cheapest ticket paths in the world by the most trains, at least `min_damage`. It reads those tickets from
the playout's game (`world`, handed over by `ttr.bots.playout.GreedyPlayout`); a bot playing from a seat
view never has them, so it is for playouts only (the profiles' `own_playout`, `denying_long` presets).
"""

from __future__ import annotations

from ttr.bots.greedy import GreedyBot
from ttr.bots.params import GreedyParams
from ttr.bots.planning import INF, Board, Options, Plan, dijkstra, distance_without, open_routes, path_to
from ttr.engine import Action, Game, doubles
from ttr.maps import GameMap

DETOUR_CAP = 20.0  # trains a cut ticket path counts for at most


class DenyingBot(GreedyBot):
    """Greedy (its preset: `denying_long`, `GreedyLong`'s parameters) that, where it would draw, blocks the
    other seats' paths in its playout's world."""

    name = "denying_long"

    def __init__(self, game_map: GameMap, seat: int, seed: int, *, preset: str = "denying_long",
                 params: GreedyParams | None = None) -> None:
        """The policy for `seat`; `world` stays None (no blocking) until a playout hands it its game."""
        super().__init__(game_map, seat, seed, preset=preset, params=params)
        self.world: Game | None = None
        self._damage_key: object = None
        self._damage: dict[int, float] = {}

    def _main(self, board: Board, plan: Plan, opts: Options) -> Action | None:
        action = super()._main(board, plan, opts)
        world = self.world
        if world is None or action is None or action.kind != "draw_card" or board.final_round:
            return action
        damage = self._link_damage(board, world)
        if not damage:
            return action
        ix = self.ix
        need = self._needs(plan.routes, board.hand)
        best: tuple[tuple[float, int], Action] | None = None
        for r, options in opts.claims.items():
            lost = damage.get(ix.link[r], 0.0)
            if lost < self.params.min_damage:
                continue
            option = self.cheapest_claim(board, options, need)
            if option.wilds > 0 or not self._tunnel_ok(board, option):
                continue
            key = (lost, ix.length[r])
            if best is None or key > best[0]:
                best = (key, option.action)
        return best[1] if best is not None else action

    def _link_damage(self, board: Board, world: Game) -> dict[int, float]:
        """Per link on another seat's cheapest ticket paths: the trains closing it adds to those paths (a cut
        path counts `DETOUR_CAP`), summed over the seats and tickets; kept while the board and tickets stay."""
        key = (board.signature, tuple(tuple(t) for t in world.tickets))
        if key == self._damage_key:
            return self._damage
        self._damage_key = key
        ix = self.ix
        damage: dict[int, float] = {}
        # Open to q: where one track of a double route is used (the map's rule for this seat count), the
        # same routes as to this seat; else q's own (E-DOUBLE-1/2).
        same_for_all = doubles.single_use(ix.game_map, board.n)
        for q in range(board.n):
            if q == board.seat:
                continue
            is_open = board.open if same_for_all else open_routes(ix, board.owner, q, board.n)
            costs = [0.0 if o == q else (ix.length[r] + self.params.overhead if o < 0 and is_open[r] else INF)
                     for r, o in enumerate(board.owner)]
            for t in world.tickets[q]:
                a, b = ix.ticket_a[t], ix.ticket_b[t]
                dist, prev = dijkstra(ix, costs, a, b)
                base = dist[b]
                if base <= 0 or base >= INF:
                    continue
                for r in path_to(ix, prev, a, b):
                    if board.owner[r] == q:
                        continue
                    link = ix.link[r]
                    detour = distance_without(ix, costs, a, b, ix.link_routes[link])
                    damage[link] = damage.get(link, 0.0) + min(detour, base + DETOUR_CAP) - base
        self._damage = damage
        return damage
