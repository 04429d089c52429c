"""SQL helpers the repositories share: affected-row counts, a portable upsert, the larger
of two values."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import ColumnElement, CursorResult, Executable, Table, func
from sqlalchemy.dialects import postgresql, sqlite

from ..models import Base
from ..statements import Statements


async def rowcount(
    session: Statements, statement: Executable, params: Mapping[str, object] | None = None
) -> int:
    """Run an UPDATE or DELETE and return how many rows it matched."""
    result = await session.execute(statement, params)
    return cast("CursorResult[Any]", result).rowcount


def upsert_insert(session: Statements, model: type[Base]) -> sqlite.Insert | postgresql.Insert:
    """An INSERT that can take ON CONFLICT ... DO UPDATE (`.on_conflict_do_update`, with the
    proposed row as `.excluded`). SQLite and PostgreSQL spell it the same way; each gets its
    own dialect's construct."""
    table = cast(Table, model.__table__)
    name = session.get_bind().dialect.name
    if name == "sqlite":
        return sqlite.insert(table)
    if name == "postgresql":
        return postgresql.insert(table)
    raise NotImplementedError(f"no upsert for the {name} dialect")


def upsert(
    session: Statements, model: type[Base], keys: list[str], update: list[str]
) -> sqlite.Insert | postgresql.Insert:
    """INSERT ... ON CONFLICT (keys) DO UPDATE SET each of `update` to the proposed value."""
    stmt = upsert_insert(session, model)
    return stmt.on_conflict_do_update(
        index_elements=keys, set_={column: stmt.excluded[column] for column in update}
    )


def larger(session: Statements, left: Any, right: Any) -> ColumnElement[Any]:
    """The larger of two values: SQLite's two-argument max(), PostgreSQL's GREATEST."""
    if session.get_bind().dialect.name == "postgresql":
        return func.greatest(left, right)
    return func.max(left, right)
