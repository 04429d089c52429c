"""The hand-made deals these tests play, written as the engines' golden tests write them."""

from __future__ import annotations

from gaple_bot.games.gap.rules import GapConfig
from tests.games.gap.rules.hand_dealt import hand_deal
from tests.games.gaple.rules.hand_dealt import classic_deal, discards_deal

# Gaple, classic, two seats -------------------------------------------------------------------

TWO_TURNS = classic_deal(
    "66 60 01 02 03 11 12",
    "65 55 54 53 44 43 33",
    leader=0,
    lead="66",
)
"""C4: Ana (seat 0) holds [6|6] and must lead it; Budi's only answer is [6|5], then Ana's only
play is [6|0] on the 6; Budi then chooses among his 5s."""

ANA_GOES_OUT = classic_deal(
    "66 65 55 54 44 43 33",
    "00 01 02 11 12 22 63",
    leader=0,
    lead="66",
)
"""Seat 1's only play is [6|3] after [6|6]; from then on it holds nothing that fits, so it
passes (C9) while seat 0 plays out all seven tiles: L65 L55 L54 L44 L43 R33 (C10)."""
ANA_GOES_OUT_MOVES = "R66 L65 L55 L54 L44 L43 R33"
"""Seat 0's moves; seat 1 (a computer) plays [6|3] after the first."""

BLOCKED_AT_ONCE = classic_deal(
    "66 55 54 53 44 52 43",
    "00 01 02 03 11 12 04",
    "05 13 14 15 22 23 24",
    leader=0,
    lead="66",
)
"""Three seats; every other 6 is set aside, so once seat 0 leads [6|6] no hand fits: the round
is blocked at once (C11). Left in hand: seat 0 49 pips, seat 1 15, seat 2 35."""

# Gaple with discards, four seats -------------------------------------------------------------

COUNTS_0_10_15_30 = discards_deal(
    "00 20 50 60 51 54",
    "30 40 41 44 64 66",
    "11 32 62 43 63 65",
    "21 31 61 22 42 53",
    start="55",
    leader=3,
)
"""D7's example (as tests/engine/test_golden_discards.py plays it): seat 3 leads onto the
start [5|5] and goes out with the round's 21st move; counts 15, 30, 10 and 0."""
COUNTS_0_10_15_30_MOVES = (
    "R53 L50 L40 L43 R31 R51 L30 R65 R61 L00 R41 D62 R42 L20 D64 R32 L22 D60 D66 R63 L21"
)

# Gap, two seats ------------------------------------------------------------------------------

GAP_TWO = GapConfig(2)

FULL_ROUND = hand_deal(
    GAP_TWO,
    "R3 R8 G8 Y5 B1 R6",
    "Y2 B7 G0 Y4 B9 R5",
    middle="G3 B3 Y7 R9",
    pile="G6 B6 Y6 Y0",
)
"""As tests/engine_gap/test_golden.py plays it: twelve moves, scoring 3 and 0 (G5)."""
FULL_ROUND_MOVES = "R3 B7 R8/-/R9 Y4 Y5/Y4/Y6 G0 G8 B9/G8/- B1 Y2 R6 R5/R4/-"

DRAINED = hand_deal(
    GAP_TWO,
    "Y0 Y2 Y4 Y6 Y8 G9",
    "Y1 Y3 Y5 Y7 B9 Y9",
    middle="R0 G0 B0 R9",
    pile=" ".join(f"R{v} G{v} B{v}" for v in range(1, 9)),
)
"""Every move an exact match: both collections end five of each colour, 20 points each (G5)."""
DRAINED_MOVES = "Y0 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 B9 G9 Y9"

SECOND_ROUND = hand_deal(
    GAP_TWO,
    "R0 R1 R2 R3 R4 R5",
    "G0 G1 G2 G3 G4 G5",
    middle="B0 B1 B2 B3",
    first=1,
)
"""A second round's deal: G6, the first player one seat on (seat 1)."""

ANA_LEADS_AGAIN = classic_deal(
    "10 20 30 40 50 60 11",
    "22 33 44 55 66 21 32",
    leader=0,
    lead=None,
)
"""A second round for ANA_GOES_OUT: C5, its winner (seat 0) leads, any tile."""
