"""Button payloads: every payload the bot writes reads back; anything else is refused."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from gaple_bot.bot.callback_data import FIELDS, Action, BadCallbackData, decode, encode

FIELD = st.integers(-(2**63), 2**63 - 1)


@st.composite
def payloads(draw: st.DrawFn) -> tuple[Action, tuple[int, ...]]:
    action = draw(st.sampled_from(list(Action)))
    values = tuple(draw(FIELD) for _ in FIELDS[action])
    return action, values


@given(payloads())
def test_what_the_bot_writes_reads_back(payload: tuple[Action, tuple[int, ...]]) -> None:
    action, values = payload
    data = ":".join([action.value, *map(str, values)])
    assume(len(data.encode()) <= 64)  # encode() refuses longer ones
    callback = decode(encode(action, *values))
    assert (callback.action, callback.values) == (action, values)


@pytest.mark.parametrize(
    "data",
    ["lj: 1", "lj:+1", "lj:1_0", "lj:01", "lj:-0", "lj:\u0663", "lj:1 ", "mv:1:2:", "lj:"],
)
def test_fields_the_bot_never_writes_are_refused(data: str) -> None:
    with pytest.raises(BadCallbackData):
        decode(data)


@given(st.text(max_size=64))
def test_any_text_decodes_or_is_refused(data: str) -> None:
    try:
        callback = decode(data)
    except BadCallbackData:
        return
    assert callback.encode() == data
