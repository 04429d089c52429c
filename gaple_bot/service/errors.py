"""Why a player's request was refused; the bot turns each into a short message."""

from __future__ import annotations


class ServiceError(Exception):
    """Base class of every refusal the service reports to a player."""


class NoSuchGame(ServiceError):
    """The button or command names a game that does not exist (or no longer runs)."""


class GameAlreadyOpen(ServiceError):
    """This chat (or topic) already has a lobby or a running game."""

    def __init__(self, game_id: int, message_id: int | None) -> None:
        super().__init__(f"game {game_id} is already open")
        self.game_id = game_id
        self.message_id = message_id


class BadInvite(ServiceError):
    """The join link names no table (guessed, mistyped or from before links had secrets)."""


class NotInLobby(ServiceError):
    """The lobby has already started or closed."""


class AlreadySeated(ServiceError):
    """The player already sits at this table."""


class TableFull(ServiceError):
    """Every seat of the lobby is taken."""


class NotSeated(ServiceError):
    """The player does not sit at this table."""


class NotAllowed(ServiceError):
    """Only whoever opened the table, or a chat admin, may do this."""


class NeedsAPerson(ServiceError):
    """A game needs at least one person seated to start."""


class NeedsMorePlayers(ServiceError):
    """Computers do not fill this chat's tables, and fewer people sit than the rules need."""

    def __init__(self, least: int) -> None:
        super().__init__(f"the rules need at least {least} players")
        self.least = least


class PrivateChatNeeded(ServiceError):
    """The player has never opened a private chat with the bot, so it cannot send their tiles."""


class StaleButton(ServiceError):
    """The button belongs to an earlier state of the game."""


class NotYourTurn(ServiceError):
    """Another seat is to move."""


class PickHasNoMove(ServiceError):
    """The first pick (a tile, a card) leads to no legal move now."""


class GameNotRunning(ServiceError):
    """The game is not being played (still a lobby, or over)."""


class BadSetting(ServiceError):
    """A settings button names an option or a choice that does not exist."""


class GamePaused(ServiceError):
    """The bot may not write in the game's group, so the game waits until it may again."""


class BetweenRounds(ServiceError):
    """The break after a round's end runs: nobody moves until the next round begins."""


class NoRoundBreak(ServiceError):
    """Next, said when no break runs (the next round has begun, or the game has ended)."""
