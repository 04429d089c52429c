"""The service's commands and questions: each command holds its game, runs, persists, lets go.

A front end sends a command and applies the frozen Outcome it gets back (the same one every
subscriber of the feed receives); it never sees the game's lock, its cached copy, or a held
game. Questions ask first what a command would refuse (pokerkit's verify-then-do), so no front
end writes a rule of the game's flow again.
"""

from __future__ import annotations

from .chat_commands import ChatCommands
from .lobby_commands import LobbyCommands
from .questions import Questions
from .table_commands import TableCommands


class GameCommands(LobbyCommands, TableCommands, ChatCommands, Questions):
    """Commands and questions on games, for one front end (named in the outcomes): the
    lobby's (lobby_commands.py), the table's (table_commands.py), the chat's changes
    (chat_commands.py) and the questions (questions.py), each run by command_base.py."""
