"""games.revision: a counter every change of a game (or of what its cached copy shows) bumps.

Several workers each keep a copy of the games they serve; a worker compares its copy's
revision with the stored one before using it. On PostgreSQL, the only database several
workers share, triggers bump the revision, so no write can forget to: any update of the game
row, any change of its seats, of its chat's settings or of a seated person's name or language.
SQLite serves one process, whose cache is the only copy; there the column stays 0.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACTIVE = "status IN ('lobby', 'running')"

TRIGGERS = [
    # An update that does not bump the revision itself gets it bumped.
    """
    CREATE FUNCTION gaple_games_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.revision = OLD.revision THEN
            NEW.revision := OLD.revision + 1;
        END IF;
        RETURN NEW;
    END $$
    """,
    """
    CREATE TRIGGER games_revision BEFORE UPDATE ON games
    FOR EACH ROW EXECUTE FUNCTION gaple_games_revision()
    """,
    """
    CREATE FUNCTION gaple_seats_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            UPDATE games SET revision = revision + 1 WHERE id = OLD.game_id;
        ELSE
            UPDATE games SET revision = revision + 1 WHERE id = NEW.game_id;
        END IF;
        RETURN NULL;
    END $$
    """,
    """
    CREATE TRIGGER seats_revision AFTER INSERT OR UPDATE OR DELETE ON seats
    FOR EACH ROW EXECUTE FUNCTION gaple_seats_revision()
    """,
    f"""
    CREATE FUNCTION gaple_chat_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE games SET revision = revision + 1 WHERE chat_id = NEW.id AND {ACTIVE};
        RETURN NULL;
    END $$
    """,
    f"""
    CREATE FUNCTION gaple_chat_options_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            UPDATE games SET revision = revision + 1 WHERE chat_id = OLD.chat_id AND {ACTIVE};
        ELSE
            UPDATE games SET revision = revision + 1 WHERE chat_id = NEW.chat_id AND {ACTIVE};
        END IF;
        RETURN NULL;
    END $$
    """,
    """
    CREATE TRIGGER chats_revision AFTER UPDATE OF title, language ON chats
    FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title
                       OR OLD.language IS DISTINCT FROM NEW.language)
    EXECUTE FUNCTION gaple_chat_revision()
    """,
    """
    CREATE TRIGGER chat_options_revision AFTER INSERT OR UPDATE OR DELETE ON chat_options
    FOR EACH ROW EXECUTE FUNCTION gaple_chat_options_revision()
    """,
    f"""
    CREATE FUNCTION gaple_users_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE games SET revision = revision + 1
        WHERE id IN (SELECT game_id FROM seats WHERE user_id = NEW.id) AND {ACTIVE};
        RETURN NULL;
    END $$
    """,
    """
    CREATE TRIGGER users_revision AFTER UPDATE OF display_name, language, telegram_language
    ON users
    FOR EACH ROW WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name
                       OR OLD.language IS DISTINCT FROM NEW.language
                       OR OLD.telegram_language IS DISTINCT FROM NEW.telegram_language)
    EXECUTE FUNCTION gaple_users_revision()
    """,
]

DROPS = [
    "DROP TRIGGER users_revision ON users",
    "DROP FUNCTION gaple_users_revision()",
    "DROP TRIGGER chat_options_revision ON chat_options",
    "DROP FUNCTION gaple_chat_options_revision()",
    "DROP TRIGGER chats_revision ON chats",
    "DROP FUNCTION gaple_chat_revision()",
    "DROP TRIGGER seats_revision ON seats",
    "DROP FUNCTION gaple_seats_revision()",
    "DROP TRIGGER games_revision ON games",
    "DROP FUNCTION gaple_games_revision()",
]


def upgrade() -> None:
    """Add games.revision and, on PostgreSQL, the triggers that bump it."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("revision", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )
    if op.get_bind().dialect.name == "postgresql":
        for statement in TRIGGERS:
            op.execute(statement)


def downgrade() -> None:
    """Drop the triggers and games.revision."""
    if op.get_bind().dialect.name == "postgresql":
        for statement in DROPS:
            op.execute(statement)
    with op.batch_alter_table("games") as batch:
        batch.drop_column("revision")
