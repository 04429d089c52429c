"""What every handler needs, created once in post_init and reached through the context."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from telegram.ext import Application, CallbackContext, ExtBot

from ..i18n import Translators
from ..service.runtime import GameService
from ..settings import Settings
from .outbox import GroupOutbox

if TYPE_CHECKING:
    from .apply import ChatOutcomes
    from .doors import Membership
    from .present import Presenter
    from .review_requests import ReviewRequests

DEPS_KEY = "deps"
SERVER_KEY = "server"
"""bot_data key of the BotServer, once the services are up."""
TENANCY_LOST_KEY = "tenancy_lost"
"""bot_data key set when the process lost its hold on the database (it stops, then fails)."""


@dataclass
class Deps:
    """The bot's services: settings, the game service, translators, the group outbox, who
    belongs to which group, and the clock."""

    settings: Settings
    service: GameService
    translators: Translators
    outbox: GroupOutbox
    presenter: Presenter
    bot_username: str
    members: Membership
    clock: Callable[[], datetime]
    """The time of deadlines, lobby expiry and the sweep (the service's clock)."""
    outcomes: ChatOutcomes = field(init=False)
    """Applies the service's outcomes in chat (set once the job queue exists)."""
    review_requests: ReviewRequests = field(init=False)
    """The /review commands waiting for their review (set with the outcomes)."""


class GapleContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """The handlers' context, with typed access to the bot's services."""

    @property
    def deps(self) -> Deps:
        """The services created at start-up."""
        deps = self.application.bot_data[DEPS_KEY]
        assert isinstance(deps, Deps)
        return deps


GapleApplication = Application[Any, GapleContext, Any, Any, Any, Any]
