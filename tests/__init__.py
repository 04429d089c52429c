"""Test suite of gaple-bot (a package so that tests can import tests.fakes)."""
