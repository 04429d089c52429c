"""Leaderboards and a player's statistics."""

from __future__ import annotations

import html

from ...games.seam import AnyPresentation
from ...games.texts import computer_name, former_player_name, short_name
from ...i18n import Translator
from ...service.api import (
    COMPUTER_PLAYER_IDS,
    Board,
    BoardEntry,
    Period,
    PlayerStats,
    is_former_player,
)


def _board_title(t: Translator, board: Board, period: Period, global_: bool) -> str:
    titles = {
        (Board.RATING, Period.ALL_TIME): t.gettext("🏆 Best rated"),
        (Board.RATING, Period.WEEK): t.gettext("🏆 Rating gained in the last 7 days"),
        (Board.WINS, Period.ALL_TIME): t.gettext("🏆 Most games won"),
        (Board.WINS, Period.WEEK): t.gettext("🏆 Most games won in the last 7 days"),
        (Board.POINTS, Period.ALL_TIME): t.gettext("🏆 Most points"),
        (Board.POINTS, Period.WEEK): t.gettext("🏆 Most points in the last 7 days"),
    }
    title = titles[(board, period)]
    if global_:
        return t.gettext("{title} — all chats").format(title=title)
    return t.gettext("{title} — this chat").format(title=title)


def _entry_name(t: Translator, entry: BoardEntry) -> str:
    if is_former_player(entry.player_id):
        return former_player_name(t)
    levels = {player_id: level for level, player_id in COMPUTER_PLAYER_IDS.items()}
    level = levels.get(entry.player_id)
    if entry.is_computer and level is not None:
        return html.escape(computer_name(t, level.value))
    return html.escape(short_name(entry.name))


def render_board(
    t: Translator,
    command: str,
    board: Board,
    period: Period,
    entries: list[BoardEntry],
    global_: bool,
) -> str:
    """A leaderboard of the game that `command` opens, as numbered lines."""
    lines = [f"<b>{_board_title(t, board, period, global_)}</b>"]
    if not entries:
        text = t.gettext("Nobody has finished a game yet. Type /{command} to play!")
        lines.append(text.format(command=command))
        return "\n".join(lines)
    for entry in entries:
        value = f"{entry.value:.1f}" if board is Board.RATING else f"{entry.value:.0f}"
        games = t.ngettext("{n} game", "{n} games", entry.games).format(n=entry.games)
        lines.append(
            t.gettext("{rank}. {name} — {value} ({games})").format(
                rank=entry.rank, name=_entry_name(t, entry), value=value, games=games
            )
        )
    lines.append("")
    lines.append(t.gettext("Also: /top wins, /top points, /top week, /top global"))
    return "\n".join(lines)


def render_stats(
    t: Translator, presentation: AnyPresentation, stats: PlayerStats | None, name: str
) -> str:
    """A player's record in this chat."""
    if stats is None or stats.games == 0:
        return t.gettext("{name} has not finished a game in this chat yet.").format(
            name=html.escape(short_name(name))
        )
    lines = [
        t.gettext("<b>{name}</b> in this chat").format(name=html.escape(short_name(name))),
        t.gettext("Games: {games} · won: {wins}").format(games=stats.games, wins=stats.wins),
        *presentation.record_lines(t, stats.rounds_won, stats.points, stats.extras),
    ]
    if stats.rating is not None and stats.rank is not None:
        lines.append(
            t.gettext("Rating: {rating} · rank {rank} of {players}").format(
                rating=f"{stats.rating.ordinal:.1f}", rank=stats.rank, players=stats.rated_players
            )
        )
    return "\n".join(lines)
