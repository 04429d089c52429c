"""received_updates keeps each update until it is handled: its JSON, the worker that took it
in and when it was handled.

A worker that dies with updates taken in and not handled leaves them to a live worker (on
SQLite, to the process when it starts again), which handles them once. The JSON is dropped
when the update is handled; the rows from before this revision count as handled (their JSON
was not kept).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | Sequence[str] | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UNHANDLED = "handled_at IS NULL"


def upgrade() -> None:
    """Add received_updates.update_json, taken_by and handled_at, and the index of the
    updates not handled."""
    with op.batch_alter_table("received_updates") as batch:
        batch.add_column(sa.Column("update_json", sa.Text(), nullable=True))
        batch.add_column(sa.Column("taken_by", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("handled_at", sa.DateTime(), nullable=True))
    op.execute("UPDATE received_updates SET handled_at = received_at")
    with op.batch_alter_table("received_updates") as batch:
        batch.create_index(
            "ix_received_updates_unhandled",
            ["taken_by"],
            unique=False,
            sqlite_where=sa.text(UNHANDLED),
            postgresql_where=sa.text(UNHANDLED),
        )


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("received_updates") as batch:
        batch.drop_index("ix_received_updates_unhandled")
        batch.drop_column("handled_at")
        batch.drop_column("taken_by")
        batch.drop_column("update_json")
