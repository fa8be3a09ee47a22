"""`scripts/bench_worlds.py`: it times the search's world sampling at positions of greedy games, and the same
seed deals the same worlds (equal digests)."""

from __future__ import annotations

from helpers import load_module


def test_the_world_benchmark_finds_positions_and_deals_the_same_worlds_for_the_same_seed() -> None:
    script = load_module("scripts/bench_worlds.py", "bench_worlds")
    found = script.positions("europe", 2, 1, 3)
    assert [len(g.history) >= after for g, after in zip(found, script.AFTER, strict=False)] == [True] * len(found)
    assert all(g.current == 0 and not g.is_over for g in found) and len(found) == 3
    ms, count, digest = script.bench("europe", 2, 1, 3, 3)
    assert ms > 0 and count == 3
    assert script.bench("europe", 2, 1, 3, 3)[2] == digest
    assert script.bench("europe", 2, 1, 3, 4)[2] != digest
