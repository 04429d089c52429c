"""Take my seat back, from the page: a player whose seat the computer took (two turns ran out)
plays it again with one frame, with no private chat needed; nobody else can."""

from __future__ import annotations

from gaple_bot.service.views import Person
from tests.clock import TestClock

from .kit import Page, PageServer, init_data, open_group_table

ANA = Person(31, "Ana", "en")
BEA = Person(32, "Bea", "en")
CID = Person(33, "Cid", "en")


async def page_of(server: PageServer, person: Person, token: str, clock: TestClock) -> Page:
    status, answer = await server.sign_in(
        init_data(person.user_id, person.name, signed_at=clock()), token
    )
    assert status == 200, answer
    page = await server.page(answer["session"])
    await page.next("state")
    return page


def own_seat(state: dict[str, object]) -> dict[str, object]:
    seats = state["seats"]
    assert isinstance(seats, list)
    return next(seat for seat in seats if seat["you"])


async def test_a_page_player_takes_their_seat_back_and_no_one_else_can(
    server: PageServer, clock: TestClock
) -> None:
    game_id, token = await open_group_table(server.service, "gaple", ANA)
    server.members.of_group |= {ANA.user_id, BEA.user_id, CID.user_id}
    bea = await page_of(server, BEA, token, clock)
    await bea.send({"t": "join"})
    await bea.next("state", lambda f: len(f["seats"]) == 2)
    await server.service.commands.start(game_id, ANA.user_id, False)
    await server.service.commands.hand_over(game_id, BEA.user_id)
    await bea.next("state", lambda f: f["phase"] == "playing" and own_seat(f)["autoplay"])
    cid = await page_of(server, CID, token, clock)

    # A spectator has no seat to take back; a player who plays their seat has nothing to.
    await cid.send({"t": "back"})
    assert (await cid.next("refused"))["reason"] == "NotSeated"
    await bea.send({"t": "back"})
    await bea.next("state", lambda f: not own_seat(f)["autoplay"])
    seat = (await server.service.commands.facts(game_id)).seat_of(BEA.user_id)
    assert seat is not None and not seat.autoplay
    await bea.send({"t": "back"})
    assert (await bea.next("refused"))["reason"] == "StaleButton"
