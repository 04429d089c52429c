"""Give every foreign key to users an explicit ON DELETE, for /deletemydata.

A person's ratings and rating history go with them (CASCADE); their games, seats, results
and totals must be handed to an anonymous former-player row first (RESTRICT), so deleting a
person can never silently drop other people's records.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

USER_KEYS: tuple[tuple[str, str, str], ...] = (
    ("games", "opener_id", "RESTRICT"),
    ("seats", "user_id", "RESTRICT"),
    ("results", "player_id", "RESTRICT"),
    ("player_totals", "player_id", "RESTRICT"),
    ("ratings", "player_id", "CASCADE"),
    ("rating_changes", "player_id", "CASCADE"),
)
"""Each table's column that refers to users.id, and what deleting the user does to it."""


def _recreate(ondelete: dict[str, str | None]) -> None:
    for table, column, _ in USER_KEYS:
        name = f"fk_{table}_{column}_users"
        with op.batch_alter_table(table) as batch:
            batch.drop_constraint(name, type_="foreignkey")
            batch.create_foreign_key(name, "users", [column], ["id"], ondelete=ondelete[table])


def upgrade() -> None:
    """Explicit ON DELETE on every foreign key to users."""
    _recreate({table: action for table, _, action in USER_KEYS})


def downgrade() -> None:
    """Foreign keys to users without ON DELETE again."""
    _recreate({table: None for table, _, _ in USER_KEYS})
