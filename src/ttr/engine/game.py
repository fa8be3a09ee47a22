"""The game state and its rules: setup, legal actions, apply, copy.

The state is a handful of flat lists of small ints (cards, routes, cities and tickets are indexes
into the map). Hot-path methods (`legal_ids`, `apply_id`) build no objects beyond the id list;
`Action` values are made only on request (`legal_actions`, `decode`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
    """

    map: GameMap
    cat: Catalogue
    players: list[str]
    hands: list[list[int]]
    deck: list[int]
    discard: list[int]
    face_up: list[int]
    owner: list[int]
    blocked: list[bool]
    group_open: list[list[int]]
    excluded: list[set[int]]
    free_station_bases: list[list[int]]
    trains: list[int]
    stations_left: list[int]
    station_owner: list[int]
    scores: list[int]
    tickets: list[list[int]]
    ticket_deck: list[int]
    offered: list[int]
    t_revealed: list[int]
    history: list[tuple[int, int, tuple[int, ...]]]
    initial_train: list[int]
    initial_tickets: list[int]
    initial_long: list[int]
    reshuffles: list[list[int]]
    forced_reshuffles: list[list[int]] | None
    _setup_offers: list[list[int]]
    n: int
    wild: int
    ncol: int
    phase: int
    current: int
    final_turns: int
    passes: int
    rng: Rng
    t_route: int
    t_color: int
    t_wild: int
    t_extra: int
    seed: int
    _route_len: list[int]
    _route_col: list[int]
    _route_ferry: list[int]
    _route_twin: list[int]
    _route_pts: list[int]
    small_game: bool
    view_cache: dict[str, Any]  # what `ttr.engine.views` worked out once (the public log so far)
    _chance: ChanceSource | None  # where draws come from; None: the deck's own order (`ttr.engine.chance`)

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
        g.map = game_map
        g.cat = catalogue_for(game_map)
        g.players = list(players)
        g.n = n = len(players)
        g.ncol = len(game_map.colors)
        g.wild = g.ncol
        g.seed = seed
        g.rng = Rng(seed)
        g._chance = chance
        routes = game_map.routes
        g._route_len = [r.length for r in routes]
        g._route_col = [-1 if r.color == "gray" else game_map.colors.index(r.color) for r in routes]
        g._route_ferry = [r.ferry_locomotives for r in routes]
        g._route_twin = [r.twin for r in routes]
        g._route_pts = [rules.route_points.get(r.length, 0) for r in routes]
        g.small_game = n <= rules.double_routes_single_use_max_players

        train, regular, long_ = g._starting_orders(decks)
        g.initial_train = train[:]
        g.initial_tickets = regular[:]
        g.initial_long = long_[:]
        g.reshuffles = []
        g.forced_reshuffles = None
        if reshuffles is not None:
            g.forced_reshuffles = [[g._card_of(c, "reshuffles") for c in order] for order in reshuffles]

        g.deck = train[::-1]  # top of the deck is the end of the list
        g.discard = []
        g.hands = [[0] * (g.ncol + 1) for _ in range(n)]
        for p in range(n):  # E-SETUP-1
            for _ in range(rules.starting_hand):
                g.hands[p][g._take_card()] += 1
        g.face_up = [-1] * rules.face_up
        for i in range(rules.face_up):
            g.face_up[i] = g._take_card()
        g._check_face_up()  # E-SETUP-2

        g.tickets = [[] for _ in range(n)]
        g.offered = []
        if chance is not None:  # the source picks each seat's offer, its long tickets first
            g._choose_setup_tickets(chance, long_, regular)
        setup_offers: list[list[int]] = [[] for _ in range(n)]
        for p in range(n):  # E-SETUP-3: the rest of the long tickets leave the game
            setup_offers[p].extend(long_[p * rules.setup_long_tickets:(p + 1) * rules.setup_long_tickets])
        pos = 0
        for p in range(n):  # E-SETUP-4
            setup_offers[p].extend(regular[pos:pos + rules.setup_regular_tickets])
            pos += rules.setup_regular_tickets
        g.ticket_deck = regular[pos:]
        g._setup_offers = setup_offers

        g.owner = [-1] * len(routes)
        g.trains = [rules.pieces] * n
        g.stations_left = [rules.stations] * n
        g.station_owner = [-1] * len(game_map.cities)
        g._rebuild_indexes()  # blocked, group_open, excluded, free_station_bases
        g.scores = [0] * n
        g.final_turns = -1
        g.passes = 0
        g.t_route = -1
        g.t_color = -1
        g.t_wild = 0
        g.t_extra = 0
        g.t_revealed = []
        g.history = []
        g.view_cache = {}
        g.current = 0
        g.phase = CHOOSE_SETUP
        g.offered = setup_offers[0][:]
        return g

    def _choose_setup_tickets(self, chance: ChanceSource, long_: list[int], regular: list[int]) -> None:
        """Reorder the shuffled long and regular tickets so that the setup offers hold what `chance` picks."""
        rules = self.map.rules
        for p in range(self.n):
            for pool, count in ((long_, rules.setup_long_tickets), (regular, rules.setup_regular_tickets)):
                for pos in range(p * count, (p + 1) * count):
                    j = chance.ticket(pool, pos)
                    pool[pos], pool[j] = pool[j], pool[pos]
        self.initial_tickets = regular[:]
        self.initial_long = long_[:]

    def set_chance(self, chance: ChanceSource | None) -> None:
        """Draw every later card and ticket through `chance` (None: the deck's own order again)."""
        self._chance = chance

    def _card_of(self, name: object, where: str) -> int:
        if not isinstance(name, str):
            raise RecordError(f"{where}: a card is a name, got {name!r}")
        try:
            return self.map.card(name)
        except MapError as exc:
            raise RecordError(f"{where}: {exc}") from None

    def _starting_orders(self, decks: dict[str, list[str]] | None) -> tuple[list[int], list[int], list[int]]:
        """The train deck, regular tickets and long tickets, top first (E-SETUP-1, -3, -4)."""
        m = self.map
        decks = decks or {}
        if not isinstance(decks, dict):
            raise RecordError("decks: expected an object with 'train', 'tickets', 'long_tickets'")
        full_train = [c for c in range(self.ncol) for _ in range(m.per_color)] + [self.wild] * m.wild_count
        long_ids = [t.index for t in m.tickets if t.long]
        regular_ids = [t.index for t in m.tickets if not t.long]
        if "train" in decks:
            train = [self._card_of(c, "decks.train") for c in _as_list(decks["train"], "decks.train")]
            if sorted(train) != sorted(full_train):
                raise RecordError(f"decks.train must hold exactly the map's {len(full_train)} cards "
                                  f"({m.per_color} of each colour and {m.wild_count} {m.wild_name})")
        else:
            train = full_train
            self.rng.shuffle(train)
        if "long_tickets" in decks:
            long_ = self._tickets_of(decks["long_tickets"], "decks.long_tickets")
            if sorted(long_) != sorted(long_ids):
                raise RecordError("decks.long_tickets must hold exactly the map's long tickets")
        else:
            long_ = long_ids
            self.rng.shuffle(long_)
        if "tickets" in decks:
            regular = self._tickets_of(decks["tickets"], "decks.tickets")
            if sorted(regular) != sorted(regular_ids):
                raise RecordError("decks.tickets must hold exactly the map's regular tickets")
        else:
            regular = regular_ids
            self.rng.shuffle(regular)
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
                out.append(self.map.ticket(name).index)
            except MapError as exc:
                raise RecordError(f"{where}: {exc}") from None
        return out

    # ------------------------------------------------------------------ cards

    def _take_card(self) -> int:
        """The top card of the deck, reshuffling the discards first if the deck is empty (E-DRAW-7); -1 if none."""
        deck = self.deck
        if not deck:
            if not self.discard:
                return -1
            self._reshuffle()
        chance = self._chance
        if chance is not None:
            return deck.pop(chance.card(deck))
        return deck.pop()

    def _reshuffle(self) -> None:
        forced = self.forced_reshuffles
        if forced is not None and len(self.reshuffles) < len(forced):
            order = forced[len(self.reshuffles)]
            if sorted(order) != sorted(self.discard):
                raise RecordError(
                    f"reshuffles[{len(self.reshuffles)}] must hold exactly the {len(self.discard)} cards of the "
                    "discard pile at that moment"
                )
            new = order[:]
        else:
            new = self.discard[:]
            self.rng.shuffle(new)
        self.reshuffles.append(new)
        self.discard.clear()
        self.deck[:] = new[::-1]

    def _check_face_up(self) -> None:
        """E-DRAW-6: 3 face-up wilds: discard the row and turn up a new one, at most `face_up_max_resets` times."""
        rules = self.map.rules
        face = self.face_up
        wild = self.wild
        resets = 0
        while face.count(wild) >= rules.face_up_wild_limit and resets < rules.face_up_max_resets:
            self.discard.extend(c for c in face if c >= 0)
            for i in range(len(face)):
                face[i] = -1
            for i in range(len(face)):
                face[i] = self._take_card()
            resets += 1

    def _refill_face_up(self) -> None:
        """Fill slots left empty while the deck and discards were both empty, now that cards are back."""
        face = self.face_up
        for i, card in enumerate(face):
            if card < 0:
                face[i] = self._take_card()
        self._check_face_up()

    def can_draw_blind(self) -> bool:
        """Whether a card can be drawn blind: the deck or the discard pile holds one (E-DRAW-8)."""
        return bool(self.deck) or bool(self.discard)

    # ------------------------------------------------------------------ legal actions

    def legal_ids(self) -> list[int]:
        """Every legal action id for the seat to move (empty when the game is over)."""
        phase = self.phase
        cat = self.cat
        if phase == MAIN:
            out = self._draw_ids(first=True)
            if self.ticket_deck:
                out.append(cat.draw_tickets)
            self._claim_ids(out)
            if self.stations_left[self.current]:
                self._station_ids(out)
            if not out:
                out.append(cat.pass_)
            out.sort()
            return out
        if phase == SECOND_CARD:
            return self._draw_ids(first=False)
        if phase in (CHOOSE_SETUP, CHOOSE_TICKETS):
            k = len(self.offered)
            need = self.keep_min()
            base = cat.keep_base
            return [base + mask for mask in range(1, 1 << k) if mask.bit_count() >= need]
        if phase == TUNNEL:
            out = []
            hand = self.hands[self.current]
            x = self.t_extra
            w_have = hand[self.wild]
            if self.t_color == self.wild:
                if w_have >= x:
                    out.append(cat.pay[(x, x)])
            else:
                lo = x - hand[self.t_color]
                for w in range(lo if lo > 0 else 0, (w_have if w_have < x else x) + 1):
                    out.append(cat.pay[(x, w)])
            out.append(cat.abandon)
            return out
        return []

    def keep_min(self) -> int:
        """How many of the tickets on offer must be kept (E-SETUP-5, E-TICK-1)."""
        rules = self.map.rules
        need = rules.setup_keep_min if self.phase == CHOOSE_SETUP else rules.draw_keep_min
        return min(need, len(self.offered))

    def _draw_ids(self, first: bool) -> list[int]:
        """Draw from the deck, then each card type showing face up (by card index); no wild as a second card."""
        out = [self.cat.draw_deck] if (self.deck or self.discard) else []
        showing = 0
        for c in self.face_up:
            if c >= 0:
                showing |= 1 << c
        if not first:
            showing &= ~(1 << self.wild)  # E-DRAW-4
        face_ids = self.cat.draw_face_up
        card = 0
        while showing:
            if showing & 1:
                out.append(face_ids[card])
            showing >>= 1
            card += 1
        return out

    def _claim_ids(self, out: list[int]) -> None:
        """Append every legal claim, a group of same-shaped open routes at a time."""
        p = self.current
        hand = self.hands[p]
        ncol = self.ncol
        w_have = hand[ncol]
        trains = self.trains[p]
        group_open = self.group_open
        excluded = self.excluded[p]  # E-DOUBLE-1
        cat = self.cat
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
        p = self.current
        rules = self.map.rules
        built = rules.stations - self.stations_left[p]
        cost = rules.station_costs[built]
        hand = self.hands[p]
        ncol = self.ncol
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
        free = self.free_station_bases[built]
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
        cat = self.cat
        kind = cat.kind[aid]
        p = self.current
        hand = self.hands[p]
        detail: tuple[int, ...] = ()
        if kind == A.DRAW_DECK:
            card = self._take_card()
            hand[card] += 1
            detail = (card,)
            self.history.append((p, aid, detail))
            self._after_draw(False)
            return
        if kind == A.DRAW_FACE_UP:
            card = cat.b[aid]
            face = self.face_up
            slot = face.index(card)
            hand[card] += 1
            face[slot] = self._take_card()  # E-DRAW-2
            self._check_face_up()
            self.history.append((p, aid, tuple(face)))  # the row after it, refill (and any reset) included
            self._after_draw(card == self.wild)
            return
        if kind == A.CLAIM:
            r, colour, w = cat.a[aid], cat.b[aid], cat.c[aid]
            length = self._route_len[r]
            colour_count = length - w
            wild = self.wild
            if colour_count:
                hand[colour] -= colour_count
            hand[wild] -= w
            if self.map.routes[r].tunnel and self.map.rules.tunnel_reveal:
                self._start_tunnel(p, aid, r, colour, w)
                return
            discard = self.discard
            if colour_count:
                discard.extend([colour] * colour_count)
            if w:
                discard.extend([wild] * w)
            self._claim(p, r)
            self.history.append((p, aid, detail))
            self._end_turn()
            return
        if kind == A.PAY_TUNNEL:
            x, w = cat.a[aid], cat.c[aid]
            colour = self.t_color
            wild = self.wild
            hand[wild] -= w
            if x - w:
                hand[colour] -= x - w
            r = self.t_route
            claim_colour_count = self._route_len[r] - self.t_wild
            discard = self.discard
            if colour != wild:
                discard.extend([colour] * (claim_colour_count + x - w))
            discard.extend([wild] * (self.t_wild + w))
            discard.extend(self.t_revealed)  # E-TUN-5
            self._claim(p, r)
            self._clear_tunnel()
            self.history.append((p, aid, detail))
            self._end_turn()
            return
        if kind == A.ABANDON_TUNNEL:  # E-TUN-4: the played cards come back
            r = self.t_route
            colour = self.t_color
            claim_colour_count = self._route_len[r] - self.t_wild
            if colour != self.wild:
                hand[colour] += claim_colour_count
            hand[self.wild] += self.t_wild
            self.discard.extend(self.t_revealed)  # E-TUN-5
            self._clear_tunnel()
            self.history.append((p, aid, detail))
            self._end_turn()
            return
        if kind == A.BUILD_STATION:
            city, colour, w, cost = cat.a[aid], cat.b[aid], cat.c[aid], cat.d[aid]
            wild = self.wild
            if cost - w:
                hand[colour] -= cost - w
                self.discard.extend([colour] * (cost - w))
            if w:
                hand[wild] -= w
                self.discard.extend([wild] * w)
            self.station_owner[city] = p
            for k, bases in enumerate(self.free_station_bases):
                bases.remove(self.cat.station_base[city][k])
            self.stations_left[p] -= 1
            self.history.append((p, aid, detail))
            self._end_turn()
            return
        if kind == A.DRAW_TICKETS:
            k = self.map.rules.draw_tickets
            chance = self._chance
            if chance is not None:
                deck = self.ticket_deck
                for i in range(min(k, len(deck))):
                    j = chance.ticket(deck, i)
                    deck[i], deck[j] = deck[j], deck[i]
            self.offered = self.ticket_deck[:k]
            del self.ticket_deck[:k]
            self.phase = CHOOSE_TICKETS
            self.history.append((p, aid, detail))
            return
        if kind == A.KEEP_TICKETS:
            mask = cat.a[aid]
            offered = self.offered
            kept = tuple(t for i, t in enumerate(offered) if (mask >> i) & 1)
            returned = [t for i, t in enumerate(offered) if not (mask >> i) & 1]
            self.tickets[p].extend(kept)
            self.offered = []
            self.history.append((p, aid, kept + tuple(returned)))  # the kept ones first (as many as the mask)
            if self.phase == CHOOSE_SETUP:
                if self.map.rules.setup_returned == "bottom":  # N-SETUP-2; Europe: to the box (E-SETUP-5)
                    self.ticket_deck.extend(returned)
                if p + 1 < self.n:
                    self.current = p + 1
                    self.offered = self._setup_offers[p + 1][:]  # a copy: copies of the game share _setup_offers
                else:
                    self.current = 0
                    self.phase = MAIN
                return
            self.ticket_deck.extend(returned)  # E-TICK-2
            self._end_turn()
            return
        if kind == A.PASS:  # E-DRAW-8
            self.history.append((p, aid, detail))
            self.passes += 1
            if self.passes >= self.n:
                self.phase = OVER  # every seat passed in a row: nothing can change any more
                return
            self._end_turn(passed=True)
            return
        raise InvalidActionError(f"unknown action id {aid}")

    def _after_draw(self, took_face_up_wild: bool) -> None:
        if self.phase == MAIN:
            if took_face_up_wild:  # E-DRAW-3
                self._end_turn()
                return
            self.phase = SECOND_CARD
            if not (self.deck or self.discard) and all(c < 0 or c == self.wild for c in self.face_up):
                self._end_turn()  # E-DRAW-8: no second card can be drawn
            return
        self._end_turn()

    def _start_tunnel(self, p: int, aid: int, r: int, colour: int, w: int) -> None:
        """E-TUN-1..3: the cards wait aside; reveal the top cards and count the extra ones due."""
        revealed = []
        for _ in range(self.map.rules.tunnel_reveal):
            card = self._take_card()  # E-TUN-6
            if card < 0:
                break
            revealed.append(card)
        wild = self.wild
        extra = revealed.count(wild) if colour == wild else sum(1 for c in revealed if c in (colour, wild))
        self.history.append((p, aid, tuple(revealed)))
        if extra == 0:
            discard = self.discard
            colour_count = self._route_len[r] - w
            if colour_count:
                discard.extend([colour] * colour_count)
            if w:
                discard.extend([wild] * w)
            discard.extend(revealed)
            self._claim(p, r)
            self._end_turn()
            return
        self.t_route = r
        self.t_color = colour
        self.t_wild = w
        self.t_extra = extra
        self.t_revealed = revealed
        self.phase = TUNNEL

    def _clear_tunnel(self) -> None:
        self.t_route = -1
        self.t_color = -1
        self.t_wild = 0
        self.t_extra = 0
        self.t_revealed = []

    def _claim(self, p: int, r: int) -> None:
        """Place the trains and score the route (E-CLAIM-3); close its twin where the rules say so."""
        self.owner[r] = p
        self._close(r)
        twin = self._route_twin[r]
        if twin >= 0:
            if self.small_game:  # E-DOUBLE-2
                self._close(twin)
            else:  # E-DOUBLE-1
                self.excluded[p].add(self.cat.claim_base[twin])
        self.trains[p] -= self._route_len[r]
        self.scores[p] += self._route_pts[r]

    def _rebuild_indexes(self) -> None:
        """Recompute `blocked`, `group_open`, `excluded` and `free_station_bases` (per station number, the
        first id of that station's card sets in each city still free) from `owner` and `station_owner`
        (at setup, and for code that builds a state field by field, e.g. `ttr.engine.sample`)."""
        cat = self.cat
        blocked = [o >= 0 for o in self.owner]
        excluded: list[set[int]] = [set() for _ in range(self.n)]
        for r, o in enumerate(self.owner):
            twin = self._route_twin[r]
            if o >= 0 and twin >= 0:
                if self.small_game:  # E-DOUBLE-2
                    blocked[twin] = True
                else:  # E-DOUBLE-1
                    excluded[o].add(cat.claim_base[twin])
        self.blocked = blocked
        self.excluded = excluded
        self.group_open = [[cat.claim_base[r] for r in group if not blocked[r]] for group in cat.group_routes]
        free = [city for city, o in enumerate(self.station_owner) if o < 0]
        self.free_station_bases = [[cat.station_base[city][k] for city in free]
                                   for k in range(self.map.rules.stations)]

    def _close(self, r: int) -> None:
        if not self.blocked[r]:
            self.blocked[r] = True
            self.group_open[self.cat.route_group[r]].remove(self.cat.claim_base[r])

    def _end_turn(self, passed: bool = False) -> None:
        """E-END-1: the final round starts when a seat ends its turn with few pieces left."""
        if not passed:
            self.passes = 0
        if -1 in self.face_up and (self.deck or self.discard):
            self._refill_face_up()
        p = self.current
        if self.final_turns < 0:
            if self.trains[p] <= self.map.rules.end_trigger_pieces:
                self.final_turns = self.n
        else:
            self.final_turns -= 1
            if self.final_turns == 0:
                self.phase = OVER
                return
        self.current = p + 1 if p + 1 < self.n else 0
        self.phase = MAIN

    # ------------------------------------------------------------------ public helpers

    @property
    def open_routes(self) -> list[int]:
        """Routes no one holds and the double-route rule does not close (for everyone)."""
        return [r for r, closed in enumerate(self.blocked) if not closed]

    @property
    def final_round(self) -> bool:
        """Whether the final round has begun (E-END-1): a seat ended its turn with few pieces left."""
        return self.final_turns >= 0

    @property
    def turns_left(self) -> int | None:
        """The turns left once the final round has begun, this one included (None before, and once over)."""
        return self.final_turns if self.final_turns > 0 and self.phase != OVER else None

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        """The phase as the record format names it."""
        return PHASE_NAMES[self.phase]

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
        g.map = self.map
        g.cat = self.cat
        g.players = self.players
        g.n = self.n
        g.wild = self.wild
        g.ncol = self.ncol
        g.phase = self.phase
        g.current = self.current
        g.final_turns = self.final_turns
        g.passes = self.passes
        g.t_route = self.t_route
        g.t_color = self.t_color
        g.t_wild = self.t_wild
        g.t_extra = self.t_extra
        g.initial_train = self.initial_train
        g.initial_tickets = self.initial_tickets
        g.initial_long = self.initial_long
        g.forced_reshuffles = self.forced_reshuffles
        g.seed = self.seed
        g._route_len = self._route_len
        g._route_col = self._route_col
        g._route_ferry = self._route_ferry
        g._route_twin = self._route_twin
        g._route_pts = self._route_pts
        g.small_game = self.small_game
        g.hands = [h[:] for h in self.hands]
        g.deck = self.deck[:]
        g.discard = self.discard[:]
        g.face_up = self.face_up[:]
        g.owner = self.owner[:]
        g.blocked = self.blocked[:]
        g.group_open = [bases[:] for bases in self.group_open]
        g.excluded = [set(e) for e in self.excluded]
        g.free_station_bases = [bases[:] for bases in self.free_station_bases]
        g.trains = self.trains[:]
        g.stations_left = self.stations_left[:]
        g.station_owner = self.station_owner[:]
        g.scores = self.scores[:]
        g.tickets = [t[:] for t in self.tickets]
        g.ticket_deck = self.ticket_deck[:]
        g.offered = self.offered[:]
        g.t_revealed = self.t_revealed[:]
        g.history = self.history[:]
        g.view_cache = {}
        g.reshuffles = [r[:] for r in self.reshuffles]
        g.rng = self.rng.copy()
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


def board_of(game: Game) -> list[BoardPlayer]:
    """The board at this moment, per seat: routes, station cities and tickets held."""
    routes: list[list[int]] = [[] for _ in range(game.n)]
    for r, owner in enumerate(game.owner):
        if owner >= 0:
            routes[owner].append(r)
    stations: list[list[int]] = [[] for _ in range(game.n)]
    for city, owner in enumerate(game.station_owner):
        if owner >= 0:
            stations[owner].append(city)
    return [BoardPlayer(game.players[p], tuple(routes[p]), tuple(stations[p]), tuple(game.tickets[p]))
            for p in range(game.n)]


def final_score(game: Game) -> FinalScore:
    """The final breakdown (E-SCORE-1); on an unfinished game, what it would be if it ended now."""
    return score_board(game.map, board_of(game), game.owner)
