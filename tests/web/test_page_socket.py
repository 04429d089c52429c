"""A page's frame queue: a state older than one the page was pushed is never pushed after it
(an outcome's snapshot, read before a resync's fresher state went out)."""

from __future__ import annotations

from gaple_bot.i18n import Translators
from gaple_bot.web.hub import PageSocket
from gaple_bot.web.state import Viewer


def _page() -> PageSocket:
    return PageSocket(Viewer(21, "Ana", "en"), 7, Translators().get("en"))


def _queued(page: PageSocket) -> list[object]:
    frames = []
    while not page.frames.empty():
        frames.append(page.frames.get_nowait())
    return frames


def test_an_older_state_is_dropped_and_a_newer_or_equal_one_kept() -> None:
    page = _page()
    page.push({"t": "state", "revision": 5})
    page.push({"t": "played", "seat": 1, "text": ""})
    page.push({"t": "state", "revision": 3})
    page.push({"t": "state", "revision": 5})
    page.push({"t": "state", "revision": 6})
    assert _queued(page) == [
        {"t": "state", "revision": 5},
        {"t": "played", "seat": 1, "text": ""},
        {"t": "state", "revision": 5},
        {"t": "state", "revision": 6},
    ]
    assert page.revision == 6


def test_lobby_states_share_revision_zero_and_all_go_out() -> None:
    page = _page()
    page.push({"t": "state", "revision": 0, "phase": "lobby"})
    page.push({"t": "state", "revision": 0, "phase": "lobby"})
    assert len(_queued(page)) == 2
