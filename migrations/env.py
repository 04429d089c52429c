"""Alembic environment: async engine, the models' metadata, batch mode for SQLite."""

from __future__ import annotations

import asyncio
import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection
from sqlalchemy.pool import NullPool

from gaple_bot.settings import SettingsError, load_database_url
from gaple_bot.store.database import migration_engine
from gaple_bot.store.models import Base

MIGRATION_LOCK = 0x6761706C65
"""The advisory lock key that serialises migrations on PostgreSQL ("gaple" in ASCII)."""

config = context.config
target_metadata = Base.metadata


def do_run_migrations(connection: Connection) -> None:
    """Run the migrations on `connection` inside one transaction."""
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things: batch mode copies the table instead.
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # Several workers may start at once: one migrates, the others wait here, then find
            # nothing left to do. The lock ends with the transaction.
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        context.run_migrations()
        if connection.dialect.name == "sqlite":
            # The migration engine leaves foreign keys unenforced (see migration_engine):
            # check them all before committing.
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
            if broken:
                raise RuntimeError(f"the migrations broke foreign keys: {broken[:10]}")


async def run_async_migrations() -> None:
    """Open an engine of our own (the `alembic` command line) on the database the bot uses:
    DATABASE_URL from the environment, else from the working directory's .env file."""
    url = config.get_main_option("sqlalchemy.url") or _bot_database_url()
    engine = migration_engine(url, poolclass=NullPool)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(do_run_migrations)
    finally:
        await engine.dispose()


def _bot_database_url() -> str:
    try:
        return load_database_url(os.environ)
    except SettingsError as exc:
        raise SystemExit(str(exc)) from None


def run_migrations_online() -> None:
    """Use the caller's connection if it passed one (upgrade_to_head, from a running loop)."""
    connection = config.attributes.get("connection")
    if connection is None:
        asyncio.run(run_async_migrations())
    else:
        do_run_migrations(connection)


if config.config_file_name is not None:
    fileConfig(config.config_file_name, disable_existing_loggers=False)

if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported; run against a database")
run_migrations_online()
