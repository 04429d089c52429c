"""Settings: required token, defaults, .env fallback and clear errors."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from gaple_bot.app import computer_workers
from gaple_bot.settings import (
    DEFAULT_DATABASE_URL,
    SETTING_NAMES,
    SettingsError,
    load_settings,
    settings_from,
)


def test_missing_token_names_env_example() -> None:
    with pytest.raises(SettingsError, match=r"\.env\.example"):
        settings_from({})


def test_missing_token_names_the_way_to_play_without_telegram() -> None:
    with pytest.raises(SettingsError, match=r"without Telegram: gaple-bot local$"):
        settings_from({})


@pytest.mark.parametrize(
    "token", ["abc", "123456", ":AAE", "12a:AAE", "123:AA E", "123:AAE:x", "123:AAE\u00e9"]
)
def test_a_token_not_shaped_as_botfathers_is_refused_without_showing_it(token: str) -> None:
    with pytest.raises(SettingsError, match=r"^TELEGRAM_BOT_TOKEN is not a bot token") as caught:
        settings_from({"TELEGRAM_BOT_TOKEN": token})
    assert token.strip() not in str(caught.value)
    assert "@BotFather" in str(caught.value)


def test_defaults() -> None:
    settings = settings_from({"TELEGRAM_BOT_TOKEN": "1:abc"})
    assert settings.database_url == DEFAULT_DATABASE_URL
    assert settings.bot_api_url == "https://api.telegram.org/bot"
    assert settings.webhook_url == ""
    assert settings.default_turn_seconds == 60
    assert settings.lobby_timeout_seconds == 600
    assert settings.group_messages_per_minute == 20


def test_env_file_is_read_and_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("TELEGRAM_BOT_TOKEN=1:from-file\nLOG_LEVEL=debug\nWEBHOOK_PORT=9000\n")
    settings = load_settings({"WEBHOOK_PORT": "9443"}, env_file)
    assert settings.telegram_bot_token == "1:from-file"
    assert settings.log_level == "DEBUG"
    assert settings.webhook_port == 9443


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("WEBHOOK_PORT", "http"),
        ("DEFAULT_TURN_SECONDS", "0"),
        ("LOG_LEVEL", "LOUD"),
        # A level logging knows, but not one .env.example offers.
        ("LOG_LEVEL", "CRITICAL"),
        ("LOG_LEVEL", "WARN"),
        ("DEFAULT_LANGUAGE", "pt"),
        ("DEFAULT_LANGUAGE", "english"),
        ("WEBHOOK_SECRET", "has space"),
        ("WEBHOOK_SECRET", "dots.are.not.allowed"),
        ("WEBHOOK_SECRET", "x" * 257),
        ("DATABASE_URL", "gaple.sqlite3"),
        ("DATABASE_URL", "nosuchdb://host/db"),
        ("DATABASE_URL", "sqlite+nosuchdriver:///gaple.sqlite3"),
        # A driver the bot cannot run on (it needs an async one), a database it does not know.
        ("DATABASE_URL", "sqlite+pysqlite:///gaple.sqlite3"),
        ("DATABASE_URL", "postgresql+psycopg2://u:p@db/gaple"),
        ("DATABASE_URL", "mysql+aiomysql://u:p@db/gaple"),
        ("TELEGRAM_API_BASE_URL", "notaurl"),
        ("TELEGRAM_API_BASE_URL", "ftp://127.0.0.1"),
        ("TELEGRAM_API_BASE_URL", "http://127.0.0.1:port"),
        ("TELEGRAM_API_BASE_URL", "http://[::1"),
    ],
)
def test_bad_values_are_named(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        settings_from({"TELEGRAM_BOT_TOKEN": "1:abc", name: value})


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("LOG_LEVEL", "LOUD", "DEBUG, INFO, WARNING or ERROR"),
        ("DEFAULT_LANGUAGE", "pt", "id, en, fr or de"),
        ("WEBHOOK_SECRET", "a b", "letters, digits, _ and -"),
        ("DATABASE_URL", "nosuchdb://x", "sqlite+aiosqlite:///"),
        ("WEBHOOK_PORT", "99999", "at most 65535"),
        ("METRICS_PORT", "65536", "at most 65535"),
        ("SHARED_DATABASE", "maybe", "yes or no"),
    ],
)
def test_a_bad_value_says_what_is_allowed(name: str, value: str, allowed: str) -> None:
    with pytest.raises(SettingsError, match=name) as raised:
        settings_from({"TELEGRAM_BOT_TOKEN": "1:abc", name: value})
    assert allowed in str(raised.value)


@pytest.mark.parametrize(
    ("name", "value", "field", "expected"),
    [
        ("LOG_LEVEL", "warning", "log_level", "WARNING"),
        ("DEFAULT_LANGUAGE", "ID", "default_language", "id"),
        ("DEFAULT_LANGUAGE", "de", "default_language", "de"),
        ("WEBHOOK_SECRET", "Abc_123-xyz", "webhook_secret", "Abc_123-xyz"),
        ("WEBHOOK_SECRET", "x" * 256, "webhook_secret", "x" * 256),
        ("DATABASE_URL", "sqlite+aiosqlite:///:memory:", "database_url", None),
        # A URL without a driver gets the async one the bot runs on.
        (
            "DATABASE_URL",
            "sqlite:////var/lib/gaple/db.sqlite3",
            "database_url",
            "sqlite+aiosqlite:////var/lib/gaple/db.sqlite3",
        ),
        (
            "DATABASE_URL",
            "postgresql://u:p@db/gaple",
            "database_url",
            "postgresql+asyncpg://u:p@db/gaple",
        ),
        (
            "DATABASE_URL",
            "postgres://u:p@db/gaple",
            "database_url",
            "postgresql+asyncpg://u:p@db/gaple",
        ),
        (
            "DATABASE_URL",
            "postgres+asyncpg://u:p@db/gaple",
            "database_url",
            "postgresql+asyncpg://u:p@db/gaple",
        ),
        ("TELEGRAM_API_BASE_URL", "http://127.0.0.1:8081", "telegram_api_base_url", None),
    ],
)
def test_good_values_are_kept(name: str, value: str, field: str, expected: str | None) -> None:
    settings = settings_from({"TELEGRAM_BOT_TOKEN": "1:abc", name: value})
    assert getattr(settings, field) == (value if expected is None else expected)


@pytest.mark.parametrize(
    ("value", "shared"),
    [("", False), ("no", False), ("0", False), ("Off", False), ("yes", True), ("TRUE", True)],
)
def test_a_shared_database_is_said_yes_or_no(value: str, shared: bool) -> None:
    settings = settings_from({"TELEGRAM_BOT_TOKEN": "1:abc", "SHARED_DATABASE": value})
    assert settings.shared_database is shared


class _RecordingMapping(dict[str, str | None]):
    """A mapping that remembers every name looked up."""

    def __init__(self, *args: object, **kwargs: str) -> None:
        super().__init__(*args, **kwargs)
        self.asked: set[str] = set()

    def get(self, key: str, default: object = None) -> str | None:  # type: ignore[override]
        self.asked.add(key)
        return super().get(key)


def test_every_setting_read_is_in_env_example() -> None:
    values = _RecordingMapping(TELEGRAM_BOT_TOKEN="1:abc")
    settings_from(values)
    example = (Path(__file__).parents[1] / ".env.example").read_text()
    listed = {
        line.split("=", 1)[0]
        for line in example.splitlines()
        if "=" in line and not line.startswith("#")
    }
    assert values.asked == listed
    # The names a mistyped variable is compared with are the ones read.
    assert values.asked == SETTING_NAMES


@pytest.mark.parametrize(
    ("line", "nearest"),
    [
        ("DEFAULT_TURN_SECOND=30", "DEFAULT_TURN_SECONDS"),
        ("log_level=debug", "LOG_LEVEL"),
        ("WEBHOOK_PATH=/hook", "WEBHOOK_PORT"),
        ("LOG_FORMAT=json", "LOG_LEVEL"),
        ("BOT_TOKEN=1:abc", "TELEGRAM_BOT_TOKEN"),
        ("WEBAPP_SHORTNAME=table", "WEBAPP_SHORT_NAME"),
    ],
)
def test_a_mistyped_setting_in_env_is_one_warning_naming_the_nearest(
    tmp_path: Path, line: str, nearest: str
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(f"TELEGRAM_BOT_TOKEN=1:from-file\n{line}\n")
    said: list[str] = []
    settings = load_settings({}, env_file, warn=said.append)
    name = line.split("=", 1)[0]
    assert said == [
        f"{name} in {env_file} is not a setting and is ignored; did you mean {nearest}?"
    ]
    assert settings.default_turn_seconds == 60


def test_the_settings_and_other_programs_variables_in_env_say_nothing(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "TELEGRAM_BOT_TOKEN=1:from-file\nDEFAULT_TURN_SECONDS=30\nPOSTGRES_PASSWORD=x\nTZ=UTC\n"
    )
    said: list[str] = []
    settings = load_settings({}, env_file, warn=said.append)
    assert said == []
    assert settings.default_turn_seconds == 30


def test_the_environment_s_own_variables_are_left_alone(tmp_path: Path) -> None:
    """Only .env is checked: the environment holds every program's variables."""
    environ = {"TELEGRAM_BOT_TOKEN": "1:abc", "PATH": "/bin", "DEFAULT_TURN_SECOND": "30"}
    said: list[str] = []
    load_settings(environ, tmp_path / ".env", warn=said.append)
    assert said == []


def test_a_mistyped_setting_is_a_logged_warning_by_default(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("TELEGRAM_BOT_TOKEN=1:from-file\nDEFAULT_TURN_SECOND=30\n")
    with caplog.at_level(logging.WARNING, logger="gaple_bot.settings"):
        load_settings({}, env_file)
    assert [record.levelno for record in caplog.records] == [logging.WARNING]
    assert "did you mean DEFAULT_TURN_SECONDS?" in caplog.records[0].getMessage()


def test_the_page_is_off_without_its_settings() -> None:
    settings = settings_from({"TELEGRAM_BOT_TOKEN": "1:x"})
    assert not settings.webapp and settings.webapp_url == ""


def test_the_page_is_on_with_its_address_and_short_name() -> None:
    settings = settings_from(
        {
            "TELEGRAM_BOT_TOKEN": "1:x",
            "WEBAPP_URL": "https://games.example.org/",
            "WEBAPP_SHORT_NAME": "table",
        }
    )
    assert settings.webapp
    assert (settings.webapp_url, settings.webapp_short_name) == (
        "https://games.example.org",
        "table",
    )


@pytest.mark.parametrize(
    ("url", "short_name", "named"),
    [
        ("https://games.example.org", "", "go together"),
        ("", "table", "go together"),
        ("http://games.example.org", "table", "https://"),
        ("games.example.org", "table", "https://"),
        ("https://games.example.org", "a b", "short name"),
        ("https://games.example.org", "ab", "short name"),
        # BotFather is given the address with /app; the setting is the address alone.
        ("https://games.example.org/app", "table", "address alone"),
        ("https://games.example.org/games", "table", "address alone"),
        ("https://games.example.org/?x=1", "table", "address alone"),
    ],
)
def test_a_half_or_wrong_page_setting_is_refused(url: str, short_name: str, named: str) -> None:
    with pytest.raises(SettingsError, match=named):
        settings_from(
            {"TELEGRAM_BOT_TOKEN": "1:x", "WEBAPP_URL": url, "WEBAPP_SHORT_NAME": short_name}
        )


@pytest.mark.parametrize(
    ("processes", "reviews", "workers"),
    [("1", "yes", 2), ("3", "yes", 4), ("1", "no", 1), ("2", "off", 2)],
)
def test_reviews_get_a_computer_process_of_their_own(
    processes: str, reviews: str, workers: int
) -> None:
    settings = settings_from(
        {"TELEGRAM_BOT_TOKEN": "1:abc", "COMPUTER_PROCESSES": processes, "REVIEWS": reviews}
    )
    assert computer_workers(settings) == workers


def test_reviews_are_on_unless_turned_off() -> None:
    assert settings_from({"TELEGRAM_BOT_TOKEN": "1:abc"}).reviews is True
    assert settings_from({"TELEGRAM_BOT_TOKEN": "1:abc", "REVIEWS": "no"}).reviews is False
    with pytest.raises(SettingsError, match="REVIEWS"):
        settings_from({"TELEGRAM_BOT_TOKEN": "1:abc", "REVIEWS": "maybe"})
