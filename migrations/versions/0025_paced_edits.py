"""group_sends.paced: a table edit that may wait at its group's queue for the table's pace.

Beside other workers every group request waits in group_sends, and the worker holding the
group's turn keeps each table's pace there: a paced edit heading the queue waits (the edits
queued meanwhile merge into it) until the pace has passed since the group's last request. A
column, not a key in params: code from before this revision reads a row's params as Bot API
arguments and would refuse an unknown one. Rows stored before it read as not paced.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025"
down_revision: str | Sequence[str] | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add group_sends.paced (false for every row already stored)."""
    with op.batch_alter_table("group_sends") as batch:
        batch.add_column(
            sa.Column("paced", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    """Drop group_sends.paced."""
    with op.batch_alter_table("group_sends") as batch:
        batch.drop_column("paced")
