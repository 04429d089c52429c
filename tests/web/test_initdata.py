"""initData is accepted only as Telegram signs it for this bot, fresh, and naming a person."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qsl, urlencode

import pytest

from gaple_bot.web.initdata import InitDataRefused, check_init_data

from .kit import BOT_TOKEN, init_data

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def check(raw: str, token: str = BOT_TOKEN):  # type: ignore[no-untyped-def]
    return check_init_data(raw, token, now=NOW, max_age=DAY)


def test_initdata_signed_for_this_bot_names_its_person_and_start_parameter() -> None:
    user = check(init_data(42, "Ana", start="tok3n", signed_at=NOW - timedelta(hours=1)))
    assert (user.user_id, user.name, user.language, user.start_param) == (42, "Ana", "en", "tok3n")


def test_a_changed_field_breaks_the_hash() -> None:
    fields = dict(parse_qsl(init_data(42, "Ana", signed_at=NOW)))
    fields["user"] = fields["user"].replace("42", "43")
    with pytest.raises(InitDataRefused, match="not signed"):
        check(urlencode(fields))


def test_a_wrong_hash_is_refused() -> None:
    fields = dict(parse_qsl(init_data(42, "Ana", signed_at=NOW)))
    fields["hash"] = "0" * 64
    with pytest.raises(InitDataRefused, match="not signed"):
        check(urlencode(fields))


def test_another_bots_initdata_is_refused() -> None:
    with pytest.raises(InitDataRefused, match="not signed"):
        check(init_data(42, "Ana", token="999:another-bot", signed_at=NOW))


def test_old_initdata_is_refused() -> None:
    with pytest.raises(InitDataRefused, match="too old"):
        check(init_data(42, "Ana", signed_at=NOW - DAY - timedelta(seconds=1)))


def test_initdata_from_the_future_is_refused() -> None:
    with pytest.raises(InitDataRefused, match="too old"):
        check(init_data(42, "Ana", signed_at=NOW + timedelta(hours=1)))


def test_initdata_naming_nobody_is_refused() -> None:
    with pytest.raises(InitDataRefused, match="no user"):
        check(init_data(42, "Ana", signed_at=NOW, user=False))


@pytest.mark.parametrize("raw", ["", "x" * 5000, "hash=&&&", "a=1&a=2"])
def test_malformed_initdata_is_refused(raw: str) -> None:
    with pytest.raises(InitDataRefused):
        check(raw)
