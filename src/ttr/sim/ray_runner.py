"""Simulations on a Ray cluster (`ttr simulate --ray ADDRESS`, optional extra `ttr[ray]`).

Each game is one Ray task running `ttr.sim.simulate.play_rows`, so the rows are those of a local run.
`ADDRESS` is `local` (start a Ray instance on this machine with `--jobs` CPUs, stopped at the end), `auto`
(the cluster this machine belongs to) or `HOST:PORT`/`ray://HOST:PORT`. On a remote cluster the `ttr`
package is shipped to the workers with the job (`runtime_env` `py_modules`). If Ray is already initialised
in this process, that instance is used and left running.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ttr
from ttr.sim.simulate import GameOutput, Runner, play_rows
from ttr.sim.tournament import TournamentConfig


def ray_available() -> bool:
    """Whether Ray can be imported here."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


class RayConnectError(ValueError):
    """Ray could not start, or could not reach the cluster at the address given."""


def connect(address: str, cpus: int) -> bool:
    """Start (`local`) or join (`auto`, `HOST:PORT`) Ray unless it is running in this process already.

    Returns whether this call started it (then the caller shuts it down). `RayConnectError` says why not.
    """
    import ray

    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    try:
        if address == "local":
            ray.init(num_cpus=max(1, cpus), **kwargs)
        else:
            env = {"py_modules": [str(Path(ttr.__file__).parent)]}
            ray.init(address=address, runtime_env=env, **kwargs)
    except (ConnectionError, RuntimeError, ValueError, OSError) as exc:
        raise RayConnectError(f"--ray {address}: cannot start or reach Ray ({exc})") from None
    return True


def ray_runner(address: str) -> Runner:
    """A runner (see `ttr.sim.simulate.simulate`) that plays the games as Ray tasks."""

    def run(config: TournamentConfig, indexes: list[int], with_records: bool) -> Iterator[GameOutput]:
        import ray

        started = connect(address, config.jobs)
        remote: Any = ray.remote(play_rows)
        pending = [remote.remote(config, i, with_records) for i in indexes]
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                result: GameOutput = ray.get(ready[0])
                yield result
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
            if started:
                ray.shutdown()

    return run
