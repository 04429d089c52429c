"""The tests' throwaway PostgreSQL server does not outlive its test process: a run that times
out, is interrupted or killed leaves no server running and no folder behind (its guard stops
and deletes them), and a server stopped as usual leaves no guard behind."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.postgres import NoPostgres, PostgresServer, binaries, server_user, without_postgres

ROOT = Path(__file__).parents[1]
DEADLINE = 120.0
"""Seconds the server and its guard are given to go: generous, the machine may be busy."""
HOLDER = """
import select
import signal
import socket
from tests.postgres import PostgresServer
signal.signal(signal.SIGINT, signal.default_int_handler)
woken, wakeup = socket.socketpair()
wakeup.setblocking(False)
signal.set_wakeup_fd(wakeup.fileno())
server = PostgresServer.start()
print(server.port, server.folder, server._guard.pid, flush=True)
select.select([woken], [], [])
"""
"""A test process as far as its server goes: starts one, says where and which process
guards it, and waits, never stopping it (it ends as the test ends it). Ctrl+C raises
KeyboardInterrupt in it, as in a run started from a terminal, whatever this process was
given. It waits for the signal itself, on the byte the signal writes to its wakeup socket,
not in a blocking read of its input: Python acts on a signal between two steps of its code,
so a Ctrl+C that came just as a blocking read began would wait for the read to return, which
here is never (the likeliest cause of the one time this test timed out, on a busy machine);
the byte is there even for a signal that came before the wait began."""


@pytest.fixture
def machine_postgres() -> None:
    """Skipped where the machine has no PostgreSQL (a failure under CI), as `postgres` is."""
    try:
        binaries()
        server_user()
    except NoPostgres as exc:
        without_postgres(exc)


def listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(5)
        try:
            probe.connect(("127.0.0.1", port))
        except OSError:
            return False
        return True


def gone(port: int, folder: Path) -> bool:
    """No server answers on the port and its folder is deleted."""
    return not listening(port) and not folder.exists()


def process_handle(pid: int) -> int | None:
    """A descriptor of process `pid` (not a child of this one) that becomes readable as it
    ends; None if it has ended already."""
    try:
        return os.pidfd_open(pid)
    except ProcessLookupError:
        return None


def ended(handle: int | None, deadline: float = DEADLINE) -> bool:
    """Whether the process of `handle` ended within `deadline` seconds (its end itself is
    waited for, not a moment); the handle is closed."""
    if handle is None:
        return True
    try:
        readable, _, _ = select.select([handle], [], [], deadline)
        return bool(readable)
    finally:
        os.close(handle)


@pytest.mark.parametrize(
    "end", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=["killed", "terminated", "ctrl-c"]
)
def test_a_test_process_that_dies_leaves_no_server_running(
    machine_postgres: None, end: signal.Signals
) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    port, folder = 0, Path()
    try:
        assert holder.stdout is not None
        port_text, folder_text, guard_text = holder.stdout.readline().split()
        port, folder = int(port_text), Path(folder_text)
        assert listening(port) and (folder / "data" / "postmaster.pid").exists()
        # The guard ends once the server is stopped and its folder deleted.
        guard = process_handle(int(guard_text))
        assert guard is not None, "the guard ended while its test process lived"
        # The whole group, as a terminal's Ctrl+C or a runner's timeout signals it.
        os.killpg(holder.pid, end)
        holder.wait(timeout=DEADLINE)
        assert ended(guard), "the guard did not end after its test process"
        assert gone(port, folder), "the server outlived its test process"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(holder.pid, signal.SIGKILL)
        holder.wait(timeout=DEADLINE)
        if folder != Path():
            _clean_up(folder)


def test_a_server_stopped_as_usual_ends_its_guard(machine_postgres: None) -> None:
    server = PostgresServer.start()
    port, folder = server.port, server.folder
    try:
        guard = server._guard
        assert guard is not None and guard.poll() is None
        server.stop()
        assert guard.poll() is not None, "stop() waits for the guard to end"
        assert gone(port, folder)
    finally:
        _clean_up(folder)


def _clean_up(folder: Path) -> None:
    """What a failed test left of a server: stopped, its folder deleted."""
    data = folder / "data"
    if (data / "postmaster.pid").exists():
        user = server_user()
        owner = {} if user is None else {"user": user.pw_uid, "group": user.pw_gid}
        subprocess.run(
            [str(binaries() / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
            capture_output=True,
            check=False,
            cwd=folder,
            timeout=DEADLINE,
            **owner,  # type: ignore[arg-type]
        )
    shutil.rmtree(folder, ignore_errors=True)
