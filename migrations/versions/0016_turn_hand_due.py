"""games.turn_hand_due: since when the person to move has been owed their hand.

Set with each person's turn (in the statement that sets its deadline) and cleared, under the
game's lock, once their hand with its move buttons has gone out. The worker that starts a turn
sends that hand while it holds the game's lock, so a hand still owed when another worker holds
the lock was lost with a worker that died (or a send that failed): the sweep sends it, with a
whole turn, and a turn whose hand never went out is not counted against the person.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | Sequence[str] | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add games.turn_hand_due."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("turn_hand_due", sa.DateTime(), nullable=True))


def downgrade() -> None:
    """Drop games.turn_hand_due."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("turn_hand_due")
