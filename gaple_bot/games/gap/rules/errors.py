"""The engine's domain errors: one class per way a request can break the rules of Gap."""


class GapError(ValueError):
    """Base class of every rule violation the Gap engine reports."""


class ConfigError(GapError):
    """The seat count or target does not make a valid game."""


class DealError(ConfigError):
    """A deal does not fit the config (G1, G3) or is not a deal at all."""


class NotYourTurnError(GapError):
    """A seat tried to move while another seat is to move."""


class IllegalMoveError(GapError):
    """The move is not among the legal moves of the seat to move (G4)."""


class RoundOverError(GapError):
    """The round has ended; no more moves are accepted in it."""


class RoundNotOverError(GapError):
    """The next round was asked for while the current one is still being played."""


class GameOverError(GapError):
    """The game has been decided (G6); no more rounds are dealt."""


class MoveParseError(GapError):
    """A move's code or text does not name a move."""


class SerialError(GapError):
    """Stored game data (config, deals, move codes) does not describe a valid game."""
