"""`ttr replay`, `ttr score`, `ttr play` and `ttr bench`: records, positions, single games and engine speed."""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ttr.cli.console import engine_build, stdout_console
from ttr.cli.tournament_cmd import bot_names, check_config
from ttr.engine import Action, Game, final_score, full_state
from ttr.errors import TTRError
from ttr.maps import GameMap, load_map
from ttr.records import load_json, read_position, read_record, replay, score_position, write_record
from ttr.sim.tournament import TournamentConfig, play_seated


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the replay, score and bench sub-commands."""
    p = sub.add_parser("replay", help="replay a game record (ttr-record/1) and show the state after it")
    p.add_argument("record", help="path of a ttr-record/1 JSON file")
    p.add_argument("--json", action="store_true", help="print the state as JSON (docs/records.md)")
    p.set_defaults(run=run_replay)

    p = sub.add_parser("score", help="score an end-of-game board (ttr-position/1)")
    p.add_argument("position", help="path of a ttr-position/1 JSON file")
    p.add_argument("--json", action="store_true", help="print the breakdown as JSON (docs/records.md)")
    p.set_defaults(run=run_score)

    p = sub.add_parser("play", help="play one game (random moves, or bots) and show how it went")
    p.add_argument("--map", default="europe", help="map name or map file (default: europe)")
    p.add_argument("--players", type=int, default=3, help="number of seats (default: 3)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deal and of the seats' choices (default: 1)")
    p.add_argument("--bots", metavar="BOTS",
                   help="comma-separated bots, seat 1 first, repeated to fill the seats, e.g. mcts,greedy or "
                        "'cmd:python3 bot.py,easy' (default: uniformly random moves)")
    p.add_argument("--time-per-move", type=float, default=1.0, metavar="T",
                   help="seconds per decision for cmd: bots, plus 1 s of grace (default: 1.0; at most 600)")
    p.add_argument("--record", metavar="FILE", help="write the game's record (ttr-record/1) to FILE")
    p.add_argument("--log", action="store_true", help="print every action as it is played")
    p.set_defaults(run=run_play)

    p = sub.add_parser("bench", help="play N games of uniformly random legal actions and print the speed")
    p.add_argument("--map", default="europe", help="map name or map file (default: europe)")
    p.add_argument("--players", type=int, default=4, help="number of seats (default: 4)")
    p.add_argument("--games", type=int, default=100, help="number of games (default: 100)")
    p.add_argument("--seed", type=int, default=0, help="first game's seed; game i uses seed+i (default: 0)")
    p.add_argument("--record", metavar="PATH",
                   help="write the games' records: a file for one game, else a folder of game-NNNNN.json")
    p.set_defaults(run=run_bench)


def run_replay(args: argparse.Namespace) -> int:
    """Replay a record; exit 1 at the first illegal action."""
    result = replay(read_record(load_json(args.record)))
    state = result.to_json()
    if args.json:
        print(json.dumps(state, ensure_ascii=False, indent=1))
    else:
        _print_state(state, result.game.map)
    return 1 if result.error else 0


def run_score(args: argparse.Namespace) -> int:
    """Score a position."""
    position = load_json(args.position)
    final = score_position(position).to_json()
    if args.json:
        print(json.dumps(final, ensure_ascii=False, indent=1))
    else:
        _print_final(stdout_console(), final, read_position(position)[0])
    return 0


def run_play(args: argparse.Namespace) -> int:
    """One game of random moves or of `--bots`: the log (optional), the final board and scores, the record
    (optional)."""
    console = stdout_console()

    def show(game: Game, action: Action) -> None:
        if args.log:
            console.print(f"{game.players[game.current]}: {action}", highlight=False)

    if args.bots is None:
        game = Game.new(load_map(args.map), args.players, seed=args.seed)
        rng = random.Random(args.seed)
        while not game.is_over:
            ids = game.legal_ids()
            aid = ids[rng.randrange(len(ids))]
            show(game, game.decode(aid))
            game.apply_id(aid)
    else:
        game = _play_bots(args, show)
    if args.record:
        _write_json(Path(args.record), write_record(game))
        console.print(f"record written to {args.record}")
    _print_state(full_state(game), game.map)
    return 0


def _play_bots(args: argparse.Namespace, on_action: Callable[[Game, Action], None]) -> Game:
    """The game of `--bots` (checked first: names, map, seat count), seat s played by bot s mod len(bots)."""
    bots = bot_names(args)
    if len(bots) > args.players:
        raise TTRError(f"--bots: {len(bots)} bots for {args.players} seats")
    config = TournamentConfig(args.map, args.players, bots, 1, args.seed, time_per_move=args.time_per_move)
    check_config(config)
    game, _, _ = play_seated(config, 0, on_action)
    return game


def _write_json(path: Path, data: Any) -> None:
    try:
        path.write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise TTRError(f"cannot write {path}: {exc.strerror or exc}") from None


def run_bench(args: argparse.Namespace) -> int:
    """Random games as fast as the engine goes, listing the legal actions at every step."""
    if args.games < 1:
        raise TTRError("--games must be at least 1")
    game_map = load_map(args.map)
    record_dir: Path | None = None
    if args.record and args.games > 1:
        record_dir = Path(args.record)
        try:
            record_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise TTRError(f"--record: cannot make the folder {record_dir}: {exc.strerror or exc}") from None
    total_actions = 0
    start = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        game = Game.new(game_map, args.players, seed=seed)
        total_actions += play_random(game, random.Random(seed))
        final_score(game)
        if args.record:
            target = record_dir / f"game-{i + 1:05d}.json" if record_dir else Path(args.record)
            try:
                target.write_text(json.dumps(write_record(game), ensure_ascii=False) + "\n", encoding="utf-8")
            except OSError as exc:
                raise TTRError(f"--record: cannot write {target}: {exc.strerror or exc}") from None
    elapsed = time.perf_counter() - start
    print(f"engine: {engine_build()}")
    print(f"map: {game_map.name}")
    print(f"players: {args.players}")
    print(f"games: {args.games}")
    print(f"seconds: {elapsed:.3f}")
    print(f"games_per_second: {args.games / elapsed:.1f}")
    print(f"actions_per_second: {total_actions / elapsed:.0f}")
    print(f"mean_actions_per_game: {total_actions / args.games:.1f}")
    return 0


def play_random(game: Game, rng: random.Random) -> int:
    """Play uniformly random legal actions to the end; returns the number of actions."""
    count = 0
    legal = game.legal_ids
    apply = game.apply_unchecked
    randbelow = rng.randrange
    while not game.is_over:
        ids = legal()
        apply(ids[randbelow(len(ids))])
        count += 1
    return count


def _print_state(state: dict[str, Any], game_map: GameMap) -> None:
    """The state after a record or game, readable: whose turn, the face-up row, a line per player (the map's
    pieces, and stations where the map has them), then the final breakdown once the game is over."""
    console = stdout_console()
    error = state["error"]
    if error:
        console.print(f"[bold red]illegal action[/] at actions[{error['index']}]: {json.dumps(error['action'])}")
        console.print(f"  {error['message']}")
        console.print("state before that action:")
    turn = state["turn"]
    if turn:
        console.print(f"status: {state['status']}, player {turn['player']} to play ({turn['phase']})")
        if turn.get("tunnel_reveal") is not None:
            console.print(f"  tunnel: revealed {', '.join(turn['tunnel_reveal'])}")
        if turn.get("tickets_offered"):
            console.print(f"  tickets offered: {', '.join(turn['tickets_offered'])}")
    else:
        console.print(f"status: {state['status']}")
    face = ", ".join(c or "(empty)" for c in state["face_up"])
    console.print(f"face up: {face}; deck {state['deck_size']}, discard {state['discard_size']}, "
                  f"tickets {state['ticket_deck_size']}")
    stations = ["stations"] if "stations" in game_map.score_extras else []
    table = Table("player", "score", game_map.rules.piece_name, *stations, "hand", "tickets", "routes")
    for p in state["players"]:
        hand = " ".join(f"{k}:{v}" for k, v in p["hand"].items())
        table.add_row(p["name"], str(p["score"]), str(p["trains"]), *[str(p[k]) for k in stations], hand,
                      str(len(p["tickets"])), str(len(p["routes"])))
    console.print(table)
    if state["final"]:
        _print_final(console, state["final"], game_map)


def _print_final(console: Console, final: dict[str, Any], game_map: GameMap) -> None:
    """The final breakdown as a table, with the columns the map scores: stations and the longest-path bonus
    (Europe), tourist attractions (New York)."""
    extras = game_map.score_extras
    table = Table("player", "routes", "tickets", *extras, "total", title="final score")
    for p in final["players"]:
        done, failed = len(p["tickets_completed"]), len(p["tickets_failed"])
        express = f"{p['longest_path']} (+{p['express_bonus']})" if p["express_bonus"] else str(p["longest_path"])
        cells = {"stations": f"+{p['station_points']}", "express": express, "attractions": f"+{p['attractions']}"}
        table.add_row(p["name"], str(p["route_points"]), f"{p['ticket_points']:+d} ({done} done, {failed} failed)",
                      *[cells[k] for k in extras], str(p["total"]))
    console.print(table)
    for p in final["players"]:
        for city, route in p.get("borrowed_routes", {}).items():
            console.print(f"  {p['name']}'s station in {city} borrows {route or 'no route'}")
    console.print(f"winner(s): {', '.join(final['winners'])}")


