"""Who wins a finished round and what everyone scores (C10-C12, D5-D7)."""

from __future__ import annotations

from .events import EndReason
from .rules import GameConfig, RuleSet
from .tiles import lightness, pips, tiles_in


def _rank_key(held: int) -> tuple[int, int, tuple[int, int]]:
    """C11: lower pips, then fewer tiles, then the lighter lightest tile."""
    lightest = min((lightness(t) for t in tiles_in(held)), default=(-1, -1))
    return (pips(held), held.bit_count(), lightest)


def lowest_count_seat(held: list[int]) -> int:
    """C11/D6: the seat whose held tiles win a count, ties broken as C11 says."""
    return min(range(len(held)), key=lambda seat: _rank_key(held[seat]))


def score_round(
    config: GameConfig,
    reason: EndReason,
    mover: int,
    hands: list[int],
    discards: list[int],
) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """The winner, every seat's count and every seat's points for a round that just ended.

    `mover` is the seat whose move ended the round (the gaple winner in classic rules).
    """
    if config.rule_set is RuleSet.CLASSIC:
        counts = tuple(pips(hand) for hand in hands)
        # C10/C11a: emptying the hand wins even when the same play blocks the line.
        winner = mover if reason is EndReason.GAPLE else lowest_count_seat(hands)
        # C12: the winner takes the pips left in every other hand; tiles set aside count nothing.
        points = tuple(
            sum(counts) - counts[winner] if s == winner else 0 for s in range(len(hands))
        )
        return winner, counts, points
    held = [hand | discarded for hand, discarded in zip(hands, discards, strict=True)]
    counts = tuple(pips(h) for h in held)
    # D6: the lowest count wins however the round ended; ties as C11 with discards as held.
    winner = lowest_count_seat(held)
    # D7: each seat scores the difference to every higher count.
    points = tuple(sum(c - mine for c in counts if c > mine) for mine in counts)
    return winner, counts, points
