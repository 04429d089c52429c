"""Gap's sums at a round's end ("4 = 3 + 3 - 1 - 1", with true minus signs, under a seat's
columns) on a small phone: a sum wraps only between its terms, never between a number and its
sign or operator (nor the "=" and the first term)."""

from __future__ import annotations

import pytest

from tests.web.kit import PageServer

from .conftest import OpenTable
from .phones import TEXT_AT, TRIAL, local_game_over
from .table import DEADLINE_MS

WIDTHS = range(320, 400, 10)
"""Besides the trial's phones, every width from 320 to 390 px: where each sum breaks moves
with the seat's width."""
SPLIT_TERMS = (
    """() => {"""
    + TEXT_AT
    + """
  const problems = [];
  const sums = [...document.querySelectorAll(".gap-sum")];
  for (const sum of sums) {
    const [text, at] = textAt(sum);
    // Each number with the sign or operator before it: "\u22121", "= 3", "+ 3", "\u2212 1".
    for (const match of text.matchAll(/[=+\u2212-][\\s\\u00a0\\u2060\\u202f]*\\d+/g)) {
      const range = document.createRange();
      range.setStart(...at(match.index));
      range.setEnd(...at(match.index + match[0].length));
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.top + r.height / 2)));
      if (lines.size > 1) problems.push(`"${match[0]}" of "${text}" is split over two lines`);
    }
  }
  return [sums.length, problems];
}"""
)


@pytest.mark.parametrize("size", TRIAL.values(), ids=TRIAL.keys())
async def test_a_gap_sum_never_splits_a_number_from_its_operator(
    server: PageServer, open_table: OpenTable, size: dict[str, int]
) -> None:
    table = await local_game_over(server, open_table, "gap")
    page = table.page
    checked = 0
    for width in sorted({size["width"], *WIDTHS}):
        await page.set_viewport_size({"width": width, "height": size["height"]})
        await page.wait_for_function(
            "(width) => innerWidth === width", arg=width, timeout=DEADLINE_MS
        )
        sums, problems = await page.evaluate(SPLIT_TERMS)
        assert not problems, f"at {width} × {size['height']}:\n" + "\n".join(problems)
        checked += sums
    assert checked, "the game's end shows the last round's sums"
    table.assert_clean()
