"""A page's session is accepted only as this server signed it, and only until it expires."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from gaple_bot.web.frames import MAX_FRAME
from gaple_bot.web.initdata import MAX_PHOTO_URL
from gaple_bot.web.sessions import SESSION_LIFETIME, SessionRefused, SessionSigner

from .kit import BOT_TOKEN

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


def test_a_session_says_who_and_which_game() -> None:
    signer = SessionSigner.for_bot(BOT_TOKEN)
    session = signer.check(signer.issue(42, "Ana", "id", 7, NOW), NOW)
    assert (session.user_id, session.name, session.language, session.game_id) == (
        42,
        "Ana",
        "id",
        7,
    )


def test_every_worker_of_the_bot_accepts_another_workers_session() -> None:
    issued = SessionSigner.for_bot(BOT_TOKEN).issue(42, "Ana", None, 7, NOW)
    assert SessionSigner.for_bot(BOT_TOKEN).check(issued, NOW).user_id == 42


def test_an_expired_session_is_refused() -> None:
    signer = SessionSigner.for_bot(BOT_TOKEN)
    issued = signer.issue(42, "Ana", None, 7, NOW)
    with pytest.raises(SessionRefused, match="expired"):
        signer.check(issued, NOW + SESSION_LIFETIME + timedelta(seconds=1))


def test_a_changed_session_is_refused() -> None:
    signer = SessionSigner.for_bot(BOT_TOKEN)
    _body, _, mac = signer.issue(42, "Ana", None, 7, NOW).partition(".")
    forged = signer.issue(43, "Eve", None, 7, NOW).partition(".")[0]
    with pytest.raises(SessionRefused, match="did not sign"):
        signer.check(f"{forged}.{mac}", NOW)


def test_local_play_sessions_are_never_accepted_by_the_telegram_front_end() -> None:
    local = SessionSigner.for_local_play().issue(1, "Player", None, 7, NOW)
    with pytest.raises(SessionRefused):
        SessionSigner.for_bot(BOT_TOKEN).check(local, NOW)
    bot = SessionSigner.for_bot(BOT_TOKEN).issue(1, "Player", None, 7, NOW)
    with pytest.raises(SessionRefused):
        SessionSigner.for_local_play().check(bot, NOW)


def test_the_longest_name_with_a_photo_fits_in_a_session_and_a_hello() -> None:
    """Telegram allows 64 characters of first name and 64 of last name; written in letters
    outside the basic plane, with the longest photo address the page keeps, the session still
    passes its own check and fits in the socket's hello frame."""
    name = "\U0001d4d0" * 64 + " " + "\U0001d4d1" * 64
    photo = "https://t.me/i/userpic/320/" + "x" * (MAX_PHOTO_URL - 31) + ".jpg"
    assert len(photo) == MAX_PHOTO_URL
    signer = SessionSigner.for_bot(BOT_TOKEN)
    issued = signer.issue(42, name, "id", 7, NOW, photo)
    session = signer.check(issued, NOW)
    assert (session.name, session.photo) == (name, photo)
    assert len(json.dumps({"t": "hello", "session": issued})) <= MAX_FRAME
