"""The page's own words, in the viewer's language: the shell's buttons and its refusals."""

from __future__ import annotations

from ..i18n import Translator


def shell_texts(t: Translator) -> dict[str, str]:
    """The words the page's shell shows around the game's own drawing."""
    return {
        "join": t.gettext("Join"),
        "leave": t.gettext("Leave"),
        "start": t.gettext("Start"),
        "again": t.gettext("Play again"),
        "your_turn": t.gettext("Your turn"),
        "waiting": t.gettext("Waiting for {name}"),
        "spectating": t.gettext("You are watching this table."),
        "back": t.gettext("Back"),
        "left": t.gettext("{seconds} s left"),
        "reconnecting": t.gettext("Reconnecting…"),
        # Local play's server was stopped (Ctrl+C): nothing to reconnect to.
        "closed": t.gettext("The table closed: its server was stopped."),
        "computer": t.gettext("computer"),
        "autoplay": t.gettext("the computer plays for them"),
        "score": t.gettext("{points} pts"),
        "lobby": t.gettext("Waiting for players"),
        "over": t.gettext("Game over"),
        "stopped": t.gettext("This game was stopped."),
        "seat_back": t.gettext("🙋 Take my seat back"),
        # The break after a round: its countdown, and Next (everyone's Next deals at once).
        "next": t.gettext("Next"),
        "ready": t.gettext("Ready ✓"),
        "break": t.gettext("Next round in {seconds} s"),
        "share": t.gettext("Share"),
        # A seat's tiles or cards face down, for screen readers.
        "in_hand": t.gettext("{count} in hand"),
        # Gaple: the pips left in a hand at a round's end; the page picks the form by the
        # language's plural rule ("one" or any other).
        "pips_one": t.ngettext("{count} pip", "{count} pips", 1),
        "pips_other": t.ngettext("{count} pip", "{count} pips", 2),
        # Gap: under a card whose move takes nothing, where the card goes.
        "to_middle": t.gettext("to the middle"),
    }


def page_refusal(t: Translator, reason: str) -> str:
    """One short sentence for a refusal that is the page's own (not the service's)."""
    texts = {
        "init_data": t.gettext(
            "Telegram did not vouch for this page: open it again from the chat."
        ),
        # The page names a table Telegram did not sign: only the chat's own link opens it.
        "other_table": t.gettext(
            "Telegram did not vouch for this page: open it again from the chat."
        ),
        "session": t.gettext("This page has been open too long: open it again from the chat."),
        "not_member": t.gettext("Only members of the group can open its table."),
        "no_table": t.gettext("This table does not exist, or its game is over."),
        "spectator": t.gettext("You are watching: only players at the table can do that."),
        "frame": t.gettext("The page sent something the table does not understand."),
        "flood": t.gettext("Too fast: wait a moment."),
    }
    return texts.get(reason, t.gettext("That did not work."))
