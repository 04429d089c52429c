"""moves.by_computer: whether the computer chose a move, not the person seated.

A review judges each person on their own decisions: a move the computer made for them (their
turn ran out, their seat was handed over) or in its own seat is marked here. Moves stored
before this revision read as the seat's own.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | Sequence[str] | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add moves.by_computer (false for every move already stored)."""
    with op.batch_alter_table("moves") as batch:
        batch.add_column(
            sa.Column("by_computer", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    """Drop moves.by_computer."""
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("by_computer")
