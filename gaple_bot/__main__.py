"""The `gaple-bot` command: run the bot (default) or the computer-player arena."""

from __future__ import annotations

import difflib
import os
import shlex
import sys
from collections.abc import MutableMapping
from dataclasses import dataclass

from .bot.supervisor import WORKER_FLAG, Supervisor, Worker, refusal
from .settings import MissingToken, SettingsError, load_settings

USAGE = """usage: gaple-bot              run the bot (settings from the environment or .env;
                              see .env.example)
       gaple-bot --workers N  run N webhook workers on WEBHOOK_PORT (PostgreSQL, a fixed
                              WEBHOOK_SECRET; see docs/RUNNING.md)
       gaple-bot local        play in your browser against computer players, no token
                              needed (gaple-bot local --help)
       gaple-bot arena        the computer players' arena (gaple-bot arena --help)"""


COMMANDS = ("local", "arena")
OPTIONS = ("--help", "--workers")
"""The options a mistyped word is compared with (never the internal worker flag: nobody is
pointed at it)."""


class UsageError(ValueError):
    """The command line names a command, option or value gaple-bot does not know."""


@dataclass(frozen=True, slots=True)
class BotRun:
    """How the bot runs: one process, `workers` webhook workers, or one of them."""

    workers: int | None = None
    worker: Worker | None = None


def bot_run(args: list[str]) -> BotRun:
    """How the bot runs, from the arguments after `gaple-bot` (raises UsageError)."""
    if not args:
        return BotRun()
    first, rest = args[0], args[1:]
    if first == "--workers":
        return BotRun(workers=_worker_count(rest))
    if first == WORKER_FLAG:
        return BotRun(worker=_internal_worker(rest))
    if first.startswith("-"):
        raise UsageError(f"unknown option {first!r}{_nearest(first, OPTIONS)}")
    raise UsageError(f"unknown command {first!r}{_nearest(first, COMMANDS + OPTIONS)}")


def _worker_count(rest: list[str]) -> int:
    """N of `--workers N`, a whole number from 1 up and the last argument."""
    if not rest:
        raise UsageError("--workers takes a number of workers from 1 up")
    try:
        count = int(rest[0])
    except ValueError:
        count = 0
    if count < 1:
        raise UsageError(f"--workers takes a number of workers from 1 up, not {rest[0]!r}")
    if len(rest) > 1:
        raise UsageError(f"unknown argument {rest[1]!r} after --workers {rest[0]}")
    return count


def _internal_worker(rest: list[str]) -> Worker:
    """I/N of the supervisor's own `--worker I/N`."""
    try:
        if len(rest) != 1:
            raise ValueError("one I/N")
        return Worker.parse(rest[0])
    except ValueError:
        raise UsageError(f"{WORKER_FLAG} is internal (I/N); did you mean --workers N?") from None


def _nearest(given: str, known: tuple[str, ...]) -> str:
    """`; did you mean X?` for the known word closest to a mistyped one, else nothing."""
    close = difflib.get_close_matches(given, known, n=1)
    return f"; did you mean {close[0]}?" if close else ""


def opt_into_timedelta_periods(environ: MutableMapping[str, str]) -> None:
    """python-telegram-bot gives its time periods as timedeltas, as its v23 will."""
    # Read at each access: without it every RetryAfter, even as the library builds one,
    # warns (PTBDeprecationWarning) that `retry_after` will become a timedelta.
    environ["PTB_TIMEDELTA"] = "true"


def _say(line: str) -> None:
    """One line on stderr, before the bot's logging is set up."""
    print(f"gaple-bot: {line}", file=sys.stderr)


def _as_run() -> str:
    """The command the bot was run by, as the shell found it (`.venv/bin/gaple-bot` from a
    clone's folder, where a bare `gaple-bot` is not on the PATH; a full path when the PATH
    gave it), quoted for the shell; `gaple-bot` when it was run another way."""
    path = sys.argv[0] if sys.argv else ""
    return shlex.quote(path) if os.path.basename(path) == "gaple-bot" else "gaple-bot"


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit code."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if args[:1] == ["local"]:
        from .web.local import main as local_main

        return local_main(args[1:])
    if args[:1] == ["arena"]:
        from .games.gaple.ai.arena import main as arena_main

        return arena_main(args[1:])
    try:
        how = bot_run(args)
    except UsageError as exc:
        # Before the settings are read: a mistyped command never starts the bot.
        print(f"gaple-bot: {exc} (gaple-bot --help)", file=sys.stderr)
        return 2
    try:
        settings = load_settings(os.environ, warn=_say)
    except MissingToken:
        print(f"gaple-bot: {MissingToken(_as_run() + ' local')}", file=sys.stderr)
        return 2
    except SettingsError as exc:
        print(f"gaple-bot: {exc}", file=sys.stderr)
        return 2
    opt_into_timedelta_periods(os.environ)
    from telegram.error import InvalidToken, NetworkError

    from .app import run, setup_logging
    from .bot.server import CannotListen
    from .logs import redacted, token_secrets
    from .store import DatabaseTaken, DatabaseUnavailable

    if how.workers is not None:
        problem = refusal(settings, how.workers)
        if problem is not None:
            print(f"gaple-bot: {problem}", file=sys.stderr)
            return 2
        if how.workers > 1:
            setup_logging(settings, settings.webhook_secret)
            return Supervisor(how.workers).run()
    try:
        run(settings, how.worker)
    except InvalidToken:
        print(
            f"gaple-bot: the Bot API at {settings.telegram_api_base_url} rejected "
            "TELEGRAM_BOT_TOKEN; copy it again from @BotFather into .env (see .env.example)",
            file=sys.stderr,
        )
        return 2
    except NetworkError as exc:
        # The request's URL carries the token: it never leaves in a message.
        reason = redacted(str(exc), token_secrets(settings.telegram_bot_token))
        print(
            f"gaple-bot: cannot reach the Bot API at {settings.telegram_api_base_url}: {reason}",
            file=sys.stderr,
        )
        return 1
    except DatabaseUnavailable as exc:
        print(f"gaple-bot: {exc} (DATABASE_URL)", file=sys.stderr)
        return 1
    except DatabaseTaken as exc:
        print(f"gaple-bot: {exc} (DATABASE_URL)", file=sys.stderr)
        return 1
    except CannotListen as exc:
        print(f"gaple-bot: {exc} (WEBHOOK_LISTEN, WEBHOOK_PORT or METRICS_PORT)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
