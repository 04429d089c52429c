"""The table page on the narrowest phones (360 × 640 and 320 × 568, two or three device pixels
to a CSS pixel), every seat a long name: whole games of Gaple (four seats, classic; five, with
discards) and Gap (six seats) played to their final standings, the review under them, and
nothing of the page, the standings above all, past the screen's right edge or cut off by the
box it sits in, and no sideways scroll; the lobby and each of the viewer's turns on the way
are held to the same."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.async_api import Browser, BrowserContext

from gaple_bot.service.views import Person
from tests.clock import TestClock
from tests.web.kit import GROUP, PageServer, chat_move, init_data, open_group_table
from tests.web.replay_kit import review_of, store_review

from .conftest import STUB, TELEGRAM_SCRIPT
from .group import tap_a_move, turn
from .table import DEADLINE_MS, Table

MAX_TURNS = 1500
OPENER = Person(51, "Maximilian_Alexander_Wolfgang_von_Hohenzollern", "en")
"""Opens the table in the chat and plays there: a long name with no space to break it at."""
OTHERS = [
    Person(53, "😀😃😄😁😆😅🤣😂🙂🙃😉😊😇🥰😍🤩😘😗", "en"),
    Person(54, "Muhammad Rizky Pratama Putra Wijaya Kusuma", "id"),
    Person(55, "👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦", "en"),
]
"""Join in the chat and play there: emoji, many words, emoji joined into families."""
VIEWER_NAME = "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWW"
"""The page's viewer: the widest letter, thirty times, no space."""
VIEWER_ID = 52


@dataclass(frozen=True)
class Phone:
    width: int
    height: int
    scale: int
    language: str
    """The viewer's language: the page's buttons' words (German's and Indonesian's are long)."""


PHONES = {
    "360x640": Phone(360, 640, 3, "id"),
    "320x568": Phone(320, 568, 2, "de"),
}


@dataclass(frozen=True)
class Game:
    kind: str
    options: dict[str, str]
    people: int
    """Seats of people (the opener, the viewer and the first of OTHERS), besides one
    computer's."""


GAMES = {
    "gaple-classic-4": Game("gaple", {"rules": "classic", "target": "100"}, 3),
    "gaple-discards-5": Game("gaple", {"rules": "discards", "target": "100"}, 4),
    "gap-6": Game("gap", {"target": "30"}, 5),
}

OVERFLOW = """(width) => {
  // Each element and each run of text that shows, as far right as it paints once the boxes
  // that clip it have cut it: past the screen's right edge, cut off by a box that clips it
  // (but a name that box ends with an ellipsis), or out of its seat, row of the standings,
  // step of the podium, button or review.
  const problems = [];
  const describe = (node) =>
    node.nodeType === Node.TEXT_NODE
      ? `"${node.textContent.trim().slice(0, 20)}" in ${describe(node.parentElement)}`
      : [node.tagName.toLowerCase(), ...node.classList].join(".");
  const at = (x) => x.toFixed(1);
  const shown = NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT;
  const walker = document.createTreeWalker(document.body, shown);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeType === Node.TEXT_NODE;
    const element = text ? node.parentElement : node;
    if (element.closest("[hidden], .hidden-text") || !element.getClientRects().length) continue;
    if (text && !node.textContent.trim()) continue;
    let box;
    if (text) {
      const range = document.createRange();
      range.selectNodeContents(node);
      box = range.getBoundingClientRect();
    } else box = node.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    let right = box.right;
    for (let clip = node.parentElement; clip && clip !== document.body; clip = clip.parentElement) {
      const style = getComputedStyle(clip);
      if (style.overflowX === "visible") continue;
      const edge = clip.getBoundingClientRect().left + clip.clientLeft + clip.clientWidth;
      const ellipsis = text && clip === element && style.textOverflow === "ellipsis";
      if (right > edge + 0.5 && !ellipsis) {
        problems.push(`${describe(node)} reaches ${at(right)}, cut off by ${describe(clip)}`
          + ` at ${at(edge)}`);
      }
      right = Math.min(right, edge);
    }
    if (right > width + 0.5) {
      problems.push(`${describe(node)} reaches ${at(right)}, past the screen's edge`);
    }
    const holder = element.closest(".seat, .standing, .step, .act, .review-seat");
    const end = holder && holder !== node ? holder.getBoundingClientRect().right : Infinity;
    if (right > end + 0.5) {
      problems.push(`${describe(node)} reaches ${at(right)}, out of ${describe(holder)}`
        + ` at ${at(end)}`);
    }
  }
  const scrolled = document.scrollingElement.scrollWidth;
  if (scrolled > width) problems.push(`the page scrolls sideways: ${scrolled} px wide`);
  if (innerWidth !== width) problems.push(`the phone zoomed out to ${innerWidth} px to fit it`);
  return problems;
}"""

OpenPhone = Callable[[Phone, str], Awaitable[Table]]


@pytest.fixture
async def open_phone(
    server: PageServer, browser: Browser, clock: TestClock, tmp_path: Path
) -> AsyncIterator[OpenPhone]:
    """Opens the group's table (its page `token`) as the viewer on `phone`, in Telegram's
    Android client; a phone honours the page's meta viewport, so a page too wide for it is
    zoomed out. At the end, the page must have seen no error."""
    contexts: list[BrowserContext] = []
    tables: list[Table] = []

    async def open_one(phone: Phone, token: str) -> Table:
        context = await browser.new_context(
            viewport={"width": phone.width, "height": phone.height},
            device_scale_factor=phone.scale,
            is_mobile=True,
            has_touch=True,
            locale="en-US",
            timezone_id="UTC",
            service_workers="block",
        )
        contexts.append(context)
        signed = init_data(
            VIEWER_ID, VIEWER_NAME, start=token, signed_at=clock(), language=phone.language
        )
        stub = STUB.replace("INIT_DATA", json.dumps(signed)).replace(
            "TG_PLATFORM", json.dumps("android")
        )
        await context.route(
            TELEGRAM_SCRIPT,
            lambda route: route.fulfill(
                status=200, content_type="text/javascript; charset=utf-8", body=stub
            ),
        )
        table = Table(await context.new_page(), "light", tmp_path / f"page-{len(tables)}")
        tables.append(table)
        await table.open(server.url("/app"))
        return table

    try:
        yield open_one
    finally:
        problems = [problem for table in tables for problem in table.problems]
        for context in contexts:
            await context.close()
    assert not problems, "the page went wrong:\n" + "\n".join(problems)


async def assert_fits(table: Table, phone: Phone, view: str) -> None:
    """Nothing of the page as it stands reaches past the phone's right edge or out of its box,
    and the page does not scroll sideways."""
    problems: list[str] = await table.page.evaluate(OVERFLOW, phone.width)
    assert not problems, f"{view} on a {phone.width} px phone:\n" + "\n".join(problems)


@pytest.mark.parametrize("phone", PHONES.values(), ids=PHONES.keys())
@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
async def test_the_final_standings_fit_a_narrow_phone(
    server: PageServer, open_phone: OpenPhone, game: Game, phone: Phone
) -> None:
    service = server.service
    await service.players.chat(GROUP, None)
    async with service.store.transaction() as tx:
        for option, value in game.options.items():
            await tx.chats.set_option(GROUP, game.kind, option, value)
    game_id, token = await open_group_table(service, game.kind, OPENER)
    others = OTHERS[: game.people - 2]
    server.members.of_group |= {OPENER.user_id, VIEWER_ID, *(p.user_id for p in others)}

    # The viewer sits down from the page; the others from the chat; a computer takes the last
    # seat.
    table = await open_phone(phone, token)
    assert await table.settled() == "lobby"
    await table.tap_act("join")
    await table.page.locator('button[data-act="leave"]').wait_for(timeout=DEADLINE_MS)
    for person in others:
        await service.players.private_chat_opened(person)
        await service.commands.join(game_id, person)
    await service.commands.add_computer(game_id, OPENER.user_id, False)
    seated = game.people + 1
    await table.page.wait_for_function(
        "(seated) => document.querySelectorAll('#seats-top .seat:not(.empty)').length === seated",
        arg=seated,
        timeout=DEADLINE_MS,
    )
    await assert_fits(table, phone, "the lobby")

    # The viewer taps their turns (each checked as it shows); the others play in the chat.
    await service.commands.start(game_id, OPENER.user_id, False)
    await table.wait_for_phase("playing")
    turns = 0
    for _ in range(MAX_TURNS):
        now = await turn(server, game_id)
        if now.over:
            break
        assert now.mover is not None, "only people are waited for"
        if now.mover == VIEWER_ID:
            await table.wait_for_revision(now.version)
            assert await table.settled() == "move"
            await assert_fits(table, phone, f"the viewer's turn {turns + 1}")
            await tap_a_move(table)
            turns += 1
            continue
        hand = await service.commands.hand(game_id, now.mover)
        await chat_move(service, game_id, now.mover, hand.version, hand.legal[0])
    else:
        raise AssertionError(f"no end after {MAX_TURNS} turns")
    assert turns > 0

    # The final standings, every seat's long name in them, then the review under them.
    await table.wait_for_phase("over")
    page = table.page
    standings = page.locator(".standings .standing")
    await page.locator(".over-preparing").wait_for(timeout=DEADLINE_MS)
    assert await standings.count() == seated
    await assert_fits(table, phone, "the final standings")
    await store_review(service, game_id, await review_of(service, game_id, VIEWER_ID))
    await page.clock.run_for(60_000)  # the page asks again for the review
    await page.locator(".over-review .review-seat").first.wait_for(timeout=DEADLINE_MS)
    await assert_fits(table, phone, "the final standings and the review")
    # Every row, the viewer's widest name among them, shows whole within the screen.
    for row in range(seated):
        box = await standings.nth(row).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= phone.width
    table.assert_clean()
