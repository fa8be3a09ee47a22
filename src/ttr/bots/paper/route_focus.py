"""Route Focus (`pathAgent.py` of de Mesentier Silva et al., FDG 2017), as intended."""

from __future__ import annotations

from ttr.bots.paper.common import PaperBot, claim_link, hop_costs, hop_path, incomplete, target_colour
from ttr.bots.planning import Board, Options
from ttr.engine import Action


class RouteFocus(PaperBot):
    """Works only on the routes of its tickets' paths, most valuable ticket first; never draws tickets.

    Setup: keeps as many tickets as regular ones are dealt (3 in Europe, 2 in New York): the first such
    set in the order offered (Europe: the long ticket and the first two regular ones), whatever their
    value, as the original did. Each turn: for every incomplete ticket, a fewest-route path over the routes
    still open to it; every route on those paths it has the trains for is a candidate, worth the route's
    points + 2 x the ticket's value (ties: city names in alphabetical order). It claims the first
    candidate it can pay, in the colour it holds most of (among the track colours; any colour for a gray
    track). Otherwise it draws: the first candidate's colour face up, else blind.

    Deviations from the original code:
    - with no candidate (tickets done or cut off) the original claimed the *shortest* free routes first
      (the priority queue popped the smallest value: a sign bug): here the longest (most points) first;
    - the face-up draw never happened (upper- vs lower-case colour names): here it does;
    - candidates had to be strictly shorter than its trains: here a route using its last trains counts;
    - when the chosen colour could not pay a candidate that another colour could, the original returned
      no move (the game aborted): here it pays with the cheapest card set instead;
    - a face-up draw that the original could not make (no blind draw possible) aborted the game: here the
      shared fallback plays a random draw, else a random legal move.
    Kept as coded: fewest-route paths (networkx unweighted shortest path), no ticket draws, no stations.
    Guessed: a gray candidate's colour to draw is the colour it holds most of; tunnels are paid with the
    fewest locomotives when it can (the original engine paid automatically).
    """

    name = "route_focus"

    def keep_tickets(self, board: Board, opts: Options) -> Action:
        """The first keep-set of as many tickets as regular ones are dealt at setup."""
        size = self.game_map.rules.setup_regular_tickets
        for kept, action in opts.keeps:
            if len(kept) == size:
                return action
        return opts.keeps[0][1]

    def candidates(self, board: Board) -> list[int]:
        """Links to claim, best first (see the class docstring)."""
        ix = self.ix
        names = self.game_map.routes
        costs = hop_costs(board)
        best: dict[int, int] = {}
        for t in incomplete(board):
            path = hop_path(board, costs, ix.ticket_a[t], ix.ticket_b[t])
            for r in path or ():
                if board.owner[r] != board.seat and ix.length[r] <= board.my_trains:
                    value = ix.points[r] + 2 * ix.ticket_points[t]
                    best[ix.link[r]] = max(best.get(ix.link[r], value), value)
        if not best:
            for r, ok in enumerate(board.open):
                if ok and ix.length[r] <= board.my_trains:
                    best[ix.link[r]] = max(best.get(ix.link[r], 0), ix.points[r])

        def order(link: int) -> tuple[int, tuple[str, ...]]:
            r = ix.link_routes[link][0]
            return (-best[link], tuple(sorted((names[r].a, names[r].b))))

        return sorted(best, key=order)

    def turn(self, board: Board, opts: Options) -> Action | None:
        """Claim the best candidate it can pay, else draw for the first candidate."""
        ix = self.ix
        links = self.candidates(board)
        for link in links:
            if not any(r in opts.claims for r in ix.link_routes[link]):
                continue
            option = claim_link(opts, ix, link, target_colour(board, link)) or claim_link(opts, ix, link, None)
            if option is not None:
                return option.action
        return self._draw(board, opts, links)

    def second_card(self, board: Board, opts: Options) -> Action | None:
        """The first candidate's colour face up, else blind."""
        return self._draw(board, opts, self.candidates(board))

    def _draw(self, board: Board, opts: Options, links: list[int]) -> Action | None:
        if links:
            colour = target_colour(board, links[0])
            if colour in opts.face_up:
                return opts.face_up[colour]
        return opts.draw_deck
