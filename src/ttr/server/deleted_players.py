"""A deleted account's finished games show "a deleted player": its name leaves them. Each of its seats in a
finished (or abandoned) game is renamed "Player N" (N: the seat's number, made unique in the game) in the
game's row, with the seat in the game's `deleted_seats` (its `extra`), and in the game's chat; the seat
lists of the API and the socket then carry `deleted: true` (`ttr.server.views.seats_json`), which the page
shows as "a deleted player" in its language, wherever it shows the name (lobby, game, replay, profiles).
Records and replays are rebuilt from the renamed seats. Running games keep the name until they end.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ttr.server import chat
from ttr.server.store import RUNNING

if TYPE_CHECKING:
    from ttr.server.online import Online
    from ttr.server.room import Room

log = logging.getLogger("ttr.server")

NOTICE = "forget"  # other servers drop their copy of a renamed finished game (read again when asked for)
DELETED_SEATS = "deleted_seats"  # the key of a game's `extra` listing the seats of deleted accounts


def neutral_name(seat: int, others: set[str]) -> str:
    """The name a deleted account's seat takes: "Player N", or "Player N (2)"... when another seat has it."""
    base = name = f"Player {seat + 1}"
    n = 2
    while name in others:
        name = f"{base} ({n})"
        n += 1
    return name


async def forget_names(online: Online, account_id: str) -> int:
    """Rename the account's seats in its finished games; how many seats were renamed."""
    manager = online.manager
    renamed = 0
    for game_id, seat in await online.db(online.store.account_seats, account_id, 100_000):
        info = await manager.db(manager.store.get_game, game_id)
        if info is None or info.status == RUNNING or seat >= len(info.seats):
            continue
        others = {s.name for i, s in enumerate(info.seats) if i != seat}
        name = neutral_name(seat, others)
        info.seats[seat].name = name
        info.extra[DELETED_SEATS] = sorted({*info.extra.get(DELETED_SEATS, []), seat})
        await manager.db(manager.store.set_seats, game_id, info.seats, info.extra)
        await online.db(online.store.rename_chat, game_id, seat, name)
        forget_room(online, game_id)
        manager.cluster.notify(f"{NOTICE}|{game_id}")
        renamed += 1
    if renamed:
        log.info("a deleted account's name left %d seats of finished games", renamed)
    return renamed


def forget_room(online: Online, game_id: str) -> None:
    """Drop this server's copy of a finished game (it is read again, renamed, when next asked for); the
    sockets watching it get it again at once, with the new names."""
    chat.history(online).forget(game_id)  # its messages renamed too
    room = online.manager.rooms.get(game_id)
    if room is not None and room.game.is_over:
        del online.manager.rooms[game_id]
        if room.conns:
            online.spawn(_reopen(online, room))


async def _reopen(online: Online, old: Room) -> None:
    """Move the sockets of a dropped copy of a game onto the game read again, each sent its new snapshot."""
    manager = online.manager
    room = await manager.room(old.info.id)
    if room is None:
        return
    for conn in list(old.conns):
        if conn.room is old:
            old.conns.discard(conn)
            conn.room = None  # not a leave: the socket stays, on its seat (checked when it joined)
            await manager.join(conn, room, None, conn.seat)


def noticed(online: Online, parts: list[str]) -> None:
    """Another server renamed a finished game's seats."""
    if parts:
        forget_room(online, parts[0])
