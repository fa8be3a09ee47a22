"""Actions: the public `Action` value and the fixed integer catalogue the engine works on.

Every action a seat can ever take on a map has a fixed integer id (the *catalogue*): one per draw,
one per card set of every route, one per tunnel payment, per station city and card set, per ticket
choice. The engine lists and applies ids (cheap ints, no objects on the hot path); `Action` is the
readable, hashable form used by records, the CLI, the web and bots. `Game.encode`/`Game.decode`
convert between them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ttr.errors import InvalidActionError
from ttr.maps import GameMap

# Action kinds (the `kind` table of a catalogue).
DRAW_DECK = 0
DRAW_FACE_UP = 1
DRAW_TICKETS = 2
KEEP_TICKETS = 3
CLAIM = 4
PAY_TUNNEL = 5
ABANDON_TUNNEL = 6
BUILD_STATION = 7
PASS = 8

# Kinds whose `Action` depends on the id alone (not on the tickets on offer or a tunnel's colour).
STATIC_KINDS = frozenset((DRAW_DECK, DRAW_FACE_UP, DRAW_TICKETS, CLAIM, ABANDON_TUNNEL, BUILD_STATION, PASS))

KIND_NAMES = ("draw_card", "draw_card", "draw_tickets", "keep_tickets", "claim_route", "pay_tunnel",
              "abandon_tunnel", "build_station", "pass")
ACTION_NAMES = ("draw_card", "claim_route", "pay_tunnel", "abandon_tunnel", "build_station", "draw_tickets",
                "keep_tickets", "pass")


@dataclass(frozen=True, slots=True)
class Action:
    """One step of a turn, as the record format writes it (without the acting seat).

    `cards` is a tuple of (card name, count) pairs sorted by name, so equal actions compare equal. An
    `Action` cannot be made malformed: an unknown kind, a field its kind does not take, a draw without its
    source, a claim without its route, cards not in that canonical form raise `InvalidActionError`.
    Whether it is legal (the names known to the map, the card count) is the game's to say.
    """

    kind: str
    source: str | None = None  # draw_card: "deck" or "face_up"
    card: str | None = None  # draw_card from face_up: the colour taken
    route: str | None = None  # claim_route
    city: str | None = None  # build_station
    cards: tuple[tuple[str, int], ...] = ()  # claim_route, pay_tunnel, build_station
    tickets: tuple[str, ...] = ()  # keep_tickets

    def __post_init__(self) -> None:
        """Refuse a malformed action (see the class)."""
        kind = self.kind
        if kind not in ACTION_NAMES:
            raise InvalidActionError(f"unknown action {kind!r} (known: {', '.join(ACTION_NAMES)})")
        takes = _FIELDS[kind]
        for name, value, empty in (("source", self.source, None), ("card", self.card, None),
                                   ("route", self.route, None), ("city", self.city, None),
                                   ("cards", self.cards, ()), ("tickets", self.tickets, ())):
            if name not in takes and value != empty:
                raise InvalidActionError(f"{kind} takes no {name!r}, got {value!r}")
        if kind == "draw_card":
            if self.source not in ("deck", "face_up"):
                raise InvalidActionError(f"draw_card 'from' must be 'deck' or 'face_up', got {self.source!r}")
            if (self.source == "face_up") != isinstance(self.card, str) or (
                    self.source == "deck" and self.card is not None):
                raise InvalidActionError("draw_card from face_up names its 'card' (the colour taken); from the "
                                         "deck it names none")
        for name in ("route", "city"):
            if name in takes and not isinstance(getattr(self, name), str):
                raise InvalidActionError(f"{kind} needs {name!r}: a name, got {getattr(self, name)!r}")
        if not isinstance(self.cards, tuple) or any(
                not isinstance(pair, tuple) or len(pair) != 2 or not isinstance(pair[0], str)
                or not isinstance(pair[1], int) or isinstance(pair[1], bool) or pair[1] < 1 for pair in self.cards):
            raise InvalidActionError(f"{kind} cards: (name, count >= 1) pairs (Action.make_cards), got {self.cards!r}")
        names = [pair[0] for pair in self.cards]
        if names != sorted(set(names)):
            raise InvalidActionError(f"{kind} cards: sorted by name, each once (Action.make_cards), got {self.cards!r}")
        if not isinstance(self.tickets, tuple) or not all(isinstance(t, str) for t in self.tickets):
            raise InvalidActionError(f"{kind} tickets: a tuple of ticket names, got {self.tickets!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by the constructor's arguments: the compiled build's frozen class cannot be rebuilt field by
        field (the server's bot processes receive the legal actions pickled)."""
        return (Action, (self.kind, self.source, self.card, self.route, self.city, self.cards, self.tickets))

    @staticmethod
    def make_cards(cards: dict[str, int]) -> tuple[tuple[str, int], ...]:
        """The canonical card tuple of a count object (zero counts dropped)."""
        return tuple(sorted((k, v) for k, v in cards.items() if v))

    @property
    def card_counts(self) -> dict[str, int]:
        """The cards as a count object."""
        return dict(self.cards)

    def to_json(self) -> dict[str, Any]:
        """The record form: `{"action": ..., ...}`."""
        out: dict[str, Any] = {"action": self.kind}
        if self.kind == "draw_card":
            out["from"] = self.source
            if self.source == "face_up":
                out["card"] = self.card
        elif self.kind == "claim_route":
            out["route"] = self.route
            out["cards"] = dict(self.cards)
        elif self.kind == "build_station":
            out["city"] = self.city
            out["cards"] = dict(self.cards)
        elif self.kind == "pay_tunnel":
            out["cards"] = dict(self.cards)
        elif self.kind == "keep_tickets":
            out["tickets"] = list(self.tickets)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Parse the record form; `InvalidActionError` names the field that is wrong."""
        if not isinstance(data, dict):
            raise InvalidActionError(f"an action is a JSON object, got {type(data).__name__}")
        kind = data.get("action")
        if kind not in ACTION_NAMES:
            raise InvalidActionError(f"unknown action {kind!r} (known: {', '.join(ACTION_NAMES)})")
        if kind == "draw_card":
            source = data.get("from")
            if source == "deck":
                return cls("draw_card", source="deck")
            if source == "face_up":
                card = data.get("card")
                if not isinstance(card, str):
                    raise InvalidActionError("draw_card from face_up needs 'card': the colour taken")
                return cls("draw_card", source="face_up", card=card)
            raise InvalidActionError(f"draw_card 'from' must be 'deck' or 'face_up', got {source!r}")
        if kind == "claim_route":
            route = data.get("route")
            if not isinstance(route, str):
                raise InvalidActionError("claim_route needs 'route': a route name such as 'Berlin-Wien'")
            return cls("claim_route", route=route, cards=_parse_cards(data.get("cards"), kind))
        if kind == "build_station":
            city = data.get("city")
            if not isinstance(city, str):
                raise InvalidActionError("build_station needs 'city': a city name")
            return cls("build_station", city=city, cards=_parse_cards(data.get("cards"), kind))
        if kind == "pay_tunnel":
            return cls("pay_tunnel", cards=_parse_cards(data.get("cards"), kind))
        if kind == "keep_tickets":
            tickets = data.get("tickets")
            if not isinstance(tickets, list) or not all(isinstance(t, str) for t in tickets):
                raise InvalidActionError("keep_tickets needs 'tickets': a list of ticket names such as 'Berlin-Roma'")
            return cls("keep_tickets", tickets=tuple(tickets))
        return cls(kind)

    def __str__(self) -> str:
        """A short text notation, e.g. `claim Berlin-Wien green=3`; `parse` reads it back."""
        cards = " ".join(f"{k}={v}" for k, v in self.cards)
        if self.kind == "draw_card":
            return "draw deck" if self.source == "deck" else f"draw {self.card}"
        if self.kind == "claim_route":
            return f"claim {self.route} {cards}"
        if self.kind == "build_station":
            return f"station {self.city} {cards}"
        if self.kind == "pay_tunnel":
            return f"pay {cards}"
        if self.kind == "keep_tickets":
            return "keep " + ", ".join(self.tickets)
        return {"draw_tickets": "tickets", "abandon_tunnel": "abandon", "pass": "pass"}[self.kind]

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the text notation of `__str__` (`draw deck`, `draw red`, `claim A-B red=2 locomotive=1`,
        `pay red=1`, `abandon`, `station Berlin red=2`, `tickets`, `keep A-B, C-D`, `pass`)."""
        verb, _, rest = text.strip().partition(" ")
        rest = rest.strip()
        if verb == "draw" and rest:
            return cls("draw_card", source="deck") if rest == "deck" else cls("draw_card", source="face_up", card=rest)
        if verb in ("claim", "station", "pay"):
            words = rest.split(" ")
            card_words = [w for w in words if "=" in w]
            target = " ".join(w for w in words if "=" not in w)
            cards: dict[str, int] = {}
            for word in card_words:
                name, _, count = word.partition("=")
                if not count.isdecimal():
                    raise InvalidActionError(f"bad card count in {word!r}: write colour=N")
                cards[name] = cards.get(name, 0) + int(count)
            if verb == "pay":
                return cls("pay_tunnel", cards=cls.make_cards(cards))
            if not target:
                raise InvalidActionError(f"{verb} needs a {'route' if verb == 'claim' else 'city'}")
            if verb == "claim":
                return cls("claim_route", route=target, cards=cls.make_cards(cards))
            return cls("build_station", city=target, cards=cls.make_cards(cards))
        if verb == "keep":
            return cls("keep_tickets", tickets=tuple(t.strip() for t in rest.split(",") if t.strip()))
        simple = {"tickets": "draw_tickets", "abandon": "abandon_tunnel", "pass": "pass"}
        if verb in simple and not rest:
            return cls(simple[verb])
        raise InvalidActionError(f"cannot read action {text!r}")


# The fields each kind of action takes (`kind` aside).
_FIELDS: dict[str, frozenset[str]] = {
    "draw_card": frozenset(("source", "card")), "claim_route": frozenset(("route", "cards")),
    "pay_tunnel": frozenset(("cards",)), "abandon_tunnel": frozenset(), "build_station": frozenset(("city", "cards")),
    "draw_tickets": frozenset(), "keep_tickets": frozenset(("tickets",)), "pass": frozenset(),
}


def _parse_cards(cards: Any, kind: str) -> tuple[tuple[str, int], ...]:
    if not isinstance(cards, dict) or not cards:
        raise InvalidActionError(f"{kind} needs 'cards': a count object such as {{\"red\": 2, \"locomotive\": 1}}")
    for name, count in cards.items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise InvalidActionError(f"{kind} cards: the count of {name!r} must be a whole number >= 0, got {count!r}")
    return Action.make_cards(cards)


class Catalogue:
    """The fixed action ids of one map, with flat decode tables (`kind`, `a`, `b`, `c`, `d`).

    Layout: draw from the deck; draw each card type face up; draw tickets; keep a ticket subset
    (bit mask over the tickets on offer); claim each route with each card set (colour `b`, `c`
    wild cards, the rest of colour `b`; `b == wild` means all wild); pay a tunnel's `a` extra
    cards with `c` wilds; abandon a tunnel; build a station in city `a` as the `d`-card station
    paying colour `b` with `c` wilds; pass.
    """

    def __init__(self, game_map: GameMap) -> None:
        self.game_map = game_map
        ncol = len(game_map.colors)
        wild = ncol
        rules = game_map.rules
        kind: list[int] = []
        a: list[int] = []
        b: list[int] = []
        c: list[int] = []
        d: list[int] = []

        def add(k: int, x: int = 0, y: int = 0, z: int = 0, t: int = 0) -> int:
            kind.append(k)
            a.append(x)
            b.append(y)
            c.append(z)
            d.append(t)
            return len(kind) - 1

        self.draw_deck = add(DRAW_DECK)
        self.draw_face_up = [add(DRAW_FACE_UP, y=card) for card in range(ncol + 1)]
        self.draw_tickets = add(DRAW_TICKETS)
        self.max_offer = max(rules.setup_long_tickets + rules.setup_regular_tickets, rules.draw_tickets, 1)
        self.keep_base = len(kind)
        for mask in range(1 << self.max_offer):
            add(KEEP_TICKETS, x=mask)
        # Claims: per route, contiguous ids by number of wild cards for each colour.
        self.claim_base: list[int] = []
        self.claim_all_wild: list[int] = []
        for route in game_map.routes:
            length = route.length
            self.claim_base.append(len(kind))
            if route.color == "gray":
                for colour in range(ncol):
                    for w in range(length):
                        add(CLAIM, route.index, colour, w)
            else:
                colour = game_map.colors.index(route.color)
                for w in range(length):
                    add(CLAIM, route.index, colour, w)
            self.claim_all_wild.append(add(CLAIM, route.index, wild, length))
        # Tunnel payments: (extra cards x, wilds w).
        self.pay: dict[tuple[int, int], int] = {}
        for x in range(1, rules.tunnel_reveal + 1):
            for w in range(x + 1):
                self.pay[(x, w)] = add(PAY_TUNNEL, x, 0, w)
        self.abandon = add(ABANDON_TUNNEL)
        # Stations: per city, per station cost k: colour b with w < k wilds, then all wild.
        self.station_base: list[list[int]] = []
        for city in game_map.cities:
            per_cost = []
            for cost in rules.station_costs:
                per_cost.append(len(kind))
                for colour in range(ncol):
                    for w in range(cost):
                        add(BUILD_STATION, city.index, colour, w, cost)
                add(BUILD_STATION, city.index, wild, cost, cost)
            self.station_base.append(per_cost)
        self.pass_ = add(PASS)
        # Routes grouped for fast listing: routes of one colour, length and ferry count share their
        # claim ids relative to their first id, so the legal claims of a group come from one offset list.
        groups: dict[tuple[int, int, int], list[int]] = {}
        for r in game_map.routes:
            colour = -1 if r.color == "gray" else game_map.colors.index(r.color)
            groups.setdefault((colour, r.length, r.ferry_locomotives), []).append(r.index)
        keys = sorted(groups)
        self.group_routes = [groups[k] for k in keys]
        self.route_group = [0] * len(game_map.routes)
        for gi, k in enumerate(keys):
            for member in groups[k]:
                self.route_group[member] = gi
        # Per colour: (group, length) sorted by length; gray: (group, length, ferry) sorted by length.
        self.colour_groups = [[(gi, k[1]) for gi, k in enumerate(keys) if k[0] == colour] for colour in range(ncol)]
        self.gray_groups = [(gi, k[1], k[2]) for gi, k in enumerate(keys) if k[0] == -1]
        self.kind = kind
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.decoded: dict[int, Action] = {}  # `Action`s of ids of `STATIC_KINDS`, decoded once (`Game.decode`)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its map: the catalogue is built again from it (a compiled class cannot be rebuilt field
        by field)."""
        return (Catalogue, (self.game_map,))

    def __len__(self) -> int:
        return len(self.kind)
