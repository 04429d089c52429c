"""answered_taps: the taps (callback queries) the bot answered.

Telegram takes one answer per tap. An update handled again, after its worker died or the
process restarted before marking it handled, finds its tap here and is not answered twice.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | Sequence[str] | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create answered_taps and its index by time (old rows are pruned)."""
    op.create_table(
        "answered_taps",
        sa.Column("query_id", sa.String(length=64), nullable=False),
        sa.Column("answered_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("query_id", name=op.f("pk_answered_taps")),
    )
    op.create_index("ix_answered_taps_answered_at", "answered_taps", ["answered_at"], unique=False)


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_answered_taps_answered_at", table_name="answered_taps")
    op.drop_table("answered_taps")
