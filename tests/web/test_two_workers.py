"""Beside another worker on PostgreSQL: a change made through one worker's page reaches the
pages another worker holds (LISTEN/NOTIFY), and the reverse."""

from __future__ import annotations

from tests.clock import TestClock

from .kit import first_move, page_server


async def test_a_move_made_on_one_worker_reaches_the_page_another_holds(postgres_url: str) -> None:
    clock = TestClock(frozen=True)
    async with page_server(postgres_url, clock) as one, page_server(postgres_url, clock) as two:
        assert one.service.shared and two.service.shared
        opened = await one.open_local("gaple")
        here = await one.page(opened["session"])
        # The same person's page on the other worker (every worker accepts every session).
        there = await two.page(opened["session"])
        state = await here.next("state")
        assert (await there.next("state"))["revision"] == state["revision"]
        for page, other in ((here, there), (there, here)):
            move = first_move(state)
            assert move is not None
            version, code = move
            await page.send({"t": "move", "version": version, "code": code})
            mine = await page.next("state", lambda f, v=version: f["revision"] > v)
            theirs = await other.next("state", lambda f, r=mine["revision"]: f["revision"] >= r)
            assert theirs["revision"] == mine["revision"]
            assert theirs["hand"] == mine["hand"]
            state = mine
