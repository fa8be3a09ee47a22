"""The parts of the search (`ttr.bots.mcts.MctsBot`), one job each: `config` (its settings, one frozen value)
and `gate` (when a candidate is played instead of the guide's move)."""
