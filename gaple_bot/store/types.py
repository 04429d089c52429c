"""Column types that behave the same on every backend: UTC datetimes and string enums."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, TypeVar

from sqlalchemy import DateTime, Dialect, String
from sqlalchemy.types import TypeDecorator

E = TypeVar("E", bound=StrEnum)


class UTCDateTime(TypeDecorator[datetime]):
    """An aware UTC datetime, stored as a naive UTC timestamp (SQLite has no time zones)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("the store keeps aware datetimes only (use datetime.now(UTC))")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC)


class StrEnumType(TypeDecorator[E]):
    """A StrEnum kept as its string value in a VARCHAR (pair it with a CHECK constraint)."""

    impl = String
    cache_ok = True

    def __init__(self, enum_class: type[E], length: int = 16) -> None:
        super().__init__(length)
        self.enum_class = enum_class

    def process_bind_param(self, value: E | str | None, dialect: Dialect) -> str | None:
        return None if value is None else self.enum_class(value).value

    def process_result_value(self, value: Any, dialect: Dialect) -> E | None:
        return None if value is None else self.enum_class(value)


def utc_now() -> datetime:
    """The current time as an aware UTC datetime."""
    return datetime.now(UTC)
