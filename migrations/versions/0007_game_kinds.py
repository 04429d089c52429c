"""Game kinds: games name their kind, chat settings become per-kind options, result fields
specific to Gaple become per-kind extras, and totals, ratings and boards are kept per kind.

Every existing game, result, total and rating is Gaple's; every chat keeps its settings as
Gaple's options (rules, target, turn, level), so nothing changes for anyone.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

GAPLE = "gaple"
"""The only kind before this migration."""
EXTRAS = (("gaples", "sum"), ("best_round", "max"))
"""Gaple's extras: the old results/player_totals columns, and how totals keep them."""
RULES = (
    ("classic", "classic", "discard"),
    ("discards", "discards", "discard"),
    ("discards-pass", "discards", "pass"),
)
"""Gaple's "rules" option and the old chats.rule_set and chats.stuck_rule it stands for."""
LEVEL_VALUES = "('easy', 'normal', 'hard')"


def _kind() -> sa.Column[str]:
    """A NOT NULL kind column; existing rows become Gaple's (the default is dropped after)."""
    return sa.Column("kind", sa.String(length=32), server_default=GAPLE, nullable=False)


def _drop_kind_default(*tables: str) -> None:
    for table in tables:
        with op.batch_alter_table(table) as batch:
            batch.alter_column(
                "kind",
                existing_type=sa.String(length=32),
                existing_nullable=False,
                server_default=None,
            )


def upgrade() -> None:
    """Add the kinds, move chat settings and Gaple's result fields, re-key totals and
    ratings by kind."""
    connection = op.get_bind()
    _chat_options_up(connection)
    with op.batch_alter_table("games") as batch:
        batch.add_column(_kind())
    _results_up(connection)
    _ratings_up()
    _totals_up(connection)
    _drop_kind_default("games", "results", "ratings", "rating_changes", "player_totals")


def _chat_options_up(connection: sa.Connection) -> None:
    op.create_table(
        "chat_options",
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["chat_id"],
            ["chats.id"],
            name=op.f("fk_chat_options_chat_id_chats"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("chat_id", "kind", "name", name=op.f("pk_chat_options")),
    )
    rules = " ".join(
        f"WHEN rule_set = '{rule_set}' AND stuck_rule = '{stuck}' THEN '{name}'"
        for name, rule_set, stuck in RULES
    )
    # Classic ignores the stuck rule: any classic chat's rules are 'classic'.
    rules = f"CASE WHEN rule_set = 'classic' THEN 'classic' {rules} ELSE 'classic' END"
    for name, value in (
        ("rules", rules),
        ("target", "CAST(target AS VARCHAR(64))"),
        ("turn", "CAST(turn_seconds AS VARCHAR(64))"),
        ("level", "computer_level"),
    ):
        connection.execute(
            sa.text(
                "INSERT INTO chat_options (chat_id, kind, name, value) "
                f"SELECT id, '{GAPLE}', '{name}', {value} FROM chats"
            )
        )
    with op.batch_alter_table("chats") as batch:
        for check in ("computer_level", "rule_set", "stuck_rule", "target", "turn_seconds"):
            batch.drop_constraint(op.f(f"ck_chats_{check}"), type_="check")
        for column in ("rule_set", "target", "stuck_rule", "turn_seconds", "computer_level"):
            batch.drop_column(column)


def _results_up(connection: sa.Connection) -> None:
    with op.batch_alter_table("results") as batch:
        batch.drop_index("ix_results_chat_id_finished_at")
        batch.drop_index("ix_results_finished_at")
        batch.add_column(_kind())
        batch.add_column(sa.Column("extras", sa.JSON(), nullable=True))
    extras = sa.table(
        "results",
        sa.column("game_id", sa.Integer),
        sa.column("seat", sa.SmallInteger),
        sa.column("gaples", sa.Integer),
        sa.column("best_round", sa.Integer),
        sa.column("extras", sa.JSON),
    )
    rows = connection.execute(
        sa.select(extras.c.game_id, extras.c.seat, extras.c.gaples, extras.c.best_round)
    ).all()
    if rows:
        connection.execute(
            extras.update()
            .where(
                extras.c.game_id == sa.bindparam("g"),
                extras.c.seat == sa.bindparam("s"),
            )
            .values(extras=sa.bindparam("e")),
            [
                {"g": game_id, "s": seat, "e": {"gaples": gaples, "best_round": best}}
                for game_id, seat, gaples, best in rows
            ],
        )
    with op.batch_alter_table("results") as batch:
        batch.alter_column("extras", existing_type=sa.JSON(), nullable=False)
        batch.drop_column("gaples")
        batch.drop_column("best_round")
        batch.create_index(
            "ix_results_kind_chat_id_finished_at",
            ["kind", "chat_id", "finished_at", "player_id", "place", "points"],
        )
        batch.create_index(
            "ix_results_kind_finished_at", ["kind", "finished_at", "player_id", "place", "points"]
        )


def _ratings_up() -> None:
    with op.batch_alter_table("ratings") as batch:
        batch.drop_index("ix_ratings_scope_ordinal")
        batch.add_column(_kind())
        batch.drop_constraint("pk_ratings", type_="primary")
        batch.create_primary_key("pk_ratings", ["kind", "scope", "player_id"])
        batch.create_index("ix_ratings_kind_scope_ordinal", ["kind", "scope", "ordinal"])
    with op.batch_alter_table("rating_changes") as batch:
        batch.drop_index("ix_rating_changes_scope_at")
        batch.add_column(_kind())
        batch.create_index(
            "ix_rating_changes_kind_scope_at", ["kind", "scope", "at", "player_id", "delta"]
        )


def _totals_up(connection: sa.Connection) -> None:
    op.create_table(
        "player_extras",
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("scope", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("aggregate", sa.String(length=8), nullable=False),
        sa.Column("value", sa.Integer(), nullable=False),
        sa.CheckConstraint("aggregate IN ('sum', 'max')", name=op.f("ck_player_extras_aggregate")),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["users.id"],
            name=op.f("fk_player_extras_player_id_users"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint(
            "kind", "scope", "player_id", "name", name=op.f("pk_player_extras")
        ),
    )
    for name, aggregate in EXTRAS:
        connection.execute(
            sa.text(
                "INSERT INTO player_extras (kind, scope, player_id, name, aggregate, value) "
                f"SELECT '{GAPLE}', scope, player_id, '{name}', '{aggregate}', {name} "
                "FROM player_totals"
            )
        )
    with op.batch_alter_table("player_totals") as batch:
        batch.drop_index("ix_player_totals_scope_points")
        batch.drop_index("ix_player_totals_scope_wins")
        batch.add_column(_kind())
        batch.drop_column("gaples")
        batch.drop_column("best_round")
        batch.drop_constraint("pk_player_totals", type_="primary")
        batch.create_primary_key("pk_player_totals", ["kind", "scope", "player_id"])
        batch.create_index("ix_player_totals_kind_scope_points", ["kind", "scope", "points"])
        batch.create_index("ix_player_totals_kind_scope_wins", ["kind", "scope", "wins", "points"])


def downgrade() -> None:
    """Back to one game: only Gaple's rows are kept (other kinds' games, results, totals
    and ratings are deleted), its options and extras return to their columns."""
    connection = op.get_bind()
    for table in ("player_extras", "player_totals", "ratings", "rating_changes", "results"):
        connection.execute(sa.text(f"DELETE FROM {table} WHERE kind <> '{GAPLE}'"))
    # Migrations on SQLite run with foreign keys off (no cascade): a game's rows go first.
    others = f"SELECT id FROM games WHERE kind <> '{GAPLE}'"
    for table in ("moves", "rounds", "seats"):
        connection.execute(sa.text(f"DELETE FROM {table} WHERE game_id IN ({others})"))
    connection.execute(sa.text(f"DELETE FROM games WHERE kind <> '{GAPLE}'"))
    _totals_down(connection)
    _ratings_down()
    _results_down(connection)
    with op.batch_alter_table("games") as batch:
        batch.drop_column("kind")
    _chat_options_down(connection)


def _totals_down(connection: sa.Connection) -> None:
    with op.batch_alter_table("player_totals") as batch:
        batch.drop_index("ix_player_totals_kind_scope_wins")
        batch.drop_index("ix_player_totals_kind_scope_points")
        batch.add_column(sa.Column("gaples", sa.Integer(), server_default="0", nullable=False))
        batch.add_column(sa.Column("best_round", sa.Integer(), server_default="0", nullable=False))
        batch.drop_constraint("pk_player_totals", type_="primary")
        batch.create_primary_key("pk_player_totals", ["scope", "player_id"])
        batch.drop_column("kind")
        batch.create_index("ix_player_totals_scope_points", ["scope", "points"])
        batch.create_index("ix_player_totals_scope_wins", ["scope", "wins", "points"])
    for name, _ in EXTRAS:
        connection.execute(
            sa.text(
                f"UPDATE player_totals SET {name} = COALESCE((SELECT e.value FROM "
                "player_extras e WHERE e.scope = player_totals.scope AND e.player_id = "
                f"player_totals.player_id AND e.kind = '{GAPLE}' AND e.name = '{name}'), 0)"
            )
        )
    _drop_defaults("player_totals", ("gaples", "best_round"))
    op.drop_table("player_extras")


def _ratings_down() -> None:
    with op.batch_alter_table("rating_changes") as batch:
        batch.drop_index("ix_rating_changes_kind_scope_at")
        batch.drop_column("kind")
        batch.create_index("ix_rating_changes_scope_at", ["scope", "at", "player_id", "delta"])
    with op.batch_alter_table("ratings") as batch:
        batch.drop_index("ix_ratings_kind_scope_ordinal")
        batch.drop_constraint("pk_ratings", type_="primary")
        batch.create_primary_key("pk_ratings", ["scope", "player_id"])
        batch.drop_column("kind")
        batch.create_index("ix_ratings_scope_ordinal", ["scope", "ordinal"])


def _results_down(connection: sa.Connection) -> None:
    with op.batch_alter_table("results") as batch:
        batch.drop_index("ix_results_kind_chat_id_finished_at")
        batch.drop_index("ix_results_kind_finished_at")
        batch.add_column(sa.Column("gaples", sa.Integer(), server_default="0", nullable=False))
        batch.add_column(sa.Column("best_round", sa.Integer(), server_default="0", nullable=False))
    results = sa.table(
        "results",
        sa.column("game_id", sa.Integer),
        sa.column("seat", sa.SmallInteger),
        sa.column("gaples", sa.Integer),
        sa.column("best_round", sa.Integer),
        sa.column("extras", sa.JSON),
    )
    rows = connection.execute(sa.select(results.c.game_id, results.c.seat, results.c.extras)).all()
    if rows:
        connection.execute(
            results.update()
            .where(results.c.game_id == sa.bindparam("g"), results.c.seat == sa.bindparam("s"))
            .values(gaples=sa.bindparam("n"), best_round=sa.bindparam("b")),
            [
                {
                    "g": game_id,
                    "s": seat,
                    "n": int(extras.get("gaples", 0)),
                    "b": int(extras.get("best_round", 0)),
                }
                for game_id, seat, extras in rows
            ],
        )
    with op.batch_alter_table("results") as batch:
        batch.drop_column("extras")
        batch.drop_column("kind")
        batch.create_index(
            "ix_results_chat_id_finished_at",
            ["chat_id", "finished_at", "player_id", "place", "points"],
        )
        batch.create_index(
            "ix_results_finished_at", ["finished_at", "player_id", "place", "points"]
        )
    _drop_defaults("results", ("gaples", "best_round"))


def _chat_options_down(connection: sa.Connection) -> None:
    with op.batch_alter_table("chats") as batch:
        batch.add_column(
            sa.Column("rule_set", sa.String(length=16), server_default="classic", nullable=False)
        )
        batch.add_column(
            sa.Column("target", sa.Integer(), server_default=sa.text("100"), nullable=False)
        )
        batch.add_column(
            sa.Column("stuck_rule", sa.String(length=16), server_default="discard", nullable=False)
        )
        batch.add_column(
            sa.Column("turn_seconds", sa.Integer(), server_default=sa.text("60"), nullable=False)
        )
        batch.add_column(
            sa.Column(
                "computer_level", sa.String(length=16), server_default="normal", nullable=False
            )
        )
    options = connection.execute(
        sa.text(f"SELECT chat_id, name, value FROM chat_options WHERE kind = '{GAPLE}'")
    ).all()
    chats = sa.table(
        "chats",
        sa.column("id", sa.BigInteger),
        sa.column("rule_set", sa.String),
        sa.column("target", sa.Integer),
        sa.column("stuck_rule", sa.String),
        sa.column("turn_seconds", sa.Integer),
        sa.column("computer_level", sa.String),
    )
    rules = {name: (rule_set, stuck) for name, rule_set, stuck in RULES}
    for chat_id, name, value in options:
        values: dict[str, object] = {}
        if name == "rules" and value in rules:
            values = dict(zip(("rule_set", "stuck_rule"), rules[value], strict=True))
        elif name == "target" and value.isdigit() and 1 <= int(value) <= 10_000:
            values = {"target": int(value)}
        elif name == "turn" and value.isdigit() and int(value) > 0:
            values = {"turn_seconds": int(value)}
        elif name == "level" and value in ("easy", "normal", "hard"):
            values = {"computer_level": value}
        if values:
            connection.execute(chats.update().where(chats.c.id == chat_id).values(**values))
    op.drop_table("chat_options")
    with op.batch_alter_table("chats") as batch:
        batch.create_check_constraint(
            op.f("ck_chats_computer_level"), f"computer_level IN {LEVEL_VALUES}"
        )
        batch.create_check_constraint(
            op.f("ck_chats_rule_set"), "rule_set IN ('classic', 'discards')"
        )
        batch.create_check_constraint(
            op.f("ck_chats_stuck_rule"), "stuck_rule IN ('discard', 'pass')"
        )
        batch.create_check_constraint(op.f("ck_chats_target"), "target BETWEEN 1 AND 10000")
        batch.create_check_constraint(op.f("ck_chats_turn_seconds"), "turn_seconds > 0")


def _drop_defaults(table: str, columns: Sequence[str]) -> None:
    with op.batch_alter_table(table) as batch:
        for column in columns:
            batch.alter_column(
                column, existing_type=sa.Integer(), existing_nullable=False, server_default=None
            )
