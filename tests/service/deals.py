"""The hand-made deals these tests play, written as the engines' golden tests write them."""

from __future__ import annotations

from gaple_bot.games.gap.rules import GapConfig
from tests.games.gap.rules import test_golden as golden
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

# The golden round and the drained pile are the Gap rules' golden tests' own: twelve moves
# scoring 3 and 0, and every move an exact match ending 20 points each (G5).
FULL_ROUND, FULL_ROUND_MOVES = golden.FULL_ROUND, golden.FULL_ROUND_MOVES
DRAINED, DRAINED_MOVES = golden.DRAINED, golden.DRAINED_MOVES

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
