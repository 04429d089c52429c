"""Who has a game's page open on this worker: the chat front end does not send them their hand
privately meanwhile, and the page is told their turn instead."""

from __future__ import annotations

from collections import Counter


class OpenPages:
    """Open pages counted by (game, person): a person may have it open twice (a phone and a
    computer), and it is closed when the last one goes."""

    def __init__(self) -> None:
        self._open: Counter[tuple[int, int]] = Counter()
        self._games: Counter[int] = Counter()

    def opened(self, game_id: int, user_id: int) -> None:
        """A page of the game is open for the person."""
        self._open[game_id, user_id] += 1
        self._games[game_id] += 1

    def closed(self, game_id: int, user_id: int) -> None:
        """One of the person's pages of the game went away."""
        key = (game_id, user_id)
        self._open[key] -= 1
        if self._open[key] <= 0:
            del self._open[key]
        self._games[game_id] -= 1
        if self._games[game_id] <= 0:
            del self._games[game_id]

    def any_open(self, game_id: int) -> bool:
        """Whether anyone has the game's page open now."""
        return self._games[game_id] > 0

    def is_open(self, game_id: int, user_id: int) -> bool:
        """Whether the person has the game's page open now."""
        return self._open[game_id, user_id] > 0
