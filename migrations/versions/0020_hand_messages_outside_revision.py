"""Which message shows a hand, and whether a hand is owed, no longer bump a game's revision.

A turn's hand goes out once its game is let go (issue 39), so the worker records its message,
and that the hand went out, without the game's lock. Those columns change nothing a cached copy
plays by; a worker that needs them reads them from the database. Were they to bump the
revision, the worker's own next command would find its copy out of date and read the whole
game again after every move.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0020"
down_revision: str | Sequence[str] | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UPGRADE = [
    # An update that does not bump the revision itself gets it bumped, unless it only says
    # whether the turn's hand is owed and by which worker.
    """
    CREATE OR REPLACE FUNCTION gaple_games_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        rest games%ROWTYPE;
    BEGIN
        IF NEW.revision = OLD.revision THEN
            rest := NEW;
            rest.turn_hand_due := OLD.turn_hand_due;
            rest.turn_hand_owner := OLD.turn_hand_owner;
            -- As JSON: a row holding a json column has no equality of its own.
            IF to_jsonb(rest) IS DISTINCT FROM to_jsonb(OLD) THEN
                NEW.revision := OLD.revision + 1;
            END IF;
        END IF;
        RETURN NEW;
    END $$
    """,
    # A seat's change bumps its game's revision, unless only its hand's message changed.
    """
    CREATE OR REPLACE FUNCTION gaple_seats_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        rest seats%ROWTYPE;
    BEGIN
        IF TG_OP = 'DELETE' THEN
            UPDATE games SET revision = revision + 1 WHERE id = OLD.game_id;
            RETURN NULL;
        END IF;
        IF TG_OP = 'UPDATE' THEN
            rest := NEW;
            rest.hand_message_id := OLD.hand_message_id;
            IF to_jsonb(rest) IS NOT DISTINCT FROM to_jsonb(OLD) THEN
                RETURN NULL;
            END IF;
        END IF;
        UPDATE games SET revision = revision + 1 WHERE id = NEW.game_id;
        RETURN NULL;
    END $$
    """,
]

DOWNGRADE = [
    """
    CREATE OR REPLACE FUNCTION gaple_games_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.revision = OLD.revision THEN
            NEW.revision := OLD.revision + 1;
        END IF;
        RETURN NEW;
    END $$
    """,
    """
    CREATE OR REPLACE FUNCTION gaple_seats_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            UPDATE games SET revision = revision + 1 WHERE id = OLD.game_id;
        ELSE
            UPDATE games SET revision = revision + 1 WHERE id = NEW.game_id;
        END IF;
        RETURN NULL;
    END $$
    """,
]


def upgrade() -> None:
    """Replace the two trigger functions (PostgreSQL only: SQLite keeps no revisions)."""
    if op.get_bind().dialect.name == "postgresql":
        for statement in UPGRADE:
            op.execute(statement)


def downgrade() -> None:
    """Put back the functions of migration 0009."""
    if op.get_bind().dialect.name == "postgresql":
        for statement in DOWNGRADE:
            op.execute(statement)
