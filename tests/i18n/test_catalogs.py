"""The catalogs: complete, in step with the code, faithful to each message's placeholders, tags
and emojis, with the right plural rules; and no sentence built from translated fragments."""

from __future__ import annotations

import ast
import gettext
import re
import string
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.core import Locale
from babel.messages.catalog import Catalog

from gaple_bot.i18n import Translators, catalogs, pick_language
from gaple_bot.i18n.translator import SOURCE_LANGUAGE, SUPPORTED_LANGUAGES, po_path

LANGUAGES = catalogs.catalog_languages()
DOMAINS = catalogs.domains()
EVERY_CATALOG = [(domain, language) for domain in DOMAINS for language in LANGUAGES]
TRANSLATED_CALLS = frozenset({"gettext", "ngettext", "pgettext"})
PLURAL_SAMPLE = range(0, 1001)
"""The numbers a plural rule is compared on: every count and score the bot shows."""

BUTTON_CHARS = 24
"""A button label may be this long, or as long as the English one if that is longer."""
ALERT_CHARS = 200
"""Telegram cuts callback-query alerts at 200 characters."""
BUTTONS: frozenset[tuple[str | None, str]] = frozenset(
    {
        (None, "✋ Join"),
        (None, "🚪 Leave"),
        (None, "🤖 Add computer"),
        (None, "▶️ Start"),
        (None, "✖️ Cancel"),
        (None, "💬 Open my private chat"),
        (None, "🔁 Play again"),
        (None, "🙋 Take my seat back"),
        (None, "👥 Add me to a group"),
        (None, "↩️ Back"),
        (None, "⬅️ Left end ({end})"),
        (None, "Right end ({end}) ➡️"),
        (None, "🁢 My hand"),
        (None, "Same as my Telegram app"),
        (None, "Classic"),
        (None, "Discards"),
        (None, "Starting tile, pass"),
        (None, "{n} second"),
        ("computer level", "easy"),
        ("computer level", "normal"),
        ("computer level", "hard"),
    }
)
"""Button labels (a message no longer in the code is skipped)."""
ALERTS: frozenset[str] = frozenset(
    {
        "This game no longer exists.",
        "A game is already open here.",
        "This table has already started or closed.",
        "You are already at this table.",
        "This table is full.",
        "You are not at this table.",
        "Only whoever opened the table, or a group admin, can do that.",
        "Someone has to join before the game can start.",
        "Open a private chat with me first: that is where your hand goes.",
        "That button is out of date.",
        "It is not your turn.",
        "That tile fits neither open end.",
        "This game is not being played.",
        "That setting does not exist.",
        "That did not work.",
        "That button is not valid.",
        "Only group admins can change the settings.",
        "Saved.",
        "You played {tile}.",
        "You joined. Your tiles will come in our private chat.",
        "You left the table.",
        "A computer player sat down.",
        "The table is closed.",
        "Let's play!",
        "A new table is open.",
        "Your hand: {tiles}",
    }
)
"""Texts shown in callback-query alerts and toasts (a message no longer in the code is
skipped)."""
LONGEST_VALUES = {
    "tiles": "[6|6] [6|5] [6|4] [5|5] [6|3] [5|4] [6|2]",
    "tile": "[6|6]",
    "move": "discard [6|6]",
    "end": "6",
    "n": "30",
}
"""Realistic longest values for the length checks; other fields get DEFAULT_VALUE."""
DEFAULT_VALUE = "x" * 12

TAG = re.compile(r"</?([a-zA-Z]+)[^<>]*>")
ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);")
COMMAND = re.compile(r"(?<![\w<])/[a-z]+(?: (?:global|wins|points|week|rating|all|7d)\b)?")
"""A command with its /top keyword: the bot only understands these in English."""


@dataclass(frozen=True, slots=True)
class Translation:
    """One form of one message in one language."""

    language: str
    context: str | None
    msgid: str
    """The message's msgid (the singular one for a message with a plural)."""
    source: str
    """The English text shown instead (for a plural form: the English form for its numbers)."""
    text: str
    form: int | None
    """The plural form's index; None for a message without plural."""

    def __str__(self) -> str:
        form = "" if self.form is None else f" [form {self.form}]"
        context = f" ({self.context})" if self.context else ""
        return f"{self.language}{context}{form}: {self.source!r} -> {self.text!r}"


@pytest.fixture(scope="module")
def template() -> Catalog:
    """The common domain's messages extracted fresh from the code."""
    return catalogs.extract_template()


@pytest.fixture(scope="module")
def templates() -> dict[str, Catalog]:
    """Every domain's messages extracted fresh from the code."""
    return {domain: catalogs.extract_template(domain) for domain in DOMAINS}


def merged(language: str) -> Catalog:
    """A language's catalogs of every domain as one (the common one's header and plural
    rule, which every domain of the language shares)."""
    catalog = catalogs.read_catalog(language)
    for domain in DOMAINS[1:]:
        for message in catalogs.read_catalog(language, domain):
            if message.id:
                catalog.add(
                    message.id, message.string, context=message.context, flags=message.flags
                )
    return catalog


@pytest.fixture(scope="module")
def loaded() -> dict[str, Catalog]:
    """Every language's catalogs as written, every domain's messages together."""
    return {language: merged(language) for language in LANGUAGES}


def translations(loaded: dict[str, Catalog]) -> Iterator[Translation]:
    """Every translated form of every message, with the English text it renders."""
    for language, catalog in loaded.items():
        for message in catalog:
            if not message.id:
                continue
            forms = catalogs.translations(message)
            if isinstance(message.id, str):
                yield Translation(language, message.context, message.id, message.id, forms[0], None)
                continue
            one, other = message.id[0], message.id[1]
            rule = gettext.c2py(catalog.plural_expr)
            for index, text in enumerate(forms):
                # The English form a reader would otherwise see for the same numbers.
                numbers = [n for n in PLURAL_SAMPLE if rule(n) == index]
                source = one if numbers == [1] else other
                yield Translation(language, message.context, one, source, text, index)


def fields(text: str) -> set[str]:
    """The named {placeholders} of a str.format template."""
    names = set()
    for _, name, _, _ in string.Formatter().parse(text):
        if name is not None:
            names.add(re.split(r"[.\[]", name, maxsplit=1)[0])
    return names


def filled(text: str, values: dict[str, str] | None = None) -> str:
    """The template formatted with `values` (DEFAULT_VALUE for any other field)."""
    given = values or {}
    return text.format(**{name: given.get(name, DEFAULT_VALUE) for name in fields(text)})


def tags(text: str) -> list[str]:
    """The HTML tags, opening and closing, in order."""
    return [match.group(0) for match in TAG.finditer(text)]


def symbols(text: str) -> Counter[str]:
    """The emojis and other pictographs (Unicode 'Symbol, other'), counted."""
    return Counter(c for c in text if unicodedata.category(c) == "So")


# (a) Every message is in every catalog, translated ------------------------------------------


def test_there_is_a_catalog_for_every_supported_language_but_english() -> None:
    assert set(LANGUAGES) >= set(SUPPORTED_LANGUAGES) - {SOURCE_LANGUAGE}
    assert SOURCE_LANGUAGE not in LANGUAGES


def test_every_game_has_its_own_domain_with_a_plural_rule_like_the_common_one() -> None:
    assert DOMAINS[0] == "messages"
    assert "gaple" in DOMAINS
    for domain, language in EVERY_CATALOG:
        catalog = catalogs.read_catalog(language, domain)
        assert catalog.plural_expr == catalogs.read_catalog(language).plural_expr, domain


def test_a_game_message_is_in_its_domain_and_read_through_it(
    templates: dict[str, Catalog],
) -> None:
    """Gaple's words live in gaple.po; through its domain they translate, and the common
    words every game shares still do (the common catalog is the fallback)."""
    gaple_only = "<b>Gaple</b> · round {round} · {rules} · first to {target}"
    assert templates["gaple"].get(gaple_only) is not None
    assert templates["messages"].get(gaple_only) is None
    common = "a former player"
    assert templates["messages"].get(common) is not None
    t = Translators().get("id")
    gaple = t.domain("gaple")
    assert gaple.gettext(gaple_only) != gaple_only
    assert t.gettext(gaple_only) == gaple_only
    assert gaple.gettext(common) == t.gettext(common) != common
    assert t.domain("no such game") is t


@pytest.mark.parametrize(("domain", "language"), EVERY_CATALOG)
def test_every_message_in_the_code_is_translated(
    templates: dict[str, Catalog], domain: str, language: str
) -> None:
    catalog = catalogs.read_catalog(language, domain)
    problems = []
    for wanted in templates[domain]:
        if not wanted.id:
            continue
        message = catalog.get(wanted.id, wanted.context)
        if message is None:
            problems.append(f"missing {catalogs.message_label(wanted)}")
        elif message.fuzzy:
            problems.append(f"fuzzy {catalogs.message_label(wanted)}")
        elif not catalogs.is_translated(message):
            problems.append(f"untranslated {catalogs.message_label(wanted)}")
    assert not problems, (
        f"{language}/{domain}: run `python -m gaple_bot.i18n.catalogs update`, then "
        + ("translate:\n" + "\n".join(problems))
    )


# (b) Placeholders, tags, emojis, commands, whitespace and lengths ---------------------------


def test_translations_keep_the_placeholders(loaded: dict[str, Catalog]) -> None:
    """Messages without a plural (plural forms: see the next test)."""
    wrong = [
        f"{tr}: {sorted(fields(tr.text))} instead of {sorted(fields(tr.source))}"
        for tr in translations(loaded)
        if tr.form is None and fields(tr.text) != fields(tr.source)
    ]
    assert not wrong, "\n".join(wrong)


def test_plural_forms_keep_the_placeholders(loaded: dict[str, Catalog]) -> None:
    """Each form has the msgid_plural's placeholders; a form used for one number only (German
    'one' is 1 and nothing else) may leave out {n} and spell the number out."""
    wrong = []
    for language, catalog in loaded.items():
        rule = gettext.c2py(catalog.plural_expr)
        for message in catalog:
            if not message.id or not message.pluralizable:
                continue
            wanted = fields(message.id[1])
            for index, text in enumerate(catalogs.translations(message)):
                numbers = [n for n in PLURAL_SAMPLE if rule(n) == index]
                found = fields(text)
                if found == wanted or (len(numbers) == 1 and found == wanted - {"n"}):
                    continue
                wrong.append(f"{language} form {index} of {message.id[1]!r}: {text!r}")
    assert not wrong, "\n".join(wrong)


def test_translations_format_with_dummy_values(loaded: dict[str, Catalog]) -> None:
    failed = []
    for tr in translations(loaded):
        try:
            filled(tr.text)
        except (KeyError, IndexError, ValueError) as error:
            failed.append(f"{tr}: {error!r}")
    assert not failed, "\n".join(failed)


def test_translations_keep_the_html_tags(loaded: dict[str, Catalog]) -> None:
    wrong = [
        f"{tr}: {tags(tr.text)} instead of {tags(tr.source)}"
        for tr in translations(loaded)
        if sorted(tags(tr.text)) != sorted(tags(tr.source))
    ]
    assert not wrong, "\n".join(wrong)


def test_translations_are_valid_telegram_html(loaded: dict[str, Catalog]) -> None:
    """Tags nest properly, and no bare <, > or & is left (Telegram would reject the message)."""
    wrong = []
    for tr in translations(loaded):
        stack: list[str] = []
        for match in TAG.finditer(tr.text):
            name = match.group(1).lower()
            if match.group(0).startswith("</"):
                if not stack or stack.pop() != name:
                    wrong.append(f"{tr}: unbalanced </{name}>")
                    break
            else:
                stack.append(name)
        else:
            if stack:
                wrong.append(f"{tr}: <{stack[-1]}> never closed")
        bare = ENTITY.sub("", TAG.sub("", tr.text))
        if set(bare) & set("<>&"):
            wrong.append(f"{tr}: a bare <, > or & (write &lt; &gt; &amp;)")
    assert not wrong, "\n".join(wrong)


def test_translations_keep_the_emojis(loaded: dict[str, Catalog]) -> None:
    wrong = [
        f"{tr}: {''.join(symbols(tr.text).elements())!r} instead of "
        f"{''.join(symbols(tr.source).elements())!r}"
        for tr in translations(loaded)
        if symbols(tr.text) != symbols(tr.source)
    ]
    assert not wrong, "\n".join(wrong)


def test_translations_keep_commands_and_their_keywords(loaded: dict[str, Catalog]) -> None:
    """/gaple, /top global … are typed by players: the bot understands them only as written."""
    wrong = [
        f"{tr}: {COMMAND.findall(tr.text)} instead of {COMMAND.findall(tr.source)}"
        for tr in translations(loaded)
        if Counter(COMMAND.findall(tr.text)) != Counter(COMMAND.findall(tr.source))
    ]
    assert not wrong, "\n".join(wrong)


def test_translations_keep_leading_and_trailing_whitespace(loaded: dict[str, Catalog]) -> None:
    def edges(text: str) -> tuple[str, str]:
        return text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]

    wrong = [str(tr) for tr in translations(loaded) if edges(tr.text) != edges(tr.source)]
    assert not wrong, "\n".join(wrong)


def test_button_labels_stay_short(loaded: dict[str, Catalog]) -> None:
    wrong = []
    for tr in translations(loaded):
        if (tr.context, tr.msgid) not in BUTTONS:
            continue
        text, english = filled(tr.text, LONGEST_VALUES), filled(tr.source, LONGEST_VALUES)
        if len(text) > max(BUTTON_CHARS, len(english)):
            wrong.append(f"{tr}: {len(text)} characters")
    assert not wrong, "\n".join(wrong)


def test_alerts_fit_in_200_characters(loaded: dict[str, Catalog]) -> None:
    wrong = [
        f"{tr}: {len(filled(tr.text, LONGEST_VALUES))} characters"
        for tr in translations(loaded)
        if tr.msgid in ALERTS and len(filled(tr.text, LONGEST_VALUES)) > ALERT_CHARS
    ]
    assert not wrong, "\n".join(wrong)


# (c) Plural rules ---------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_rule_matches_cldr(loaded: dict[str, Catalog], language: str) -> None:
    """The header's rule sorts the numbers the bot shows into the same groups as CLDR's
    (French leaves out CLDR's form for exact millions, see catalogs.PLURAL_FORMS)."""
    catalog = loaded[language]
    header = gettext.c2py(catalog.plural_expr)
    cldr = Locale.parse(language).plural_form
    by_form: dict[int, set[str]] = {}
    by_category: dict[str, set[int]] = {}
    for n in PLURAL_SAMPLE:
        by_form.setdefault(header(n), set()).add(cldr(n))
        by_category.setdefault(cldr(n), set()).add(header(n))
    assert all(len(categories) == 1 for categories in by_form.values()), by_form
    assert all(len(forms) == 1 for forms in by_category.values()), by_category
    assert set(by_form) == set(range(catalog.num_plurals))
    assert catalog.num_plurals == len(by_category)


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_messages_have_every_form(loaded: dict[str, Catalog], language: str) -> None:
    catalog = loaded[language]
    wrong = [
        f"{catalogs.message_label(m)}: {len(catalogs.translations(m))} forms"
        for m in catalog
        if m.id and m.pluralizable and len(catalogs.translations(m)) != catalog.num_plurals
    ]
    assert not wrong, f"{language} needs {catalog.num_plurals} forms:\n" + "\n".join(wrong)


# (d) The template and the catalogs are in step with the code --------------------------------


@pytest.mark.parametrize("domain", DOMAINS)
def test_template_is_up_to_date_with_the_code(domain: str) -> None:
    problems = catalogs.template_problems(domain)
    assert not problems, "run `python -m gaple_bot.i18n.catalogs update`:\n" + "\n".join(problems)


def test_template_check_names_what_changed(
    template: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = Catalog(fuzzy=False)
    for message in template:
        if message.id and message.id != "That button is out of date.":
            old.add(message.id, context=message.context)
    old.add("A message the code no longer has")
    stale = tmp_path / "messages.pot"
    stale.write_bytes(catalogs.template_bytes(old))
    real_path = catalogs.template_path
    monkeypatch.setattr(
        catalogs,
        "template_path",
        lambda domain="messages": stale if domain == "messages" else real_path(domain),
    )
    assert catalogs.template_problems() == [
        "messages.pot: not in the code any more: 'A message the code no longer has'",
        "messages.pot: missing: 'That button is out of date.'",
    ]
    assert catalogs.main(["check"]) == 1


def test_check_passes() -> None:
    assert catalogs.check() == []
    assert catalogs.main(["check"]) == 0


NBSP = "\N{NO-BREAK SPACE}"
NNBSP = "\N{NARROW NO-BREAK SPACE}"


def test_check_wants_french_no_break_spaces(
    template: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain space (or none) before a French colon lets a phone break the line there, the
    colon alone at the start of the next: the check refuses it, as it does ? ! ; and « »
    without their narrow no-break space."""
    real_read = catalogs.read_catalog
    spoilt = {
        "Language: {language}": "Langue : {language}",
        "<b>Delete your data?</b>": "<b>Effacer tes données?</b>",
    }

    def read_spoilt(language: str, domain: str = "messages") -> Catalog:
        catalog = real_read(language, domain)
        for msgid, text in spoilt.items():
            message = catalog.get(msgid)
            if language == "fr" and message is not None:
                message.string = text
        return catalog

    monkeypatch.setattr(catalogs, "read_catalog", read_spoilt)
    assert catalogs.catalog_problems("fr", template) == [
        "fr: no space before '?' (French wants U+202F) in '<b>Delete your data?</b>'",
        "fr: a plain space before ':' (French wants U+00A0) in 'Language: {language}'",
    ]
    assert catalogs.main(["check", "fr"]) == 1
    assert catalogs.main(["check", "de"]) == 0


@pytest.mark.parametrize(
    "text",
    [
        f"Langue{NBSP}: {{language}}",
        f"<b>Effacer tes données{NNBSP}?</b>",
        f"Touche «{NNBSP}Rejoindre{NNBSP}» pour jouer{NNBSP}; vite{NNBSP}!",
        f"Quoi{NNBSP}?!",
        "Rendez-vous à 10:30",
        "{points:>3} points",
        '<a href="https://t.me/bot?start=x">📼 Revoir</a>',
        "Gaple &amp; Gap",
    ],
)
def test_french_spacing_accepts(text: str) -> None:
    assert catalogs.french_spacing(text) == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Langue : {language}", "a plain space before ':' (French wants U+00A0)"),
        ("Langue: {language}", "no space before ':' (French wants U+00A0)"),
        (
            f"Langue{NNBSP}: {{language}}",
            "a narrow no-break space (U+202F) before ':' (French wants U+00A0)",
        ),
        ("Bien joué !", "a plain space before '!' (French wants U+202F)"),
        (f"Quoi{NBSP}?", "a no-break space (U+00A0) before '?' (French wants U+202F)"),
        ("au milieu ; les mains", "a plain space before ';' (French wants U+202F)"),
        (f"« un ancien joueur{NNBSP}»", "a plain space after '«' (French wants U+202F)"),
        (f"«{NNBSP}un ancien joueur »", "a plain space before '»' (French wants U+202F)"),
        ("Langue&nbsp;", "'&nbsp;': write the character itself, not an entity"),
    ],
)
def test_french_spacing_names_each_wrong_space(text: str, problem: str) -> None:
    assert catalogs.french_spacing(text) == [problem]


@pytest.mark.parametrize(("domain", "language"), EVERY_CATALOG)
def test_catalog_files_are_as_update_writes_them(
    templates: dict[str, Catalog], domain: str, language: str
) -> None:
    """So that `update` changes nothing and diffs stay small."""
    catalog = catalogs.read_catalog(language, domain)
    catalog.update(templates[domain], update_creation_date=False)
    assert catalogs.catalog_bytes(catalog) == po_path(language, domain).read_bytes(), (
        "run `python -m gaple_bot.i18n.catalogs update`"
    )


def test_main_rejects_unknown_commands() -> None:
    assert catalogs.main([]) == 2
    assert catalogs.main(["compile"]) == 2
    assert catalogs.main(["update", SOURCE_LANGUAGE]) == 2


# (e) No sentence built from translated fragments --------------------------------------------


def is_translated(node: ast.expr) -> bool:
    """A gettext/ngettext/pgettext call, possibly followed by .format(...)."""
    while isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name in TRANSLATED_CALLS:
            return True
        if isinstance(func, ast.Attribute) and name == "format":
            node = func.value
            continue
        return False
    return False


def starts_a_new_line(node: ast.expr) -> bool:
    """Text that starts on a new line ('\\n' + ..., or nothing): joining whole messages line
    by line builds no sentence."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value == "" or node.value.startswith("\n")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return starts_a_new_line(node.left)
    if isinstance(node, ast.IfExp):
        return starts_a_new_line(node.body) and starts_a_new_line(node.orelse)
    return False


def concatenations(path: Path) -> Iterator[int]:
    """Lines where translated text is glued to other text with + or +=."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            for this, other in ((node.left, node.right), (node.right, node.left)):
                if is_translated(this) and not starts_a_new_line(other):
                    yield node.lineno
                    break
        elif (
            isinstance(node, ast.AugAssign)
            and isinstance(node.op, ast.Add)
            and is_translated(node.value)
        ):
            yield node.lineno


def test_no_sentence_is_glued_from_translated_fragments() -> None:
    root = catalogs.PACKAGE_DIR
    found = [
        f"{path.relative_to(root.parent)}:{line}"
        for path in sorted(root.rglob("*.py"))
        for line in sorted(concatenations(path))
    ]
    assert not found, (
        "translated text joined with +: make the whole sentence one message with {fields}:\n"
        + "\n".join(found)
    )


def test_the_scan_finds_glued_fragments(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "a = t.gettext('You played') + ' ' + tile\n"
        "b = name + t.gettext(' passed')\n"
        "c = t.gettext('{n} tiles').format(n=n) + t.ngettext('x', 'y', n)\n"
        "d = t.gettext('Line one.') + '\\n' + other\n"
        "e = t.gettext('Sentence.') + ('\\n' + more if more else '')\n"
        "f = t.pgettext('level', 'easy')\n"
        "f += t.gettext(' level')\n",
        encoding="utf-8",
    )
    assert sorted(concatenations(sample)) == [1, 2, 3, 7]


# (f) Loading through Translators ------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_translators_load_each_language(language: str) -> None:
    english = "That button is out of date."
    translated = Translators().get(language).gettext(english)
    assert translated and translated != english


@pytest.mark.parametrize("code", ["in", "id-ID", "ID", "id_ID", "in-ID"])
def test_old_and_regional_codes_mean_indonesian(code: str) -> None:
    assert pick_language(code) == "id"
    english = "That button is out of date."
    indonesian = Translators().get("id").gettext(english)
    assert Translators().get(code).gettext(english) == indonesian != english


def test_plurals_follow_each_language() -> None:
    translators = Translators()
    # "{n} tile" is Gaple's word, in its domain.
    de, fr, id_ = (translators.get(code).domain("gaple") for code in ("de", "fr", "id"))
    assert de.ngettext("{n} tile", "{n} tiles", 1) != de.ngettext("{n} tile", "{n} tiles", 0)
    assert fr.ngettext("{n} tile", "{n} tiles", 0) == fr.ngettext("{n} tile", "{n} tiles", 1)
    assert fr.ngettext("{n} tile", "{n} tiles", 2) != fr.ngettext("{n} tile", "{n} tiles", 1)
    assert id_.ngettext("{n} tile", "{n} tiles", 1) == id_.ngettext("{n} tile", "{n} tiles", 7)
