"""Give each lobby an unguessable join token for its deep link (instead of the game id).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add games.join_token with a unique index; finished games keep NULL."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("join_token", sa.String(length=32), nullable=True))
        batch.create_index("uq_games_join_token", ["join_token"], unique=True)
    # A lobby open during the upgrade gets its token too, so its join link keeps working.
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("join_token", sa.String))
    connection = op.get_bind()
    lobbies = connection.execute(sa.text("SELECT id FROM games WHERE status = 'lobby'"))
    for (game_id,) in lobbies.all():
        connection.execute(
            games.update().where(games.c.id == game_id).values(join_token=secrets.token_urlsafe(16))
        )


def downgrade() -> None:
    """Drop games.join_token and its index."""
    with op.batch_alter_table("games") as batch:
        batch.drop_index("uq_games_join_token")
        batch.drop_column("join_token")
