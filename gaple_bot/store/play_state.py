"""The play loader: a game's kind, config, deals and move codes, to replay it from.

This is the only code that reads deals and moves, which hold hidden information (every hand,
and whatever else a game keeps hidden). Its result feeds the kind's replay and per-seat
views; group messages are built from the public summaries (GameRepository, RoundRepository)
instead. Replaying is the caller's job (`registry.get(kind).replay(config, rounds)`), which
turns the kind's GameDataError into CorruptGame.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from .errors import CorruptGame, GameNotFound, GameNotStarted
from .models import Game, Move, Round
from .records import StoredPlay
from .statements import Statements


async def load_play(
    session: Statements, game_id: int, known: tuple[str, dict[str, Any]] | None = None
) -> StoredPlay:
    """The game's kind, config and every round's deal with its move codes, in order (the
    kind and config `known` already, read in the same session, are not read again).

    Raises GameNotFound, GameNotStarted (no round dealt yet) or CorruptGame (moves out of
    sequence, rounds not numbered 1..n).
    """
    if known is None:
        statement = select(Game.kind, Game.config).where(Game.id == game_id)
        row = (await session.execute(statement)).first()
        if row is None:
            raise GameNotFound(f"no game {game_id}")
        known = (row[0], row[1])
    kind, config = known
    deals = (
        await session.execute(
            select(Round.number, Round.deal).where(Round.game_id == game_id).order_by(Round.number)
        )
    ).all()
    if not deals:
        raise GameNotStarted(f"game {game_id} has no dealt round")
    moves: dict[int, list[int]] = {number: [] for number, _ in deals}
    stmt = (
        select(Move.round_number, Move.ply, Move.code)
        .where(Move.game_id == game_id)
        .order_by(Move.round_number, Move.ply)
    )
    for round_number, ply, code in await session.execute(stmt):
        codes = moves.get(round_number)
        if codes is None or ply != len(codes):
            raise CorruptGame(f"game {game_id}: move {round_number}.{ply} is out of sequence")
        codes.append(code)
    if [number for number, _ in deals] != list(range(1, len(deals) + 1)):
        raise CorruptGame(f"game {game_id}: the rounds are not numbered 1..{len(deals)}")
    return StoredPlay(
        kind=kind,
        config=config,
        rounds=tuple((deal, tuple(moves[number])) for number, deal in deals),
    )
