"""users.revision and chats.revision: what changes outside a game's lock is counted apart.

A person's name or language and a chat's title change whenever any update shows them, with no
game's lock held. Bumping the games' revision from there let a worker holding one of those
games record the new revision over a copy that had not seen the change. Now such changes bump
the person's or the chat's own counter, and a worker's copy remembers the counters it was read
with: games.revision counts only changes made under the game's lock. On PostgreSQL triggers
keep the counters; on SQLite (one process, whose cache is the only copy) they stay 0.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_TRIGGERS = [
    "DROP TRIGGER users_revision ON users",
    "DROP FUNCTION gaple_users_revision()",
    "DROP TRIGGER chat_options_revision ON chat_options",
    "DROP FUNCTION gaple_chat_options_revision()",
    "DROP TRIGGER chats_revision ON chats",
    "DROP FUNCTION gaple_chat_revision()",
]

TRIGGERS = [
    # A row whose shown values change counts it on itself (the function is shared).
    """
    CREATE FUNCTION gaple_own_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        NEW.revision := OLD.revision + 1;
        RETURN NEW;
    END $$
    """,
    """
    CREATE TRIGGER users_revision BEFORE UPDATE OF display_name, language, telegram_language
    ON users
    FOR EACH ROW WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name
                       OR OLD.language IS DISTINCT FROM NEW.language
                       OR OLD.telegram_language IS DISTINCT FROM NEW.telegram_language)
    EXECUTE FUNCTION gaple_own_revision()
    """,
    """
    CREATE TRIGGER chats_revision BEFORE UPDATE OF title, language ON chats
    FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title
                       OR OLD.language IS DISTINCT FROM NEW.language)
    EXECUTE FUNCTION gaple_own_revision()
    """,
    """
    CREATE FUNCTION gaple_chat_options_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            UPDATE chats SET revision = revision + 1 WHERE id = OLD.chat_id;
        ELSE
            UPDATE chats SET revision = revision + 1 WHERE id = NEW.chat_id;
        END IF;
        RETURN NULL;
    END $$
    """,
    """
    CREATE TRIGGER chat_options_revision AFTER INSERT OR UPDATE OR DELETE ON chat_options
    FOR EACH ROW EXECUTE FUNCTION gaple_chat_options_revision()
    """,
]

DROPS = [
    "DROP TRIGGER chat_options_revision ON chat_options",
    "DROP FUNCTION gaple_chat_options_revision()",
    "DROP TRIGGER chats_revision ON chats",
    "DROP TRIGGER users_revision ON users",
    "DROP FUNCTION gaple_own_revision()",
]


def _triggers_of_0009() -> list[str]:
    """The triggers of people and chats as 0009 made them (put back on downgrade)."""
    spec = importlib.util.spec_from_file_location(
        "gaple_migration_0009", Path(__file__).with_name("0009_game_revision.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    statements: list[str] = module.TRIGGERS
    # Its first four create the triggers of games and seats, which stay.
    return statements[4:]


def _counter() -> sa.Column[int]:
    return sa.Column("revision", sa.Integer(), server_default=sa.text("0"), nullable=False)


def upgrade() -> None:
    """Add the counters and move the triggers of people and chats onto them."""
    for table in ("users", "chats"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(_counter())
    if op.get_bind().dialect.name == "postgresql":
        for statement in OLD_TRIGGERS + TRIGGERS:
            op.execute(statement)


def downgrade() -> None:
    """Put 0009's triggers back and drop the counters."""
    if op.get_bind().dialect.name == "postgresql":
        for statement in DROPS + _triggers_of_0009():
            op.execute(statement)
    for table in ("users", "chats"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("revision")
