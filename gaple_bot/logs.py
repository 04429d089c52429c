"""Logging set-up: one format, secrets redacted, and chatty libraries kept above their payloads.

No log line may carry a hand, a name or the bot token. Our own lines carry ids only; the
libraries below print request bodies, updates or URLs at their lower levels, so they never
log below the floor given here, whatever LOG_LEVEL says.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import TextIO

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
REDACTED = "[redacted]"
TILE_TEXT = re.compile(r"\[\d\|\d\]")
"""A tile as the bot writes it ([6|3]): an error message may name one, a log line never."""
HIDDEN_TILE = "[?|?]"

LOGGER_FLOORS: dict[str, int] = {
    # DEBUG: every Bot API request body (hands, names) and every update received (names).
    "telegram": logging.INFO,
    # Its only error line prints a raw response body; the error is raised to us anyway.
    "telegram.request": logging.CRITICAL,
    # INFO: every request URL, and the Bot API's URLs carry the token.
    "httpx": logging.WARNING,
    "httpcore": logging.WARNING,
    # INFO/DEBUG: every SQL statement with its parameters (names, deals).
    "sqlalchemy": logging.WARNING,
    "aiosqlite": logging.WARNING,
    # INFO: two lines each time a job runs (the sweep: every few seconds on each worker).
    "apscheduler.executors": logging.WARNING,
}
"""The lowest level each library logger may log at."""


RETRY_LOOP_LOGGER = "telegram.ext"
BOOTSTRAP_LOOP_PREFIX = "Network Retry Loop (Bootstrap "
"""The start-up retry loops (initialize, delete or set the webhook): they raise to `run()`.
The polling loop's own errors stay: nothing else reports them."""


class RaisedRetryErrorFilter(logging.Filter):
    """Drops python-telegram-bot's "Network Retry Loop (Bootstrap ...) ... Aborting" error and
    its traceback: that loop raises the same error out of `run()`, and the command line
    reports it in one line (the unreachable Bot API or the rejected token). Kept at DEBUG."""

    def filter(self, record: logging.LogRecord) -> bool:
        """False for a start-up retry loop's aborting line, True for everything else."""
        if record.name != RETRY_LOOP_LOGGER:
            return True
        message = record.getMessage()
        return not (message.startswith(BOOTSTRAP_LOOP_PREFIX) and "Aborting" in message)


class RedactingFormatter(logging.Formatter):
    """Formats a record, then blanks every secret and every tile in the result (tracebacks
    included): an engine error names the move it refused, which may be a hand's tile."""

    def __init__(self, fmt: str, secrets: Iterable[str]) -> None:
        super().__init__(fmt)
        # Longest first, so a secret that contains another is blanked whole.
        self._secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        """The formatted line with no secret left in it."""
        return TILE_TEXT.sub(HIDDEN_TILE, redacted(super().format(record), self._secrets))


def redacted(text: str, secrets: Iterable[str]) -> str:
    """`text` with every one of `secrets` blanked (give the longest first: one that contains
    another is blanked whole; an empty one blanks nothing)."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, REDACTED)
    return text


def token_secrets(token: str) -> list[str]:
    """What must never be logged of a bot token: the whole, and its secret part on its own
    (a URL may carry it with the colon escaped)."""
    return [token, token.partition(":")[2]]


def configure_logging(
    level: str, *, secrets: Iterable[str] = (), stream: TextIO | None = None
) -> logging.Handler:
    """Log at `level` to `stream` (stderr by default) through a redacting formatter, with the
    library floors applied and, above DEBUG, the retry loop's raised errors left to their
    caller. Returns the handler added to the root logger."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(RedactingFormatter(LOG_FORMAT, secrets))
    root = logging.getLogger()
    root.setLevel(level)
    if root.level > logging.DEBUG:
        handler.addFilter(RaisedRetryErrorFilter())
    root.addHandler(handler)
    for name, floor in LOGGER_FLOORS.items():
        logging.getLogger(name).setLevel(max(root.level, floor))
    return handler
