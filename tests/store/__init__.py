"""Tests of the storage layer, against real SQLite files built by the migrations."""
