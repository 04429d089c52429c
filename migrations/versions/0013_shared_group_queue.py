"""group_sends.kind, game_id and message_id: every group message and edit of several workers
in one queue per group.

Beside other workers a group's sends and edits wait in this table, in order, and whichever
worker holds the group's turn sends them: an edit names the message it changes (message_id),
or the game whose lobby or table it changes (game_id: its message as stored when the edit's
turn comes, so it follows a table another worker posted since). A send of a game's message
stores the new message's id on the game.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add group_sends.kind (send or edit), game_id and message_id."""
    with op.batch_alter_table("group_sends") as batch:
        batch.add_column(sa.Column("kind", sa.String(8), nullable=False, server_default="send"))
        batch.add_column(sa.Column("game_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("message_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    """Drop them (edits waiting are dropped with them)."""
    op.execute("DELETE FROM group_sends WHERE kind <> 'send' OR game_id IS NOT NULL")
    with op.batch_alter_table("group_sends") as batch:
        batch.drop_column("message_id")
        batch.drop_column("game_id")
        batch.drop_column("kind")
