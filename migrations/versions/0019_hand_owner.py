"""games.turn_hand_owner: the worker that owes the person to move their hand.

A turn's hand goes out once its game is let go, so another worker's sweep cannot tell a hand on
its way from one lost with a dead worker by waiting for the game's lock: it leaves a hand owed
by a live worker to that worker, and sends one owed by a worker that is gone.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | Sequence[str] | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the column (a hand owed before it existed has no owner: any worker may send it)."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("turn_hand_owner", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("turn_hand_owner")
