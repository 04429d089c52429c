"""A finished game's replay and review in the page, over plain HTTP.

`POST /app/api/replay` signs in to a replay: Telegram's initData (checked as for a live table)
and the replay's own token (the start parameter `rp_<token>`, or `replay` in the body), or a
replay session given before. The person must belong to the game's group now, as for a live
table; a live table's join token never opens a replay (replay tokens are their own column),
and a replay session is signed with its own key, so it never opens a live table's socket nor
a live session a replay. Local play: the one person replays the local games by token.
The answer: the session, the shell's words, the seats, each round that is over in a few
words, and the review (null while it is being prepared).

`POST /app/api/replay/round` (session, round) → that round's positions (replay_frames.py);
`POST /app/api/replay/review` (session) → the review, polled by the page until it is ready;
`POST /app/api/replay/of_table` (a live table's session) → the finished game's replay token,
a replay session and the review: the live page's game end offers the replay and shows the
review once it is ready."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import html
import logging
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from aiohttp import web

from ..games.seam import AnyGameKind
from ..games.texts import seat_name
from ..games.views import SeatInfo
from ..i18n import Translator
from ..service.api import GameStatus
from ..service.errors import NoSuchGame
from ..service.reviews import FinishedGame
from ..service.tokens import REPLAY_START_PREFIX
from .browser_language import browser_language
from .initdata import InitDataRefused, check_init_data
from .replay_frames import ReplayedGame, named_moves, overview, round_frames
from .replay_texts import replay_refusal, replay_texts
from .sessions import PageSession, SessionRefused, SessionSigner
from .sign_in import json_body
from .texts import shell_texts

if TYPE_CHECKING:
    from .app import PageDeps

log = logging.getLogger(__name__)

JSON = dict[str, Any]
START_PREFIX = REPLAY_START_PREFIX
"""A replay's Mini App start parameter: this, then the replay token."""
ROUNDS_KEPT = 64
"""Rounds drawn for pages kept for the next page that asks (by game, language and round)."""


@dataclass(frozen=True, slots=True)
class LocalPerson:
    """Local play's one person, who may replay the local chat's games."""

    chat_id: int
    user_id: int
    name: str | None
    """--name, else None: "Player" in the language of the page."""
    language: str | None


class Refused(Exception):
    """A refused replay request: its reason and status."""

    def __init__(self, reason: str, status: HTTPStatus, language: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.language = language
        """The asker's language, once known (the refusal is said in it)."""


REPLAY_SESSION_LIFETIME = timedelta(hours=6)
"""How long a replay session lasts without a request (each answer renews it): a replay shows
only a finished game to a member checked at sign-in, and may stay open a long while."""


def replay_signer(bot_token: str | None) -> SessionSigner:
    """The signer of replay sessions: its own key (derived from the bot's token, so every
    worker shares it; made now for local play), never the live tables' key."""
    if bot_token is None:
        return SessionSigner.for_local_play()
    key = hmac.new(bot_token.encode(), b"gaple-bot replay sessions", hashlib.sha256).digest()
    return SessionSigner(key, REPLAY_SESSION_LIFETIME)


def start_token(start_param: str) -> str | None:
    """The replay token of a replay's start parameter (None: not a replay's)."""
    if start_param.startswith(START_PREFIX) and len(start_param) > len(START_PREFIX):
        return start_param[len(START_PREFIX) :]
    return None


class ReplayRoutes:
    """The replay's routes, mounted beside the page's (see the module's docstring)."""

    def __init__(
        self,
        live_signer: SessionSigner,
        bot_token: str | None,
        login_age: timedelta,
        ready: Callable[[], PageDeps],
        *,
        reviews: bool = True,
    ) -> None:
        self._live = live_signer
        self.reviews = reviews
        """Whether the bot reviews games (REVIEWS): else a review not stored will not come."""
        self.signer = replay_signer(bot_token)
        self._bot_token = bot_token
        self._login_age = login_age
        self._ready = ready
        self.local: LocalPerson | None = None
        """Local play's person (set by local play): replays by token alone, of its chat."""
        self._drawn: OrderedDict[tuple[int, str, int, tuple[object, ...]], JSON] = OrderedDict()

    def routes(self) -> list[web.RouteDef]:
        """The replay's routes, under /app/api/replay."""
        return [
            web.post("/app/api/replay", self.open),
            web.post("/app/api/replay/round", self.round),
            web.post("/app/api/replay/review", self.review),
            web.post("/app/api/replay/of_table", self.of_table),
        ]

    # Routes -----------------------------------------------------------------------------

    async def open(self, request: web.Request) -> web.Response:
        """initData and a replay token (or a replay session) → a replay session and the
        game's overview."""
        deps = self._ready()
        body = await json_body(request)
        try:
            if isinstance(body.get("session"), str):
                # A reload: the session names the game; the group is asked again, as Telegram
                # says now (a person who left it is refused).
                session = self._session(deps, body)
                game = await self._game(deps, session.game_id)
                if not await self._member(deps, game.chat_id, session.user_id):
                    raise Refused("not_member", HTTPStatus.FORBIDDEN, session.language)
            else:
                session, game = await self._sign_in(deps, body, browser_language(request))
            answer = await self._overview(deps, session, game)
        except Refused as refusal:
            return _refused(deps, body, refusal)
        return _json(answer)

    async def round(self, request: web.Request) -> web.Response:
        """A replay session and a round's number → that round, position by position."""
        deps = self._ready()
        body = await json_body(request)
        number = body.get("round")
        try:
            session = self._session(deps, body)
            if not isinstance(number, int) or isinstance(number, bool):
                raise Refused("no_round", HTTPStatus.NOT_FOUND)
            frames = await self._round(deps, session, number)
        except Refused as refusal:
            return _refused(deps, body, refusal, self._language(deps, body))
        return _json({**frames, "session": self._renewed(deps, session)})

    async def review(self, request: web.Request) -> web.Response:
        """A replay session → the game's review, or null while it is being prepared."""
        deps = self._ready()
        body = await json_body(request)
        try:
            session = self._session(deps, body)
            game = await self._game(deps, session.game_id)
            review = await self._review(deps, session, game)
        except Refused as refusal:
            return _refused(deps, body, refusal, self._language(deps, body))
        return _json(
            {
                "review": review,
                "reviews_off": self._reviews_off(review),
                "session": self._renewed(deps, session),
            }
        )

    async def of_table(self, request: web.Request) -> web.Response:
        """A live table's session, once its game is over → its replay and review."""
        deps = self._ready()
        body = await json_body(request)
        t = deps.translators.get(None)
        try:
            raw = body.get("session")
            if not isinstance(raw, str):
                raise Refused("session", HTTPStatus.FORBIDDEN)
            try:
                live = self._live.check(raw, deps.clock())
            except SessionRefused as error:
                log.info("a replay's table session was refused: %s", error)
                raise Refused("session", HTTPStatus.FORBIDDEN) from None
            t = deps.translators.get(live.language)
            try:
                facts = await deps.service.page_commands.facts(live.game_id)
            except NoSuchGame:
                raise Refused("no_replay", HTTPStatus.NOT_FOUND) from None
            if facts.status is not GameStatus.FINISHED:
                raise Refused("not_over", HTTPStatus.CONFLICT)
            # A seat is proof enough; anyone else must still belong to the group.
            if facts.seat_of(live.user_id) is None and not await self._member(
                deps, facts.chat_id, live.user_id
            ):
                raise Refused("not_member", HTTPStatus.FORBIDDEN)
            game = await self._game(deps, live.game_id)
            session = self._issue(deps, live.user_id, live.name, live.language, game.game_id)
            checked = self.signer.check(session, deps.clock())
            review = await self._review(deps, checked, game)
        except Refused as refusal:
            text = replay_refusal(t, refusal.reason)
            return web.json_response(
                {"reason": refusal.reason, "text": text}, status=refusal.status.value
            )
        return _json(
            {
                "replay": game.replay_token,
                "session": session,
                "review": review,
                "reviews_off": self._reviews_off(review),
            }
        )

    # Signing in ---------------------------------------------------------------------------

    async def _sign_in(
        self, deps: PageDeps, body: JSON, browser: str | None
    ) -> tuple[PageSession, FinishedGame]:
        """`browser`: the language the browser asks for (local play's, without --language)."""
        named = body.get("replay")
        named = named if isinstance(named, str) else ""
        if self._bot_token is None:
            return await self._local_sign_in(deps, named, browser)
        init_data = body.get("init_data")
        if not isinstance(init_data, str):
            raise Refused("init_data", HTTPStatus.FORBIDDEN)
        try:
            user = check_init_data(
                init_data, self._bot_token, now=deps.clock(), max_age=self._login_age
            )
        except InitDataRefused as error:
            log.info("a replay's sign-in was refused: %s", error)
            raise Refused("init_data", HTTPStatus.FORBIDDEN) from None
        token = named
        language = user.language
        if user.start_param:
            # Telegram vouches for the link's replay; the page may not name another. A live
            # table's start parameter (its join token) opens no replay.
            signed = start_token(user.start_param)
            if signed is None:
                raise Refused("no_replay", HTTPStatus.NOT_FOUND, language)
            if named not in ("", signed):
                raise Refused("other_table", HTTPStatus.FORBIDDEN, language)
            token = signed
        try:
            game = await self._by_token(deps, token)
        except Refused as refusal:
            raise Refused(refusal.reason, refusal.status, language) from None
        if not await self._member(deps, game.chat_id, user.user_id):
            raise Refused("not_member", HTTPStatus.FORBIDDEN, language)
        session = self._issue(deps, user.user_id, user.name, user.language, game.game_id)
        return self.signer.check(session, deps.clock()), game

    async def _local_sign_in(
        self, deps: PageDeps, token: str, browser: str | None
    ) -> tuple[PageSession, FinishedGame]:
        local = self.local
        if local is None:
            raise Refused("init_data", HTTPStatus.FORBIDDEN)
        language = local.language or browser
        try:
            game = await self._by_token(deps, token)
        except Refused as refusal:
            raise Refused(refusal.reason, refusal.status, language) from None
        if game.chat_id != local.chat_id:
            raise Refused("no_replay", HTTPStatus.NOT_FOUND, language)
        name = local.name or deps.translators.get(language).gettext("Player")
        session = self._issue(deps, local.user_id, name, language, game.game_id)
        return self.signer.check(session, deps.clock()), game

    async def _by_token(self, deps: PageDeps, token: str) -> FinishedGame:
        if not token:
            raise Refused("no_replay", HTTPStatus.NOT_FOUND)
        try:
            return await deps.service.reviews.by_replay_token(token)
        except NoSuchGame:
            raise Refused("no_replay", HTTPStatus.NOT_FOUND) from None

    async def _member(self, deps: PageDeps, chat_id: int, user_id: int) -> bool:
        if self.local is not None and chat_id == self.local.chat_id:
            return True
        return await deps.is_member(chat_id, user_id)

    def _issue(
        self, deps: PageDeps, user_id: int, name: str, language: str | None, game_id: int
    ) -> str:
        return self.signer.issue(user_id, name, language, game_id, deps.clock())

    def _reviews_off(self, review: JSON | None) -> bool:
        """Whether the page says reviews are off rather than being prepared: none is stored
        and this bot reviews no game."""
        return review is None and not self.reviews

    def _renewed(self, deps: PageDeps, session: PageSession) -> str:
        """The same replay session, good for a whole lifetime from now."""
        return self._issue(deps, session.user_id, session.name, session.language, session.game_id)

    def _session(self, deps: PageDeps, body: JSON) -> PageSession:
        """The replay session a request shows (Refused if this server did not sign it as a
        replay's, or it expired)."""
        raw = body.get("session")
        if not isinstance(raw, str):
            raise Refused("session", HTTPStatus.FORBIDDEN)
        try:
            return self.signer.check(raw, deps.clock())
        except SessionRefused as error:
            log.info("a replay session was refused: %s", error)
            raise Refused("session", HTTPStatus.FORBIDDEN) from None

    def _language(self, deps: PageDeps, body: JSON) -> str | None:
        raw = body.get("session")
        if not isinstance(raw, str):
            return None
        try:
            return self.signer.check(raw, deps.clock()).language
        except SessionRefused:
            return None

    async def _game(self, deps: PageDeps, game_id: int) -> FinishedGame:
        try:
            return await deps.service.reviews.game(game_id)
        except NoSuchGame:
            raise Refused("no_replay", HTTPStatus.NOT_FOUND) from None

    # What is sent ---------------------------------------------------------------------------

    def _replayed(self, deps: PageDeps, game: FinishedGame) -> ReplayedGame:
        seats = tuple(seat.info for seat in game.seats)
        kind = deps.registry.get(game.kind)
        return ReplayedGame(game.game_id, game.chat_id, game.thread_id, kind, game.config, seats)

    async def _overview(self, deps: PageDeps, session: PageSession, game: FinishedGame) -> JSON:
        t = deps.translators.get(session.language)
        replayed = self._replayed(deps, game)
        history = await deps.service.reviews.history(game.game_id)
        rounds = await asyncio.to_thread(overview, t, replayed, history)
        fresh = self._issue(deps, session.user_id, session.name, session.language, game.game_id)
        kind = replayed.kind
        title = html.unescape(_untagged(kind.presentation.lobby_title(t, game.config)))
        totals = rounds[-1]["totals"] if rounds else [0] * len(replayed.seats)
        review = await self._review(deps, session, game)
        return {
            "session": fresh,
            "replay": game.replay_token,
            "game_id": game.game_id,
            "kind": kind.name,
            "script": f"/app/games/{kind.name}.js",
            "language": session.language,
            "title": title,
            "texts": {**shell_texts(t), **replay_texts(t)},
            "seats": _seats(t, replayed, session.user_id, totals),
            "rounds": rounds,
            "review": review,
            "reviews_off": self._reviews_off(review),
        }

    async def _round(self, deps: PageDeps, session: PageSession, number: int) -> JSON:
        t = deps.translators.get(session.language)
        game = await self._game(deps, session.game_id)
        # Who sat where is in the key: a round's end names the seats, and a person who
        # deleted their data is named "a former player" from then on.
        seated = tuple((s.info.name, s.info.former, s.info.user_id) for s in game.seats)
        key = (session.game_id, t.language, number, seated)
        drawn = self._drawn.get(key)
        if drawn is not None:
            self._drawn.move_to_end(key)
            return drawn
        replayed = self._replayed(deps, game)
        history = await deps.service.reviews.history(game.game_id)
        try:
            drawn = await asyncio.to_thread(round_frames, t, replayed, history, number)
        except KeyError:
            raise Refused("no_round", HTTPStatus.NOT_FOUND) from None
        self._drawn[key] = drawn
        while len(self._drawn) > ROUNDS_KEPT:
            self._drawn.popitem(last=False)
        return drawn

    async def _review(
        self, deps: PageDeps, session: PageSession, game: FinishedGame
    ) -> JSON | None:
        raw = await deps.service.reviews.review_json(game.game_id)
        if raw is None:
            return None
        t = deps.translators.get(session.language)
        replayed = self._replayed(deps, game)
        history = await deps.service.reviews.history(game.game_id)
        named = await asyncio.to_thread(named_moves, t, replayed, history, _best(raw))
        return review_payload(t, replayed, raw, named.played, named.better)


def _best(raw: JSON) -> dict[tuple[int, int], int]:
    """The better move of each decision of a stored review (its moves' and its seats'
    worst), by the round and ply of the move made."""
    moves = [move for move in raw.get("moves", []) if isinstance(move, dict)]
    worst = [line.get("worst") for line in raw.get("seats", []) if isinstance(line, dict)]
    best: dict[tuple[int, int], int] = {}
    for move in [*moves, *(w for w in worst if isinstance(w, dict))]:
        number, ply, code = move.get("round"), move.get("ply"), move.get("best")
        if isinstance(number, int) and isinstance(ply, int) and isinstance(code, int):
            best[number, ply] = code
    return best


def review_payload(
    t: Translator,
    game: ReplayedGame,
    raw: JSON,
    played: Mapping[tuple[int, int], str],
    better: Mapping[tuple[int, int], str] | None = None,
) -> JSON:
    """The stored review as the page shows it: each move and each seat's worst with the
    moves named (a move made as it was played, `played` by round and ply, as the replay's
    move list names it; the better move as `better` names it, by the round and ply of the
    move made, else by the kind's move_label) and each seat's name."""
    kind = game.kind
    better = better or {}
    moves = [
        _named(t, kind, move, played, better)
        for move in raw.get("moves", [])
        if isinstance(move, dict)
    ]
    seats = []
    for line in raw.get("seats", []):
        if not isinstance(line, dict):
            continue
        number = line.get("seat")
        shown = dict(line)
        if isinstance(number, int) and 0 <= number < len(game.seats):
            shown["name"] = _name(t, game.seats[number], game.seats)
        worst = line.get("worst")
        shown["worst"] = _named(t, kind, worst, played, better) if isinstance(worst, dict) else None
        seats.append(shown)
    return {"version": raw.get("version"), "moves": moves, "seats": seats}


def _named(
    t: Translator,
    kind: AnyGameKind,
    move: JSON,
    played: Mapping[tuple[int, int], str],
    better: Mapping[tuple[int, int], str],
) -> JSON:
    shown = dict(move)
    for key, label in (("code", "label"), ("best", "best_label")):
        code = move.get(key)
        if isinstance(code, int):
            shown[label] = _untagged(html.unescape(kind.presentation.move_label(t, code)))
    number, ply = move.get("round"), move.get("ply")
    if not isinstance(number, int) or not isinstance(ply, int):
        return shown
    if (name := played.get((number, ply))) is not None:
        # The move made, as it was played (what it took included), as the replay names it.
        shown["label"] = name
    if (name := better.get((number, ply))) is not None:
        # The better move, as it would have been played there (a line's first tile opens it).
        shown["best_label"] = name
    return shown


def _seats(t: Translator, game: ReplayedGame, user_id: int, totals: Sequence[int]) -> list[JSON]:
    return [
        {
            "number": seat.number,
            "name": _name(t, seat, game.seats),
            "computer": seat.is_computer or seat.former,
            "you": seat.user_id == user_id,
            "score": totals[seat.number] if seat.number < len(totals) else 0,
        }
        for seat in game.seats
    ]


def _name(t: Translator, seat: SeatInfo, seats: Sequence[SeatInfo]) -> str:
    return html.unescape(seat_name(t, seat, seats))


def _untagged(text: str) -> str:
    return text.replace("<b>", "").replace("</b>", "")


def _refused(
    deps: PageDeps, body: JSON, refusal: Refused, language: str | None = None
) -> web.Response:
    t = deps.translators.get(refusal.language or language)
    text = replay_refusal(t, refusal.reason)
    # A replay opened by its link that is refused still shows its ✕, named in the asker's
    # language.
    texts = {"close": t.gettext("Close")}
    return web.json_response(
        {"reason": refusal.reason, "text": text, "texts": texts}, status=refusal.status.value
    )


def _json(payload: JSON) -> web.Response:
    response = web.json_response(payload, headers={"Cache-Control": "no-store"})
    # A round's positions are large and repetitive: compressed, a tenth of the bytes.
    response.enable_compression()
    return response
