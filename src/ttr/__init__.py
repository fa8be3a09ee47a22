"""ttr: Ticket to Ride Europe and New York.

`__version__` (read when first asked for) is the installed distribution's version (`ttr-game`, set in
pyproject.toml, its one place); in a source checkout (src/ttr beside pyproject.toml) it is read from that
checkout's pyproject.toml.
"""

from __future__ import annotations

DISTRIBUTION = "ttr-game"  # the name on PyPI: `pip install ttr-game`; the import name and the command are `ttr`


def _version() -> str:
    """The version of the installed distribution, or of the source checkout this package lies in."""
    from pathlib import Path

    here = Path(__file__).resolve().parent
    pyproject = here.parent.parent / "pyproject.toml"
    if pyproject.is_file() and (here.parent.name == "src"):  # a source checkout: its own pyproject.toml
        import tomllib

        try:
            with pyproject.open("rb") as f:
                project = tomllib.load(f).get("project", {})
            if project.get("name") == DISTRIBUTION and isinstance(project.get("version"), str):
                return str(project["version"])
        except (OSError, tomllib.TOMLDecodeError):
            pass
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "0+unknown"


def install_hint(extra: str) -> str:
    """The command that installs one of the package's extras, e.g. `pip install 'ttr-game[server]'`."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def __getattr__(name: str) -> str:
    """`ttr.__version__`, read when first asked for (importing `ttr` stays cheap: bot workers import it)."""
    if name == "__version__":
        value = globals()["__version__"] = _version()
        return value
    raise AttributeError(f"module 'ttr' has no attribute {name!r}")

__all__ = ["DISTRIBUTION", "__version__", "install_hint"]
