"""Find a deal for the guided first game and write its moves into src/ttr/web/static/tutorial/europe.json.

For each seed from --start, plays the guided game in the engine as the server would (the easy bot moving with
the server's seeds) with a simple player who does each step in turn: keep the two cheapest tickets, take two
cards, claim a 2-3 space route, draw tickets and keep one, claim a tunnel whose revealed cards cost one more
card (paid), a ferry of one locomotive, a station, preferring routes and cities on its tickets' paths. The
first seed that reaches every step within --turns of the player's turns, taking a face-up card in the drawing
step, is written, with the moves played for each step (the steps' texts and conditions stay as the file has
them). tests/server/test_tutorial_deal.py checks the file.

    PYTHONPATH=src python scripts/tutorial_deal.py --start 2000
"""

from __future__ import annotations

import argparse
import heapq
import json
from pathlib import Path
from typing import Any

from ttr.engine import Action, Game, SeatView, seat_view
from ttr.maps import load_map
from ttr.server.bot_pool import choose_move
from ttr.server.views import legal_json

FILE = Path(__file__).resolve().parents[1] / "src" / "ttr" / "web" / "static" / "tutorial" / "europe.json"
STEPS = ("tickets", "draw", "claim", "more_tickets", "tunnel", "ferry", "station")


def cost(a: Action, wild: str) -> tuple[int, int]:
    """Fewest wild cards, then fewest cards: the set the page preselects first."""
    cards = dict(a.cards)
    return cards.get(wild, 0), sum(cards.values())


class Player:
    """The simple player of one seed's guided game; `script` holds (step, move) as played."""

    def __init__(self, seed: int, bot: str, max_turns: int) -> None:
        self.map = load_map("europe")
        self.game = Game.new(self.map, ["You", "easy bot 2"], seed=seed)
        self.seed, self.bot, self.max_turns = seed, bot, max_turns
        self.wild = self.map.wild_name
        self.routes = {r.name: r for r in self.map.routes}
        self.points = {t.name: t.points for t in self.map.tickets}
        self.script: list[tuple[str, dict[str, Any]]] = []
        self.done: set[str] = set()
        self.paid_extra = False

    def act(self, step: str, action: Action) -> None:
        self.script.append((step, action.to_json()))
        self.game.apply(action)

    def bots(self) -> None:
        g = self.game
        while not g.is_over and g.current != 0:
            view = SeatView.of(g, g.current)
            ids, actions, _ = legal_json(g)
            # the bot kept for this game and seat, made with the game's seed, as the server's bot loop keeps it
            g.apply_id(ids[choose_move(f"tutorial-{self.seed}", self.bot, "europe", g.current, self.seed, view,
                                       list(actions))])

    def on_tickets(self) -> set[str]:
        """The routes of a shortest path (by length) of each ticket the player holds."""
        held = seat_view(self.game, 0)["players"][0]["tickets"]
        out: set[str] = set()
        for ticket in held:
            a, b = ticket.split("-")
            best: dict[str, tuple[int, list[str]]] = {a: (0, [])}
            queue = [(0, a, list[str]())]
            while queue:
                d, city, path = heapq.heappop(queue)
                if city == b:
                    out.update(path)
                    break
                if d > best[city][0]:
                    continue
                for r in self.map.routes:
                    if city in (r.a, r.b):
                        other = r.b if city == r.a else r.a
                        if other not in best or d + r.length < best[other][0]:
                            best[other] = (d + r.length, [*path, r.name])
                            heapq.heappush(queue, (d + r.length, other, [*path, r.name]))
        return out

    def fits(self, step: str, name: str) -> bool:
        r = self.routes[name]
        if step == "claim":
            return not r.tunnel and not r.ferry_locomotives and 2 <= r.length <= 3
        if step == "tunnel":
            return r.tunnel and not r.ferry_locomotives and r.length <= 3
        return step == "ferry" and r.ferry_locomotives == 1 and not r.tunnel and r.length <= 3

    def missing(self, name: str, hand: dict[str, int]) -> tuple[int, int, str]:
        """(locomotives missing, other cards missing, the colour to collect) to claim route `name`."""
        r = self.routes[name]
        loco = hand.get(self.wild, 0)
        spare = max(0, loco - r.ferry_locomotives)
        colours = [r.color] if r.color != "gray" else list(self.map.colors)
        short, colour = min((max(0, r.length - r.ferry_locomotives - hand.get(c, 0) - spare), c) for c in colours)
        return max(0, r.ferry_locomotives - loco), short, colour

    def draw_toward(self, step: str, kind: str) -> bool:
        """Draw two cards (for `step`) toward the cheapest open route of `kind` (a face-up locomotive alone)."""
        g = self.game
        view = seat_view(g, 0)
        taken = {name for p in view["players"] for name in p["routes"]}
        hand = view["players"][0]["hand"]
        open_routes = [n for n in self.routes if n not in taken and self.fits(kind, n)]
        wanted = self.on_tickets()
        target = (min(open_routes, key=lambda n: (n not in wanted, sum(self.missing(n, hand)[:2])))
                  if open_routes else None)
        for second in (False, True):
            draws = [a for a in g.legal_actions() if a.kind == "draw_card"] if g.current == 0 and not g.is_over else []
            if not draws:
                return second
            hand = seat_view(g, 0)["players"][0]["hand"]
            want = None
            if target:
                locos, short, colour = self.missing(target, hand)
                want = self.wild if locos and not second else colour if short else None
            pick = next((a for a in draws if a.source == "face_up" and a.card == want), None)
            pick = pick or next((a for a in draws if a.source == "deck"), draws[0])
            self.act(step, pick)
            if pick.card == self.wild:
                return True
        return True

    def turn(self, step: str) -> bool:
        """Play one decision of `step`; False when this seed will not do."""
        g = self.game
        legal = g.legal_actions()
        view = seat_view(g, 0)
        hand = view["players"][0]["hand"]
        if g.phase_name == "choose_tickets":
            keeps = [a for a in legal if a.kind == "keep_tickets"]
            fewest = min(len(a.tickets) for a in keeps)
            keep = min((a for a in keeps if len(a.tickets) == fewest),
                       key=lambda a: sum(self.points[t] for t in a.tickets))
            self.act(step, keep)
            self.done.add(step)
            return True
        if g.phase_name == "tunnel_payment":
            pays = sorted((a for a in legal if a.kind == "pay_tunnel"), key=lambda a: cost(a, self.wild))
            if not pays:
                return False
            self.act(step, pays[0])
            self.paid_extra = True
            self.done.add(step)
            return True
        if step == "draw":
            self.draw_toward(step, "claim")
            self.done.add(step)
            return True
        if step == "more_tickets":
            self.act(step, next(a for a in legal if a.kind == "draw_tickets"))
            return True
        if step == "station":
            near = {c for name in self.on_tickets() for c in (self.routes[name].a, self.routes[name].b)}
            builds = sorted((a for a in legal if a.kind == "build_station"),
                            key=lambda a: (a.city not in near, cost(a, self.wild)))
            if builds:
                self.act(step, builds[0])
                self.done.add(step)
                return True
            return self.draw_toward(step, "claim")
        wanted = self.on_tickets()
        claims = sorted((a for a in legal if a.kind == "claim_route" and self.fits(step, a.route or "")),
                        key=lambda a: (a.route not in wanted, cost(a, self.wild)))
        if step == "tunnel":  # a card to spare for the revealed ones
            def spare(a: Action) -> int:
                cards = dict(a.cards)
                colour = next((c for c in cards if c != self.wild), None)
                return (hand.get(self.wild, 0) - cards.get(self.wild, 0)
                        + (hand.get(colour, 0) - cards[colour] if colour else 0))
            claims = [a for a in claims if spare(a) >= 1]
        if claims:
            self.act(step, claims[0])
            if step != "tunnel":
                self.done.add(step)
            elif g.phase_name != "tunnel_payment":
                return False  # no extra cost: the tunnel's lesson would not show it
            return True
        return self.draw_toward(step, step)

    def play(self) -> bool:
        """Play every step; whether this seed reaches them all within the turn limit."""
        turns = 0
        while len(self.done) < len(STEPS):
            self.bots()
            if self.game.is_over:
                return False
            step = next(s for s in STEPS if s not in self.done)
            if self.game.phase_name not in ("choose_tickets", "tunnel_payment"):
                turns += 1
                if turns > self.max_turns:
                    return False
            if not self.turn(step):
                return False
        face_up = any(m.get("from") == "face_up" for step, m in self.script if step == "draw")
        return self.paid_extra and face_up  # the draw step takes a face-up card, the tunnel costs more


def main() -> None:
    """Search seeds from --start and write the first that reaches every step."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", type=int, default=2000, help="first seed to try (default 2000)")
    parser.add_argument("--count", type=int, default=500, help="seeds to try (default 500)")
    parser.add_argument("--turns", type=int, default=8, help="most player turns for every step (default 8)")
    args = parser.parse_args()
    doc = json.loads(FILE.read_text(encoding="utf-8"))
    for seed in range(args.start, args.start + args.count):
        player = Player(seed, doc["bot"], args.turns)
        if player.play():
            doc["seed"] = seed
            for step in doc["steps"]:
                step["moves"] = [move for s, move in player.script if s == step["id"]]
            FILE.write_text(dump(doc), encoding="utf-8")
            print(f"seed {seed}: {len(player.script)} moves written to {FILE}")
            return
    raise SystemExit(f"no seed from {args.start} to {args.start + args.count - 1} reaches every step")


def dump(doc: dict[str, Any]) -> str:
    """The file as it is kept: a step a block, a move a line."""
    head = [f"  {json.dumps(k)}: {json.dumps(doc[k], ensure_ascii=False)}," for k in doc if k != "steps"]
    steps = []
    for step in doc["steps"]:
        fields = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in step.items() if k != "moves")
        moves = ",\n".join(f"      {json.dumps(m)}" for m in step["moves"])
        steps.append(f"    {{{fields},\n     \"moves\": [" + (f"\n{moves}\n     ]}}" if moves else "]}"))
    return "{\n" + "\n".join(head) + "\n  \"steps\": [\n" + ",\n".join(steps) + "\n  ]\n}\n"


if __name__ == "__main__":
    main()
