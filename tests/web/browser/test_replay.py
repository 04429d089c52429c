"""A finished game's replay in a real browser: opened from its link (Telegram's start
parameter rp_<token>), stepped through move by move to the game's end, the review's marks on
the move list once it is ready, and a marked move kept as golden screenshots, light and dark
(the gaple one, light, is the README's picture, docs/review.png)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import aiohttp
import pytest
from playwright.async_api import Page

from gaple_bot.service.views import Person
from gaple_bot.web.local import LOCAL_PLAYER
from gaple_bot.web.replays import START_PREFIX
from tests.clock import TestClock
from tests.web.conftest import sqlite_url
from tests.web.kit import PageServer, chat_move, local_play_server
from tests.web.replay_kit import (
    ANA,
    finished_game,
    member_init,
    play_out,
    review_of,
    store_review,
)

from .conftest import OpenTable
from .golden import UPDATE, assert_matches_golden
from .table import DEADLINE_MS, SCHEMES, SIZES, Table

README_PICTURE = Path(__file__).parents[3] / "docs" / "review.png"
WHERE = """() => {
  const r = document.getElementById("replay");
  return r ? [Number(r.dataset.round), Number(r.dataset.ply), r.dataset.end] : null;
}"""


SCROLLERS = """() => {
  const root = document.scrollingElement;
  return [root, ...document.querySelectorAll("*")].filter((node) => {
    const overflow = getComputedStyle(node).overflowY;
    const scrolls = node === root || overflow === "auto" || overflow === "scroll";
    return scrolls && node.scrollHeight > node.clientHeight + 1;
  }).length;
}"""
"""How many parts of the page scroll (the page itself among them), when they overflow."""
CARD_NAMES = """() => [...document.querySelectorAll("#replay .card-name")].map((node) => [
  node.textContent, getComputedStyle(node).whiteSpace,
])"""


async def where(page: Page) -> tuple[int, int, str]:
    found = await page.evaluate(WHERE)
    assert found is not None
    return int(found[0]), int(found[1]), str(found[2])


async def wait_for(page: Page, round_number: int, ply: int) -> None:
    await page.locator(f'#replay[data-round="{round_number}"][data-ply="{ply}"]').wait_for(
        timeout=DEADLINE_MS
    )


@pytest.mark.parametrize("kind", ["gaple", "gap"])
async def test_a_replay_is_stepped_through_to_the_game_s_end(
    server: PageServer, open_table: OpenTable, kind: str
) -> None:
    game_id, _, token = await finished_game(server, kind)
    history = await server.service.reviews.history(game_id)
    assert len(history) >= 2, "a game of several rounds"
    table = await open_table(
        server.url("/app"), init_data=member_init(ANA, START_PREFIX + token, server)
    )
    page = table.page
    await wait_for(page, 1, 0)
    root = page.locator("#replay")
    assert await root.get_attribute("data-replay") == str(game_id)
    # Play and the moves' steps each have a glyph of their own.
    glyphs = [
        (await page.locator(f'button[data-act="{act}"]').inner_text()).strip()
        for act in ("prev-round", "prev-move", "play", "next-move", "next-round")
    ]
    assert len(set(glyphs)) == len(glyphs), glyphs
    # Every control named for screen readers, the position bar among them.
    for control in await page.locator("#replay button, #replay input").all():
        label = await control.get_attribute("aria-label")
        text = (await control.inner_text()).strip()
        assert label or text, await control.evaluate("n => n.outerHTML")
    assert await page.locator(".replay-preparing").is_visible()
    seats = await page.locator("#replay .seat").count()
    assert seats == len(history[0][0]["hands"])

    steps = 0
    position = (1, 0)
    for number, (_, codes) in enumerate(history, start=1):
        entries = page.locator(".replay-moves li")
        assert await entries.count() == len(codes)
        assert await entries.last.get_attribute("data-ply") == str(len(codes))
        for ply in range(1, len(codes) + 1):
            await page.locator('button[data-act="next-move"]').click(timeout=DEADLINE_MS)
            await wait_for(page, number, ply)
            steps += 1
        # The round's end: its result on the status line, every word a word.
        shown = await root.inner_text()
        assert "null" not in shown and "undefined" not in shown, shown
        assert str(number) in await page.locator(".replay-status").inner_text()
        if number < len(history):
            await page.locator('button[data-act="next-move"]').click(timeout=DEADLINE_MS)
            await wait_for(page, number + 1, 0)
        position = (number, len(codes))
    assert steps == sum(len(codes) for _, codes in history)
    assert await where(page) == (*position, "true")
    assert await page.locator('button[data-act="next-move"]').is_disabled()
    assert await page.locator('button[data-act="next-round"]').is_disabled()
    # The game's end: the last round's hands revealed, the totals.
    assert await page.locator("#replay .seat .seat-reveal").count() == seats
    assert await page.locator(".replay-summary").is_visible()

    # The position bar and the previous round go back; a move of the list goes to it.
    await page.locator('button[data-act="prev-round"]').click(timeout=DEADLINE_MS)
    await wait_for(page, len(history) - 1, 0)
    await page.locator(".replay-bar").fill("3")
    await wait_for(page, len(history) - 1, 3)
    await page.locator('.replay-moves li[data-ply="5"] button').click(timeout=DEADLINE_MS)
    await wait_for(page, len(history) - 1, 5)
    await page.locator('button[data-act="prev-move"]').click(timeout=DEADLINE_MS)
    await wait_for(page, len(history) - 1, 4)
    # ⏭ on the last round goes to the game's end, its summary.
    await page.locator('button[data-act="next-round"]').click(timeout=DEADLINE_MS)
    await wait_for(page, len(history), 0)
    to_end = page.locator('button[data-act="next-round"]')
    assert await to_end.get_attribute("aria-label") == "The game's end"
    await to_end.click(timeout=DEADLINE_MS)
    await wait_for(page, len(history), len(history[-1][1]))
    await page.locator(".replay-summary").wait_for(timeout=DEADLINE_MS)
    await page.locator(".replay-bar").fill("4")
    await wait_for(page, len(history), 4)
    await page.locator('button[data-act="prev-round"]').click(timeout=DEADLINE_MS)
    await wait_for(page, len(history) - 1, 0)
    assert await to_end.get_attribute("aria-label") == "Next round"
    await page.locator(".replay-bar").fill("4")
    await wait_for(page, len(history) - 1, 4)

    # Play runs on by itself (the page's clock moved by the test), and pauses.
    await page.locator('button[data-act="play"]').click(timeout=DEADLINE_MS)
    await page.clock.run_for(1400)
    await wait_for(page, len(history) - 1, 5)
    await page.locator('button[data-act="play"]').click(timeout=DEADLINE_MS)
    assert await page.locator('button[data-act="play"]').get_attribute("aria-pressed") == "false"

    # The review comes while the replay is open: the page asks again, and marks the moves.
    await store_review(server.service, game_id, await review_of(server.service, game_id))
    await page.clock.run_for(60_000)
    await page.locator('#replay[data-review="ready"]').wait_for(timeout=DEADLINE_MS)
    # In Telegram the start parameter names the replay: the address stays as it was.
    assert "replay=" not in await page.evaluate("location.href")
    table.assert_clean()


@pytest.mark.parametrize("kind", ["gaple", "gap"])
async def test_a_marked_move_looks_as_its_golden_screenshots(
    server: PageServer, open_table: OpenTable, kind: str
) -> None:
    game_id, _, token = await finished_game(server, kind)
    review = await review_of(server.service, game_id)
    await store_review(server.service, game_id, review)
    blunder = review["moves"][0]
    table = await open_table(
        server.url("/app"), init_data=member_init(ANA, START_PREFIX + token, server)
    )
    page = table.page
    await wait_for(page, 1, 0)
    while (await where(page))[0] < blunder["round"]:
        await page.locator('button[data-act="next-round"]').click(timeout=DEADLINE_MS)
        await page.locator(f'#replay[data-round="{blunder["round"]}"]').wait_for(
            timeout=DEADLINE_MS
        )
    entry = page.locator(f'.replay-moves li[data-ply="{blunder["ply"]}"]')
    assert await entry.get_attribute("data-mark") == "blunder"
    assert await entry.get_attribute("data-loss") == "14.3"  # 14.26, one decimal
    assert await entry.get_attribute("data-seat") == str(blunder["seat"])
    assert "Better: " in await entry.inner_text()
    # Every other reviewed move of Ana's is best, and names no better move.
    best = page.locator('.replay-moves li[data-mark="best"]')
    if await best.count():
        assert "Better" not in await best.first.inner_text()
    await entry.locator("button").click(timeout=DEADLINE_MS)
    await wait_for(page, blunder["round"], blunder["ply"])
    assert await page.locator(".replay-status .replay-mark").inner_text() == "Blunder"
    assert "Better: " in await page.locator(".replay-status").inner_text()
    await page.set_viewport_size(SIZES["phone"])
    # On a phone the replay scrolls as one region (no list scrolling beside the page).
    assert await page.evaluate(SCROLLERS) <= 1
    await page.evaluate("document.getElementById('table').scrollTop = 0")
    for scheme in SCHEMES:
        await page.emulate_media(color_scheme=scheme)
        png = await page.screenshot(animations="disabled", caret="hide")
        assert_matches_golden(f"{kind}-replay-blunder-phone-{scheme}", png, table.failures)
    if kind == "gaple" and os.environ.get(UPDATE) == "1":
        # The README's picture: a taller phone, the move list with the blunder in sight.
        await page.emulate_media(color_scheme="light")
        await page.set_viewport_size({"width": 390, "height": 1120})
        await page.evaluate("document.getElementById('table').scrollTop = 0")
        README_PICTURE.write_bytes(await page.screenshot(animations="disabled", caret="hide"))
    table.assert_clean()


async def test_the_game_s_end_offers_the_replay_and_shows_the_review_once_ready(
    server: PageServer, open_table: OpenTable
) -> None:
    table = await open_table(server.url("/app?local=gap"))
    page = table.page
    welcome = next(frame for frame in table.received if frame.get("t") == "welcome")
    game_id = welcome["game_id"]
    service = server.service
    # The local person's moves made through the service: the page follows to the game's end.
    for _ in range(2000):
        if (await service.commands.table(game_id)).winner is not None:
            break
        hand = await service.commands.hand(game_id, LOCAL_PLAYER)
        await chat_move(service, game_id, LOCAL_PLAYER, hand.version, hand.legal[0])
    await table.wait_for_phase("over")
    replay = page.locator('button[data-act="replay"]')
    assert await replay.inner_text() == "📼 Replay"
    assert await page.locator(".over-review").count() == 0, "no review yet"
    # Until it is ready, the standings say the review is coming.
    preparing = page.locator(".over-preparing")
    await preparing.wait_for(timeout=DEADLINE_MS)
    assert await preparing.inner_text() == "The review is being prepared…"

    # The review comes: the page asks again (its clock moved by the test) and shows it.
    await store_review(service, game_id, await review_of(service, game_id, LOCAL_PLAYER))
    await page.clock.run_for(60_000)
    summary = page.locator(".over-review .review-seat")
    await summary.first.wait_for(timeout=DEADLINE_MS)
    text = await summary.first.inner_text()
    assert "Accuracy 87.5" in text and "Biggest mistake: round " in text, text
    assert await preparing.count() == 0

    # Replay opens over the standings, and ✕ comes back to them. Outside Telegram the
    # address names the replay while it is open (to keep or bookmark), then the table again.
    table_address = await page.evaluate("location.href")
    token = (await service.reviews.game(game_id)).replay_token
    await replay.click(timeout=DEADLINE_MS)
    await wait_for(page, 1, 0)
    await page.wait_for_function(
        "token => new URL(location.href).searchParams.get('replay') === token",
        arg=token,
        timeout=DEADLINE_MS,
    )
    assert "local=" not in await page.evaluate("location.search")
    assert await page.locator("#replay").get_attribute("data-review") == "ready"
    await page.locator('#replay button[data-act="next-move"]').click(timeout=DEADLINE_MS)
    await wait_for(page, 1, 1)
    # Nothing of the table shows under it, whatever the table draws meanwhile.
    await page.set_viewport_size({"width": 391, "height": 844})
    assert not await page.locator(".standings").is_visible()
    await page.locator('#replay button[data-act="close"]').click(timeout=DEADLINE_MS)
    await page.locator("#replay").wait_for(state="detached", timeout=DEADLINE_MS)
    await page.locator(".standings").wait_for(timeout=DEADLINE_MS)
    assert await page.evaluate("location.href") == table_address
    # Telegram's Back button closes it too, as it closes a dialog.
    await replay.click(timeout=DEADLINE_MS)
    await wait_for(page, 1, 0)
    assert await page.evaluate("Telegram.WebApp.BackButton.isVisible")
    await page.evaluate("window.telegramTest.fire('backButtonClicked')")
    await page.locator("#replay").wait_for(state="detached", timeout=DEADLINE_MS)
    assert not await page.evaluate("Telegram.WebApp.BackButton.isVisible")
    await page.locator(".standings").wait_for(timeout=DEADLINE_MS)
    table.assert_clean()


async def test_a_replay_opened_by_its_link_in_telegram_closes_the_app_with_its_x(
    server: PageServer, open_table: OpenTable
) -> None:
    """Nothing lies under a replay opened by its link: its ✕ (and Escape, as over the
    table) leaves it, closing the Mini App back to the chat whose link opened it."""
    _, _, token = await finished_game(server, "gap")
    table = await open_table(
        server.url("/app"), init_data=member_init(ANA, START_PREFIX + token, server)
    )
    page = table.page
    await wait_for(page, 1, 0)
    close = page.locator('#replay button[data-act="close"]')
    assert await close.is_visible()
    assert await close.get_attribute("aria-label") == "Close"
    assert await close.inner_text() == "✕"
    closed = "(count) => window.telegramTest.calls.filter((c) => c === 'close').length >= count"
    assert not await page.evaluate(closed, 1)
    await close.click(timeout=DEADLINE_MS)
    await page.wait_for_function(closed, arg=1, timeout=DEADLINE_MS)
    await page.keyboard.press("Escape")
    await page.wait_for_function(closed, arg=2, timeout=DEADLINE_MS)
    table.assert_clean()


async def test_a_local_replay_opened_by_its_address_closes_to_local_play_s_table(
    open_table: OpenTable, page_template: Path, tmp_path: Path, clock: TestClock
) -> None:
    """In a browser (`gaple-bot local`), a replay opened by its address (?replay=) has its ✕
    too: the page becomes local play's table of that game, the address without the replay."""
    path = tmp_path / "local.sqlite3"
    shutil.copyfile(page_template, path)
    server = local_play_server(sqlite_url(path), clock)
    async with server as (service, local), aiohttp.ClientSession() as http:
        async with http.post(local.make_url("/app/api/local"), json={"kind": "gap"}) as answer:
            assert answer.status == 200, await answer.text()
            game_id = (await answer.json())["game_id"]
        token = await play_out(service, game_id, LOCAL_PLAYER)
        table = await open_table(str(local.make_url(f"/app?replay={token}")))
        page = table.page
        await wait_for(page, 1, 0)
        # The replay fetches the next round as soon as it shows the first: the ✕ may come
        # before that answer does, on a slow machine.
        with table.leaving("/app/api/replay/"):
            await page.locator('#replay button[data-act="close"]').click(timeout=DEADLINE_MS)
            await page.wait_for_url(re.compile(r"/app\?local=gap$"), timeout=DEADLINE_MS)
            await page.locator('#table[aria-busy="false"][data-game="gap"]').wait_for(
                timeout=DEADLINE_MS
            )
        assert await page.locator("#replay").count() == 0
        table.assert_clean()


REFUSED = re.compile(r"^(HTTP 404: POST |console error: Failed to load resource: .* 404 ).*")
"""What the page reports of a replay the server does not have: the test's doing, not the
page's fault."""


def refusal_seen(table: Table) -> None:
    """The page was told that its replay is not there, and nothing else went wrong."""
    assert table.problems, "the server refused the replay"
    assert all(REFUSED.match(problem) for problem in table.problems), table.problems
    table.problems.clear()


async def test_a_replay_link_that_opens_nothing_has_its_x_too_in_telegram(
    server: PageServer, open_table: OpenTable
) -> None:
    """A replay's link the server does not know says so, with the ✕ (in the person's
    language) that closes the Mini App, not a page with no way out."""
    anna = Person(ANA.user_id, "Anna", "de")
    table = await open_table(
        server.url("/app"), init_data=member_init(anna, START_PREFIX + "gone", server)
    )
    page = table.page
    alert = page.get_by_role("alert")
    await alert.wait_for(timeout=DEADLINE_MS)
    assert await alert.inner_text() == "Diese Wiederholung gibt es nicht."
    close = page.locator('#table button[data-act="close"]')
    assert await close.get_attribute("aria-label") == "Schließen"
    refusal_seen(table)
    await close.click(timeout=DEADLINE_MS)
    await page.wait_for_function(
        "() => window.telegramTest.calls.includes('close')", timeout=DEADLINE_MS
    )
    table.assert_clean()


async def test_a_local_replay_address_that_opens_nothing_closes_to_local_play(
    open_table: OpenTable, page_template: Path, tmp_path: Path, clock: TestClock
) -> None:
    """A replay's address kept from an earlier run of `gaple-bot local` (its throwaway
    database gone with it) opens no replay: the page says so, and its ✕ leads to local
    play's table."""
    path = tmp_path / "local.sqlite3"
    shutil.copyfile(page_template, path)
    async with local_play_server(sqlite_url(path), clock) as (_, local):
        table = await open_table(str(local.make_url("/app?replay=gone")))
        page = table.page
        alert = page.get_by_role("alert")
        await alert.wait_for(timeout=DEADLINE_MS)
        assert await alert.inner_text() == "This replay does not exist."
        refusal_seen(table)
        await page.locator('#table button[data-act="close"]').click(timeout=DEADLINE_MS)
        await page.wait_for_url(re.compile(r"/app$"), timeout=DEADLINE_MS)
        await page.locator('#table[aria-busy="false"][data-game="gaple"]').wait_for(
            timeout=DEADLINE_MS
        )
        table.assert_clean()


async def test_a_replay_in_french_writes_numbers_and_colons_the_french_way(
    server: PageServer, open_table: OpenTable
) -> None:
    game_id, _, token = await finished_game(server, "gap")
    review = await review_of(server.service, game_id)
    await store_review(server.service, game_id, review)
    blunder = review["moves"][0]
    french = Person(ANA.user_id, ANA.name, "fr")
    table = await open_table(
        server.url("/app"), init_data=member_init(french, START_PREFIX + token, server)
    )
    page = table.page
    await wait_for(page, 1, 0)
    while (await where(page))[0] < blunder["round"]:
        await page.locator('button[data-act="next-round"]').click(timeout=DEADLINE_MS)
        await page.locator(f'#replay[data-round="{blunder["round"]}"]').wait_for(
            timeout=DEADLINE_MS
        )
    entry = page.locator(f'.replay-moves li[data-ply="{blunder["ply"]}"]')
    assert await entry.get_attribute("data-loss") == "14.3", "data-loss stays a plain number"
    assert "14,3 pts perdus" in await entry.inner_text()
    await entry.locator("button").click(timeout=DEADLINE_MS)
    await wait_for(page, blunder["round"], blunder["ply"])
    assert (await page.locator(".replay-status .status-text").inner_text()).startswith(
        "Ana\N{NO-BREAK SPACE}: "
    )
    # Each card's name is kept whole on its line: a colour square and its number together.
    names = await page.evaluate(CARD_NAMES)
    assert names, "the move's card is named"
    for text, wrap in names:
        assert re.fullmatch(r"\S+\d+", text) and wrap == "nowrap", (text, wrap)
    # The game's end: the totals and the review's numbers, the French way.
    while (await where(page))[2] != "true" or not await page.locator(
        'button[data-act="next-round"]'
    ).is_disabled():
        await page.locator('button[data-act="next-round"]').click(timeout=DEADLINE_MS)
    summary = page.locator(".replay-summary")
    await summary.wait_for(timeout=DEADLINE_MS)
    totals = await page.locator(".replay-totals").inner_text()
    assert re.match(r"Totaux après la manche \d+\N{NO-BREAK SPACE}: Ana", totals), totals
    text = await summary.inner_text()
    assert "Précision 87,5" in text and "14,3 pts perdus" in text, text
    table.assert_clean()
