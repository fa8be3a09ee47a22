"""Win rates and ratings from game results: the Wilson interval of a rate, Elo-scaled Bradley-Terry ratings
from a pairwise table (`ttr.sim.tournament.pairwise`) and their standard errors. Pure functions, no I/O."""

from __future__ import annotations

import math


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a rate `wins / n` (95% for z = 1.96)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo(table: list[list[list[float]]], iterations: int = 2000) -> list[float]:
    """Elo-scaled Bradley-Terry ratings (mean 1500) from a pairwise table, draws as half wins.

    Fitted with Hunter's MM iterations; each bot also plays one virtual draw against a 1500 anchor so a
    bot that never loses keeps a finite rating.
    """
    k = len(table)
    wins = [sum(table[a][b][0] + table[a][b][1] / 2 for b in range(k)) + 0.5 for a in range(k)]
    games = [[table[a][b][0] + table[a][b][1] + table[a][b][2] for b in range(k)] for a in range(k)]
    gamma = [1.0] * k
    for _ in range(iterations):
        new = []
        for a in range(k):
            denom = 1.0 / (gamma[a] + 1.0)  # the anchor
            denom += sum(games[a][b] / (gamma[a] + gamma[b]) for b in range(k) if b != a and games[a][b])
            new.append(wins[a] / denom)
        change = max(abs(x - y) / y for x, y in zip(new, gamma, strict=True))
        gamma = new
        if change < 1e-12:
            break
    logs = [400 * math.log10(g) for g in gamma]
    mean = sum(logs) / k
    return [1500 + x - mean for x in logs]


ELO_SCALE = 400 / math.log(10)  # Elo points per unit of a Bradley-Terry log-strength


def elo_errors(table: list[list[list[float]]], ratings: list[float]) -> list[float]:
    """The standard error of each rating of `elo(table)` (`ratings`), in Elo points: from the inverse of
    the Bradley-Terry model's information at the fitted strengths (each pair's games weigh p(1 - p), the
    virtual draw against the 1500 anchor included), for the ratings as centred on their mean. A 95%
    interval is about 1.96 of them either way."""
    k = len(table)
    cov = _covariance(table, ratings)
    return [_error(cov, [(1.0 if i == a else 0.0) - 1 / k for i in range(k)]) for a in range(k)]


def elo_difference_errors(table: list[list[list[float]]], ratings: list[float]) -> list[list[float]]:
    """The standard error of each difference of two ratings of `elo(table)`, `ratings[a] - ratings[b]` at
    `[a][b]` (0 on the diagonal), from the same information as `elo_errors`. Two bots differ significantly
    (at 5%) when their difference is more than 1.96 of these from 0; overlapping intervals of `elo_errors`
    do not show that they are level."""
    k = len(table)
    cov = _covariance(table, ratings)
    return [[0.0 if a == b else _error(cov, [(i == a) - (i == b) for i in range(k)]) for b in range(k)]
            for a in range(k)]


def _covariance(table: list[list[list[float]]], ratings: list[float]) -> list[list[float]]:
    """The covariance of the fitted log-strengths: the inverse of the Bradley-Terry information (anchor included)."""
    k = len(table)
    theta = [(r - 1500) / ELO_SCALE for r in ratings]  # log-strengths, mean 0
    info = [[0.0] * k for _ in range(k)]
    for a in range(k):
        p_anchor = 1 / (1 + math.exp(-theta[a]))
        info[a][a] += p_anchor * (1 - p_anchor)
        for b in range(k):
            if b == a:
                continue
            games = sum(table[a][b])
            if games:
                p = 1 / (1 + math.exp(theta[b] - theta[a]))
                w = games * p * (1 - p)
                info[a][a] += w
                info[a][b] -= w
    return _inverse(info)


def _error(cov: list[list[float]], c: list[float]) -> float:
    """The standard error, in Elo points, of the combination `c` of log-strengths with covariance `cov`."""
    k = len(c)
    var = sum(c[i] * cov[i][j] * c[j] for i in range(k) for j in range(k))
    return ELO_SCALE * math.sqrt(max(var, 0.0))


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small positive-definite matrix (Gauss-Jordan with partial pivoting)."""
    n = len(matrix)
    rows = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[n:] for row in rows]
