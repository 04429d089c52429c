"""Short messages for the chat's own refusals (and the service's, from the service)."""

from __future__ import annotations

from ..i18n import Translator
from ..service.refusals import refusal_text
from .doors import DoorClosed, NotAMember

__all__ = ["door_text", "refusal_text"]


def door_text(t: Translator, error: DoorClosed) -> str:
    """One short sentence saying why a person or a button may not reach the table."""
    if isinstance(error, NotAMember):
        return t.gettext("Only members of the group can use its table.")
    return t.gettext("That button is not valid.")
