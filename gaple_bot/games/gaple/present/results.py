"""A round's end for the group: every hand revealed, the points and the totals."""

from __future__ import annotations

from ....i18n import Translator
from ...texts import seat_name, totals_line
from ...views import GameMessage, RoundReveal
from ..board import GapleBoard, GapleHand
from ..rules import EndReason, RoundEnded, RuleSet, pips
from .tiles import hand_text


def render_round_end(t: Translator, reveal: RoundReveal[GapleBoard, GapleHand]) -> GameMessage:
    """The round's winner and how, every hand with its pips, the points and the totals."""
    table = reveal.table
    result = table.board.result
    assert result is not None
    winner = seat_name(t, table.seats[result.winner], table.seats)
    # C10/D5: the seat whose move ended the round (under D6 it need not be the winner).
    mover = next(
        (e.seat for e in reversed(table.board.events) if not isinstance(e, RoundEnded)),
        result.winner,
    )
    went_out = seat_name(t, table.seats[mover], table.seats)
    if result.reason is EndReason.GAPLE:
        head = t.gettext("🏁 Round {round}: <b>{name}</b> played their last tile. Gaple!")
        lines = [head.format(round=table.round_number, name=went_out)]
    elif result.reason is EndReason.BLOCKED:
        head = t.gettext(
            "🏁 Round {round}: the line is blocked. <b>{name}</b> has the lowest count."
        )
        lines = [head.format(round=table.round_number, name=winner)]
    else:
        head = t.gettext("🏁 Round {round}: <b>{name}</b> discarded their last tile.")
        lines = [head.format(round=table.round_number, name=went_out)]
    if table.board.config.rule_set is RuleSet.DISCARDS:
        lines.append(
            t.gettext("<b>{name}</b> wins the round with the lowest count.").format(name=winner)
        )
    lines.append("")
    for seat in table.seats:
        shown = reveal.seats[seat.number]
        row = t.gettext("{name}: {tiles} = {pips}").format(
            name=seat_name(t, seat, table.seats),
            tiles=hand_text(shown.hand),
            pips=pips(shown.hand),
        )
        lines.append(row)
        if shown.discards:
            discarded = t.gettext("discarded: {tiles} = {pips}").format(
                tiles=hand_text(shown.discards), pips=pips(shown.discards)
            )
            lines.append("   " + discarded)
    lines.append("")
    scored = [
        t.gettext("{name} +{points}").format(
            name=seat_name(t, s, table.seats), points=result.points[s.number]
        )
        for s in table.seats
        if result.points[s.number]
    ]
    if scored:
        lines.append(t.gettext("Points: {list}").format(list=", ".join(scored)))
    else:
        lines.append(t.gettext("Nobody scores this round."))
    lines.append(totals_line(t, table))
    return GameMessage("\n".join(lines))
