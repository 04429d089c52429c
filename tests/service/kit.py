"""The service driven as a front end drives it: a chat's table, its commands and hand-made
deals, and the one place that holds a game's lock around a call."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

from gaple_bot.games.gap.rules import Move as GapMove
from gaple_bot.games.gaple.rules import Move as GapleMove
from gaple_bot.games.seam import JSON, GameKind, Match
from gaple_bot.service.progress import Progress
from gaple_bot.service.runtime import GameService
from gaple_bot.service.views import LobbyView, Person, TableView
from gaple_bot.store import GameRecord, GameResult, RoundSummary, SeatRecord

CHAT = -100_123
"""The group every table of these tests is opened in."""
ANA = Person(101, "Ana")
BUDI = Person(102, "Budi")
CITRA = Person(103, "Citra")
DEWI = Person(104, "Dewi")
EKO = Person(105, "Eko")
"""Someone in the group who sits at no table."""


class HandDealt(Protocol):
    """A deal made by hand: Gaple's or Gap's engine Deal."""

    def to_dict(self) -> Mapping[str, object]:
        """The deal as the store keeps it."""


class ScriptedDeals:
    """A Dealer that deals the given rounds in order, then the rules' own shuffles of the
    service's seeded generator (each deal is checked by the rules as a stored one is)."""

    def __init__(self) -> None:
        self.deals: list[JSON] = []

    def script(self, *deals: HandDealt) -> None:
        """Deal these next, in order."""
        self.deals.extend(dict(deal.to_dict()) for deal in deals)

    def first(self, kind: GameKind, config: JSON, rng: random.Random) -> tuple[Match, JSON]:
        """The first scripted deal as a match with no move made yet."""
        if not self.deals:
            return kind.new_match(config, rng)
        deal = self.deals.pop(0)
        return kind.replay(config, [(deal, ())]), deal

    def next(self, match: Match, rng: random.Random) -> JSON:
        """The next scripted deal (the match refuses one that breaks C5/D2/G6)."""
        return self.deals.pop(0) if self.deals else match.next_deal(rng)


def move_code(kind: str, text: str) -> int:
    """The code of a move written as the engines' golden tests write it ("R66", "B7/R6/G8")."""
    return (GapleMove if kind == "gaple" else GapMove).parse(text).code


@asynccontextmanager
async def held(service: GameService, game_id: int) -> AsyncIterator[None]:
    """Hold the game as the service's commands do around each use case (its lock)."""
    async with service.cache.lock(game_id):
        yield


class Table:
    """One table in CHAT, its commands sent the way the bot's handlers send them."""

    def __init__(self, service: GameService, dealer: ScriptedDeals, kind: str) -> None:
        self.service = service
        self.dealer = dealer
        self.kind = kind
        self.game_id = 0
        self.version = 0
        """The version the last table shown had: the one a button carries."""
        self.hands_reach = True
        """Whether the hand of each new turn reaches its person (a front end shows it)."""

    def code(self, text: str) -> int:
        """The code of this kind's move written as `text`."""
        return move_code(self.kind, text)

    async def set_option(self, option: str, value: str) -> None:
        """The chat's /settings choice `value` for `option` of this kind."""
        kind = self.service.registry.get(self.kind)
        await self.service.players.chat(CHAT, "The group")
        spec = next(s for s in kind.options if s.name == option)
        await self.service.players.change_setting(CHAT, kind, option, spec.choices.index(value))

    async def open(self, opener: Person) -> LobbyView:
        """/gaple or /gap in the group."""
        await self.service.players.private_chat_opened(opener)
        kind = self.service.registry.get(self.kind)
        lobby = await self.service.lobbies.open(kind, CHAT, "The group", None, opener)
        self.game_id = lobby.game_id
        return lobby

    async def join(self, person: Person, *, private_chat: bool = True) -> LobbyView:
        """Join, from someone who has (or has not) opened a private chat with the bot."""
        if private_chat:
            await self.service.players.private_chat_opened(person)
        async with held(self.service, self.game_id):
            return await self.service.lobbies.join(self.game_id, person)

    async def add_computer(self, person: Person) -> LobbyView:
        """'Add a computer', pressed by someone seated."""
        async with held(self.service, self.game_id):
            return await self.service.lobbies.add_computer(self.game_id, person.user_id, False)

    async def start(self, person: Person, *, deals: Sequence[HandDealt] = ()) -> Progress:
        """'Start', the first rounds dealt as given."""
        self.dealer.script(*deals)
        async with held(self.service, self.game_id):
            _lobby, progress = await self.service.lobbies.start(self.game_id, person.user_id, False)
        return await self._seen(progress)

    def deal_next(self, *deals: HandDealt) -> None:
        """The rounds after those dealt so far get these deals."""
        self.dealer.script(*deals)

    async def play(self, person: Person, text: str, *, version: int | None = None) -> Progress:
        """A move button in the person's private chat (carrying `version`, else the current)."""
        return await self.play_code(person, move_code(self.kind, text), version=version)

    async def play_code(self, person: Person, code: int, *, version: int | None = None) -> Progress:
        """The move button of `code`."""
        shown = self.version if version is None else version
        async with held(self.service, self.game_id):
            progress = await self.service.tables.play(self.game_id, person.user_id, shown, code)
        return await self._seen(progress)

    async def play_all(self, people: Sequence[Person], moves: str) -> Progress:
        """Each move of `moves` by whichever of `people` is to move (seat order = `people`)."""
        progress: Progress | None = None
        for text in moves.split():
            progress = progress or await self.progress()
            assert progress.turn is not None, f"nobody is to move before {text}"
            progress = await self.play(people[progress.turn.seat], text)
        assert progress is not None
        return progress

    async def timeout(self, *, version: int | None = None) -> Progress | None:
        """The turn timer of `version` (else the current one) runs out."""
        shown = self.version if version is None else version
        async with held(self.service, self.game_id):
            progress = await self.service.tables.timeout(self.game_id, shown)
        return None if progress is None else await self._seen(progress)

    async def take_back(self, person: Person) -> Progress:
        """'Take my seat back' in the person's private chat (or in the page)."""
        outcome = await self.service.commands.take_back(self.game_id, person.user_id)
        assert outcome.progress is not None
        return await self._seen(outcome.progress)

    async def can_take_back(self, person: Person) -> bool:
        """Whether the person is offered their seat back."""
        return await self.service.commands.can_take_back(self.game_id, person.user_id)

    async def stop(self, person: Person) -> TableView[Any] | None:
        """/stop in the group, by someone who is not a chat admin."""
        async with held(self.service, self.game_id):
            return await self.service.tables.stop(self.game_id, person.user_id, False)

    async def progress(self) -> Progress:
        """Where the game stands now, as a front end finds it after a restart."""
        async with held(self.service, self.game_id):
            return await self._seen(await self.service.tables.resume(self.game_id))

    async def _seen(self, progress: Progress) -> Progress:
        """The table a front end shows after `progress`; the person to move is shown their
        hand, unless hands do not reach people (`hands_reach`)."""
        if progress.table is not None:
            self.version = progress.table.version
        if progress.turn is not None and self.hands_reach:
            await self.service.hands.turn_shown(self.game_id, progress.turn.version)
        return progress

    # What the database holds -------------------------------------------------------------

    async def record(self) -> GameRecord:
        """The stored game."""
        async with self.service.store.read() as tx:
            return await tx.games.get(self.game_id)

    async def seats(self) -> list[SeatRecord]:
        """The stored seats, in order."""
        async with self.service.store.read() as tx:
            return await tx.seats.of_game(self.game_id)

    async def rounds(self) -> list[RoundSummary]:
        """The stored rounds, with their results."""
        async with self.service.store.read() as tx:
            return await tx.rounds.summaries(self.game_id)

    async def results(self) -> list[GameResult]:
        """The finished game's stored results, in seat order."""
        async with self.service.store.read() as tx:
            return await tx.results.of_game(self.game_id)
