"""/privacy and the /deletemydata question say what forgetting does, no more, in every language."""

from __future__ import annotations

import pytest

from gaple_bot.bot.render.privacy import render_delete_question, render_privacy
from gaple_bot.i18n import SUPPORTED_LANGUAGES, Translators


def test_privacy_says_what_the_code_does() -> None:
    text = render_privacy(Translators().get("en"))
    # What /deletemydata deletes (store.forget_user: user row, ratings, rating changes).
    assert "I delete your name, languages, ratings and rating history." in text
    # Their games move to one fresh former player per person, so other records hold.
    assert "under one neutral entry, “a former player”" in text
    assert "everyone else's records hold" in text
    # Forgetting.leave runs before forget: a running seat goes to the computer first.
    assert "the computer takes your seat first" in text
    # The group outbox: rows wait until Telegram takes them, and are deleted then.
    assert "wait in my database until sent" in text
    assert "deleted once delivered" in text
    # The private chats' shared pace (store.private_paces): a minute, several workers only.
    assert "When I last wrote to you privately, for a minute" in text
    # A webhook's updates (store.repos.updates): their content kept until handled, then cleared.
    assert "What you send me (a command, a tap) while I handle it, usually under a second" in text
    assert "My logs name people by Telegram id only." in text
    # Every game's hand comes privately (Gaple's tiles, Gap's cards).
    assert "Why: to send you your hand, run the tables," in text


def test_the_question_before_deleting_says_the_same() -> None:
    question = render_delete_question(Translators().get("en")).text
    assert "name, languages, ratings and rating history" in question
    assert "“a former player”" in question
    assert "the computer takes your seat first" in question


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_the_former_player_is_named_as_the_leaderboards_name_it(language: str) -> None:
    t = Translators().get(language)
    name = t.gettext("a former player")
    assert name in render_privacy(t)
    assert name in render_delete_question(t).text


def test_privacy_says_what_a_review_keeps_and_that_forgetting_reaches_it() -> None:
    text = render_privacy(Translators().get("en"))
    # store.repos.reviews: each move's mark and every legal move's value, by game and seat.
    assert "The review of each finished game" in text
    assert "(best, good, inaccuracy, mistake, blunder)" in text
    assert "Never your messages." in text
    # Reviews hold no user id: the seat, handed to the former player, names them.
    assert "Their replays and reviews name you “a former player” too" in text
