"""A sign-in opens the table Telegram signed: the initData's start parameter, when it has one,
wins over the page's own word, and a page that names another table beside it is refused."""

from __future__ import annotations

from gaple_bot.service.views import Person
from tests.clock import TestClock

from .kit import PageServer, init_data, open_group_table

ANA = Person(41, "Ana", "en")
BEA = Person(42, "Bea", "en")
OTHER_GROUP = -100600


async def another_groups_table(server: PageServer, opener: Person) -> str:
    """A table opened by `opener` in another group: its page token."""
    service = server.service
    await service.players.private_chat_opened(opener)
    gap = service.registry.get("gap")
    lobby = await service.lobbies.open(gap, OTHER_GROUP, "Another group", None, opener)
    assert lobby.join_token is not None
    return lobby.join_token


async def test_a_table_other_than_the_signed_start_parameter_is_refused(
    server: PageServer, clock: TestClock
) -> None:
    _first, signed = await open_group_table(server.service, "gaple", ANA)
    other = await another_groups_table(server, BEA)
    server.members.of_group |= {ANA.user_id, BEA.user_id}
    init = init_data(ANA.user_id, "Ana", start=signed, signed_at=clock())
    status, answer = await server.sign_in(init, other)
    assert (status, answer["reason"]) == (403, "other_table")
    assert "open it again from the chat" in answer["text"]
    # Refused before Telegram is asked about anyone's membership.
    assert server.members.asked == 0


async def test_a_table_the_same_as_the_signed_start_parameter_opens_it(
    server: PageServer, clock: TestClock
) -> None:
    game_id, token = await open_group_table(server.service, "gaple", ANA)
    server.members.of_group.add(ANA.user_id)
    init = init_data(ANA.user_id, "Ana", start=token, signed_at=clock())
    status, answer = await server.sign_in(init, token)
    assert (status, answer["game_id"]) == (200, game_id)


async def test_without_a_start_parameter_the_page_names_the_table(
    server: PageServer, clock: TestClock
) -> None:
    """A private chat's web_app button: Telegram signs no start parameter, the page's address
    carries the table, and the membership check still guards it."""
    game_id, token = await open_group_table(server.service, "gaple", ANA)
    server.members.of_group.add(ANA.user_id)
    status, answer = await server.sign_in(init_data(ANA.user_id, "Ana", signed_at=clock()), token)
    assert (status, answer["game_id"]) == (200, game_id)


async def test_the_next_table_of_the_signed_ones_group_opens(
    server: PageServer, clock: TestClock
) -> None:
    """A page that followed its table to the group's next one (Play again) keeps the initData
    of the link it was opened with: that table opens, as the group's table it is."""
    first_id, signed = await open_group_table(server.service, "gaple", ANA)
    await server.service.commands.cancel(first_id, ANA.user_id, False)
    next_id, next_token = await open_group_table(server.service, "gap", ANA)
    server.members.of_group.add(ANA.user_id)
    init = init_data(ANA.user_id, "Ana", start=signed, signed_at=clock())
    status, answer = await server.sign_in(init, next_token)
    assert (status, answer["game_id"]) == (200, next_id)
