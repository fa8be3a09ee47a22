"""Game records (`ttr-record/1`) and end-of-game positions (`ttr-position/1`): read, write, replay, score.

The formats are specified in `docs/records.md`. Readers reject what they do not understand with a
`RecordError` naming the field; they never guess.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ttr.engine.actions import Action
from ttr.engine.doubles import twin_conflict
from ttr.engine.game import Game, board_of, starting_orders
from ttr.engine.scoring import BoardPlayer, FinalScore, score_board
from ttr.engine.views import full_state, history_actions
from ttr.errors import MapError, RecordError, TTRError
from ttr.maps import GameMap, load_map

RECORD_FORMAT = "ttr-record/1"
POSITION_FORMAT = "ttr-position/1"


@dataclass
class Record:
    """A parsed game record: everything needed to rebuild the game exactly."""

    map: GameMap
    players: list[str]
    seed: int
    decks: dict[str, list[str]] | None
    reshuffles: list[list[str]] | None
    actions: list[tuple[int, Action, dict[str, Any]]] = field(default_factory=list)  # (seat, action, as given)

    def new_game(self) -> Game:
        """The game as dealt, before any action."""
        return Game.new(self.map, self.players, self.seed, self.decks, self.reshuffles)


@dataclass
class ReplayResult:
    """The game after a record, and the first illegal action (None if every action applied)."""

    game: Game
    error: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        """What `ttr replay --json` prints."""
        return full_state(self.game, self.error)


def load_json(path: str | Path) -> Any:
    """A JSON document from a file; `RecordError` says what is wrong with it."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a UTF-8 text file") from None
    try:
        data = json.loads(text)
        json.dumps(data, ensure_ascii=False).encode("utf-8")  # a lone surrogate escape ("\ud800") is no text
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except UnicodeEncodeError:
        raise RecordError(f"{path}: a string holds a lone surrogate escape (\\ud800-\\udfff), not text") from None
    except RecursionError:
        raise RecordError(f"{path}: JSON nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise RecordError(f"{path}: not a JSON document this program can read: {exc}") from None
    return data


def _map_of(data: dict[str, Any]) -> GameMap:
    name = data.get("map")
    if not isinstance(name, str):
        raise RecordError("map: expected a map name such as 'europe' or a map file path")
    try:
        return load_map(name)
    except MapError as exc:
        raise RecordError(f"map: {exc}") from None
    except (OSError, ValueError, RecursionError) as exc:  # a path the OS refuses, a file that is not JSON text
        why = getattr(exc, "strerror", None) or exc
        raise RecordError(f"map: cannot load map file {name[:100]!r}: {why}") from None


def _check_format(data: Any, expected: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise RecordError(f"expected a JSON object with \"format\": \"{expected}\", got {type(data).__name__}")
    fmt = data.get("format")
    if fmt != expected:
        raise RecordError(f"format: expected {expected!r}, got {fmt!r}")
    return data


def _players(data: dict[str, Any], game_map: GameMap) -> list[str]:
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("players: expected a list of player names")
    rules = game_map.rules
    if not rules.players_min <= len(players) <= rules.players_max:
        raise RecordError(f"players: {game_map.name} is for {rules.players_min}-{rules.players_max} players, "
                          f"got {len(players)}")
    return players


def read_record(data: Any) -> Record:
    """Parse a `ttr-record/1` document (already decoded from JSON)."""
    data = _check_format(data, RECORD_FORMAT)
    game_map = _map_of(data)
    players = _players(data, game_map)
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"seed: expected an integer, got {seed!r}")
    decks = data.get("decks")
    if decks is not None:
        if not isinstance(decks, dict):
            raise RecordError("decks: expected an object with 'train', 'tickets', 'long_tickets'")
        for key, value in decks.items():
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise RecordError(f"decks.{key}: expected a list of names")
    reshuffles = data.get("reshuffles")
    if reshuffles is not None and (
        not isinstance(reshuffles, list)
        or not all(isinstance(r, list) and all(isinstance(c, str) for c in r) for r in reshuffles)
    ):
        raise RecordError("reshuffles: expected a list of card lists")
    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list):
        raise RecordError("actions: expected a list")
    actions = []
    for i, raw in enumerate(raw_actions):
        if not isinstance(raw, dict):
            raise RecordError(f"actions[{i}]: expected an object")
        seat = raw.get("player")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(players):
            raise RecordError(f"actions[{i}].player: expected a seat number 0-{len(players) - 1}, got {seat!r}")
        try:
            action = Action.from_json(raw)
        except TTRError as exc:
            raise RecordError(f"actions[{i}]: {exc}") from None
        actions.append((seat, action, raw))
    record = Record(game_map, players, seed, decks, reshuffles, actions)
    return record


def replay(record: Record) -> ReplayResult:
    """Play a record's actions in order; stop before the first illegal one and say why."""
    try:
        game = record.new_game()
    except MapError as exc:
        raise RecordError(str(exc)) from None
    for index, (seat, action, raw) in enumerate(record.actions):
        message = _try_apply(game, seat, action)
        if message is not None:
            if message.startswith("\0"):  # the game changed before the error: rebuild it up to here
                message = message[1:]
                game = record.new_game()
                for _, earlier, _ in record.actions[:index]:
                    game.apply(earlier)
            return ReplayResult(game, {"index": index, "action": raw, "message": message})
    return ReplayResult(game, None)


def _try_apply(game: Game, seat: int, action: Action) -> str | None:
    """None if applied, else why not ("\\0"-prefixed when the state may have changed)."""
    if game.is_over:
        return "E-END-1: the game is over"
    if seat != game.current:
        return f"it is player {game.current}'s turn ({game.players[game.current]}), not player {seat}'s"
    try:
        aid = game.encode(action)
        why = game.why_illegal(aid)
    except TTRError as exc:
        return str(exc)
    if why is not None:
        return f"{why[0]}: {why[1]}" if why[0] else why[1]
    try:
        game.apply_unchecked(aid)
    except RecordError as exc:  # a given reshuffle order that does not match the discard pile
        return "\0" + str(exc)
    return None


def write_record(game: Game) -> dict[str, Any]:
    """The `ttr-record/1` document of a game so far (deck orders and reshuffles included)."""
    m = game.map
    names = m.card_names
    orders = starting_orders(game)
    decks: dict[str, list[str]] = {
        "train": [names[c] for c in orders.train],
        "tickets": [m.tickets[t].name for t in orders.tickets],
    }
    if orders.long_tickets:
        decks["long_tickets"] = [m.tickets[t].name for t in orders.long_tickets]
    return {
        "format": RECORD_FORMAT,
        "map": m.origin or m.name,
        "players": list(game.players),
        "seed": game.seed,
        "decks": decks,
        "reshuffles": [[names[c] for c in order] for order in orders.reshuffles],
        "actions": history_actions(game),
    }


# ---------------------------------------------------------------------- positions


def read_position(data: Any) -> tuple[GameMap, list[BoardPlayer]]:
    """Parse and check a `ttr-position/1` document: a board at the end of a game."""
    data = _check_format(data, POSITION_FORMAT)
    game_map = _map_of(data)
    raw_players = data.get("players")
    if not isinstance(raw_players, list) or not raw_players:
        raise RecordError("players: expected a list of players")
    rules = game_map.rules
    if not rules.players_min <= len(raw_players) <= rules.players_max:
        raise RecordError(f"players: {game_map.name} is for {rules.players_min}-{rules.players_max} players, "
                          f"got {len(raw_players)}")
    owners: dict[int, int] = {}
    station_cities: dict[int, int] = {}
    board = []
    for seat, raw in enumerate(raw_players):
        where = f"players[{seat}]"
        if not isinstance(raw, dict):
            raise RecordError(f"{where}: expected an object")
        name = raw.get("name", f"Player {seat + 1}")
        if not isinstance(name, str):
            raise RecordError(f"{where}.name: expected a string")
        routes = _names(raw, "routes", where, lambda s: game_map.route(s).index)
        stations = _names(raw, "stations", where, lambda s: game_map.city(s).index)
        tickets = _names(raw, "tickets", where, lambda s: game_map.ticket(s).index)
        for r in routes:
            route = game_map.routes[r]
            if r in owners:
                holder = "twice" if owners[r] == seat else f"also by players[{owners[r]}]"
                raise RecordError(f"{where}.routes: {route.name} is held {holder}")
            owners[r] = seat
            broken = twin_conflict(game_map, r, seat, owners.get(route.twin, -1), len(raw_players))
            if broken is not None and owners[route.twin] == seat:
                raise RecordError(f"{where}.routes: both tracks of {route.name} are held by one player ({broken})")
            if broken is not None:
                raise RecordError(f"{where}.routes: both tracks of {route.name} are used in a "
                                  f"{len(raw_players)}-player game ({broken})")
        trains = sum(game_map.routes[r].length for r in routes)
        if trains > rules.pieces:
            raise RecordError(f"{where}.routes: {trains} {rules.piece_name} placed, a player has {rules.pieces}")
        if len(stations) > rules.stations:
            raise RecordError(f"{where}.stations: {len(stations)} stations, a player has {rules.stations}")
        for city in stations:
            if city in station_cities:
                raise RecordError(f"{where}.stations: {game_map.cities[city].name} already has a station "
                                  "(E-STAT-1)")
            station_cities[city] = seat
        if len(set(tickets)) != len(tickets):
            raise RecordError(f"{where}.tickets: a ticket is listed twice")
        board.append(BoardPlayer(name, tuple(routes), tuple(stations), tuple(tickets)))
    all_tickets = [t for p in board for t in p.tickets]
    if len(set(all_tickets)) != len(all_tickets):
        raise RecordError("players: a ticket is held by two players")
    return game_map, board


def _names(raw: dict[str, Any], key: str, where: str, lookup: Any) -> list[int]:
    values = raw.get(key, [])
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise RecordError(f"{where}.{key}: expected a list of names")
    out = []
    for value in values:
        try:
            out.append(lookup(value))
        except MapError as exc:
            raise RecordError(f"{where}.{key}: {exc}") from None
    return out


def score_position(data: Any) -> FinalScore:
    """The final breakdown of a `ttr-position/1` document."""
    game_map, board = read_position(data)
    return score_board(game_map, board)


def write_position(game: Game) -> dict[str, Any]:
    """The `ttr-position/1` document of a game's board."""
    m = game.map
    return {
        "format": POSITION_FORMAT,
        "map": m.origin or m.name,
        "players": [
            {"name": p.name, "routes": [m.routes[r].name for r in p.routes],
             "stations": [m.cities[c].name for c in p.stations], "tickets": [m.tickets[t].name for t in p.tickets]}
            for p in board_of(game)
        ],
    }
