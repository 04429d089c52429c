"""An index for a player's rating history in a scope (the /stats card's line).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Index rating_changes by kind, scope, player and time."""
    with op.batch_alter_table("rating_changes") as batch:
        batch.create_index(
            "ix_rating_changes_kind_scope_player_id_at",
            ["kind", "scope", "player_id", "at"],
            unique=False,
        )


def downgrade() -> None:
    """Drop the index."""
    with op.batch_alter_table("rating_changes") as batch:
        batch.drop_index("ix_rating_changes_kind_scope_player_id_at")
