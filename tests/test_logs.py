"""The logging set-up: secrets blanked in every line, library floors kept at any LOG_LEVEL."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from gaple_bot.logs import (
    HIDDEN_TILE,
    LOGGER_FLOORS,
    REDACTED,
    configure_logging,
    redacted,
    token_secrets,
)

TOKEN = "4242:AAE-very-secret"


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """Put the root handlers and the loggers' levels back as they were."""
    root = logging.getLogger()
    handlers = list(root.handlers)
    saved = {name: logging.getLogger(name).level for name in ("", *LOGGER_FLOORS)}
    yield
    for handler in root.handlers[:]:
        if handler not in handlers:
            root.removeHandler(handler)
    for name, level in saved.items():
        logging.getLogger(name or None).setLevel(level)


@pytest.mark.usefixtures("restore_logging")
def test_the_token_is_blanked_even_in_a_traceback() -> None:
    stream = io.StringIO()
    configure_logging("DEBUG", secrets=token_secrets(TOKEN), stream=stream)
    log = logging.getLogger("gaple_bot.test")
    try:
        raise RuntimeError(f"GET https://api.telegram.org/bot{TOKEN}/getMe failed")
    except RuntimeError:
        log.exception("request to %s", f"/bot{TOKEN.replace(':', '%3A')}/getMe")
    text = stream.getvalue()
    assert "very-secret" not in text
    assert text.count(REDACTED) >= 2


@pytest.mark.usefixtures("restore_logging")
@pytest.mark.parametrize("level", ["DEBUG", "INFO", "WARNING", "ERROR"])
def test_libraries_never_log_below_their_floor(level: str) -> None:
    stream = io.StringIO()
    configure_logging(level, stream=stream)
    threshold = logging.getLevelNamesMapping()[level]
    for name, floor in LOGGER_FLOORS.items():
        assert logging.getLogger(name).getEffectiveLevel() == max(floor, threshold)
    logging.getLogger("telegram.ext.ExtBot").debug("Calling sendMessage with [6|6] for Ana")
    logging.getLogger("httpx").info("HTTP Request: POST https://x/bot%s/sendMessage", TOKEN)
    assert stream.getvalue() == ""


@pytest.mark.usefixtures("restore_logging")
def test_an_error_naming_a_tile_is_logged_without_it() -> None:
    stream = io.StringIO()
    configure_logging("INFO", stream=stream)
    try:
        raise ValueError("discard [6|5] is not a legal move now")
    except ValueError:
        logging.getLogger("gaple_bot.test").exception("update 7 (chat -1, user 5) failed")
    text = stream.getvalue()
    assert "[6|5]" not in text
    assert f"discard {HIDDEN_TILE} is not a legal move now" in text


def _retry_loop_aborts(logger: logging.Logger) -> None:
    """Log as python-telegram-bot's network retry loop does when it gives up."""
    try:
        raise ConnectionError("All connection attempts failed")
    except ConnectionError:
        logger.exception(
            "%s Failed run number %s of %s. Aborting.",
            "Network Retry Loop (Bootstrap Initialize Application):",
            0,
            0,
        )


@pytest.mark.usefixtures("restore_logging")
@pytest.mark.parametrize("level", ["INFO", "WARNING", "ERROR"])
def test_the_retry_loops_raised_error_is_left_to_its_caller(level: str) -> None:
    stream = io.StringIO()
    configure_logging(level, stream=stream)
    telegram_ext = logging.getLogger("telegram.ext")
    _retry_loop_aborts(telegram_ext)
    telegram_ext.error(
        "Network Retry Loop (Bootstrap Set Webhook): Invalid token. Aborting retry loop."
    )
    assert stream.getvalue() == ""
    # Every other error of the library, and ours, still shows: the polling loop's is raised
    # in a background task, where nothing else would report it.
    telegram_ext.error("Network Retry Loop (Polling Updates): Invalid token. Aborting retry loop.")
    telegram_ext.error("No error handlers are registered, logging exception.")
    logging.getLogger("gaple_bot.test").error("Network Retry Loop (Bootstrap x): Aborting.")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3
    assert "Polling Updates" in lines[0]
    assert "No error handlers are registered" in lines[1]
    assert "gaple_bot.test" in lines[2]


@pytest.mark.usefixtures("restore_logging")
def test_the_retry_loops_traceback_stays_at_debug() -> None:
    stream = io.StringIO()
    configure_logging("DEBUG", stream=stream)
    _retry_loop_aborts(logging.getLogger("telegram.ext"))
    text = stream.getvalue()
    assert "Network Retry Loop (Bootstrap Initialize Application)" in text
    assert "Traceback" in text and "All connection attempts failed" in text


def test_an_empty_secret_blanks_nothing() -> None:
    # A token with no colon has no secret part: the line must stay readable.
    assert redacted("cannot reach the Bot API", token_secrets("garbage")) == (
        "cannot reach the Bot API"
    )
    assert redacted("token garbage here", token_secrets("garbage")) == "token [redacted] here"
