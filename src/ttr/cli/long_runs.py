"""What the long-running commands (`ttr tournament`, `ttr simulate`) share: SIGTERM stopping them as
Ctrl-C does, and their results folder's refusals as clear errors."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

from ttr.errors import TTRError
from ttr.sim.run_folder import SettingsMismatchError


@contextlib.contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """Within the block, SIGTERM raises `KeyboardInterrupt` as Ctrl-C does (the finished games are kept)."""

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def folder_errors(option: str, folder: object) -> Iterator[None]:
    """A results folder that holds another run, or cannot be made or written, as a `TTRError` naming it."""
    try:
        yield
    except SettingsMismatchError as exc:
        raise TTRError(str(exc)) from None
    except OSError as exc:
        raise TTRError(f"{option}: cannot write {exc.filename or folder}: {exc.strerror or exc}") from None
