"""Scan a whole database, table by table and column by column, for a person's id and name."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from gaple_bot.store import Store
from gaple_bot.store.models import Base


def _mentions(value: Any, user_id: int, name: str) -> bool:
    if value is None or isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value == user_id
    text = str(value)  # strings, JSON documents, dates: their text must name neither
    return name in text or str(user_id) in text


async def rows_mentioning(store: Store, user_id: int, name: str) -> list[tuple[str, str, Any]]:
    """(table, column, value) of every cell that holds the id or contains the name."""
    found: list[tuple[str, str, Any]] = []
    async with store.read() as tx:
        for table in Base.metadata.sorted_tables:
            for row in (await tx.session.execute(select(table))).mappings():
                for column, value in row.items():
                    if _mentions(value, user_id, name):
                        found.append((table.name, column, value))
    return found
