"""The replay's and the review's words in the page, in the viewer's language (added to the
shell's texts), and the refusals that are the replay's own."""

from __future__ import annotations

from ..i18n import Translator
from .texts import page_refusal

MARKS = ("best", "good", "inaccuracy", "mistake", "blunder")
"""A reviewed move's marks, from the best to the worst (the review's own names)."""


def replay_texts(t: Translator) -> dict[str, str]:
    """The words of the replay's view and of the review, as the page shows them."""
    return {
        "replay": t.gettext("📼 Replay"),
        "replay_title": t.gettext("Replay · {title}"),
        "play": t.gettext("Play"),
        "pause": t.gettext("Pause"),
        "prev_move": t.gettext("Previous move"),
        "next_move": t.gettext("Next move"),
        "prev_round": t.gettext("Previous round"),
        "next_round": t.gettext("Next round"),
        # The replay's ⏭ on the last round: it goes to the game's end and its review.
        "game_end": t.gettext("The game's end"),
        "position": t.gettext("Position in the round"),
        "round_of": t.gettext("Round {round} of {rounds}"),
        "move_of": t.gettext("Move {ply} of {moves}"),
        # Position 0 of a round: the hands as dealt, before the first move.
        "dealt": t.gettext("Dealt"),
        "moves": t.gettext("Moves"),
        "close": t.gettext("Close"),
        # The game's totals after its last round: "Ana 104 · Budi 87" ({totals}).
        "totals": t.gettext("Totals after round {round}: {totals}"),
        # A move of the replay: who made it and the move's name ("Ana: 🟥8").
        "played": t.pgettext("replay", "{name}: {move}"),
        "mark_best": t.gettext("Best"),
        "mark_good": t.gettext("Good"),
        "mark_inaccuracy": t.gettext("Inaccuracy"),
        "mark_mistake": t.gettext("Mistake"),
        "mark_blunder": t.gettext("Blunder"),
        # What a move cost against the best, in points (one decimal).
        "loss": t.gettext("{loss} pts lost"),
        "better": t.gettext("Better: {move}"),
        "preparing": t.gettext("The review is being prepared…"),
        "reviews_off": t.gettext("This bot does not review games: its host turned reviews off."),
        "review": t.gettext("Review"),
        "accuracy": t.gettext("Accuracy {accuracy}"),
        "average_loss": t.gettext("{loss} pts lost per decision"),
        # A count's two forms, as the language says one and several (the page picks by
        # Intl.PluralRules: French counts 0 as one).
        "decisions_one": t.ngettext("{count} decision", "{count} decisions", 1),
        "decisions": t.ngettext("{count} decision", "{count} decisions", 2),
        "worst": t.gettext("Biggest mistake: round {round}, move {ply}, {move}, {loss} pts lost"),
        "no_worst": t.gettext("No mistake"),
    }


def replay_refusal(t: Translator, reason: str) -> str:
    """One short sentence for a refused replay (the sign-in's own refusals as the table's)."""
    texts = {
        "no_replay": t.gettext("This replay does not exist."),
        "not_member": t.gettext("Only members of the group can watch its games again."),
        "not_over": t.gettext("The replay opens once the game is over."),
        "no_round": t.gettext("This round was not played to its end."),
    }
    return texts.get(reason) or page_refusal(t, reason)
