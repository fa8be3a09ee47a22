"""The values fitted to one map and seat count: one profile file per map and table size.

`data/profiles/<map>-<seats>.json` holds, for a game of that map and seat count, the greedy parameters fitted
there for each preset (laid over the preset's own, `ttr.bots.params.PRESETS`), the search's configuration
(its guide and its own playout policy as preset names, whether it weighs every claim and keeps its worlds in
step with the game, its playout actions a decision, the hint's playouts) and the belief's factor per face-up
pick no path explains. A map or seat count without a file (a custom map) plays `default.json`: every preset
as it is, `greedy_long` as the search's guide, 0.5 s of CPU a search decision, 32 playouts a hint; a log line
says so once per map and seat count.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ttr.bots.params import PRESETS, GreedyParams
from ttr.maps import GameMap

FORMAT = 1
log = logging.getLogger("ttr.bots")


@dataclass(frozen=True)
class SearchProfile:
    """The search's configuration in one map and seat count (`ttr.bots.mcts`)."""

    guide: str  # the preset of its own seat's policy: the guide's move and its playouts
    own_playout: str  # the preset of its own seat in its playouts (a `denying_*` preset blocks there)
    wide_claims: bool  # every claim it can pay a candidate at every stage, with the smaller gate margin
    track: bool  # worlds kept in step with the game (`ttr.bots.tracking`), where one policy models the others
    playout_actions: int | None  # playout actions a decision; None: `ttr.bots.budgets.FALLBACK_SECONDS`
    hint_playouts: int  # the hint's playouts a decision (`ttr.bots.hint`)


@dataclass(frozen=True)
class Profile:
    """What is fitted to a map and seat count (see the module); `fitted` is False for the default profile."""

    map_name: str
    seats: int
    fitted: bool
    greedy: dict[str, GreedyParams]  # preset -> its parameters here
    search: SearchProfile
    belief_unfit: float  # `ttr.bots.inference.TicketBelief`'s likelihood factor per unexplained face-up pick

    def params(self, preset: str) -> GreedyParams:
        """The parameters of `preset` in this game (`KeyError` for an unknown preset)."""
        return self.greedy[preset]


def _read(name: str) -> dict[str, Any] | None:
    path = resources.files("ttr.bots").joinpath("data", "profiles", f"{name}.json")
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@cache
def profile_of(map_name: str, seats: int) -> Profile:
    """The profile of a game of `seats` seats on the map named `map_name` (read once per name and count)."""
    data = _read(f"{map_name}-{seats}")
    fitted = data is not None
    if data is None:
        log.info("bots: no fitted profile for map %r with %d seats; playing the default profile", map_name, seats)
        data = _read("default")
        assert data is not None, "the bots' default profile is missing"
    where = f"bot profile {map_name}-{seats}" if fitted else "the default bot profile"
    if data.get("format") != FORMAT:
        raise ValueError(f"{where}: not format {FORMAT}")
    tuned = data.get("greedy", {})
    unknown = set(tuned) - set(PRESETS)
    if unknown:
        raise ValueError(f"{where}: no greedy preset {sorted(unknown)[0]!r}")
    greedy = {name: base.but(tuned.get(name, {}), f"{where}, {name}") for name, base in PRESETS.items()}
    s = data["search"]
    for key in ("guide", "own_playout"):
        if s[key] not in PRESETS:
            raise ValueError(f"{where}: search {key} {s[key]!r} is not a greedy preset")
    search = SearchProfile(guide=s["guide"], own_playout=s["own_playout"], wide_claims=bool(s["wide_claims"]),
                           track=bool(s["track"]), playout_actions=s["playout_actions"],
                           hint_playouts=int(s["hint_playouts"]))
    return Profile(map_name, seats, fitted, greedy, search, float(data["belief"]["unfit"]))


def profile(game_map: GameMap, seats: int) -> Profile:
    """The profile of a game of `seats` seats on `game_map` (read once per map name and seat count)."""
    return profile_of(game_map.name, seats)
