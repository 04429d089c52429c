"""The outbox when the group changes under it: a message deleted, the right to write lost."""

from __future__ import annotations

from telegram import Message

from gaple_bot.bot.outbox import open_outbox
from tests.bot.harness import GROUP, GROUP_TITLE
from tests.fakes.telegram_server import running_fake

ANA = 1301


async def test_an_edit_of_a_deleted_message_sends_it_afresh() -> None:
    async with running_fake(group_limit_per_minute=1000) as fake, fake.make_bot() as bot:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        sent: list[int] = []

        async def remember(message: Message) -> None:
            sent.append(message.message_id)

        outbox = open_outbox(bot, 1000)
        handle = outbox.send(GROUP, on_sent=remember, text="table v1")
        first = await handle.wait()
        assert first is not None
        fake.delete_message(GROUP, first)
        outbox.edit(handle, text="table v2")
        await outbox.drain()
        # A fresh message with the change, and its id remembered like the first one.
        assert [m.text for m in fake.bot_messages(GROUP)] == ["table v2"]
        assert sent == [first, fake.bot_messages(GROUP)[0].message_id]
        assert handle.message_id == sent[-1]
        outbox.edit(handle, text="table v3")
        await outbox.drain()
        assert [m.text for m in fake.bot_messages(GROUP)] == ["table v3"]


async def test_an_existing_message_that_is_gone_is_sent_afresh_in_its_topic() -> None:
    async with running_fake(group_limit_per_minute=1000) as fake, fake.make_bot() as bot:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), forum=True)
        topic = fake.add_topic(GROUP, "Gaple")
        old = await bot.send_message(GROUP, "table before the restart", message_thread_id=topic)
        fake.delete_message(GROUP, old.message_id)
        sent: list[int] = []

        async def remember(message: Message) -> None:
            sent.append(message.message_id)

        outbox = open_outbox(bot, 1000)
        handle = outbox.existing(GROUP, old.message_id, thread_id=topic, on_sent=remember)
        outbox.edit(handle, text="table after the restart")
        await outbox.drain()
        [fresh] = fake.bot_messages(GROUP, topic)
        assert fresh.text == "table after the restart"
        assert sent == [fresh.message_id]


async def test_the_unwritable_hook_runs_once_until_the_group_is_writable_again() -> None:
    async with running_fake(group_limit_per_minute=1000) as fake, fake.make_bot() as bot:
        fake.add_user(ANA, "Ana")
        chat = fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        called: list[int] = []

        async def unwritable(chat_id: int) -> None:
            called.append(chat_id)

        outbox = open_outbox(bot, 1000, on_unwritable=unwritable)
        fake.kick_bot(GROUP)
        for n in range(3):
            outbox.send(GROUP, text=f"lost {n}")
        await outbox.drain()
        await fake.wait_for(lambda: not outbox.busy, message="the hook did not finish")
        assert called == [GROUP]
        assert fake.bot_messages(GROUP) == []

        # Back in the group: a send succeeds, and a later loss of rights is reported again.
        chat.bot_status = "member"
        outbox.send(GROUP, text="back")
        await outbox.drain()
        fake.fail_next(
            "sendMessage",
            400,
            "Bad Request: not enough rights to send text messages to the chat",
            chat_id=GROUP,
        )
        outbox.send(GROUP, text="muted")
        outbox.send(GROUP, text="heard")
        await outbox.drain()
        await fake.wait_for(lambda: not outbox.busy, message="the hook did not finish")
        assert called == [GROUP, GROUP]
        assert [m.text for m in fake.bot_messages(GROUP)] == ["back", "heard"]
