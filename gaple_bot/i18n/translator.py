"""Translators: gettext catalogs per language, passed explicitly (no global locale)."""

from __future__ import annotations

import gettext
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

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


def po_path(language: str) -> Path:
    """Where a language's catalog lives."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def load_catalog(language: str) -> gettext.NullTranslations:
    """A language's catalog, compiled from its .po file in memory (no build step needed);
    English, the source language, needs none."""
    path = po_path(language)
    if language == SOURCE_LANGUAGE or not path.is_file():
        return gettext.NullTranslations()
    with path.open("rb") as po_file:
        catalog = read_po(po_file, locale=language, domain=DOMAIN)
    compiled = BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


class Translators:
    """The translators of every supported language, loaded once and shared read-only."""

    def __init__(self, default_language: str = SOURCE_LANGUAGE) -> None:
        self.default_language = pick_language(default_language) or SOURCE_LANGUAGE
        self._by_language = {
            language: Translator(language, load_catalog(language))
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
