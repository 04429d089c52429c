"""The open pages of this worker, by game, and what each is shown after every change.

The hub reads every published outcome; for each game with pages open it pushes the moves just
made and a round's reveal, then every viewer's own state, all from one snapshot of the game
read once (so a page never sees a hand but its viewer's, and never a stale state)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from ..games.registry import Registry
from ..i18n import Translator, Translators
from ..service.errors import ServiceError
from ..service.outcome import NextGame, Outcome, Played, Reminded, RoundEnded, TurnSeen
from ..service.runtime import GameService
from ..service.snapshot import GameSnapshot
from .sessions import SessionSigner
from .state import JSON, Viewer, state_of

log = logging.getLogger(__name__)
UNSEEN_EFFECTS = (TurnSeen, Reminded)
"""Effects a page shows nothing of (it counts its turn down itself)."""
QUEUE_FRAMES = 64
"""Frames kept for a slow page; past that it is sent its state afresh instead."""


class PageSocket:
    """One open page: who views which game, and the frames waiting to be sent to it."""

    def __init__(self, viewer: Viewer, game_id: int, t: Translator) -> None:
        self.viewer = viewer
        self.game_id = game_id
        self.t = t
        self.frames: asyncio.Queue[JSON] = asyncio.Queue(QUEUE_FRAMES)
        self.behind = False
        """Frames were dropped: the next state sent is all it needs."""
        self.shown_turn: int | None = None
        """The version of the viewer's own turn the page has shown (told to the service once)."""
        self.revision = 0
        """The newest version of the game a state pushed to the page showed."""

    def push(self, frame: JSON) -> None:
        """Queue `frame`; a page too far behind loses its queue and gets the state afresh. A
        state older than one already pushed is dropped (an outcome's, read before a resync's
        fresher one went out)."""
        if frame.get("t") == "state":
            if frame["revision"] < self.revision:
                return
            self.revision = frame["revision"]
        try:
            self.frames.put_nowait(frame)
        except asyncio.QueueFull:
            self.behind = True
            while not self.frames.empty():
                self.frames.get_nowait()
            if frame.get("t") == "state":
                self.frames.put_nowait(frame)


class PageHub:
    """Every open page of this worker, by game; pushes what each viewer may see."""

    def __init__(
        self,
        service: GameService,
        translators: Translators,
        registry: Registry,
        signer: SessionSigner,
    ) -> None:
        self.service = service
        self.signer = signer
        self.translators = translators
        self.registry = registry
        self._pages: dict[int, set[PageSocket]] = {}
        self._task: asyncio.Task[None] | None = None
        self._refreshing: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Read the service's outcomes from now on."""
        subscription = self.service.feed.subscribe()
        self._task = asyncio.create_task(self._follow(subscription))

    async def stop(self) -> None:
        """Stop reading outcomes."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def changed_elsewhere(self, game_id: int) -> None:
        """Another worker changed the game: its pages here get their states afresh (and a
        turn they show is told to the service: that worker did not know of the page)."""
        if game_id in self._pages:
            task = asyncio.create_task(self.refresh(game_id, elsewhere=True))
            self._refreshing.add(task)
            task.add_done_callback(self._refreshing.discard)

    def add(self, page: PageSocket) -> None:
        """The page is open on its game."""
        self._pages.setdefault(page.game_id, set()).add(page)
        self.service.pages.opened(page.game_id, page.viewer.user_id)

    def remove(self, page: PageSocket) -> None:
        """The page went away."""
        pages = self._pages.get(page.game_id)
        if pages is not None and page in pages:
            pages.discard(page)
            if not pages:
                del self._pages[page.game_id]
            self.service.pages.closed(page.game_id, page.viewer.user_id)

    def pages_of(self, game_id: int) -> set[PageSocket]:
        """The pages open on the game."""
        return self._pages.get(game_id, set())

    def photos(self, game_id: int) -> dict[int, str]:
        """The Telegram photos of the people with the game's page open here, by user."""
        return {
            page.viewer.user_id: page.viewer.photo
            for page in self.pages_of(game_id)
            if page.viewer.photo is not None
        }

    async def _follow(self, subscription: Any) -> None:
        try:
            while True:
                outcome = await subscription.next()
                if subscription.missed:
                    subscription.missed = 0
                    for game_id in list(self._pages):
                        await self.refresh(game_id, elsewhere=True)
                try:
                    await self.show(outcome)
                except Exception:
                    log.exception("game %s: the pages could not be shown a change", outcome.game_id)
        finally:
            subscription.close()

    async def show(self, outcome: Outcome) -> None:
        """Push the outcome's moves, reveal and next game to the game's pages, then their
        states."""
        pages = self.pages_of(outcome.game_id)
        if not pages or all(isinstance(e, UNSEEN_EFFECTS) for e in outcome.effects):
            return
        for effect in outcome.effects:
            if isinstance(effect, NextGame):
                now = self.service.clock()
                for page in pages:
                    viewer = page.viewer
                    # The same group's next table: the page follows with a session for it.
                    session = self.signer.issue(
                        viewer.user_id,
                        viewer.name,
                        viewer.language,
                        effect.game_id,
                        now,
                        viewer.photo,
                    )
                    page.push(
                        {
                            "t": "moved",
                            "game_id": effect.game_id,
                            "table": effect.token,
                            "session": session,
                        }
                    )
            elif isinstance(effect, RoundEnded):
                reveal = effect.reveal
                presentation = self.registry.get(reveal.table.kind).presentation
                for page in pages:
                    page.push(
                        {
                            "t": "reveal",
                            "round": reveal.table.round_number,
                            "reveal": presentation.page_reveal(page.t, reveal),
                        }
                    )
        await self.refresh(outcome.game_id, _played(outcome), snapshot=outcome.snapshot)

    async def refresh(
        self,
        game_id: int,
        played: list[Played] | None = None,
        *,
        elsewhere: bool = False,
        snapshot: GameSnapshot | None = None,
    ) -> None:
        """Every page of the game gets its viewer's state (after the moves just made), all
        from one snapshot: the outcome's (taken while the command held the game), else one
        read now. `elsewhere`: the change was made where this worker's pages were unknown
        (another worker), so a turn a page shows is told to the service here; a command of
        this worker knew the page was open when the turn began."""
        if not self.pages_of(game_id):
            return
        if snapshot is None:
            try:
                snapshot = await self.service.page_commands.snapshot(game_id)
            except ServiceError as error:
                log.info("game %s: no state for its pages: %s", game_id, error)
                return
        now = self.service.clock()
        seen: int | None = None
        # The public board is drawn once per language, not once per page.
        boards: dict[str, JSON] = {}
        photos = self.photos(game_id)
        for page in list(self.pages_of(game_id)):
            state = state_of(snapshot, page.t, self.registry, page.viewer, now, boards, photos)
            if played:
                # The board's recent lines are its last moves, oldest first: they tell the
                # newest of the moves just made (more may have been made than it keeps).
                recent = (state.get("board") or {}).get("recent") or []
                texts = recent[-len(played) :]
                untold = len(played) - len(texts)
                for index, move in enumerate(played):
                    text = texts[index - untold] if index >= untold else ""
                    page.push({"t": "played", "seat": move.seat, "text": text})
            page.push(state)
            if _shows_own_turn(page, state):
                seen = state["revision"]
        if seen is not None and elsewhere:
            try:
                await self.service.page_commands.turn_seen(game_id, seen)
            except ServiceError as error:
                log.info("game %s: its turn in the page was not recorded: %s", game_id, error)


def _shows_own_turn(page: PageSocket, state: JSON) -> bool:
    """Whether `state` shows the page's viewer their own turn, with moves, for the first time
    (the page remembers the version it showed)."""
    you = state["you"]
    if state["phase"] != "playing" or you["seat"] is None or state["to_move"] != you["seat"]:
        return False
    hand = state.get("hand") or {}
    if not any(item.get("moves") for item in hand.get("items", [])):
        return False
    if page.shown_turn == state["revision"]:
        return False
    page.shown_turn = state["revision"]
    return True


def _played(outcome: Outcome) -> list[Played]:
    return [effect for effect in outcome.effects if isinstance(effect, Played)]
