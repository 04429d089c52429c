"""The "+N" badge of the points a seat won in a round (by its hand at the round's end, and at
the game's end in the round that decided it) is legible all along: read as the page has just
drawn it, its entrance animation driven through the Web Animations API (paused, its
currentTime set step by step) never takes it below nine tenths opaque, nor does it once the
animation is over, nor again when the page draws the seats anew; with prefers-reduced-motion
it does not move at all."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from tests.web.kit import PageServer

from .conftest import OpenTable
from .phones import TRIAL, local_game_over
from .table import DEADLINE_MS

LEGIBLE = 0.9
SAMPLES = 40
OPACITY_ALL_ALONG = """([samples, legible]) => {
  // The page draws the seats anew (as on every state, resize or poll of the review) and the
  // badges are read in the same task: their animations have just begun, whatever the pace of
  // the machine.
  dispatchEvent(new Event("resize"));
  const problems = [];
  const seen = (node) => {
    let opacity = 1;
    for (let at = node; at; at = at.parentElement) opacity *= Number(getComputedStyle(at).opacity);
    return opacity;
  };
  const badges = [...document.querySelectorAll(".seat-points")];
  let moving = 0;
  for (const badge of badges) {
    const name = `"${badge.textContent}" of seat ${badge.closest(".seat")?.dataset.seat}`;
    const animations = badge.getAnimations();
    for (const animation of animations) {
      animation.pause();
      const end = animation.effect.getComputedTiming().endTime;
      if (end > 1) moving += 1;
      for (let i = 0; i <= samples; i += 1) {
        animation.currentTime = (end * i) / samples;
        const opacity = seen(badge);
        if (opacity < legible) {
          const time = ((end * i) / samples).toFixed(0);
          problems.push(`${name} at ${time} of ${end} ms: opacity ${opacity.toFixed(2)}`);
          break;
        }
      }
      animation.finish();
    }
    const opacity = seen(badge);
    if (opacity < legible) problems.push(`${name} once shown: opacity ${opacity.toFixed(2)}`);
  }
  return [badges.length, moving, problems];
}"""


async def badges_legible(page: Page, where: str) -> tuple[int, int]:
    """How many badges show, and how many animations of theirs last more than a moment."""
    badges, moving, problems = await page.evaluate(OPACITY_ALL_ALONG, [SAMPLES, LEGIBLE])
    assert not problems, f"{where}:\n" + "\n".join(problems)
    assert badges, f"{where}: no points badge shows"
    return badges, moving


async def draw_anew(page: Page, width: int, height: int) -> None:
    """A resized window: the page draws the table again, the seats and their badges new."""
    await page.set_viewport_size({"width": width, "height": height})
    await page.wait_for_function("(width) => innerWidth === width", arg=width, timeout=DEADLINE_MS)


@pytest.mark.parametrize("kind", ["gap", "gaple"])
async def test_the_points_badge_stays_legible(
    server: PageServer, open_table: OpenTable, kind: str
) -> None:
    table = await local_game_over(server, open_table, kind)
    page = table.page
    await badges_legible(page, "the game's end")
    for size in TRIAL.values():
        await draw_anew(page, size["width"], size["height"])
        await badges_legible(page, f"drawn anew at {size['width']} × {size['height']}")
    # Reduced motion: legible as ever, and nothing of it moves.
    await page.emulate_media(reduced_motion="reduce")
    await draw_anew(page, 375, 667)
    _, moving = await badges_legible(page, "with reduced motion")
    assert moving == 0, "a badge still moves with prefers-reduced-motion"
    table.assert_clean()
