"""Tests of Gap's computer players: they see only a seat's view and are bounded by work."""
