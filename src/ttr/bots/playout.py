"""Greedy playouts on sampled games: every seat plays `greedy` on the `Game` itself (no views).

Search (`ttr.bots.mcts`) plays many games forward from sampled positions. Reading a seat view for every
decision would cost most of the time, so each seat's greedy bot reads the game directly
(`Board.from_game`, the same `Board` its view would give) and answers with the legal actions' ids. In main
turns and on the second card every legal action is static (its id alone fixes it), so the ids are sorted
into `Options` directly (`planning.game_options`: cached per id, stations decoded only if greedy looks at
them) instead of decoding the whole legal list; ticket choices and tunnels take the general path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ttr.bots.base import legal_actions
from ttr.bots.denial import DenyingBot
from ttr.bots.greedy import GreedyBot
from ttr.bots.planning import Board, game_options, map_index, static_action, static_id
from ttr.engine import Game
from ttr.engine.phases import MAIN, SECOND_CARD
from ttr.maps import GameMap


class GreedyPlayout:
    """One greedy bot per seat, reused from playout to playout (their plan caches are keyed by the board)."""

    # Actions a playout plays at most: far more than a game takes (a five-seat Europe game takes a few
    # hundred), a guard against a sampled world where the seats' play goes round in a circle for ever.
    limit = 2_000

    def __init__(self, game_map: GameMap, n: int, seed: int,
                 styles: Mapping[int, Callable[[GameMap, int, int], GreedyBot]] | None = None) -> None:
        """Greedy bots for seats 0..n-1 of `game_map`, seeded with `seed`; `styles` gives some seats a variant
        of greedy instead (a `ttr.bots.styles.Policy`)."""
        self.ix = map_index(game_map)
        chosen = styles or {}
        self.bots = [chosen.get(s, GreedyBot)(game_map, s, seed) for s in range(n)]
        self.world_bots = [bot for bot in self.bots if isinstance(bot, DenyingBot)]  # they read the game

    def choose_id(self, game: Game) -> int:
        """The catalogue id greedy plays for the seat to move in `game`."""
        phase = game.phase
        if phase in (MAIN, SECOND_CARD):
            ids = game.legal_ids()
            if len(ids) == 1:
                return ids[0]
            ix = self.ix
            seat = game.current
            opts = game_options(ix, game, ids)
            action = self.bots[seat].decide_options(Board.from_game(ix, game, seat), opts,
                                                    static_action(ix, game, ids[0]))
            aid = static_id(ix, action)
            if aid is None:  # every option game_options gives is static
                raise RuntimeError(f"greedy chose {action}, which game_options did not offer")
            return aid
        ids, legal = legal_actions(game)
        if len(ids) == 1:
            return ids[0]
        seat = game.current
        action = self.bots[seat].decide(Board.from_game(self.ix, game, seat), legal, ids)
        for aid, a in zip(ids, legal, strict=True):
            if a is action:
                return aid
        return ids[legal.index(action)]

    def run(self, game: Game, max_actions: int | None = None) -> int:
        """Play greedy for every seat until the game ends or `max_actions` (default `limit`) were played; the
        number played."""
        for bot in self.world_bots:
            bot.world = game
        if max_actions is None or max_actions > self.limit:
            max_actions = self.limit
        played = 0
        while played < max_actions and not game.is_over:
            game.apply_unchecked(self.choose_id(game))
            played += 1
        return played
