"""A spy on the service's facades: every command's returned outcome, beside every outcome the
feed published, to check that each command publishes exactly the one it returns."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from gaple_bot.service.commands import GameCommands
from gaple_bot.service.feed import Subscription
from gaple_bot.service.outcome import Outcome
from gaple_bot.service.runtime import GameService


class OutcomeSpy:
    """The outcomes the facades returned, in order, and a subscription to the feed."""

    def __init__(self, service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
        self.returned: list[Outcome] = []
        self.feed: Subscription = service.feed.subscribe(length=100_000)
        for facade in (service.commands, service.page_commands):
            monkeypatch.setattr(facade, "_run", self._spying(facade))

    def _spying(
        self, facade: GameCommands
    ) -> Callable[[int, Callable[[], Awaitable[Outcome]]], Awaitable[Outcome]]:
        real = facade._run

        async def run(game_id: int, use_case: Callable[[], Awaitable[Outcome]]) -> Outcome:
            outcome = await real(game_id, use_case)
            self.returned.append(outcome)
            return outcome

        return run

    def published(self) -> list[Outcome]:
        """Every outcome published since the spy began (taken: the next call has the new)."""
        return self.feed.waiting()

    def check_one_each(self) -> list[Outcome]:
        """Every outcome published is one a command returned, each once and in order;
        returns them."""
        published = self.published()
        assert self.feed.missed == 0
        assert [id(o) for o in published] == [id(o) for o in self.returned]
        return published
