"""games.replay_token and the reviews table: a finished game's replay link and its analysis.

A finished game gets its own unguessable replay token (not the lobby's join token: a replay
link opens the game's replay, never the live table). Each finished game's review (every
person's decisions with what each legal move was worth) is stored once, as JSON keyed by
seat, with no user id in it: the seats say who sat where when it is read.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-06
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | Sequence[str] | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add games.replay_token (every finished game gets one) and create reviews."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("replay_token", sa.String(length=32), nullable=True))
        batch.create_index("uq_games_replay_token", ["replay_token"], unique=True)
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("status", sa.String))
    connection = op.get_bind()
    finished = connection.execute(
        sa.select(games.c.id).where(games.c.status == "finished")
    ).scalars()
    for game_id in list(finished):
        connection.execute(
            sa.text("UPDATE games SET replay_token = :token WHERE id = :id"),
            {"token": secrets.token_urlsafe(16), "id": game_id},
        )
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_reviews_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_reviews")),
    )


def downgrade() -> None:
    """Drop reviews and games.replay_token."""
    op.drop_table("reviews")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("uq_games_replay_token")
        batch.drop_column("replay_token")
