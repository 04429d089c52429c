"""The engine's domain errors: one class per way a request can break the rules."""


class GapleError(ValueError):
    """Base class of every rule violation the engine reports."""


class ConfigError(GapleError):
    """The rule set, seat count or options do not make a valid game."""


class NotYourTurnError(GapleError):
    """A seat tried to move while another seat is to move."""


class IllegalMoveError(GapleError):
    """The move is not among the legal moves of the seat to move."""


class RoundOverError(GapleError):
    """The round has ended; no more moves are accepted in it."""


class RoundNotOverError(GapleError):
    """The next round was asked for while the current one is still being played."""


class GameOverError(GapleError):
    """The game has a winner; no more rounds are dealt."""


class MoveParseError(GapleError):
    """A move's code or text does not name a move."""


class SerialError(GapleError):
    """A stored game does not describe a valid game."""
