"""received_updates: the ids of the updates taken in, so one delivered twice is applied once.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create received_updates."""
    op.create_table(
        "received_updates",
        sa.Column("update_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("received_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("update_id", name=op.f("pk_received_updates")),
    )
    with op.batch_alter_table("received_updates") as batch:
        batch.create_index("ix_received_updates_received_at", ["received_at"], unique=False)


def downgrade() -> None:
    """Drop received_updates."""
    with op.batch_alter_table("received_updates") as batch:
        batch.drop_index("ix_received_updates_received_at")
    op.drop_table("received_updates")
