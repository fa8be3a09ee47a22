"""One Step Thinker (`oneStepThinkerAgent.py` of de Mesentier Silva et al., FDG 2017), as intended."""

from __future__ import annotations

from ttr.bots.paper.common import (
    PaperBot,
    claim_link,
    collect_colour,
    draw_colour,
    hop_costs,
    hop_path,
    incomplete,
    most_held_colour,
    path_trains,
    retry_payable,
)
from ttr.bots.planning import INF, Board, Options
from ttr.engine import Action

TICKETS = -1  # the target "draw tickets"


class OneStepThinker(PaperBot):
    """One step at a time: the next unowned route on the path of its most valuable incomplete ticket.

    Tickets: at setup, like Route Focus, the first set of as many tickets as regular ones are dealt.
    After drawing tickets: the set with the most ticket points per train still needed on the tickets'
    paths, among the sets whose trains fit; if none fits, the set of least value. It draws tickets only
    when none of its incomplete tickets can still be reached, every seat has 8 trains or more, and the
    ticket deck is not empty.

    Target: the most valuable incomplete ticket it can still reach (first held on ties); along a
    fewest-route path from its first city, the first route it does not own; the colour it holds most of
    (of the track colours; any colour if a track is gray), or the locomotive while a ferry lacks them. With
    no ticket target and no ticket draw: the longest open route it has the trains for (not a tunnel it may
    not claim again, `hop_costs`), ties broken by how well the hand fits it (10 when one colour covers it,
    9 when one colour plus locomotives does, else 9 - length + the cards of its colour; a gray route scores
    10 - length + the best colour count in the last case). It claims the target when it can, else draws
    the target colour face up, else a face-up locomotive (first card only), else blind.

    Deviations from the original code:
    - the mid-game ticket valuation called graph methods that do not exist, so every ticket looked
      unreachable and it always kept the single cheapest ticket: here the intended valuation (points per
      train still needed, among sets that fit) is used;
    - it claimed the target with the first claim move in move order (red, orange, blue, ...), whatever
      its colour: here it pays in the target colour (fewest locomotives), else the cheapest set;
    - a gray target's colour could be the locomotive (dict order, blue first on ties) and drawing for a
      gray target skipped the colour comparison: here the target colour is the real colour held most;
    - it did not check its trains against the target (it could stall late in the game): routes longer
      than its trains are left out of its paths;
    - the long-route tie-break scored a coloured route by the best count of any colour: here by its colour.
    - ours: with `hand_cap` (16) cards or more and a target it cannot claim yet, it claims the longest route
      it can pay instead of drawing (it held 52 cards with 28 trains left, drawing for one route).
    Kept as coded: fewest-route paths, no stations. Guessed: tunnels are paid with the fewest locomotives
    when it can (the original engine paid automatically); the target is recomputed every turn (the
    original recomputed it when a score changed, with the same result except for the colour to draw).
    """

    name = "one_step_thinker"
    ticket_min_length = 0  # Long Route Junkie plans tickets over long routes only
    gray_single_colour_score = 10
    draws_tickets = True
    values_setup_tickets = False
    hand_cap = 16  # ours: with this many cards and a target it cannot claim, claim the longest route it can

    # ------------------------------------------------------------------ tickets

    def keep_tickets(self, board: Board, opts: Options) -> Action:
        """Setup: the first set of the regular size (unless `values_setup_tickets`); else the intended valuation."""
        if not board.tickets and not self.values_setup_tickets:
            size = self.game_map.rules.setup_regular_tickets
            return next((a for kept, a in opts.keeps if len(kept) == size), opts.keeps[0][1])
        ix = self.ix
        costs = hop_costs(board, self._min_length(board))
        trains_of: dict[int, float] = {}
        for t in {t for kept, _ in opts.keeps for t in kept}:
            path = hop_path(board, costs, ix.ticket_a[t], ix.ticket_b[t])
            trains_of[t] = INF if path is None else path_trains(board, path)
        best: tuple[float, int] | None = None
        for i, (kept, _) in enumerate(opts.keeps):
            trains = sum(trains_of[t] for t in kept)
            if trains > board.my_trains:
                continue
            value = sum(ix.ticket_points[t] for t in kept)
            score = value / trains if trains else INF
            if best is None or score > best[0]:
                best = (score, i)
        if best is None:
            i = min(range(len(opts.keeps)), key=lambda k: (sum(ix.ticket_points[t] for t in opts.keeps[k][0]), k))
            return opts.keeps[i][1]
        return opts.keeps[best[1]][1]

    def _min_length(self, board: Board) -> int:
        return min(self.ticket_min_length, board.my_trains)

    # ------------------------------------------------------------------ target

    def target(self, board: Board, can_draw_tickets: bool) -> tuple[int, int] | None:
        """(link, colour to collect), `(TICKETS, -1)`, or None when there is nothing to aim at."""
        ix = self.ix
        costs = hop_costs(board, self._min_length(board))
        best: tuple[int, list[int]] | None = None
        for t in incomplete(board):
            path = hop_path(board, costs, ix.ticket_a[t], ix.ticket_b[t])
            if path is not None and (best is None or ix.ticket_points[t] > ix.ticket_points[best[0]]):
                best = (t, path)
        if best is not None:
            r = next(r for r in best[1] if board.owner[r] != board.seat)
            return ix.link[r], collect_colour(board, r)
        if self.draws_tickets and can_draw_tickets and min(board.trains) >= 8:
            return TICKETS, -1
        return self._longest(board)

    def _longest(self, board: Board) -> tuple[int, int] | None:
        ix = self.ix
        hand = board.hand
        wild = hand[ix.wild]
        best: tuple[tuple[int, int, int], int] | None = None
        for r, ok in enumerate(board.open):
            length = ix.length[r]
            if not ok or length > board.my_trains or (r in board.tunnels_abandoned and not retry_payable(board, r)):
                continue
            c = ix.colour[r]
            count = max(hand[: ix.ncol]) if c < 0 else hand[c]
            if count >= length:
                fit = self.gray_single_colour_score if c < 0 else 10
            elif count + wild >= length:
                fit = 9
            else:
                fit = (10 if c < 0 else 9) - length + count
            key = (length, fit, -r)
            if best is None or key > best[0]:
                best = (key, r)
        if best is None:
            return None
        r = best[1]
        colour = ix.colour[r] if ix.colour[r] >= 0 else most_held_colour(ix, hand)
        return ix.link[r], ix.wild if hand[ix.wild] < ix.ferry[r] else colour

    # ------------------------------------------------------------------ turns

    def turn(self, board: Board, opts: Options) -> Action | None:
        """Tickets, or claim the target, or draw for it."""
        ix = self.ix
        target = self.target(board, opts.draw_tickets is not None)
        if target is None:
            return None
        link, colour = target
        if link == TICKETS:
            return opts.draw_tickets
        option = claim_link(opts, ix, link, colour) or claim_link(opts, ix, link, None)
        if option is not None:
            return option.action
        if self.hand_cap and sum(board.hand) >= self.hand_cap:
            spend = self._spend(board, opts)
            if spend is not None:
                return spend
        return draw_colour(opts, ix, colour, first=True, wild_fallback=True)

    def _spend(self, board: Board, opts: Options) -> Action | None:
        """The longest route it can claim now (fewest locomotives; not a tunnel it may not claim again): a hand
        of `hand_cap` cards waiting for the target is spent instead of growing to the end of the game."""
        ix = self.ix
        best: tuple[tuple[int, int, int], Action] | None = None
        for r, options in opts.claims.items():
            if ix.length[r] > board.my_trains or (r in board.tunnels_abandoned and not retry_payable(board, r)):
                continue
            for option in options:
                key = (ix.length[r], -option.wilds, -r)
                if best is None or key > best[0]:
                    best = (key, option.action)
        return best[1] if best else None

    def second_card(self, board: Board, opts: Options) -> Action | None:
        """The target colour face up, else blind."""
        target = self.target(board, False)
        if target is None or target[0] == TICKETS:
            return opts.draw_deck
        return draw_colour(opts, self.ix, target[1], first=False, wild_fallback=False)
