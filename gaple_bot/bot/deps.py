"""What every handler needs, created once in post_init and reached through the context."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from telegram.ext import Application, CallbackContext, ExtBot

from ..i18n import Translators
from ..service.runtime import GameService
from ..settings import Settings
from .outbox import GroupOutbox

if TYPE_CHECKING:
    from .doors import Membership
    from .present import Presenter

DEPS_KEY = "deps"


@dataclass
class Deps:
    """The bot's services: settings, the game service, translators, the group outbox, and who
    belongs to which group."""

    settings: Settings
    service: GameService
    translators: Translators
    outbox: GroupOutbox
    presenter: Presenter
    bot_username: str
    members: Membership


class GapleContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """The handlers' context, with typed access to the bot's services."""

    @property
    def deps(self) -> Deps:
        """The services created at start-up."""
        deps = self.application.bot_data[DEPS_KEY]
        assert isinstance(deps, Deps)
        return deps


GapleApplication = Application[Any, GapleContext, Any, Any, Any, Any]
