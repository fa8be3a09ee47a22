"""How long the server takes per action: from receiving it on the socket to the update being queued to
every connection of the game (stored, applied, every view built). Kept for the last `KEEP` actions."""

from __future__ import annotations

from collections import deque
from typing import Any

KEEP = 100_000


class ActionTimes:
    """A bounded record of per-action server times, in milliseconds."""

    def __init__(self, keep: int = KEEP) -> None:
        self._times: deque[float] = deque(maxlen=keep)
        self.total = 0  # actions accepted since the start (or the last reset)

    def add(self, ms: float) -> None:
        """Record one accepted action."""
        self._times.append(ms)
        self.total += 1

    def reset(self) -> None:
        """Start counting again."""
        self._times.clear()
        self.total = 0

    def summary(self) -> dict[str, Any]:
        """`{actions, p50, p90, p99, max}` (milliseconds; None with no action yet)."""
        ordered = sorted(self._times)

        def rank(q: float) -> float | None:
            if not ordered:
                return None
            return round(ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))], 3)

        return {"actions": self.total, "p50": rank(0.50), "p90": rank(0.90), "p99": rank(0.99),
                "max": round(ordered[-1], 3) if ordered else None}
