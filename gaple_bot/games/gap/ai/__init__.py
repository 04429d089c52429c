"""Gap's computer players: `decide(level, view, seed)` returns a legal move for the seat."""

from .greedy import greedy_move
from .levels import BUDGETS, Level, decide
from .montecarlo import Budget, monte_carlo_move

__all__ = ["BUDGETS", "Budget", "Level", "decide", "greedy_move", "monte_carlo_move"]
