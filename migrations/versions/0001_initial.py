"""The initial schema: users, chats, games, seats, rounds, moves, results, ratings, totals.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACTIVE_GAME = "status IN ('lobby', 'running')"
LEVEL_VALUES = "('easy', 'normal', 'hard')"
COMPUTER_PLAYERS = ((-1, "easy"), (-2, "normal"), (-3, "hard"))
"""Each computer level is a rated player with a reserved negative id."""


def _created_at() -> sa.Column[datetime]:
    return sa.Column("created_at", sa.DateTime(), nullable=False)


def upgrade() -> None:
    """Create every table and index, and the computer players' rows."""
    users = op.create_table(
        "users",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("display_name", sa.String(length=128), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.Column("can_message", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("is_computer", sa.Boolean(), server_default=sa.false(), nullable=False),
        _created_at(),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
    )
    op.create_table(
        "chats",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("title", sa.String(length=256), nullable=True),
        sa.Column("rule_set", sa.String(length=16), server_default="classic", nullable=False),
        sa.Column("target", sa.Integer(), server_default=sa.text("100"), nullable=False),
        sa.Column("stuck_rule", sa.String(length=16), server_default="discard", nullable=False),
        sa.Column("turn_seconds", sa.Integer(), server_default=sa.text("60"), nullable=False),
        sa.Column("computer_level", sa.String(length=16), server_default="normal", nullable=False),
        sa.Column("language", sa.String(length=16), nullable=True),
        _created_at(),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint(
            f"computer_level IN {LEVEL_VALUES}", name=op.f("ck_chats_computer_level")
        ),
        sa.CheckConstraint("rule_set IN ('classic', 'discards')", name=op.f("ck_chats_rule_set")),
        sa.CheckConstraint("stuck_rule IN ('discard', 'pass')", name=op.f("ck_chats_stuck_rule")),
        sa.CheckConstraint("target BETWEEN 1 AND 10000", name=op.f("ck_chats_target")),
        sa.CheckConstraint("turn_seconds > 0", name=op.f("ck_chats_turn_seconds")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chats")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("opener_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("turn_deadline", sa.DateTime(), nullable=True),
        _created_at(),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.CheckConstraint(
            "status IN ('lobby', 'running', 'finished', 'aborted')", name=op.f("ck_games_status")
        ),
        sa.ForeignKeyConstraint(
            ["chat_id"], ["chats.id"], name=op.f("fk_games_chat_id_chats"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["opener_id"], ["users.id"], name=op.f("fk_games_opener_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    _partial_index("ix_games_active_status", "games", ["status"], ACTIVE_GAME)
    op.create_index("ix_games_chat_id_created_at", "games", ["chat_id", "created_at"])
    _partial_index(
        "uq_games_active_chat",
        "games",
        ["chat_id"],
        f"thread_id IS NULL AND {ACTIVE_GAME}",
        unique=True,
    )
    _partial_index(
        "uq_games_active_topic",
        "games",
        ["chat_id", "thread_id"],
        f"thread_id IS NOT NULL AND {ACTIVE_GAME}",
        unique=True,
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("computer_level", sa.String(length=16), nullable=True),
        sa.Column("autoplay", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("timeouts", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("hand_message_id", sa.BigInteger(), nullable=True),
        sa.CheckConstraint(
            f"computer_level IS NULL OR computer_level IN {LEVEL_VALUES}",
            name=op.f("ck_seats_computer_level"),
        ),
        sa.CheckConstraint(
            "user_id IS NOT NULL OR computer_level IS NOT NULL", name=op.f("ck_seats_occupied")
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_seats_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_seats_user_id_users")),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_seats")),
        sa.UniqueConstraint("game_id", "user_id", name=op.f("uq_seats_game_id_user_id")),
    )
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.create_table(
        "rounds",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("deal", sa.JSON(), nullable=False),
        sa.Column("leader", sa.SmallInteger(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_rounds_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "number", name=op.f("pk_rounds")),
    )
    op.create_table(
        "moves",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("round_number", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("ply", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("code", sa.SmallInteger(), nullable=False),
        _created_at(),
        sa.ForeignKeyConstraint(
            ["game_id", "round_number"],
            ["rounds.game_id", "rounds.number"],
            name=op.f("fk_moves_game_id_round_number_rounds"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "round_number", "ply", name=op.f("pk_moves")),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "results",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("place", sa.SmallInteger(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("rounds_won", sa.Integer(), nullable=False),
        sa.Column("gaples", sa.Integer(), nullable=False),
        sa.Column("best_round", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_results_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["users.id"], name=op.f("fk_results_player_id_users")
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_results")),
    )
    # Covering indexes for the weekly boards (and none on player_id alone: see the models).
    op.create_index(
        "ix_results_chat_id_finished_at",
        "results",
        ["chat_id", "finished_at", "player_id", "place", "points"],
    )
    op.create_index(
        "ix_results_finished_at", "results", ["finished_at", "player_id", "place", "points"]
    )
    op.create_table(
        "ratings",
        sa.Column("scope", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["users.id"], name=op.f("fk_ratings_player_id_users")
        ),
        sa.PrimaryKeyConstraint("scope", "player_id", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_scope_ordinal", "ratings", ["scope", "ordinal"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.BigInteger(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("delta", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_rating_changes_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["users.id"], name=op.f("fk_rating_changes_player_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_changes")),
    )
    op.create_index("ix_rating_changes_game_id", "rating_changes", ["game_id"])
    # Covering index for the weekly rating board: the window's rows without the table.
    op.create_index(
        "ix_rating_changes_scope_at", "rating_changes", ["scope", "at", "player_id", "delta"]
    )
    op.create_table(
        "player_totals",
        sa.Column("scope", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("rounds_won", sa.Integer(), nullable=False),
        sa.Column("gaples", sa.Integer(), nullable=False),
        sa.Column("best_round", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["users.id"], name=op.f("fk_player_totals_player_id_users")
        ),
        sa.PrimaryKeyConstraint("scope", "player_id", name=op.f("pk_player_totals")),
    )
    op.create_index("ix_player_totals_scope_points", "player_totals", ["scope", "points"])
    op.create_index("ix_player_totals_scope_wins", "player_totals", ["scope", "wins", "points"])
    epoch = datetime(2026, 1, 1)
    op.bulk_insert(
        users,
        [
            {
                "id": player_id,
                "display_name": f"Computer ({level})",
                "language": None,
                "can_message": False,
                "is_computer": True,
                "created_at": epoch,
                "updated_at": epoch,
            }
            for player_id, level in COMPUTER_PLAYERS
        ],
    )


def downgrade() -> None:
    """Drop everything (the data goes with it)."""
    for table in (
        "player_totals",
        "rating_changes",
        "ratings",
        "results",
        "moves",
        "rounds",
        "seats",
        "games",
        "chats",
        "users",
    ):
        op.drop_table(table)


def _partial_index(
    name: str, table: str, columns: list[str], where: str, *, unique: bool = False
) -> None:
    """An index over the rows matching `where` (SQLite and PostgreSQL both have them)."""
    op.create_index(
        name,
        table,
        columns,
        unique=unique,
        sqlite_where=sa.text(where),
        postgresql_where=sa.text(where),
    )
