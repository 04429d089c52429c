"""Gaple's simulation core compiled with numba: moves, play-outs, deals, judgements, tree search.

The same bitmasks and bit order as playout.py (a hand's heaviest tile is its highest bit), in
int64 numpy arrays. Every function here mirrors one in playout.py, sampler.py or the Monte
Carlo search, move for move (tests/games/gaple/ai/test_ai_fastcore.py plays them side by side
with the rules); what is new is that one call plays many deals, so Python's cost per call is
paid once per batch rather than once per move.

Randomness comes from a small linear congruential generator whose state is a one-element
array the caller seeds: the same seed gives the same play on any machine, and nothing here
touches a global generator.
"""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import types
from numba.cpython.unsafe.numbers import leading_zeros
from numba.extending import intrinsic

from ...jit import compiled
from ..rules.tiles import TILE_COUNT, lightness
from .playout import HI, LO, NUM, SUM, TILE_OF, pip_count

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

GREEDY, KEEPING, RANDOM, BLOCKING, SELF_KEEPING = 0, 1, 2, 3, 4
"""Play-out policies: `playout.rollout`, `playout.keeping_rollout`, `playout.random_rollout`,
and (compiled only) keeping play that also blocks the next seat, whose hand it sees, and the
deciding seat keeping while every other plays at random."""
KEEPING_AT_RANDOM = 100
"""A rollout policy of `KEEPING_AT_RANDOM` + p (p from 0 to 100): keeping play, each move at
random instead with p percent odds (compiled only)."""
PLAY, PASS, DISCARD = 0, 1, 2
"""Move kinds, as the core codes them."""
MARGIN, MATCH = 0, 1
"""How a round's points are valued: the round margin (the reference player's) or `MatchValue`."""
FAST_TRIES = 12
"""Dead ends in a row after which `judge` stops and leaves the rest to the Python sampler's
matching (as `Sampler` gives up its fast path)."""
TRACE_FIELDS = 5
"""A traced move: seat, kind, bit (-1 for a pass), 1 if played at the left end, legal moves."""

NUM_A: Ints = np.array(NUM, dtype=np.int64)
SUM_A: Ints = np.array(SUM, dtype=np.int64)
LO_A: Ints = np.array(LO, dtype=np.int64)
HI_A: Ints = np.array(HI, dtype=np.int64)
PIPS_CHUNKS: Ints = np.array(
    [[pip_count(bits << (7 * k)) for bits in range(128)] for k in range(4)], dtype=np.int64
)
LIGHT_RANK: Ints = np.array(
    [sorted(range(TILE_COUNT), key=lambda b: lightness(TILE_OF[b])).index(b) for b in range(28)],
    dtype=np.int64,
)
"""Bit -> its place in C11's order of lightness (weight, then lower end)."""
COMB: Floats = np.array([[comb(n, k) for k in range(29)] for n in range(29)], dtype=np.float64)


@intrinsic
def _ctpop(typing_context: Any, x: Any) -> tuple[Any, Any]:
    """The processor's count of set bits of an int64 (LLVM's ctpop)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@compiled
def popcount(x: int) -> int:
    """The set bits of a non-negative mask."""
    return _ctpop(x)  # type: ignore[call-arg]


@compiled
def top_bit(x: int) -> int:
    """The highest set bit of a positive int64 mask (the processor's count of leading zeros)."""
    return 63 - leading_zeros(x)  # type: ignore[call-arg]


@compiled
def pips(mask: int) -> int:
    """The pips of the tiles in a mask."""
    t = PIPS_CHUNKS
    return t[0, mask & 127] + t[1, mask >> 7 & 127] + t[2, mask >> 14 & 127] + t[3, mask >> 21]  # type: ignore[no-any-return]


@compiled
def below(rng: Ints, n: int) -> int:
    """A uniformly random integer in [0, n), advancing the generator in `rng[0]`."""
    state = rng[0] * 6364136223846793005 + 1442695040888963407
    rng[0] = state
    # The high bits of a power-of-two LCG are its good ones.
    return ((state >> 33) & 0x7FFFFFFF) * n >> 31  # type: ignore[no-any-return]


@compiled
def finish(classic: bool, seats: int, hands: Ints, discs: Ints, gaple: int, points: Ints) -> None:
    """`playout.finish` into `points`."""
    if classic:
        winner = gaple
        total = 0
        best_pips = best_tiles = best_light = 1 << 30
        for s in range(seats):
            count = pips(hands[s])
            total += count
            if gaple < 0:
                # C11/D6: lowest pips, then fewest tiles, then the lighter lightest tile.
                tiles = popcount(hands[s])
                light = -1 if hands[s] == 0 else 1 << 30
                rest = hands[s]
                while rest:
                    low = rest & -rest
                    rest ^= low
                    light = min(light, LIGHT_RANK[top_bit(low)])
                if count < best_pips or (
                    count == best_pips
                    and (tiles < best_tiles or (tiles == best_tiles and light < best_light))
                ):
                    best_pips, best_tiles, best_light = count, tiles, light
                    winner = s
        for s in range(seats):
            points[s] = 0
        points[winner] = total - pips(hands[winner])
        return
    for s in range(seats):
        points[s] = pips(hands[s] | discs[s])
    for s in range(seats):
        mine = pips(hands[s] | discs[s])
        won = 0
        for o in range(seats):
            other = pips(hands[o] | discs[o])
            if other > mine:
                won += other - mine
        points[s] = won


@compiled
def make_move(
    classic: bool,
    discards: bool,
    seats: int,
    hands: Ints,
    discs: Ints,
    ends: Ints,
    seat: int,
    kind: int,
    bit: int,
    on_left: bool,
    points: Ints,
) -> int:
    """`playout.step`: make a legal move (mutating hands, discs and `ends`, [left, right],
    left < 0 for an empty line); the seat to move next, or -1 with `points` filled."""
    if kind == PLAY:
        hands[seat] ^= 1 << bit
        if ends[0] < 0:
            ends[0], ends[1] = LO_A[bit], HI_A[bit]
        elif on_left:
            ends[0] = SUM_A[bit] - ends[0]
        else:
            ends[1] = SUM_A[bit] - ends[1]
        if hands[seat] == 0:
            finish(classic, seats, hands, discs, seat, points)
            return -1
        in_hands = 0
        for s in range(seats):
            in_hands |= hands[s]
        if in_hands & (NUM_A[ends[0]] | NUM_A[ends[1]]) == 0:
            finish(classic, seats, hands, discs, -1, points)
            return -1
    elif kind == DISCARD:
        hands[seat] ^= 1 << bit
        discs[seat] |= 1 << bit
        if hands[seat] == 0:
            finish(classic, seats, hands, discs, -1, points)
            return -1
    return seat + 1 if seat + 1 < seats else 0


@compiled
def play_out(
    policy: int,
    keep: int,
    classic: bool,
    discards: bool,
    seats: int,
    hands: Ints,
    discs: Ints,
    left: int,
    right: int,
    seat: int,
    me: int,
    rng: Ints,
    points: Ints,
    trace: Ints,
    options: Ints,
) -> int:
    """Play the round out by `policy` (mutating hands and discs) into `points`; the moves
    made. The line must not be empty and the round not over. Moves are written to `trace`
    while it has rows (an empty trace records nothing); `options` is room for 56 moves.
    Under `SELF_KEEPING` seat `me` plays `KEEPING` and every other seat `RANDOM`; under
    `KEEPING_AT_RANDOM` + p each move is `RANDOM`'s with p percent odds, else `KEEPING`'s."""
    num = NUM_A
    sums = SUM_A
    in_hands = 0
    for s in range(seats):
        in_hands |= hands[s]
    moves = passes = 0
    playing = policy
    while True:
        if policy == SELF_KEEPING:
            playing = KEEPING if seat == me else RANDOM
        elif policy >= KEEPING_AT_RANDOM:
            playing = RANDOM if below(rng, 100) < policy - KEEPING_AT_RANDOM else KEEPING
        h = hands[seat]
        at_left = num[left]
        at_right = num[right]
        fit = h & (at_left | at_right)
        if fit:
            on_left = False
            count = 0
            if playing == RANDOM or moves < trace.shape[0]:
                # (bit, 1 if at the left end), as random_rollout lists them.
                rest = fit
                while rest:
                    low = rest & -rest
                    rest ^= low
                    b = top_bit(low)
                    if low & at_right:
                        options[count] = 2 * b
                        count += 1
                    if low & at_left and (left != right or not low & at_right):
                        options[count] = 2 * b + 1
                        count += 1
            if playing == RANDOM:
                choice = options[below(rng, count)]
                top = choice >> 1
                on_left = choice & 1 == 1
            elif playing in (KEEPING, BLOCKING):
                # Blocking sees the next seat's hand in the deal; keeping blocks nobody.
                following = hands[seat + 1 if seat + 1 < seats else 0]
                code = keeping_code(h, left, right, keep, following if playing == BLOCKING else 0)
                top = code >> 1
                on_left = code & 1 == 1
            else:
                top = top_bit(fit)
                bit = 1 << top
                total = sums[top]
                others = h ^ bit
                if bit & at_right:
                    if bit & at_left and left != right:
                        kept_left = popcount(others & num[total - left])
                        kept_right = popcount(others & num[total - right])
                        on_left = kept_left > kept_right
                else:
                    on_left = True
            bit = 1 << top
            passes = 0
            if moves < trace.shape[0]:
                trace[moves, 0] = seat
                trace[moves, 1] = PLAY
                trace[moves, 2] = top
                trace[moves, 3] = 1 if on_left else 0
                trace[moves, 4] = count
            moves += 1
            if on_left:
                left = sums[top] - left
            else:
                right = sums[top] - right
            h ^= bit
            hands[seat] = h
            in_hands ^= bit
            if not h:
                finish(classic, seats, hands, discs, seat, points)
                return moves
            if not in_hands & (num[left] | num[right]):
                finish(classic, seats, hands, discs, -1, points)
                return moves
        elif discards:
            if playing == RANDOM:
                pick = below(rng, popcount(h))
                rest = h
                for _ in range(pick):
                    rest &= rest - 1
                bit = rest & -rest
            else:
                bit = h & -h
            if moves < trace.shape[0]:
                trace[moves, 0] = seat
                trace[moves, 1] = DISCARD
                trace[moves, 2] = top_bit(bit)
                trace[moves, 3] = 0
                trace[moves, 4] = popcount(h)
            moves += 1
            h ^= bit
            hands[seat] = h
            discs[seat] |= bit
            in_hands ^= bit
            if not h:
                finish(classic, seats, hands, discs, -1, points)
                return moves
        else:
            if moves < trace.shape[0]:
                trace[moves, 0] = seat
                trace[moves, 1] = PASS
                trace[moves, 2] = -1
                trace[moves, 3] = 0
                trace[moves, 4] = 1
            moves += 1
            passes += 1
            if passes == seats:
                # Only a deal that blocks the line before anyone moves gets here (a pass
                # judged on a deal with every fitting tile set aside): it is blocked.
                finish(classic, seats, hands, discs, -1, points)
                return moves
        seat = seat + 1 if seat + 1 < seats else 0


@compiled
def play_outs(
    policy: int,
    keep: int,
    classic: bool,
    discards: bool,
    hands: Ints,
    discs: Ints,
    lefts: Ints,
    rights: Ints,
    movers: Ints,
    seed: int,
    points: Ints,
) -> None:
    """Play out every row of `hands`/`discs` (mutated) from its ends and seat to move into
    the same row of `points`: the batch the benchmark and the tests time and check."""
    rng = np.empty(1, dtype=np.int64)
    rng[0] = seed
    no_trace = np.empty((0, TRACE_FIELDS), dtype=np.int64)
    options = np.empty(56, dtype=np.int64)
    seats = hands.shape[1]
    for row in range(hands.shape[0]):
        play_out(
            policy,
            keep,
            classic,
            discards,
            seats,
            hands[row],
            discs[row],
            lefts[row],
            rights[row],
            movers[row],
            -1,
            rng,
            points[row],
            no_trace,
            options,
        )


@compiled
def random_subset(mask: int, size: int, rng: Ints, bits: Ints) -> int:
    """`size` of the tiles in `mask`, uniformly at random (a partial Fisher-Yates shuffle in
    `bits`, room for 28)."""
    n = 0
    rest = mask
    while rest:
        low = rest & -rest
        rest ^= low
        bits[n] = low
        n += 1
    pick = 0
    for k in range(size):
        j = k + below(rng, n - k)
        bits[k], bits[j] = bits[j], bits[k]
        pick |= bits[k]
    return pick


@compiled
def draw(
    unseen: int,
    counts: Ints,
    allowed: Ints,
    order: Ints,
    free: Ints,
    rng: Ints,
    out: Ints,
    bits: Ints,
) -> float:
    """`Sampler`'s fast path: masks for the places into `out` and the draw's importance
    weight, or -1.0 at a dead end. `order` lists the constrained places tightest first, `free`
    those that accept every unseen tile."""
    remaining = unseen
    weight = 1.0
    for i in order:
        count = counts[i]
        avail = remaining & allowed[i]
        n = popcount(avail)
        if n < count:
            return -1.0
        if n == count:
            pick = avail
        else:
            # This place had comb(n, count) equally likely fillings given the places before.
            weight *= COMB[n, count]
            pick = random_subset(avail, count, rng, bits)
        out[i] = pick
        remaining ^= pick
    for i in free:
        # Whatever is left, shuffled into the free places: each a uniform subset of the rest.
        pick = random_subset(remaining, counts[i], rng, bits)
        out[i] = pick
        remaining ^= pick
    return weight


@compiled
def round_value(
    value_kind: int,
    seats: int,
    me: int,
    points: Ints,
    scores: Ints,
    target: int,
    game_value: float,
    win_worth: float,
) -> float:
    """What a round's points are worth to `me`: the round margin (`reference.round_margin`)
    or `MatchValue.of(points)[me]`."""
    if value_kind == MARGIN:
        best_other = -(1 << 40)
        for s in range(seats):
            if s != me:
                best_other = max(best_other, points[s])
        return float(points[me] - best_other)
    # C13/D8: a total at the target that no other seat equals ends the game.
    best_total = -(1 << 40)
    tied = 0
    leader = -1
    for s in range(seats):
        total = scores[s] + points[s]
        if total > best_total:
            best_total, tied, leader = total, 1, s
        elif total == best_total:
            tied += 1
    if best_total >= target and tied == 1:
        return game_value if leader == me else -game_value
    best_points = -(1 << 40)
    sharing = 0
    best_other = -(1 << 40)
    for s in range(seats):
        if points[s] > best_points:
            best_points, sharing = points[s], 1
        elif points[s] == best_points:
            sharing += 1
        if s != me:
            best_other = max(best_other, scores[s] + points[s])
    worth = float(scores[me] + points[me] - best_other)
    if points[me] == best_points:
        worth += win_worth / sharing
    return worth


@compiled
def deal_into(
    unseen: int,
    places: Ints,
    counts: Ints,
    allowed: Ints,
    order: Ints,
    free: Ints,
    base_hands: Ints,
    base_discs: Ints,
    rng: Ints,
    masks: Ints,
    bits: Ints,
    hands: Ints,
    discs: Ints,
) -> float:
    """A deal around the seat's own hand and discards into `hands`/`discs` and its weight, or
    -1.0 after `FAST_TRIES` dead ends in a row (`places` rows as `judge` takes them)."""
    weight = -1.0
    for _ in range(FAST_TRIES):
        weight = draw(unseen, counts, allowed, order, free, rng, masks, bits)
        if weight >= 0.0:
            break
    if weight < 0.0:
        return weight
    hands[:] = base_hands
    discs[:] = base_discs
    for p in range(places.shape[0]):
        if places[p, 2] == 0:
            hands[places[p, 3]] = masks[p]
        elif places[p, 2] == 1:
            discs[places[p, 3]] |= masks[p]
    return weight


@compiled
def passed_weight(hands: Ints, passed: Ints, passed_over: float) -> float:
    """`passed_over` to the power of the tiles the seats hold that they passed over (rows of
    `passed`: seat, mask of heavier tiles that fitted when it played a lighter one)."""
    skipped = 0
    for k in range(passed.shape[0]):
        skipped += popcount(hands[passed[k, 0]] & passed[k, 1])
    return passed_over**skipped if skipped else 1.0


@compiled
def deal_pool(
    unseen: int,
    places: Ints,
    order: Ints,
    free: Ints,
    base_hands: Ints,
    base_discs: Ints,
    passed: Ints,
    passed_over: float,
    rng: Ints,
    hands: Ints,
    discs: Ints,
    weights: Floats,
) -> int:
    """Deals into the rows of `hands`/`discs` with their weights (as `judge` weighs them);
    how many, fewer when the fast sampler keeps hitting dead ends."""
    masks = np.zeros(places.shape[0], dtype=np.int64)
    counts = places[:, 0].copy()
    allowed = places[:, 1].copy()
    bits = np.empty(28, dtype=np.int64)
    for row in range(hands.shape[0]):
        weight = deal_into(
            unseen,
            places,
            counts,
            allowed,
            order,
            free,
            base_hands,
            base_discs,
            rng,
            masks,
            bits,
            hands[row],
            discs[row],
        )
        if weight < 0.0:
            return row
        weights[row] = weight * passed_weight(hands[row], passed, passed_over)
    return int(hands.shape[0])


@compiled
def judge(
    table: Ints,
    base_hands: Ints,
    base_discs: Ints,
    places: Ints,
    order: Ints,
    free: Ints,
    given_hands: Ints,
    given_discs: Ints,
    given_weights: Floats,
    passed: Ints,
    passed_over: float,
    moves: Ints,
    active: Ints,
    deals: int,
    scores: Ints,
    valuation: Floats,
    rng: Ints,
    worth: Floats,
    weights: Floats,
) -> int:
    """Judge the `active` moves on `deals` deals, each played out once per move: each move's
    value per deal into `worth[deal, move]` and the deal's weight into `weights[deal]`; the
    deals judged (fewer when the fast sampler hits `FAST_TRIES` dead ends in a row).

    `table` is [seats, classic, discards, left, right, me, policy, keep, value kind, target,
    unseen]; `places` rows are (count, allowed, kind 0 hand / 1 discards / 2 set aside, seat);
    given deals (rows of `given_hands`) are used instead of drawing while there are any;
    `passed` rows are (seat, mask) of tiles heavier than a play that would have fitted then,
    each held one weighing a deal by `passed_over`; `moves` rows are (kind, bit, on_left);
    `valuation` is [game value, win worth].
    """
    seats, classic, discards = table[0], table[1] == 1, table[2] == 1
    left, right, me, policy, keep = table[3], table[4], table[5], table[6], table[7]
    value_kind, target, unseen = table[8], table[9], table[10]
    masks = np.zeros(places.shape[0], dtype=np.int64)
    counts = places[:, 0].copy()
    allowed = places[:, 1].copy()
    hands = np.empty(seats, dtype=np.int64)
    discs = np.empty(seats, dtype=np.int64)
    deal_hands = np.empty(seats, dtype=np.int64)
    deal_discs = np.empty(seats, dtype=np.int64)
    ends = np.empty(2, dtype=np.int64)
    points = np.empty(seats, dtype=np.int64)
    no_trace = np.empty((0, TRACE_FIELDS), dtype=np.int64)
    options = np.empty(56, dtype=np.int64)
    bits = np.empty(28, dtype=np.int64)
    for deal in range(deals):
        if deal < given_hands.shape[0]:
            deal_hands[:] = given_hands[deal]
            deal_discs[:] = given_discs[deal]
            weight = given_weights[deal]
        else:
            weight = deal_into(
                unseen,
                places,
                counts,
                allowed,
                order,
                free,
                base_hands,
                base_discs,
                rng,
                masks,
                bits,
                deal_hands,
                deal_discs,
            )
            if weight < 0.0:
                return deal
        weight *= passed_weight(deal_hands, passed, passed_over)
        weights[deal] = weight
        for j in active:
            hands[:] = deal_hands
            discs[:] = deal_discs
            ends[0], ends[1] = left, right
            nxt = make_move(
                classic,
                discards,
                seats,
                hands,
                discs,
                ends,
                me,
                moves[j, 0],
                moves[j, 1],
                moves[j, 2] == 1,
                points,
            )
            if nxt >= 0:
                play_out(
                    policy,
                    keep,
                    classic,
                    discards,
                    seats,
                    hands,
                    discs,
                    ends[0],
                    ends[1],
                    nxt,
                    me,
                    rng,
                    points,
                    no_trace,
                    options,
                )
            worth[deal, j] = round_value(
                value_kind, seats, me, points, scores, target, valuation[0], valuation[1]
            )
    return deals


PASS_CODE = 56
"""A move's code: 2 x bit (+1 at the left end) for a play, this for a pass, 57 + bit for a
discard."""
DISCARD_CODE = 57


@compiled
def keeping_code(hand: int, left: int, right: int, keep: int, following: int) -> int:
    """The code of the keeping play of `hand` on these ends (a hand with a legal move): the
    fitting tile and end with the most pips plus `keep` for each tile of its own that fits the
    ends it leaves, less `keep` for each tile of `following` (the next seat's hand, for the
    blocking policy; 0 for plain keeping) that fits them; ties to the heavier tile, then the
    right end. A hand with no fitting tile discards its lightest."""
    at_left = NUM_A[left]
    at_right = NUM_A[right]
    fit = hand & (at_left | at_right)
    if not fit:
        return DISCARD_CODE + top_bit(hand & -hand)
    best_score = -(1 << 30)
    code = 0
    rest = fit
    while rest:
        low = rest & -rest
        rest ^= low
        b = top_bit(low)
        total = SUM_A[b]
        others = hand ^ low
        if low & at_left and (left != right or not low & at_right):
            shown = NUM_A[total - left] | at_right
            score = total + keep * (popcount(others & shown) - popcount(following & shown))
            if score >= best_score:
                best_score, code = score, 2 * b + 1
        if low & at_right:
            shown = at_left | NUM_A[total - right]
            score = total + keep * (popcount(others & shown) - popcount(following & shown))
            if score >= best_score:
                best_score, code = score, 2 * b
    return code


@compiled
def legal_codes(hand: int, left: int, right: int, discards: bool, out: Ints) -> int:
    """The codes of the legal moves of `hand` on a line with these ends (not empty) into
    `out`; how many."""
    at_left = NUM_A[left]
    at_right = NUM_A[right]
    fit = hand & (at_left | at_right)
    n = 0
    if fit:
        rest = fit
        while rest:
            low = rest & -rest
            rest ^= low
            b = top_bit(low)
            if low & at_right:
                out[n] = 2 * b
                n += 1
            if low & at_left and (left != right or not low & at_right):
                out[n] = 2 * b + 1
                n += 1
    elif discards:
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            out[n] = DISCARD_CODE + top_bit(low)
            n += 1
    else:
        out[0] = PASS_CODE
        n = 1
    return n


@compiled
def _apply_code(
    classic: bool,
    discards: bool,
    seats: int,
    hands: Ints,
    discs: Ints,
    ends: Ints,
    seat: int,
    code: int,
    points: Ints,
) -> int:
    """Make the move with this code; the next seat to move, or -1 with `points` filled."""
    if code < PASS_CODE:
        return make_move(
            classic,
            discards,
            seats,
            hands,
            discs,
            ends,
            seat,
            PLAY,
            code >> 1,
            code & 1 == 1,
            points,
        )
    if code == PASS_CODE:
        return make_move(
            classic, discards, seats, hands, discs, ends, seat, PASS, -1, False, points
        )
    return make_move(
        classic,
        discards,
        seats,
        hands,
        discs,
        ends,
        seat,
        DISCARD,
        code - DISCARD_CODE,
        False,
        points,
    )


MOVE, MOVER, FIRST_CHILD, NEXT_SIBLING, VISITS, AVAIL = range(6)
"""The rows of a tree's integer table, a column per node: a node's move code, the seat that
made it, its first child and next sibling (-1: none), its visits and its availability."""


@compiled
def search(
    table: Ints,
    root_codes: Ints,
    pool_hands: Ints,
    pool_discs: Ints,
    cumulative: Floats,
    scores: Ints,
    valuation: Floats,
    iterations: int,
    explore: float,
    scale: float,
    rng: Ints,
    links: Ints,
    reward: Floats,
    nodes: int,
    value_hidden: Floats,
    value_bias: Floats,
    value_outer: Floats,
    value_outer_bias: Floats,
) -> int:
    """Run `iterations` more iterations on the tree in `links` (rows as `MOVE`… name them, a
    column per node, node 0 the root) and `reward` (the value each node's visits led to, for
    the seat that made its move), of which `nodes` columns are in use; the columns in use
    after. The root is the seat `me` to move, its legal moves' codes `root_codes`; deals are
    picked from the pool with odds by `cumulative` weight. `table` is [seats, classic,
    discards, left, right, me, policy, keep, target, paired, hand aware, own explore, value
    mix]. Paired, each deal is played once from each root move in turn (`iterations` a multiple
    of the root moves), else the root's move is chosen as any other; hand aware, the other
    seats' moves in the tree are `keeping_code`'s with the hand they hold in the deal, not
    searched (2: searched, each seat's choice a node per set of fitting tiles it holds in the
    deal); own explore, in hundredths, is the exploration of the deciding seat's moves below
    the root (-1: `explore`); value mix, in hundredths (0 to 100), is the share of a leaf's
    value that comes from the learned value (`value_outcomes`, the `value_` arrays) rather than
    its rollout, at four classic seats only (the table it was fitted to; elsewhere 0).
    `valuation` is [the game's worth, the round's win's worth, the win's worth to the other
    seats, the other seats' unit of reward, paranoid]: the others may be searched as playing
    for another objective than the seat's own, or, paranoid (1), against the seat's own (their
    reward the negative of its value)."""
    seats, classic, discards = table[0], table[1] == 1, table[2] == 1
    left, right, me, policy, keep = table[3], table[4], table[5], table[6], table[7]
    target = table[8]
    room = links.shape[1]
    move = links[MOVE]
    mover = links[MOVER]
    first_child = links[FIRST_CHILD]
    next_sibling = links[NEXT_SIBLING]
    visits = links[VISITS]
    avail = links[AVAIL]
    hands = np.empty(seats, dtype=np.int64)
    discs = np.empty(seats, dtype=np.int64)
    ends = np.empty(2, dtype=np.int64)
    points = np.empty(seats, dtype=np.int64)
    values = np.empty(seats, dtype=np.float64)
    codes = np.empty(64, dtype=np.int64)
    path = np.empty(64, dtype=np.int64)
    options = np.empty(56, dtype=np.int64)
    no_trace = np.empty((0, TRACE_FIELDS), dtype=np.int64)
    total_weight = cumulative[cumulative.shape[0] - 1]
    paired = table[9] == 1
    hand_aware = table[10] == 1
    keyed = table[10] == 2
    own_explore = explore if table[11] < 0 else table[11] / 100.0
    mix = min(1.0, max(0.0, table[12] / 100.0))
    if seats != VALUE_SEATS or not classic or discards:
        mix = 0.0
    game_worth = valuation[0]
    others_win, others_scale = valuation[2], valuation[3]
    paranoid = valuation[4] == 1.0
    features = np.empty(VALUE_FEATURES, dtype=np.float64)
    sums = np.empty(max(VALUE_SEATS, value_hidden.shape[1]), dtype=np.float64)
    chances = np.empty(VALUE_SEATS, dtype=np.float64)
    winnings = np.empty(VALUE_SEATS, dtype=np.float64)
    learned = np.empty(seats, dtype=np.float64)
    rotated = np.empty(VALUE_SEATS, dtype=np.int64)
    wins = np.full(seats, others_win, dtype=np.float64)
    wins[me] = valuation[1]
    lo = 0
    for iteration in range(iterations):
        forced = iteration % root_codes.shape[0]
        if not paired or forced == 0:
            # A deal by weight: the first cumulative weight above a uniform draw.
            pick = (float(rng[0] >> 11 & 0xFFFFFFFFFFFFF) / 4503599627370496.0) * total_weight
            rng[0] = rng[0] * 6364136223846793005 + 1442695040888963407
            lo, hi = 0, cumulative.shape[0] - 1
            while lo < hi:
                mid = (lo + hi) >> 1
                if cumulative[mid] > pick:
                    hi = mid
                else:
                    lo = mid + 1
        hands[:] = pool_hands[lo]
        discs[:] = pool_discs[lo]
        ends[0], ends[1] = left, right
        seat = me
        node = 0
        depth = 0
        over = False
        while True:
            if node == 0 and paired:
                # Every root move in turn on the same deal: compared on the same hidden hands.
                n = 1
                codes[0] = root_codes[forced]
            elif node == 0:
                n = root_codes.shape[0]
                codes[:n] = root_codes
            else:
                n = legal_codes(hands[seat], ends[0], ends[1], discards, codes)
                if hand_aware and seat != me and n > 1:
                    # The other seats play by the rollout's rule with their own hand.
                    codes[0] = keeping_code(hands[seat], ends[0], ends[1], keep, 0)
                    n = 1
            exploring = explore if node == 0 or seat != me else own_explore
            unit = scale if seat == me else others_scale
            # Keyed, another seat's move is a child per set of fitting tiles it holds in the
            # deal: it chooses knowing its own hand (the code in the low 7 bits).
            key = 0
            if keyed and node != 0 and seat != me:
                key = (hands[seat] & (NUM_A[ends[0]] | NUM_A[ends[1]])) << 7
            # Children legal here gain an availability; a legal move with no child is new.
            best = -1
            best_score = -1e300
            untried = -1
            for k in range(n):
                code = codes[k] | key
                child = first_child[node]
                while child >= 0 and move[child] != code:
                    child = next_sibling[child]
                if child < 0:
                    if untried < 0:
                        untried = code
                    continue
                avail[child] += 1
                score = reward[child] / (visits[child] * unit) + exploring * np.sqrt(
                    np.log(avail[child]) / visits[child]
                )
                if score > best_score:
                    best_score, best = score, child
            if untried >= 0 and (nodes < room or best < 0):
                if nodes == room:
                    break
                child = nodes
                nodes += 1
                move[child] = untried
                mover[child] = seat
                next_sibling[child] = first_child[node]
                first_child[node] = child
                avail[child] = 1
                best = child
            if best < 0:
                break
            node = best
            path[depth] = node
            depth += 1
            seat = _apply_code(
                classic, discards, seats, hands, discs, ends, seat, move[node] & 127, points
            )
            if seat < 0:
                over = True
                break
            if visits[node] == 0:
                break
        if not over and mix > 0.0:
            # The learned outlook, each seat's winning weighed by its chance.
            value_outcomes(
                seats,
                hands,
                seat,
                ends[0],
                ends[1],
                value_hidden,
                value_bias,
                value_outer,
                value_outer_bias,
                rotated,
                features,
                sums,
                chances,
                winnings,
            )
            learned[:] = 0.0
            for w in range(seats):
                points[:] = 0
                # At least a point, so the seat counts as the round's winner.
                points[w] = max(1, round(winnings[w]))
                for s in range(seats):
                    learned[s] += chances[w] * round_value(
                        1, seats, s, points, scores, target, game_worth, wins[s]
                    )
        if not over and mix < 1.0:
            play_out(
                policy,
                keep,
                classic,
                discards,
                seats,
                hands,
                discs,
                ends[0],
                ends[1],
                seat,
                me,
                rng,
                points,
                no_trace,
                options,
            )
        for s in range(seats):
            if over or mix == 0.0:
                values[s] = round_value(1, seats, s, points, scores, target, game_worth, wins[s])
            elif mix == 1.0:
                values[s] = learned[s]
            else:
                values[s] = mix * learned[s] + (1.0 - mix) * round_value(
                    1, seats, s, points, scores, target, game_worth, wins[s]
                )
        for k in range(depth):
            visited = path[k]
            visits[visited] += 1
            if paranoid and mover[visited] != me:
                reward[visited] -= values[me]
            else:
                reward[visited] += values[mover[visited]]
    return nodes


VALUE_SEATS = 4
"""Seats the learned value of a position knows (four classic seats)."""
VALUE_FEATURES = VALUE_SEATS * TILE_COUNT + 7 + 4 * VALUE_SEATS
"""Numbers `value_features` describes one position with."""
VALUE_POINTS_UNIT = 50.0
"""Points the learned value's second head counts as one (bench/fit_values.py)."""


@compiled
def value_features(seats: int, hands: Ints, left: int, right: int, out: Floats) -> None:
    """A position as numbers in `out`, seats counted from the seat to move (`hands[0]`): each
    seat's hand, a bit a tile; how many ends show each number; then each seat's tiles, pips,
    tiles that fit the ends and numbers of the ends it holds no tile of."""
    out[:] = 0.0
    at_ends = NUM_A[left] | NUM_A[right]
    for s in range(seats):
        rest = hands[s]
        while rest:
            low = rest & -rest
            rest ^= low
            out[s * TILE_COUNT + top_bit(low)] = 1.0
    base = VALUE_SEATS * TILE_COUNT
    out[base + left] += 1.0
    out[base + right] += 1.0
    base += 7
    for s in range(seats):
        h = hands[s]
        out[base + 4 * s] = popcount(h) / 7.0
        out[base + 4 * s + 1] = pips(h) / 40.0
        out[base + 4 * s + 2] = popcount(h & at_ends) / 3.0
        out[base + 4 * s + 3] = (int(h & NUM_A[left] == 0) + int(h & NUM_A[right] == 0)) / 2.0


@compiled
def value_outcomes(
    seats: int,
    hands: Ints,
    mover: int,
    left: int,
    right: int,
    hidden: Floats,
    bias: Floats,
    outer: Floats,
    outer_bias: Floats,
    rotated: Ints,
    features: Floats,
    sums: Floats,
    chances: Floats,
    winnings: Floats,
) -> None:
    """The learned value's outlook from a position with `mover` to move (a layer of rectified units,
    `hidden` and `bias`, under `outer` and `outer_bias`): each seat's chance of winning the
    round into `chances` and the points it would score winning into `winnings` (seats as the
    table counts them). `rotated`, `features`, `sums`: room for the hands, the features and
    the units (at least four)."""
    for s in range(seats):
        rotated[s] = hands[(mover + s) % seats]
    value_features(seats, rotated, left, right, features)
    units = hidden.shape[1]
    for u in range(units):
        sums[u] = bias[u]
    for f in range(features.shape[0]):
        x = features[f]
        if x != 0.0:
            for u in range(units):
                sums[u] += x * hidden[f, u]
    for u in range(units):
        sums[u] = max(0.0, sums[u])
    top = -1e300
    for k in range(2 * VALUE_SEATS):
        total = outer_bias[k]
        for u in range(units):
            total += sums[u] * outer[u, k]
        if k < VALUE_SEATS:
            chances[k] = total
            top = max(top, total)
        else:
            winnings[k - VALUE_SEATS] = max(0.0, total * VALUE_POINTS_UNIT)
    norm = 0.0
    for k in range(VALUE_SEATS):
        chances[k] = np.exp(chances[k] - top)
        norm += chances[k]
    # Back from the mover's count to the table's.
    for k in range(VALUE_SEATS):
        sums[k] = chances[k] / norm
    for k in range(VALUE_SEATS):
        chances[(mover + k) % seats] = sums[k]
    for k in range(VALUE_SEATS):
        sums[k] = winnings[k]
    for k in range(VALUE_SEATS):
        winnings[(mover + k) % seats] = sums[k]


CHOICE_FEATURES = 30
"""Numbers `choice_features` describes one play with; a model reads the first as many as it
was fitted with (the shipped `choice_weights` the first 24, as it was fitted before the rest
were added)."""
BASE_CHOICE_FEATURES = 24
"""The features a row narrower than `CHOICE_FEATURES` gets: enough for a model of at most as
many, which then skips the cost of the rest."""
CHOICE_KEEP = 3
"""The keeping rule's worth of a kept tile in the features that compare a play with the others
(hard-v1 and the reference before issue 41 played out their deals by it)."""
DOUBLES_MASK = sum(1 << b for b in range(TILE_COUNT) if LO[b] == HI[b])
EVIDENCE_FIELDS = 11
"""A recorded play (`choice_log_likelihoods`): seat, its later tiles, 1 if its discards were
in hand then, the line's tiles then, both ends, the tile's bit, 1 if played at the left, the
numbers each of its three followers was known to lack then (7-bit sets, one field), the fewest
tiles a follower held then, unused."""


@compiled
def choice_features(
    hand: int,
    played: int,
    left: int,
    right: int,
    bit: int,
    on_left: int,
    voids: int,
    fewest: int,
    out: Floats,
) -> None:
    """What the play of `bit` at one end looks like to the seat holding `hand` (the line's
    tiles `played`, ends `left`, `right`; its three followers lacking the numbers in `voids`,
    7 bits each, the next seat lowest; the fewest tiles one of them holds), as numbers in `out`.

    In order: the tile's pips and whether it is a double; the tiles left in hand that fit the
    new ends, that show the new number, and the unseen ones that do (the new number, either
    end); equal ends; the hand's and the unseen tiles of the covered number; a double's tiles
    of its number; the hand's and the unseen tiles of the other end; the hand's pips, tiles and
    doubles left; how many of the new ends each follower lacks; how much of the new number is
    on the line; whether the line is then blocked; the fewest tiles a follower holds; whether
    the unseen tiles fit neither end; how many tiles left fit both ends; whether no tile left
    fits. Then how the play compares with the hand's other plays: whether it is the keeping
    rule's play (`keeping_code`, a kept tile worth `CHOICE_KEEP` pips), how far its keeping
    score falls short of the best, how far its pips fall short of the heaviest fitting tile's,
    and how many fitting tiles are heavier; and the hand it leaves: how many numbers it shows
    and the most tiles one number has in it. A row `out` narrower than `CHOICE_FEATURES` gets
    the first `BASE_CHOICE_FEATURES` alone.
    """
    if on_left:
        covered, other = left, right
    else:
        covered, other = right, left
    exposed = SUM_A[bit] - covered
    rest = hand & ~(1 << bit)
    after = played | (1 << bit)
    unseen = ((1 << TILE_COUNT) - 1) & ~(after | rest)
    new, old, cov = NUM_A[exposed], NUM_A[other], NUM_A[covered]
    fits = new | old
    double = 1.0 if LO_A[bit] == HI_A[bit] else 0.0
    out[0] = SUM_A[bit] / 12.0
    out[1] = double
    out[2] = popcount(rest & fits) / 3.0
    out[3] = popcount(rest & new) / 3.0
    out[4] = popcount(unseen & new) / 3.0
    out[5] = popcount(unseen & fits) / 5.0
    out[6] = 1.0 if exposed == other else 0.0
    out[7] = popcount(rest & cov) / 3.0
    out[8] = popcount(unseen & cov) / 3.0
    out[9] = double * popcount(rest & new) / 3.0
    out[10] = popcount(rest & old) / 3.0
    out[11] = popcount(unseen & old) / 3.0
    out[12] = pips(rest) / 40.0
    out[13] = popcount(rest) / 7.0
    out[14] = popcount(rest & DOUBLES_MASK) / 2.0
    for k in range(3):
        lacked = voids >> (7 * k) & 127
        out[15 + k] = ((lacked >> exposed & 1) + (lacked >> other & 1)) / 2.0
    out[18] = popcount(new & after) / 6.0
    stuck = (unseen & fits) == 0
    out[19] = 1.0 if stuck and (rest & fits) == 0 else 0.0
    out[20] = fewest / 7.0
    out[21] = 1.0 if stuck else 0.0
    out[22] = float(popcount(rest & new & old))
    out[23] = 1.0 if (rest & fits) == 0 else 0.0
    if out.shape[0] < CHOICE_FEATURES:
        return
    # Equal ends make a play at either one the same move, on the right (C7).
    code = 2 * bit + (on_left if left != right else 0)
    keeping = keeping_code(hand, left, right, CHOICE_KEEP, 0)
    out[24] = 1.0 if keeping == code else 0.0
    out[25] = (
        _keeping_score(hand, left, right, keeping) - _keeping_score(hand, left, right, code)
    ) / 12.0
    fitting = hand & (NUM_A[left] | NUM_A[right])
    heavier = 0
    heaviest = 0
    while fitting:
        b = top_bit(fitting)
        fitting &= ~(1 << b)
        heaviest = max(heaviest, SUM_A[b])
        if SUM_A[b] > SUM_A[bit]:
            heavier += 1
    out[26] = (heaviest - SUM_A[bit]) / 12.0
    out[27] = heavier / 3.0
    shown = 0
    most = 0
    for number in range(7):
        held = popcount(rest & NUM_A[number])
        if held:
            shown += 1
        most = max(most, held)
    out[28] = shown / 7.0
    out[29] = most / 3.0


@compiled
def _keeping_score(hand: int, left: int, right: int, code: int) -> int:
    """The keeping score (`keeping_code`'s, a kept tile worth `CHOICE_KEEP`) of the play of
    `code` from `hand` on these ends."""
    b = code >> 1
    total = int(SUM_A[b])
    on_left = code & 1
    shown = NUM_A[total - left] | NUM_A[right] if on_left else NUM_A[left] | NUM_A[total - right]
    return total + CHOICE_KEEP * popcount(hand & ~(1 << b) & int(shown))


@compiled
def choice_score(
    features: Floats,
    mean: Floats,
    spread: Floats,
    hidden: Floats,
    bias: Floats,
    outer: Floats,
    direct: Floats,
    sums: Floats,
) -> float:
    """The model's score of one play: a layer of tanh units over the standardised features,
    plus a linear part (`features` are standardised in place: score a row once; `sums` is
    room for the units' inputs). Each unit's input adds the features in order, so the
    contiguous rows of `hidden` are read once without changing a single rounding."""
    score = 0.0
    units = hidden.shape[1]
    for u in range(units):
        sums[u] = bias[u]
    for f in range(mean.shape[0]):
        x = (features[f] - mean[f]) / spread[f]
        features[f] = x
        score += direct[f] * x
        for u in range(units):
            sums[u] += x * hidden[f, u]
    for u in range(units):
        score += outer[u] * np.tanh(sums[u])
    return score


@compiled
def choice_options(
    hand: int,
    played: int,
    left: int,
    right: int,
    voids: int,
    fewest: int,
    features: Floats,
    plays: Ints,
) -> int:
    """How many plays `hand` has on the ends `left`, `right` (the heaviest tile first, the right
    end first; equal ends are one move, on the right, C7); each play's (bit, 1 if at the left)
    into `plays` and its `choice_features` into the row of `features` of the same index."""
    fit = hand & (NUM_A[left] | NUM_A[right])
    count = 0
    while fit:
        bit = top_bit(fit)
        fit &= ~(1 << bit)
        for on_left in range(2):
            number = left if on_left else right
            if not (NUM_A[number] >> bit & 1) or (on_left and left == right):
                continue
            choice_features(hand, played, left, right, bit, on_left, voids, fewest, features[count])
            plays[count, 0] = bit
            plays[count, 1] = on_left
            count += 1
    return count


@compiled
def choice_log_likelihoods(
    hands: Ints,
    discs: Ints,
    evidence: Ints,
    mean: Floats,
    spread: Floats,
    hidden: Floats,
    bias: Floats,
    outer: Floats,
    direct: Floats,
    out: Floats,
) -> None:
    """Into `out[row]`, the log-likelihood of every recorded play in `evidence` (rows of
    `EVIDENCE_FIELDS`) had the seats held deal `row`'s hands: each play among the fitting plays
    of the hand then, with odds exp(`choice_score`). A play with no other choice in that hand
    says nothing."""
    wide = mean.shape[0] > BASE_CHOICE_FEATURES
    width = CHOICE_FEATURES if wide else BASE_CHOICE_FEATURES
    features = np.empty((2 * TILE_COUNT, width), dtype=np.float64)
    plays = np.empty((2 * TILE_COUNT, 2), dtype=np.int64)
    scores = np.empty(2 * TILE_COUNT, dtype=np.float64)
    sums = np.empty(hidden.shape[1], dtype=np.float64)
    for row in range(hands.shape[0]):
        total = 0.0
        for e in range(evidence.shape[0]):
            seat = evidence[e, 0]
            hand = hands[row, seat] | evidence[e, 1]
            if evidence[e, 2]:
                hand |= discs[row, seat]
            count = choice_options(
                hand,
                evidence[e, 3],
                evidence[e, 4],
                evidence[e, 5],
                evidence[e, 8],
                evidence[e, 9],
                features,
                plays,
            )
            if count < 2:
                continue
            mine = -1
            for k in range(count):
                if plays[k, 0] == evidence[e, 6] and plays[k, 1] == evidence[e, 7]:
                    mine = k
            if mine < 0:
                continue
            for k in range(count):
                scores[k] = choice_score(
                    features[k], mean, spread, hidden, bias, outer, direct, sums
                )
            top = scores[0]
            for k in range(1, count):
                top = max(top, scores[k])
            norm = 0.0
            for k in range(count):
                norm += np.exp(scores[k] - top)
            total += scores[mine] - top - np.log(norm)
        out[row] = total


def no_values() -> tuple[Floats, Floats, Floats, Floats]:
    """Learned value arrays for a search that does not use them (empty, of the right shapes)."""
    return (
        np.zeros((VALUE_FEATURES, 0), dtype=np.float64),
        np.zeros(0, dtype=np.float64),
        np.zeros((0, 2 * VALUE_SEATS), dtype=np.float64),
        np.zeros(2 * VALUE_SEATS, dtype=np.float64),
    )


def warm_up() -> None:
    """Every compiled function the levels use loaded (from numba's cache, else compiled) by a
    tiny call, so a computer process's first decision does not pay for it (hard weighs its
    deals by the learned model of play at four classic seats)."""
    seats = 2
    hands = np.array([[0b11, 0b1100]], dtype=np.int64)
    points = np.zeros((1, seats), dtype=np.int64)
    ends = np.array([0], dtype=np.int64)
    play_outs(GREEDY, 0, True, False, hands, np.zeros_like(hands), ends, ends, ends, 1, points)
    empty = np.zeros((0, seats), dtype=np.int64)
    judge(
        np.array([seats, 1, 0, 0, 0, 0, GREEDY, 0, MATCH, 100, 0b1100], dtype=np.int64),
        np.array([0b11, 0], dtype=np.int64),
        np.zeros(seats, dtype=np.int64),
        np.array([[2, 0b1100, 0, 1]], dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        np.array([0], dtype=np.int64),
        empty,
        empty,
        np.zeros(0, dtype=np.float64),
        np.zeros((0, 2), dtype=np.int64),
        1.0,
        np.array([[PLAY, 0, 0], [PLAY, 1, 0]], dtype=np.int64),
        np.array([0, 1], dtype=np.int64),
        1,
        np.zeros(seats, dtype=np.int64),
        np.array([200.0, 0.0], dtype=np.float64),
        np.array([1], dtype=np.int64),
        np.zeros((1, 2), dtype=np.float64),
        np.zeros(1, dtype=np.float64),
    )
    links = np.zeros((6, 4), dtype=np.int64)
    links[FIRST_CHILD] = -1
    links[NEXT_SIBLING] = -1
    search(
        np.array([seats, 1, 0, 0, 0, 0, KEEPING, 3, 100, 1, 0, -1, 0], dtype=np.int64),
        np.array([0], dtype=np.int64),
        np.array([[0b11, 0b1100]], dtype=np.int64),
        np.zeros((1, seats), dtype=np.int64),
        np.array([1.0], dtype=np.float64),
        np.zeros(seats, dtype=np.int64),
        np.array([200.0, 40.0, 40.0, 50.0, 0.0], dtype=np.float64),
        2,
        3.0,
        50.0,
        np.array([1], dtype=np.int64),
        links,
        np.zeros(4, dtype=np.float64),
        1,
        *no_values(),
    )
    units = 1
    choice_log_likelihoods(
        np.array([[0b11, 0b1100]], dtype=np.int64),
        np.zeros((1, seats), dtype=np.int64),
        np.array([[1, 0, 0, 0, 0, 1, 2, 0, 0, 7, 0]], dtype=np.int64),
        np.zeros(CHOICE_FEATURES, dtype=np.float64),
        np.ones(CHOICE_FEATURES, dtype=np.float64),
        np.zeros((CHOICE_FEATURES, units), dtype=np.float64),
        np.zeros(units, dtype=np.float64),
        np.zeros(units, dtype=np.float64),
        np.zeros(CHOICE_FEATURES, dtype=np.float64),
        np.zeros(1, dtype=np.float64),
    )
