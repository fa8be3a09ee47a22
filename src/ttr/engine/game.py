"""The game state and its rules: setup, legal actions, apply, copy.

The state is a handful of flat lists of small ints (cards, routes, cities and tickets are indexes
into the map). Hot-path methods (`legal_ids`, `apply_id`) build no objects beyond the id list;
`Action` values are made only on request (`legal_actions`, `decode`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ttr.engine import actions as A
from ttr.engine import encoding, legality
from ttr.engine.actions import Action, Catalogue
from ttr.engine.chance import ChanceSource
from ttr.engine.phases import CHOOSE_SETUP, CHOOSE_TICKETS, MAIN, OVER, PHASE_NAMES, SECOND_CARD, TUNNEL
from ttr.engine.rng import Rng
from ttr.engine.scoring import BoardPlayer, FinalScore, score_board
from ttr.errors import IllegalActionError, InvalidActionError, MapError, RecordError
from ttr.maps import GameMap


def catalogue_for(game_map: GameMap) -> Catalogue:
    """The action catalogue of a map, built once and kept on the map."""
    cat = game_map.engine_cache.get("catalogue")
    if not isinstance(cat, Catalogue):
        cat = game_map.engine_cache["catalogue"] = Catalogue(game_map)
    return cat


class Game:
    """One game of Ticket to Ride on any map: the complete state and the rules that change it.

    Make one with `Game.new(map, players, seed)` (or `decks=` to fix the starting deck orders).
    `legal_ids()` lists every legal action id; `apply_id(i)` plays one (`IllegalActionError` and no
    change if it is not legal). `legal_actions()`, `apply(action)`, `encode`, `decode` do the same
    with `Action` values. Views of the state for a seat live in `ttr.engine.views`.

    The state is private (`_hands`, `_deck`, ...). The read-only properties below show what a holder of
    the whole game may read (every hand and ticket, the board, the history), typed so that a type checker
    rejects changing them (`Sequence`); they hand out the game's own lists without copying, so a caller
    must not cast them back and write (`tests/engine/test_encapsulation.py` checks that nothing outside the
    engine does; a copy or a read-only wrapper on every read would cost the search's playouts).
    Hidden information has no property: the order of the train deck and
    of the ticket deck, the setup offers still to be made, the RNG and the deck orders a record keeps. Only
    the engine reads those: its own modules (`legality`, `encoding`, `scoring`, `sample`, `surgery`,
    `known`, `views`, `positions`) and the named functions that give them out for one purpose each:
    `starting_orders` (for `ttr.records`), `ttr.engine.surgery`'s functions (for the search's sampled
    worlds) and `ttr.engine.positions` (for setting up a position in a test or tutorial). Everything
    outside the engine changes a game only by playing actions or through those modules.
    """

    _map: GameMap
    _cat: Catalogue
    _players: list[str]
    _hands: list[list[int]]
    _deck: list[int]
    _discard: list[int]
    _face_up: list[int]
    _owner: list[int]
    _blocked: list[bool]
    _group_open: list[list[int]]
    _excluded: list[set[int]]
    _free_station_bases: list[list[int]]
    _trains: list[int]
    _stations_left: list[int]
    _station_owner: list[int]
    _scores: list[int]
    _tickets: list[list[int]]
    _ticket_deck: list[int]
    _offered: list[int]
    _t_revealed: list[int]
    _history: list[tuple[int, int, tuple[int, ...]]]
    _initial_train: list[int]
    _initial_tickets: list[int]
    _initial_long: list[int]
    _reshuffles: list[list[int]]
    _forced_reshuffles: list[list[int]] | None
    _setup_offers: list[list[int]]
    _n: int
    _wild: int
    _ncol: int
    _phase: int
    _current: int
    _final_turns: int
    _passes: int
    _rng: Rng
    _t_route: int
    _t_color: int
    _t_wild: int
    _t_extra: int
    _seed: int
    _route_len: list[int]
    _route_col: list[int]
    _route_ferry: list[int]
    _route_twin: list[int]
    _route_pts: list[int]
    _small_game: bool
    _view_cache: dict[str, Any]  # what `ttr.engine.views` worked out once (the public log so far)
    _chance: ChanceSource | None  # where draws come from; None: the deck's own order (`ttr.engine.chance`)

    # ------------------------------------------------------------------ what may be read (read only)

    @property
    def map(self) -> GameMap:
        """The map played on."""
        return self._map

    @property
    def cat(self) -> Catalogue:
        """The map's action catalogue (action ids)."""
        return self._cat

    @property
    def players(self) -> Sequence[str]:
        """The seats' names, in seat order."""
        return self._players

    @property
    def n(self) -> int:
        """The number of seats."""
        return self._n

    @property
    def wild(self) -> int:
        """The card index of the wild card (locomotive or taxi): the number of colours."""
        return self._wild

    @property
    def ncol(self) -> int:
        """The number of colours (card indexes 0..ncol-1; the wild card is `ncol`)."""
        return self._ncol

    @property
    def seed(self) -> int:
        """The seed the game was made with."""
        return self._seed

    @property
    def phase(self) -> int:
        """The phase (`ttr.engine.phases`)."""
        return self._phase

    @property
    def current(self) -> int:
        """The seat to move."""
        return self._current

    @property
    def final_turns(self) -> int:
        """-1 before the final round; then the turns left in it, this one included (0 once it is over)."""
        return self._final_turns

    @property
    def passes(self) -> int:
        """How many seats in a row have passed (E-DRAW-8)."""
        return self._passes

    @property
    def small_game(self) -> bool:
        """Whether the double-route rule closes the twin of a claimed route (E-DOUBLE-2)."""
        return self._small_game

    @property
    def hands(self) -> Sequence[Sequence[int]]:
        """Per seat, the count of each card type held (index `wild` for wild cards). Hidden from other seats."""
        return self._hands

    @property
    def tickets(self) -> Sequence[Sequence[int]]:
        """Per seat, the tickets kept (ticket indexes). Hidden from other seats."""
        return self._tickets

    @property
    def offered(self) -> Sequence[int]:
        """The tickets on offer to the seat to move (empty unless it is choosing). Hidden from other seats."""
        return self._offered

    @property
    def face_up(self) -> Sequence[int]:
        """The face-up row (card indexes; -1 for an empty slot)."""
        return self._face_up

    @property
    def discard(self) -> Sequence[int]:
        """The discard pile (every card in it was shown when it was played)."""
        return self._discard

    @property
    def deck_size(self) -> int:
        """How many cards the train deck holds (its order is hidden)."""
        return len(self._deck)

    @property
    def ticket_deck_size(self) -> int:
        """How many tickets the ticket deck holds (its order is hidden)."""
        return len(self._ticket_deck)

    @property
    def owner(self) -> Sequence[int]:
        """Per route, the seat that holds it (-1: no one)."""
        return self._owner

    @property
    def blocked(self) -> Sequence[bool]:
        """Per route, whether it can no longer be claimed (held, or closed by the double-route rule)."""
        return self._blocked

    @property
    def station_owner(self) -> Sequence[int]:
        """Per city, the seat with a station there (-1: none)."""
        return self._station_owner

    @property
    def trains(self) -> Sequence[int]:
        """Per seat, the train pieces left."""
        return self._trains

    @property
    def stations_left(self) -> Sequence[int]:
        """Per seat, the stations left."""
        return self._stations_left

    @property
    def scores(self) -> Sequence[int]:
        """Per seat, the points scored so far (routes; tickets and bonuses count at the end)."""
        return self._scores

    @property
    def history(self) -> Sequence[tuple[int, int, tuple[int, ...]]]:
        """Every action played: (seat, action id, detail: the card drawn, the row after it, the cards revealed,
        the tickets kept then returned). Holds what each seat drew and kept: for the game's holder, not a seat."""
        return self._history

    @property
    def t_route(self) -> int:
        """The tunnel being claimed (-1: none)."""
        return self._t_route

    @property
    def t_color(self) -> int:
        """The colour played for the tunnel being claimed (-1: none)."""
        return self._t_color

    @property
    def t_wild(self) -> int:
        """The wild cards played for the tunnel being claimed."""
        return self._t_wild

    @property
    def t_extra(self) -> int:
        """The extra cards the tunnel being claimed asks for."""
        return self._t_extra

    @property
    def t_revealed(self) -> Sequence[int]:
        """The cards revealed for the tunnel being claimed."""
        return self._t_revealed

    # ------------------------------------------------------------------ setup

    @classmethod
    def new(
        cls,
        game_map: GameMap,
        players: Sequence[str] | int,
        seed: int = 0,
        decks: dict[str, list[str]] | None = None,
        reshuffles: list[list[str]] | None = None,
        chance: ChanceSource | None = None,
    ) -> Game:
        """A new game, dealt (E-SETUP-1..5). `players` is a list of names or a count.

        `seed` fixes every shuffle; `decks` ("train", "tickets", "long_tickets": names, top first)
        fixes the starting orders instead; `reshuffles` fixes the order of each reshuffled deck.
        `chance` chooses every card and ticket drawn, the deal's included (`ttr.engine.chance`).
        """
        count = players if isinstance(players, int) else len(players)
        rules = game_map.rules
        if not rules.players_min <= count <= rules.players_max:
            raise RecordError(f"{game_map.name} is for {rules.players_min}-{rules.players_max} players, got {count}")
        if isinstance(players, int):
            players = [f"Player {i + 1}" for i in range(players)]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"seed must be an integer, got {seed!r}")
        g = cls()
        g._map = game_map
        g._cat = catalogue_for(game_map)
        g._players = list(players)
        g._n = n = len(players)
        g._ncol = len(game_map.colors)
        g._wild = g._ncol
        g._seed = seed
        g._rng = Rng(seed)
        g._chance = chance
        routes = game_map.routes
        g._route_len = [r.length for r in routes]
        g._route_col = [-1 if r.color == "gray" else game_map.colors.index(r.color) for r in routes]
        g._route_ferry = [r.ferry_locomotives for r in routes]
        g._route_twin = [r.twin for r in routes]
        g._route_pts = [rules.route_points.get(r.length, 0) for r in routes]
        g._small_game = n <= rules.double_routes_single_use_max_players

        train, regular, long_ = g._starting_orders(decks)
        g._initial_train = train[:]
        g._initial_tickets = regular[:]
        g._initial_long = long_[:]
        g._reshuffles = []
        g._forced_reshuffles = None
        if reshuffles is not None:
            g._forced_reshuffles = [[g._card_of(c, "reshuffles") for c in order] for order in reshuffles]

        g._deck = train[::-1]  # top of the deck is the end of the list
        g._discard = []
        g._hands = [[0] * (g._ncol + 1) for _ in range(n)]
        for p in range(n):  # E-SETUP-1
            for _ in range(rules.starting_hand):
                g._hands[p][g._take_card()] += 1
        g._face_up = [-1] * rules.face_up
        for i in range(rules.face_up):
            g._face_up[i] = g._take_card()
        g._check_face_up()  # E-SETUP-2

        g._tickets = [[] for _ in range(n)]
        g._offered = []
        if chance is not None:  # the source picks each seat's offer, its long tickets first
            g._choose_setup_tickets(chance, long_, regular)
        setup_offers: list[list[int]] = [[] for _ in range(n)]
        for p in range(n):  # E-SETUP-3: the rest of the long tickets leave the game
            setup_offers[p].extend(long_[p * rules.setup_long_tickets:(p + 1) * rules.setup_long_tickets])
        pos = 0
        for p in range(n):  # E-SETUP-4
            setup_offers[p].extend(regular[pos:pos + rules.setup_regular_tickets])
            pos += rules.setup_regular_tickets
        g._ticket_deck = regular[pos:]
        g._setup_offers = setup_offers

        g._owner = [-1] * len(routes)
        g._trains = [rules.pieces] * n
        g._stations_left = [rules.stations] * n
        g._station_owner = [-1] * len(game_map.cities)
        g._rebuild_indexes()  # blocked, group_open, excluded, free_station_bases
        g._scores = [0] * n
        g._final_turns = -1
        g._passes = 0
        g._t_route = -1
        g._t_color = -1
        g._t_wild = 0
        g._t_extra = 0
        g._t_revealed = []
        g._history = []
        g._view_cache = {}
        g._current = 0
        g._phase = CHOOSE_SETUP
        g._offered = setup_offers[0][:]
        return g

    def _choose_setup_tickets(self, chance: ChanceSource, long_: list[int], regular: list[int]) -> None:
        """Reorder the shuffled long and regular tickets so that the setup offers hold what `chance` picks."""
        rules = self._map.rules
        for p in range(self._n):
            for pool, count in ((long_, rules.setup_long_tickets), (regular, rules.setup_regular_tickets)):
                for pos in range(p * count, (p + 1) * count):
                    j = chance.ticket(pool, pos)
                    pool[pos], pool[j] = pool[j], pool[pos]
        self._initial_tickets = regular[:]
        self._initial_long = long_[:]

    def set_chance(self, chance: ChanceSource | None) -> None:
        """Draw every later card and ticket through `chance` (None: the deck's own order again)."""
        self._chance = chance

    def _card_of(self, name: object, where: str) -> int:
        if not isinstance(name, str):
            raise RecordError(f"{where}: a card is a name, got {name!r}")
        try:
            return self._map.card(name)
        except MapError as exc:
            raise RecordError(f"{where}: {exc}") from None

    def _starting_orders(self, decks: dict[str, list[str]] | None) -> tuple[list[int], list[int], list[int]]:
        """The train deck, regular tickets and long tickets, top first (E-SETUP-1, -3, -4)."""
        m = self._map
        decks = decks or {}
        if not isinstance(decks, dict):
            raise RecordError("decks: expected an object with 'train', 'tickets', 'long_tickets'")
        full_train = [c for c in range(self._ncol) for _ in range(m.per_color)] + [self._wild] * m.wild_count
        long_ids = [t.index for t in m.tickets if t.long]
        regular_ids = [t.index for t in m.tickets if not t.long]
        if "train" in decks:
            train = [self._card_of(c, "decks.train") for c in _as_list(decks["train"], "decks.train")]
            if sorted(train) != sorted(full_train):
                raise RecordError(f"decks.train must hold exactly the map's {len(full_train)} cards "
                                  f"({m.per_color} of each colour and {m.wild_count} {m.wild_name})")
        else:
            train = full_train
            self._rng.shuffle(train)
        if "long_tickets" in decks:
            long_ = self._tickets_of(decks["long_tickets"], "decks.long_tickets")
            if sorted(long_) != sorted(long_ids):
                raise RecordError("decks.long_tickets must hold exactly the map's long tickets")
        else:
            long_ = long_ids
            self._rng.shuffle(long_)
        if "tickets" in decks:
            regular = self._tickets_of(decks["tickets"], "decks.tickets")
            if sorted(regular) != sorted(regular_ids):
                raise RecordError("decks.tickets must hold exactly the map's regular tickets")
        else:
            regular = regular_ids
            self._rng.shuffle(regular)
        unknown = set(decks) - {"train", "tickets", "long_tickets"}
        if unknown:
            raise RecordError(f"decks: unknown deck {sorted(unknown)[0]!r} (known: train, tickets, long_tickets)")
        return train, regular, long_

    def _tickets_of(self, names: object, where: str) -> list[int]:
        out = []
        for name in _as_list(names, where):
            if not isinstance(name, str):
                raise RecordError(f"{where}: a ticket is a name such as 'Berlin-Roma', got {name!r}")
            try:
                out.append(self._map.ticket(name).index)
            except MapError as exc:
                raise RecordError(f"{where}: {exc}") from None
        return out

    # ------------------------------------------------------------------ cards

    def _take_card(self) -> int:
        """The top card of the deck, reshuffling the discards first if the deck is empty (E-DRAW-7); -1 if none."""
        deck = self._deck
        if not deck:
            if not self._discard:
                return -1
            self._reshuffle()
        chance = self._chance
        if chance is not None:
            return deck.pop(chance.card(deck))
        return deck.pop()

    def _reshuffle(self) -> None:
        forced = self._forced_reshuffles
        if forced is not None and len(self._reshuffles) < len(forced):
            order = forced[len(self._reshuffles)]
            if sorted(order) != sorted(self._discard):
                raise RecordError(
                    f"reshuffles[{len(self._reshuffles)}] must hold exactly the {len(self._discard)} cards of the "
                    "discard pile at that moment"
                )
            new = order[:]
        else:
            new = self._discard[:]
            self._rng.shuffle(new)
        self._reshuffles.append(new)
        self._discard.clear()
        self._deck[:] = new[::-1]

    def _check_face_up(self) -> None:
        """E-DRAW-6: 3 face-up wilds: discard the row and turn up a new one, at most `face_up_max_resets` times."""
        rules = self._map.rules
        face = self._face_up
        wild = self._wild
        resets = 0
        while face.count(wild) >= rules.face_up_wild_limit and resets < rules.face_up_max_resets:
            self._discard.extend(c for c in face if c >= 0)
            for i in range(len(face)):
                face[i] = -1
            for i in range(len(face)):
                face[i] = self._take_card()
            resets += 1

    def _refill_face_up(self) -> None:
        """Fill slots left empty while the deck and discards were both empty, now that cards are back."""
        face = self._face_up
        for i, card in enumerate(face):
            if card < 0:
                face[i] = self._take_card()
        self._check_face_up()

    def can_draw_blind(self) -> bool:
        """Whether a card can be drawn blind: the deck or the discard pile holds one (E-DRAW-8)."""
        return bool(self._deck) or bool(self._discard)

    # ------------------------------------------------------------------ legal actions

    def legal_ids(self) -> list[int]:
        """Every legal action id for the seat to move (empty when the game is over)."""
        phase = self._phase
        cat = self._cat
        if phase == MAIN:
            out = self._draw_ids(first=True)
            if self._ticket_deck:
                out.append(cat.draw_tickets)
            self._claim_ids(out)
            if self._stations_left[self._current]:
                self._station_ids(out)
            if not out:
                out.append(cat.pass_)
            out.sort()
            return out
        if phase == SECOND_CARD:
            return self._draw_ids(first=False)
        if phase in (CHOOSE_SETUP, CHOOSE_TICKETS):
            k = len(self._offered)
            need = self.keep_min()
            base = cat.keep_base
            return [base + mask for mask in range(1, 1 << k) if mask.bit_count() >= need]
        if phase == TUNNEL:
            out = []
            hand = self._hands[self._current]
            x = self._t_extra
            w_have = hand[self._wild]
            if self._t_color == self._wild:
                if w_have >= x:
                    out.append(cat.pay[(x, x)])
            else:
                lo = x - hand[self._t_color]
                for w in range(lo if lo > 0 else 0, (w_have if w_have < x else x) + 1):
                    out.append(cat.pay[(x, w)])
            out.append(cat.abandon)
            return out
        return []

    def keep_min(self) -> int:
        """How many of the tickets on offer must be kept (E-SETUP-5, E-TICK-1)."""
        rules = self._map.rules
        need = rules.setup_keep_min if self._phase == CHOOSE_SETUP else rules.draw_keep_min
        return min(need, len(self._offered))

    def _draw_ids(self, first: bool) -> list[int]:
        """Draw from the deck, then each card type showing face up (by card index); no wild as a second card."""
        out = [self._cat.draw_deck] if (self._deck or self._discard) else []
        showing = 0
        for c in self._face_up:
            if c >= 0:
                showing |= 1 << c
        if not first:
            showing &= ~(1 << self._wild)  # E-DRAW-4
        face_ids = self._cat.draw_face_up
        card = 0
        while showing:
            if showing & 1:
                out.append(face_ids[card])
            showing >>= 1
            card += 1
        return out

    def _claim_ids(self, out: list[int]) -> None:
        """Append every legal claim, a group of same-shaped open routes at a time."""
        p = self._current
        hand = self._hands[p]
        ncol = self._ncol
        w_have = hand[ncol]
        trains = self._trains[p]
        group_open = self._group_open
        excluded = self._excluded[p]  # E-DOUBLE-1
        cat = self._cat
        for col, groups in enumerate(cat.colour_groups):
            cnt = hand[col]
            cap = cnt + w_have
            if cap > trains:
                cap = trains
            for gi, length in groups:  # sorted by length
                if length > cap:
                    break
                bases = group_open[gi]
                if not bases:
                    continue
                if excluded:
                    bases = [b for b in bases if b not in excluded]
                lo = length - cnt if cnt < length else 0
                hi = w_have if w_have < length else length
                if lo == hi:
                    out.extend(map(lo.__add__, bases))
                else:
                    out.extend([b + o for b in bases for o in range(lo, hi + 1)])
        held = [(cnt, ci) for ci, cnt in enumerate(hand) if cnt and ci < ncol]
        held.sort(reverse=True)
        cap = (held[0][0] if held else 0) + w_have
        if cap > trains:
            cap = trains
        for gi, length, ferry in cat.gray_groups:  # sorted by length
            if length > cap:
                break
            bases = group_open[gi]
            if not bases or w_have < ferry:  # E-FERRY-1
                continue
            # Relative ids: colour `ci` with `w` wilds is `ci * length + w`; all wild is `ncol * length`.
            hi = w_have if w_have < length - 1 else length - 1
            need = length - hi  # the fewest colour cards that can pay this route
            offsets: list[int] = []
            for cnt, ci in held:
                if cnt < need:
                    break
                lo = length - cnt
                if lo < ferry:
                    lo = ferry
                if lo <= hi:
                    offsets.extend(range(ci * length + lo, ci * length + hi + 1))
            if w_have >= length:
                offsets.append(ncol * length)
            if not offsets:
                continue
            if excluded:
                bases = [b for b in bases if b not in excluded]
            if len(offsets) == 1:
                out.extend(map(offsets[0].__add__, bases))
            else:
                out.extend([b + o for b in bases for o in offsets])

    def _station_ids(self, out: list[int]) -> None:
        p = self._current
        rules = self._map.rules
        built = rules.stations - self._stations_left[p]
        cost = rules.station_costs[built]
        hand = self._hands[p]
        ncol = self._ncol
        w_have = hand[ncol]
        offsets: list[int] = []
        hi = w_have if w_have < cost - 1 else cost - 1
        for ci in range(ncol):
            cnt = hand[ci]
            if cnt:
                lo = cost - cnt if cnt < cost else 0
                offsets.extend(range(ci * cost + lo, ci * cost + hi + 1))
        if w_have >= cost:
            offsets.append(ncol * cost)
        free = self._free_station_bases[built]
        for offset in offsets:
            out.extend(map(offset.__add__, free))

    # ------------------------------------------------------------------ legality with reasons (`ttr.engine.legality`)

    def is_legal_id(self, aid: int) -> bool:
        """Whether action id `aid` is legal now (cheap: no list is built)."""
        return legality.why_illegal(self, aid) is None

    def why_illegal(self, aid: int) -> tuple[str, str] | None:
        """None if `aid` is legal now, else (rule ID, what is wrong), the ID in the map's rulebook part."""
        return legality.why_illegal(self, aid)

    # ------------------------------------------------------------------ apply

    def apply_id(self, aid: int) -> None:
        """Play action id `aid`; `IllegalActionError` (naming the rule) and no change if it is not legal."""
        why = legality.why_illegal(self, aid)
        if why is not None:
            raise IllegalActionError(why[1], why[0])
        self.apply_unchecked(aid)

    def apply_unchecked(self, aid: int) -> None:
        """Play a legal action id without checking it (for callers that took it from `legal_ids`)."""
        cat = self._cat
        kind = cat.kind[aid]
        p = self._current
        hand = self._hands[p]
        detail: tuple[int, ...] = ()
        if kind == A.DRAW_DECK:
            card = self._take_card()
            hand[card] += 1
            detail = (card,)
            self._history.append((p, aid, detail))
            self._after_draw(False)
            return
        if kind == A.DRAW_FACE_UP:
            card = cat.b[aid]
            face = self._face_up
            slot = face.index(card)
            hand[card] += 1
            face[slot] = self._take_card()  # E-DRAW-2
            self._check_face_up()
            self._history.append((p, aid, tuple(face)))  # the row after it, refill (and any reset) included
            self._after_draw(card == self._wild)
            return
        if kind == A.CLAIM:
            r, colour, w = cat.a[aid], cat.b[aid], cat.c[aid]
            length = self._route_len[r]
            colour_count = length - w
            wild = self._wild
            if colour_count:
                hand[colour] -= colour_count
            hand[wild] -= w
            if self._map.routes[r].tunnel and self._map.rules.tunnel_reveal:
                self._start_tunnel(p, aid, r, colour, w)
                return
            discard = self._discard
            if colour_count:
                discard.extend([colour] * colour_count)
            if w:
                discard.extend([wild] * w)
            self._claim(p, r)
            self._history.append((p, aid, detail))
            self._end_turn()
            return
        if kind == A.PAY_TUNNEL:
            x, w = cat.a[aid], cat.c[aid]
            colour = self._t_color
            wild = self._wild
            hand[wild] -= w
            if x - w:
                hand[colour] -= x - w
            r = self._t_route
            claim_colour_count = self._route_len[r] - self._t_wild
            discard = self._discard
            if colour != wild:
                discard.extend([colour] * (claim_colour_count + x - w))
            discard.extend([wild] * (self._t_wild + w))
            discard.extend(self._t_revealed)  # E-TUN-5
            self._claim(p, r)
            self._clear_tunnel()
            self._history.append((p, aid, detail))
            self._end_turn()
            return
        if kind == A.ABANDON_TUNNEL:  # E-TUN-4: the played cards come back
            r = self._t_route
            colour = self._t_color
            claim_colour_count = self._route_len[r] - self._t_wild
            if colour != self._wild:
                hand[colour] += claim_colour_count
            hand[self._wild] += self._t_wild
            self._discard.extend(self._t_revealed)  # E-TUN-5
            self._clear_tunnel()
            self._history.append((p, aid, detail))
            self._end_turn()
            return
        if kind == A.BUILD_STATION:
            city, colour, w, cost = cat.a[aid], cat.b[aid], cat.c[aid], cat.d[aid]
            wild = self._wild
            if cost - w:
                hand[colour] -= cost - w
                self._discard.extend([colour] * (cost - w))
            if w:
                hand[wild] -= w
                self._discard.extend([wild] * w)
            self._station_owner[city] = p
            for k, bases in enumerate(self._free_station_bases):
                bases.remove(self._cat.station_base[city][k])
            self._stations_left[p] -= 1
            self._history.append((p, aid, detail))
            self._end_turn()
            return
        if kind == A.DRAW_TICKETS:
            k = self._map.rules.draw_tickets
            chance = self._chance
            if chance is not None:
                deck = self._ticket_deck
                for i in range(min(k, len(deck))):
                    j = chance.ticket(deck, i)
                    deck[i], deck[j] = deck[j], deck[i]
            self._offered = self._ticket_deck[:k]
            del self._ticket_deck[:k]
            self._phase = CHOOSE_TICKETS
            self._history.append((p, aid, detail))
            return
        if kind == A.KEEP_TICKETS:
            mask = cat.a[aid]
            offered = self._offered
            kept = tuple(t for i, t in enumerate(offered) if (mask >> i) & 1)
            returned = [t for i, t in enumerate(offered) if not (mask >> i) & 1]
            self._tickets[p].extend(kept)
            self._offered = []
            self._history.append((p, aid, kept + tuple(returned)))  # the kept ones first (as many as the mask)
            if self._phase == CHOOSE_SETUP:
                if self._map.rules.setup_returned == "bottom":  # N-SETUP-2; Europe: to the box (E-SETUP-5)
                    self._ticket_deck.extend(returned)
                if p + 1 < self._n:
                    self._current = p + 1
                    self._offered = self._setup_offers[p + 1][:]  # a copy: copies of the game share _setup_offers
                else:
                    self._current = 0
                    self._phase = MAIN
                return
            self._ticket_deck.extend(returned)  # E-TICK-2
            self._end_turn()
            return
        if kind == A.PASS:  # E-DRAW-8
            self._history.append((p, aid, detail))
            self._passes += 1
            if self._passes >= self._n:
                self._phase = OVER  # every seat passed in a row: nothing can change any more
                return
            self._end_turn(passed=True)
            return
        raise InvalidActionError(f"unknown action id {aid}")

    def _after_draw(self, took_face_up_wild: bool) -> None:
        if self._phase == MAIN:
            if took_face_up_wild:  # E-DRAW-3
                self._end_turn()
                return
            self._phase = SECOND_CARD
            if not (self._deck or self._discard) and all(c < 0 or c == self._wild for c in self._face_up):
                self._end_turn()  # E-DRAW-8: no second card can be drawn
            return
        self._end_turn()

    def _start_tunnel(self, p: int, aid: int, r: int, colour: int, w: int) -> None:
        """E-TUN-1..3: the cards wait aside; reveal the top cards and count the extra ones due."""
        revealed = []
        for _ in range(self._map.rules.tunnel_reveal):
            card = self._take_card()  # E-TUN-6
            if card < 0:
                break
            revealed.append(card)
        wild = self._wild
        extra = revealed.count(wild) if colour == wild else sum(1 for c in revealed if c in (colour, wild))
        self._history.append((p, aid, tuple(revealed)))
        if extra == 0:
            discard = self._discard
            colour_count = self._route_len[r] - w
            if colour_count:
                discard.extend([colour] * colour_count)
            if w:
                discard.extend([wild] * w)
            discard.extend(revealed)
            self._claim(p, r)
            self._end_turn()
            return
        self._t_route = r
        self._t_color = colour
        self._t_wild = w
        self._t_extra = extra
        self._t_revealed = revealed
        self._phase = TUNNEL

    def _clear_tunnel(self) -> None:
        self._t_route = -1
        self._t_color = -1
        self._t_wild = 0
        self._t_extra = 0
        self._t_revealed = []

    def _claim(self, p: int, r: int) -> None:
        """Place the trains and score the route (E-CLAIM-3); close its twin where the rules say so."""
        self._owner[r] = p
        self._close(r)
        twin = self._route_twin[r]
        if twin >= 0:
            if self._small_game:  # E-DOUBLE-2
                self._close(twin)
            else:  # E-DOUBLE-1
                self._excluded[p].add(self._cat.claim_base[twin])
        self._trains[p] -= self._route_len[r]
        self._scores[p] += self._route_pts[r]

    def _rebuild_indexes(self) -> None:
        """Recompute `blocked`, `group_open`, `excluded` and `free_station_bases` (per station number, the
        first id of that station's card sets in each city still free) from `owner` and `station_owner`
        (at setup, and for code that builds a state field by field, e.g. `ttr.engine.sample`)."""
        cat = self._cat
        blocked = [o >= 0 for o in self._owner]
        excluded: list[set[int]] = [set() for _ in range(self._n)]
        for r, o in enumerate(self._owner):
            twin = self._route_twin[r]
            if o >= 0 and twin >= 0:
                if self._small_game:  # E-DOUBLE-2
                    blocked[twin] = True
                else:  # E-DOUBLE-1
                    excluded[o].add(cat.claim_base[twin])
        self._blocked = blocked
        self._excluded = excluded
        self._group_open = [[cat.claim_base[r] for r in group if not blocked[r]] for group in cat.group_routes]
        free = [city for city, o in enumerate(self._station_owner) if o < 0]
        self._free_station_bases = [[cat.station_base[city][k] for city in free]
                                   for k in range(self._map.rules.stations)]

    def _close(self, r: int) -> None:
        if not self._blocked[r]:
            self._blocked[r] = True
            self._group_open[self._cat.route_group[r]].remove(self._cat.claim_base[r])

    def _end_turn(self, passed: bool = False) -> None:
        """E-END-1: the final round starts when a seat ends its turn with few pieces left."""
        if not passed:
            self._passes = 0
        if -1 in self._face_up and (self._deck or self._discard):
            self._refill_face_up()
        p = self._current
        if self._final_turns < 0:
            if self._trains[p] <= self._map.rules.end_trigger_pieces:
                self._final_turns = self._n
        else:
            self._final_turns -= 1
            if self._final_turns == 0:
                self._phase = OVER
                return
        self._current = p + 1 if p + 1 < self._n else 0
        self._phase = MAIN

    # ------------------------------------------------------------------ public helpers

    def open_to(self, seat: int) -> list[bool]:
        """Per route, whether `seat` could claim it as far as the board goes: no one holds it and the
        double-route rule leaves it open to that seat (E-DOUBLE-1, -2). A fresh list."""
        excluded = self._excluded[seat]
        base = self._cat.claim_base
        return [not closed and base[r] not in excluded for r, closed in enumerate(self._blocked)]

    @property
    def open_routes(self) -> list[int]:
        """Routes no one holds and the double-route rule does not close (for everyone)."""
        return [r for r, closed in enumerate(self._blocked) if not closed]

    @property
    def final_round(self) -> bool:
        """Whether the final round has begun (E-END-1): a seat ended its turn with few pieces left."""
        return self._final_turns >= 0

    @property
    def turns_left(self) -> int | None:
        """The turns left once the final round has begun, this one included (None before, and once over)."""
        return self._final_turns if self._final_turns > 0 and self._phase != OVER else None

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._phase == OVER

    @property
    def phase_name(self) -> str:
        """The phase as the record format names it."""
        return PHASE_NAMES[self._phase]

    def legal_actions(self) -> list[Action]:
        """Every legal action as an `Action` (for people and tools; bots in a hurry use `legal_ids`)."""
        return [self.decode(i) for i in self.legal_ids()]

    def apply(self, action: Action) -> None:
        """Play an `Action`; a malformed or illegal one raises and changes nothing."""
        self.apply_id(self.encode(action))

    def is_legal(self, action: Action) -> bool:
        """Whether `action` is legal now."""
        try:
            aid = self.encode(action)
        except (IllegalActionError, InvalidActionError):
            return False
        return self.why_illegal(aid) is None

    def copy(self) -> Game:
        """An independent copy for search (flat lists copied, the map and catalogue shared)."""
        g = Game()
        g._map = self._map
        g._cat = self._cat
        g._players = self._players
        g._n = self._n
        g._wild = self._wild
        g._ncol = self._ncol
        g._phase = self._phase
        g._current = self._current
        g._final_turns = self._final_turns
        g._passes = self._passes
        g._t_route = self._t_route
        g._t_color = self._t_color
        g._t_wild = self._t_wild
        g._t_extra = self._t_extra
        g._initial_train = self._initial_train
        g._initial_tickets = self._initial_tickets
        g._initial_long = self._initial_long
        g._forced_reshuffles = self._forced_reshuffles
        g._seed = self._seed
        g._route_len = self._route_len
        g._route_col = self._route_col
        g._route_ferry = self._route_ferry
        g._route_twin = self._route_twin
        g._route_pts = self._route_pts
        g._small_game = self._small_game
        g._hands = [h[:] for h in self._hands]
        g._deck = self._deck[:]
        g._discard = self._discard[:]
        g._face_up = self._face_up[:]
        g._owner = self._owner[:]
        g._blocked = self._blocked[:]
        g._group_open = [bases[:] for bases in self._group_open]
        g._excluded = [set(e) for e in self._excluded]
        g._free_station_bases = [bases[:] for bases in self._free_station_bases]
        g._trains = self._trains[:]
        g._stations_left = self._stations_left[:]
        g._station_owner = self._station_owner[:]
        g._scores = self._scores[:]
        g._tickets = [t[:] for t in self._tickets]
        g._ticket_deck = self._ticket_deck[:]
        g._offered = self._offered[:]
        g._t_revealed = self._t_revealed[:]
        g._history = self._history[:]
        known = self._view_cache.get("known")  # the known cards go on from here (the log is worked out again)
        g._view_cache = {} if known is None else {"known": known.copy()}
        g._reshuffles = [r[:] for r in self._reshuffles]
        g._rng = self._rng.copy()
        g._setup_offers = self._setup_offers
        g._chance = self._chance
        return g

    # ------------------------------------------------------------------ Action <-> id (`ttr.engine.encoding`)

    def decode(self, aid: int) -> Action:
        """The `Action` of id `aid` in the current state (ticket choices refer to the tickets on offer)."""
        return encoding.decode(self, aid)

    def encode(self, action: Action) -> int:
        """The catalogue id of `action` in the current state.

        Raises `InvalidActionError` for names the map does not know and `IllegalActionError` for a
        card set the rules never allow for that route, station or tunnel (mixed colours, wrong count).
        """
        return encoding.encode(self, action)



def _as_list(value: object, where: str) -> list[object]:
    if not isinstance(value, list):
        raise RecordError(f"{where}: expected a list")
    return value


class StartingOrders(NamedTuple):
    """The deck orders a record keeps (top first), hidden while the game is played."""

    train: tuple[int, ...]  # the train deck as dealt from
    tickets: tuple[int, ...]  # the regular tickets
    long_tickets: tuple[int, ...]  # the long tickets (empty on a map without them)
    reshuffles: tuple[tuple[int, ...], ...]  # each reshuffled deck, in the order it was made


def starting_orders(game: Game) -> StartingOrders:
    """The deck orders of `game` for its record (`ttr.records`): hidden information, never for a seat."""
    return StartingOrders(tuple(game._initial_train), tuple(game._initial_tickets), tuple(game._initial_long),
                          tuple(tuple(order) for order in game._reshuffles))


def board_of(game: Game) -> list[BoardPlayer]:
    """The board at this moment, per seat: routes, station cities and tickets held."""
    routes: list[list[int]] = [[] for _ in range(game._n)]
    for r, owner in enumerate(game._owner):
        if owner >= 0:
            routes[owner].append(r)
    stations: list[list[int]] = [[] for _ in range(game._n)]
    for city, owner in enumerate(game._station_owner):
        if owner >= 0:
            stations[owner].append(city)
    return [BoardPlayer(game._players[p], tuple(routes[p]), tuple(stations[p]), tuple(game._tickets[p]))
            for p in range(game._n)]


def final_score(game: Game) -> FinalScore:
    """The final breakdown (E-SCORE-1); on an unfinished game, what it would be if it ended now."""
    return score_board(game._map, board_of(game), game._owner)
