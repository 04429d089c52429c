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
TEXT_AT = """
  // A node's text, from its text nodes, and where one of its offsets falls among them (a
  // node and an offset in it, for a Range).
  const textAt = (root) => {
    const nodes = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
    const at = (offset) => {
      for (const node of nodes) {
        if (offset <= node.textContent.length) return [node, offset];
        offset -= node.textContent.length;
      }
      return [nodes[nodes.length - 1], nodes[nodes.length - 1].textContent.length];
    };
    return [nodes.map((node) => node.textContent).join(""), at];
  };
"""
"""A script's start (inside its function) defining textAt(root): [its text, at(offset)]."""


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
