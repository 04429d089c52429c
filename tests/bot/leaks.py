"""Scan every text and button the bot sent for hidden items their readers may not know.

What is hidden comes from the seam alone: the stored game is replayed through its kind, and
`Presentation.hidden_items` of every seat's private view, at every position of a round, is
what that seat held in the round. What is public comes from the kind's own table: a line of
a message may name another seat's item only where the line ends with a line of the round's
table as the kind renders it at some position (seat names left free), and only in that part;
a table line counts only at a position where nothing it names sits in any seat's private view
(an item is public once it has left every hand: Gaple's played tiles, not its discards).

A photo is scanned with its message: every string of the picture's data (the JSON the bot's
PNG carries, dict keys too) is one more line of the message, under the same rules as its
caption's lines (in a group, a round-end reveal, a caption starting with "🏁", is public). A
picture whose data is missing cannot be scanned, and every picture the bot draws carries it:
such a photo is a failure of its own.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from gaple_bot.bot.callback_data import Action, BadCallbackData, decode
from gaple_bot.games.registry import default_registry
from gaple_bot.games.seam import JSON, GameKind, Match, Presentation
from gaple_bot.games.views import HandView, SeatInfo, TableView
from gaple_bot.i18n import SUPPORTED_LANGUAGES, Translator, Translators
from gaple_bot.store import Store
from tests.fakes.formatting import parse_text
from tests.fakes.telegram_server import FakeTelegram, MessageVersion

ROUND = re.compile(r"round (\d+)")
"""How a message says its round (Gaple's table and hand headers: "round {n}")."""
NAME = re.compile("\ue000\\d+\ue001")
"""A placeholder seat name in a rendered table: where a real message has any name."""
MASK = "\x00"
"""What a public part of a line becomes before the line is searched for hidden items."""
NOW = datetime(2024, 1, 1, tzinfo=UTC)
_TRANSLATORS = functools.cache(Translators)
"""Every language's catalogs, loaded once: a table is rendered in each, as chats may read it."""


@dataclass(frozen=True, slots=True)
class Fragment:
    """A line of a table the kind rendered: what a message line may end with, in public."""

    pattern: re.Pattern[str]
    """The line with names left free, after an optional prefix ending in a space."""
    names: int
    """How many free names the line has (groups 2..names+1; group 1 is the prefix)."""

    def public_spans(self, line: str) -> list[tuple[int, int]]:
        """The parts of `line` this table line shows (names and prefix excluded), if any."""
        found = self.pattern.fullmatch(line)
        if found is None:
            return []
        cuts = [found.span(g) for g in range(1, self.names + 2)]
        spans, start = [], 0
        for begin, end in cuts:
            spans.append((start, begin))
            start = max(start, end)
        spans.append((start, len(line)))
        return [(a, b) for a, b in spans if a < b]


@dataclass(frozen=True, slots=True)
class RoundSecrets:
    """One round: what each seat held, the table's public lines, each seat's move buttons."""

    held: tuple[frozenset[str], ...]
    """By seat: every hidden text of the seat's private view at any position of the round."""
    public: dict[str, tuple[Fragment, ...]]
    """By hidden text: the table lines of the round that show it."""
    moves: tuple[frozenset[int], ...]
    """By seat: the codes legal for the seat at a position where it was to move."""
    picks: tuple[frozenset[int], ...]
    """By seat: the first picks its hand offered at a position where it was to move."""
    own_public: tuple[dict[str, tuple[Fragment, ...]], ...] = ()
    """By seat, by hidden text of another seat: the lines and button labels of the seat's
    own hand messages of the round that show it while it is public (Gap: a card lying in
    the middle, named by the button that would take it)."""


@dataclass(frozen=True, slots=True)
class Secrets:
    """A stored game's hidden items and public table lines, round by round."""

    rounds: tuple[RoundSecrets, ...]

    def every_held(self) -> frozenset[str]:
        """Every item any seat held in any round."""
        return frozenset().union(*(held for r in self.rounds for held in r.held))


async def load_secrets(store: Store, game_id: int) -> Secrets:
    """The stored game's secrets, replayed by its kind from the registry."""
    async with store.read() as tx:
        stored = await tx.load_play(game_id)
    kind = default_registry().get(stored.kind)
    return secrets_of(kind, stored.config, stored.rounds)


def secrets_of(
    kind: GameKind, config: JSON, rounds: Sequence[tuple[JSON, Sequence[int]]]
) -> Secrets:
    """Every round's secrets, from the stored config, deals and move codes."""
    translators = [_TRANSLATORS().get(language) for language in SUPPORTED_LANGUAGES]
    return Secrets(
        tuple(
            _round_secrets(kind, config, rounds, number, translators)
            for number in range(len(rounds))
        )
    )


def _positions(
    kind: GameKind, config: JSON, rounds: Sequence[tuple[JSON, Sequence[int]]], index: int
) -> Iterator[Match]:
    """The match at each position of round `index` (the same object, moved on in place)."""
    deal, codes = rounds[index]
    match = kind.replay(config, [*rounds[:index], (deal, ())])
    yield match
    for code in codes:
        seat = match.to_move
        assert seat is not None, f"round {index + 1} has a move after its end"
        match.apply(seat, code)
        yield match


def _seats(count: int) -> tuple[SeatInfo, ...]:
    """People whose names are placeholders, so a rendered line can match any real name."""
    return tuple(SeatInfo(n, n + 1, f"\ue000{n}\ue001") for n in range(count))


def _table(kind: GameKind, match: Match, language: str) -> TableView[Any]:
    """The public table of the match's current position, as the service builds it."""
    seats = _seats(len(match.scores))
    return TableView(
        game_id=0,
        version=0,
        chat_id=0,
        thread_id=None,
        kind=kind.name,
        config=match.config,
        round_number=match.round_number,
        seats=seats,
        scores=match.scores,
        to_move=match.to_move,
        deadline=None,
        winner=match.winner,
        board=match.board(),
        language=language,
        round_over=match.round_over,
    )


def texts_of(presentation: Presentation, private: object) -> frozenset[str]:
    """Every text that names one of a seat's hidden items."""
    return frozenset().union(*presentation.hidden_items(private))


def plain(html: str) -> str:
    """A message's HTML as Telegram shows it (and the fake stores it)."""
    return parse_text(html, "HTML")[0]


def _fragment(line: str) -> Fragment:
    """A rendered table line as a pattern: names free, after an optional prefix."""
    pieces = NAME.split(line)
    body = "(.+?)".join(re.escape(piece) for piece in pieces)
    return Fragment(re.compile(rf"((?:.*\s)?){body}", re.DOTALL), len(pieces) - 1)


def _round_secrets(
    kind: GameKind,
    config: JSON,
    rounds: Sequence[tuple[JSON, Sequence[int]]],
    index: int,
    translators: list[Translator],
) -> RoundSecrets:
    """Replay round `index` move by move, noting what each seat held and what the table shows."""
    presentation = kind.presentation
    seats = kind.config_seats(config)
    held: list[set[str]] = [set() for _ in range(seats)]
    moves: list[set[int]] = [set() for _ in range(seats)]
    picks: list[set[int]] = [set() for _ in range(seats)]
    lines: set[str] = set()
    own_lines: list[set[str]] = [set() for _ in range(seats)]
    for match in _positions(kind, config, rounds, index):
        now = [texts_of(presentation, match.private(seat)) for seat in range(seats)]
        for seat in range(seats):
            held[seat] |= now[seat]
            others = frozenset().union(*(now[s] for s in range(seats) if s != seat))
            own_lines[seat] |= _hand_lines(kind, match, translators, seat, others)
        lines |= _public_lines(kind, match, translators, frozenset().union(*now))
        if match.to_move is not None:
            seat = match.to_move
            moves[seat].update(match.legal_codes())
            picks[seat].update(_picks(presentation, translators[0], match, kind, seat))
    every = frozenset().union(*held)
    return RoundSecrets(
        held=tuple(frozenset(h) for h in held),
        public=_fragments(lines, every),
        moves=tuple(frozenset(m) for m in moves),
        picks=tuple(frozenset(p) for p in picks),
        own_public=tuple(_fragments(own, every - held[seat]) for seat, own in enumerate(own_lines)),
    )


def _hand_lines(
    kind: GameKind,
    match: Match,
    translators: list[Translator],
    seat: int,
    others: frozenset[str],
) -> set[str]:
    """The lines and button labels of the seat's own hand message at this position (with its
    buttons when it is to move, and at each first pick), in every language, that name no item
    another seat holds now."""
    presentation = kind.presentation
    legal = match.legal_codes() if match.to_move == seat else ()
    lines: set[str] = set()
    for t, language in zip(translators, SUPPORTED_LANGUAGES, strict=True):
        view = HandView(0, 0, seat, legal, match.private(seat), _table(kind, match, language))
        messages = [presentation.hand(t, view, NOW, None)]
        picks = {b.value for row in messages[0].rows for b in row if b.press == "pick"}
        # Only a pick with a choice opens a second step (another is refused, not shown).
        chosen = [pick for pick in picks if len(match.step_codes(pick)) > 1]
        messages += [presentation.hand(t, view, NOW, pick) for pick in chosen]
        for message in messages:
            texts = [*plain(message.text).splitlines()]
            texts += [button.label for row in message.rows for button in row]
            lines.update(text for text in texts if not _names(text, others))
    return lines


def _public_lines(
    kind: GameKind, match: Match, translators: list[Translator], private: frozenset[str]
) -> set[str]:
    """The lines of the table at this position, in every language, that name no item a seat
    holds privately now (a line that does is the table's own leak: never public)."""
    lines: set[str] = set()
    for t, language in zip(translators, SUPPORTED_LANGUAGES, strict=True):
        text = plain(kind.presentation.table(t, _table(kind, match, language), NOW).text)
        lines.update(line for line in text.splitlines() if not _names(line, private))
    return lines


def _names(line: str, items: frozenset[str]) -> set[str]:
    """The items a rendered line names (its placeholder seat names aside)."""
    bare = NAME.sub(MASK, line)
    return {item for item in items if item in bare}


def _fragments(lines: set[str], items: frozenset[str]) -> dict[str, tuple[Fragment, ...]]:
    """The public table lines, by each held item they show."""
    public: dict[str, list[Fragment]] = {}
    for line in lines:
        shown = _names(line, items)
        if shown:
            fragment = _fragment(line)
            for item in shown:
                public.setdefault(item, []).append(fragment)
    return {item: tuple(found) for item, found in public.items()}


def _picks(
    presentation: Presentation, t: Translator, match: Match, kind: GameKind, seat: int
) -> set[int]:
    """The first picks the seat's hand message offers on its turn."""
    view = HandView(0, 0, seat, match.legal_codes(), match.private(seat), _table(kind, match, ""))
    rows = presentation.hand(t, view, NOW, None).rows
    return {button.value for row in rows for button in row if button.press == "pick"}


# Scanning messages -------------------------------------------------------------------------


def _versions(fake: FakeTelegram, chat_id: int) -> Iterator[MessageVersion]:
    for message in fake.bot_messages(chat_id):
        yield from message.versions


def _buttons(version: MessageVersion) -> list[dict[str, Any]]:
    rows = (version.reply_markup or {}).get("inline_keyboard", [])
    return [button for row in rows for button in row]


def _lines(version: MessageVersion) -> list[str]:
    """The message's lines (a photo's caption), its buttons' labels and the lines of every
    string its picture's data holds: everything a reader sees."""
    lines = [*version.text.splitlines(), *(str(b.get("text", "")) for b in _buttons(version))]
    if version.photo is not None:
        lines += [line for text in version.photo.strings() for line in text.splitlines()]
    return lines


def _assert_picture_has_data(version: MessageVersion, reader: str) -> None:
    """A photo carries the data the bot drew it from: without it, nothing shows what the
    picture says, so nothing proves it hides what it must."""
    photo = version.photo
    assert photo is None or photo.data is not None, (
        f"a picture without its data reached {reader} (caption {version.text!r})"
    )


def _move_buttons(version: MessageVersion) -> list[tuple[Action, int]]:
    """The move and first-pick buttons: (action, code or pick)."""
    found = []
    for button in _buttons(version):
        try:
            callback = decode(button.get("callback_data"))
        except BadCallbackData:
            continue
        if callback.action is Action.MOVE:
            found.append((Action.MOVE, callback.field("code")))
        elif callback.action is Action.PICK:
            found.append((Action.PICK, callback.field("step")))
    return found


def _rounds_of(version: MessageVersion, secrets: Secrets) -> list[RoundSecrets]:
    """The round the message names, or every round when it names none."""
    found = ROUND.search(version.text)
    if found is None:
        return list(secrets.rounds)
    number = int(found.group(1))
    assert 1 <= number <= len(secrets.rounds), f"a message of round {number}: {version.text!r}"
    return [secrets.rounds[number - 1]]


def _unexplained(
    line: str, hidden: Iterable[str], rounds: list[RoundSecrets], seat: int | None = None
) -> set[str]:
    """The hidden texts `line` names outside the public parts it shares with a table (or, in
    `seat`'s private chat, with that seat's own hand messages)."""
    named = {h for h in hidden if h in line}
    if not named:
        return set()
    masked = list(line)
    fragments = {f for r in rounds for h in named for f in r.public.get(h, ())}
    if seat is not None:
        fragments |= {f for r in rounds for h in named for f in r.own_public[seat].get(h, ())}
    for fragment in fragments:
        for begin, end in fragment.public_spans(line):
            masked[begin:end] = MASK * (end - begin)
    rest = "".join(masked)
    return {h for h in named if h in rest}


def assert_group_saw_nothing_hidden(fake: FakeTelegram, chat_id: int, secrets: Secrets) -> None:
    """Group messages (and their pictures' data) name held items only as the table shows
    them, except the reveal after a round ends, and carry no move buttons."""
    for version in _versions(fake, chat_id):
        moves = _move_buttons(version)
        assert not moves, f"a move button reached the group: {version.reply_markup}"
        _assert_picture_has_data(version, "the group")
        if version.text.startswith("🏁"):
            continue  # the round is over: every hand is revealed (RULES: public then)
        rounds = _rounds_of(version, secrets)
        hidden = frozenset().union(*(held for r in rounds for held in r.held))
        for line in _lines(version):
            leaked = _unexplained(line, hidden, rounds)
            assert not leaked, f"hidden items {sorted(leaked)} in a group message: {line!r}"


def assert_player_saw_only_their_own(
    fake: FakeTelegram, user_id: int, seat: int, secrets: Secrets
) -> None:
    """A person's private chat (pictures' data included) names others' items only as the
    table shows them, and has move buttons only for moves their seat could make."""
    for version in _versions(fake, user_id):
        _assert_picture_has_data(version, f"user {user_id}")
        rounds = _rounds_of(version, secrets)
        own = frozenset().union(*(r.held[seat] for r in rounds))
        others = frozenset().union(*(h for r in rounds for h in r.held)) - own
        for line in _lines(version):
            leaked = _unexplained(line, others, rounds, seat)
            assert not leaked, f"user {user_id} saw others' items {sorted(leaked)}: {line!r}"
        for action, value in _move_buttons(version):
            offered = (r.moves[seat] if action is Action.MOVE else r.picks[seat] for r in rounds)
            assert any(value in values for values in offered), (
                f"user {user_id} got a {action.name} button {value} not of their seat's turn"
            )


def assert_log_names_no_tile(lines: list[str], secrets: Secrets | None = None) -> None:
    """A log has no reader who may know a hand, and nothing in it needs a hidden item: no line
    may name a tile (or any item the game's seats held), or carry a move button's payload."""
    held = secrets.every_held() if secrets is not None else frozenset()
    for line in lines:
        assert not TILE.search(line), f"a log line names tiles: {line!r}"
        named = sorted(h for h in held if h in line)
        assert not named, f"a log line names hidden items {named}: {line!r}"
        for payload in MOVE_PAYLOAD.findall(line):
            raise AssertionError(f"a log line carries a move button {payload!r}: {line!r}")


TILE = re.compile(r"\[(\d)\|(\d)\]")
"""A Gaple tile as players read it: the log check keeps it, needing no game to scan."""
MOVE_PAYLOAD = re.compile(rf"\b(?:{Action.MOVE.value}|{Action.PICK.value}):-?\d+:-?\d+:-?\d+\b")
"""A move or tile-pick button's callback data, which names a tile of the presser's hand."""
