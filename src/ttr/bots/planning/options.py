"""The legal actions sorted by kind, with their card sets decoded (`Options`)."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

from ttr.bots.planning.index import MapIndex
from ttr.engine import Action, Game
from ttr.engine.actions import BUILD_STATION, DRAW_DECK, DRAW_FACE_UP, DRAW_TICKETS


@dataclass(frozen=True, slots=True)
class ClaimOption:
    """A legal claim: the route, the colour paid (the wild card index when all wild) and the wilds in it."""

    action: Action
    route: int
    colour: int
    wilds: int


@dataclass(frozen=True, slots=True)
class StationOption:
    """A legal station: the city, the colour paid (wild index when all wild) and the wilds in it."""

    action: Action
    city: int
    colour: int
    wilds: int


@dataclass(slots=True)
class Options:
    """The legal actions sorted by kind (see `sort_options`; `game_options` decodes the stations only when
    `stations` is first read)."""

    claims: dict[int, list[ClaimOption]] = field(default_factory=dict)  # route -> its card sets
    station_map: dict[int, list[StationOption]] = field(default_factory=dict)  # city -> card sets (`stations`)
    draw_deck: Action | None = None
    face_up: dict[int, Action] = field(default_factory=dict)  # card index -> draw it face up
    draw_tickets: Action | None = None
    keeps: list[tuple[tuple[int, ...], Action]] = field(default_factory=list)  # kept ticket ids
    pays: list[tuple[int, Action]] = field(default_factory=list)  # (wilds used, action)
    abandon: Action | None = None
    pass_: Action | None = None
    pending_stations: tuple[MapIndex, Game, list[int]] | None = None  # station ids not decoded yet (`game_options`)

    @property
    def stations(self) -> dict[int, list[StationOption]]:
        """The legal stations: city -> its card sets (in id order)."""
        if self.pending_stations is not None:
            ix, game, ids = self.pending_stations
            self.pending_stations = None
            table = ix.static
            out = self.station_map
            for aid in ids:
                option = table[aid] or _static_entry(ix, game, aid)
                found = out.get(option.city)
                if found is None:
                    out[option.city] = [option]
                else:
                    found.append(option)
        return self.station_map


def _split(ix: MapIndex, cards: tuple[tuple[str, int], ...]) -> tuple[int, int]:
    """(colour, wilds) of a one-colour-plus-wilds card set; colour is the wild index when all wild."""
    card_index = ix.game_map.card_index
    colour, wilds = ix.wild, 0
    for name, count in cards:
        c = card_index[name]
        if c == ix.wild:
            wilds += count
        else:
            colour = c
    return colour, wilds


_CLAIM, _STATION, _DECK, _FACE, _KEEP, _PAY, _TICKETS, _ABANDON, _PASS = range(9)


def _parse(ix: MapIndex, action: Action) -> tuple[int, int, int, int]:
    """(kind code, route/city/card, colour, wilds) of a legal action; cached per map for static actions."""
    m = ix.game_map
    kind = action.kind
    if kind == "claim_route":
        return (_CLAIM, m.route_index[action.route or ""], *_split(ix, action.cards))
    if kind == "draw_card":
        if action.source == "deck":
            return (_DECK, 0, 0, 0)
        return (_FACE, m.card_index[action.card or ""], 0, 0)
    if kind == "build_station":
        return (_STATION, m.city_index[action.city or ""], *_split(ix, action.cards))
    if kind == "keep_tickets":
        return (_KEEP, 0, 0, 0)
    if kind == "pay_tunnel":
        return (_PAY, 0, 0, _split(ix, action.cards)[1])
    if kind == "draw_tickets":
        return (_TICKETS, 0, 0, 0)
    if kind == "abandon_tunnel":
        return (_ABANDON, 0, 0, 0)
    return (_PASS, 0, 0, 0)


def sort_options(ix: MapIndex, legal: list[Action], ids: list[int] | None = None) -> Options:
    """Decode the legal actions once: claims per route, stations per city, draws, ticket keeps, payments.
    With the actions' catalogue `ids` (equal length), static actions are looked up by id (faster)."""
    if ids is not None:
        return _sort_ids(ix, legal, ids)
    opts = Options()
    cache = ix.parsed
    for action in legal:
        parsed = cache.get(action)
        if parsed is None:
            parsed = _parse(ix, action)
            if parsed[0] not in (_KEEP, _PAY):
                cache[action] = parsed
        code, what, colour, wilds = parsed
        if code == _CLAIM:
            opts.claims.setdefault(what, []).append(ClaimOption(action, what, colour, wilds))
        elif code == _FACE:
            opts.face_up[what] = action
        elif code == _DECK:
            opts.draw_deck = action
        elif code == _STATION:
            opts.station_map.setdefault(what, []).append(StationOption(action, what, colour, wilds))
        elif code == _KEEP:
            opts.keeps.append((tuple(ix.game_map.ticket_index[t] for t in action.tickets), action))
        elif code == _PAY:
            opts.pays.append((wilds, action))
        elif code == _TICKETS:
            opts.draw_tickets = action
        elif code == _ABANDON:
            opts.abandon = action
        else:
            opts.pass_ = action
    return opts


def _sort_ids(ix: MapIndex, legal: list[Action], ids: list[int]) -> Options:
    """`sort_options` with the options of static actions (all but keeps and payments) cached by id."""
    opts = Options()
    cache = ix.by_id
    for aid, action in zip(ids, legal, strict=True):
        entry = cache.get(aid)
        if entry is None or (entry[0] in (_CLAIM, _STATION) and entry[2].action is not action):
            code, what, colour, wilds = _parse(ix, action)
            item: Any = action
            if code == _CLAIM:
                item = ClaimOption(action, what, colour, wilds)
            elif code == _STATION:
                item = StationOption(action, what, colour, wilds)
            entry = (code, what, item)
            if code not in (_KEEP, _PAY):
                cache[aid] = entry
        code, what, item = entry
        if code == _CLAIM:
            claims = opts.claims.get(what)
            if claims is None:
                opts.claims[what] = [item]
            else:
                claims.append(item)
        elif code == _FACE:
            opts.face_up[what] = action
        elif code == _DECK:
            opts.draw_deck = action
        elif code == _STATION:
            opts.station_map.setdefault(what, []).append(item)
        elif code == _KEEP:
            opts.keeps.append((tuple(ix.game_map.ticket_index[t] for t in action.tickets), action))
        elif code == _PAY:
            opts.pays.append((_parse(ix, action)[3], action))
        elif code == _TICKETS:
            opts.draw_tickets = action
        elif code == _ABANDON:
            opts.abandon = action
        else:
            opts.pass_ = action
    return opts


def _static_entry(ix: MapIndex, game: Game, aid: int) -> Any:
    """The cached decoding of a static action id (see `game_options`): a `ClaimOption`, a `StationOption`,
    or the `Action` itself for draws, ticket draws, abandons and passes."""
    table = ix.static
    entry = table[aid]
    if entry is None:
        action = game.decode(aid)
        code, what, colour, wilds = _parse(ix, action)
        if code == _CLAIM:
            entry = ClaimOption(action, what, colour, wilds)
        elif code == _STATION:
            entry = StationOption(action, what, colour, wilds)
        else:
            entry = action
        table[aid] = entry
        ix.static_ids[action] = aid
    return entry


def static_action(ix: MapIndex, game: Game, aid: int) -> Action:
    """The `Action` of a static action id (any kind but ticket keeps and tunnel payments), decoded once per map."""
    if not ix.static:
        ix.static.extend([None] * len(game.cat))
    entry = _static_entry(ix, game, aid)
    return entry if isinstance(entry, Action) else entry.action


def static_id(ix: MapIndex, action: Action) -> int | None:
    """The catalogue id of an action `static_action` or `game_options` decoded, or None."""
    return ix.static_ids.get(action)


def game_options(ix: MapIndex, game: Game, ids: list[int]) -> Options:
    """`sort_options` of the legal ids `ids` (ascending, as `legal_ids` gives them) of `game` in a main turn
    or on the second card (every action static), without decoding the whole list: draws and claims are
    cached per id and the stations are decoded only when `Options.stations` is read (search playouts;
    most turns never look at them)."""
    table = ix.static
    if not table:
        table.extend([None] * len(game.cat))
    cat = game.cat
    kind = cat.kind
    opts = Options()
    first_claim = cat.claim_base[0] if cat.claim_base else len(cat)
    after_claims = cat.claim_all_wild[-1] + 1 if cat.claim_all_wild else len(cat)
    n = len(ids)
    i = 0
    while i < n and ids[i] < first_claim:
        aid = ids[i]
        action = table[aid] or _static_entry(ix, game, aid)
        k = kind[aid]
        if k == DRAW_FACE_UP:
            opts.face_up[cat.b[aid]] = action
        elif k == DRAW_DECK:
            opts.draw_deck = action
        elif k == DRAW_TICKETS:
            opts.draw_tickets = action
        else:
            raise ValueError(f"game_options: action {aid} ({action}) is not static")
        i += 1
    j = bisect.bisect_left(ids, after_claims, i)
    claims = opts.claims
    route_of = cat.a
    last = -1
    found: list[ClaimOption] = []
    for aid in ids[i:j]:  # ascending: each route's ids are one block of the catalogue
        option = table[aid] or _static_entry(ix, game, aid)
        if route_of[aid] == last:
            found.append(option)
        else:
            last = route_of[aid]
            found = claims[last] = [option]
    if j < n and ids[-1] == cat.pass_:
        opts.pass_ = table[cat.pass_] or _static_entry(ix, game, cat.pass_)
        n -= 1
    if j < n:
        rest = ids[j:n]
        if kind[rest[0]] != BUILD_STATION or kind[rest[-1]] != BUILD_STATION:  # sorted: stations are one block
            raise ValueError(f"game_options: actions {rest} are not all stations")
        opts.pending_stations = (ix, game, rest)
    return opts
