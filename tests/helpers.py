"""Scenario helpers for tests: set up exact positions while keeping every card and ticket accounted for; and
interrupting a command line run."""

from __future__ import annotations

import importlib.util
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from ttr.bots.playout import GreedyPlayout
from ttr.engine import Action, Game, positions
from ttr.engine.phases import MAIN
from ttr.maps import GameMap, load_map


def new_game(map_name: str = "europe", players: int = 2, seed: int = 0) -> Game:
    """A dealt game, still in the setup ticket choice."""
    return Game.new(load_map(map_name), players, seed=seed)


def skip_setup(game: Game) -> Game:
    """Every seat keeps all its starting tickets; the game is then at seat 0's first turn."""
    while game.phase != MAIN:
        names = [game.map.tickets[t].name for t in game.offered]
        game.apply(Action("keep_tickets", tickets=tuple(names)))
    return game


def started(map_name: str = "europe", players: int = 2, seed: int = 0) -> Game:
    """A game past setup, at seat 0's first turn."""
    return skip_setup(new_game(map_name, players, seed))


def greedy_main_turn(map_name: str, players: int, seed: int, seat: int, after: int = 0) -> tuple[GameMap, Game]:
    """A greedy game of `seed` played on to a main turn of `seat` with at least `after` actions behind it."""
    game_map = load_map(map_name)
    game = Game.new(game_map, players, seed=seed)
    playout = GreedyPlayout(game_map, players, seed)
    while game.phase != MAIN or game.current != seat or len(game.history) < after:
        game.apply_unchecked(playout.choose_id(game))
    return game_map, game


def _pull(game: Game, card: int, dest: positions.Place) -> None:
    """Move one card of this type out of the deck (or the discard pile, or another seat's hand) to `dest`."""
    others = [positions.hand(seat) for seat in range(game.n) if seat != game.current]
    try:
        positions.move_card(game, card, [positions.DECK, positions.DISCARD, *others], dest)
    except ValueError:
        raise AssertionError(f"no spare {game.map.card_names[card]} card to move") from None


def empty_hand(game: Game, seat: int) -> None:
    """Move all of a seat's cards to the discard pile."""
    positions.move_cards(game, positions.hand(seat), positions.DISCARD)


def set_hand(game: Game, seat: int, cards: dict[str, int]) -> None:
    """Give `seat` exactly these cards (the old hand goes to the discard pile first)."""
    empty_hand(game, seat)
    for name, count in cards.items():
        card = game.map.card(name)
        for _ in range(count):
            _pull(game, card, positions.hand(seat))


def stack_deck(game: Game, top: list[str]) -> None:
    """Put these cards on top of the deck, first name on the very top."""
    others = [positions.hand(seat) for seat in range(game.n) if seat != game.current]
    try:
        positions.stack_deck(game, [game.map.card(name) for name in top], [positions.DECK, positions.DISCARD, *others])
    except ValueError as exc:
        raise AssertionError(str(exc)) from None


def set_face_up(game: Game, row: list[str]) -> None:
    """Make the face-up row exactly these cards (the old row goes back into the deck's bottom)."""
    for i, card in enumerate(game.face_up):
        if card >= 0:
            positions.move_card(game, card, positions.row(i), positions.DECK_BOTTOM)
    for i, name in enumerate(row):
        _pull(game, game.map.card(name), positions.row(i))


def give_route(game: Game, seat: int, route_name: str) -> None:
    """Mark a route as claimed by `seat` (pieces and points as a claim would), without cards."""
    positions.give_route(game, seat, game.map.route(route_name).index)


def set_tickets(game: Game, seat: int, tickets: list[str]) -> None:
    """Make `seat` keep exactly these tickets (by name): the ones it kept go to the ticket deck's bottom, these
    come from the ticket deck or the seat that kept them."""
    for t in list(game.tickets[seat]):
        positions.move_ticket(game, t, positions.TICKET_DECK)
    for name in tickets:
        positions.move_ticket(game, game.map.ticket(name).index, positions.held(seat))


def card_total(game: Game) -> int:
    """Every train card in the game: deck, discard, face-up row, hands, a pending tunnel."""
    tunnel = 0
    if game.t_route >= 0:
        tunnel = game.map.routes[game.t_route].length + len(game.t_revealed)
    return (game.deck_size + len(game.discard) + sum(1 for c in game.face_up if c >= 0)
            + sum(sum(h) for h in game.hands) + tunnel)


REPO = Path(__file__).resolve().parents[1]


def load_module(relative_path: str, name: str) -> ModuleType:
    """A file of the repository that is not in a package (a script, an example), loaded as module `name`."""
    spec = importlib.util.spec_from_file_location(name, REPO / relative_path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look a module up by its name
    spec.loader.exec_module(module)
    return module


def interrupt_after(args: list[str], env: dict[str, str], log: Path, lines: int = 2,
                    sig: signal.Signals = signal.SIGINT) -> tuple[int, str, str]:
    """Run a command, send it `sig` once its progress `log` holds `lines` lines; its exit code, standard output
    and standard error. SIGINT goes to its whole process group, as a terminal's Ctrl-C does (the main process
    and its workers); another signal to the main process only, as `kill` does."""
    # A child inherits an ignored SIGINT, and in full pytest-xdist runs the test process has been seen to
    # ignore it: start the child as a terminal would, with Ctrl-C live (a Python handler becomes the default
    # in the child).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if log.exists() and log.read_text().count("\n") >= lines:
            break
        time.sleep(0.05)
    if proc.poll() is None:
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


# A program that logs each message it gets (type, and its process id) to the file named by argv[1], and
# answers every decision with the first legal action.
LOGGING_BOT = r'''
import json, os, sys
log = open(sys.argv[1], "a", encoding="utf-8")
for line in sys.stdin:
    message = json.loads(line)
    entry = {"type": message["type"], "pid": os.getpid()}
    if message["type"] == "hello":
        entry.update(seat=message["seat"], map=message["map"], time_per_move=message["time_per_move"])
        print(json.dumps({"type": "ready", "name": "logger"}), flush=True)
    elif message["type"] == "decide":
        view = message["view"]
        entry["own_hand"] = "hand" in view["players"][view["seat"]]
        entry["others_hidden"] = all("hand" not in p and "tickets" not in p
                                     for i, p in enumerate(view["players"]) if i != view["seat"])
        print(json.dumps({"index": 0}), flush=True)
    elif message["type"] == "end":
        entry["winners"] = message["final"]["winners"]
    log.write(json.dumps(entry) + "\n")
    log.flush()
    if message["type"] == "end":
        break
'''


def logging_program(folder: Path) -> tuple[str, Path]:
    """A `ttr-bot/1` program that logs every message it gets (`LOGGING_BOT`): its command, and its log file."""
    script = folder / "logging_bot.py"
    script.write_text(LOGGING_BOT, encoding="utf-8")
    log = folder / "messages.jsonl"
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(log))}", log


def policy_of(bot: Any) -> Any:
    """The greedy policy (`ttr.bots.styles.Policy`: preset and behaviour) a greedy bot plays."""
    from ttr.bots.denial import DenyingBot
    from ttr.bots.styles import Policy

    return Policy(bot.preset, isinstance(bot, DenyingBot))
