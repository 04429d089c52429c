"""Settings read from the environment and a `.env` file, checked once at start."""

from __future__ import annotations

import difflib
import importlib.util
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import dotenv_values
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from .i18n import SUPPORTED_LANGUAGES

log = logging.getLogger(__name__)

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///gaple.sqlite3"
DEFAULT_API_BASE_URL = "https://api.telegram.org"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
WEBHOOK_SECRET_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,256}")
"""Telegram's rule for a webhook's secret_token."""


class SettingsError(ValueError):
    """A setting is missing or malformed; the message names it and where to set it."""


class MissingToken(SettingsError):
    """TELEGRAM_BOT_TOKEN is not set; the message names where to set it and `local`, the
    command that plays at once without Telegram."""

    def __init__(self, local: str = "gaple-bot local") -> None:
        super().__init__(
            "TELEGRAM_BOT_TOKEN is not set: set it in the environment or in a .env file "
            "(see .env.example in the repository), or play at once without Telegram: " + local
        )


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment (see .env.example)."""

    telegram_bot_token: str
    database_url: str = DEFAULT_DATABASE_URL
    shared_database: bool = False
    """This process is one of several started apart on one PostgreSQL database (behind a
    reverse proxy): it never works alone on it (`--workers` needs no such setting)."""
    telegram_api_base_url: str = DEFAULT_API_BASE_URL
    log_level: str = "INFO"
    webhook_url: str = ""
    webhook_port: int = 8443
    webhook_listen: str = "0.0.0.0"
    webhook_secret: str = ""
    metrics_port: int = 0
    """In polling mode, the port of /healthz and /metrics (0: none); webhook mode serves
    them on WEBHOOK_PORT."""
    default_language: str = "en"
    default_turn_seconds: int = 60
    round_break_seconds: int = 8
    """How long everyone looks at a round that ended before the next one is played (its
    first turn's time runs from then; 0: the next round is played at once)."""
    lobby_timeout_seconds: int = 600
    group_messages_per_minute: int = 20
    messages_per_second: int = 30
    private_messages_per_second: int = 1
    tapped_hand_hold_seconds: int = 0
    """How long the buttons of a hand just played may stay while the person's next hand may
    come in the same message and take the edit's place (0, the default: they go at once, so
    that no hand says it is the person's turn when it is not; more saves an edit a turn)."""
    table_edit_seconds: int = 5
    """Least seconds between two edits of a game's table message in the group (the moves
    made meanwhile show in one edit; 0: every move at once, as the budget allows)."""
    computer_processes: int = 1
    reviews: bool = True
    """Whether each finished game's decisions are analysed in the background for its review
    (in the computer players' processes, at low priority)."""
    webapp_url: str = ""
    """The public HTTPS address the bot's web server is reached at (the Mini App's URL given
    to @BotFather is this followed by /app; empty: no page)."""
    webapp_short_name: str = ""
    """The Mini App's short name given to @BotFather (its direct link is t.me/<bot>/<name>)."""
    webapp_port: int = 8080
    """In polling mode, the port the page is served on (webhook mode serves it on
    WEBHOOK_PORT)."""
    webapp_login_seconds: int = 86400
    """How old a Mini App's initData may be when it asks for a session."""

    @property
    def webapp(self) -> bool:
        """Whether the page is on (both of its settings are given)."""
        return bool(self.webapp_url and self.webapp_short_name)

    @property
    def bot_api_url(self) -> str:
        """The base URL python-telegram-bot expects (the token is appended to it)."""
        return self.telegram_api_base_url.rstrip("/") + "/bot"

    @property
    def bot_file_url(self) -> str:
        """The base URL for file downloads."""
        return self.telegram_api_base_url.rstrip("/") + "/file/bot"


def _int(
    values: Mapping[str, str | None],
    name: str,
    default: int,
    minimum: int,
    maximum: int | None = None,
) -> int:
    raw = (values.get(name) or "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {raw!r}") from None
    if value < minimum:
        raise SettingsError(f"{name} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise SettingsError(f"{name} must be at most {maximum}, not {value}")
    return value


HIGHEST_PORT = 65535
YES = ("1", "true", "yes", "on")
NO = ("0", "false", "no", "off")


def _yes_no(values: Mapping[str, str | None], name: str, default: bool) -> bool:
    raw = (values.get(name) or "").strip().lower()
    if not raw:
        return default
    if raw in YES:
        return True
    if raw in NO:
        return False
    raise SettingsError(f"{name} must be yes or no (or true/false, 1/0, on/off), not {raw!r}")


ASYNC_DRIVERS = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}
"""The databases the bot runs on, each with the async driver it needs."""
DATABASE_EXAMPLES = "sqlite+aiosqlite:///gaple.sqlite3 or postgresql+asyncpg://user:pass@host/db"


def _database_url(raw: str) -> str:
    """`raw` if it names SQLite or PostgreSQL with its async driver (a URL without a driver,
    `sqlite:///…` or `postgresql://…`, gets it), its dialect loads and, for PostgreSQL, the
    postgres extra is installed (nothing connects yet)."""
    problem = (
        f"DATABASE_URL must be an SQLite or PostgreSQL database URL, such as {DATABASE_EXAMPLES}, "
        f"not {raw!r}"
    )
    try:
        url = make_url(raw)
    except (ArgumentError, ValueError):
        raise SettingsError(problem) from None
    name, plus, given_driver = url.drivername.partition("+")
    if name == "postgres":
        # The short name SQLAlchemy no longer knows, common in hosting providers' URLs.
        url = url.set(drivername="postgresql" + plus + given_driver)
        raw = url.render_as_string(hide_password=False)
    backend = url.get_backend_name()
    driver = ASYNC_DRIVERS.get(backend)
    if driver is None:
        raise SettingsError(problem)
    if "+" not in url.drivername:
        url = url.set(drivername=f"{backend}+{driver}")
        raw = url.render_as_string(hide_password=False)
    elif url.get_driver_name() != driver:
        raise SettingsError(
            f"DATABASE_URL must use the {driver} driver ({backend}+{driver}://…), "
            f"not {url.get_driver_name()!r}"
        )
    try:
        url.get_dialect()
    except (ArgumentError, NoSuchModuleError, ImportError, ValueError):
        raise SettingsError(problem) from None
    if backend == "postgresql" and importlib.util.find_spec("asyncpg") is None:
        raise SettingsError(
            "DATABASE_URL names PostgreSQL: install the postgres extra first "
            "(.venv/bin/pip install -e '.[postgres]')"
        )
    return raw


def _api_base_url(raw: str) -> str:
    """`raw` if it is an http or https address with a host."""
    try:
        parts = urlsplit(raw)
        usable = parts.scheme in ("http", "https") and bool(parts.hostname)
        parts.port  # noqa: B018 - raises for a port that is not a number
    except ValueError:
        usable = False
    if not usable:
        raise SettingsError(
            f"TELEGRAM_API_BASE_URL must be an http:// or https:// address, not {raw!r}"
        )
    return raw


def _choice(name: str, raw: str, allowed: tuple[str, ...]) -> str:
    if raw not in allowed:
        listed = ", ".join(allowed[:-1]) + " or " + allowed[-1]
        raise SettingsError(f"{name} must be {listed}, not {raw!r}")
    return raw


def _webhook_secret(raw: str) -> str:
    if raw and WEBHOOK_SECRET_PATTERN.fullmatch(raw) is None:
        raise SettingsError(
            "WEBHOOK_SECRET may hold only letters, digits, _ and - (1 to 256 of them)"
        )
    return raw


WEBAPP_SHORT_NAME_PATTERN = re.compile(r"[A-Za-z0-9_]{3,30}")
"""BotFather's rule for a Mini App's short name."""


def _webapp(url: str, short_name: str) -> tuple[str, str]:
    """The page's address and short name, both given or neither."""
    if bool(url) != bool(short_name):
        raise SettingsError(
            "WEBAPP_URL and WEBAPP_SHORT_NAME go together: set both (the page) or neither"
        )
    if not url:
        return "", ""
    try:
        parts = urlsplit(url)
        usable = parts.scheme == "https" and bool(parts.hostname)
    except ValueError:
        usable = False
    if not usable:
        raise SettingsError(f"WEBAPP_URL must be an https:// address, not {url!r}")
    if parts.path.strip("/") or parts.query or parts.fragment:
        # The page's files are served from /app at the host's root: a path cannot be prefixed.
        raise SettingsError(
            "WEBAPP_URL is the page's address alone, such as https://games.example.org "
            f"(the bot serves the page at /app under it), not {url!r}"
        )
    if WEBAPP_SHORT_NAME_PATTERN.fullmatch(short_name) is None:
        raise SettingsError(
            "WEBAPP_SHORT_NAME must be the Mini App's short name from @BotFather "
            f"(3 to 30 letters, digits or _), not {short_name!r}"
        )
    return url.rstrip("/"), short_name


BOT_TOKEN = re.compile(r"[0-9]+:[A-Za-z0-9_-]+")
"""A bot token's shape, as @BotFather gives it: checked before anything connects."""


def settings_from(values: Mapping[str, str | None]) -> Settings:
    """Build settings from a mapping of variable names to values."""

    def text(name: str, default: str) -> str:
        return (values.get(name) or "").strip() or default

    token = text("TELEGRAM_BOT_TOKEN", "")
    if not token:
        raise MissingToken()
    if not BOT_TOKEN.fullmatch(token):
        # Never the token itself in the message: it is a secret, even when mistyped.
        raise SettingsError(
            "TELEGRAM_BOT_TOKEN is not a bot token (the bot's number, a colon, then letters, "
            "digits, - and _): copy it again from @BotFather into .env (see .env.example)"
        )
    webapp_url, webapp_short_name = _webapp(text("WEBAPP_URL", ""), text("WEBAPP_SHORT_NAME", ""))
    return Settings(
        telegram_bot_token=token,
        database_url=_database_url(text("DATABASE_URL", DEFAULT_DATABASE_URL)),
        shared_database=_yes_no(values, "SHARED_DATABASE", False),
        telegram_api_base_url=_api_base_url(text("TELEGRAM_API_BASE_URL", DEFAULT_API_BASE_URL)),
        log_level=_choice("LOG_LEVEL", text("LOG_LEVEL", "INFO").upper(), LOG_LEVELS),
        webhook_url=text("WEBHOOK_URL", ""),
        webhook_port=_int(values, "WEBHOOK_PORT", 8443, 1, HIGHEST_PORT),
        webhook_listen=text("WEBHOOK_LISTEN", "0.0.0.0"),
        webhook_secret=_webhook_secret(text("WEBHOOK_SECRET", "")),
        metrics_port=_int(values, "METRICS_PORT", 0, 0, HIGHEST_PORT),
        default_language=_choice(
            "DEFAULT_LANGUAGE", text("DEFAULT_LANGUAGE", "en").lower(), SUPPORTED_LANGUAGES
        ),
        default_turn_seconds=_int(values, "DEFAULT_TURN_SECONDS", 60, 1),
        round_break_seconds=_int(values, "ROUND_BREAK_SECONDS", 8, 0, 60),
        lobby_timeout_seconds=_int(values, "LOBBY_TIMEOUT_SECONDS", 600, 1),
        group_messages_per_minute=_int(values, "GROUP_MESSAGES_PER_MINUTE", 20, 1),
        messages_per_second=_int(values, "BOT_MESSAGES_PER_SECOND", 30, 1),
        private_messages_per_second=_int(values, "PRIVATE_MESSAGES_PER_SECOND", 1, 1),
        tapped_hand_hold_seconds=_int(values, "TAPPED_HAND_HOLD_SECONDS", 0, 0, 60),
        table_edit_seconds=_int(values, "TABLE_EDIT_SECONDS", 5, 0, 60),
        computer_processes=_int(values, "COMPUTER_PROCESSES", 1, 0),
        reviews=_yes_no(values, "REVIEWS", True),
        webapp_url=webapp_url,
        webapp_short_name=webapp_short_name,
        webapp_port=_int(values, "WEBAPP_PORT", 8080, 1, HIGHEST_PORT),
        webapp_login_seconds=_int(values, "WEBAPP_LOGIN_SECONDS", 86400, 60),
    )


SETTING_NAMES = frozenset(
    {
        "TELEGRAM_BOT_TOKEN",
        "DATABASE_URL",
        "SHARED_DATABASE",
        "TELEGRAM_API_BASE_URL",
        "LOG_LEVEL",
        "WEBHOOK_URL",
        "WEBHOOK_PORT",
        "WEBHOOK_LISTEN",
        "WEBHOOK_SECRET",
        "METRICS_PORT",
        "DEFAULT_LANGUAGE",
        "DEFAULT_TURN_SECONDS",
        "ROUND_BREAK_SECONDS",
        "LOBBY_TIMEOUT_SECONDS",
        "REVIEWS",
        "GROUP_MESSAGES_PER_MINUTE",
        "BOT_MESSAGES_PER_SECOND",
        "PRIVATE_MESSAGES_PER_SECOND",
        "TAPPED_HAND_HOLD_SECONDS",
        "TABLE_EDIT_SECONDS",
        "COMPUTER_PROCESSES",
        "WEBAPP_URL",
        "WEBAPP_SHORT_NAME",
        "WEBAPP_PORT",
        "WEBAPP_LOGIN_SECONDS",
    }
)
"""Every variable `settings_from` reads."""
CLOSE_NAME = 0.8
"""How alike (difflib's ratio) a variable's name and a setting's must be to take it for a typo."""


def load_settings(
    environ: Mapping[str, str],
    env_file: Path = Path(".env"),
    *,
    warn: Callable[[str], None] = log.warning,
) -> Settings:
    """Settings from `environ`, falling back to `env_file`; the environment wins. Each
    variable of `env_file` that looks like a mistyped setting is one `warn` line."""
    file_values = _env_file_values(env_file)
    for message in stray_settings(file_values, env_file):
        warn(message)
    return settings_from({**file_values, **environ})


def stray_settings(names: Iterable[str], env_file: Path) -> list[str]:
    """A line for each of `names` that is not a setting but looks like one, naming the nearest
    setting: close to a setting's name, or with a setting's first word (WEBHOOK_…) or last
    words (…_BOT_TOKEN)."""
    lines = []
    for name in names:
        nearest = nearest_setting(name)
        if nearest is not None:
            lines.append(
                f"{name} in {env_file} is not a setting and is ignored; did you mean {nearest}?"
            )
    return lines


def nearest_setting(name: str) -> str | None:
    """The setting a variable's name seems meant for (None: a setting, or nothing like one)."""
    if name in SETTING_NAMES:
        return None
    upper = name.upper()
    known = sorted(SETTING_NAMES)
    alike = difflib.get_close_matches(upper, known, n=1, cutoff=CLOSE_NAME)
    if not alike and "_" in upper:
        alike = [setting for setting in known if setting.endswith("_" + upper)]
    if not alike:
        family = [setting for setting in known if _first_word(setting) == _first_word(upper)]
        alike = difflib.get_close_matches(upper, family, n=1, cutoff=0.0)
    return alike[0] if alike else None


def _first_word(name: str) -> str:
    return name.partition("_")[0]


def load_database_url(environ: Mapping[str, str], env_file: Path = Path(".env")) -> str:
    """The DATABASE_URL the bot would use, read and checked as `load_settings` does (for the
    `alembic` command line, which needs no bot token)."""
    values = _with_env_file(environ, env_file)
    return _database_url((values.get("DATABASE_URL") or "").strip() or DEFAULT_DATABASE_URL)


def _with_env_file(environ: Mapping[str, str], env_file: Path) -> dict[str, str | None]:
    """`env_file`'s variables (if it exists) overridden by `environ`'s."""
    return {**_env_file_values(env_file), **environ}


def _env_file_values(env_file: Path) -> dict[str, str | None]:
    """`env_file`'s variables (none if it does not exist)."""
    return dict(dotenv_values(env_file)) if env_file.is_file() else {}
