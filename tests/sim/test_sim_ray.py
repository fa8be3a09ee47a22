"""`ttr simulate --ray`: the same rows on a local Ray instance as in local processes."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttr.sim.rows import read_table
from ttr.sim.simulate import simulate, table_path
from ttr.sim.tournament import TournamentConfig

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'ttr-game[ray]')")


@pytest.fixture(scope="module")
def local_ray() -> object:
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except Exception as exc:  # pragma: no cover - depends on the machine
        pytest.skip(f"a local Ray instance could not start here: {exc}")
    yield ray
    ray.shutdown()


def test_ray_runs_the_same_games_as_local_processes(tmp_path: Path, local_ray: object) -> None:
    from ttr.sim.ray_runner import ray_runner

    config = TournamentConfig("new_york", 2, ("greedy", "random"), 4, 8, 2)
    assert simulate(config, tmp_path / "ray", runner=ray_runner("local"), with_records=True) == 4
    simulate(config, tmp_path / "local")
    rows = read_table(table_path(tmp_path / "ray", "parquet"))
    assert rows == read_table(table_path(tmp_path / "local", "parquet"))
    assert len(rows) == 8 and {r["bot"] for r in rows} == {"greedy", "random"}
    assert len(list((tmp_path / "ray" / "records").iterdir())) == 4
    assert ray.is_initialized()  # an instance started by the caller is left running
