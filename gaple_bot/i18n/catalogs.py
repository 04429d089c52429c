"""Catalog upkeep: extract the English messages from the code, update and check every .po file."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path
from typing import Final, Literal

from babel.core import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from .translator import DOMAIN, LOCALE_DIR, SOURCE_LANGUAGE, SUPPORTED_LANGUAGES, po_path

PACKAGE_DIR: Final = Path(__file__).resolve().parent.parent
"""Where messages are extracted from: every .py file of the gaple_bot package."""
TEMPLATE_PATH: Final = LOCALE_DIR / f"{DOMAIN}.pot"
PROJECT: Final = "gaple-bot"
WIDTH: Final = 76
"""Line width of .pot and .po files (pybabel's default, so both tools write the same files)."""

Keyword = tuple[int | tuple[int, Literal["c"]], ...] | None
KEYWORDS: Final[dict[str, Keyword]] = {
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}
"""The Translator methods whose string arguments are messages (as `pybabel -k` options)."""
METHOD_MAP: Final = (("**.py", "python"),)

PLURAL_FORMS: Final[dict[str, str]] = {"fr": "nplurals=2; plural=(n > 1);"}
"""Plural rules that differ from babel's: French as gettext writes it, without CLDR's extra
form for exact millions ('1 million de points'), which no message here needs."""
HEADER_COMMENT: Final = (
    "# {language} messages of gaple-bot.\n"
    "# Translate the msgstr lines only. After changing messages in the code, run\n"
    "# `python -m gaple_bot.i18n.catalogs update`, then\n"
    "# `python -m gaple_bot.i18n.catalogs check` to list what is left to translate.\n"
    "#"
)
USAGE: Final = """usage: python -m gaple_bot.i18n.catalogs COMMAND [LANGUAGE ...]

commands:
  extract            write messages.pot from the messages in the code
  update [LANG ...]  extract, then bring every catalog (or the named ones, which are
                     created if new) in step with messages.pot
  check  [LANG ...]  exit 1 if messages.pot is out of date or a catalog lacks a translation
"""


def extract_template(package_dir: Path = PACKAGE_DIR) -> Catalog:
    """The catalog of every message the code passes to gettext, ngettext or pgettext."""
    template = Catalog(project=PROJECT, domain=DOMAIN, fuzzy=False)
    extracted = extract_from_dir(str(package_dir), METHOD_MAP, keywords=KEYWORDS)
    for filename, lineno, message, comments, context in extracted:
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def template_bytes(template: Catalog) -> bytes:
    """The .pot text: sorted, without header or locations, so it only changes with the
    messages (the same bytes as `pybabel extract --omit-header --no-location --sort-output`)."""
    out = BytesIO()
    write_po(out, template, width=WIDTH, no_location=True, omit_header=True, sort_output=True)
    return out.getvalue()


def catalog_bytes(catalog: Catalog) -> bytes:
    """A language's .po text: header, then messages sorted, without locations."""
    out = BytesIO()
    write_po(out, catalog, width=WIDTH, no_location=True, sort_output=True, ignore_obsolete=True)
    return out.getvalue()


def read_template(path: Path | None = None) -> Catalog:
    """The template as written in messages.pot (or at `path`)."""
    with (path or TEMPLATE_PATH).open("rb") as pot_file:
        return read_po(pot_file, domain=DOMAIN)


def read_catalog(language: str) -> Catalog:
    """A language's catalog as written in its .po file."""
    with po_path(language).open("rb") as po_file:
        return read_po(po_file, locale=language, domain=DOMAIN)


def new_catalog(language: str) -> Catalog:
    """An empty catalog for `language`, its plural rule taken from babel's locale data."""
    name = Locale.parse(language).english_name or language
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    catalog = Catalog(
        locale=language,
        domain=DOMAIN,
        header_comment=HEADER_COMMENT.format(language=name),
        project=PROJECT,
        version="1",
        creation_date=now,
        revision_date=now,
        last_translator=f"{PROJECT} translators",
        language_team=name,
        fuzzy=False,
    )
    if language in PLURAL_FORMS:
        catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[language])]
    return catalog


def catalog_languages() -> list[str]:
    """The languages that need a catalog: every supported one but English, and any other
    language whose catalog already exists (one being added)."""
    found = {p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")}
    wanted = set(SUPPORTED_LANGUAGES) | found
    wanted.discard(SOURCE_LANGUAGE)
    return sorted(wanted)


def write_template(template: Catalog) -> bool:
    """Write messages.pot; whether it changed."""
    text = template_bytes(template)
    if TEMPLATE_PATH.is_file() and TEMPLATE_PATH.read_bytes() == text:
        return False
    TEMPLATE_PATH.parent.mkdir(parents=True, exist_ok=True)
    TEMPLATE_PATH.write_bytes(text)
    return True


def update_catalog(language: str, template: Catalog) -> Catalog:
    """Bring a language's .po in step with `template` (creating it if needed) and write it.
    New messages come in untranslated; reworded ones keep their old translation marked fuzzy,
    for a translator to review; messages no longer in the code are dropped."""
    path = po_path(language)
    catalog = read_catalog(language) if path.is_file() else new_catalog(language)
    catalog.update(template, update_creation_date=False)
    text = catalog_bytes(catalog)
    if not path.is_file() or path.read_bytes() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text)
    return catalog


def update(languages: Iterable[str] = ()) -> list[str]:
    """Re-extract messages.pot and update the catalogs (all, or `languages`); one summary
    line per file."""
    template = extract_template()
    changed = write_template(template)
    count = sum(1 for message in template if message.id)
    lines = [f"{TEMPLATE_PATH.name}: {count} messages{' (updated)' if changed else ''}"]
    for language in list(languages) or catalog_languages():
        catalog = update_catalog(language, template)
        todo = len(untranslated(catalog))
        lines.append(f"{language}: {todo} to translate" if todo else f"{language}: complete")
    return lines


def translations(message: Message) -> list[str]:
    """A message's translated forms: one, or one per plural form ('' where missing)."""
    if isinstance(message.string, (list, tuple)):
        return [form or "" for form in message.string]
    return [message.string or ""]


def is_translated(message: Message) -> bool:
    """Whether every form of the message has a translation that is not fuzzy."""
    return not message.fuzzy and all(translations(message))


def untranslated(catalog: Catalog) -> list[Message]:
    """The catalog's messages still to translate (empty, or fuzzy)."""
    return [m for m in catalog if m.id and not is_translated(m)]


def message_label(message: Message) -> str:
    """A message as a reader finds it in a .po file."""
    msgid = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
    context = f"[{message.context}] " if message.context else ""
    return f"{context}{msgid!r}"


def template_problems() -> list[str]:
    """What makes messages.pot differ from the messages in the code (empty when in step)."""
    if not TEMPLATE_PATH.is_file():
        return [f"{TEMPLATE_PATH} is missing: run `python -m gaple_bot.i18n.catalogs update`"]
    fresh = extract_template()
    if TEMPLATE_PATH.read_bytes() == template_bytes(fresh):
        return []
    written = read_template()
    problems = [
        f"{TEMPLATE_PATH.name}: not in the code any more: {message_label(m)}"
        for m in written
        if m.id and fresh.get(m.id, m.context) is None
    ]
    problems += [
        f"{TEMPLATE_PATH.name}: missing: {message_label(m)}"
        for m in fresh
        if m.id and written.get(m.id, m.context) is None
    ]
    return problems or [f"{TEMPLATE_PATH.name}: out of date (run the update command)"]


def catalog_problems(language: str, template: Catalog) -> list[str]:
    """What a language's catalog lacks for `template`: a message, a translation, a plural
    form, or a reviewed (not fuzzy) translation."""
    if not po_path(language).is_file():
        return [f"{language}: no catalog at {po_path(language)}"]
    catalog = read_catalog(language)
    problems = []
    for wanted in template:
        if not wanted.id:
            continue
        message = catalog.get(wanted.id, wanted.context)
        if message is None:
            problems.append(f"{language}: missing {message_label(wanted)}")
        elif message.fuzzy:
            problems.append(f"{language}: fuzzy {message_label(wanted)}")
        elif not is_translated(message):
            problems.append(f"{language}: untranslated {message_label(wanted)}")
        elif message.pluralizable and len(translations(message)) != catalog.num_plurals:
            problems.append(
                f"{language}: {len(translations(message))} plural forms instead of "
                f"{catalog.num_plurals} for {message_label(wanted)}"
            )
    return problems


def check(languages: Iterable[str] = ()) -> list[str]:
    """Every problem with messages.pot and the catalogs (all, or `languages`); empty if none."""
    problems = template_problems()
    template = extract_template()
    for language in list(languages) or catalog_languages():
        problems += catalog_problems(language, template)
    return problems


def is_known_language(code: str) -> bool:
    """Whether babel has locale data (and so a plural rule) for a language code like 'pt'."""
    try:
        Locale.parse(code)
    except (ValueError, UnknownLocaleError):
        return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command (see USAGE); the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in ("extract", "update", "check"):
        print(USAGE, file=sys.stderr)
        return 2
    command, languages = args[0], args[1:]
    if SOURCE_LANGUAGE in languages:
        print(f"{SOURCE_LANGUAGE} is the source language: it has no catalog", file=sys.stderr)
        return 2
    unknown = [language for language in languages if not is_known_language(language)]
    if unknown:
        print(f"unknown language code(s): {' '.join(unknown)}", file=sys.stderr)
        return 2
    if command == "extract":
        changed = write_template(extract_template())
        print(f"{TEMPLATE_PATH.name}: {'updated' if changed else 'already up to date'}")
        return 0
    if command == "update":
        for line in update(languages):
            print(line)
        return 0
    problems = check(languages)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    print("messages.pot and every catalog are complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())
