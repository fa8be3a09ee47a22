"""The search's decision gate: when a candidate is played instead of the guide's move.

A candidate whose gains over the guide's move (one per world, common random numbers) sum to `gain` and
square-sum to `square` over `k` worlds is played only when it is better by `margin` points on average, in at
least `min_worlds` worlds, and significantly: a one-sided paired t-test at about 5% (`t_critical`). The
search mostly catches the guide's mistakes.
"""

from __future__ import annotations

import math


def t_critical(dof: int) -> float:
    """About the one-sided 95% point of Student's t with `dof` degrees of freedom (within 0.14 from 2 up:
    2.90 for 2.92 at 2, 1.90 for 1.81 at 10)."""
    return 1.645 + 2.5 / dof if dof > 0 else math.inf


def clearly_better(gain: float, square: float, k: int, margin: float, min_worlds: int) -> bool:
    """Whether gains summing to `gain` (squares to `square`) over `k` worlds pass the gate (see the module)."""
    if k < min_worlds:
        return False
    mean = gain / k
    if mean < margin:
        return False
    error = math.sqrt(max(0.0, square / k - mean * mean) / (k - 1))
    return mean >= t_critical(k - 1) * error
