"""The search's budget: playout actions per decision, per map and seat count, of `mcts` and `expert`.

The figures are in the profiles (`ttr.bots.profiles`, `search.playout_actions`): Europe 1196, 1535, 1534,
2079 with 2 to 5 seats, New York 3220, 3059, 2975 with 2 to 4.

A budget that counts work instead of time makes a level play the same moves on the pure-Python and the
compiled build and on a busy machine (`ttr.bots.mcts`, "Budgets"). Each figure is the median, over the
decisions that ran to the limit, of the actions that `expert`'s search played in its playouts with 0.5 s of
CPU a decision on the pure-Python build, measured by `scripts/fit_playouts.py` (one
game per map and seat count against greedy; five-player Europe its first 40 decisions; `mcts` measured the
same within 1% in two-player Europe, 1182 against 1196). Interquartile ranges: Europe 956-1375 (2 seats),
1280-1737 (3), 1060-1980 (4), 1639-2609 (5); New York 2731-4201, 2538-3696, 2680-3273. The compiled
build plays the same count in about half the time. Measure again and write the new figures there when the
search or its playouts change much in cost.
"""

from __future__ import annotations

FALLBACK_SECONDS = 0.5  # CPU seconds a decision where the profile has no figure (a custom map)
