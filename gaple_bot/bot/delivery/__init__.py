"""Group message delivery: a pure core (order, merging, budgets, answers) and two drivers."""
