"""Bringing a database's schema up to date with the Alembic migrations in migrations/."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection
from sqlalchemy.pool import NullPool

from .database import migration_engine


def migrations_dir() -> Path:
    """The Alembic migrations: inside the package in an installed wheel (which ships the
    repository's migrations/ as gaple_bot/migrations), else the migrations/ folder next to the
    package in a checkout or an editable install."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "migrations", package.parent / "migrations"):
        if (candidate / "env.py").is_file():
            return candidate
    raise FileNotFoundError(f"no migrations with env.py in {package} or next to it")


def alembic_config(url: str) -> Config:
    """An Alembic config for `url` that needs no alembic.ini and no particular working dir."""
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


async def upgrade_to_head(url: str) -> None:
    """Apply every pending migration to the database at `url`, in one transaction.

    Safe to call from a running event loop: the migrations run on this loop's connection
    (Alembic's env.py picks it up from `config.attributes`) instead of starting a loop.
    """
    config = alembic_config(url)
    engine = migration_engine(url, poolclass=NullPool)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(_upgrade, config)
    finally:
        await engine.dispose()


def _upgrade(connection: Connection, config: Config) -> None:
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
