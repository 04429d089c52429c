"""The move each person last made by a tap, with the hand message it was tapped on: until that
hand shows the move (its buttons gone), a second tap on it is told what was played."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

PEOPLE_KEPT = 50_000
"""How many people's last moves are remembered (a bound on the memory; a person forgotten is
told that the button is out of date, as before)."""


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """A move a person tapped: on which game's hand message, at which version, and what."""

    game_id: int
    message_id: int
    version: int
    kind: str
    code: int


class PlayedMoves:
    """Each person's last tapped move (one worker's view: a second tap that reaches another
    worker is told that the button is out of date)."""

    def __init__(self) -> None:
        self._moves: OrderedDict[int, PlayedMove] = OrderedDict()

    def remember(self, user_id: int, move: PlayedMove) -> None:
        """The person's move is stored."""
        self._moves.pop(user_id, None)
        self._moves[user_id] = move
        if len(self._moves) > PEOPLE_KEPT:
            self._moves.popitem(last=False)

    def on(self, user_id: int, game_id: int, message_id: int, version: int) -> PlayedMove | None:
        """The move the person made on this hand (this message, at this version), if it is
        their last."""
        move = self._moves.get(user_id)
        if move is None or (move.game_id, move.message_id, move.version) != (
            game_id,
            message_id,
            version,
        ):
            return None
        return move
