"""Child process of the left-updates tests: the bot in webhook mode whose handlers never get
an update. Each update it takes in is recorded and answered 200 as usual; then a handler ahead
of every other one prints `stuck UPDATE_ID` and waits forever, so the test can kill it with
the update taken in and not handled.

Run as `python -m tests.workers.stuck_worker` from the repository root, with the bot's
settings (WEBHOOK_URL and WEBHOOK_SECRET among them) in the environment.
"""

from __future__ import annotations

import asyncio
import os
import sys

from telegram import Update
from telegram.ext import TypeHandler

from gaple_bot.app import build_bot, setup_logging
from gaple_bot.bot.deps import GapleContext
from gaple_bot.bot.running import serve_webhook
from gaple_bot.settings import settings_from


async def stuck(update: Update, context: GapleContext) -> None:
    """Hold the update forever, before any handler of the bot sees it."""
    print(f"stuck {update.update_id}", flush=True)
    await asyncio.Event().wait()


def main() -> None:
    settings = settings_from(os.environ)
    setup_logging(settings, settings.webhook_secret, stream=sys.stderr)
    app = build_bot(settings)
    app.add_handler(TypeHandler(Update, stuck), group=-100)
    asyncio.run(serve_webhook(app, settings, settings.webhook_secret))


if __name__ == "__main__":
    main()
