"""Game kinds: one package per game, each with its rules, computer players and presentation."""
