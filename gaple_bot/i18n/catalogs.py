"""Catalog upkeep: extract the English messages from the code, update and check every .po file.

Messages live in domains: a game's package (`gaple_bot/games/<kind>/`) has its own, named
after the kind; everything else is the common domain, `messages`."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path
from typing import Final, Literal

from babel.core import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from .translator import DOMAIN, LOCALE_DIR, SOURCE_LANGUAGE, SUPPORTED_LANGUAGES, po_path

PACKAGE_DIR: Final = Path(__file__).resolve().parent.parent
"""Where messages are extracted from: every .py file of the gaple_bot package."""
GAMES_DIR: Final = "games"
"""The folder of PACKAGE_DIR whose game packages have a domain each."""
GAME_MARKER: Final = "kind.py"
"""What makes a sub-package of GAMES_DIR a game (its GameKind); the others (the common
pictures) speak the common domain."""
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
  extract            write every domain's .pot (messages.pot, one per game) from the code
  update [LANG ...]  extract, then bring every catalog (or the named languages', created
                     if new) in step with its domain's template
  check  [LANG ...]  exit 1 if a template is out of date, a catalog lacks a translation, or
                     a translation breaks its language's typography (French spacing)
"""

NO_BREAK_SPACE: Final = "\u00a0"
"""What French puts before a colon, so that a line never starts with it."""
NARROW_NO_BREAK_SPACE: Final = "\u202f"
"""What French puts before ; ! ? and inside « » (thinner than a word space)."""
NOT_TEXT: Final = re.compile(
    r"<[^<>]*>"  # an HTML tag (its attributes may hold a link's : and ?)
    r"|\{[^{}]*\}"  # a {placeholder}, whose format spec may hold a colon
    r"|&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);"  # an entity such as &amp;
    r"|\b[a-z][a-z0-9+.-]*://\S*"  # a link written out
)
"""What French spacing does not apply to; a tag goes, the others read as one digit."""
SPACE_ENTITY: Final = re.compile(r"&(?:nbsp|#160|#x0*a0|#8239|#x0*202f);", re.IGNORECASE)
"""A no-break space written as an entity: Telegram's HTML and the page's text would show it
as is, so the catalogs hold the character itself."""
SPACES: Final = {
    " ": "a plain space",
    NO_BREAK_SPACE: "a no-break space (U+00A0)",
    NARROW_NO_BREAK_SPACE: "a narrow no-break space (U+202F)",
}


def domains(package_dir: Path = PACKAGE_DIR) -> list[str]:
    """The common domain first, then one per game package that has messages (or a
    template already), by name."""
    games = package_dir / GAMES_DIR
    kinds = sorted(p.name for p in games.iterdir() if (p / GAME_MARKER).is_file())
    return [DOMAIN, *(kind for kind in kinds if _has_messages(kind, package_dir))]


def _has_messages(domain: str, package_dir: Path) -> bool:
    """Whether a game's package has messages (a package of rules alone has none)."""
    if template_path(domain).is_file():
        return True
    return any(message.id for message in extract_template(domain, package_dir))


def domain_of(path: Path, package_dir: Path = PACKAGE_DIR) -> str:
    """The domain of a source file: its game's, inside a game package; else the common one."""
    parts = path.relative_to(package_dir).parts
    in_games = len(parts) > 2 and parts[0] == GAMES_DIR
    if in_games and (package_dir / GAMES_DIR / parts[1] / GAME_MARKER).is_file():
        return parts[1]
    return DOMAIN


def template_path(domain: str = DOMAIN) -> Path:
    """Where a domain's template lives."""
    return LOCALE_DIR / f"{domain}.pot"


def extract_template(domain: str = DOMAIN, package_dir: Path = PACKAGE_DIR) -> Catalog:
    """The catalog of every message the domain's code passes to gettext, ngettext or
    pgettext."""
    template = Catalog(project=PROJECT, domain=domain, fuzzy=False)
    for path in sorted(package_dir.rglob("*.py")):
        if domain_of(path, package_dir) != domain:
            continue
        extracted = extract_from_file("python", str(path), keywords=KEYWORDS)
        for lineno, message, comments, context in extracted:
            location = [(str(path.relative_to(package_dir)), lineno)]
            template.add(message, None, location, auto_comments=comments, context=context)
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


def read_template(domain: str = DOMAIN, path: Path | None = None) -> Catalog:
    """The domain's template as written in its .pot (or at `path`)."""
    with (path or template_path(domain)).open("rb") as pot_file:
        return read_po(pot_file, domain=domain)


def read_catalog(language: str, domain: str = DOMAIN) -> Catalog:
    """A language's catalog of `domain` as written in its .po file."""
    with po_path(language, domain).open("rb") as po_file:
        return read_po(po_file, locale=language, domain=domain)


def new_catalog(language: str, domain: str = DOMAIN) -> Catalog:
    """An empty catalog for `language`, its plural rule taken from babel's locale data."""
    name = Locale.parse(language).english_name or language
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    catalog = Catalog(
        locale=language,
        domain=domain,
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
    """Write the template's .pot; whether it changed."""
    path = template_path(template.domain or DOMAIN)
    text = template_bytes(template)
    if path.is_file() and path.read_bytes() == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text)
    return True


def update_catalog(language: str, template: Catalog) -> Catalog:
    """Bring a language's .po in step with `template` (creating it if needed) and write it.
    New messages come in untranslated; reworded ones keep their old translation marked fuzzy,
    for a translator to review; messages no longer in the code are dropped."""
    domain = template.domain or DOMAIN
    path = po_path(language, domain)
    catalog = read_catalog(language, domain) if path.is_file() else new_catalog(language, domain)
    catalog.update(template, update_creation_date=False)
    text = catalog_bytes(catalog)
    if not path.is_file() or path.read_bytes() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text)
    return catalog


def update(languages: Iterable[str] = ()) -> list[str]:
    """Re-extract every domain's template and update its catalogs (all languages, or
    `languages`); one summary line per file."""
    wanted = list(languages) or catalog_languages()
    lines = []
    for domain in domains():
        template = extract_template(domain)
        changed = write_template(template)
        count = sum(1 for message in template if message.id)
        name = template_path(domain).name
        lines.append(f"{name}: {count} messages{' (updated)' if changed else ''}")
        for language in wanted:
            todo = len(untranslated(update_catalog(language, template)))
            state = f"{todo} to translate" if todo else "complete"
            lines.append(f"{language}/{domain}: {state}")
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


def template_problems(domain: str = DOMAIN) -> list[str]:
    """What makes a domain's template differ from the messages in the code (empty when in
    step)."""
    path = template_path(domain)
    if not path.is_file():
        return [f"{path} is missing: run `python -m gaple_bot.i18n.catalogs update`"]
    fresh = extract_template(domain)
    if path.read_bytes() == template_bytes(fresh):
        return []
    written = read_template(domain)
    problems = [
        f"{path.name}: not in the code any more: {message_label(m)}"
        for m in written
        if m.id and fresh.get(m.id, m.context) is None
    ]
    problems += [
        f"{path.name}: missing: {message_label(m)}"
        for m in fresh
        if m.id and written.get(m.id, m.context) is None
    ]
    return problems or [f"{path.name}: out of date (run the update command)"]


def _space_name(char: str) -> str:
    """How a problem names the character next to a sign: which space, or no space."""
    return SPACES.get(char, "no space")


def french_spacing(text: str) -> list[str]:
    """Where a French text is spaced wrongly: a colon wants a no-break space (U+00A0) before
    it; ; ! ? want a narrow one (U+202F) before them (or another ! or ? right before, as in
    ?!), « one after it and » one before it. A colon between digits (10:30), tags,
    placeholders, entities and links are not punctuation."""
    problems = [
        f"{match.group(0)!r}: write the character itself, not an entity"
        for match in SPACE_ENTITY.finditer(text)
    ]
    plain = NOT_TEXT.sub(lambda match: "" if match.group(0).startswith("<") else "0", text)
    for index, sign in enumerate(plain):
        before = plain[index - 1] if index else ""
        after = plain[index + 1 : index + 2]
        if sign == ":" and before != NO_BREAK_SPACE:
            if not (before.isdigit() and after.isdigit()):
                problems.append(f"{_space_name(before)} before ':' (French wants U+00A0)")
        elif sign in ";!?" and before != NARROW_NO_BREAK_SPACE:
            if not (sign in "!?" and before and before in "!?"):
                problems.append(f"{_space_name(before)} before {sign!r} (French wants U+202F)")
        elif sign == "«" and after != NARROW_NO_BREAK_SPACE:
            problems.append(f"{_space_name(after)} after '«' (French wants U+202F)")
        elif sign == "»" and before != NARROW_NO_BREAK_SPACE:
            problems.append(f"{_space_name(before)} before '»' (French wants U+202F)")
    return problems


TYPOGRAPHY: Final[dict[str, Callable[[str], list[str]]]] = {"fr": french_spacing}
"""Each language's rules of typography that its translations must follow, by base code."""


def typography_problems(language: str, message: Message) -> list[str]:
    """Where the message's translations break their language's typography (empty if none, or
    if the language has no rules here)."""
    rules = TYPOGRAPHY.get(language.replace("-", "_").split("_")[0])
    if rules is None:
        return []
    return [problem for form in translations(message) for problem in rules(form)]


def catalog_problems(language: str, template: Catalog) -> list[str]:
    """What a language's catalog of the template's domain lacks: a message, a translation,
    a plural form, or a reviewed (not fuzzy) translation; and where a translation breaks
    its language's typography."""
    domain = template.domain or DOMAIN
    label = language if domain == DOMAIN else f"{language}/{domain}"
    path = po_path(language, domain)
    if not path.is_file():
        return [f"{label}: no catalog at {path}"]
    catalog = read_catalog(language, domain)
    problems = []
    for wanted in template:
        if not wanted.id:
            continue
        message = catalog.get(wanted.id, wanted.context)
        if message is None:
            problems.append(f"{label}: missing {message_label(wanted)}")
        elif message.fuzzy:
            problems.append(f"{label}: fuzzy {message_label(wanted)}")
        elif not is_translated(message):
            problems.append(f"{label}: untranslated {message_label(wanted)}")
        elif message.pluralizable and len(translations(message)) != catalog.num_plurals:
            problems.append(
                f"{label}: {len(translations(message))} plural forms instead of "
                f"{catalog.num_plurals} for {message_label(wanted)}"
            )
        else:
            problems += [
                f"{label}: {problem} in {message_label(wanted)}"
                for problem in typography_problems(language, message)
            ]
    return problems


def check(languages: Iterable[str] = ()) -> list[str]:
    """Every problem with the templates and the catalogs (all languages, or `languages`);
    empty if none."""
    problems = []
    for domain in domains():
        problems += template_problems(domain)
        template = extract_template(domain)
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
        for domain in domains():
            changed = write_template(extract_template(domain))
            state = "updated" if changed else "already up to date"
            print(f"{template_path(domain).name}: {state}")
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
    print("every template and catalog is complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())
