"""The observation and information-state vectors, and the wire views, of seeded random games: unchanged.

`tests/golden/observations.json` holds, per (map, players, seed), a SHA-256 of every seat's observation and
information-state vector at every step of a seeded random game, and one of the wire views (`seat_view` of
every seat, `public_view`, `full_state`) at every fifth step: the environments and the server read a game
through the same projection (`ttr.engine.views`), and neither's output may drift.
Regenerate (only for a deliberate change of the layout): `python tests/envs/test_observation_golden.py`.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from ttr.engine.views import full_state, public_view, seat_view
from ttr.envs.core import EnvCore
from ttr.envs.infostate import InfoStateEncoder
from ttr.envs.observation import ObservationEncoder
from ttr.maps import load_map

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "observations.json"
CASES = [("europe", 2, 1), ("europe", 4, 2), ("europe", 5, 3), ("new_york", 2, 4), ("new_york", 4, 5)]
MAX_STEPS = 400


def digests(map_name: str, players: int, seed: int) -> dict[str, object]:
    """The hashes of one seeded random game's vectors and views, and its step count."""
    game_map = load_map(map_name)
    core = EnvCore(game_map, players)
    core.reset(seed)
    encoder = ObservationEncoder(game_map, players)
    info = InfoStateEncoder(encoder)
    rng = random.Random(seed)
    vectors, views = hashlib.sha256(), hashlib.sha256()
    returns = [0] * players
    steps = 0
    while not core.is_over and steps < MAX_STEPS:
        game = core.game
        for seat in range(players):
            kept = core.kept if game.current == seat else None
            vectors.update(encoder.encode(game, seat, kept).tobytes())
            vectors.update(info.encode(game, seat, kept, steps, returns, public_only=seat % 2 == 1).tobytes())
        if steps % 5 == 0:
            wire = [seat_view(game, seat) for seat in range(players)] + [public_view(game), full_state(game)]
            views.update(json.dumps(wire, sort_keys=True).encode())
        ids = core.legal_ids()
        aid = ids[rng.randrange(len(ids))]
        if aid == core.return_id:
            returns[game.current] += 1
        core.step(aid)
        steps += 1
    return {"vectors": vectors.hexdigest(), "views": views.hexdigest(), "steps": steps}


@pytest.mark.parametrize("map_name,players,seed", CASES)
def test_vectors_and_views_match_the_recorded_ones(map_name: str, players: int, seed: int) -> None:
    recorded = json.loads(GOLDEN.read_text())[f"{map_name}-{players}-{seed}"]
    assert digests(map_name, players, seed) == recorded


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps({f"{m}-{p}-{s}": digests(m, p, s) for m, p, s in CASES}, indent=1) + "\n")
