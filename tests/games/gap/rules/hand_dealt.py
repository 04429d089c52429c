"""Helpers for Gap's golden tests: cards written as "R7", hand-made deals, moves played by text."""

from __future__ import annotations

from gaple_bot.games.gap.rules import (
    Deal,
    Event,
    Game,
    GapConfig,
    Move,
    Round,
    card_text,
    parse_card,
)


def card(text: str) -> int:
    """The card written as colour letter and value: "R7" is the red 7, "O0" the orange 0."""
    return parse_card(text)


def cards(text: str) -> list[int]:
    """The cards written space-separated, in that order."""
    return [card(word) for word in text.split()]


def texts(ids: list[int] | tuple[int, ...]) -> str:
    """Card ids written back as space-separated text, in the same order."""
    return " ".join(card_text(c) for c in ids)


def hand_deal(config: GapConfig, *hands: str, middle: str, pile: str = "", first: int = 0) -> Deal:
    """A deal of these hands and middle; the pile is `pile`'s cards first, then every other
    card in play in id order."""
    dealt = [*(c for text in hands for c in cards(text)), *cards(middle), *cards(pile)]
    rest = [c for c in config.deck if c not in dealt]
    return Deal(
        hands=tuple(tuple(cards(text)) for text in hands),
        middle=tuple(cards(middle)),
        pile=tuple(cards(pile) + rest),
        first=first,
    )


def play_out(game: Game | Round, moves: str) -> list[Event]:
    """Apply the space-separated move texts, each for the seat to move; all events, in order."""
    events: list[Event] = []
    for text in moves.split():
        seat = game.to_move
        assert seat is not None, f"the round is over before {text}"
        events.extend(game.apply(seat, Move.parse(text)))
    return events


def move_texts(moves: list[Move] | tuple[Move, ...]) -> list[str]:
    """The moves as texts, in their order."""
    return [m.text() for m in moves]
