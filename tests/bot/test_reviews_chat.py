"""Replays and reviews in chat, through the fake Bot API: a finished game's end message has a
Replay button (with the page), /games lists the chat's finished games with their replay links,
and /review sums up how everyone played, for the last game or the one whose end it replies to."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from gaple_bot.bot.callback_data import Action
from gaple_bot.bot.deps import Deps, GapleApplication
from gaple_bot.games.gaple.kind import GapleKind
from gaple_bot.games.gaple.rules import GameConfig, Played, RuleSet, Side, play, tile_id
from gaple_bot.games.review import REVIEW_VERSION, GameReview, Mark, MoveReview, SeatSummary
from gaple_bot.i18n import Translators
from gaple_bot.store import ComputerLevel, GameStatus
from tests.bot.driver import GAP_CARDS, Players, seat_and_start
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, running_bot
from tests.fakes.telegram_server import FakeMessage, FakeTelegram, running_fake
from tests.store.forgotten import rows_mentioning
from tests.store.kit import play_game

ANA, BUDI = 301, 302
PAGE = {"WEBAPP_URL": "https://games.example.org", "WEBAPP_SHORT_NAME": "table"}
ANALYSED = {"REVIEWS": "yes"}
"""The harness turns the analysis off; these tests ask with their reviews analysed."""
ROOMY = 120.0
"""Seconds to wait for the bot or the analysis: generous, so a busy machine does not fail."""


async def _one_round_game(fake: FakeTelegram, deps: Deps, *people: int) -> int:
    """The people play a one-round game with computers in the other seats, to its end;
    returns its id."""
    await deps.service.players.chat(GROUP, GROUP_TITLE)
    async with deps.service.store.transaction() as tx:
        await tx.chats.set_option(GROUP, "gaple", "target", "1")
    await seat_and_start(fake, *people)
    await fake.wait_idle(timeout=ROOMY)
    game_id = await deps.service.active_game(GROUP, None)
    assert game_id is not None

    async def finished() -> bool:
        async with deps.service.store.read() as tx:
            return (await tx.games.get(game_id)).status is GameStatus.FINISHED

    await Players(fake, people).play_until(finished, random.Random(5), seconds=ROOMY)
    await fake.wait_for(lambda: _end_message(fake) is not None, timeout=ROOMY)
    return game_id


def _end_message(fake: FakeTelegram) -> FakeMessage | None:
    """The group's latest game-end message (the one with Play again)."""
    for message in reversed(fake.bot_messages(GROUP)):
        if any(
            data and data.startswith(Action.PLAY_AGAIN.value + ":") for _, data in message.buttons()
        ):
            return message
    return None


def _links(message: FakeMessage) -> list[str]:
    """Every link of a message's text."""
    return [e["url"] for e in message.entities if e.get("type") == "text_link"]


def _start_parameter(url: str) -> str:
    return parse_qs(urlsplit(url).query)["startapp"][0]


async def _answer(fake: FakeTelegram, user: int, text: str, **kwargs: int) -> FakeMessage:
    """Send a command in the group; the bot's reply to it."""
    sent = await fake.send_message(user, GROUP, text, **kwargs)

    def reply() -> FakeMessage | None:
        return next(
            (
                m
                for m in reversed(fake.bot_messages(GROUP))
                if m.reply_to_message_id == sent["message_id"]
            ),
            None,
        )

    await fake.wait_for(lambda: reply() is not None, timeout=ROOMY, message=f"no answer to {text}")
    answer = reply()
    assert answer is not None
    return answer


async def _review_of(fake: FakeTelegram, user: int, **kwargs: int) -> FakeMessage:
    """/review's summary: at once, or posted as a reply once the analysis stored it."""
    sent = await fake.send_message(user, GROUP, "/review", **kwargs)

    def summary() -> FakeMessage | None:
        replies = [
            m for m in fake.bot_messages(GROUP) if m.reply_to_message_id == sent["message_id"]
        ]
        return next((m for m in replies if "accuracy" in m.text.lower()), None)

    await fake.wait_for(lambda: summary() is not None, timeout=ROOMY, message="no review")
    found = summary()
    assert found is not None
    return found


async def test_a_finished_game_has_its_replay_its_line_in_games_and_its_review(
    database: Path | str,
) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(BUDI, "Budi", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        async with running_bot(fake, database, **PAGE, **ANALYSED) as app:
            deps = deps_of(app)
            # No game yet: /games and /review say how to get one.
            none = await _answer(fake, ANA, "/games")
            assert "No game has ended in this chat yet" in none.text
            assert "/gaple" in none.text
            none = await _answer(fake, ANA, "/review")
            assert "No game has ended in this chat yet" in none.text

            game_id = await _one_round_game(fake, deps, ANA, BUDI)
            game = await deps.service.reviews.game(game_id)

            # The end message: Play again and Replay side by side, the replay's own link.
            end = _end_message(fake)
            assert end is not None
            (row,) = [r for r in end.button_rows() if any(t == "📼 Replay" for t, _ in r)]
            assert [text for text, _ in row] == ["🔁 Play again", "📼 Replay"]
            replay = row[1][1]
            assert replay is not None
            assert replay.startswith(f"https://t.me/{fake.bot_username}/table?startapp=rp_")
            assert _start_parameter(replay) == "rp_" + game.replay_token
            assert game.replay_token not in {None, ""}

            # /games: the game in one line, with the same link.
            listed = await _answer(fake, BUDI, "/games")
            lines = [line for line in listed.text.splitlines() if "Gaple" in line]
            assert len(lines) == 1, listed.text
            assert "Ana" in lines[0] and "Budi" in lines[0] and "🏆" in lines[0]
            assert _links(listed) == [replay]

            # /review: every person's summary, the computers' left out.
            summary = await _review_of(fake, ANA)
            assert "Ana" in summary.text and "Budi" in summary.text
            assert summary.text.count("accuracy") == 2
            assert "Computer" not in summary.text

            # As a reply to the end message: that game's, even after another game ended.
            second_id = await _one_round_game(fake, deps, ANA)
            assert second_id != game_id
            last = await _review_of(fake, BUDI)
            assert "Ana" in last.text and "Budi" not in last.text
            replied = await _review_of(fake, BUDI, reply_to_message_id=end.message_id)
            assert replied.text.splitlines()[1:] == summary.text.splitlines()[1:]


async def test_games_and_review_speak_the_chat_language_and_work_in_groups_only(
    tmp_path: Path,
) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="de")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(fake, tmp_path / "gaple.sqlite3", **ANALYSED) as app:
            store = deps_of(app).service.store
            await deps_of(app).service.players.chat(GROUP, GROUP_TITLE)
            async with store.transaction() as tx:
                await tx.chats.set_language(GROUP, "de")
            config = GameConfig(RuleSet.CLASSIC, 4, 1)
            players = [ANA, ComputerLevel.EASY, ComputerLevel.NORMAL, ComputerLevel.HARD]
            await play_game(store, GROUP, config, players, seed=3)

            listed = await _answer(fake, ANA, "/games")
            assert "Die letzten Spiele hier" in listed.text
            assert "vor " in listed.text  # "vor 3 Sekunden"
            # Without the page: no replay link, /review still works.
            assert _links(listed) == []

            sent = await fake.send_message(ANA, GROUP, "/review")

            def answers() -> list[str]:
                return [
                    m.text
                    for m in fake.bot_messages(GROUP)
                    if m.reply_to_message_id == sent["message_id"]
                ]

            # Being prepared first (the kit's game was never analysed), then the review.
            await fake.wait_for(lambda: bool(answers()), timeout=ROOMY)
            assert "wird vorbereitet" in answers()[0]
            await fake.wait_for(
                lambda: any("Genauigkeit" in text for text in answers()), timeout=ROOMY
            )

            await fake.start_private(ANA)
            await fake.send_message(ANA, ANA, "/games")
            await fake.wait_idle(timeout=ROOMY)
            private = fake.last_bot_text(ANA)
            assert private is not None and "Gruppe" in private


LEAVER = 7_300_000_011
LEAVER_NAME = "Zaskia Quintessa"


async def test_after_deletemydata_a_review_names_a_former_player(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(LEAVER, "Zaskia", last_name="Quintessa", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(LEAVER,))
        async with running_bot(fake, tmp_path / "gaple.sqlite3", **ANALYSED) as app:
            store = deps_of(app).service.store
            config = GameConfig(RuleSet.CLASSIC, 4, 1)
            players = [LEAVER, ANA, ComputerLevel.EASY, ComputerLevel.NORMAL]
            await play_game(store, GROUP, config, players, seed=4)
            await fake.start_private(LEAVER)
            # The kit's games go under "User <id>" until Telegram's name replaces it.
            async with store.transaction() as tx:
                await tx.users.upsert(LEAVER, LEAVER_NAME)
            before = await _review_of(fake, ANA)
            assert LEAVER_NAME in before.text

            await fake.send_message(LEAVER, LEAVER, "/deletemydata")
            await fake.wait_idle(timeout=ROOMY)
            question = fake.last_bot_message(LEAVER)
            assert question is not None
            query = await fake.press_button(LEAVER, LEAVER, question.message_id, "🗑 Delete my data")
            await fake.wait_callback_answer(query, timeout=ROOMY)
            await fake.wait_idle(timeout=ROOMY)

            # The stored review holds no trace of the person; it names a former player now.
            assert await rows_mentioning(store, LEAVER, LEAVER_NAME) == []
            assert await rows_mentioning(store, LEAVER, "Zaskia") == []
            after = await _review_of(fake, ANA)
            assert "Zaskia" not in after.text
            assert "a former player: accuracy" in after.text
            assert _numbers(after.text) == _numbers(before.text)
            listed = await _answer(fake, ANA, "/games")
            assert "a former player" in listed.text and "Zaskia" not in listed.text


def _numbers(text: str) -> list[str]:
    """The figures of a review (accuracies, losses, rounds), in order."""
    return re.findall(r"\d+(?:\.\d)?", text.split("\n", 1)[1])


async def test_without_the_analysis_review_shows_a_stored_review_or_says_it_is_off(
    tmp_path: Path,
) -> None:
    async with _reviews_off_game(tmp_path, "fr") as (fake, app, first):
        store = deps_of(app).service.store
        off = await _answer(fake, ANA, "/review")
        assert "désactivé les analyses" in off.text

        # A review stored by then (say, before the host turned them off) is shown, the
        # move made named as it was played (the round's second move).
        history = await deps_of(app).service.reviews.history(first)
        played, better = history[0][1][1], _two_moves()[1]
        blunder = MoveReview(1, 2, 0, played, better, 25.0, Mark.BLUNDER, ())
        review = GameReview((blunder,), (SeatSummary(0, 7, 62.5, 3.6, blunder),))
        async with store.transaction() as tx:
            await tx.reviews.put(first, REVIEW_VERSION, review.to_json())
        shown = await _answer(fake, ANA, "/review")
        # French puts a no-break space before a colon (the catalogs' check insists).
        summary = "\N{NO-BREAK SPACE}: précision 63, 3,6 points perdus par décision (7 décisions)"
        assert summary in shown.text
        french = Translators().get("fr")
        label = GAPLE_KIND.presentation.move_label(french, played)
        assert f"Plus grosse erreur\N{NO-BREAK SPACE}: manche 1, {label} (" in shown.text


async def test_review_says_a_round_s_first_tile_opened_the_line(tmp_path: Path) -> None:
    """C7: the first tile of a line has no side: /review names it, and the better move
    there, as opening the line, never as played on the right."""
    async with _reviews_off_game(tmp_path, "de") as (fake, app, first):
        store = deps_of(app).service.store
        history = await deps_of(app).service.reviews.history(first)
        played, better = history[0][1][0], play(tile_id(5, 5), Side.RIGHT).code
        blunder = MoveReview(1, 1, 0, played, better, 25.0, Mark.BLUNDER, ())
        review = GameReview((blunder,), (SeatSummary(0, 7, 62.5, 3.6, blunder),))
        async with store.transaction() as tx:
            await tx.reviews.put(first, REVIEW_VERSION, review.to_json())
        shown = await _answer(fake, ANA, "/review")
        german = Translators().get("de")
        opened = GAPLE_KIND.presentation.played_label
        lead = opened(german, played, (Played(0, tile_id(6, 6), Side.RIGHT, None),))
        assert lead == "mit [6|6] eröffnen"
        assert f"Runde 1, {lead} (" in shown.text, shown.text
        assert "mit [5|5] eröffnen" in shown.text, shown.text
        assert " rechts" not in shown.text, shown.text


GAPLE_KIND = GapleKind()


@asynccontextmanager
async def _reviews_off_game(
    tmp_path: Path, language: str
) -> AsyncIterator[tuple[FakeTelegram, GapleApplication, int]]:
    """Ana's group, in `language`, on a bot with reviews off, where she played a game with
    three computers: the fake, the bot and the game."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code=language)
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(fake, tmp_path / "gaple.sqlite3", REVIEWS="no") as app:
            store = deps_of(app).service.store
            await deps_of(app).service.players.chat(GROUP, GROUP_TITLE)
            async with store.transaction() as tx:
                await tx.chats.set_language(GROUP, language)
            config = GameConfig(RuleSet.CLASSIC, 4, 1)
            players = [ANA, ComputerLevel.EASY, ComputerLevel.NORMAL, ComputerLevel.HARD]
            first, _ = await play_game(store, GROUP, config, players, seed=3)
            yield fake, app, first


def _two_moves() -> tuple[int, int]:
    """A move of Gaple and a better one."""
    return play(tile_id(6, 6), Side.LEFT).code, play(tile_id(6, 4), Side.RIGHT).code


async def test_a_game_of_gap_is_listed_and_reviewed_in_an_indonesian_chat(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(fake, tmp_path / "gaple.sqlite3", **PAGE, **ANALYSED) as app:
            deps = deps_of(app)
            await deps.service.players.chat(GROUP, GROUP_TITLE)
            async with deps.service.store.transaction() as tx:
                await tx.chats.set_language(GROUP, "id")
                await tx.chats.set_option(GROUP, "gap", "target", "1")
            await fake.start_private(ANA)
            await fake.send_message(ANA, GROUP, "/gap")
            await fake.wait_idle(timeout=ROOMY)
            lobby = fake.last_bot_message(GROUP)
            assert lobby is not None
            start = next(d for _, d in lobby.buttons() if d and d.startswith("ls:"))
            await fake.wait_callback_answer(await fake.press(ANA, GROUP, lobby.message_id, start))
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None

            async def finished() -> bool:
                async with deps.service.store.read() as tx:
                    return (await tx.games.get(game_id)).status is GameStatus.FINISHED

            players = Players(fake, (ANA,), GAP_CARDS)
            await players.play_until(finished, random.Random(2), seconds=ROOMY)
            await fake.wait_for(lambda: _end_message(fake) is not None, timeout=ROOMY)
            end = _end_message(fake)
            assert end is not None
            assert "📼 Tayangan ulang" in end.button_texts()

            listed = await _answer(fake, ANA, "/games")
            assert "Permainan terakhir di sini" in listed.text
            assert "Gap · " in listed.text and "Ana" in listed.text
            assert len(_links(listed)) == 1

            sent = await fake.send_message(
                ANA, GROUP, "/review", reply_to_message_id=end.message_id
            )

            def summary() -> str | None:
                return next(
                    (
                        m.text
                        for m in fake.bot_messages(GROUP)
                        if m.reply_to_message_id == sent["message_id"] and "akurasi" in m.text
                    ),
                    None,
                )

            await fake.wait_for(lambda: summary() is not None, timeout=ROOMY, message="no review")
            text = summary()
            assert text is not None and text.startswith("📊 Ulasan Gap · ")
            assert "Ana: akurasi " in text
