"""The delivery core on its own: budgets, queue order and merging, answers, stored queues;
plain synchronous tests on a given "now", no event loop and no Telegram."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, ReplyParameters

from gaple_bot.bot.delivery.answers import (
    NO_PHOTOS_SECONDS,
    RETRIES,
    Answer,
    Attempts,
    Groups,
    Outcome,
    Reply,
)
from gaple_bot.bot.delivery.queues import Item, Queues, Wait
from gaple_bot.bot.delivery.records import GroupMessage, Kind
from gaple_bot.bot.delivery.stored import Forget, Request, head_request
from gaple_bot.bot.delivery.stored_json import stored_json, stored_message
from gaple_bot.bot.outbox_json import params_to_json
from gaple_bot.bot.pacing.budget import WINDOW, Budgets
from gaple_bot.games.pictures import Picture
from gaple_bot.service.api import QueuedSend

GROUP = -100
OTHER = -200


@dataclass(eq=False)
class Target:
    """A message as the queue sees it."""

    chat_id: int
    shown: str | None = None


def text(chat_id: int, words: str, kind: Kind = Kind.SEND) -> GroupMessage:
    return GroupMessage(chat_id, kind, text=words, parse_mode="HTML")


def send(chat_id: int, words: str) -> Item[Target]:
    return Item(Target(chat_id), text(chat_id, words))


def taken(queues: Queues[Item[Target]], chat_id: int, now: float) -> list[str | None]:
    """Everything the group's queue gives at `now` while its budget allows."""
    out: list[str | None] = []
    while isinstance(step := queues.next(chat_id, now), Item):
        out.append(step.message.text)
        queues.budgets.count(chat_id, now)
    return out


# The budget ------------------------------------------------------------------------------


def test_the_budget_allows_n_requests_in_any_window() -> None:
    budgets = Budgets(3)
    for at in (0.0, 1.0, 2.0):
        assert budgets.wait(GROUP, at) == 0
        budgets.count(GROUP, at)
    # The oldest leaves the window WINDOW seconds after its answer.
    assert budgets.wait(GROUP, 10.0) == pytest.approx(WINDOW - 10.0)
    assert budgets.wait(GROUP, WINDOW) == 0
    assert budgets.wait(OTHER, 10.0) == 0, "another group's budget is its own"


def test_the_budget_loaded_from_the_ledger_counts_after_a_restart() -> None:
    budgets = Budgets(2)
    assert not budgets.known(GROUP)
    budgets.load(GROUP, [100.0, 130.0])
    assert budgets.known(GROUP)
    assert budgets.wait(GROUP, 140.0) == pytest.approx(100.0 + WINDOW - 140.0)
    assert budgets.since(140.0) == pytest.approx(140.0 - WINDOW)


# The queue -------------------------------------------------------------------------------


def test_a_group_gets_its_messages_in_order_within_its_budget() -> None:
    queues: Queues[Item[Target]] = Queues(Budgets(2))
    for words in ("one", "two", "three"):
        queues.push(send(GROUP, words))
    assert taken(queues, GROUP, 0.0) == ["one", "two"]
    assert queues.next(GROUP, 5.0) == Wait(pytest.approx(WINDOW - 5.0))
    assert taken(queues, GROUP, WINDOW) == ["three"]
    assert queues.next(GROUP, WINDOW) is None


def test_a_full_group_keeps_no_other_group_waiting() -> None:
    queues: Queues[Item[Target]] = Queues(Budgets(1))
    queues.push(send(GROUP, "a1"))
    queues.push(send(GROUP, "a2"))
    queues.push(send(OTHER, "b1"))
    assert taken(queues, GROUP, 0.0) == ["a1"]
    assert isinstance(queues.next(GROUP, 0.0), Wait)
    assert taken(queues, OTHER, 0.0) == ["b1"]
    assert queues.lengths() == [1]


def test_edits_of_one_message_merge_while_they_wait() -> None:
    queues: Queues[Item[Target]] = Queues(Budgets(10))
    table = Target(GROUP)
    queues.push(send(GROUP, "notice"))
    assert queues.edit(Item(table, text(GROUP, "v1", Kind.EDIT)), idle=False)
    assert not queues.edit(Item(table, text(GROUP, "v2", Kind.EDIT)), idle=False)
    queues.push(send(GROUP, "after"))
    assert taken(queues, GROUP, 0.0) == ["notice", "v2", "after"]


def test_an_edit_to_what_the_message_shows_is_not_made() -> None:
    queues: Queues[Item[Target]] = Queues(Budgets(10))
    shown = text(GROUP, "same", Kind.EDIT)
    table = Target(GROUP, shown=shown.content())
    assert not queues.edit(Item(table, shown), idle=True), "nothing waits: nothing to do"
    queues.push(send(GROUP, "busy"))
    assert queues.edit(Item(table, text(GROUP, "other", Kind.EDIT)), idle=False)
    # Changed back while it waited: dropped when its turn comes.
    assert not queues.edit(Item(table, shown), idle=False)
    assert taken(queues, GROUP, 0.0) == ["busy"]
    assert queues.empty(GROUP)


def test_a_change_to_a_message_that_is_gone_goes_first_as_a_fresh_one() -> None:
    queues: Queues[Item[Target]] = Queues(Budgets(10))
    table = Target(GROUP)
    queues.edit(Item(table, text(GROUP, "v1", Kind.EDIT)), idle=True)
    queues.push(send(GROUP, "later"))
    gone = queues.next(GROUP, 0.0)
    assert isinstance(gone, Item)
    queues.send_fresh(gone)
    assert taken(queues, GROUP, 0.0) == ["v1", "later"]


def test_dropping_a_group_takes_all_it_has_waiting() -> None:
    queues: Queues[Item[Target]] = Queues(Budgets(10))
    table = Target(GROUP)
    queues.push(send(GROUP, "one"))
    queues.edit(Item(table, text(GROUP, "v1", Kind.EDIT)), idle=False)
    assert [item.message.text for item in queues.drop(GROUP)] == ["one", "v1"]
    assert queues.next(GROUP, 0.0) is None
    # The dropped edit no longer absorbs new ones.
    assert queues.edit(Item(table, text(GROUP, "v2", Kind.EDIT)), idle=False)


# Answers ---------------------------------------------------------------------------------


def judge(
    reply: Reply, *, fresh: bool = True, photo: bool = False
) -> tuple[Attempts, Outcome | None]:
    attempts = Attempts(photo_tried=photo)
    return attempts, attempts.judge(reply, fresh=fresh).outcome


@pytest.mark.parametrize(
    ("reply", "fresh", "outcome"),
    [
        (Reply(Answer.ACCEPTED), True, Outcome.DELIVERED),
        (Reply(Answer.BAD_REQUEST, "Bad Request: message to edit not found"), False, Outcome.GONE),
        (Reply(Answer.BAD_REQUEST, "Bad Request: message is not modified"), False, Outcome.REFUSED),
        (Reply(Answer.BAD_REQUEST, "Bad Request: chat not found"), True, Outcome.REFUSED),
        (Reply(Answer.FORBIDDEN, "Forbidden: bot was kicked"), True, Outcome.REFUSED),
        (Reply(Answer.MIGRATED, new_chat_id=OTHER), True, Outcome.MIGRATED),
        (Reply(Answer.OTHER, "Conflict"), True, Outcome.REFUSED),
        (Reply(Answer.NETWORK, "timed out"), True, None),
        (Reply(Answer.RETRY_AFTER, retry_after=7), True, None),
    ],
)
def test_each_answer_has_its_outcome(reply: Reply, fresh: bool, outcome: Outcome | None) -> None:
    assert judge(reply, fresh=fresh)[1] is outcome


def test_a_send_never_counts_its_edit_target_as_gone() -> None:
    reply = Reply(Answer.BAD_REQUEST, "Bad Request: message to edit not found")
    assert judge(reply, fresh=True)[1] is Outcome.REFUSED


def test_retries_wait_as_told_and_429s_do_not_count() -> None:
    attempts = Attempts()
    told = attempts.judge(Reply(Answer.RETRY_AFTER, retry_after=7.0), fresh=True)
    assert (told.pause, told.counts) == (7.0, False)
    lost = attempts.judge(Reply(Answer.NETWORK), fresh=True)
    assert (lost.pause, lost.counts) == (2.0, True), "a request that may have arrived counts"
    assert attempts.left
    attempts.judge(Reply(Answer.NETWORK), fresh=True)
    assert not attempts.left and attempts.tries == RETRIES


def test_lost_rights_are_told_once_until_a_request_succeeds() -> None:
    verdict = Attempts().judge(
        Reply(Answer.BAD_REQUEST, "Bad Request: not enough rights to send text messages"),
        fresh=True,
    )
    assert verdict.outcome is Outcome.REFUSED and verdict.lost_rights
    assert Attempts().judge(Reply(Answer.FORBIDDEN), fresh=True).lost_rights
    groups = Groups()
    assert groups.lost_rights(GROUP)
    assert not groups.lost_rights(GROUP)
    groups.wrote(GROUP)
    assert groups.lost_rights(GROUP)


def test_a_refused_photo_goes_as_its_caption_and_rights_keep_photos_off_a_while() -> None:
    attempts, outcome = judge(Reply(Answer.BAD_REQUEST, "Bad Request: wrong file"), photo=True)
    assert outcome is None and attempts.text_only
    verdict = Attempts(photo_tried=True).judge(
        Reply(Answer.BAD_REQUEST, "Bad Request: not enough rights to send photos"), fresh=True
    )
    assert verdict.photo_refused and verdict.no_photos and not verdict.lost_rights
    groups = Groups()
    groups.photos_refused(GROUP, 1000.0)
    assert groups.refuses_photos(GROUP, 1000.0 + NO_PHOTOS_SECONDS - 1)
    assert not groups.refuses_photos(GROUP, 1000.0 + NO_PHOTOS_SECONDS)
    assert not groups.refuses_photos(OTHER, 1000.0)


def test_a_migration_is_news_once_per_group() -> None:
    groups = Groups()
    assert groups.migrated(GROUP)
    assert not groups.migrated(GROUP)


# Records ---------------------------------------------------------------------------------


def test_a_message_stores_the_json_the_outbox_always_stored() -> None:
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Join", callback_data="j")]])
    reply = ReplyParameters(5, allow_sending_without_reply=True)
    params = {
        "message_thread_id": 7,
        "text": "<b>hi</b>",
        "parse_mode": "HTML",
        "reply_markup": markup,
        "reply_parameters": reply,
    }
    message = GroupMessage.of(GROUP, Kind.SEND, params, game_id=3)
    assert stored_json(message) == params_to_json(params)
    again = stored_message(GROUP, Kind.SEND, stored_json(message), game_id=3)
    assert again == message


def test_an_old_stored_send_reads_as_a_plain_send() -> None:
    message = stored_message(GROUP, Kind.SEND, {"text": "Giliran Ani"}, thread_id=4)
    assert message == GroupMessage(GROUP, Kind.SEND, thread_id=4, text="Giliran Ani")


def test_a_photo_stores_its_picture_and_caption() -> None:
    picture = Picture("standings", {"title": "round 1"})
    params = {"picture": picture, "text": "round 1", "parse_mode": "HTML"}
    message = GroupMessage.of(GROUP, Kind.SEND, params)
    assert stored_json(message) == params_to_json(params)
    assert stored_message(GROUP, Kind.SEND, stored_json(message)) == message
    assert message.content() is None, "a photo is never edited"


def test_a_message_takes_no_argument_it_does_not_know() -> None:
    with pytest.raises(TypeError):
        GroupMessage.of(GROUP, Kind.SEND, {"text": "x", "protect_content": True})


def test_a_moved_message_keeps_no_topic_nor_reply() -> None:
    message = GroupMessage(
        GROUP, thread_id=3, text="result", reply_parameters=ReplyParameters(9)
    ).moved_to(OTHER)
    assert (message.chat_id, message.thread_id, message.reply_parameters) == (OTHER, None, None)
    assert message.text == "result"


# The stored queue ------------------------------------------------------------------------


def row(
    row_id: int,
    kind: str,
    words: str | None = None,
    *,
    game_id: int | None = None,
    paced: bool = False,
) -> QueuedSend:
    params = {} if words is None else {"text": words}
    return QueuedSend(row_id, GROUP, None, params, kind=kind, game_id=game_id, paced=paced)


def test_the_stored_head_edit_carries_the_newest_edit_of_its_message() -> None:
    rows = [
        row(1, "edit", "v1", game_id=5),
        row(2, "send", "notice"),
        row(3, "edit", "v2", game_id=5),
        row(4, "edit", "other game", game_id=6),
        row(5, "edit", "v3", game_id=5),
    ]
    head = head_request(rows)
    assert isinstance(head, Request)
    assert (head.message.text, head.covered) == ("v3", (1, 3, 5))


def test_a_merged_edit_waits_for_its_tables_pace_only_if_every_edit_it_carries_may() -> None:
    paced = [row(1, "edit", "v1", game_id=5, paced=True), row(2, "send", "notice")]
    paced.append(row(3, "edit", "v2", game_id=5, paced=True))
    head = head_request(paced)
    assert isinstance(head, Request) and head.message.paced and head.covered == (1, 3)
    # A round's end edits the table at once: the moves' edits before it go with it.
    at_once = [*paced, row(4, "edit", "round over", game_id=5)]
    head = head_request(at_once)
    assert isinstance(head, Request) and not head.message.paced
    assert (head.message.text, head.covered) == ("round over", (1, 3, 4))
    # Only an edit waits for a pace.
    send = head_request([row(1, "send", "table", game_id=5, paced=True)])
    assert isinstance(send, Request) and not send.message.paced


def test_edits_after_a_fresh_message_of_the_game_are_for_that_one() -> None:
    rows = [row(1, "edit", "v1", game_id=5), row(2, "send", "new table", game_id=5)]
    rows.append(row(3, "edit", "v2", game_id=5))
    head = head_request(rows)
    assert isinstance(head, Request) and head.covered == (1,)


def test_a_stored_forget_mark_and_an_empty_queue() -> None:
    assert head_request([row(8, "forget", game_id=5)]) == Forget(5, 8)
    assert head_request([]) is None
    send_head = head_request([row(1, "send", "a"), row(2, "send", "b")])
    assert isinstance(send_head, Request) and send_head.covered == (1,)
