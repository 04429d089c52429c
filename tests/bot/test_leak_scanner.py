"""The leak scanner itself: it must flag a hidden item, or the end-to-end checks prove nothing."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

import pytest

from gaple_bot.bot.callback_data import Action, encode
from gaple_bot.games.gaple.kind import GapleKind
from gaple_bot.games.gaple.present import GaplePresentation
from gaple_bot.games.seam import JSON, GameKind, Match
from gaple_bot.games.views import GameMessage, HandView, SeatInfo, TableView
from gaple_bot.i18n import Translator, Translators
from tests.bot.leaks import (
    Secrets,
    assert_group_saw_nothing_hidden,
    assert_player_saw_only_their_own,
    plain,
    secrets_of,
    texts_of,
)
from tests.fakes.telegram_server import FakeMessage, FakePhoto, FakeTelegram, MessageVersion

GROUP, ANA = -1, 7
NOW = datetime(2024, 1, 1, tzinfo=UTC)
T = Translators().get("en")
SEATS = (
    SeatInfo(0, ANA, "Ana"),
    SeatInfo(1, 8, "Budi"),
    SeatInfo(2, None, "", computer_level="easy"),
    SeatInfo(3, None, "", computer_level="hard"),
)


class _Chats:
    """Just enough of FakeTelegram for the scanner: bot messages by chat."""

    def __init__(self, versions: dict[int, list[MessageVersion]]) -> None:
        self._versions = versions

    def bot_messages(self, chat_id: int) -> list[FakeMessage]:
        return [
            FakeMessage(chat_id, n, 0, True, 0, v.text, versions=[v], photo=v.photo)
            for n, v in enumerate(self._versions.get(chat_id, []), start=1)
        ]


def _fake(chat_id: int, *texts: str, markup: dict[str, Any] | None = None) -> FakeTelegram:
    versions = [MessageVersion(text, (), markup) for text in texts]
    return cast(FakeTelegram, _Chats({chat_id: versions}))


@dataclass
class _Played:
    """A Gaple game played by its first legal moves, as the store would hold it."""

    kind: GameKind
    config: JSON
    deal: JSON
    match: Match
    codes: list[int] = field(default_factory=list)

    @property
    def secrets(self) -> Secrets:
        return secrets_of(self.kind, self.config, [(self.deal, tuple(self.codes))])

    def table(self) -> TableView[Any]:
        match = self.match
        return TableView(
            1, 1, GROUP, None, "gaple", match.config, match.round_number,
            SEATS, match.scores, match.to_move, None, match.winner, match.board(),
            chat_title="Warung",
        )  # fmt: skip

    def table_text(self) -> str:
        return plain(self.kind.presentation.table(T, self.table(), NOW).text)

    def hand_text(self, seat: int) -> str:
        view = HandView(1, 1, seat, (), self.match.private(seat), self.table())
        return plain(self.kind.presentation.hand(T, view, NOW, None).text)

    def unplayed(self, seat: int) -> list[str]:
        """The seat's items still hidden: in its hand now."""
        return sorted(texts_of(self.kind.presentation, self.match.private(seat)))


def _played(moves: int) -> _Played:
    kind = GapleKind()
    config = kind.make_config({}, 4)
    match, deal = kind.new_match(config, random.Random(4))
    played = _Played(kind, config, deal, match)
    for _ in range(moves):
        seat, code = match.to_move, match.legal_codes()[0]
        assert seat is not None
        match.apply(seat, code)
        played.codes.append(code)
    return played


def test_group_table_naming_only_line_tiles_passes() -> None:
    game = _played(3)
    table = game.table_text()
    assert "played" in table  # the last moves name tiles on the line, with seat names
    assert_group_saw_nothing_hidden(_fake(GROUP, table), GROUP, game.secrets)


def test_group_message_naming_a_tile_off_the_line_fails() -> None:
    game = _played(3)
    leak = game.table_text() + f"\n• Ana holds {game.unplayed(1)[0]}"
    with pytest.raises(AssertionError, match="hidden items"):
        assert_group_saw_nothing_hidden(_fake(GROUP, leak), GROUP, game.secrets)


def test_group_message_with_a_hand_tile_beside_the_line_fails() -> None:
    game = _played(3)
    line = next(line for line in game.table_text().splitlines() if line.startswith("["))
    leak = game.table_text().replace(line, line + game.unplayed(2)[0])
    with pytest.raises(AssertionError, match="hidden items"):
        assert_group_saw_nothing_hidden(_fake(GROUP, leak), GROUP, game.secrets)


def test_group_button_naming_a_hand_tile_fails() -> None:
    game = _played(3)
    markup = {"inline_keyboard": [[{"text": game.unplayed(0)[0], "callback_data": "no"}]]}
    with pytest.raises(AssertionError, match="hidden items"):
        assert_group_saw_nothing_hidden(
            _fake(GROUP, game.table_text(), markup=markup), GROUP, game.secrets
        )


@pytest.mark.parametrize("action", [Action.MOVE, Action.PICK])
def test_move_button_in_the_group_fails(action: Action) -> None:
    game = _played(3)
    button = {"text": "✅", "callback_data": encode(action, 1, 1, game.match.legal_codes()[0])}
    markup = {"inline_keyboard": [[button]]}
    with pytest.raises(AssertionError, match="move button reached the group"):
        assert_group_saw_nothing_hidden(
            _fake(GROUP, game.table_text(), markup=markup), GROUP, game.secrets
        )


def test_private_hand_passes_and_another_seats_tile_fails() -> None:
    game = _played(3)
    mine = game.hand_text(0)
    assert "Line: [" in mine  # others' tiles on the line are public
    assert_player_saw_only_their_own(_fake(ANA, mine), ANA, 0, game.secrets)
    leak = mine + " " + game.unplayed(1)[0]
    with pytest.raises(AssertionError, match="saw others' items"):
        assert_player_saw_only_their_own(_fake(ANA, leak), ANA, 0, game.secrets)


def test_private_message_of_no_round_with_another_seats_tile_fails() -> None:
    game = _played(0)
    leak = f"Budi has {game.unplayed(1)[0]}"
    with pytest.raises(AssertionError, match="saw others' items"):
        assert_player_saw_only_their_own(_fake(ANA, leak), ANA, 0, game.secrets)


def test_private_move_button_not_of_the_seats_turn_fails() -> None:
    game = _played(0)
    seat = game.match.to_move
    assert seat is not None
    other = (seat + 1) % 4
    code = game.match.legal_codes()[0]
    button = {"text": "✅", "callback_data": encode(Action.MOVE, 1, 1, code)}
    markup = {"inline_keyboard": [[button]]}
    text = game.hand_text(seat)
    assert_player_saw_only_their_own(_fake(ANA, text, markup=markup), ANA, seat, game.secrets)
    with pytest.raises(AssertionError, match="not of their seat's turn"):
        assert_player_saw_only_their_own(
            _fake(ANA, game.hand_text(other), markup=markup), ANA, other, game.secrets
        )


def test_a_table_line_naming_a_held_tile_is_no_public_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kind's own table is public only where what it names has left every hand."""
    game = _played(3)
    held = game.unplayed(2)[0]
    table = GaplePresentation.table

    def peeking(self: GaplePresentation, t: Translator, view: TableView[Any], now: datetime) -> Any:
        shown = table(self, t, view, now)
        return GameMessage(f"{shown.text}\nPeek: {held}", shown.rows)

    monkeypatch.setattr(GaplePresentation, "table", peeking)
    with pytest.raises(AssertionError, match="hidden items"):
        assert_group_saw_nothing_hidden(_fake(GROUP, game.table_text()), GROUP, game.secrets)


def test_every_message_of_a_whole_round_passes() -> None:
    """No false alarm: each position's table and every hand, as the kind renders them."""
    game = _played(0)
    tables: list[str] = []
    hands: dict[int, list[str]] = {seat: [] for seat in range(4)}
    while not game.match.round_over:
        tables.append(game.table_text())
        for seat in range(4):
            hands[seat].append(game.hand_text(seat))
        mover, code = game.match.to_move, game.match.legal_codes()[0]
        assert mover is not None
        game.match.apply(mover, code)
        game.codes.append(code)
    tables.append(game.table_text())
    assert_group_saw_nothing_hidden(_fake(GROUP, *tables), GROUP, game.secrets)
    for seat, texts in hands.items():
        assert_player_saw_only_their_own(_fake(ANA, *texts), ANA, seat, game.secrets)


def test_a_hand_tile_written_the_other_way_round_fails() -> None:
    game = _played(3)
    tile = next(text for text in game.unplayed(1) if text[1] != text[3])
    flipped = f"[{tile[3]}|{tile[1]}]"
    leak = game.table_text() + f"\n• Ana holds {flipped}"
    with pytest.raises(AssertionError, match="hidden items"):
        assert_group_saw_nothing_hidden(_fake(GROUP, leak), GROUP, game.secrets)


# Pictures ----------------------------------------------------------------------------------


def _photo(data: JSON | None) -> FakePhoto:
    """A photo as the fake stores it, carrying `data` (the scanner reads nothing else)."""
    return FakePhoto("AgAC1w", "AQAD1w", 1080, 600, 0, "PNG", b"", data)


def _pictures(chat_id: int, *shown: tuple[str, JSON | None]) -> FakeTelegram:
    """A chat of photo messages: (caption, picture data) each."""
    versions = [MessageVersion(caption, (), None, _photo(data)) for caption, data in shown]
    return cast(FakeTelegram, _Chats({chat_id: versions}))


def _standings(*rows: JSON) -> JSON:
    return {"drawer": "standings", "data": {"title": "Warung", "rows": list(rows)}}


def test_a_clean_picture_passes() -> None:
    game = _played(3)
    standings = _standings({"name": "Ana", "score": 12}, {"name": "Budi", "score": 3})
    # The table's own lines are public in a picture as in a text.
    table = {"drawer": "gaple.table", "data": {"lines": game.table_text().splitlines()}}
    chats = _pictures(GROUP, ("Standings", standings), ("Table", table))
    assert_group_saw_nothing_hidden(chats, GROUP, game.secrets)
    hand = {"drawer": "gaple.hand", "data": {"tiles": game.unplayed(0)}}
    assert_player_saw_only_their_own(_pictures(ANA, ("", hand)), ANA, 0, game.secrets)


def test_a_hidden_item_in_a_pictures_data_fails() -> None:
    game = _played(3)
    held = game.unplayed(1)[0]
    deep = _standings({"name": "Budi", "score": 3, "last": [{"tile": held}]})
    with pytest.raises(AssertionError, match=r"hidden items .* in a group message"):
        assert_group_saw_nothing_hidden(_pictures(GROUP, ("Standings", deep)), GROUP, game.secrets)
    as_key = _standings({"name": "Budi", "by_tile": {held: 1}})
    with pytest.raises(AssertionError, match="hidden items"):
        assert_group_saw_nothing_hidden(_pictures(GROUP, ("", as_key)), GROUP, game.secrets)
    in_a_line = _standings({"name": f"Budi\nholds {held}"})
    with pytest.raises(AssertionError, match="hidden items"):
        assert_group_saw_nothing_hidden(_pictures(GROUP, ("", in_a_line)), GROUP, game.secrets)


def test_another_seats_item_in_a_private_picture_fails() -> None:
    game = _played(3)
    hand = {"drawer": "gaple.hand", "data": {"tiles": [*game.unplayed(0), game.unplayed(2)[0]]}}
    with pytest.raises(AssertionError, match="saw others' items"):
        assert_player_saw_only_their_own(_pictures(ANA, ("", hand)), ANA, 0, game.secrets)


def test_the_round_end_picture_reveals_every_hand() -> None:
    game = _played(3)
    hands = {"drawer": "gaple.round_end", "data": {"hands": [game.unplayed(s) for s in range(4)]}}
    reveal = _pictures(GROUP, ("🏁 Round 1 is over", hands))
    assert_group_saw_nothing_hidden(reveal, GROUP, game.secrets)
    with pytest.raises(AssertionError, match="hidden items"):
        assert_group_saw_nothing_hidden(
            _pictures(GROUP, ("Round 1 is over", hands)), GROUP, game.secrets
        )


@pytest.mark.parametrize("caption", ["Standings", "🏁 Round 1 is over"])
def test_a_group_picture_without_its_data_fails(caption: str) -> None:
    game = _played(3)
    with pytest.raises(AssertionError, match="picture without its data reached the group"):
        assert_group_saw_nothing_hidden(_pictures(GROUP, (caption, None)), GROUP, game.secrets)
    with pytest.raises(AssertionError, match="picture without its data reached user 7"):
        assert_player_saw_only_their_own(_pictures(ANA, (caption, None)), ANA, 0, game.secrets)
