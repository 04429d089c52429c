"""Computer players: each receives a SeatView and a random.Random and returns a legal move."""

from .greedy import greedy_move
from .levels import BUDGETS, Level, choose_move, choose_move_async, decide
from .montecarlo import Budget

__all__ = [
    "BUDGETS",
    "Budget",
    "Level",
    "choose_move",
    "choose_move_async",
    "decide",
    "greedy_move",
]
