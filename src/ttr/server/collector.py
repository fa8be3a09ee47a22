"""The garbage collector under a server's load: each collection's pause measured, and the objects that live
on (modules, maps, the games in memory) kept out of the collector's scans.

A full collection scans every tracked object: with 1,000 games in memory that is a pause of 100 ms or more
on the event loop, which every socket waits for. `Collector.freeze_loop` moves the objects alive at start
and then every `freeze_every` seconds to the collector's permanent generation (`gc.freeze()`), so a
collection scans only what was made since; every `sweep_every` seconds it puts them back and collects once
in full, so a reference cycle that died after it was frozen is freed within that time.
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

from prometheus_client import Histogram


class Collector:
    """Counts the collector's pauses per generation (and into `histogram`), and freezes on request."""

    def __init__(self, histogram: Histogram | None = None) -> None:
        self._histogram = histogram
        self._started = 0.0
        self._started_cpu = 0.0
        self._cpu = [0.0, 0.0, 0.0]
        self._counts = [0, 0, 0]
        self._total = [0.0, 0.0, 0.0]
        self._max = [0.0, 0.0, 0.0]
        self._freed = [0, 0, 0]
        self.sweeps = 0  # full collections with nothing frozen

    def install(self) -> None:
        """Start measuring (a callback in `gc.callbacks`)."""
        if self._callback not in gc.callbacks:
            gc.callbacks.append(self._callback)

    def remove(self) -> None:
        """Stop measuring."""
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started, self._started_cpu = time.perf_counter(), time.thread_time()
            return
        took = time.perf_counter() - self._started
        gen = int(info.get("generation", 0))
        self._cpu[gen] += time.thread_time() - self._started_cpu
        self._counts[gen] += 1
        self._total[gen] += took
        self._max[gen] = max(self._max[gen], took)
        self._freed[gen] += int(info.get("collected", 0))
        if self._histogram is not None:
            self._histogram.labels(generation=str(gen)).observe(took)

    def reset(self) -> None:
        """Start counting again."""
        self._counts, self._freed = [0, 0, 0], [0, 0, 0]
        self._total, self._max, self._cpu = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]

    def summary(self) -> dict[str, Any]:
        """`{collections, total_ms, max_ms, cpu_ms, freed}` per generation ("0", "1", "2"), `frozen` and
        `sweeps` (`total_ms`, `max_ms`: wall time, waits for a CPU included; `cpu_ms`: the collector's CPU)."""
        out: dict[str, Any] = {str(g): {"collections": self._counts[g], "total_ms": round(self._total[g] * 1000, 1),
                                        "max_ms": round(self._max[g] * 1000, 1),
                                        "cpu_ms": round(self._cpu[g] * 1000, 1), "freed": self._freed[g]}
                               for g in range(3)}
        out["frozen"], out["sweeps"] = gc.get_freeze_count(), self.sweeps  # the count walks the list: here only
        return out

    def freeze(self) -> None:
        """Move every object alive now out of the collector's scans (`gc.freeze()`)."""
        gc.freeze()  # a splice of the collector's lists: no walk over the objects

    def sweep(self) -> None:
        """Collect everything once, frozen objects included, then freeze what lives on."""
        gc.unfreeze()
        gc.collect()
        self.sweeps += 1
        self.freeze()

    async def freeze_loop(self, freeze_every: float, sweep_every: float) -> None:
        """Until cancelled: freeze now and every `freeze_every` seconds, sweep every `sweep_every` seconds."""
        self.freeze()
        swept = time.monotonic()
        try:
            while True:
                await asyncio.sleep(freeze_every)
                if time.monotonic() - swept >= sweep_every:
                    self.sweep()
                    swept = time.monotonic()
                else:
                    self.freeze()
        finally:
            gc.unfreeze()
