"""Computer players: each receives a SeatView and a random.Random and returns a legal move."""
