"""The engine-state loader: rebuilds a Game from its stored deals and moves.

This is the only code that reads deals and moves, which hold hidden information (every hand,
the tiles set aside, the faces of discards). Its result feeds the engine and per-seat views;
group messages are built from the public summaries (GameRepository, RoundRepository,
SeatView) instead.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..games.gaple.rules import Deal, Game, GameConfig, GapleError, replay
from .errors import CorruptGame, GameNotFound, GameNotStarted
from .models import Game as GameRow
from .models import Move, Round


async def load_engine_game(session: AsyncSession, game_id: int) -> Game:
    """The game's engine state, replayed from its stored deals and moves (every move checked).

    Raises GameNotFound, GameNotStarted (no round dealt yet) or CorruptGame.
    """
    config_data = await session.scalar(select(GameRow.config).where(GameRow.id == game_id))
    if config_data is None:
        raise GameNotFound(f"no game {game_id}")
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
    try:
        config = GameConfig.from_dict(config_data)
        rounds = [(Deal.from_dict(deal), moves[number]) for number, deal in deals]
        return replay(config, rounds)
    except (GapleError, KeyError, TypeError, ValueError) as exc:
        raise CorruptGame(f"game {game_id} does not replay: {exc}") from exc
