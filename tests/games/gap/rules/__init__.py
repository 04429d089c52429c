"""Tests of Gap's rules engine (G1-G6)."""
