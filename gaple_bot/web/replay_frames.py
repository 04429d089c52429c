"""A finished game's replay as the page draws it: for each round that is over, the board at
every position (the kind's own page_board, so the replay draws with the live table's drawings
and geometry), every hand face up (the round is over: nothing is hidden any more), each
move's seat, code and name, and the round's end (the kind's page_reveal) with the totals.

Pure functions of the stored history (deals and move codes, replayed by the kind's rules): a
round that is not over (a game stopped mid-round) is never drawn, nor sent."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..games import played
from ..games.seam import AnyGameKind, AnyMatch, GameDataError
from ..games.views import HandView, RoundReveal, SeatInfo, TableView
from ..i18n import Translator

JSON = dict[str, Any]
History = Sequence[tuple[JSON, Sequence[int]]]
"""Every round's stored deal and its move codes, oldest first."""
TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True, slots=True)
class ReplayedGame:
    """What the replay shows of a game: where it was played, who sat where, its rules."""

    game_id: int
    chat_id: int
    thread_id: int | None
    kind: AnyGameKind
    config: JSON
    seats: tuple[SeatInfo, ...]


def rounds_over(kind: AnyGameKind, config: JSON, history: History) -> int:
    """How many of the stored rounds were played to their end, oldest first (a last round
    the game stopped in is not)."""
    if not history:
        return 0
    match = _first(kind, config, history)
    done = 0
    for number, (deal, codes) in enumerate(history, start=1):
        if number > 1:
            match.start_round(deal)
        for code in codes:
            match.apply(_mover(match), code)
        if not match.round_over:
            break
        done = number
    return done


def overview(t: Translator, game: ReplayedGame, history: History) -> list[JSON]:
    """Each round that is over, in a few words: its number, its moves, its result's headline,
    each seat's points from it and the totals after it (the game replayed once, each round
    told at its end before the next is dealt)."""
    shown: list[JSON] = []
    if not history:
        return shown
    match = _first(game.kind, game.config, history)
    for number, (deal, codes) in enumerate(history, start=1):
        if number > 1:
            match.start_round(deal)
        for code in codes:
            match.apply(_mover(match), code)
        if not match.round_over:
            break
        reveal = _reveal(t, game, match)
        shown.append(
            {
                "round": number,
                "moves": len(codes),
                "headline": _headline(reveal),
                "points": list(reveal.get("points") or []),
                "totals": list(match.scores),
            }
        )
    return shown


def round_frames(t: Translator, game: ReplayedGame, history: History, number: int) -> JSON:
    """Round `number` (1-based) position by position: `positions[k]` is the table after k
    moves (0: just dealt), with every hand face up and the move that led to it; `reveal` is
    the round's end. KeyError if that round is not over (or was never played)."""
    if not 1 <= number <= rounds_over(game.kind, game.config, history):
        raise KeyError(number)
    dealt = [*history[: number - 1], (history[number - 1][0], [])]
    match = game.kind.replay(game.config, dealt)
    presentation = game.kind.presentation
    positions = [_position(t, game, match, 0, None)]
    for ply, code in enumerate(history[number - 1][1], start=1):
        seat = _mover(match)
        events = match.apply(seat, code)
        # Named as it was played (what it took included), not from its code alone.
        move = {
            "seat": seat,
            "code": code,
            "label": _plain(presentation.played_label(t, code, events)),
        }
        positions.append(_position(t, game, match, ply, move))
    assert match.round_over
    reveal = _reveal(t, game, match)
    return {
        "round": number,
        "positions": positions,
        "reveal": reveal,
        "headline": _headline(reveal),
        "totals": list(match.scores),
        "last": match.is_over,
    }


def named_moves(
    t: Translator,
    game: ReplayedGame,
    history: History,
    best: Mapping[tuple[int, int], int] | None = None,
) -> played.NamedMoves:
    """Every move of the rounds that are over named as it was played, in plain text, by
    round and ply (both 1-based): a review's moves and worst as the replay's move list names
    them; and each better move of `best` (its code by the round and ply of the move made
    instead) named where it was better."""
    named = played.named_moves(game.kind, t, game.config, history, best)
    return played.NamedMoves(
        {key: _plain(label) for key, label in named.played.items()},
        {key: _plain(label) for key, label in named.better.items()},
    )


def _first(kind: AnyGameKind, config: JSON, history: History) -> AnyMatch:
    """The match at the first round's deal, before its first move."""
    return kind.replay(config, [(history[0][0], [])])


def _mover(match: AnyMatch) -> int:
    seat = match.to_move
    if seat is None:
        raise GameDataError("a stored move where nobody is to move")
    return seat


def _table(game: ReplayedGame, match: AnyMatch) -> TableView[Any]:
    """The public table of the match as it stands (no clock: nobody's turn runs)."""
    return TableView(
        game_id=game.game_id,
        version=0,
        chat_id=game.chat_id,
        thread_id=game.thread_id,
        kind=game.kind.name,
        config=match.config,
        round_number=match.round_number,
        seats=game.seats,
        scores=match.scores,
        to_move=None if match.round_over else match.to_move,
        deadline=None,
        winner=match.winner,
        board=match.board(),
        round_over=match.round_over,
    )


def _position(
    t: Translator, game: ReplayedGame, match: AnyMatch, ply: int, move: JSON | None
) -> JSON:
    """The table after `ply` moves of the round: the board as the live table draws it and
    every seat's hand, face up (the kind's page_hand, with no move to make)."""
    table = _table(game, match)
    presentation = game.kind.presentation
    hands = []
    for seat in range(len(game.seats)):
        view = HandView(game.game_id, 0, seat, (), match.private(seat), table)
        hands.append(presentation.page_hand(t, view))
    return {
        "ply": ply,
        "move": move,
        "to_move": table.to_move,
        "board": presentation.page_board(t, table),
        "hands": hands,
        "scores": list(match.scores),
    }


def _reveal(t: Translator, game: ReplayedGame, match: AnyMatch) -> JSON:
    table = _table(game, match)
    reveal = RoundReveal(table, match.revealed())
    return dict(game.kind.presentation.page_reveal(t, reveal))


def _headline(reveal: JSON) -> str:
    head = reveal.get("headline")
    if isinstance(head, str) and head:
        return head
    summary = reveal.get("summary") or [""]
    return str(summary[0])


def _plain(text: str) -> str:
    """A kind's text for the chat (HTML) as plain words for the page."""
    return html.unescape(TAG.sub("", text))
