#!/usr/bin/env python3
"""What the search's departures from its guide are worth: `research/departures.py MAP [--games N] [--seed S]`.

Plays `mcts` against greedy seats (the tournament's deals and seats: the searched seat is `-seed mod
players`). Each time the search plays another move than its guide's, the script values that move against
the guide's on fresh worlds, twice:

- *fresh*: worlds sampled as the search samples them (its belief about the other seats' tickets), but
  not the worlds that chose the move. The search's own value of the move, read on the worlds that chose
  it among several candidates, is flattered by that choice (the winner's curse); the fresh value is not.
- *real*: the same worlds with every other seat's real tickets put in (a measurement only the script can
  make: it reads the hidden game). The gap between fresh and real is what the belief gets wrong.

It prints, per kind of departure (the guide's move kind, then the search's), how many there were and the
mean gain in points of final margin by each reading, and how many lose points on the real tickets. The
measurement reads hidden state, so it lives here and never in a bot.

`--positions BOTS` (search bots, e.g. `mcts,mcts:200,expert`) compares searches on the same positions
instead: games of the guide (`greedy_long`, in the tournament's seat) against greedy seats; at each of that
seat's main turns every bot of BOTS chooses, and a move other than its guide's is valued on `--worlds`
worlds with the other seats' real tickets (the same worlds for every bot). It prints per bot the
departures and their real gain per position, by how many trains the leader has laid, and each bot's
paired difference to the first with its standard error: a far finer comparison than games, where the
search's own noise alone turns about a third of the results. With it:

- `--variant NAME=JSON` (repeatable) names a search to compare: `mcts` with the JSON's knobs (its class
  attributes, such as `claims`, `margin` or `iterations`) laid over, e.g. `--positions mcts,wide --variant
  wide='{"claims": 8}'`;
- `--from-laid N` searches only the positions where the leader has laid N trains or more (the game is
  played through all the same, so the turns are the same ones);
- `--jobs J` plays J games at once.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ttr.bots import BOTS, make_bot
from ttr.bots.base import legal_actions
from ttr.bots.mcts import MctsBot
from ttr.bots.planning import Board
from ttr.bots.search.config import SearchConfig
from ttr.engine import Action, Game, SeatView, surgery
from ttr.engine.phases import MAIN
from ttr.engine.sample import InfoSet
from ttr.maps import GameMap, load_map


def with_real_tickets(world: Game, real: Game, seat: int) -> Game:
    """`world` with each other seat's tickets swapped for its real ones: each displaced ticket goes where the
    real one was in the world (another hand, the ticket deck or the offer; nowhere for a Europe long ticket
    the world had set aside at setup, as the displaced one then is), so no ticket is in two places."""
    for q in range(world.n):
        if q == seat or len(real.tickets[q]) != len(world.tickets[q]):
            continue
        want = list(real.tickets[q])
        for t in want:
            if t in world.tickets[q]:
                continue
            out = next(x for x in world.tickets[q] if x not in want)
            surgery.trade_tickets(world, t, out)
    return world


def kind(action: dict[str, Any]) -> str:
    """A short name of an action's kind (a card draw says where from: `draw deck` or `draw face_up`)."""
    name = str(action["action"])
    if name == "draw_card":
        return f"draw {action['from']}"
    return {"claim_route": "claim", "keep_tickets": "keep"}.get(name, name)


class Probe(MctsBot):
    """`mcts` that, after each departure from its guide, values it on fresh worlds with and without the real
    tickets (see the module)."""

    def __init__(self, game_map: GameMap, seat: int, seed: int, real: Game, worlds: int,
                 iterations: int | None) -> None:
        super().__init__(game_map, seat, seed, iterations=iterations)
        self.real = real
        self.fresh_worlds = worlds
        self.rows: list[dict[str, Any]] = []

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """The search's move; a departure is valued as the module says."""
        action = super().choose(view, legal)
        if not self.last_values:
            return action
        guide_action = self.guide.choose(view, legal)
        if action == guide_action:
            return action
        info = InfoSet(self.game_map, view.to_json())
        rng = random.Random(len(view.log))
        belief = self.belief_of(view, Board.from_view(self.guide.ix, view))
        first = self.sample_world(info, rng, belief)
        guide = first.encode(guide_action)
        best = max(self.last_values, key=lambda aid: (self.last_values[aid], aid == guide, -aid))
        fresh: list[float] = []
        real: list[float] = []
        playouts = self.playouts_for(first.n)[0]
        for _ in range(self.fresh_worlds):
            world = self.sample_world(info, rng, belief)
            fresh.append(self.play_candidate(world, best, playouts) - self.play_candidate(world, guide, playouts))
            world = with_real_tickets(world, self.real, self.seat)
            real.append(self.play_candidate(world, best, playouts) - self.play_candidate(world, guide, playouts))
        self.rows.append({"kind": f"{kind(guide_action.to_json())} -> {kind(action.to_json())}",
                          "searched": self.last_values[best], "fresh": statistics.fmean(fresh),
                          "real": statistics.fmean(real)})
        return action


def play(game_map: GameMap, players: int, seed: int, worlds: int, iterations: int | None) -> list[dict[str, Any]]:
    """One game of the probe against greedy seats; its departures."""
    game = Game.new(game_map, players, seed=seed)
    me = -seed % players
    probe = Probe(game_map, me, seed, game, worlds, iterations)
    bots = [probe if q == me else make_bot("greedy", game_map, q, seed) for q in range(players)]
    while not game.is_over:
        ids, legal = legal_actions(game)
        action = bots[game.current].choose(SeatView.of(game, game.current), legal)
        game.apply_unchecked(ids[legal.index(action)])
    return probe.rows


STAGES = 5  # stages of a game, by the trains the leader has laid: Europe 0-9, 10-19, ..., 40 and more


def variant_class(name: str, knobs: dict[str, Any]) -> type[MctsBot]:
    """`mcts` with `knobs` (fields of its `SearchConfig`, such as `claims` or `margin`) laid over: the bot `name`
    of `--variant NAME=JSON`. A knob it does not have, or a value of another type, is refused by name."""
    fields = {f.name for f in dataclasses.fields(SearchConfig)}
    for knob, value in knobs.items():
        if knob not in fields:
            raise ValueError(f"--variant {name}: mcts has no knob {knob!r}")
        current = getattr(MctsBot.config, knob)
        if callable(current) or isinstance(current, tuple):
            raise ValueError(f"--variant {name}: {knob!r} is not a number or flag JSON can set")
        numbers = (int, float)  # a bool is neither here: type(True) is bool
        if not (value is None or current is None or type(value) is type(current)
                or (type(value) in numbers and type(current) in numbers)):
            kinds = {bool: "true or false", int: "a whole number", float: "a number"}
            raise ValueError(f"--variant {name}: {knob} must be {kinds.get(type(current), 'as mcts has it')}, "
                             f"not {value!r}")
    config = dataclasses.replace(MctsBot.config, **knobs)
    return type(f"Variant_{name}", (MctsBot,), {"name": name, "config": config})


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """`NAME=JSON` of `--variant` as (name, knobs), checked (`variant_class`)."""
    name, equals, knobs_text = text.partition("=")
    name = name.strip()
    if not equals or not name or "," in name:
        raise ValueError(f"--variant {text!r}: write NAME=JSON, e.g. wide='{{\"claims\": 8}}'")
    if name in BOTS or ":" in name:
        raise ValueError(f"--variant {name}: a bot has that name already; choose another")
    try:
        knobs = json.loads(knobs_text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--variant {name}: not JSON ({exc})") from None
    if not isinstance(knobs, dict):
        raise ValueError(f"--variant {name}: the knobs must be a JSON object")
    variant_class(name, knobs)
    return name, knobs


def search_bot(spec: str, game_map: GameMap, seat: int, seed: int,
               variants: dict[str, dict[str, Any]] | None = None) -> MctsBot:
    """The bot of `spec` (a name of `variants`, else any bot name), which must be a search (it has a guide
    whose move a departure leaves)."""
    if variants and spec in variants:
        return variant_class(spec, variants[spec])(game_map, seat, seed)
    bot = make_bot(spec, game_map, seat, seed)
    if not isinstance(bot, MctsBot):
        raise ValueError(f"--positions: {spec!r} is not a search bot (mcts, mcts:N, mcts:Ts, expert, ...)")
    return bot


def real_gain(bot: MctsBot, game: Game, view: SeatView, action: Action, guide_action: Action,
              worlds: int, seed: int) -> float:
    """`action`'s mean gain over `guide_action` in `worlds` worlds of the seat's view with the other seats'
    real tickets, the other seats playing greedy; the worlds depend on `seed` only."""
    info = InfoSet(bot.game_map, view.to_json())
    rng = random.Random(seed)
    playouts = bot.playouts_for(game.n)[0]  # the other seats as greedy: they are greedy here
    key, guide = game.encode(action), game.encode(guide_action)
    total = 0.0
    for _ in range(worlds):
        world = with_real_tickets(info.sample(rng), game, bot.seat)
        total += bot.play_candidate(world, key, playouts) - bot.play_candidate(world, guide, playouts)
    return total / worlds


def position_rows(game_map: GameMap, players: int, seed: int, specs: list[str], worlds: int,
                  turns: int | None, from_laid: int = 0,
                  variants: dict[str, dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """One game of `greedy_long` (seat -seed mod players) against greedy seats; at each of its main turns with
    a choice (the first `turns`; only those where the leader has laid `from_laid` trains or more), one row
    per bot of `specs` (names of `variants` too): whether it left its guide's move and the real gain of its
    move (0 for the guide's)."""
    game = Game.new(game_map, players, seed=seed)
    me = -seed % players
    players_bots = [make_bot("greedy_long" if q == me else "greedy", game_map, q, seed) for q in range(players)]
    rows: list[dict[str, Any]] = []
    turn = 0
    while not game.is_over and (turns is None or turn < turns):
        ids, legal = legal_actions(game)
        seat = game.current
        view = SeatView.of(game, seat)
        if seat == me and game.phase == MAIN and len(legal) > 1:
            turn += 1
            laid = game_map.rules.pieces - min(game.trains)
            for spec in specs if laid >= from_laid else ():
                bot = search_bot(spec, game_map, me, seed * 1000 + turn, variants)
                action = bot.choose(view, legal)
                guide_action = bot.guide.choose(view, legal)
                departed = action != guide_action
                gain = real_gain(bot, game, view, action, guide_action, worlds, seed * 1000 + turn) if departed else 0.0
                rows.append({"bot": spec, "seed": seed, "turn": turn, "laid": laid, "departed": departed,
                             "move": str(action), "gain": gain})
        action = players_bots[seat].choose(view, legal)
        game.apply_unchecked(ids[legal.index(action)])
    return rows


def game_positions(task: tuple[str, int, int, list[str], int, int | None, int, dict[str, dict[str, Any]]],
                   ) -> list[dict[str, Any]]:
    """`position_rows` for one game, from picklable arguments (map name first): a `--jobs` worker."""
    map_name, players, seed, specs, worlds, turns, from_laid, variants = task
    return position_rows(load_map(map_name), players, seed, specs, worlds, turns, from_laid, variants)


def stage_width(pieces: int) -> int:
    """Trains per stage on a map with `pieces` trains each: 10 in Europe, 3 taxis in New York."""
    return max(1, round(pieces / 4.5))


def stage_labels(pieces: int) -> list[str]:
    """The labels of the `STAGES` stages of a map with `pieces` trains each (the last open-ended)."""
    width = stage_width(pieces)
    return [f"{k * width}-{k * width + width - 1}" for k in range(STAGES - 1)] + [f"{(STAGES - 1) * width}+"]


def stage_of(laid: int, pieces: int) -> str:
    """The label of the stage where the leader has laid `laid` of its `pieces` trains."""
    return stage_labels(pieces)[min(laid // stage_width(pieces), STAGES - 1)]


def position_report(rows: list[dict[str, Any]], specs: list[str], pieces: int) -> list[str]:
    """The lines `--positions` prints for `rows` of a map with `pieces` trains each (see the module docstring)."""
    lines = [f"{'bot':16} {'laid':>6} {'positions':>9} {'departures':>10} {'gain/departure':>14} "
             f"{'gain/position':>13}"]
    by_bot = {spec: [r for r in rows if r["bot"] == spec] for spec in specs}
    labels = stage_labels(pieces)
    for spec, mine in by_bot.items():
        for label in [*labels, "all"]:
            group = mine if label == "all" else [r for r in mine if stage_of(r["laid"], pieces) == label]
            if not group:
                continue
            departed = [r["gain"] for r in group if r["departed"]]
            per_departure = f"{statistics.fmean(departed):+14.2f}" if departed else f"{'-':>14}"
            per_position = statistics.fmean(r["gain"] for r in group)
            lines.append(f"{spec:16} {label:>6} {len(group):9} {len(departed):10} {per_departure} "
                         f"{per_position:+13.3f}")
    first = {(r["seed"], r["turn"]): r["gain"] for r in by_bot[specs[0]]}
    for spec in specs[1:]:
        diffs = [r["gain"] - first[(r["seed"], r["turn"])] for r in by_bot[spec] if (r["seed"], r["turn"]) in first]
        if len(diffs) > 1:
            error = statistics.stdev(diffs) / len(diffs) ** 0.5
            lines.append(f"{spec} - {specs[0]}: {statistics.fmean(diffs):+.3f} per position (se {error:.3f}, "
                         f"{len(diffs)} positions)")
    return lines


def main() -> int:
    """Play the games and print the departures' values by kind."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("map")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=120, help="fresh worlds per departure")
    parser.add_argument("--iterations", type=int, help="playouts per decision instead of 0.5 s")
    parser.add_argument("--positions", metavar="BOTS", help="compare these search bots on the same positions")
    parser.add_argument("--turns", type=int, help="with --positions: only the first TURNS main turns of a game")
    parser.add_argument("--from-laid", type=int, default=0, metavar="N",
                        help="with --positions: only positions where the leader has laid N trains or more")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME=JSON",
                        help="with --positions: a search bot NAME, mcts with these knobs (e.g. wide='{\"claims\": 8}')")
    parser.add_argument("--jobs", type=int, default=1, help="with --positions: games played in parallel")
    args = parser.parse_args()
    game_map = load_map(args.map)
    if args.positions is None:
        if args.variant or args.from_laid or args.jobs != 1:
            parser.error("--variant, --from-laid and --jobs go with --positions")
    else:
        specs = [s.strip() for s in args.positions.split(",") if s.strip()]
        if not specs:
            parser.error("--positions: name at least one search bot")
        if args.jobs < 1:
            parser.error("--jobs must be at least 1")
        try:
            variants = dict(parse_variant(text) for text in args.variant)
            for spec in specs:
                search_bot(spec, game_map, 0, 0, variants)
        except ValueError as exc:
            parser.error(str(exc))
        tasks = [(args.map, args.players, seed, specs, args.worlds, args.turns, args.from_laid, variants)
                 for seed in range(args.seed, args.seed + args.games)]
        positions: list[dict[str, Any]] = []
        if args.jobs == 1:
            for task in tasks:
                positions.extend(game_positions(task))
        else:
            with ProcessPoolExecutor(args.jobs) as pool:
                for game_rows in pool.map(game_positions, tasks):
                    positions.extend(game_rows)
        print("\n".join(position_report(positions, specs, game_map.rules.pieces)))
        return 0
    rows: list[dict[str, Any]] = []
    for seed in range(args.seed, args.seed + args.games):
        rows.extend(play(game_map, args.players, seed, args.worlds, args.iterations))
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_kind[row["kind"]].append(row)
    print(f"{len(rows)} departures in {args.games} games; mean gain over the guide's move, points of margin")
    print(f"{'kind':28} {'n':>4} {'searched':>9} {'fresh':>7} {'real':>7} {'real < 0':>9}")
    for name, group in [*sorted(by_kind.items(), key=lambda item: -len(item[1])), ("all", rows)]:
        if not group:
            continue
        means = [statistics.fmean(r[key] for r in group) for key in ("searched", "fresh", "real")]
        losing = sum(1 for r in group if r["real"] < 0)
        print(f"{name:28} {len(group):4} " + " ".join(f"{m:{w}.1f}" for m, w in zip(means, (9, 7, 7), strict=True))
              + f" {losing:9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
