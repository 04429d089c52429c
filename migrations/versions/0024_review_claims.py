"""review_claims: which worker is analysing a finished game's review, and since when.

Several workers on one database may each be asked for the same game's review; the first to
claim the game analyses it, the others wait for the stored review. A claim older than the
service's bound (its worker died mid-analysis) may be taken over.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0024"
down_revision: str | Sequence[str] | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create review_claims (no game is being analysed yet)."""
    op.create_table(
        "review_claims",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("owner", sa.BigInteger(), nullable=False),
        sa.Column("claimed_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_review_claims_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_review_claims")),
    )


def downgrade() -> None:
    """Drop review_claims."""
    op.drop_table("review_claims")
