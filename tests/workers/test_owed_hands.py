"""Three workers on one PostgreSQL database: a hand owed by a worker that is gone is taken over
by one live worker only, even by one whose copy of the game still names the worker that died
(which worker owes a hand changes no copy's revision: it is read as stored)."""

from __future__ import annotations

import random

import pytest

from gaple_bot.service.outcome import TurnStarted
from gaple_bot.service.runtime import GameService
from gaple_bot.service.views import Person
from gaple_bot.store import Store

pytestmark = pytest.mark.asyncio

GROUP = -1001
ANA, BUDI = Person(1, "Ana", "id"), Person(2, "Budi", "id")


async def test_a_hand_owed_by_a_worker_that_died_is_taken_over_once(postgres_url: str) -> None:
    died = GameService(Store.open(postgres_url), rng=random.Random(1))
    second = GameService(Store.open(postgres_url), rng=random.Random(2))
    third = GameService(Store.open(postgres_url), rng=random.Random(3))
    try:
        for person in (ANA, BUDI):
            await died.players.private_chat_opened(person)
        kind = died.registry.get("gaple")
        lobby = await died.lobbies.open(kind, GROUP, "Group", None, ANA)
        await died.commands.join(lobby.game_id, BUDI)
        started = await died.commands.start(lobby.game_id, ANA.user_id, False)
        turn = started.first(TurnStarted)
        assert turn is not None
        version = turn.hand.version
        # The third worker read the game while the first one still owed its hand.
        third_facts = await third.commands.facts(lobby.game_id)
        assert third_facts.game_id == lobby.game_id
        await died.close()
        # Gone: the hand it owed is the second worker's to send, once.
        assert await second.hands_owed(second.clock()) == [(lobby.game_id, version)]
        taken = await second.commands.owed_hand(lobby.game_id, version)
        assert taken.first(TurnStarted) is not None
        # The third worker's copy still names the worker that died; the hand is not sent again.
        again = await third.commands.owed_hand(lobby.game_id, version)
        assert again.effects == ()
        assert await third.hands_owed(third.clock()) == []
    finally:
        await second.close()
        await third.close()
