"""A throwaway PostgreSQL server for the tests, started from the machine's binaries, and
stopped with its folder deleted at the end, or by its guard (postgres_guard.py) if the test
process ends without stopping it (a run timed out, interrupted or killed)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import NoReturn

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from gaple_bot.store import upgrade_to_head

TEMPLATE = "gaple_template"
SUPERUSER = "gaple"
# Speed over durability: the server lives for one test session and is thrown away.
SERVER_OPTIONS = (
    "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
    "-c shared_buffers=32MB -c max_connections=300 -c unix_socket_directories=''"
)


class NoPostgres(Exception):
    """This machine cannot start a PostgreSQL server (the message says why)."""


def without_postgres(exc: NoPostgres) -> NoReturn:
    """A test that needs PostgreSQL on a machine without it: skipped on a developer's machine
    (the rest of the suite still runs there), failed under CI (CI=true), which installs
    Debian's postgresql and must test against it."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must test on PostgreSQL, but: {exc}")
    pytest.skip(f"no PostgreSQL server could start here: {exc}")


def binaries() -> Path:
    """The folder holding initdb and pg_ctl: PATH first, then Debian's versioned folders."""
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).resolve().parent
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if not found:
        raise NoPostgres("no PostgreSQL binaries (pg_ctl, initdb): install Debian's postgresql")
    return Path(found[-1]).parent


def server_user() -> pwd.struct_passwd | None:
    """Whom the server runs as: PostgreSQL refuses to run as root, so under root (as in CI) the
    `postgres` account the Debian package creates, else `nobody`; None means ourselves."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise NoPostgres("running as root, with neither a postgres nor a nobody account to run as")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class PostgresServer:
    """One server in a temporary folder, on 127.0.0.1, with a migrated template database."""

    bin_dir: Path
    folder: Path
    port: int
    user: pwd.struct_passwd | None
    _numbers: count[int] = field(default_factory=count)
    _guard: subprocess.Popen[bytes] | None = None

    @classmethod
    def start(cls) -> PostgresServer:
        """Initialise and start a server (raises NoPostgres where the machine cannot), its
        guard watching from before the first file is written."""
        bin_dir = binaries()
        user = server_user()
        folder = Path(tempfile.mkdtemp(prefix="gaple-pg-"))
        if user is not None:
            os.chown(folder, user.pw_uid, user.pw_gid)
        server = cls(bin_dir, folder, free_port(), user)
        try:
            server._guard = _guard(bin_dir, folder, user)
            data = str(server.data)
            server._run(
                "initdb",
                "-D",
                data,
                "-U",
                SUPERUSER,
                "-A",
                "trust",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            )
            options = f"-p {server.port} -h 127.0.0.1 {SERVER_OPTIONS}"
            log = str(folder / "server.log")
            server._run("pg_ctl", "-D", data, "-l", log, "-w", "-t", "120", "-o", options, "start")
        except BaseException:
            server.stop()
            raise
        return server

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def _run(self, program: str, *args: str) -> None:
        kwargs: dict[str, object] = {}
        if self.user is not None:
            kwargs = {"user": self.user.pw_uid, "group": self.user.pw_gid}
        done = subprocess.run(
            [str(self.bin_dir / program), *args],
            capture_output=True,
            text=True,
            cwd=self.folder,
            check=False,
            timeout=300,
            **kwargs,  # type: ignore[arg-type]
        )
        if done.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise NoPostgres(f"{program} failed: {done.stderr.strip()[-2000:]}\n{tail}")

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of one of this server's databases."""
        return f"postgresql+asyncpg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    async def _admin(self, statement: str) -> None:
        connection = await asyncpg.connect(
            host="127.0.0.1", port=self.port, user=SUPERUSER, database="postgres"
        )
        try:
            await connection.execute(statement)
        finally:
            await connection.close()

    async def migrate_template(self) -> None:
        """Create the template database and run every migration on it."""
        await self._admin(f"CREATE DATABASE {TEMPLATE}")
        await upgrade_to_head(self.url(TEMPLATE))

    async def new_database(self, *, migrated: bool = True) -> str:
        """A new database of its own (a copy of the migrated template, or empty)."""
        name = f"test_{os.getpid()}_{next(self._numbers)}"
        template = TEMPLATE if migrated else "template0"
        await self._admin(f"CREATE DATABASE {name} TEMPLATE {template}")
        return name

    async def drop_database(self, name: str) -> None:
        """Drop a test's database, closing whatever connections it left."""
        await self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        """Stop the server at once and delete its folder; then its guard, with nothing left
        to do, ends."""
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(NoPostgres, subprocess.TimeoutExpired):
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
        guard, self._guard = self._guard, None
        if guard is not None:
            if guard.stdin is not None:
                guard.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                guard.wait(timeout=120)


def _guard(bin_dir: Path, folder: Path, user: pwd.struct_passwd | None) -> subprocess.Popen[bytes]:
    """The server's guard (postgres_guard.py): it stops the server in `folder` and deletes
    the folder once this process closes the pipe to it, or ends however it ends (even
    killed, when the system closes the pipe). In a session of its own, so that the signals of
    a run interrupted from its terminal do not reach it; the pipe's end is not inherited by
    any other process (Python's files are not), so only this process's end ends it."""
    uid, gid = (user.pw_uid, user.pw_gid) if user is not None else (-1, -1)
    return subprocess.Popen(
        [
            sys.executable,
            "-I",
            "-S",
            str(Path(__file__).with_name("postgres_guard.py")),
            str(bin_dir),
            str(folder),
            str(uid),
            str(gid),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


async def advisory_lock_holder(url: str, space: int, key: int) -> int | None:
    """The server process id of the session holding the advisory lock (space, key), if any,
    as another connection sees it."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            pid = await connection.scalar(
                text(
                    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
                    " AND classid = :space AND objid = :key AND objsubid = 2"
                ),
                {"space": space, "key": key},
            )
            return None if pid is None else int(pid)
    finally:
        await engine.dispose()


async def end_session(url: str, pid: int) -> None:
    """End a session from outside, as a network fault or a server restart would."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            assert await connection.scalar(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    finally:
        await engine.dispose()
