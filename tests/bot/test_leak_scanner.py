"""The leak scanner itself: it must flag a hidden tile, or the end-to-end checks prove nothing."""

from __future__ import annotations

import random
from typing import cast

import pytest

from gaple_bot.games.gaple.rules import TILES, Game, GameConfig, tiles_in
from tests.bot.leaks import assert_group_saw_nothing_hidden, assert_player_saw_only_their_own
from tests.fakes.telegram_server import FakeMessage, FakeTelegram, MessageVersion


class _Chats:
    """Just enough of FakeTelegram for the scanner: bot messages by chat."""

    def __init__(self, texts: dict[int, list[str]]) -> None:
        self._texts = texts

    def bot_messages(self, chat_id: int) -> list[FakeMessage]:
        return [
            FakeMessage(chat_id, n, 0, True, 0, text, versions=[MessageVersion(text, (), None)])
            for n, text in enumerate(self._texts.get(chat_id, []), start=1)
        ]


def _fake(texts: dict[int, list[str]]) -> FakeTelegram:
    return cast(FakeTelegram, _Chats(texts))


def _text(tile: int) -> str:
    low, high = TILES[tile]
    return f"[{high}|{low}]"


def test_group_table_naming_only_line_tiles_passes() -> None:
    table = "Gaple · round 1\n[6|6][6|3]\n• Ana played [6|3] on the right (6)"
    assert_group_saw_nothing_hidden(_fake({-1: [table]}), -1)


def test_group_message_naming_a_tile_off_the_line_fails() -> None:
    table = "Gaple · round 1\n[6|6][6|3]\n• Ana holds [2|1]"
    with pytest.raises(AssertionError, match="hidden tiles"):
        assert_group_saw_nothing_hidden(_fake({-1: [table]}), -1)


def test_private_message_with_another_seats_tile_fails() -> None:
    game = Game.new(GameConfig(), random.Random(4))
    mine = next(tiles_in(game.round.deal.hands[0]))
    theirs = next(tiles_in(game.round.deal.hands[1]))
    fine = f"Gaple in X · round 1\nYour hand: {_text(mine)}"
    leak = f"Gaple in X · round 1\nYour hand: {_text(mine)} {_text(theirs)}"
    assert_player_saw_only_their_own(_fake({7: [fine]}), 7, 0, game)
    with pytest.raises(AssertionError, match="saw others' tiles"):
        assert_player_saw_only_their_own(_fake({7: [leak]}), 7, 0, game)
