"""Telegram's conventions in a real browser, against the stub of Telegram's script: expand and
full screen on a phone only, safe areas and the theme applied live, a refused tap and the
viewer's turn felt, the closing confirmation and vertical swipes following a seat in a live
game, the Back button, and Share handing the bot's prepared message to shareMessage."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from tests.clock import TestClock
from tests.web.kit import GROUP, PageServer

from .conftest import OpenTable
from .group import (
    BEA,
    CID,
    ana_moves_in_chat,
    open_as,
    open_group,
    start_in_chat,
    tap_a_move,
    turn,
)
from .table import DEADLINE_MS, Table

MAX_TURNS = 200
SEATED = "Telegram.WebApp.isClosingConfirmationEnabled && !Telegram.WebApp.isVerticalSwipesEnabled"
FREE = "!Telegram.WebApp.isClosingConfirmationEnabled && Telegram.WebApp.isVerticalSwipesEnabled"


class StandInBot:
    """The bot's part of Share (the composition root's), giving one prepared id per call."""

    def __init__(self, clock: TestClock) -> None:
        self.clock = clock
        self.calls: list[dict[str, Any]] = []

    async def __call__(self, user_id: int, **result: Any) -> tuple[str, datetime] | None:
        self.calls.append({"user_id": user_id, **result})
        return f"prepared-{len(self.calls)}", self.clock() + timedelta(hours=1)


async def until(table: Table, condition: str) -> None:
    """Waits (generously) until a JavaScript expression holds in the page."""
    await table.page.wait_for_function(f"() => {condition}", timeout=DEADLINE_MS)


async def calls(table: Table) -> list[str]:
    found: list[str] = await table.page.evaluate("window.telegramTest.calls")
    return found


async def test_the_page_follows_telegrams_conventions_through_a_whole_game(
    server: PageServer, open_table: OpenTable, clock: TestClock
) -> None:
    bot = StandInBot(clock)
    server.pages.share_through(bot)
    # One round decides the game.
    await server.service.players.chat(GROUP, None)
    async with server.service.store.transaction() as tx:
        await tx.chats.set_option(GROUP, "gaple", "target", "1")
    game_id, token = await open_group(server)
    bea = await open_as(open_table, server, BEA, token, clock, platform="android")
    cid = await open_as(open_table, server, CID, token, clock, platform="tdesktop")
    assert await bea.settled() == "lobby" and await cid.settled() == "lobby"

    # Ready, expanded; full screen on a phone, not on a desktop client.
    bea_calls = await calls(bea)
    assert bea_calls[:3] == ["ready", "expand", "requestFullscreen"], bea_calls
    cid_calls = await calls(cid)
    assert cid_calls[:2] == ["ready", "expand"] and "requestFullscreen" not in cid_calls
    # In a lobby nothing is held: closing needs no confirmation, swipes work.
    await until(bea, FREE)

    # The safe areas, as Telegram changes them, are CSS variables the layout can use.
    await bea.page.evaluate("telegramTest.setInsets({top: 24, bottom: 34}, {top: 46})")
    safe = "getComputedStyle(document.documentElement).getPropertyValue('--safe-{}').trim()"
    await until(bea, f"{safe.format('top')} === '70px' && {safe.format('bottom')} === '34px'")
    assert await bea.page.evaluate(safe.format("left")) == "0px"

    # A new theme applies at once; a colour it no longer gives falls back to the page's own.
    await cid.page.evaluate("telegramTest.setTheme({bg_color: '#102030', text_color: '#fafafa'})")
    background = "getComputedStyle(document.body).backgroundColor"
    await until(cid, f"{background} === 'rgb(16, 32, 48)'")
    await cid.page.evaluate("telegramTest.setTheme({bg_color: '#203040'}, 'dark')")
    await until(cid, f"{background} === 'rgb(32, 48, 64)'")
    text = "document.documentElement.style.getPropertyValue('--tg-theme-text-color')"
    assert await cid.page.evaluate(text) == ""

    # A refused tap is felt: Bea left the group before she tapped Join.
    server.members.of_group.discard(BEA.user_id)
    await bea.tap_act("join")
    await until(bea, "telegramTest.haptics.includes('error')")
    server.members.of_group.add(BEA.user_id)
    await bea.tap_act("join")
    await bea.page.locator('button[data-act="leave"]').wait_for(timeout=DEADLINE_MS)
    assert await bea.page.evaluate(FREE), "a seat in a lobby holds nothing yet"

    # Seated in the live game: closing asks first and swipes stay off; not for a spectator.
    await start_in_chat(server, game_id)
    await bea.wait_for_phase("playing")
    await until(bea, SEATED)
    await cid.wait_for_phase("playing")
    assert await cid.page.evaluate(FREE)

    turns = 0
    for _ in range(MAX_TURNS):
        now = await turn(server, game_id)
        if now.over:
            break
        await bea.wait_for_revision(now.version)
        if now.mover == BEA.user_id:
            turns += 1
            # Her turn came: the phone buzzed once for it.
            count = "telegramTest.haptics.filter((kind) => kind === 'success').length"
            await until(bea, f"{count} === {turns}")
            await tap_a_move(bea)
        else:
            await ana_moves_in_chat(server, game_id)
    else:
        raise AssertionError(f"no end after {MAX_TURNS} turns")
    assert turns > 0

    # The game is over: nothing is held any more.
    await bea.wait_for_phase("over")
    await until(bea, FREE)

    # The Back button shows while a dialog is open and, pressed, closes it (nothing open
    # here: the page closes nothing and the button goes). Read in the same task as the
    # update: the page's own renders update the client too, with no dialog open.
    shown, after_back = await bea.page.evaluate(
        """async () => {
            const ui = await import("/app/static/telegram_ui.js");
            ui.updateTelegram(Telegram.WebApp, {seatedLive: false, dialogOpen: true});
            const shown = Telegram.WebApp.BackButton.isVisible;
            telegramTest.fire("backButtonClicked");
            return [shown, Telegram.WebApp.BackButton.isVisible];
        }"""
    )
    assert shown and not after_back

    # Share: the bot prepares the standings for Bea, and Telegram's dialog gets its id.
    share = bea.page.locator('button[data-act="share"]')
    await share.tap()
    await until(bea, "telegramTest.shares.length === 1")
    assert await bea.page.evaluate("telegramTest.shares") == ["prepared-1"]
    assert [call["user_id"] for call in bot.calls] == [BEA.user_id]
    # Closed without sending: no complaint; shared again: the same message, still good.
    await bea.page.evaluate("telegramTest.shareAnswer = 'USER_DECLINED'")
    await share.tap()
    await until(bea, "telegramTest.shares.length === 2")
    assert len(bot.calls) == 1


async def test_share_says_why_it_did_not_share(
    server: PageServer, open_table: OpenTable, clock: TestClock
) -> None:
    """shareStandings as the page calls it, where the server refuses: no bot behind the page
    (not available), a game not over yet (failed, with the server's reason and words)."""
    _, token = await open_group(server)
    bea = await open_as(open_table, server, BEA, token, clock, platform="ios")
    assert await bea.settled() == "lobby"
    session = next(f["session"] for f in bea.received if f["t"] == "welcome")
    share = """async (session) => {
        const ui = await import("/app/static/telegram_ui.js");
        return await ui.shareStandings(Telegram.WebApp, session);
    }"""
    outcome = await bea.page.evaluate(share, session)
    assert outcome["result"] == "unavailable" and outcome["text"], outcome
    server.pages.share_through(StandInBot(clock))
    outcome = await bea.page.evaluate(share, session)
    assert outcome["result"] == "failed" and outcome["reason"] == "not_over", outcome
    assert outcome["text"] and await bea.page.evaluate("telegramTest.shares") == []
    # Neither is offered outside Telegram.
    assert not await bea.page.evaluate(
        "async () => (await import('/app/static/telegram_ui.js')).canShare(null)"
    )
    # Those refusals were this test's own asking: not the page going wrong.
    bea.problems[:] = [p for p in bea.problems if "/app/api/share" not in p]
