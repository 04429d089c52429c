"""Gaple, block dominoes with two rule sets (classic and discards)."""
