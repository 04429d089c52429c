"""Tests of Gap: its rules (G1-G6), its computer players and its kind."""
