"""A pool's process ends as soon as the process that started it does, however that one ends."""

from __future__ import annotations

import os
import select
import sys
import threading
import time
from collections.abc import Callable

PARENT_CHECK_SECONDS = 1.0
"""Where the system cannot tell this process that another one ended, how often it looks."""
ORPHANED_EXIT = 1
"""The exit code of a pool's process that ended because its parent had."""


def end_with_parent(parent: int) -> None:
    """A process pool's initializer: this process ends as soon as `parent` (the one that
    started it) ends, even killed with SIGKILL.

    Otherwise it waits for work forever (it holds both ends of the pool's queues), and so does
    multiprocessing's resource tracker, which ends once every process holding its pipe has.
    The parent is watched as a process, not through PR_SET_PDEATHSIG: that signal comes when
    the *thread* that started the child ends, and a pool starts its processes lazily from
    whichever thread submits work."""
    wait = _parent_watch(parent)
    threading.Thread(target=_end_after, args=(wait,), name="end-with-parent", daemon=True).start()


def _parent_watch(parent: int) -> Callable[[], None]:
    """A call that returns once `parent` has ended; this process ends now if it already has."""
    handle = _process_handle(parent)
    # Checked after opening the handle: if `parent` is still this process's parent, the
    # handle is its (a pid is not used again while its process lives).
    if os.getppid() != parent:
        os._exit(ORPHANED_EXIT)
    if handle is None:
        return lambda: _wait_for_new_parent(parent)
    return lambda: _wait_until_readable(handle)


def _process_handle(pid: int) -> int | None:
    """A pidfd for `pid` (readable once it has ended), or None where there is none: not
    Linux, a kernel before 5.3, or a sandbox that forbids it."""
    if sys.platform != "linux":
        return None
    try:
        return os.pidfd_open(pid)
    except OSError:
        return None


def _wait_until_readable(handle: int) -> None:
    poller = select.poll()
    poller.register(handle, select.POLLIN)
    while not poller.poll():
        pass


def _wait_for_new_parent(parent: int) -> None:
    # Polled: a process whose parent ends is given to another one (init or a subreaper).
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)


def _end_after(wait: Callable[[], None]) -> None:
    wait()
    # At once, from this thread: nothing this process holds is worth saving for a pool
    # whose owner is gone (the resource tracker frees the pool's semaphores).
    os._exit(ORPHANED_EXIT)
