"""Scan every text and button the bot sent for tiles their readers may not know."""

from __future__ import annotations

import re
from collections.abc import Iterator

from gaple_bot.bot.callback_data import Action, BadCallbackData, decode
from gaple_bot.games.gaple.rules import TILES, Game, Move, MoveKind, tiles_in
from tests.fakes.telegram_server import FakeTelegram, MessageVersion

TILE = re.compile(r"\[(\d)\|(\d)\]")
LINE = re.compile(r"(?:\[\d\|\d\])+")
ROUND = re.compile(r"round (\d+)")
Tile = tuple[int, int]


def _tiles(text: str) -> set[Tile]:
    return {(min(int(a), int(b)), max(int(a), int(b))) for a, b in TILE.findall(text)}


def _line_tiles(text: str) -> set[Tile]:
    """The tiles of the longest run of adjacent tiles: the line of play as the bot writes it."""
    runs = LINE.findall(text)
    return _tiles(max(runs, key=len)) if runs else set()


def _versions(fake: FakeTelegram, chat_id: int) -> Iterator[MessageVersion]:
    for message in fake.bot_messages(chat_id):
        yield from message.versions


def _button_texts_and_moves(version: MessageVersion) -> tuple[str, list[Move]]:
    rows = (version.reply_markup or {}).get("inline_keyboard", [])
    texts, moves = [], []
    for row in rows:
        for button in row:
            texts.append(str(button.get("text", "")))
            try:
                callback = decode(button.get("callback_data"))
            except BadCallbackData:
                continue
            if callback.action is Action.MOVE:
                moves.append(Move.from_code(callback.field("code")))
            elif callback.action is Action.PICK:
                moves.append(Move(MoveKind.DISCARD, callback.field("step")))
    return " ".join(texts), moves


def assert_group_saw_nothing_hidden(fake: FakeTelegram, chat_id: int) -> None:
    """Group messages name only tiles on the line, except the reveal after a round ends."""
    for version in _versions(fake, chat_id):
        buttons, moves = _button_texts_and_moves(version)
        assert not moves, f"a move button reached the group: {version.reply_markup}"
        if version.text.startswith("🏁"):
            continue  # the round is over: every hand is revealed (RULES: public then)
        shown = _tiles(version.text + " " + buttons)
        leaked = shown - _line_tiles(version.text)
        assert not leaked, f"hidden tiles {sorted(leaked)} in a group message: {version.text!r}"


def assert_player_saw_only_their_own(
    fake: FakeTelegram, user_id: int, seat: int, game: Game
) -> None:
    """A person's private chat names only the line and tiles that were in their own hand."""
    dealt = [{TILES[t] for t in tiles_in(r.deal.hands[seat])} for r in game.rounds]
    ever_held = set().union(*dealt)
    for version in _versions(fake, user_id):
        buttons, moves = _button_texts_and_moves(version)
        found = ROUND.search(version.text)
        own = dealt[int(found.group(1)) - 1] if found else ever_held
        shown = _tiles(version.text + " " + buttons) | {TILES[m.tile] for m in moves}
        leaked = shown - own - _line_tiles(version.text)
        assert not leaked, f"user {user_id} saw others' tiles {sorted(leaked)}: {version.text!r}"


def assert_log_names_no_tile(lines: list[str]) -> None:
    """A log has no reader who may know a hand, and nothing in it needs a tile: no line may
    name one, written as players read it or as a move button's payload."""
    for line in lines:
        assert not _tiles(line), f"a log line names tiles: {line!r}"
        for payload in MOVE_PAYLOAD.findall(line):
            raise AssertionError(f"a log line carries a move button {payload!r}: {line!r}")


MOVE_PAYLOAD = re.compile(rf"\b(?:{Action.MOVE.value}|{Action.PICK.value}):-?\d+:-?\d+:-?\d+\b")
"""A move or tile-pick button's callback data, which names a tile of the presser's hand."""
