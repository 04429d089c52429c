"""The small phones of the page's trial by a new user (390 × 844 and 360 × 640), and a local
game played to its end through the service while the page follows it."""

from __future__ import annotations

from playwright.async_api import ViewportSize

from gaple_bot.web.local import LOCAL_PLAYER
from tests.web.kit import PageServer, chat_move

from .conftest import OpenTable
from .table import Table

TRIAL: dict[str, ViewportSize] = {
    "390x844": {"width": 390, "height": 844},
    "360x640": {"width": 360, "height": 640},
}
MAX_TURNS = 3000


async def local_game_over(server: PageServer, open_table: OpenTable, kind: str) -> Table:
    """Local play's table of `kind` (easy computers), the local person's first legal move
    made through the service each turn until the game is over, and the page showing its end
    (the standings, and the seats with the hands and points of the round that decided it)."""
    table = await open_table(server.url(f"/app?local={kind}"))
    welcome = next(frame for frame in table.received if frame.get("t") == "welcome")
    game_id = welcome["game_id"]
    service = server.service
    for _ in range(MAX_TURNS):
        if (await service.commands.table(game_id)).winner is not None:
            break
        hand = await service.commands.hand(game_id, LOCAL_PLAYER)
        await chat_move(service, game_id, LOCAL_PLAYER, hand.version, hand.legal[0])
    else:
        raise AssertionError(f"no end after {MAX_TURNS} turns")
    await table.wait_for_phase("over")
    return table
