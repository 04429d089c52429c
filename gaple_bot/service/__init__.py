"""Use cases: load a game, run the engine and computer players, persist, report what changed."""
