"""A pool's process ends with the process that started it: through a pidfd where Linux has
one, by watching its parent pid elsewhere, and at once if its parent is gone already."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gaple_bot.service.lifeline import ORPHANED_EXIT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

GONE = 60.0
"""Seconds the child of the killed process gets to end (CI may be slow)."""
MIDDLE = """
import subprocess, sys
child = subprocess.Popen([sys.executable, "-c", sys.argv[1]])
print(child.pid, flush=True)
child.wait()
"""
"""The process to kill: it starts the child and waits."""
ARMED = "import os, sys, time\n{watch}\nprint('armed', flush=True)\ntime.sleep(600)\n"
"""The child: it starts watching its parent, says so, and would sleep long after that."""
WATCHES = {
    "end_with_parent": (
        "from gaple_bot.service.lifeline import end_with_parent\nend_with_parent(os.getppid())"
    ),
    # Where there is no pidfd: the parent's pid is polled.
    "parent pid polled": (
        "import threading\nfrom gaple_bot.service import lifeline\n"
        "parent = os.getppid()\n"
        "def watch():\n    lifeline._wait_for_new_parent(parent)\n    os._exit(7)\n"
        "threading.Thread(target=watch, daemon=True).start()"
    ),
}


def _alive(pid: int) -> bool:
    """Running still (a zombie has ended: it only waits to be reaped)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return text[text.rindex(")") + 2] != "Z"


@pytest.mark.parametrize("watch", WATCHES.values(), ids=WATCHES.keys())
def test_the_child_ends_when_its_parent_is_killed(watch: str) -> None:
    middle = subprocess.Popen(
        [sys.executable, "-c", MIDDLE, ARMED.format(watch=watch)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    )
    child = 0
    try:
        assert middle.stdout is not None
        child = int(middle.stdout.readline())
        assert middle.stdout.readline() == "armed\n"
        assert _alive(child)
        middle.send_signal(signal.SIGKILL)
        middle.wait()
        deadline = time.monotonic() + GONE
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(child), "the child outlived its killed parent"
    finally:
        middle.kill()
        middle.wait()
        if child and _alive(child):
            os.kill(child, signal.SIGKILL)


def test_a_child_whose_parent_is_gone_already_ends_at_once() -> None:
    """The parent may die before the pool's initializer runs: the child's parent is then
    another process than the one that started it."""
    script = (
        "import os\nfrom gaple_bot.service.lifeline import end_with_parent\n"
        "end_with_parent(os.getppid() + 1)\nprint('still here')"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=GONE, check=False
    )
    assert done.returncode == ORPHANED_EXIT
    assert done.stdout == ""
