"""/games, /review and the Replay button as text: every person's summary, the better move named,
figures as each language writes them, a former player under the neutral name."""

from __future__ import annotations

import dataclasses
import html
from datetime import UTC, datetime, timedelta

import pytest

from gaple_bot.bot.render.page_links import PageLinks
from gaple_bot.bot.render.reviews import (
    render_finished_games,
    render_review,
    replay_button,
    replay_link,
)
from gaple_bot.games.gap.rules import GapConfig, card_id
from gaple_bot.games.gap.rules import Move as GapMove
from gaple_bot.games.gaple.rules import GameConfig, RuleSet, Side, play, tile_id
from gaple_bot.games.registry import default_registry
from gaple_bot.games.review import GameReview, Mark, MoveReview, SeatSummary
from gaple_bot.games.views import SeatInfo
from gaple_bot.i18n import SUPPORTED_LANGUAGES, Translators
from gaple_bot.service.reviews import FinishedGame, FinishedSeat

NOW = datetime(2026, 12, 6, 16, 0, tzinfo=UTC)
PAGE = PageLinks("gaple_test_bot", "table", "https://games.example.org")
REGISTRY = default_registry()
TRANSLATORS = Translators()
EN = TRANSLATORS.get("en")
PLAYED = play(tile_id(6, 6), Side.LEFT).code
BETTER = play(tile_id(6, 4), Side.RIGHT).code


def _game(*, former: bool = False) -> FinishedGame:
    ana = SeatInfo(0, 11, "Ana <3")
    budi = SeatInfo(1, None, "", autoplay=True, former=True) if former else SeatInfo(1, 12, "Budi")
    return FinishedGame(
        game_id=7,
        chat_id=-100,
        thread_id=None,
        kind="gaple",
        config=dict(GameConfig(RuleSet.CLASSIC, 3, 101).to_dict()),
        finished_at=NOW - timedelta(hours=2),
        replay_token="tok_123",
        seats=(
            FinishedSeat(budi, 2, 80),
            FinishedSeat(ana, 1, 104),
            FinishedSeat(SeatInfo(2, None, "", computer_level="hard"), 3, 12),
        ),
    )


def _review() -> GameReview:
    blunder = MoveReview(
        2, 5, 0, PLAYED, BETTER, 23.5, Mark.BLUNDER, ((PLAYED, 1.0), (BETTER, 24.5))
    )
    return GameReview(
        moves=(blunder,),
        seats=(SeatSummary(0, 12, 81.4, 2.3, blunder), SeatSummary(1, 9, 100.0, 0.0, None)),
    )


def test_the_list_has_one_line_per_game_winner_first_with_its_replay_link() -> None:
    text = render_finished_games(EN, REGISTRY, [_game()], NOW, PAGE)
    header, line, _, footer = text.splitlines()
    assert header == "🗂 <b>The last games here</b>"
    assert line.startswith("<b>Gaple</b> · ")
    assert ", 2 hours ago: 🏆 Ana &lt;3 104, Budi 80, 🤖 Hard 12 · " in line
    link = "https://t.me/gaple_test_bot/table?startapp=rp_tok_123"
    assert replay_link(PAGE, "tok_123") == link
    assert line.endswith(f'<a href="{html.escape(link)}">📼 Replay</a>')
    assert "/review" in footer
    # Without the page: the same line, no link.
    bare = render_finished_games(EN, REGISTRY, [_game()], NOW, None)
    assert "href" not in bare and "🏆 Ana &lt;3 104" in bare


def test_no_finished_game_says_how_to_play_one() -> None:
    text = render_finished_games(EN, REGISTRY, [], NOW, PAGE)
    assert text.startswith("No game has ended in this chat yet.")
    assert "/gaple or /gap" in text


def test_the_review_sums_up_every_person_and_names_the_better_move() -> None:
    text = render_review(EN, REGISTRY, _game(), _review(), NOW)
    lines = text.splitlines()
    assert lines[0].startswith("📊 <b>Review</b> of <b>Gaple</b>")
    assert lines[0].endswith(", 2 hours ago")
    assert "<b>Ana &lt;3</b>: accuracy 81, 2.3 points lost per decision (12 decisions)" in lines
    assert (
        "Biggest mistake: round 2, [6|6] on the left (23.5 points lost); "
        "better: [6|4] on the right."
    ) in lines
    assert "<b>Budi</b>: accuracy 100, 0.0 points lost per decision (9 decisions)" in lines
    assert "No mistake worth naming. Well played!" in lines
    # The computer's seat has no summary.
    assert "Hard" not in text


def test_a_small_loss_is_not_called_a_mistake_and_a_seat_without_choices_says_so() -> None:
    good = MoveReview(1, 3, 0, PLAYED, BETTER, 2.0, Mark.GOOD, ())
    review = GameReview((good,), (SeatSummary(0, 1, 81.9, 2.0, good),))
    text = render_review(EN, REGISTRY, _game(), review, NOW)
    assert "(1 decision)" in text
    assert "Biggest mistake" not in text
    assert "<b>Budi</b>: no decision with a choice to make." in text


def test_a_former_player_is_named_neutrally_in_the_list_and_the_review() -> None:
    game = _game(former=True)
    listed = render_finished_games(EN, REGISTRY, [game], NOW, PAGE)
    assert "a former player 80" in listed
    review = render_review(EN, REGISTRY, game, _review(), NOW)
    assert "<b>a former player</b>: accuracy 100" in review


@pytest.mark.parametrize("language", [lang for lang in SUPPORTED_LANGUAGES if lang != "en"])
def test_every_language_has_its_own_words_and_figures(language: str) -> None:
    t = TRANSLATORS.get(language)
    review = render_review(t, REGISTRY, _game(), _review(), NOW)
    english = render_review(EN, REGISTRY, _game(), _review(), NOW)
    assert review != english
    decimal = "2,3" if language in ("de", "fr", "id") else "2.3"
    assert decimal in review
    better = REGISTRY.get("gaple").presentation.move_label(t, BETTER)
    assert html.escape(better) in review
    listed = render_finished_games(t, REGISTRY, [_game()], NOW, PAGE)
    assert "rp_tok_123" in listed
    assert replay_button(t, PAGE, "tok").text.startswith("📼")


def test_a_game_just_ended_is_never_in_the_future() -> None:
    game = dataclasses.replace(_game(), finished_at=NOW + timedelta(seconds=3))
    assert "in " not in render_finished_games(EN, REGISTRY, [game], NOW, PAGE).split("\n")[1]


def test_a_game_of_gap_names_its_cards() -> None:
    red7 = card_id(0, 7)
    played, better = GapMove(red7).code, GapMove(red7, 1, 2).code
    game = dataclasses.replace(_game(), kind="gap", config=dict(GapConfig(3, 30).to_dict()))
    mistake = MoveReview(1, 4, 0, played, better, 60.0, Mark.MISTAKE, ())
    review = GameReview((mistake,), (SeatSummary(0, 5, 70.0, 12.0, mistake),))
    text = render_review(EN, REGISTRY, game, review, NOW)
    assert "<b>Review</b> of <b>Gap</b> · first to 30" in text
    assert "round 1, 🟥7 (60.0 points lost); better: 🟥7 taking 🟩6 🟦8." in text
    assert "<b>Gap</b> · first to 30, 2 hours ago: 🏆 Ana" in render_finished_games(
        EN, REGISTRY, [game], NOW, None
    )


def test_the_move_made_is_named_as_it_was_played_when_the_replay_says_so() -> None:
    played = {(2, 5): "🟥8 taking 🟦8 <i>"}
    text = render_review(EN, REGISTRY, _game(), _review(), NOW, played)
    assert (
        "Biggest mistake: round 2, 🟥8 taking 🟦8 &lt;i&gt; (23.5 points lost); "
        "better: [6|4] on the right."
    ) in text.splitlines()


def test_the_better_move_is_named_as_the_replay_says_it_would_have_been_played() -> None:
    played, better = {(2, 5): "open with [6|6]"}, {(2, 5): "open with [6|4]"}
    text = render_review(EN, REGISTRY, _game(), _review(), NOW, played, better)
    assert (
        "Biggest mistake: round 2, open with [6|6] (23.5 points lost); better: open with [6|4]."
    ) in text.splitlines()
