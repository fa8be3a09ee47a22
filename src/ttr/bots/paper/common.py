"""What the four FDG 2017 agents share: the planning graph, fewest-route paths, colour choice, payment.

Conventions of the original code kept here (see docs/fdg2017.md, "The agents"):
- the planning graph is every route still open to the seat, plus its own routes at cost 0;
- paths are "fewest routes" (the original used networkx's unweighted shortest path; we break its ties,
  which followed networkx's adjacency order, by total length);
- payment: the original engine, not the agent, paid: as many cards of the named colour as possible,
  topped up with locomotives. Here the agent picks that same card set (fewest locomotives);
- tunnels were paid automatically when the hand could (colour first, then locomotives): here the agent
  pays with the fewest locomotives, or abandons when it cannot pay;
- there were no stations in the original engine: none of the four builds one;
- ours, not the original's: an agent does not claim again the tunnel it has just abandoned from the same
  hand and board while few cards are left to reveal (`ttr.bots.abandoned_tunnel`); it draws instead.
  Otherwise, with a deck of a few locomotives, it could claim and abandon that tunnel for ever. Nor does it
  claim a tunnel it has abandoned before in the game without spare cards for the whole reveal
  (`Board.tunnel_spare`): it tried the same tunnel four times in a game. While it could not, its paths go
  around that tunnel (`hop_costs`), else it drew for it to the end of the game (52 cards held, 28 trains left).
- ours too: the card to collect for a ferry is the locomotive while the hand lacks the ones it needs
  (`collect_colour`; there were no ferries in the original's map), else it drew colours for it to the end.
"""

from __future__ import annotations

from ttr.bots.base import BaseBot
from ttr.bots.planning import (
    INF,
    Board,
    ClaimOption,
    MapIndex,
    Options,
    completed,
    dijkstra,
    map_index,
    path_to,
    route_costs,
    sort_options,
)
from ttr.engine import Action, SeatView
from ttr.maps import GameMap

HOP = 1000.0  # cost of one route in a "fewest routes" path; the route's length breaks ties


class PaperBot(BaseBot):
    """Dispatch shared by the four agents: ticket choice, tunnel payment, second card, turn, fallback."""

    name = "paper"

    def __init__(self, game_map: GameMap, seat: int, seed: int) -> None:
        super().__init__(game_map, seat, seed)
        self.ix: MapIndex = map_index(game_map)

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """Route the decision to the agent's ticket choice, tunnel payment, card draw or turn."""
        if len(legal) == 1:
            return legal[0]
        board = Board.from_view(self.ix, view)
        opts = sort_options(self.ix, legal)
        if opts.keeps:
            return self.keep_tickets(board, opts)
        if opts.pays or opts.abandon:
            return pay_or_abandon(opts) or legal[0]
        if board.phase == "second_card":
            return self.second_card(board, opts) or self.random_move(legal, opts)
        action = self.turn(board, opts) or self.random_move(legal, opts)
        if action.kind == "claim_route" and self._retry_unpaid(board, action):
            others = [a for a in legal if a.kind != "claim_route" or a.route != action.route]
            return self.random_move(others, opts) if others else action
        return action

    def _retry_unpaid(self, board: Board, claim: Action) -> bool:
        """Whether `claim` tries again a tunnel it may not pay: the one just abandoned with few cards left to
        reveal (`Board.futile_retry`), or one abandoned before without spare cards for the whole reveal."""
        route = self.game_map.route_index[claim.route or ""]
        if board.futile_retry(route):
            return True
        if route not in board.tunnels_abandoned:
            return False
        card = self.game_map.card_index
        spare = [board.hand[card[name]] - n for name, n in claim.cards]
        wild = board.ix.wild
        if all(card[name] != wild for name, _ in claim.cards):
            spare.append(board.hand[wild])
        return sum(spare) < board.tunnel_spare(route)

    # -- for the agents to define

    def keep_tickets(self, board: Board, opts: Options) -> Action:
        """The ticket choice (setup or after drawing tickets)."""
        return opts.keeps[0][1]

    def turn(self, board: Board, opts: Options) -> Action | None:
        """The first action of a turn; None falls back to a random move."""
        return None

    def second_card(self, board: Board, opts: Options) -> Action | None:
        """The second card of a draw; None falls back to a random move (a blind draw when possible)."""
        return opts.draw_deck

    # -- shared

    def random_move(self, legal: list[Action], opts: Options) -> Action:
        """The original's last resort: a random draw if there is one, else any random legal move."""
        draws = ([opts.draw_deck] if opts.draw_deck else []) + list(opts.face_up.values())
        pool = draws or legal
        return pool[self.rng.randrange(len(pool))]


def pay_or_abandon(opts: Options) -> Action | None:
    """Pay a tunnel's extra cards with the fewest wild cards when possible, else abandon (as the original
    engine did automatically)."""
    if opts.pays:
        return min(opts.pays, key=lambda p: p[0])[1]
    return opts.abandon


def hop_costs(board: Board, min_length: int = 0) -> list[float]:
    """Costs for fewest-route paths over the routes open to the seat (own routes free). A tunnel the seat has
    abandoned before is left out while the hand could not pay it with spare cards for the whole reveal
    (`retry_payable`): the agent may not claim it then, so it plans around it instead of drawing for it."""
    base = route_costs(board, min_length=min_length)
    costs = [c if c in (0.0, INF) else HOP + c for c in base]
    for r in set(board.tunnels_abandoned):
        if costs[r] not in (0.0, INF) and not retry_payable(board, r):
            costs[r] = INF
    return costs


def retry_payable(board: Board, route: int) -> bool:
    """Whether the hand holds the cards for tunnel `route` and the spare cards its claim should leave
    (`Board.tunnel_spare`): the most cards of one colour it can be paid in, plus the wild cards."""
    ix = board.ix
    hand = board.hand
    colours = range(ix.ncol) if ix.colour[route] < 0 else (ix.colour[route],)
    return max(hand[c] for c in colours) + hand[ix.wild] >= ix.length[route] + board.tunnel_spare(route)


def collect_colour(board: Board, route: int) -> int:
    """The card to collect for `route`: the wild card while the hand lacks the locomotives a ferry needs,
    else the link's colour (`target_colour`)."""
    ix = board.ix
    if board.hand[ix.wild] < ix.ferry[route]:
        return ix.wild
    return target_colour(board, ix.link[route])


def hop_path(board: Board, costs: list[float], a: int, b: int) -> list[int] | None:
    """The routes of a fewest-route path from a to b, in order from a; None if there is none."""
    dist, prev = dijkstra(board.ix, costs, a, b)
    if dist[b] == INF:
        return None
    return path_to(board.ix, prev, a, b)[::-1]


def path_trains(board: Board, path: list[int]) -> int:
    """Trains still needed on a path (routes the seat does not own)."""
    return sum(board.ix.length[r] for r in path if board.owner[r] != board.seat)


def incomplete(board: Board) -> list[int]:
    """The seat's tickets its own routes do not join yet."""
    done = completed(board, board.tickets)
    return [t for t, ok in zip(board.tickets, done, strict=True) if not ok]


def most_held_colour(ix: MapIndex, hand: list[int], colours: list[int] | None = None) -> int:
    """The colour (not wild) the hand holds most of among `colours` (all by default); ties: map order."""
    pool = colours if colours else list(range(ix.ncol))
    return max(pool, key=lambda c: (hand[c], -c))


def link_colours(board: Board, link: int) -> tuple[list[int], bool]:
    """The colours of the open tracks of a link, and whether one of them is gray."""
    ix = board.ix
    tracks = [r for r in ix.link_routes[link] if board.open[r]]
    return [ix.colour[r] for r in tracks if ix.colour[r] >= 0], any(ix.colour[r] < 0 for r in tracks)


def target_colour(board: Board, link: int) -> int:
    """The colour to collect for a link: the most-held colour (any, if a track is gray, else of its tracks)."""
    colours, gray = link_colours(board, link)
    return most_held_colour(board.ix, board.hand, None if gray or not colours else colours)


def claim_link(opts: Options, ix: MapIndex, link: int, colour: int | None) -> ClaimOption | None:
    """A claim of any track of `link`, paid in `colour` if given (else any colour), fewest wild cards."""
    best: ClaimOption | None = None
    for r in ix.link_routes[link]:
        for option in opts.claims.get(r, ()):
            if colour is not None and option.colour not in (colour, ix.wild):
                continue
            if colour is not None and option.colour == ix.wild and ix.colour[r] >= 0 and ix.colour[r] != colour:
                continue
            if best is None or option.wilds < best.wilds:
                best = option
    return best


def draw_colour(opts: Options, ix: MapIndex, colour: int, first: bool, wild_fallback: bool) -> Action | None:
    """`colour` face up if shown; else (first card only, if allowed) a face-up wild; else blind."""
    if colour in opts.face_up and colour != ix.wild:
        return opts.face_up[colour]
    if first and wild_fallback and ix.wild in opts.face_up:
        return opts.face_up[ix.wild]
    return opts.draw_deck
