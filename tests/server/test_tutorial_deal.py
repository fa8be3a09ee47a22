"""The guided first game's deal (src/ttr/web/static/tutorial/europe.json) replayed in the engine with the
server's bot as the server plays it: every move the coach names is legal when it is named, and each step's
condition holds once its moves are played (a tunnel tried and paid, a ferry claimed, a station built), so the
coach's steps are all reachable from that deal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ttr.engine import Game, SeatView, public_log, seat_view
from ttr.maps import load_map
from ttr.server.bot_pool import choose_move, forget_game
from ttr.server.views import legal_json

TUTORIAL = Path(__file__).resolve().parents[2] / "src" / "ttr" / "web" / "static" / "tutorial" / "europe.json"


def step_done(game: Game, seat: int, done: dict[str, Any]) -> bool:
    """A step's `done` condition, as coach.js reads it."""
    if done.get("over"):
        return game.is_over
    if done.get("not_while") == game.phase_name and game.current == seat:
        return False
    if "owns" in done:
        kind = done["owns"]
        names = set(seat_view(game, seat)["players"][seat]["routes"])
        owned = [r for r in game.map.routes if r.name in names]
        return sum(1 for r in owned if (r.ferry_locomotives if kind == "ferry" else r.tunnel)) >= done["count"]
    entries = [e for e in public_log(game, seat) if e["player"] == seat and e["action"] in done["log"]
               and ("with" not in done or done["with"] in e)]
    return len(entries) >= done["count"]


def bot_moves(game: Game, seed: int, level: str, seat: int) -> None:
    """Let the bots move until it is `seat`'s turn (or the game is over), as the server's bot loop does: each
    seat's bot kept across its moves, made with the game's seed."""
    while not game.is_over and game.current != seat:
        view = SeatView.of(game, game.current)
        ids, actions, _ = legal_json(game)
        index = choose_move(f"tutorial-{seed}", level, game.map.name, game.current, seed, view, list(actions))
        game.apply_id(ids[index])


def test_every_step_of_the_guided_game_is_reachable_from_its_deal() -> None:
    doc = json.loads(TUTORIAL.read_text(encoding="utf-8"))
    game = Game.new(load_map(doc["map"]), ["You", "easy bot 2"], seed=doc["seed"])
    forget_game(f"tutorial-{doc['seed']}")  # bots kept from an earlier game of this process start afresh
    seat = 0
    shown: list[str] = []
    for step in doc["steps"]:
        if step["moves"]:
            assert not step_done(game, seat, step["done"]), f"step {step['id']} is done before its moves"
        for move in step["moves"]:
            bot_moves(game, doc["seed"], doc["bot"], seat)
            ids, actions, _ = legal_json(game)
            forms = [a.to_json() for a in actions]
            assert move in forms, f"step {step['id']}: {move} is not legal at move {len(game.history)}"
            game.apply_id(ids[forms.index(move)])
        if step["moves"]:
            assert step_done(game, seat, step["done"]), f"step {step['id']} is not done after its moves"
            shown.append(step["id"])
    assert shown == ["tickets", "draw", "claim", "more_tickets", "tunnel", "ferry", "station"]
    tunnel = next(s for s in doc["steps"] if s["id"] == "tunnel")
    assert tunnel["moves"][-1]["action"] == "pay_tunnel"  # the revealed cards cost more, and it is paid
    assert doc["steps"][-1]["id"] == "final" and doc["steps"][-1]["done"] == {"over": True}
