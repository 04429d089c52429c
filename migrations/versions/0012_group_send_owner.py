"""group_sends.owner: the worker whose outbox holds each stored group send.

A worker starting beside live ones queues again only the sends of workers that are gone, so no
group gets a message twice; on SQLite (one process) the owner stays empty and a restart takes
every send.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add group_sends.owner."""
    with op.batch_alter_table("group_sends") as batch:
        batch.add_column(sa.Column("owner", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    """Drop group_sends.owner."""
    with op.batch_alter_table("group_sends") as batch:
        batch.drop_column("owner")
