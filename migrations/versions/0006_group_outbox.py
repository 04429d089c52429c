"""The group outbox: queued group messages and the group budget's recent sends.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create group_sends and group_stamps."""
    op.create_table(
        "group_sends",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("queued_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group_sends")),
    )
    with op.batch_alter_table("group_sends") as batch:
        batch.create_index("ix_group_sends_chat_id", ["chat_id"], unique=False)
    op.create_table(
        "group_stamps",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group_stamps")),
    )
    with op.batch_alter_table("group_stamps") as batch:
        batch.create_index("ix_group_stamps_chat_id_at", ["chat_id", "at"], unique=False)
        batch.create_index("ix_group_stamps_at", ["at"], unique=False)


def downgrade() -> None:
    """Drop group_stamps and group_sends."""
    with op.batch_alter_table("group_stamps") as batch:
        batch.drop_index("ix_group_stamps_at")
        batch.drop_index("ix_group_stamps_chat_id_at")
    op.drop_table("group_stamps")
    with op.batch_alter_table("group_sends") as batch:
        batch.drop_index("ix_group_sends_chat_id")
    op.drop_table("group_sends")
