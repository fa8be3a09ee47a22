"""The cards each seat is known to hold: the cards it took face up and has not played since.

Every layer that reasons about hidden hands reads this one bookkeeping: the learning environments'
observation (`ttr.envs.observation`) and the worlds of information-set search (`ttr.engine.sample`).
"""

from __future__ import annotations

from ttr.engine.actions import ABANDON_TUNNEL, BUILD_STATION, CLAIM, DRAW_FACE_UP, PAY_TUNNEL
from ttr.engine.game import Game
from ttr.maps import GameMap


class KnownCards:
    """The cards each seat is known to hold, from the public moves in `game.history` alone.

    A card taken face up is known until played: cards paid for a route, a tunnel or a station leave the
    known ones first (the seat may have paid with cards drawn blind instead, but nobody can tell), and the
    cards of a tunnel given up come back known. Read incrementally: only the moves added since the last read
    are gone through, while the history read ends with the same entry (the same object: a copy of the game
    shares its entries); any other history is read from its first move. It keeps no reference to a game,
    so one kept in a game's own cache (`ttr.engine.views`) makes no reference cycle.
    """

    def __init__(self, game_map: GameMap, num_players: int) -> None:
        self.n = num_players
        self.cards = len(game_map.colors) + 1
        self.wild = len(game_map.colors)
        self.lengths = [r.length for r in game_map.routes]
        self._done = 0  # history entries gone through
        self._last: object = None  # the last of them (a reset or another game's history does not match)
        self._known: list[list[int]] = [[0] * self.cards for _ in range(self.n)]
        self._claim: tuple[int, int, int, int] = (-1, 0, 0, 0)  # the last claim: seat, colour, colour cards, wilds
        self._frozen: tuple[tuple[int, ...], ...] | None = None  # `read_frozen`'s answer until a move changes it

    def copy(self) -> KnownCards:
        """An independent copy, for a copy of the game it read (`Game.copy`): the copy's history starts with
        the same entries, so its reads go on from here instead of from the first move."""
        new = KnownCards.__new__(KnownCards)
        new.n, new.cards, new.wild, new.lengths = self.n, self.cards, self.wild, self.lengths
        new._done, new._last, new._claim, new._frozen = self._done, self._last, self._claim, self._frozen
        new._known = [k[:] for k in self._known]
        return new

    def read_frozen(self, game: Game) -> tuple[tuple[int, ...], ...]:
        """`read` as tuples, built again only when the moves read change it."""
        known = self.read(game)
        frozen = self._frozen
        if frozen is None:
            frozen = self._frozen = tuple([tuple(k) for k in known])
        return frozen

    def read(self, game: Game) -> list[list[int]]:
        """Per seat, the count of each card type it is known to hold (do not modify)."""
        history = game._history
        done = self._done
        if done and not (done <= len(history) and history[done - 1] is self._last):
            self._known = [[0] * self.cards for _ in range(self.n)]
            self._frozen = None
            self._claim = (-1, 0, 0, 0)
            self._last = None
            done = self._done = 0
        if done < len(history):
            self._frozen = None
            cat = game._cat
            kind, a, b, c, d = cat.kind, cat.a, cat.b, cat.c, cat.d
            known = self._known
            wild = self.wild
            for p, aid, _ in history[done:]:
                k = kind[aid]
                if k == DRAW_FACE_UP:
                    known[p][b[aid]] += 1
                elif k == CLAIM:
                    colour, w = b[aid], c[aid]
                    count = self.lengths[a[aid]] - w if colour != wild else 0
                    self._claim = (p, colour, count, w)
                    self._play(known[p], colour, count, w)
                elif k == PAY_TUNNEL:
                    self._play(known[p], self._claim[1], a[aid] - c[aid], c[aid])
                elif k == ABANDON_TUNNEL:
                    _, colour, count, w = self._claim
                    if colour != wild:
                        known[p][colour] += count
                    known[p][wild] += w
                elif k == BUILD_STATION:
                    colour, w = b[aid], c[aid]
                    self._play(known[p], colour, d[aid] - w if colour != wild else 0, w)
            self._done = len(history)
            self._last = history[-1]
        return self._known

    def _play(self, known: list[int], colour: int, count: int, wilds: int) -> None:
        """Cards played leave the hand: the known ones first."""
        if colour == self.wild:
            count, wilds = 0, wilds + count
        if count:
            known[colour] = max(0, known[colour] - count)
        if wilds:
            known[self.wild] = max(0, known[self.wild] - wilds)
