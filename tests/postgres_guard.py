"""The guard of a test process's throwaway PostgreSQL server: stops it and deletes its folder
once that process is gone, however it went (a test run timed out, interrupted, killed).

`PostgresServer.start` runs this file as a process of its own (`python -I -S`, the standard
library only: it starts in a few milliseconds), in a session of its own (a terminal's Ctrl+C
is for the tests, not for it), its standard input a pipe whose other end only the test
process holds. It waits on that pipe: the end of input comes when the test process closes
it (its server stopped) or when the process ends in any way, even killed, as the system then
closes its files. The guard then stops whatever server is left in the folder and deletes it.

Arguments: the folder holding initdb and pg_ctl, the server's folder, and the user and group
ids to run pg_ctl as (-1: as the guard itself)."""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    bin_dir, folder, uid, gid = Path(argv[0]), Path(argv[1]), int(argv[2]), int(argv[3])
    for ignored in (signal.SIGINT, signal.SIGHUP):
        # The tests' own interruptions: the guard still has its work to do after them.
        signal.signal(ignored, signal.SIG_IGN)
    while sys.stdin.buffer.read(4096):
        pass
    data = folder / "data"
    if (data / "postmaster.pid").exists():
        owner = {"user": uid, "group": gid} if uid >= 0 else {}
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                [str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=folder,
                check=False,
                timeout=120,
                **owner,  # type: ignore[arg-type]
            )
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
