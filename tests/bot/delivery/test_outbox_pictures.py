"""Photos through the group outbox: in order and in the budget, drawn off the loop, stored
until Telegram accepts them, and the caption as text when a photo cannot be sent."""

from __future__ import annotations

from pathlib import Path

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ParseMode

from gaple_bot.bot.outbox import CAPTION_LIMIT, open_outbox
from gaple_bot.bot.painter import Painter
from gaple_bot.games.pictures import Picture
from gaple_bot.games.pictures.canvas import encode, new_canvas
from gaple_bot.service.outbox import GroupLedger
from tests.bot.harness import GROUP, GROUP_TITLE
from tests.bot.outbox_kit import assert_window_holds, migrated_store, outbox_clock, settle
from tests.fakes.clock import ManualClock
from tests.fakes.telegram_server import running_fake

ANA = 1301


class CountingPainter:
    """Draws a small real PNG carrying the picture's data, and counts what it drew; with
    `fail`, answers None as the real painter does when a drawer raises."""

    def __init__(self, *, fail: bool = False) -> None:
        self.drawn: list[Picture] = []
        self.fail = fail

    def close(self) -> None:
        """Nothing to stop."""

    async def __call__(self, picture: Picture) -> bytes | None:
        self.drawn.append(picture)
        if self.fail:
            return None
        image, _ = new_canvas(60, width=120)
        return encode(image, picture.data)


def picture(n: int) -> Picture:
    """A picture whose data says which it is."""
    return Picture("standings", {"title": f"picture {n}"})


async def test_photos_go_out_in_order_with_captions_and_buttons(tmp_path: Path) -> None:
    clock = ManualClock()
    painter = CountingPainter()
    async with (
        running_fake(group_limit_per_minute=4, clock=clock.now, sleep=clock.sleep) as fake,
        fake.make_bot() as bot,
    ):
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        outbox = open_outbox(bot, 4, clock=outbox_clock(clock), painter=painter)
        markup = InlineKeyboardMarkup([[InlineKeyboardButton("Again", callback_data="again")]])
        outbox.send(GROUP, text="before", parse_mode=ParseMode.HTML)
        for n in range(3):
            outbox.send_photo(
                GROUP, picture(n), caption=f"<b>caption</b> {n}", parse_mode=ParseMode.HTML
            )
        outbox.send_photo(
            GROUP, picture(3), caption="last", parse_mode=ParseMode.HTML, reply_markup=markup
        )
        outbox.send(GROUP, text="after", parse_mode=ParseMode.HTML)
        while outbox.busy:
            await settle(fake, clock, outbox)
            clock.advance(61.0)
        shown = fake.bot_messages(GROUP)
        assert [m.text for m in shown] == [
            "before",
            "caption 0",
            "caption 1",
            "caption 2",
            "last",
            "after",
        ]
        photos = [m.photo for m in shown]
        assert photos[0] is None and photos[-1] is None
        assert [p.data if p else None for p in photos[1:5]] == [
            {"title": f"picture {n}"} for n in range(4)
        ]
        assert shown[1].entities == [{"type": "bold", "offset": 0, "length": 7}]
        assert shown[4].buttons() == [("Again", "again")]
        # A photo is one group message like any other: four in any minute here.
        assert_window_holds(fake, GROUP, 4)
        assert len(painter.drawn) == 4
        fake.assert_no_violations()


async def test_a_picture_that_cannot_be_drawn_goes_as_its_caption(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=100) as fake, fake.make_bot() as bot:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        painter = CountingPainter(fail=True)
        outbox = open_outbox(bot, 100, painter=painter)
        outbox.send_photo(GROUP, picture(1), caption="<b>still</b> readable", parse_mode="HTML")
        await outbox.drain()
        [message] = fake.bot_messages(GROUP)
        assert message.photo is None
        assert message.text == "still readable"
        assert len(painter.drawn) == 1
        assert fake.requests_for("sendPhoto") == []


async def test_a_caption_too_long_for_a_photo_goes_as_text(tmp_path: Path) -> None:
    """Telegram takes at most 1024 characters under a photo: a longer text is not cut, the
    picture is left out."""
    async with running_fake(group_limit_per_minute=100) as fake, fake.make_bot() as bot:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        painter = CountingPainter()
        outbox = open_outbox(bot, 100, painter=painter)
        fits = "<b>" + "a" * CAPTION_LIMIT + "</b>"  # the tags do not count
        too_long = "a" * (CAPTION_LIMIT + 1)
        outbox.send_photo(GROUP, picture(1), caption=fits, parse_mode="HTML")
        outbox.send_photo(GROUP, picture(2), caption=too_long, parse_mode="HTML")
        await outbox.drain()
        first, second = fake.bot_messages(GROUP)
        assert first.photo is not None and first.text == "a" * CAPTION_LIMIT
        assert second.photo is None and second.text == too_long
        assert [p.data for p in painter.drawn] == [{"title": "picture 1"}]
        fake.assert_no_violations()


async def test_photos_waiting_at_shutdown_are_drawn_and_sent_after_the_restart(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with (
        running_fake(group_limit_per_minute=2, clock=clock.now, sleep=clock.sleep) as fake,
        migrated_store(tmp_path / "db.sqlite3") as store,
        fake.make_bot() as bot,
    ):
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        ledger = GroupLedger(store)
        first = open_outbox(bot, 2, ledger=ledger, clock=outbox_clock(clock), painter=Painter())
        markup = InlineKeyboardMarkup([[InlineKeyboardButton("Again", callback_data="again")]])
        for n in range(5):
            first.send_photo(
                GROUP,
                Picture("standings", standings_data(n)),
                caption=f"result {n}",
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
            )
        await settle(fake, clock, first)
        assert len(fake.bot_messages(GROUP)) == 2
        await first.close(10)
        assert len(await ledger.pending()) == 3

        clock.advance(61.0)
        painter = CountingPainter()
        second = open_outbox(bot, 2, ledger=ledger, clock=outbox_clock(clock), painter=painter)
        assert await second.restore() == 3
        while second.busy:
            await settle(fake, clock, second)
            clock.advance(61.0)
        shown = fake.bot_messages(GROUP)
        assert [m.text for m in shown] == [f"result {n}" for n in range(5)]
        assert all(m.photo is not None for m in shown)
        assert all(m.buttons() == [("Again", "again")] for m in shown)
        # The stored picture is the same data, drawn again by the restarted bot.
        assert [p.data for p in painter.drawn] == [standings_data(n) for n in range(2, 5)]
        assert [m.photo.data for m in shown if m.photo] == [standings_data(n) for n in range(5)]
        assert await ledger.pending() == []
        assert_window_holds(fake, GROUP, 2)


def standings_data(n: int) -> dict[str, object]:
    """Standings the real drawer draws: two players after two rounds, `n` in the title."""
    return {
        "title": f"Ana wins game {n}",
        "players": [
            {"name": "Ana", "total": 60, "totals": [20, 60]},
            {"name": "Budi", "total": 35, "totals": [30, 35]},
        ],
        "x_label": "Round",
        "y_label": "Points",
    }


async def test_a_photo_telegram_refuses_goes_as_its_caption(tmp_path: Path) -> None:
    """A 400 for the photo itself (its file, its size) does not lose the message: the same
    turn sends its caption, with its buttons, as text; the next photo is tried again."""
    async with running_fake(group_limit_per_minute=100) as fake, fake.make_bot() as bot:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        called: list[int] = []

        async def unwritable(chat_id: int) -> None:
            called.append(chat_id)

        outbox = open_outbox(bot, 100, painter=CountingPainter(), on_unwritable=unwritable)
        markup = InlineKeyboardMarkup([[InlineKeyboardButton("Again", callback_data="again")]])
        fake.fail_next("sendPhoto", 400, "Bad Request: PHOTO_INVALID_DIMENSIONS", chat_id=GROUP)
        outbox.send_photo(
            GROUP, picture(1), caption="<b>standings</b>", parse_mode="HTML", reply_markup=markup
        )
        outbox.send_photo(GROUP, picture(2), caption="next", parse_mode="HTML")
        await outbox.drain()
        first, second = fake.bot_messages(GROUP)
        assert first.photo is None and first.text == "standings"
        assert first.buttons() == [("Again", "again")]
        assert second.photo is not None and second.text == "next"
        assert called == []


async def test_a_group_that_refuses_photos_gets_their_captions_as_text(tmp_path: Path) -> None:
    """No right to send photos is not a group the bot may not write in: games go on, the
    texts come alone for an hour, then a photo is tried again."""
    clock = ManualClock()
    async with (
        running_fake(group_limit_per_minute=100, clock=clock.now, sleep=clock.sleep) as fake,
        fake.make_bot() as bot,
    ):
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        called: list[int] = []

        async def unwritable(chat_id: int) -> None:
            called.append(chat_id)

        painter = CountingPainter()
        outbox = open_outbox(
            bot, 100, clock=outbox_clock(clock), painter=painter, on_unwritable=unwritable
        )
        refusal = "Bad Request: not enough rights to send photos to the chat"
        fake.fail_next("sendPhoto", 400, refusal, chat_id=GROUP)
        outbox.send_photo(GROUP, picture(1), caption="round 1", parse_mode="HTML")
        await settle(fake, clock, outbox)
        outbox.send_photo(GROUP, picture(2), caption="round 2", parse_mode="HTML")
        await settle(fake, clock, outbox)
        assert [(m.text, m.photo) for m in fake.bot_messages(GROUP)] == [
            ("round 1", None),
            ("round 2", None),
        ]
        assert len(fake.requests_for("sendPhoto")) == 1
        assert len(painter.drawn) == 1  # the second picture was not even drawn
        assert called == []

        clock.advance(3601.0)
        outbox.send_photo(GROUP, picture(3), caption="round 3", parse_mode="HTML")
        await settle(fake, clock, outbox)
        last = fake.bot_messages(GROUP)[-1]
        assert last.text == "round 3" and last.photo is not None
        assert called == []
