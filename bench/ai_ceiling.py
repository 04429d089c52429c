"""How much Gaple's hard loses to hidden information: hard that sees every hand, on hard's deals.

A diagnostic, not a player: the variant's deals are narrowed to the true hands (every other
seat's hand known), so its search runs on the real deal alone. Paired with hard's own run on
the same seeded single rounds against the reference player (or `--opponent`), it measures
the room that better inference about the hidden hands could at most win back.

    .venv/bin/python bench/ai_ceiling.py --rounds 2000 --seed 2024
    .venv/bin/python bench/ai_ceiling.py --rounds 2000 --seed 2024 --opponent hard-v1
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from gaple_bot.games.gaple.ai import arena, dealer, knowledge, players
from gaple_bot.games.gaple.ai.arena import play_arena
from gaple_bot.games.gaple.ai.knowledge import Knowledge, PlaceKind
from gaple_bot.games.gaple.ai.levels import BUDGETS, Level
from gaple_bot.games.gaple.ai.players import Player
from gaple_bot.games.gaple.rules import Game, GameConfig, RuleSet, SeatView

ROOT = Path(__file__).resolve().parents[1]
# A sibling script's module, imported as bench's (as bench/load.py does), from the checkout.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.ai_variants import _line  # noqa: E402


@contextmanager
def hard_sees_every_hand() -> Iterator[None]:
    """While open, hard's deals are the true deal (classic rules: every hidden tile is in a
    hand); the other players' are untouched."""
    seen: dict[str, object] = {}
    original_view = Game.seat_view
    # The names dealer and arena call, patched where they look them up (imported there).
    original_knowledge = knowledge.knowledge_of
    original_play = players.play

    def seat_view(self: Game, seat: int) -> SeatView:
        seen["hands"] = list(self.round.hands)
        return original_view(self, seat)

    def knowledge_of(view: SeatView, assume_c4: bool = True) -> Knowledge:
        known = original_knowledge(view, assume_c4)
        if not seen.get("cheat"):
            return known
        hands = seen["hands"]
        assert isinstance(hands, list)
        places = tuple(
            dataclasses.replace(p, allowed=hands[p.seat]) if p.kind is PlaceKind.HAND else p
            for p in known.places
        )
        return Knowledge(known.unseen, places)

    def play(player: Player | str, view: SeatView, seed: int, budget: object = None) -> object:
        seen["cheat"] = Player(player) is Player.HARD
        try:
            return original_play(player, view, seed, budget)  # type: ignore[arg-type]
        finally:
            seen["cheat"] = False

    patches: list[tuple[object, str, Callable[..., object]]] = [
        (Game, "seat_view", seat_view),
        (dealer, "knowledge_of", knowledge_of),
        (arena, "play", play),
    ]
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    try:
        for owner, name, patched in patches:
            setattr(owner, name, patched)
        yield
    finally:
        for owner, name, old in saved:
            setattr(owner, name, old)


def main() -> int:
    """Play hard, then hard seeing every hand, on the same deals; print both and the gap."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--opponent",
        default=Player.REFERENCE.value,
        choices=[p.value for p in Player if p is not Player.HARD],
        help="the player in every other seat (default: the reference player)",
    )
    args = parser.parse_args()
    config = GameConfig(RuleSet.CLASSIC, 4)
    lineup = [Player.HARD] + [Player(args.opponent)] * 3
    print(
        f"classic, 4 seats, seed {args.seed}, against {args.opponent}; "
        f"load {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    base = play_arena(config, lineup, args.rounds, args.seed, {}, True)
    print(_line("hard", base, None, 4), flush=True)
    with hard_sees_every_hand():
        seeing = play_arena(
            config, lineup, args.rounds, args.seed, {"hard": BUDGETS[Level.HARD]}, True
        )
    print(_line("hard seeing every hand", seeing, base, 4), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
