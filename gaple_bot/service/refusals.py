"""Short messages for the service's refusals, in the reader's language (every front end's)."""

from __future__ import annotations

from ..i18n import Translator
from . import errors


def refusal_text(t: Translator, error: errors.ServiceError) -> str:
    """One short sentence saying why the request was refused (fits a 200-character alert)."""
    if isinstance(error, errors.NoSuchGame):
        return t.gettext("This game no longer exists.")
    if isinstance(error, errors.GameAlreadyOpen):
        return t.gettext("A game is already open here.")
    if isinstance(error, errors.BadInvite):
        return t.gettext("This join link is not valid.")
    if isinstance(error, errors.NotInLobby):
        return t.gettext("This table has already started or closed.")
    if isinstance(error, errors.AlreadySeated):
        return t.gettext("You are already at this table.")
    if isinstance(error, errors.TableFull):
        return t.gettext("This table is full.")
    if isinstance(error, errors.NotSeated):
        return t.gettext("You are not at this table.")
    if isinstance(error, errors.NotAllowed):
        return t.gettext("Only whoever opened the table, or a group admin, can do that.")
    if isinstance(error, errors.NeedsAPerson):
        return t.gettext("Someone has to join before the game can start.")
    if isinstance(error, errors.NeedsMorePlayers):
        return t.ngettext(
            "This game needs at least {n} player: computers do not fill seats in this chat.",
            "This game needs at least {n} players: computers do not fill seats in this chat.",
            error.least,
        ).format(n=error.least)
    if isinstance(error, errors.PrivateChatNeeded):
        return t.gettext("Open a private chat with me first: that is where your hand goes.")
    if isinstance(error, errors.StaleButton):
        return t.gettext("That button is out of date.")
    if isinstance(error, errors.NotYourTurn):
        return t.gettext("It is not your turn.")
    if isinstance(error, errors.GameNotRunning):
        return t.gettext("This game is not being played.")
    if isinstance(error, errors.GamePaused):
        return t.gettext("⏸ The game is paused until I may write in the group again.")
    if isinstance(error, errors.BadSetting):
        return t.gettext("That setting does not exist.")
    if isinstance(error, errors.BetweenRounds):
        return t.gettext("The next round begins in a moment.")
    if isinstance(error, errors.NoRoundBreak):
        return t.gettext("The next round has already begun.")
    return t.gettext("That did not work.")
