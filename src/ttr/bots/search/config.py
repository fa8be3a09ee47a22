"""`SearchConfig`: every setting of the search (`ttr.bots.mcts.MctsBot`) as one frozen value.

A level is a bot class with its config (`MctsBot.config`, `MctsExpert.config`), or any bot built with
`MctsBot(game_map, seat, seed, config=...)`; `dataclasses.replace(MctsBot.config, margin=3.0)` makes a variant.
What depends on the map and the seat count (the guide, the budget, `wide_claims`, `track`) is the profile's
(`ttr.bots.profiles`), not the config's. The figures behind the values are in research/bot-measurements.md
("`mcts`"), and the runs behind them in the experiment log kept in the history
(`git show 4584f41:research/bot-experiments.md`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ttr.bots.styles import Greedy, Policy


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """The search's settings, by the part of the search that reads them."""

    # ---- budget (at most one of the three; none: the profile's playout actions, or `FALLBACK_SECONDS`)
    iterations: int | None = None  # playouts per decision (with a budget below: whichever ends first)
    time_limit: float | None = None  # CPU seconds per decision
    playout_actions: int | None = None  # or playout actions per decision

    # ---- candidates (`ttr.bots.search.candidates`)
    claims: int = 3  # claims considered beside the guide's move
    late_claims: int = 8  # ... once the leader has laid `late_from` of its pieces (shorter playouts: worlds are
    late_from: float = 0.44  # cheaper; Europe: from 20 trains laid, New York 7 taxis)
    wide: int = 20  # claims at every stage where the profile says `wide_claims` (two-seat New York: about every
    # claim the seat can pay; moving second the search won 64% instead of 55%)
    keeps: int = 3  # keep-sets considered when choosing tickets
    blocks: int = 1  # claims of routes other seats likely need (by the belief), considered beside the others
    world_blocks: int = 1  # ... and claims of routes the other seats' tickets need in the first `block_worlds`
    block_worlds: int = 8  # worlds (`ttr.bots.blocking`; the search then plays on those worlds first)
    search_draws: bool = True  # the second card of a draw searched too, and every face-up card a candidate
    # Other plans tried in main turns, e.g. `ttr.bots.styles.STYLES`. None by default: the search played a
    # style's move in 1 of 169 departures valued, and without them two-player Europe won 137 of 199 paired
    # games instead of 121, New York level.
    styles: tuple[Policy, ...] = ()

    # ---- worlds (`ttr.bots.search.worlds`)
    belief: bool = True  # the other seats' tickets weighted by their claims (`ttr.bots.inference`)
    resample: int = 64  # ticket deals proposed per world, one kept by how well it explains the claims
    replay_claims: bool = True  # weigh dealt tickets by the claims their paths explain (`inference.ClaimReplay`,
    # the paths of the opponent models)
    setup_prior: bool = True  # deal the long tickets kept at setup as the opponent models keep them
    opponent_styles: tuple[Policy, ...] = (Greedy,)  # the policies the other seats are modelled by, by turns
    # per world (playouts, belief replay, setup odds) ...
    opponents_as_guide: bool = False  # ... the last of them replaced, at a game's first decision, by the
    # game's fitted guide (`MctsBot.guide_for`)
    # Opponent models that assume the other seats play greedy (the very bot their targets were measured
    # against); each applies only where `opponent_styles` is greedy alone:
    assume_greedy_setup_keeps: bool = True  # the whole setup keep dealt as greedy keeps an offer drawn from the
    setup_keeps_seats: int = 2  # hidden tickets (`ttr.bots.setup_keeps`; Europe), in games of this many seats
    assume_greedy_tracking: bool = True  # where the profile says `track` (two-seat New York): worlds kept in
    track_size: int = 400  # step with the game, weighed by whether greedy makes the other seat's every move
    track_miss: float = 0.02  # (`ttr.bots.tracking`): this many worlds, this weight kept per miss

    # ---- evaluation (the playouts)
    depth: int | None = None  # playout actions before the estimate (None: to the end of the game)
    own_playout_fitted: bool = True  # its own seat plays the profile's `own_playout` in playouts (else the
    # guide's policy)

    # ---- decision gate (`ttr.bots.search.gate`)
    margin: float = 2.0  # points on average another candidate must gain over the guide's move to be played
    wide_margin: float = 1.0  # ... where the profile says `wide_claims` (the finalists meet 100 worlds or more;
    # 80.5 of 100 paired games against 67.5 with a margin of 2 points)
    min_worlds: int = 3  # ... in at least this many worlds, and significantly (`gate.t_critical`)
    target_worlds: int = 6  # worlds the finalists should get: fewer candidates when the budget is short
    prune: float = 6.0  # after `prune_after` worlds, a candidate this many points worse than the guide's is dropped
    prune_after: int = 2

    def check(self) -> None:
        """`ValueError` naming the first setting out of range."""
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("an mcts bot needs at least one iteration")
        if self.playout_actions is not None and self.playout_actions < 1:
            raise ValueError("an mcts bot needs at least one playout action")
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError("an mcts bot needs a positive time budget")
        if not self.opponent_styles:
            raise ValueError("the search needs at least one opponent model")
