"""games.round_break_until and games.round_break_ready: the pause after a round's end.

When a round ends and the game goes on, the next round is dealt and stored at once, but nobody
moves until round_break_until (the players look at the round that ended; the first person's
turn runs from then). Each seat whose person said Next is a bit of round_break_ready; once every
person seated has, the break ends sooner. Stored, so that a restart resumes the break and any
worker ends it on time.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-08
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | Sequence[str] | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add games.round_break_until and games.round_break_ready."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("round_break_until", sa.DateTime(), nullable=True))
        batch.add_column(
            sa.Column(
                "round_break_ready", sa.Integer(), server_default=sa.text("0"), nullable=False
            )
        )


def downgrade() -> None:
    """Drop games.round_break_until and games.round_break_ready."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("round_break_ready")
        batch.drop_column("round_break_until")
