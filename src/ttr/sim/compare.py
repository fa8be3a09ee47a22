"""Compare two simulations figure by figure, and say which differences are real.

Every figure is a mean of one value per game (a seat's win share, a bot's mean score in that game, a
route claimed or not, the game's turns, ...). For each one the comparison gives A's and B's mean, the
difference B - A with its 95% interval and a t-test (scipy): Welch's test for two independent runs, the
paired test on the per-game differences when the runs are paired (same seed, players and bots, so game i
of both was dealt the same cards wherever the maps allow: `are_paired`). The p-values of all figures
together are adjusted for multiple comparisons (Benjamini-Hochberg, `scipy.stats.false_discovery_control`),
and a difference is flagged real when its adjusted p-value is below 0.05.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from ttr.maps import GameMap
from ttr.sim import stats

ALPHA = 0.05
EXACT = 1e-9  # a spread this small against the means is rounding: the values are constant
Row = dict[str, Any]
PerGame = dict[int, float]


@dataclass(frozen=True)
class Difference:
    """One figure compared: the means, B - A with its 95% interval, the test's p-value and the adjusted one."""

    group: str  # "seats", "bots", "scores", "tickets", "routes", "length"
    figure: str
    a: float
    b: float
    difference: float
    low: float
    high: float
    p: float
    p_adjusted: float
    real: bool
    games_a: int
    games_b: int
    paired: bool

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict, numbers rounded to 6 places (an interval that cannot be computed is null)."""
        return {k: (round(v, 6) if math.isfinite(v) else None) if isinstance(v, float) else v
                for k, v in asdict(self).items()}


def are_paired(settings_a: dict[str, Any], settings_b: dict[str, Any]) -> bool:
    """Whether two runs played the same deals game by game: the same seed, seat count and bots (the map may
    differ; on maps with the same deck and tickets the deals are then identical)."""
    return all(settings_a.get(key) == settings_b.get(key) for key in ("seed", "players", "bots"))


def _per_game(rows: list[Row], value: Callable[[list[Row]], float | None]) -> PerGame:
    out: PerGame = {}
    for game, seats in stats.games(rows).items():
        v = value(seats)
        if v is not None:
            out[game] = v
    return out


def _seat_value(seat: int, column: str) -> Callable[[list[Row]], float | None]:
    return lambda seats: float(seats[seat][column]) if seat < len(seats) else None


def _bot_value(bot: str, value: Callable[[Row], float]) -> Callable[[list[Row]], float | None]:
    def per_game(seats: list[Row]) -> float | None:
        mine = [value(r) for r in seats if r["bot"] == bot]
        return sum(mine) / len(mine) if mine else None

    return per_game


def _bot_completion(bot: str) -> Callable[[list[Row]], float | None]:
    def per_game(seats: list[Row]) -> float | None:
        mine = [r for r in seats if r["bot"] == bot]
        held = sum(r["tickets_completed"] + r["tickets_failed"] for r in mine)
        return sum(r["tickets_completed"] for r in mine) / held if held else None

    return per_game


def _claimed_routes(seats: list[Row], game_map: GameMap) -> set[str]:
    return {game_map.routes[int(i)].name for r in seats for i in str(r["route_ids"]).split() if i}


def figures(rows: list[Row], game_map: GameMap, players: int, bot_names: list[str],
            route_names: list[str]) -> dict[tuple[str, str], PerGame]:
    """Every figure of one run as per-game values, keyed by (group, figure)."""
    out: dict[tuple[str, str], PerGame] = {}
    for seat in range(players):
        out["seats", f"win rate, seat {seat + 1}"] = _per_game(rows, _seat_value(seat, "win_share"))
    out["seats", "first-player advantage (seat 1 win rate - 1/players)"] = _per_game(
        rows, lambda seats: float(seats[0]["win_share"]) - 1 / len(seats))
    for bot in bot_names:
        out["bots", f"win rate, {bot}"] = _per_game(rows, _bot_value(bot, lambda r: float(r["win_share"])))
    out["scores", "mean score, all seats"] = _per_game(
        rows, lambda seats: stats.mean([float(r["score"]) for r in seats]))
    for bot in bot_names:
        out["scores", f"mean score, {bot}"] = _per_game(rows, _bot_value(bot, lambda r: float(r["score"])))
    for bot in bot_names:
        out["tickets", f"ticket completion, {bot}"] = _per_game(rows, _bot_completion(bot))
    out["length", "turns per game"] = _per_game(rows, lambda seats: float(seats[0]["turns"]))
    claimed = {game: _claimed_routes(seats, game_map) for game, seats in stats.games(rows).items()}
    for name in route_names:
        out["routes", f"route claimed, {name}"] = {game: float(name in got) for game, got in claimed.items()}
    return out


def _test(a: PerGame, b: PerGame, paired: bool) -> tuple[float, float, float, float, float, float, int, int]:
    """(mean A, mean B, B - A, low, high, p, games A, games B) with scipy's t-tests."""
    from scipy import stats as sps

    if paired:
        games = sorted(set(a) & set(b))
        xs = [a[g] for g in games]
        ys = [b[g] for g in games]
    else:
        xs, ys = list(a.values()), list(b.values())
    mean_a, mean_b = stats.mean(xs), stats.mean(ys)
    diff = mean_b - mean_a
    if len(xs) < 2 or len(ys) < 2:
        return mean_a, mean_b, diff, -math.inf, math.inf, 1.0, len(xs), len(ys)
    spread = stats.stdev([y - x for x, y in zip(xs, ys, strict=True)]) if paired else (
        stats.stdev(xs) + stats.stdev(ys))
    if spread <= EXACT * (1 + abs(mean_a) + abs(mean_b)):  # no variation (up to rounding): the difference is exact
        exact = abs(diff) <= EXACT * (1 + abs(mean_a) + abs(mean_b))
        return mean_a, mean_b, diff, diff, diff, 1.0 if exact else 0.0, len(xs), len(ys)
    with warnings.catch_warnings():  # scipy warns on nearly constant values: the interval is then just narrow
        warnings.simplefilter("ignore", RuntimeWarning)
        result = sps.ttest_rel(ys, xs) if paired else sps.ttest_ind(ys, xs, equal_var=False)
    low, high = result.confidence_interval(0.95)
    p = float(result.pvalue)
    return mean_a, mean_b, diff, float(low), float(high), p if math.isfinite(p) else 1.0, len(xs), len(ys)


def compare(rows_a: list[Row], map_a: GameMap, rows_b: list[Row], map_b: GameMap, *, paired: bool,
            players: tuple[int, int]) -> list[Difference]:
    """Every figure of run B against run A, with intervals, tests and the multiple-comparison flag."""
    from scipy import stats as sps

    bots = [b for b in stats.bots(rows_a) if b in set(stats.bots(rows_b))]
    names_b = {r.name for r in map_b.routes}
    routes = [r.name for r in map_a.routes if r.name in names_b]
    seats = min(players)
    figs_a = figures(rows_a, map_a, seats, bots, routes)
    figs_b = figures(rows_b, map_b, seats, bots, routes)
    tested = []
    for key, values_a in figs_a.items():
        values_b = figs_b[key]
        if key[0] == "routes" and not any(values_a.values()) and not any(values_b.values()):
            continue  # never claimed in either run: nothing to compare
        tested.append((key, _test(values_a, values_b, paired)))
    ps = [t[5] for _, t in tested]
    adjusted = [float(p) for p in sps.false_discovery_control(ps)] if ps else []
    out = []
    for ((group, figure), t), p_adj in zip(tested, adjusted, strict=True):
        out.append(Difference(group, figure, t[0], t[1], t[2], t[3], t[4], t[5], p_adj, p_adj < ALPHA, t[6], t[7],
                              paired))
    return out


def comparison_json(differences: list[Difference], paired: bool) -> dict[str, Any]:
    """The comparison as one JSON object (`ttr report A B --json`)."""
    return {"format": "ttr-comparison/1", "paired": paired, "alpha": ALPHA, "correction": "benjamini-hochberg",
            "differences": [d.to_json() for d in differences],
            "real": [d.figure for d in differences if d.real]}
