"""A chat's finished games (/games), a game's review (/review) and its Replay button.

Pure: the service's records and a translator in, HTML text and buttons out.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

from babel.dates import format_timedelta
from babel.numbers import format_decimal
from telegram import InlineKeyboardButton

from ...games.registry import Registry
from ...games.review import GameReview, Mark, SeatSummary
from ...games.seam import AnyPresentation
from ...games.texts import former_player_name, seat_name, short_name
from ...i18n import Translator
from ...service.reviews import FinishedGame, FinishedSeat
from ...service.tokens import REPLAY_START_PREFIX
from .info import game_commands
from .page_links import PageLinks

REPLAY_PREFIX = REPLAY_START_PREFIX
"""The page's start parameter for a replay: this prefix and the game's replay token."""
MISTAKES = frozenset({Mark.INACCURACY, Mark.MISTAKE, Mark.BLUNDER})
"""The marks of a move worth naming as a person's biggest mistake."""


def replay_link(page: PageLinks, replay_token: str) -> str:
    """The t.me link that opens the game's replay in the page."""
    return page.direct_link(REPLAY_PREFIX + replay_token)


def replay_button(t: Translator, page: PageLinks, replay_token: str) -> InlineKeyboardButton:
    """The game-end message's 📼 Replay button."""
    return InlineKeyboardButton(t.gettext("📼 Replay"), url=replay_link(page, replay_token))


def when(t: Translator, finished_at: datetime, now: datetime) -> str:
    """How long ago a game ended, in the reader's language ("2 hours ago")."""
    if finished_at.tzinfo is None:
        finished_at = finished_at.replace(tzinfo=UTC)
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    # Never "in 0 seconds" (babel's word for no time), nor "in 2 seconds" from a clock a
    # little behind the database's.
    ago = min(finished_at - now, timedelta(seconds=-1))
    return format_timedelta(ago, add_direction=True, locale=t.language)


def points(t: Translator, value: float) -> str:
    """Points with one decimal, as the reader's language writes them ("0.8", "0,8")."""
    return format_decimal(round(value, 1), format="0.0", locale=t.language)


def seat_label(t: Translator, seat: FinishedSeat, game: FinishedGame) -> str:
    """A seat's name, HTML-escaped: a person's (cut short), the neutral one of someone who
    deleted their data, or the computer player's level."""
    info = seat.info
    if info.former:
        return former_player_name(t)
    if info.is_computer:
        return seat_name(t, info, [other.info for other in game.seats])
    return html.escape(short_name(info.name))


def scores(t: Translator, game: FinishedGame) -> str:
    """Every seat's name and points, best first, the winner's with a trophy."""
    ordered = sorted(game.seats, key=lambda seat: (seat.place, seat.seat))
    parts = []
    for seat in ordered:
        winner = seat.place == 1
        text = t.gettext("🏆 {name} {points}") if winner else t.gettext("{name} {points}")
        parts.append(text.format(name=seat_label(t, seat, game), points=seat.points))
    return ", ".join(parts)


def render_finished_games(
    t: Translator,
    registry: Registry,
    games: Sequence[FinishedGame],
    now: datetime,
    page: PageLinks | None,
) -> str:
    """/games: the chat's last finished games, newest first, one line each, with their replay
    links when the page is configured."""
    if not games:
        return t.gettext(
            "No game has ended in this chat yet. Type {commands} to play one: it shows here "
            "once it is over."
        ).format(commands=game_commands(t, registry, "or"))
    lines = [t.gettext("🗂 <b>The last games here</b>")]
    for game in games:
        title = _title(t, registry, game)
        ago, standings = when(t, game.finished_at, now), scores(t, game)
        if page is None:
            line = t.gettext("{game}, {when}: {scores}").format(
                game=title, when=ago, scores=standings
            )
        else:
            line = t.gettext('{game}, {when}: {scores} · <a href="{link}">📼 Replay</a>').format(
                game=title,
                when=ago,
                scores=standings,
                link=html.escape(replay_link(page, game.replay_token)),
            )
        lines.append(line)
    lines.extend(["", t.gettext("Type /review to see how everyone played the last game.")])
    return "\n".join(lines)


def render_review(
    t: Translator,
    registry: Registry,
    game: FinishedGame,
    review: GameReview,
    now: datetime,
    played: Mapping[tuple[int, int], str] | None = None,
    better: Mapping[tuple[int, int], str] | None = None,
) -> str:
    """/review: the game's review summed up for every person seated: their accuracy, the
    points they lost per decision, and their biggest mistake with the better move (the move
    made named as `played` names it, by round and ply: with what it took; the better move
    as `better` names it, by the round and ply of the move made; else from their codes)."""
    presentation = registry.get(game.kind).presentation
    lines = [
        t.gettext("📊 <b>Review</b> of {game}, {when}").format(
            game=_title(t, registry, game), when=when(t, game.finished_at, now)
        )
    ]
    summaries = {summary.seat: summary for summary in review.seats}
    for seat in sorted(game.seats, key=lambda s: s.seat):
        if not seat.is_person:
            continue
        summary = summaries.get(seat.seat)
        lines.append("")
        lines.extend(
            _person(t, presentation, seat_label(t, seat, game), summary, played or {}, better or {})
        )
    lines.extend(
        [
            "",
            t.gettext(
                "Accuracy goes from 0 to 100; points lost are measured against the best move "
                "on what each player knew at the time."
            ),
        ]
    )
    return "\n".join(lines)


def _person(
    t: Translator,
    presentation: AnyPresentation,
    name: str,
    summary: SeatSummary | None,
    played: Mapping[tuple[int, int], str],
    better: Mapping[tuple[int, int], str],
) -> list[str]:
    """One person's lines of a review."""
    if summary is None or summary.decisions == 0:
        return [t.gettext("<b>{name}</b>: no decision with a choice to make.").format(name=name)]
    first = t.ngettext(
        "<b>{name}</b>: accuracy {accuracy}, {loss} points lost per decision ({n} decision)",
        "<b>{name}</b>: accuracy {accuracy}, {loss} points lost per decision ({n} decisions)",
        summary.decisions,
    ).format(
        name=name,
        # Half up, as people round (Python's round takes 62.5 to 62).
        accuracy=math.floor(summary.accuracy + 0.5),
        loss=points(t, summary.average_loss),
        n=summary.decisions,
    )
    worst = summary.worst
    if worst is None or worst.mark not in MISTAKES:
        return [first, t.gettext("No mistake worth naming. Well played!")]
    second = t.gettext(
        "Biggest mistake: round {round}, {move} ({loss} points lost); better: {better}."
    ).format(
        round=worst.round,
        move=html.escape(
            played.get((worst.round, worst.ply)) or presentation.move_label(t, worst.code)
        ),
        loss=points(t, worst.loss),
        better=html.escape(
            better.get((worst.round, worst.ply)) or presentation.move_label(t, worst.best)
        ),
    )
    return [first, second]


def _title(t: Translator, registry: Registry, game: FinishedGame) -> str:
    """The game's kind, rules and target, as its lobby named them."""
    if game.kind not in registry:
        return html.escape(game.kind)
    return registry.get(game.kind).presentation.lobby_title(t, game.config)


def preparing_text(t: Translator) -> str:
    """The answer to /review while the game's review is being prepared."""
    return t.gettext(
        "⏳ The review of that game is being prepared: I will post it here as soon as it is ready."
    )


def off_text(t: Translator) -> str:
    """The answer to /review on a bot that analyses no game (REVIEWS=no)."""
    return t.gettext("This bot does not review games: its host turned reviews off.")


def not_in_a_group_text(t: Translator) -> str:
    """/games or /review in a private chat."""
    return t.gettext(
        "/games and /review are about a group's finished games: send them in the group."
    )
