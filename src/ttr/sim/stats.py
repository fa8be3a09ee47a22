"""Statistics of simulation rows (`ttr.sim.rows.COLUMNS`): per bot, per seat, per ticket, per route.

Pure functions over the list of row dicts; the report (`ttr.sim.report`) draws them. Rates carry 95%
Wilson intervals (`ttr.sim.ratings.wilson`).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from ttr.sim.ratings import wilson

Row = dict[str, Any]


@dataclass(frozen=True)
class Rate:
    """`hits` out of `n`, with the rate and its 95% Wilson interval."""

    hits: float
    n: int

    @property
    def rate(self) -> float:
        """hits / n (0 when n is 0)."""
        return self.hits / self.n if self.n else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        """The 95% Wilson interval."""
        return wilson(self.hits, self.n)


def games(rows: list[Row]) -> dict[int, list[Row]]:
    """The rows grouped by game, each game's rows in seat order."""
    out: dict[int, list[Row]] = defaultdict(list)
    for row in rows:
        out[row["game"]].append(row)
    for seats in out.values():
        seats.sort(key=lambda r: r["seat"])
    return dict(sorted(out.items()))


def bots(rows: list[Row]) -> list[str]:
    """The bot labels in order of first appearance."""
    return list(dict.fromkeys(row["bot"] for row in rows))


def mean(values: list[float]) -> float:
    """The mean (0 for no values)."""
    return sum(values) / len(values) if values else 0.0


def stdev(values: list[float]) -> float:
    """The sample standard deviation (0 for fewer than 2 values)."""
    if len(values) < 2:
        return 0.0
    m = mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def per_bot(rows: list[Row]) -> list[dict[str, Any]]:
    """Per bot: seats played, win rate (shared wins split), scores, tickets, stations, European Express,
    tourist attractions."""
    out = []
    for bot in bots(rows):
        mine = [r for r in rows if r["bot"] == bot]
        scores = [float(r["score"]) for r in mine]
        done = sum(r["tickets_completed"] for r in mine)
        failed = sum(r["tickets_failed"] for r in mine)
        out.append({
            "bot": bot, "seats": len(mine), "wins": Rate(sum(r["win_share"] for r in mine), len(mine)),
            "mean_score": mean(scores), "sd_score": stdev(scores), "scores": scores,
            "tickets_completed": done / len(mine), "tickets_failed": failed / len(mine),
            "ticket_completion": Rate(done, done + failed),
            "stations_built": mean([float(r["stations_built"]) for r in mine]),
            "stations_hist": Counter(r["stations_built"] for r in mine),
            "express": Rate(sum(1 for r in mine if r["express_bonus"] > 0), len(mine)),
            "longest_path": mean([float(r["longest_path"]) for r in mine]),
            "attractions": mean([float(r["attractions"]) for r in mine]),
            "attractions_hist": Counter(r["attractions"] for r in mine),
            "routes_claimed": mean([float(r["routes_claimed"]) for r in mine]),
        })
    return out


def per_seat(rows: list[Row]) -> list[dict[str, Any]]:
    """Per seat (0 moves first): win rate with its interval, scores, and the rate a fair game would give."""
    players = max((r["players"] for r in rows), default=0)
    out = []
    for seat in range(players):
        mine = [r for r in rows if r["seat"] == seat]
        out.append({"seat": seat, "wins": Rate(sum(r["win_share"] for r in mine), len(mine)),
                    "scores": [float(r["score"]) for r in mine], "mean_score": mean([float(r["score"]) for r in mine]),
                    "fair": 1 / players})
    return out


def tickets(rows: list[Row], names: list[str]) -> list[dict[str, Any]]:
    """Per ticket of the map: how often it was held (kept) and completed, with the completion rate."""
    held: Counter[str] = Counter()
    done: Counter[str] = Counter()
    for row in rows:
        for name in _split(row["tickets_completed_names"], ";"):
            held[name] += 1
            done[name] += 1
        for name in _split(row["tickets_failed_names"], ";"):
            held[name] += 1
    return [{"ticket": t, "held": held[t], "completion": Rate(done[t], held[t])} for t in names]


def routes(rows: list[Row], count: int) -> tuple[list[float], list[float]]:
    """Per route index: the share of games it was claimed in, and the share in which it was contested."""
    n = len(games(rows))
    claimed = [0] * count
    contested = [0] * count
    for row in rows:
        for r in _split(row["route_ids"], " "):
            claimed[int(r)] += 1
        for r in _split(row["contested_routes"], " "):
            contested[int(r)] += 1
    return [c / n if n else 0.0 for c in claimed], [c / n if n else 0.0 for c in contested]


def lengths(rows: list[Row]) -> list[int]:
    """Turns per game (after the setup ticket choices)."""
    return [seats[0]["turns"] for seats in games(rows).values()]


def express_and_stations(rows: list[Row]) -> dict[str, Any]:
    """Games where the European Express (longest path bonus) went to a tie; stations built and routes borrowed."""
    grouped = games(rows)
    shared = sum(1 for seats in grouped.values() if sum(1 for r in seats if r["express_bonus"] > 0) > 1)
    built = sum(r["stations_built"] for r in rows)
    borrowed = sum(len(_split(r["borrowed_routes"], ";")) for r in rows)
    return {"games": len(grouped), "express_shared": shared, "stations_built": built, "borrowed": borrowed,
            "seats_with_station": Rate(sum(1 for r in rows if r["stations_built"] > 0), len(rows))}


def _split(text: str, sep: str) -> list[str]:
    return [part for part in text.split(sep) if part] if text else []
