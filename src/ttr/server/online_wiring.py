"""The online features wired into the app: `install_online(app, manager)` opens the online store beside the
game store, adds the routers of accounts (`ttr.server.accounts`), ratings and leaderboards
(`ttr.server.ratings`), profiles (`ttr.server.profiles`), the chat (`ttr.server.chat`), matchmaking and open
tables, and hooks the clocks and the chat into the game manager. The features share `ttr.server.online`;
only this module imports them all.
"""

from __future__ import annotations

from fastapi import FastAPI

from ttr.server import accounts, chat, clocks, deleted_players, matchmaking, open_games, profiles, ratings
from ttr.server.config import OnlineSettings
from ttr.server.connection import Connection
from ttr.server.online import Online
from ttr.server.online_store import OnlineStore
from ttr.server.rooms import GameManager


def install_online(app: FastAPI, manager: GameManager, settings: OnlineSettings | None = None) -> Online:
    """Open the online store beside the game store, add the online routers to `app` and hook the game
    manager (results and ratings of finished games); `app.state.online` is the result."""
    online = Online(manager, OnlineStore.beside(manager.store), settings)
    app.state.online = online
    app.include_router(accounts.router(online))
    app.include_router(ratings.router(online))
    app.include_router(profiles.router(online))
    app.include_router(chat.router(online))
    app.include_router(matchmaking.router(online))
    app.include_router(open_games.router(online))
    manager.finish_hooks.append(lambda room: ratings.game_finished(online, room))
    timing = clocks.Clocks(online)
    online.clocks = timing
    manager.parse_clock = lambda raw: clocks.parse_clock(raw, online.settings)
    manager.bot_hooks.append(timing.bot_level)
    manager.action_hooks.append(timing.after_action)
    manager.owner_hooks.append(timing.taken_up)
    manager.forget_hooks.append(timing.forget)
    manager.notice_hooks[clocks.NOTICE] = timing.noticed
    manager.notice_hooks[chat.NOTICE] = lambda parts: chat.noticed(online, parts)
    manager.notice_hooks[deleted_players.NOTICE] = lambda parts: deleted_players.noticed(online, parts)

    async def chat_and_clock(conn: Connection) -> None:
        await chat.after_join(online, conn)
        if conn.room is not None:
            timing.joined(conn.room, conn)

    online.join_hooks.append(chat_and_clock)
    return online


__all__ = ["install_online"]
