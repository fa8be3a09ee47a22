"""The parts of the search (`ttr.bots.mcts.MctsBot`), one job each: `config` (its settings, one frozen
value), `candidates` (the first moves it compares), `worlds` (the games it deals from its seat's view and
belief), `evaluation` (playouts and the margin they end with) and `gate` (when a candidate is played instead
of the guide's move). `MctsBot` composes them; it reads greedy only through greedy's public methods.
"""
