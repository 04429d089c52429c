"""Tests of Gaple's rules engine, classic and discards (C1-C13, D1-D8)."""
