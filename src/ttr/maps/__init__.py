"""Maps as data: the shipped maps (`europe`, `new_york`, `usa`) and custom map files loaded by path."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ttr.errors import MapError
from ttr.maps.model import City, GameMap, Route, Rules, Ticket, dump_map_json, parse_map

BUILTIN_MAPS = ("europe", "new_york", "usa")

__all__ = ["BUILTIN_MAPS", "City", "GameMap", "Route", "Rules", "Ticket", "dump_map_json", "load_map",
           "parse_map"]


@lru_cache(maxsize=32)
def _load_builtin(name: str) -> GameMap:
    text = resources.files("ttr.maps").joinpath(f"{name}.json").read_text(encoding="utf-8")
    game_map = parse_map(json.loads(text), where=name)
    object.__setattr__(game_map, "origin", name)
    return game_map


def load_map(name_or_path: str) -> GameMap:
    """A shipped map by name (`europe`, `new_york`) or a map file by path."""
    if name_or_path in BUILTIN_MAPS:
        return _load_builtin(name_or_path)
    path = Path(name_or_path)
    try:
        if not path.suffix and not path.exists():
            raise MapError(f"unknown map {name_or_path!r}: give one of {', '.join(BUILTIN_MAPS)} or a map file path")
        text = path.read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path, or not UTF-8
        if isinstance(exc, MapError):
            raise
        reason = getattr(exc, "strerror", None) or exc
        raise MapError(f"cannot read map file {name_or_path!r}: {reason}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MapError(f"{name_or_path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    game_map = parse_map(data, where=str(path))
    object.__setattr__(game_map, "origin", str(path))
    return game_map
