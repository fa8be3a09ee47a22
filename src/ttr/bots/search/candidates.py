"""The search's candidates: the few first moves it compares with the guide's.

`CandidateMoves` is the part of `ttr.bots.mcts.MctsBot` that picks them (see `ttr.bots.mcts`, step 2): the
guide's move first, then draws, a ticket draw, the claims of greedy's plan and the longest claims (each paid
as greedy pays it), blocking claims by the belief and by the first worlds, and greedy's best keep-sets. It
reads greedy only through its public methods (`current_plan`, `plan_needs`, `cheapest_claim`,
`keep_ranking`).
"""

from __future__ import annotations

from ttr.bots.blocking import world_block_damage
from ttr.bots.greedy import GreedyBot
from ttr.bots.inference import TicketBelief
from ttr.bots.planning import Board, sort_options
from ttr.bots.profiles import profile_of
from ttr.bots.search.config import SearchConfig
from ttr.engine import Action, Game, SeatView
from ttr.engine import actions as A
from ttr.engine.phases import CHOOSE_SETUP, CHOOSE_TICKETS, MAIN, SECOND_CARD
from ttr.maps import GameMap


class CandidateMoves:
    """The candidates part of the search (see the module); the bot sets the attributes below."""

    config: SearchConfig
    game_map: GameMap
    seat: int
    guide: GreedyBot

    def is_wide(self, n: int) -> bool:
        """Whether the profile of an `n`-seat game weighs every claim (`wide_claims`, with `wide_margin`)."""
        return profile_of(self.game_map.name, n).search.wide_claims

    def candidates(self, game: Game, guide: int, view: SeatView, legal: list[Action],
                   belief: TicketBelief | None = None, board: Board | None = None,
                   worlds: list[Game] | None = None) -> list[int]:
        """The moves the search compares (catalogue ids, the guide's first); see the module docstring.
        `board` is the view read into a `Board`, if the caller has it already; `worlds` are sampled games of
        the position (the blocking claims of `world_blocks` are judged on them)."""
        out = [guide]
        if board is None:
            board = Board.from_view(self.guide.ix, view)
        if game.phase in (CHOOSE_SETUP, CHOOSE_TICKETS):
            opts = sort_options(self.guide.ix, legal)
            for i in self.guide.keep_ranking(board, opts)[:self.config.keeps]:
                aid = game.encode(opts.keeps[i][1])
                if aid not in out:
                    out.append(aid)
            return out
        cat = game.cat
        kind = cat.kind
        if game.phase == SECOND_CARD and self.config.search_draws:
            out.extend(aid for aid in game.legal_ids() if aid != guide)  # every card it may take
            return out
        if game.phase != MAIN:
            return out
        ids = game.legal_ids()
        if cat.draw_tickets in ids and cat.draw_tickets not in out:
            out.append(cat.draw_tickets)
        is_draw = (A.DRAW_DECK, A.DRAW_FACE_UP)
        draws = [aid for aid in ids if kind[aid] in is_draw]
        if draws and kind[guide] not in is_draw:
            out.append(draws[0])  # the blind draw when the deck has cards
        plan = self.guide.current_plan(board)
        plan_links = {self.guide.ix.link[r] for r in plan.routes}
        link = self.guide.ix.link
        need = self.guide.plan_needs(plan, board)
        # route -> the id of the card set greedy would pay it with (`GreedyBot.cheapest_claim`)
        best = {r: game.encode(self.guide.cheapest_claim(board, options, need).action)
                for r, options in sort_options(self.guide.ix, legal).claims.items()}
        length = self.guide.ix.length
        claimed = {cat.a[aid] for aid in out if kind[aid] == A.CLAIM}
        ranked = sorted(best, key=lambda r: (link[r] not in plan_links, -length[r], r))
        pieces = self.game_map.rules.pieces
        late = pieces - min(game.trains) >= self.config.late_from * pieces
        count = self.config.wide if self.is_wide(game.n) else self.config.late_claims if late else self.config.claims
        for r in ranked[:count]:
            if r not in claimed:
                out.append(best[r])
                claimed.add(r)
        if belief is not None and self.config.blocks:
            for r in self._blocks(belief, game, [r for r in best if r not in claimed])[:self.config.blocks]:
                out.append(best[r])
                claimed.add(r)
        if worlds and self.config.world_blocks:
            damage = world_block_damage(worlds, self.seat, {r for r in best if r not in claimed})
            for r in sorted(damage, key=lambda r: (-damage[r], r))[:self.config.world_blocks]:
                out.append(best[r])
        if self.config.search_draws:  # each face-up card too
            out.extend(aid for aid in draws if aid not in out)
        return out

    def _blocks(self, belief: TicketBelief, game: Game, routes: list[int]) -> list[int]:
        """Of `routes` (claims open to the seat now), those that would hurt the other seats most, best first:
        by the trains they would add to the other seats' likeliest paths (`TicketBelief.block_damage`)."""
        mine = set(game.tickets[self.seat])
        length = self.guide.ix.length
        score: dict[int, float] = {}
        for q in range(game.n):
            if q != self.seat:
                for r, d in belief.block_damage(q, routes, mine).items():
                    score[r] = score.get(r, 0.0) + d
        return sorted(score, key=lambda r: (-score[r], -length[r], r))
