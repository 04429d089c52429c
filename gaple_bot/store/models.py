"""The schema as typed SQLAlchemy models; migrations/ must build exactly this (a test checks)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .enums import ComputerLevel, GameStatus
from .types import StrEnumType, UTCDateTime

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ACTIVE_GAME = "status IN ('lobby', 'running')"
"""The SQL condition of a game that still holds its chat (or topic)."""


class Base(DeclarativeBase):
    """Declarative base: constraint names follow NAMING_CONVENTION, datetimes are UTC."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UTCDateTime(),
        dict[str, Any]: JSON(),
    }


class User(Base):
    """A player: a Telegram user (positive id) or a computer level (reserved negative id)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    display_name: Mapped[str] = mapped_column(String(128))
    language: Mapped[str | None] = mapped_column(String(16))
    """The language the person chose with /language (None: not chosen)."""
    telegram_language: Mapped[str | None] = mapped_column(String(16))
    """The language_code Telegram last reported for the person's app."""
    can_message: Mapped[bool] = mapped_column(server_default=false())
    """Whether the user has started the bot privately, so it may send them their hand."""
    is_computer: Mapped[bool] = mapped_column(server_default=false())
    revision: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    """Bumped when the name or a language changes (PostgreSQL triggers: migration 0011)."""
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class Chat(Base):
    """A group chat: its title and the language of its group messages."""

    __tablename__ = "chats"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    title: Mapped[str | None] = mapped_column(String(256))
    language: Mapped[str | None] = mapped_column(String(16))
    revision: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    """Bumped when the title, the language or an option changes (PostgreSQL triggers:
    migration 0011)."""
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class ChatOption(Base):
    """One of a chat's options for new games of a kind, as stored (the kind checks it)."""

    __tablename__ = "chat_options"

    chat_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("chats.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(64))


class Game(Base):
    """One game in a chat (and forum topic): its config, status and optimistic-lock version."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint("status IN ('lobby', 'running', 'finished', 'aborted')", name="status"),
        # One lobby or running game per chat outside forums, and per forum topic.
        Index(
            "uq_games_active_chat",
            "chat_id",
            unique=True,
            sqlite_where=text(f"thread_id IS NULL AND {ACTIVE_GAME}"),
            postgresql_where=text(f"thread_id IS NULL AND {ACTIVE_GAME}"),
        ),
        Index(
            "uq_games_active_topic",
            "chat_id",
            "thread_id",
            unique=True,
            sqlite_where=text(f"thread_id IS NOT NULL AND {ACTIVE_GAME}"),
            postgresql_where=text(f"thread_id IS NOT NULL AND {ACTIVE_GAME}"),
        ),
        Index("ix_games_chat_id_created_at", "chat_id", "created_at"),
        Index("uq_games_join_token", "join_token", unique=True),
        Index("uq_games_replay_token", "replay_token", unique=True),
        Index(
            "ix_games_active_status",
            "status",
            sqlite_where=text(ACTIVE_GAME),
            postgresql_where=text(ACTIVE_GAME),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("chats.id", ondelete="CASCADE"))
    thread_id: Mapped[int | None] = mapped_column(BigInteger)
    """Telegram's message_thread_id of a forum topic, or NULL outside forums."""
    kind: Mapped[str] = mapped_column(String(32))
    """The game kind's name (its registry entry)."""
    config: Mapped[dict[str, Any]]
    """The kind's config as JSON (the store does not read it)."""
    status: Mapped[GameStatus] = mapped_column(StrEnumType(GameStatus))
    version: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    revision: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    """Bumped by every change of the game or its seats (PostgreSQL triggers: migration 0009),
    all made under the game's lock, so a worker can tell its cached copy is stale (its chat's
    and its players' own revisions count what changes without the lock)."""
    opener_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("users.id", ondelete="RESTRICT"))
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    """The group message showing the lobby or the table."""
    join_token: Mapped[str | None] = mapped_column(String(32))
    """The unguessable part of the lobby's join link (only honoured while it is a lobby)."""
    replay_token: Mapped[str | None] = mapped_column(String(32))
    """The finished game's replay link secret (its own: the join token opens no replay)."""
    turn_deadline: Mapped[datetime | None]
    turn_remind_at: Mapped[datetime | None]
    """When the person to move is due their half-time reminder; cleared once it is sent (or
    the turn ends), so it goes once whichever worker sends it (migration 0014)."""
    turn_hand_due: Mapped[datetime | None]
    """Since when the person to move is owed their hand with its move buttons; cleared once
    it went out (or the sweep took it over), so a hand lost with a worker is sent by another
    (migration 0016)."""
    turn_hand_owner: Mapped[int | None] = mapped_column(BigInteger)
    """The worker that owes that hand (it goes out once the game is let go): another worker
    sends it only once that one is gone (migration 0019)."""
    created_at: Mapped[datetime]
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    paused: Mapped[bool] = mapped_column(server_default=false())
    """The bot may not write in the chat: nobody moves, no timer runs, until it may again."""
    round_break_until: Mapped[datetime | None]
    """Until when the players look at the round that just ended (the next one is dealt):
    nobody moves before then (migration 0021)."""
    round_break_ready: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    """The seats whose person said Next during the break, one bit each (seat 0 the lowest)."""


class Seat(Base):
    """A seat at a game: a person, a computer level, or a person's seat taken over (autoplay)."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("game_id", "user_id"),
        CheckConstraint("user_id IS NOT NULL OR computer_level IS NOT NULL", name="occupied"),
        CheckConstraint(
            "computer_level IS NULL OR computer_level IN ('easy', 'normal', 'hard')",
            name="computer_level",
        ),
        Index("ix_seats_user_id", "user_id"),
    )

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    user_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("users.id", ondelete="RESTRICT")
    )
    computer_level: Mapped[ComputerLevel | None] = mapped_column(StrEnumType(ComputerLevel))
    autoplay: Mapped[bool] = mapped_column(server_default=false())
    timeouts: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    """Consecutive turns this seat let run out."""
    hand_message_id: Mapped[int | None] = mapped_column(BigInteger)
    """The private message showing this seat its hand."""


class Round(Base):
    """A dealt round. `deal` is hidden information: only the play loader reads it."""

    __tablename__ = "rounds"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    deal: Mapped[dict[str, Any]]
    leader: Mapped[int] = mapped_column(SmallInteger)
    result: Mapped[dict[str, Any] | None]
    """The kind's public result of the round, once it is over."""
    started_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]


class Review(Base):
    """A finished game's review: what each person's decisions were worth, keyed by seat
    (no user id: the seats say who sat where when it is read)."""

    __tablename__ = "reviews"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer)
    """The review format's version (a newer analysis may replace an older one)."""
    data: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]


class ReviewClaim(Base):
    """A finished game's analysis under way: which worker took it and when (renewed while it
    works). Another worker waits for the review instead of analysing it too, unless the claim
    is older than the service's bound (its worker died): then it may take the claim over."""

    __tablename__ = "review_claims"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    owner: Mapped[int] = mapped_column(BigInteger)
    """The claiming worker's own token (each analysing process draws one)."""
    claimed_at: Mapped[datetime]
    """When it took or last renewed the claim."""


class Move(Base):
    """One move, appended and never changed. Hidden information (a discard names its tile)."""

    __tablename__ = "moves"
    __table_args__ = (
        ForeignKeyConstraint(
            ["game_id", "round_number"],
            ["rounds.game_id", "rounds.number"],
            ondelete="CASCADE",
        ),
        # Rows are small and always found by their key: store them in the key's B-tree.
        {"sqlite_with_rowid": False},
    )

    game_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_number: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    ply: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    """0 for the round's first move; the primary key makes (game, round, ply) unique."""
    seat: Mapped[int] = mapped_column(SmallInteger)
    code: Mapped[int] = mapped_column(SmallInteger)
    """The kind's move code."""
    by_computer: Mapped[bool] = mapped_column(server_default=false())
    """The computer chose it (a computer's seat, a person's turn that ran out, a seat handed
    over, a move nobody chooses): not the person's decision, so no review judges them on it."""
    created_at: Mapped[datetime]


class Result(Base):
    """A seat's result in a finished game (chat and finish time copied for the boards)."""

    __tablename__ = "results"
    __table_args__ = (
        # Covering indexes for the weekly boards: the window's rows, index only. There is
        # deliberately no index on player_id alone: SQLite would scan it to skip the GROUP BY
        # sort instead of reading the window (player statistics come from player_totals).
        Index(
            "ix_results_kind_chat_id_finished_at",
            "kind",
            "chat_id",
            "finished_at",
            "player_id",
            "place",
            "points",
        ),
        Index("ix_results_kind_finished_at", "kind", "finished_at", "player_id", "place", "points"),
    )

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("users.id", ondelete="RESTRICT"))
    kind: Mapped[str] = mapped_column(String(32))
    chat_id: Mapped[int] = mapped_column(BigInteger)
    place: Mapped[int] = mapped_column(SmallInteger)
    """1 for the highest final total; equal totals share a place."""
    points: Mapped[int] = mapped_column(Integer)
    rounds_won: Mapped[int] = mapped_column(Integer)
    extras: Mapped[dict[str, Any]]
    """The kind's game-specific numbers of this seat (its ExtraSpecs by name)."""
    finished_at: Mapped[datetime]


class Rating(Base):
    """A player's openskill (Plackett-Luce) rating at a kind in a scope: a chat id, or
    GLOBAL_SCOPE."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_kind_scope_ordinal", "kind", "scope", "ordinal"),)

    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
    scope: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    player_id: Mapped[int] = mapped_column(
        BigInteger,
        ForeignKey("users.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
    )
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    """mu - 3 sigma: the conservative skill the boards sort by."""
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime]


class RatingChange(Base):
    """One player's rating change from one finished game in one scope (the weekly board)."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        Index("ix_rating_changes_kind_scope_at", "kind", "scope", "at", "player_id", "delta"),
        Index("ix_rating_changes_game_id", "game_id"),
        # A player's rating history in a scope (the /stats card), newest first.
        Index("ix_rating_changes_kind_scope_player_id_at", "kind", "scope", "player_id", "at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32))
    scope: Mapped[int] = mapped_column(BigInteger)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("users.id", ondelete="CASCADE"))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    delta: Mapped[float] = mapped_column(Float)
    """The change of ordinal (mu - 3 sigma)."""
    at: Mapped[datetime]


class PlayerTotal(Base):
    """A player's running totals at a kind in a scope, kept in step with `results`."""

    __tablename__ = "player_totals"
    __table_args__ = (
        Index("ix_player_totals_kind_scope_wins", "kind", "scope", "wins", "points"),
        Index("ix_player_totals_kind_scope_points", "kind", "scope", "points"),
    )

    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
    scope: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    player_id: Mapped[int] = mapped_column(
        BigInteger,
        ForeignKey("users.id", ondelete="RESTRICT"),
        primary_key=True,
        autoincrement=False,
    )
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    rounds_won: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime]


class PlayerExtra(Base):
    """A player's running total of one of a kind's extras in a scope, kept in step with
    `results` like `player_totals` (`aggregate`: 'sum' adds, 'max' keeps the larger)."""

    __tablename__ = "player_extras"
    __table_args__ = (CheckConstraint("aggregate IN ('sum', 'max')", name="aggregate"),)

    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
    scope: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    player_id: Mapped[int] = mapped_column(
        BigInteger,
        ForeignKey("users.id", ondelete="RESTRICT"),
        primary_key=True,
        autoincrement=False,
    )
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    aggregate: Mapped[str] = mapped_column(String(8))
    value: Mapped[int] = mapped_column(Integer)


class GroupSend(Base):
    """A group message queued for Telegram and not yet accepted: sent again after a restart,
    deleted once delivered."""

    __tablename__ = "group_sends"
    __table_args__ = (Index("ix_group_sends_chat_id", "chat_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The queue's order: rows are sent in id order."""
    chat_id: Mapped[int] = mapped_column(BigInteger)
    thread_id: Mapped[int | None] = mapped_column(BigInteger)
    params: Mapped[dict[str, Any]]
    """The sendMessage parameters as JSON (Telegram objects tagged with their type)."""
    queued_at: Mapped[datetime]
    owner: Mapped[int | None] = mapped_column(BigInteger)
    """The worker that queued it (None: a process working alone, on SQLite, whose restart
    sends it; beside other workers any of them sends it in its group's turn)."""
    kind: Mapped[str] = mapped_column(String(8), server_default="send")
    """send, edit (beside other workers, where every group request waits here), or forget:
    the game's message is not edited again (its next edit posts a fresh one)."""
    game_id: Mapped[int | None] = mapped_column(Integer)
    """The game whose lobby or table this sends or edits (its stored message_id)."""
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    """The message an edit of no game's message changes."""
    paced: Mapped[bool] = mapped_column(server_default=false())
    """A table edit that may wait at the head of its group's queue for the table's pace."""


class GroupStamp(Base):
    """When Telegram answered one group send or edit: the group's budget of the last minute,
    known again after a restart (rows older than the window are deleted)."""

    __tablename__ = "group_stamps"
    __table_args__ = (
        Index("ix_group_stamps_chat_id_at", "chat_id", "at"),
        Index("ix_group_stamps_at", "at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    at: Mapped[float] = mapped_column(Float)
    """Seconds since the epoch (the outbox's clock), taken after the answer arrived."""


UNHANDLED_UPDATE = "handled_at IS NULL"
"""The SQL condition of a received update not handled yet."""


class ReceivedUpdate(Base):
    """A Telegram update a worker took in: one delivered again (Telegram retries a webhook post
    it got no answer to, perhaps to another worker) is recognised and dropped. It is kept until
    handled, so that a live worker handles the updates of one that died before it did."""

    __tablename__ = "received_updates"
    __table_args__ = (
        Index("ix_received_updates_received_at", "received_at"),
        Index(
            "ix_received_updates_unhandled",
            "taken_by",
            sqlite_where=text(UNHANDLED_UPDATE),
            postgresql_where=text(UNHANDLED_UPDATE),
        ),
    )

    update_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    received_at: Mapped[datetime]
    update_json: Mapped[str | None] = mapped_column(Text)
    """The update as Telegram sent it, until it is handled (then None)."""
    taken_by: Mapped[int | None] = mapped_column(BigInteger)
    """The worker whose queue holds the update (`GameLocks.worker_id`)."""
    handled_at: Mapped[datetime | None]
    """When the handlers were done with it (None: not yet)."""


class AnsweredTap(Base):
    """A tapped button (a callback query) the bot answered, or began to answer: Telegram takes
    one answer per tap, so a tap whose update is handled again (its worker died, or the process
    restarted, before marking it handled) is not answered a second time. Kept as long as the
    update ids."""

    __tablename__ = "answered_taps"
    __table_args__ = (Index("ix_answered_taps_answered_at", "answered_at"),)

    query_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    answered_at: Mapped[datetime]


class PrivatePace(Base):
    """When the next message to a private chat may start, and whether one is in flight, on the
    database server's clock: shared by the workers so that together they keep Telegram's pace
    in one person's chat (rows older than a minute are deleted)."""

    __tablename__ = "private_paces"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    free_at: Mapped[float] = mapped_column(Float)
    """Seconds since the epoch: the next message may start then (its spacing after the last
    one's answer)."""
    busy_until: Mapped[float] = mapped_column(Float)
    """Seconds since the epoch: a message is in flight until its answer, or until then."""
