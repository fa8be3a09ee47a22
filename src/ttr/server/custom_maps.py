"""Custom maps on the server: a map file sent by the map editor, checked, named by its content and kept with
every game played on it, so the game (and its replay) loads after a restart.

A custom map is named ``custom-`` and the first 16 hex digits of the SHA-256 of its JSON (keys sorted), so
the same file always gets the same name. A game on it stores the file's text in its `extra` field
(`map_json`); `game_map_for` registers it again from there when the game is loaded. Bots and hints run in
worker processes, which know only what they are sent: `worker_ref` gives them the path of a copy of the
file (`ttr.maps.load_map` reads a path as it reads a shipped name).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

from ttr.errors import MapError
from ttr.maps import BUILTIN_MAPS, GameMap, load_map, parse_map
from ttr.server.config import ApiError
from ttr.server.store import GameInfo

PREFIX = "custom-"
MAX_CUSTOM = 256  # custom maps kept in memory at once (each game keeps its own text in the store)
EXTRA_KEY = "map_json"

_lock = threading.Lock()
_maps: dict[str, GameMap] = {}
_texts: dict[str, str] = {}


def _cache_dir() -> Path:
    path = Path(tempfile.gettempdir()) / f"ttr-custom-maps-{os.getuid() if hasattr(os, 'getuid') else 0}"
    path.mkdir(mode=0o700, exist_ok=True)
    return path


def is_custom(name: str) -> bool:
    """Whether `name` is a custom map's name (``custom-`` and 16 hex digits)."""
    tail = name[len(PREFIX):]
    return name.startswith(PREFIX) and len(tail) == 16 and all(c in "0123456789abcdef" for c in tail)


def register(data: Any) -> tuple[str, GameMap]:
    """Check a map file's parsed JSON and keep it: its name and the loaded map. `ApiError` (400, `bad_map`)
    lists every problem of a map that does not load."""
    try:
        text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        raise ApiError(400, "bad_map", "the map is not JSON data") from None
    name = PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    with _lock:
        if name in _maps:
            return name, _maps[name]
    try:
        game_map = parse_map(data, where="map")
    except MapError as exc:
        raise ApiError(400, "bad_map", str(exc)) from None
    path = _cache_dir() / f"{name}.json"
    if not path.exists():
        temp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
        temp.write_text(text, encoding="utf-8")
        temp.replace(path)
    with _lock:
        if len(_maps) >= MAX_CUSTOM:
            oldest = next(iter(_maps))
            _maps.pop(oldest)
            _texts.pop(oldest, None)
        _maps[name] = game_map
        _texts[name] = text
    return name, game_map


def known(name: str) -> bool:
    """Whether a game may be created on `name`: a shipped map, or a custom map registered here."""
    return name in BUILTIN_MAPS or (is_custom(name) and name in _maps)


def resolve(name: str) -> GameMap:
    """A shipped map or a registered custom map; `ApiError` 404 for any other name."""
    if name in BUILTIN_MAPS:
        return load_map(name)
    with _lock:
        game_map = _maps.get(name) if is_custom(name) else None
    if game_map is None:
        raise ApiError(404, "not_found", f"unknown map {name[:40]!r} (maps: {', '.join(BUILTIN_MAPS)}, or a custom "
                       "map sent to POST /api/maps/custom)")
    return game_map


def extra_for(name: str) -> dict[str, Any]:
    """What a new game on `name` stores besides the map's name: a custom map's text."""
    if name in BUILTIN_MAPS:
        return {}
    with _lock:
        return {EXTRA_KEY: _texts[name]}


def game_map_for(info: GameInfo) -> GameMap:
    """The map of a stored game: a shipped one by name, a custom one from the text the game keeps."""
    if info.map not in BUILTIN_MAPS and EXTRA_KEY in info.extra:
        with _lock:
            have = info.map in _maps
        if not have:
            register(json.loads(info.extra[EXTRA_KEY]))
    return resolve(info.map)


def worker_ref(name: str) -> str:
    """What a bot worker loads the map by: a shipped map's name, or the path of a custom map's copy."""
    if name in BUILTIN_MAPS:
        return name
    path = _cache_dir() / f"{name}.json"
    if not path.exists():  # a cleaned temporary folder: write it again
        with _lock:
            text = _texts.get(name)
        if text is not None:
            path.write_text(text, encoding="utf-8")
    return str(path)
