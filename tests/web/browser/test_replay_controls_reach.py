"""A replay on a small phone: its controls (the position bar, the rounds' and the moves'
steps, Play) are in reach without scrolling, at the deal, at a round's end (every hand face up
above them) and with the move list scrolled into view, each one on the screen and the topmost
thing at its middle (nothing painted over it)."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from gaple_bot.web.replays import START_PREFIX
from tests.web.kit import PageServer
from tests.web.replay_kit import ANA, finished_game, member_init

from .conftest import OpenTable
from .phones import TRIAL
from .table import DEADLINE_MS

CONTROLS = ("prev-round", "prev-move", "play", "next-move", "next-round")
IN_REACH = """(acts) => {
  const problems = [];
  const controls = [
    ...acts.map((act) => document.querySelector(`#replay button[data-act="${act}"]`)),
    document.querySelector("#replay .replay-bar"),
  ];
  for (const control of controls) {
    if (!control) { problems.push("a control is missing"); continue; }
    const name = control.dataset.act || "the position bar";
    const box = control.getBoundingClientRect();
    const off = box.top < 0 || box.bottom > innerHeight + 0.5;
    if (off || box.left < 0 || box.right > innerWidth + 0.5) {
      problems.push(`${name} at ${box.top.toFixed(0)}..${box.bottom.toFixed(0)} px,`
        + ` the screen ${innerHeight} px high`);
      continue;
    }
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!hit || !(hit === control || control.contains(hit))) {
      problems.push(`${name} is covered by ${hit ? hit.outerHTML.slice(0, 60) : "nothing"}`);
    }
  }
  return problems;
}"""
TO_THE_BOTTOM = """() => {
  for (const node of [document.scrollingElement, ...document.querySelectorAll("*")]) {
    if (node.scrollHeight > node.clientHeight + 1) node.scrollTop = node.scrollHeight;
  }
}"""


async def assert_in_reach(page: Page, where: str) -> None:
    problems = await page.evaluate(IN_REACH, list(CONTROLS))
    size = page.viewport_size
    assert not problems, f"{where} at {size}:\n" + "\n".join(problems)


@pytest.mark.parametrize("size", TRIAL.values(), ids=TRIAL.keys())
@pytest.mark.parametrize("kind", ["gaple", "gap"])
async def test_a_replay_s_controls_are_in_reach_without_scrolling(
    server: PageServer, open_table: OpenTable, kind: str, size: dict[str, int]
) -> None:
    _, _, token = await finished_game(server, kind)
    table = await open_table(
        server.url("/app"), init_data=member_init(ANA, START_PREFIX + token, server)
    )
    page = table.page
    await page.set_viewport_size({"width": size["width"], "height": size["height"]})
    await page.wait_for_function(
        "(height) => innerHeight === height", arg=size["height"], timeout=DEADLINE_MS
    )
    await page.locator('#replay[data-round="1"][data-ply="0"]').wait_for(timeout=DEADLINE_MS)
    await assert_in_reach(page, "the deal")
    # The round's end: every hand face up, its points.
    last = await page.locator(".replay-bar").get_attribute("max")
    assert last is not None and int(last) > 0
    await page.locator(".replay-bar").fill(last)
    await page.locator(f'#replay[data-round="1"][data-ply="{last}"]').wait_for(timeout=DEADLINE_MS)
    await assert_in_reach(page, "the round's end")
    # The move list read to its end: the controls stay in reach, and still work.
    await page.evaluate(TO_THE_BOTTOM)
    await assert_in_reach(page, "the move list scrolled to its end")
    await page.locator('#replay button[data-act="prev-move"]').click(timeout=DEADLINE_MS)
    await page.locator(f'#replay[data-round="1"][data-ply="{int(last) - 1}"]').wait_for(
        timeout=DEADLINE_MS
    )
    table.assert_clean()
