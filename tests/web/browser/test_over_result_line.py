"""At a game's end, the line under the podium that says how the last round ended (the
result, and who won it) has the room it needs on a small phone: inside the screen, nothing of
it cut, and no sentence of it broken over two lines where it fits on one (a name such as
"🤖 Easy 3" never split from its number)."""

from __future__ import annotations

import pytest

from tests.web.kit import PageServer

from .conftest import OpenTable
from .phones import TEXT_AT, TRIAL, local_game_over
from .table import DEADLINE_MS

RESULT_LINE = (
    """() => {"""
    + TEXT_AT
    + """
  const line = document.querySelector(".over-round");
  if (!line) return ["no result line"];
  const problems = [];
  const box = line.getBoundingClientRect();
  if (box.left < 0 || box.right > innerWidth + 0.5) {
    problems.push(`the line spans ${box.left}..${box.right}, past the screen (${innerWidth})`);
  }
  if (line.scrollWidth > line.clientWidth + 0.5) problems.push("the line is cut at its side");
  // The line's text, and where each of its characters is in its text nodes.
  const [text, at] = textAt(line);
  const room = line.clientWidth;
  const style = getComputedStyle(line);
  for (const match of text.matchAll(/\\S[^]*?(?:[.!?](?=\\s|$)|$)/g)) {
    const sentence = match[0].trim();
    if (!sentence) continue;
    // How wide the sentence is on one line, in the line's font.
    const probe = document.createElement("span");
    probe.textContent = sentence;
    Object.assign(probe.style, {
      position: "absolute", visibility: "hidden", whiteSpace: "nowrap",
      font: style.font, letterSpacing: style.letterSpacing,
    });
    document.body.append(probe);
    const width = probe.getBoundingClientRect().width;
    probe.remove();
    if (width > room) continue;
    const range = document.createRange();
    range.setStart(...at(match.index));
    range.setEnd(...at(match.index + match[0].length));
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
      .map((r) => Math.round(r.top + r.height / 2)));
    if (tops.size > 1) {
      problems.push(`"${sentence}" (${width.toFixed(0)} px, the line ${room} px)`
        + ` breaks over ${tops.size} lines`);
    }
  }
  return problems;
}"""
)


@pytest.mark.parametrize("size", TRIAL.values(), ids=TRIAL.keys())
@pytest.mark.parametrize("kind", ["gaple", "gap"])
async def test_the_game_s_result_line_has_room_on_a_small_phone(
    server: PageServer, open_table: OpenTable, kind: str, size: dict[str, int]
) -> None:
    table = await local_game_over(server, open_table, kind)
    page = table.page
    await page.set_viewport_size({"width": size["width"], "height": size["height"]})
    await page.wait_for_function(
        "(width) => innerWidth === width", arg=size["width"], timeout=DEADLINE_MS
    )
    line = page.locator(".over-round")
    await line.wait_for(timeout=DEADLINE_MS)
    assert (await line.inner_text()).strip()
    problems = await page.evaluate(RESULT_LINE)
    assert not problems, f"{await line.inner_text()!r}:\n" + "\n".join(problems)
    table.assert_clean()
