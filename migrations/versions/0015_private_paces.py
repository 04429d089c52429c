"""private_paces: when the next message to each private chat may start, and until when one is
in flight, shared by the workers.

Rows live for a minute after their moment (the sweep drops older ones); one process on SQLite
keeps each chat's pace in memory and leaves the table empty.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | Sequence[str] | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create private_paces."""
    op.create_table(
        "private_paces",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("free_at", sa.Float(), nullable=False),
        sa.Column("busy_until", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", name=op.f("pk_private_paces")),
    )


def downgrade() -> None:
    """Drop private_paces."""
    op.drop_table("private_paces")
