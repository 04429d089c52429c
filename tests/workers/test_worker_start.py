"""A worker that starts beside a live one: the games are the live worker's to show, so the
newcomer posts nothing in the groups (after a restart of the only worker, it resumes them)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from telegram import Update

from gaple_bot.bot.callback_data import Action, decode
from gaple_bot.bot.deps import GapleApplication
from tests.bot.driver import legal_buttons, turn_message
from tests.bot.harness import GROUP, GROUP_TITLE, lobby_message, running_bot
from tests.fakes.telegram_server import GROUP_WRITE_METHODS, FakeTelegram, running_fake

ANA, BUDI = 1401, 1402


async def test_a_second_worker_does_not_show_the_games_again(postgres_url: str) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(fake, postgres_url, worker=True):
            await fake.start_private(ANA)
            await fake.send_message(ANA, GROUP, "/gaple")
            await fake.wait_idle()
            lobby = lobby_message(fake).message_id
            writes = _attempts(fake)
            async with running_bot(fake, postgres_url, seed=2, poll=False, worker=True):
                await fake.wait_idle()
                assert _attempts(fake) == writes
            assert lobby_message(fake).message_id == lobby
        # The only worker starting again resumes the lobby: it edits its message.
        async with running_bot(fake, postgres_url, seed=3, worker=True):
            await fake.wait_idle()
            assert _attempts(fake) > writes
            assert lobby_message(fake).message_id == lobby


def _attempts(fake: FakeTelegram) -> int:
    """The group sends and edits the bot asked for, accepted or not (an edit to what the
    message shows already is refused, and still shows the bot tried to resume it)."""
    return sum(1 for r in fake.requests if r.chat_id == GROUP and r.method in GROUP_WRITE_METHODS)


@asynccontextmanager
async def _two_workers(
    url: str,
) -> AsyncIterator[tuple[FakeTelegram, GapleApplication, GapleApplication]]:
    """Ana and Budi in the group, and two bots on one database, neither polling: the test
    hands each update to the worker it picks."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(BUDI, "Budi", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with (
            running_bot(fake, url, poll=False, worker=True) as first,
            running_bot(fake, url, seed=2, poll=False, worker=True) as second,
        ):
            yield fake, first, second


async def _hand_to(app: GapleApplication, fake: FakeTelegram) -> None:
    """Give the worker the updates waiting at the fake, as the webhook's balancer would."""
    for data in fake.take_updates():
        update = Update.de_json(data, app.bot)
        assert update is not None
        await app.update_queue.put(update)
    await fake.wait_idle()


async def test_a_worker_that_did_not_post_the_lobby_edits_it(postgres_url: str) -> None:
    """Budi's tap reaches the worker that never showed the lobby: it edits the stored lobby
    message rather than posting a second one."""
    async with _two_workers(postgres_url) as (fake, first, second):
        await fake.start_private(ANA)
        await fake.send_message(ANA, GROUP, "/gaple")
        await _hand_to(first, fake)
        lobby = lobby_message(fake).message_id
        await fake.start_private(BUDI)
        await fake.press_button(BUDI, GROUP, lobby, "✋ Join")
        await _hand_to(second, fake)
        assert "Budi" in (fake.message(GROUP, lobby).text or "")
        assert [m.message_id for m in fake.bot_messages(GROUP)] == [lobby]


async def test_a_worker_that_did_not_send_the_turn_message_retires_it(postgres_url: str) -> None:
    """Ana's turn message came from one worker and her tap reaches the other: the message
    tapped loses its buttons all the same, and her next turn comes as a new message."""
    async with _two_workers(postgres_url) as (fake, first, second):
        await fake.start_private(ANA)
        await fake.send_message(ANA, GROUP, "/gaple")
        await _hand_to(first, fake)
        await fake.press_button(ANA, GROUP, lobby_message(fake).message_id, "▶️ Start")
        await _hand_to(first, fake)
        turn = turn_message(fake, ANA)
        assert turn is not None
        _label, data = legal_buttons(turn)[0]
        await fake.press(ANA, ANA, turn.message_id, data)
        await _hand_to(second, fake)
        if decode(data).action is Action.PICK:  # she is asked which end: she picks one
            _label, end = legal_buttons(fake.message(ANA, turn.message_id))[0]
            await fake.press(ANA, ANA, turn.message_id, end)
            await _hand_to(second, fake)
        assert not fake.message(ANA, turn.message_id).buttons()
