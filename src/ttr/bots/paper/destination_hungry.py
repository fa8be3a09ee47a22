"""Destination Hungry (`hungryAgent.py` of de Mesentier Silva et al., FDG 2017), as intended."""

from __future__ import annotations

from dataclasses import dataclass, field

from ttr.bots.paper.common import PaperBot
from ttr.bots.planning import INF, Board, Options, dijkstra, path_to, route_costs
from ttr.engine import Action
from ttr.maps import GameMap


@dataclass(slots=True)
class HungryPlan:
    """The routes to claim, the cards they need per card type (wild last) plus gray, and their points."""

    routes: list[int] = field(default_factory=list)
    need: list[int] = field(default_factory=list)
    gray: int = 0
    points: int = 0

    @property
    def cards(self) -> int:
        """All the cards the plan needs."""
        return sum(self.need) + self.gray


class DestinationHungry(PaperBot):
    """Hoards tickets: plans a Steiner tree over all its tickets' cities, keeps the ticket sets with the most
    (ticket + route) points per card, and keeps drawing tickets while the plan needs clearly fewer cards
    than it has trains. Claims plan routes, then the longest routes once the plan is done.

    Plan (as coded): the two key cities farthest apart seed two clusters; every other key city joins the
    cluster nearest to it by a shortest path (route length, own routes free); the clusters are joined by
    their cheapest path. Each route adds its length to its colour's need (gray to a gray need), ferry
    locomotives to the wild need, its points to the plan's points. Double routes are resolved last: the
    track whose colour is needed least.

    Deviations from the original code (bugs fixed to follow the evident intent):
    - attaching a key city used a "best distance" that was never reset between cities, so a city could
      be routed to another city's attachment point: here each city joins its own nearest cluster member;
    - ferry locomotives were counted twice (in the colour need and again as wild): here once;
    - the keep-set choice let a later, larger subset overwrite a better earlier pick in a shared slot:
      here the best set with cards <= trains - 5 wins (most points per card), else the cheapest set
      with cards <= trains, else the set of least ticket value;
    - the ticket threshold was set to the card count of the last subset evaluated ("keep everything"),
      and was left stale when no set fitted (so it kept drawing): here it is the chosen plan's cards,
      and "no set fits" stops ticket draws;
    - the remembered score total was increased instead of set, which suppressed re-planning after a
      mid-game pick: here it re-plans whenever the board or its tickets change;
    - the "take the most-needed colour if it is face up" branch never fired (upper vs lower case): here
      it does. The need is counted after the cards in hand (a guess: the original counted the plan's
      whole need whatever the hand held);
    - a plan with all tickets done made the builder fail ("no plan"): here that plan is simply empty;
    - the misspelt SARAJEVO-SEVESTOPOL ticket does not exist on our map.
    Where we guessed: our rules add stations (it never builds one, as the original engine had none),
    tunnels (pays the extra cards with the fewest locomotives when it can, as the original engine did)
    and returned tickets going under the deck.
    """

    name = "destination_hungry"

    def __init__(self, game_map: GameMap, seat: int, seed: int) -> None:
        super().__init__(game_map, seat, seed)
        self.threshold = 0
        self._plan_key: tuple[object, ...] | None = None
        self._plan = HungryPlan()

    # ------------------------------------------------------------------ the plan builder

    def build_plan(self, board: Board, tickets: list[int]) -> HungryPlan | None:
        """The plan joining the cities of `tickets`; None when a key city cannot be reached at all."""
        ix = self.ix
        costs = route_costs(board)
        reachable = {c for c in range(ix.ncity) if any(costs[r] < INF for r, _ in ix.adj[c])}
        keys: list[int] = []
        for t in tickets:
            a, b = ix.ticket_a[t], ix.ticket_b[t]
            if a in reachable and b in reachable:  # a city with no route left drops out
                for c in (a, b):
                    if c not in keys:
                        keys.append(c)
        plan = HungryPlan(need=[0] * (ix.ncol + 1))
        if len(keys) < 2:
            return plan
        dist = {c: dijkstra(ix, costs, c) for c in keys}
        pairs = [(dist[a][0][b], a, b) for i, a in enumerate(keys) for b in keys[i + 1:] if dist[a][0][b] < INF]
        if not pairs:
            return None
        _, s1, s2 = max(pairs, key=lambda p: p[0])
        clusters: list[set[int]] = [{s1}, {s2}]
        chosen: list[int] = []
        for city in keys:
            if city in clusters[0] or city in clusters[1]:
                continue
            d, prev = dist[city]
            best: tuple[float, int, int] | None = None
            for k, cluster in enumerate(clusters):
                for member in sorted(cluster):
                    if d[member] < INF and (best is None or d[member] < best[0]):
                        best = (d[member], k, member)
            if best is None:
                continue  # unreachable from both clusters: it cannot be planned
            path = path_to(ix, prev, city, best[2])
            chosen.extend(path)
            for r in path:
                clusters[best[1]].update((ix.route_a[r], ix.route_b[r]))
            clusters[best[1]].add(city)
        d, prev = dijkstra(ix, costs, sorted(clusters[0]))
        end = min((c for c in clusters[1] if d[c] < INF), key=lambda c: (d[c], c), default=-1)
        if end >= 0:
            chosen.extend(path_to(ix, prev, -1, end))
        self._fill(board, plan, chosen)
        return plan

    def _fill(self, board: Board, plan: HungryPlan, chosen: list[int]) -> None:
        ix = self.ix
        seen_links: set[int] = set()
        doubles: list[list[int]] = []
        for r in chosen:
            if board.owner[r] == board.seat or ix.link[r] in seen_links:
                continue
            seen_links.add(ix.link[r])
            tracks = [x for x in ix.link_routes[ix.link[r]] if board.open[x]]
            if len(tracks) > 1:
                doubles.append(tracks)
            else:
                self._add(plan, r)
        for tracks in doubles:  # resolved after the single routes: the track whose colour is needed least
            def need_of(x: int) -> int:
                c = ix.colour[x]
                return plan.gray if c < 0 else plan.need[c]

            pick = next((x for x in tracks if need_of(x) == 0), min(tracks, key=need_of))
            self._add(plan, pick)

    def _add(self, plan: HungryPlan, r: int) -> None:
        ix = self.ix
        body = ix.length[r] - ix.ferry[r]
        plan.need[ix.wild] += ix.ferry[r]
        if ix.colour[r] >= 0:
            plan.need[ix.colour[r]] += body
        else:
            plan.gray += body
        plan.points += ix.points[r]
        plan.routes.append(r)

    # ------------------------------------------------------------------ tickets

    def keep_tickets(self, board: Board, opts: Options) -> Action:
        """Most points per card among sets needing <= trains - 5 cards; else the cheapest set that fits."""
        ix = self.ix
        held_value = sum(ix.ticket_points[t] for t in board.tickets)
        trains = board.my_trains
        loose: tuple[float, int, HungryPlan] | None = None
        tight: tuple[int, int, HungryPlan] | None = None
        for i, (kept, _) in enumerate(opts.keeps):
            plan = self.build_plan(board, board.tickets + list(kept))
            if plan is None:
                continue
            cards = plan.cards
            value = held_value + sum(ix.ticket_points[t] for t in kept) + plan.points
            score = value / cards if cards else INF
            if cards <= trains - 5:
                if loose is None or score > loose[0]:
                    loose = (score, i, plan)
            elif cards <= trains and (tight is None or cards < tight[0]):
                tight = (cards, i, plan)
        pick = loose or tight
        if pick is None:
            self.threshold = trains  # nothing fits: no more ticket draws
            i = min(range(len(opts.keeps)),
                    key=lambda k: (sum(ix.ticket_points[t] for t in opts.keeps[k][0]), k))
            return opts.keeps[i][1]
        self.threshold = pick[2].cards
        return opts.keeps[pick[1]][1]

    # ------------------------------------------------------------------ turns

    def _current(self, board: Board) -> HungryPlan:
        key = (board.signature, tuple(board.tickets), board.my_trains)
        if key != self._plan_key:
            self._plan_key = key
            self._plan = self.build_plan(board, board.tickets) or self._plan
            self._plan.routes = [r for r in self._plan.routes if board.open[r]]
        return self._plan

    def turn(self, board: Board, opts: Options) -> Action | None:
        """Tickets while hungry, else a plan route, else the longest route when the plan is done, else cards."""
        ix = self.ix
        plan = self._current(board)
        if self.threshold < board.my_trains - 8 and opts.draw_tickets is not None:
            return opts.draw_tickets
        if not plan.routes:
            claimable = [o for r in ix.routes_by_length for o in opts.claims.get(r, ())]
            if claimable:
                top = ix.length[claimable[0].route]
                return min((o for o in claimable if ix.length[o.route] == top), key=lambda o: o.wilds).action
        for r in plan.routes:
            options = opts.claims.get(r, [])
            if ix.colour[r] < 0:  # gray: only with a colour the plan does not need
                options = [o for o in options if o.colour == ix.wild or plan.need[o.colour] == 0]
            if options:
                return min(options, key=lambda o: (o.wilds, o.colour)).action
        return self._draw(board, plan, opts, first=True)

    def second_card(self, board: Board, opts: Options) -> Action | None:
        """The same card rule as the first card (no face-up wild)."""
        return self._draw(board, self._current(board), opts, first=False)

    def _draw(self, board: Board, plan: HungryPlan, opts: Options, first: bool) -> Action | None:
        ix = self.ix
        hand = board.hand
        deficit = [plan.need[c] - hand[c] for c in range(ix.ncol + 1)]
        colours = [c for c in range(ix.ncol) if deficit[c] > 0]
        if colours:
            most = max(colours, key=lambda c: (deficit[c], -c))
            if most in opts.face_up:
                return opts.face_up[most]
        shown = [c for c in opts.face_up if c != ix.wild or first]
        counts = {c: board.face_up.count(c) for c in shown}
        for c in sorted(shown, key=lambda c: (-counts[c], c)):
            if deficit[c] > 0:
                return opts.face_up[c]
            break
        biggest = max(deficit)
        gray_short = plan.gray - max(0, max(-d for d in deficit[: ix.ncol]))  # a gray route takes one colour
        if gray_short > biggest:
            pairs = [c for c in shown if counts[c] >= 2]
            if pairs:
                return opts.face_up[max(pairs, key=lambda c: (counts[c], -c))]
        return opts.draw_deck

