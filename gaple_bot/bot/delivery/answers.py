"""What each answer to a group request means: deliver, retry, send afresh, follow or give up."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

RETRIES = 3
"""Requests made for one message before it is left for later (stored) or dropped."""
NO_RIGHTS = ("not enough rights", "have no rights to send", "chat_write_forbidden")
"""Parts of a 400 answer saying the bot may not write in the group."""
NO_PHOTOS_SECONDS = 3600.0
"""How long captions go as text in a group that refused a photo over rights."""


class Answer(Enum):
    """How Telegram answered a request (or did not)."""

    ACCEPTED = "accepted"
    RETRY_AFTER = "retry after"
    """429: Telegram's own limit was hit anyway (another client); it says how long to wait."""
    BAD_REQUEST = "bad request"
    """400, with Telegram's reason."""
    FORBIDDEN = "forbidden"
    """403: the bot was removed or blocked."""
    NETWORK = "network"
    """No answer: the request may have reached Telegram all the same."""
    MIGRATED = "migrated"
    """The group became a supergroup, with a new chat id."""
    OTHER = "other"
    """Any other refusal."""


@dataclass(frozen=True, slots=True)
class Reply:
    """One answer: its kind, Telegram's reason, and what it carries (seconds to wait, the new
    chat of a migrated group)."""

    answer: Answer
    reason: str = ""
    retry_after: float = 0.0
    new_chat_id: int | None = None


class Outcome(StrEnum):
    """How a request's last attempt ended."""

    DELIVERED = "delivered"
    REFUSED = "refused"
    """For good: it is not tried again."""
    MIGRATED = "migrated"
    """The group moved on: a stored send follows it, anything else is dropped."""
    GONE = "gone"
    """The message to edit is gone: the change goes out as a fresh message."""
    UNANSWERED = ""
    """No answer after every retry (or the outbox closed): a stored send stays stored."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What to do after an answer: `outcome` None means try again after `pause` seconds
    (and within the budget); `counts`: the request counts in the group's budget."""

    outcome: Outcome | None
    counts: bool = True
    pause: float = 0.0
    lost_rights: bool = False
    """The bot may not write in the group (tell the hook)."""
    photo_refused: bool = False
    """Telegram refused the photo: its caption goes as text from now on."""
    no_photos: bool = False
    """The group refuses photos over rights: its captions go as text for a while."""
    warning: str | None = None
    """Worth a warning in the log."""


@dataclass(slots=True)
class Attempts:
    """One request's attempts: how many were made and whether it still goes as a photo."""

    tries: int = 0
    photo_tried: bool = False
    """The last request sent it as a photo (a refusal then sends its caption as text)."""
    text_only: bool = False
    """Telegram refused the photo: the caption goes as a text message."""

    @property
    def left(self) -> bool:
        """Whether another attempt may be made."""
        return self.tries < RETRIES

    def judge(self, reply: Reply, *, fresh: bool) -> Verdict:
        """The verdict on one attempt's answer (`fresh`: it sent a message, not an edit)."""
        self.tries += 1
        answer, text = reply.answer, reply.reason.lower()
        if answer is Answer.ACCEPTED:
            return Verdict(Outcome.DELIVERED)
        if answer is Answer.RETRY_AFTER:
            return Verdict(None, counts=False, pause=reply.retry_after)
        if answer is Answer.NETWORK:
            return Verdict(None, pause=float(self.tries), warning="failed, retrying")
        if answer is Answer.MIGRATED:
            return Verdict(Outcome.MIGRATED)
        if answer is Answer.FORBIDDEN:
            return Verdict(Outcome.REFUSED, lost_rights=True, warning="refused")
        if answer is Answer.OTHER:
            return Verdict(Outcome.REFUSED, warning="failed")
        no_rights = any(part in text for part in NO_RIGHTS)
        if self.photo_tried:
            # A photo Telegram will not take (its size, its file, no right to send photos
            # here) still says what it says: its caption goes as text.
            self.text_only = True
            return Verdict(None, photo_refused=True, no_photos=no_rights)
        if not fresh and "message to edit not found" in text:
            return Verdict(Outcome.GONE)
        if no_rights:
            return Verdict(Outcome.REFUSED, lost_rights=True)
        if "not modified" in text:
            return Verdict(Outcome.REFUSED)
        return Verdict(Outcome.REFUSED, warning="failed")


class Groups:
    """What the outbox knows of each group's rights: where it may not write (the hook is told
    once until a request there succeeds), which refuse photos and since when, which moved."""

    def __init__(self) -> None:
        self._unwritable: set[int] = set()
        self._no_photos: dict[int, float] = {}
        self._migrated: set[int] = set()

    def wrote(self, chat_id: int) -> None:
        """A request to the group succeeded."""
        self._unwritable.discard(chat_id)

    def lost_rights(self, chat_id: int) -> bool:
        """The bot may not write in the group; whether that is news (to tell the hook)."""
        if chat_id in self._unwritable:
            return False
        self._unwritable.add(chat_id)
        return True

    def migrated(self, chat_id: int) -> bool:
        """The group moved; whether that is news (every request queued for the old chat is
        refused the same way: telling once does)."""
        if chat_id in self._migrated:
            return False
        self._migrated.add(chat_id)
        return True

    def photos_refused(self, chat_id: int, now: float) -> None:
        """The group refused a photo over rights: later captions go as text for a while."""
        self._no_photos[chat_id] = now

    def refuses_photos(self, chat_id: int, now: float) -> bool:
        """Whether the group refused a photo over rights lately (admins change rights, so a
        photo is tried again after NO_PHOTOS_SECONDS)."""
        since = self._no_photos.get(chat_id)
        if since is None:
            return False
        if now - since < NO_PHOTOS_SECONDS:
            return True
        del self._no_photos[chat_id]
        return False
