"""Translators: gettext catalogs per language, passed explicitly (no global locale)."""

from __future__ import annotations

import gettext
from pathlib import Path

SOURCE_LANGUAGE = "en"
SUPPORTED_LANGUAGES: tuple[str, ...] = ("id", "en", "fr", "de")
LOCALE_DIR = Path(__file__).parent / "locales"
DOMAIN = "messages"


class Translator:
    """One language's messages; `gettext`/`ngettext` return templates with {named} fields."""

    __slots__ = ("_catalog", "language")

    def __init__(self, language: str, catalog: gettext.NullTranslations) -> None:
        self.language = language
        self._catalog = catalog

    def gettext(self, message: str) -> str:
        """The translation of `message` (the English source when there is none)."""
        return self._catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The translation of a message whose form depends on the number `n`."""
        return self._catalog.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """The translation of `message` in `context` (for short words with several meanings)."""
        return self._catalog.pgettext(context, message)


class Translators:
    """The translators of every supported language, loaded once and shared read-only."""

    def __init__(self, default_language: str = SOURCE_LANGUAGE) -> None:
        self.default_language = pick_language(default_language) or SOURCE_LANGUAGE
        self._by_language = {
            language: Translator(
                language,
                gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True),
            )
            for language in SUPPORTED_LANGUAGES
        }

    def get(self, language: str | None) -> Translator:
        """The translator for `language`, or the default language's."""
        code = pick_language(language) or self.default_language
        return self._by_language[code]


def pick_language(code: str | None) -> str | None:
    """The supported language matching a Telegram language_code such as 'id' or 'pt-br'."""
    if not code:
        return None
    base = code.lower().replace("_", "-").split("-")[0]
    if base == "in":  # an old code for Indonesian still sent by some clients
        base = "id"
    return base if base in SUPPORTED_LANGUAGES else None
