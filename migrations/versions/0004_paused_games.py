"""A game can be paused while the bot may not write in its chat.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add games.paused."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("paused", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    """Drop games.paused."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("paused")
