"""Translators: gettext catalogs per language, passed explicitly (no global locale)."""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

SOURCE_LANGUAGE = "en"
SUPPORTED_LANGUAGES: tuple[str, ...] = ("id", "en", "fr", "de")
LOCALE_DIR = Path(__file__).parent / "locales"
DOMAIN = "messages"
"""The common domain: every message outside a game's own package."""


class Translator:
    """One language's messages; `gettext`/`ngettext` return templates with {named} fields.

    It reads the common domain; `domain(name)` gives the translator of a game's own domain,
    which falls back to the common one for the words every game shares."""

    __slots__ = ("_catalog", "_domains", "language")

    def __init__(
        self,
        language: str,
        catalog: gettext.NullTranslations,
        domains: Mapping[str, Translator] | None = None,
    ) -> None:
        self.language = language
        self._catalog = catalog
        self._domains = dict(domains or {})

    def domain(self, name: str) -> Translator:
        """The translator of domain `name` (a game's); itself for the common domain or a
        domain with no catalogs."""
        return self._domains.get(name, self)

    def gettext(self, message: str) -> str:
        """The translation of `message` (the English source when there is none)."""
        return self._catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The translation of a message whose form depends on the number `n`."""
        return self._catalog.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """The translation of `message` in `context` (for short words with several meanings)."""
        return self._catalog.pgettext(context, message)


def po_path(language: str, domain: str = DOMAIN) -> Path:
    """Where a language's catalog of `domain` lives."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"


def game_domains() -> list[str]:
    """The domains of the games, one per template beside the common one's."""
    return sorted(p.stem for p in LOCALE_DIR.glob("*.pot") if p.stem != DOMAIN)


def load_catalog(language: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    """A language's catalog of `domain`, compiled from its .po file in memory (no build step
    needed); English, the source language, needs none."""
    path = po_path(language, domain)
    if language == SOURCE_LANGUAGE or not path.is_file():
        return gettext.NullTranslations()
    with path.open("rb") as po_file:
        catalog = read_po(po_file, locale=language, domain=domain)
    compiled = BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


class Translators:
    """The translators of every supported language, loaded once and shared read-only."""

    def __init__(self, default_language: str = SOURCE_LANGUAGE) -> None:
        self.default_language = pick_language(default_language) or SOURCE_LANGUAGE
        self._by_language = {
            language: _translator(language, game_domains()) for language in SUPPORTED_LANGUAGES
        }

    def get(self, language: str | None) -> Translator:
        """The translator for `language`, or the default language's."""
        code = pick_language(language) or self.default_language
        return self._by_language[code]


def _translator(language: str, domains: list[str]) -> Translator:
    """A language's translator with its games' domains, each falling back to the common."""
    common = load_catalog(language)
    games = {}
    for domain in domains:
        catalog = load_catalog(language, domain)
        catalog.add_fallback(common)
        games[domain] = Translator(language, catalog)
    return Translator(language, common, games)


def pick_language(code: str | None) -> str | None:
    """The supported language matching a Telegram language_code such as 'id' or 'pt-br'."""
    if not code:
        return None
    base = code.lower().replace("_", "-").split("-")[0]
    if base == "in":  # an old code for Indonesian still sent by some clients
        base = "id"
    return base if base in SUPPORTED_LANGUAGES else None
