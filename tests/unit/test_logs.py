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
