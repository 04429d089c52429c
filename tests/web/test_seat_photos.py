"""Each seat shows its person's Telegram photo once they have the table's page open: the
photo_url their initData carries, kept in their session across reconnects; none from
anywhere but Telegram's own address, none for a person who never opened the page."""

from __future__ import annotations

from gaple_bot.service.views import Person
from tests.clock import TestClock

from .kit import JSON, Page, PageServer, init_data, open_group_table

ANA = Person(31, "Ana", "en")
BEA = Person(32, "Bea", "en")
CID = Person(33, "Cid", "en")
BEA_PHOTO = "https://t.me/i/userpic/320/bea.jpg"
ELSEWHERE = "https://pictures.example.org/cid.jpg"


async def page_of(
    server: PageServer, person: Person, token: str, clock: TestClock, photo: str | None
) -> Page:
    init = init_data(person.user_id, person.name, signed_at=clock(), photo=photo)
    status, answer = await server.sign_in(init, token)
    assert status == 200, answer
    return await server.page(answer["session"])


def photos(state: JSON) -> dict[str, str | None]:
    return {seat["name"]: seat["photo"] for seat in state["seats"]}


async def test_a_seat_shows_the_photo_telegram_gave_its_person(
    server: PageServer, clock: TestClock
) -> None:
    game_id, token = await open_group_table(server.service, "gaple", ANA)
    server.members.of_group |= {ANA.user_id, BEA.user_id, CID.user_id}
    bea = await page_of(server, BEA, token, clock, BEA_PHOTO)
    await bea.next("state")
    await bea.send({"t": "join"})
    await bea.next("state", lambda f: len(f["seats"]) == 2)
    cid = await page_of(server, CID, token, clock, ELSEWHERE)
    await cid.next("state")
    await cid.send({"t": "join"})
    joined = await cid.next("state", lambda f: len(f["seats"]) == 3)
    # Ana plays in the chat (no page, no photo); Cid's is not Telegram's: not shown.
    assert photos(joined) == {"Ana": None, "Bea": BEA_PHOTO, "Cid": None}

    await server.service.commands.start(game_id, ANA.user_id, False)
    playing = await cid.next("state", lambda f: f["phase"] == "playing")
    assert photos(playing)["Bea"] == BEA_PHOTO

    # A new socket with the session the page was given keeps the photo.
    session = next(f for f in bea.frames if f["t"] == "welcome")["session"]
    await bea.close()
    again = await server.page(session)
    state = await again.next("state")
    assert photos(state)["Bea"] == BEA_PHOTO
    await again.close()
    await cid.close()
