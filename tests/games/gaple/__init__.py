"""Tests of Gaple: its rules (C1-C13, D1-D8), its computer players and its kind."""
