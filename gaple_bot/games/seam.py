"""The seam every game kind plugs into: all that store, service and bot may know of a game."""

from __future__ import annotations

import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from typing import Any, Generic, Literal, Protocol, TypeAlias, TypeVar

from ..i18n import Translator
from .options import OptionSpec
from .pictures import Picture, PictureError
from .texts import standings
from .views import GameMessage, HandView, PrivateNote, RoundReveal, TableView

JSON = dict[str, Any]
"""A game's config, a deal or a round's result as stored: plain JSON values."""

Board = TypeVar("Board")
"""A kind's public board (Gaple: GapleBoard)."""
Private = TypeVar("Private")
"""A kind's private view of one seat (Gaple: GapleHand)."""
View = TypeVar("View")
"""What a kind's computer player sees (Gaple: its rules' SeatView)."""
Board_co = TypeVar("Board_co", covariant=True)
Private_co = TypeVar("Private_co", covariant=True)
View_co = TypeVar("View_co", covariant=True)


class GameDataError(ValueError):
    """Stored game data (config, deal, move codes) that the kind cannot read or replay."""


@dataclass(frozen=True, slots=True)
class SeatLimits:
    """How many seats a game of these options may have, and how many computers fill."""

    least: int
    """The fewest seats the rules allow (people and computers together)."""
    most: int
    """The most seats the rules allow: the lobby's capacity."""
    filled: int
    """Seats made up with computer players at the start, when the chat lets computers fill."""


@dataclass(frozen=True, slots=True)
class ExtraSpec:
    """A game-specific number in each seat's result, and how a player's totals keep it."""

    name: str
    aggregate: Literal["sum", "max"]


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat's line in a finished game's results."""

    seat: int
    place: int
    """1 for the best; seats the rules cannot tell apart share a place."""
    points: int
    rounds_won: int
    extras: Mapping[str, int]
    """Values of the kind's ExtraSpecs."""


class Match(Protocol[Board_co, Private_co, View_co]):
    """A game in play: its rounds so far and the current one, rebuilt from deals and moves."""

    @property
    def config(self) -> JSON:
        """The config this match was made from."""

    @property
    def round_number(self) -> int:
        """1 for the first round."""

    @property
    def ply(self) -> int:
        """Moves made in the current round."""

    @property
    def to_move(self) -> int | None:
        """The seat to move, or None between rounds and after the game."""

    @property
    def is_over(self) -> bool:
        """Whether the game has been decided."""

    @property
    def round_over(self) -> bool:
        """Whether the current round has ended."""

    def legal_codes(self) -> tuple[int, ...]:
        """The codes of the moves the seat to move may make now."""

    def automatic_code(self) -> int | None:
        """A move nobody needs to choose (the only legal one, and a pass), made by the bot."""

    def step_codes(self, step: int) -> tuple[int, ...]:
        """The legal codes a first pick (`step`: a tile, a card) leads to; empty if none."""

    def apply(self, seat: int, code: int) -> tuple[object, ...]:
        """Make a move; raises ValueError (changing nothing) if it is not allowed. Returns
        what the rules say happened, as the kind's own typed events (a tile played, a pass,
        a card and what it took, the round's end)."""

    def next_deal(self, rng: random.Random) -> JSON:
        """The next round's deal, drawn from `rng` (the current round must be over)."""

    def start_round(self, deal: JSON) -> None:
        """Start the next round from a deal (a new or a stored one)."""

    def round_result(self) -> JSON | None:
        """The current round's public result as JSON, once it is over."""

    @property
    def scores(self) -> tuple[int, ...]:
        """Every seat's running total."""

    @property
    def winner(self) -> int | None:
        """The seat that won the game, once it is over."""

    def board(self) -> Board_co:
        """The kind's public board of the current round (nothing hidden)."""

    def private(self, seat: int) -> Private_co:
        """What seat `seat` alone sees (its hand)."""

    def revealed(self) -> tuple[Private_co, ...]:
        """Every seat's private view, for the end of a round when all is shown."""

    def computer_view(self, seat: int) -> View_co:
        """What a computer player at `seat` sees (picklable, for a worker process)."""

    def outcomes(self) -> list[SeatOutcome]:
        """Every seat's result, once the game is over."""

    def totals_by_round(self) -> tuple[tuple[int, ...], ...]:
        """Every seat's total after each finished round, oldest first (the standings chart)."""


class Presentation(ABC, Generic[Board, Private]):
    """A kind's messages and buttons, as plain data (the bot turns them into Telegram's and
    adds its own buttons: 'My hand' on a running table, 'Play again' under the standings)."""

    @abstractmethod
    def table(self, t: Translator, table: TableView[Board], now: datetime) -> GameMessage:
        """The group's table message."""

    @abstractmethod
    def hand(
        self, t: Translator, view: HandView[Board, Private], now: datetime, step: int | None
    ) -> GameMessage:
        """A person's private hand, with move buttons when it has legal moves; `step` is
        their first pick when a move takes two (the buttons then offer its moves and Back)."""

    @abstractmethod
    def played(self, t: Translator, view: HandView[Board, Private], code: int) -> GameMessage:
        """The private hand right after the person made move `code`."""

    @abstractmethod
    def you_moved(self, t: Translator, code: int) -> str:
        """Move `code` told to the person who made it, in one sentence."""

    @abstractmethod
    def move_label(self, t: Translator, code: int) -> str:
        """Move `code` named in a few words, for "the better move was …" in a review
        ("[6|4] on the left", a pass, a discard; a card and what it takes). It names the
        move from its code alone: no board is needed (a move actually played is named by
        played_label)."""

    def played_label(self, t: Translator, code: int, events: Sequence[object]) -> str:
        """Move `code` as it was actually played, in a few words (a replay's move list and
        header): `events` are what the rules said happened (`Match.apply`'s answer), so a
        kind whose moves do more than their code says (Gap's automatic captures) names it
        all. By default the code names the move: move_label."""
        return self.move_label(t, code)

    def better_label(self, t: Translator, code: int, played: Sequence[object]) -> str:
        """Move `code`, the better move where another was played, in a few words (a
        review's "better: …"): `played` are the events of the move that was played there,
        so a kind whose words for a move depend on the position names it as it would have
        been played (Gaple: where the move played laid the line's first tile, the better one
        lays it too, and has no side). By default the code names the move: move_label."""
        return self.move_label(t, code)

    def computer_moved_for_you(self, t: Translator, code: int) -> str:
        """Move `code` made by the computer when the person's time ran out: by default
        without naming the move (the hand below it shows what changed)."""
        return t.gettext("⏰ Time ran out: the computer moved for you.")

    @abstractmethod
    def hand_alert(self, t: Translator, private: Private) -> str:
        """A short alert of the person's hand (the table's 'My hand' button)."""

    @abstractmethod
    def round_end(self, t: Translator, reveal: RoundReveal[Board, Private]) -> GameMessage:
        """The group's message when a round ends."""

    def round_end_picture(self, t: Translator, reveal: RoundReveal[Board, Private]) -> Picture:
        """The round's end drawn, from the same reveal (the photo that round_end captions).
        By default a kind draws nothing: PictureError, and the bot sends the text alone."""
        raise PictureError("this game draws no round end")

    def draw(self, picture: Picture) -> bytes:
        """One of the kind's own pictures ('<kind>.…') as PNG bytes; PictureError if it is
        not one or its data cannot be drawn (by default a kind has no pictures of its own)."""
        raise PictureError(f"no drawer {picture.drawer!r}")

    def game_end(self, t: Translator, table: TableView[Board]) -> GameMessage:
        """The group's final standings: by default the common winner and totals."""
        return standings(t, table)

    @abstractmethod
    def hidden_items(self, private: Private) -> tuple[frozenset[str], ...]:
        """This seat's hidden items, each as every text that would name it to anyone else
        (for leak checks: any of them shown elsewhere is a leak; the seat's own hand shows
        each item in one of them)."""

    def private_note(self, t: Translator, note: PrivateNote, chat: str) -> str:
        """A short private note about where and when the hand comes (`chat`: the group's
        title, HTML-escaped, for the notes that name it); by default it says "your hand"."""
        if note is PrivateNote.JOINED:
            return t.gettext("You joined. Your hand will come in our private chat.")
        if note is PrivateNote.JOINED_BY_LINK:
            text = t.gettext("You joined the table in {chat}. Your hand will come here.")
            return text.format(chat=chat)
        if note is PrivateNote.PROBE:
            text = t.gettext("👋 Your hand for the game in {chat} will come here.")
            return text.format(chat=chat)
        return t.gettext("🙋 Your seat is yours again. Your hand comes on your turn.")

    def lobby_invite(self, t: Translator, computers_fill: bool) -> str:
        """The open lobby's invitation: tap Join, where the hand comes, who fills empty seats
        (by default it says "your hand")."""
        if computers_fill:
            return t.gettext(
                "Tap Join to play. Your hand comes in a private chat with me. "
                "Empty seats get computer players at the start."
            )
        return t.gettext(
            "Tap Join to play. Your hand comes in a private chat with me. "
            "The game starts with whoever joined: computers do not fill seats in this chat."
        )

    def no_move_for_pick(self, t: Translator) -> str:
        """The alert when a first pick leads to no legal move ("That tile fits neither open
        end."; by default said of any game)."""
        return t.gettext("That cannot be played now.")

    def my_hand_label(self, t: Translator) -> str:
        """The table's button that shows a seated person their hand in an alert."""
        return t.gettext("👀 My hand")

    # The page (a Mini App table): the same views as JSON for the kind's own drawing script.

    @abstractmethod
    def page_board(self, t: Translator, table: TableView[Board]) -> JSON:
        """The public board as the kind's page script draws it (no hidden item: everyone
        watching the table receives it)."""

    @abstractmethod
    def page_hand(self, t: Translator, view: HandView[Board, Private]) -> JSON:
        """A seat's own items for the page: `{"items": [...]}`, each item with its `id`, an
        accessible `label` and its `moves` now (`code`, and a `choice` label when the item
        makes several moves, so the page asks which), plus whatever the script draws."""

    @abstractmethod
    def page_reveal(self, t: Translator, reveal: RoundReveal[Board, Private]) -> JSON:
        """A round's end for the page: every hand revealed, and `summary` lines in words."""

    def page_script(self) -> str:
        """The kind's page drawing, an ES module (see docs/PAGE.md for what it exports): by
        default `page.js` in the package of the module that defines the presentation's class
        (`present/page.js`)."""
        package = sys.modules[type(self).__module__].__package__
        if not package:
            raise FileNotFoundError(f"{type(self).__module__} is in no package: no page.js")
        return resources.files(package).joinpath("page.js").read_text(encoding="utf-8")

    @abstractmethod
    def command_help(self, t: Translator) -> str:
        """The game's command in the bot's command menu ("Open a Gaple table in this group")."""

    @abstractmethod
    def help_line(self, t: Translator) -> str:
        """The game's command in /help ("/gaple: open a table in this group")."""

    @abstractmethod
    def rules(self, t: Translator, config: JSON) -> list[str]:
        """/rules for a game of this config, a few lines."""

    @abstractmethod
    def lobby_title(self, t: Translator, config: JSON) -> str:
        """The lobby's first line: the game and its rules in a few words."""

    @abstractmethod
    def option_line(self, t: Translator, option: str, config: JSON) -> str:
        """The /settings line of one of the kind's own options, for a chat whose games get
        this config."""

    def option_label(self, t: Translator, option: str, value: str) -> str:
        """A value of one of the kind's own options, as its /settings button says it: by
        default the value itself (a number)."""
        return value

    def record_lines(
        self, t: Translator, rounds_won: int, points: int, extras: Mapping[str, int]
    ) -> list[str]:
        """A player's rounds, points and the kind's extras, for /stats (by default the
        rounds won and the points: a kind with extras says them)."""
        return [
            t.gettext("Rounds won: {rounds}").format(rounds=rounds_won),
            t.gettext("Points: {points}").format(points=points),
        ]


def running_totals(points: Iterable[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Each round's points added up: every seat's total after each round."""
    totals: list[tuple[int, ...]] = []
    for round_points in points:
        last = totals[-1] if totals else (0,) * len(round_points)
        totals.append(tuple(a + b for a, b in zip(last, round_points, strict=True)))
    return tuple(totals)


def next_config(kind: AnyGameKind, options: Mapping[str, str]) -> JSON:
    """The config a new game of these options gets (its seats provisional until it starts:
    as many as computers fill)."""
    return kind.make_config(options, kind.seat_limits(options).filled)


class GameKind(Protocol[Board, Private, View]):
    """One game: its identity, options, rules entry points, computer players and messages."""

    @property
    def name(self) -> str:
        """The stored kind (games.kind) and the command that opens a table."""

    @property
    def options(self) -> tuple[OptionSpec, ...]:
        """What /settings offers for this kind, with defaults."""

    @property
    def extras(self) -> tuple[ExtraSpec, ...]:
        """The game-specific numbers of each seat's result (by default none)."""
        return ()

    @property
    def presentation(self) -> Presentation[Board, Private]:
        """The kind's messages."""

    def seat_limits(self, options: Mapping[str, str]) -> SeatLimits:
        """The seats a game of these options may have."""

    def make_config(self, options: Mapping[str, str], seats: int) -> JSON:
        """The stored config of a game of these options and seats."""

    def config_seats(self, config: JSON) -> int:
        """The seat count of a stored config: by default its "seats" (GameDataError if it has
        none)."""
        seats = config.get("seats")
        if not isinstance(seats, int):
            raise GameDataError(f"a config without a seat count: {config!r}")
        return seats

    def config_limits(self, config: JSON) -> SeatLimits:
        """The seats a game of this stored config's rules may have: by default those of the
        default options (a kind whose limits depend on its options says otherwise)."""
        return self.seat_limits({})

    def with_seats(self, config: JSON, seats: int) -> JSON:
        """The stored config with another seat count: by default its "seats" replaced
        (GameDataError if it has none, or if `seats` is outside its config_limits)."""
        self.config_seats(config)  # a config without a seat count has none to replace
        limits = self.config_limits(config)
        if not limits.least <= seats <= limits.most:
            raise GameDataError(f"{seats} seats, outside {limits.least} to {limits.most}")
        return {**config, "seats": seats}

    def new_match(
        self, config: JSON, rng: random.Random
    ) -> tuple[Match[Board, Private, View], JSON]:
        """A new match with its first round dealt from `rng`, and that deal."""

    def replay(
        self, config: JSON, rounds: Sequence[tuple[JSON, Sequence[int]]]
    ) -> Match[Board, Private, View]:
        """The match rebuilt from its stored deals and move codes (every move checked);
        raises GameDataError if they do not replay."""

    def computer_move(self, level: str, view: View, seed: int) -> int:
        """The code of the move computer `level` makes in `view` (runs in a worker process:
        a module-level function's arguments and result pickle)."""

    def review_values(self, view: View, seed: int) -> dict[int, float]:
        """Every legal move code of the seat to move in `view` (a computer view: what that
        seat knew, never the hidden hands) mapped to its expected worth to that seat in
        points (the match value the hard player uses), by a search of about twenty times
        hard's work, bounded by work alone: the same view and seed give the same values on
        any machine. Runs in a worker process (the arguments and the result pickle); raises
        ValueError if the seat in `view` is not to move."""

    @property
    def review_unit(self) -> float:
        """How many of this game's points count as one point of a review's thresholds and
        accuracy (`games.review`, defined for rounds worth tens of points): by default 1; a
        game whose rounds are worth a few points says less."""
        return 1.0

    def warm_up_computers(self) -> None:
        """Load (or compile) what the computer players run, so the first decision after
        start is quick; called once in each computer process as it starts. By default
        there is nothing to load."""
        return None


AnyGameKind: TypeAlias = GameKind[Any, Any, Any]
"""A kind whatever its board and views: what the registry holds and the layers above use."""
AnyMatch: TypeAlias = Match[Any, Any, Any]
"""A match of any kind."""
AnyPresentation: TypeAlias = Presentation[Any, Any]
"""The messages of any kind."""
