"""The `gaple-bot` command: run the bot (default) or the computer-player arena."""

from __future__ import annotations

import os
import sys

from .settings import SettingsError, load_settings


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit code."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["arena"]:
        from .ai.arena import main as arena_main

        return arena_main(args[1:])
    try:
        settings = load_settings(os.environ)
    except SettingsError as exc:
        print(f"gaple-bot: {exc}", file=sys.stderr)
        return 2
    from .bot.app import run

    run(settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
