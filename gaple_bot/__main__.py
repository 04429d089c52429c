"""The `gaple-bot` command: run the bot (default) or the computer-player arena."""

from __future__ import annotations

import os
import sys

from .settings import SettingsError, load_settings

USAGE = """usage: gaple-bot              run the bot (settings from the environment or .env;
                              see .env.example)
       gaple-bot --workers N  run N webhook workers on WEBHOOK_PORT (PostgreSQL, a fixed
                              WEBHOOK_SECRET; see docs/RUNNING.md)
       gaple-bot local        play in your browser against computer players, no token
                              needed (gaple-bot local --help)
       gaple-bot arena        the computer players' arena (gaple-bot arena --help)"""


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
        settings = load_settings(os.environ)
    except SettingsError as exc:
        print(f"gaple-bot: {exc}", file=sys.stderr)
        return 2
    from telegram.error import InvalidToken, NetworkError

    from .bot.app import run, setup_logging
    from .bot.server import CannotListen
    from .bot.supervisor import WORKER_FLAG, Supervisor, Worker, refusal
    from .logs import redacted, token_secrets
    from .store import DatabaseTaken, DatabaseUnavailable

    worker: Worker | None = None
    if args[:1] == ["--workers"]:
        try:
            count = int(args[1])
        except (IndexError, ValueError):
            print("gaple-bot: --workers takes a number (gaple-bot --help)", file=sys.stderr)
            return 2
        problem = refusal(settings, count)
        if problem is not None:
            print(f"gaple-bot: {problem}", file=sys.stderr)
            return 2
        if count > 1:
            setup_logging(settings, settings.webhook_secret)
            return Supervisor(count).run()
        worker = None
    elif args[:1] == [WORKER_FLAG] and len(args) == 2:
        try:
            worker = Worker.parse(args[1])
        except ValueError:
            print(
                f"gaple-bot: {WORKER_FLAG} is internal (I/N); did you mean --workers N? "
                "(gaple-bot --help)",
                file=sys.stderr,
            )
            return 2
    elif args:
        print(f"gaple-bot: unknown arguments {' '.join(args)} (gaple-bot --help)", file=sys.stderr)
        return 2
    pages = None
    if settings.webapp:
        from .web.app import PageFrontEnd

        pages = PageFrontEnd.for_bot(settings)
    try:
        run(settings, worker, pages)
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
