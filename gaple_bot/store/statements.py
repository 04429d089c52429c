"""What the repositories ask of a unit of work's session: the async session's statements, which
an in-thread SQLite session (`inline.InlineSession`) offers too."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, TypeVarTuple, overload

from sqlalchemy import Connection, Engine, Result, ScalarResult
from sqlalchemy.sql import Executable

if TYPE_CHECKING:
    from sqlalchemy.engine.interfaces import _CoreAnyExecuteParams
    from sqlalchemy.sql.selectable import TypedReturnsRows

_T = TypeVar("_T")
_Ts = TypeVarTuple("_Ts")


class Statements(Protocol):
    """A session's statements, as `AsyncSession` types them."""

    @overload
    async def execute(
        self,
        statement: TypedReturnsRows[*_Ts],
        params: _CoreAnyExecuteParams | None = None,
    ) -> Result[*_Ts]: ...

    @overload
    async def execute(
        self, statement: Executable, params: _CoreAnyExecuteParams | None = None
    ) -> Result[*tuple[Any, ...]]: ...

    @overload
    async def scalar(
        self, statement: TypedReturnsRows[_T], params: _CoreAnyExecuteParams | None = None
    ) -> _T | None: ...

    @overload
    async def scalar(
        self, statement: Executable, params: _CoreAnyExecuteParams | None = None
    ) -> Any: ...

    @overload
    async def scalars(
        self, statement: TypedReturnsRows[_T], params: _CoreAnyExecuteParams | None = None
    ) -> ScalarResult[_T]: ...

    @overload
    async def scalars(
        self, statement: Executable, params: _CoreAnyExecuteParams | None = None
    ) -> ScalarResult[Any]: ...

    def get_bind(self) -> Engine | Connection:
        """What the statements run on (its dialect names the database)."""
        ...

    def begin_nested(self) -> AbstractAsyncContextManager[Any]:
        """A savepoint: what runs inside rolls back alone if it raises."""
        ...
