"""Remember the language Telegram reports for each person (their app's language).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add users.telegram_language."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("telegram_language", sa.String(length=16), nullable=True))


def downgrade() -> None:
    """Drop users.telegram_language."""
    with op.batch_alter_table("users") as batch:
        batch.drop_column("telegram_language")
