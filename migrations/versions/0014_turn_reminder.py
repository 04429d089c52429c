"""games.turn_remind_at: when the person to move is due their half-time reminder.

Set with each turn's deadline and cleared by the worker that sends the reminder (under the
game's lock, in the same statement that checks the turn), so a reminder goes once whichever
worker armed the turn's timers, and the sweep sends those of a worker that died.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add games.turn_remind_at."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("turn_remind_at", sa.DateTime(), nullable=True))


def downgrade() -> None:
    """Drop games.turn_remind_at."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("turn_remind_at")
