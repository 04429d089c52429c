"""The shared queue's rule: what the head of a group's stored queue sends, and which rows it
covers (edits of one message merge while they wait)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ...service.api import QueuedSend
from .records import GroupMessage, Kind
from .stored_json import stored_message


@dataclass(frozen=True, slots=True)
class Forget:
    """The head is a mark that the game's message is not edited again: forget it, then go on."""

    game_id: int
    row_id: int


@dataclass(frozen=True, slots=True)
class Request:
    """The head's request: the message (an edit carries the newest content of its message's
    edits waiting after it, and is paced only if every one of them is), the message id it
    edits when it is no game's, the rows it covers."""

    message: GroupMessage
    message_id: int | None
    covered: tuple[int, ...]


def head_request(rows: Sequence[QueuedSend]) -> Forget | Request | None:
    """What the group's stored queue (in order) sends next; None if nothing waits."""
    if not rows:
        return None
    head = rows[0]
    kind = Kind(head.kind)
    if kind is Kind.FORGET and head.game_id is not None:
        return Forget(head.game_id, head.id)
    covered = [head.id]
    params = head.params
    paced = paced_edit(head)
    if kind is Kind.EDIT:
        for row in rows[1:]:
            if head.game_id is not None and row.game_id == head.game_id and row.kind != Kind.EDIT:
                # A fresh message of the game (or none): later edits are for that one.
                break
            if (row.kind, row.game_id, row.message_id) == (
                Kind.EDIT,
                head.game_id,
                head.message_id,
            ):
                covered.append(row.id)
                params = row.params
                paced = paced and paced_edit(row)
    message = stored_message(
        head.chat_id, kind, params, thread_id=head.thread_id, game_id=head.game_id
    )
    return Request(replace(message, paced=paced), head.message_id, tuple(covered))


def paced_edit(row: QueuedSend) -> bool:
    """Whether a stored row is a table edit that may wait for its table's pace."""
    return row.paced and row.kind == Kind.EDIT
