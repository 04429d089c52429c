"""Fixtures of the bot tests: the database a running bot keeps its games in."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """The bot's database, once as an SQLite file and once as a PostgreSQL database (a URL)
    made from the migrated template, for the tests that play whole games on both."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return tmp_path / "gaple.sqlite3"
