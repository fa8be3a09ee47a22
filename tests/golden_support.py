"""What the golden files hold and how they are computed; shared by `test_golden.py` and `scripts/make_golden.py`.

Golden games are whole games of uniformly random legal actions from fixed seeds, kept as `ttr-record/1`
documents with their final breakdown. Perft entries are legal-action counts: along the first steps of a
seeded random game, and at hand-built positions (with the depth-2 total, as chess engines keep).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from helpers import card_total, give_route, set_face_up, set_hand, skip_setup, stack_deck
from ttr.cli.play_cmds import play_random
from ttr.engine import Action, Game, positions
from ttr.engine import actions as A
from ttr.maps import load_map
from ttr.records import write_record

GOLDEN = Path(__file__).resolve().parent / "golden"
GAMES_DIR = GOLDEN / "games"
PERFT_FILE = GOLDEN / "perft.json"

# (map, players, seed): one golden game each.
GAMES: list[tuple[str, int, int]] = [
    ("europe", 2, 1002), ("europe", 3, 1003), ("europe", 4, 1004), ("europe", 5, 1005),
    ("new_york", 2, 2002), ("new_york", 3, 2003), ("new_york", 4, 2004),
]

# (map, players, seed, steps): perft lines along seeded random games.
LINES: list[tuple[str, int, int, int]] = [
    ("europe", 2, 31, 150), ("europe", 3, 32, 150), ("europe", 4, 33, 150), ("europe", 5, 34, 150),
    ("new_york", 2, 41, 120), ("new_york", 3, 42, 120), ("new_york", 4, 43, 120),
]

# Hand-built positions. Seats are strings (JSON keys). Applied in this order: setup skipped (every seat
# keeps its offer) unless "setup" is true, "routes" given without cards, "hands" set, "face_up" set,
# "deck_top" stacked, "trains" overridden, then the record-form actions of "play" applied with checks.
POSITIONS: list[dict[str, Any]] = [
    {"name": "europe-4p-big-hand", "map": "europe", "players": 4, "seed": 501,
     "hands": {"0": {"purple": 5, "blue": 5, "orange": 5, "white": 5, "green": 5, "yellow": 5, "black": 5,
                     "red": 5, "locomotive": 6}},
     "face_up": ["red", "blue", "locomotive", "white", "green"]},
    {"name": "europe-3p-big-hand-third-station", "map": "europe", "players": 3, "seed": 502,
     "routes": {"1": ["Berlin-Frankfurt/black", "Paris-Bruxelles/red", "Wien-Budapest/red"],
                "2": ["Madrid-Pamplona/white", "Dieppe-London/1"]},
     "hands": {"0": {"red": 8, "black": 4, "white": 3, "locomotive": 4},
               "1": {"green": 2}, "2": {"green": 2}},
     "face_up": ["yellow", "yellow", "purple", "orange", "green"],
     "play": [{"player": 0, "action": "build_station", "city": "Berlin", "cards": {"white": 1}},
              {"player": 1, "action": "draw_card", "from": "deck"},
              {"player": 1, "action": "draw_card", "from": "deck"},
              {"player": 2, "action": "draw_card", "from": "deck"},
              {"player": 2, "action": "draw_card", "from": "deck"},
              {"player": 0, "action": "build_station", "city": "Paris", "cards": {"white": 2}},
              {"player": 1, "action": "draw_card", "from": "deck"},
              {"player": 1, "action": "draw_card", "from": "deck"},
              {"player": 2, "action": "draw_card", "from": "deck"},
              {"player": 2, "action": "draw_card", "from": "deck"}]},
    {"name": "europe-2p-tunnel-payment", "map": "europe", "players": 2, "seed": 503,
     "hands": {"0": {"black": 4, "locomotive": 3}},
     "deck_top": ["black", "locomotive", "red"],
     "play": [{"player": 0, "action": "claim_route", "route": "Madrid-Pamplona/black", "cards": {"black": 3}}]},
    {"name": "europe-2p-locomotive-tunnel", "map": "europe", "players": 2, "seed": 504,
     "hands": {"0": {"locomotive": 7}},
     "deck_top": ["locomotive", "locomotive", "red"],
     "play": [{"player": 0, "action": "claim_route", "route": "Erzurum-Sochi", "cards": {"locomotive": 3}}]},
    {"name": "europe-5p-second-card", "map": "europe", "players": 5, "seed": 505,
     "face_up": ["locomotive", "locomotive", "red", "red", "blue"],
     "deck_top": ["green"],
     "play": [{"player": 0, "action": "draw_card", "from": "face_up", "card": "red"}]},
    {"name": "europe-2p-ferries-few-locomotives", "map": "europe", "players": 2, "seed": 506,
     "hands": {"0": {"red": 6, "green": 4, "locomotive": 2}},
     "face_up": ["white", "white", "purple", "orange", "black"]},
    {"name": "europe-3p-last-trains", "map": "europe", "players": 3, "seed": 507,
     "routes": {"1": ["Berlin-Warszawa/purple"]},
     "hands": {"0": {"yellow": 4, "purple": 2, "locomotive": 1}},
     "trains": {"0": 2}},
    {"name": "europe-4p-draw-tickets", "map": "europe", "players": 4, "seed": 508,
     "play": [{"player": 0, "action": "draw_tickets"}]},
    {"name": "europe-5p-setup-choice", "map": "europe", "players": 5, "seed": 509, "setup": True},
    {"name": "new_york-3p-big-hand", "map": "new_york", "players": 3, "seed": 601,
     "hands": {"0": {"blue": 4, "green": 4, "black": 4, "pink": 4, "red": 4, "orange": 4, "taxi": 4}},
     "face_up": ["taxi", "red", "red", "blue", "green"]},
    {"name": "new_york-2p-double-closed", "map": "new_york", "players": 2, "seed": 602,
     "routes": {"1": ["Central Park-Times Square/red", "Brooklyn-Chinatown/orange"]},
     "hands": {"0": {"black": 3, "red": 3, "orange": 2, "taxi": 1}}},
    {"name": "new_york-4p-setup-choice", "map": "new_york", "players": 4, "seed": 603, "setup": True},
]


def random_game(map_name: str, players: int, seed: int) -> Game:
    """A whole game of uniformly random legal actions: `Game.new(seed)` and `play_random(Random(seed))`."""
    game = Game.new(load_map(map_name), players, seed=seed)
    play_random(game, random.Random(seed))
    return game


def game_stem(map_name: str, players: int, seed: int) -> str:
    """The file name stem of a golden game."""
    return f"{map_name}-{players}p-s{seed}"


def perft_line(map_name: str, players: int, seed: int, steps: int) -> dict[str, Any]:
    """Legal-action counts before the first step and after each of the first `steps` random steps."""
    game = Game.new(load_map(map_name), players, seed=seed)
    rng = random.Random(seed)
    counts = [len(game.legal_ids())]
    actions: list[dict[str, Any]] = []
    while len(actions) < steps and not game.is_over:
        ids = game.legal_ids()
        aid = ids[rng.randrange(len(ids))]
        actions.append({"player": game.current, **game.decode(aid).to_json()})
        game.apply_id(aid)
        counts.append(len(game.legal_ids()))
    return {"map": map_name, "players": players, "seed": seed, "counts": counts, "actions": actions}


def build_position(spec: dict[str, Any]) -> Game:
    """The game a hand-built position spec describes (every card still accounted for)."""
    game = Game.new(load_map(spec["map"]), spec["players"], seed=spec["seed"])
    if not spec.get("setup"):
        skip_setup(game)
    for seat, routes in spec.get("routes", {}).items():
        for route in routes:
            give_route(game, int(seat), route)
    for seat, hand in spec.get("hands", {}).items():
        set_hand(game, int(seat), hand)
    if "face_up" in spec:
        set_face_up(game, spec["face_up"])
    if "deck_top" in spec:
        stack_deck(game, spec["deck_top"])
    for seat, trains in spec.get("trains", {}).items():
        positions.set_trains(game, int(seat), trains)
    for raw in spec.get("play", []):
        assert raw["player"] == game.current, f"{spec['name']}: not seat {raw['player']}'s turn"
        game.apply(Action.from_json(raw))
    assert card_total(game) == game.map.total_cards, f"{spec['name']}: a card went missing"
    return game


def position_counts(game: Game) -> dict[str, Any]:
    """Legal actions at a position: the total, per kind, and perft(2) (the sum of the counts one step on)."""
    ids = game.legal_ids()
    by_kind = Counter(A.KIND_NAMES[game.cat.kind[i]] + ("_face_up" if game.cat.kind[i] == A.DRAW_FACE_UP else "")
                      for i in ids)
    depth2 = 0
    for aid in ids:
        child = game.copy()
        child.apply_id(aid)
        depth2 += len(child.legal_ids())
    return {"phase": game.phase_name, "legal": len(ids), "by_kind": dict(sorted(by_kind.items())),
            "perft2": depth2}


def dump(doc: Any) -> str:
    """JSON with one list item (an action, a count row) per line: short diffs, easy to read."""
    if isinstance(doc, dict):
        inner = ",\n".join(f" {json.dumps(k)}: {_dump_value(v)}" for k, v in doc.items())
        return "{\n" + inner + "\n}\n"
    return json.dumps(doc, ensure_ascii=False) + "\n"


def _dump_value(value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        items = ",\n".join("  " + json.dumps(v, ensure_ascii=False) for v in value)
        return "[\n" + items + "\n ]"
    return json.dumps(value, ensure_ascii=False)


def golden_record(map_name: str, players: int, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A golden game's record and its final breakdown, as the engine plays them now."""
    from ttr.engine import final_score

    game = random_game(map_name, players, seed)
    return write_record(game), final_score(game).to_json()
