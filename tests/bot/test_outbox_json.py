"""Queued group messages keep every parameter through the database's JSON."""

from __future__ import annotations

import json

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, ReplyParameters, User
from telegram.constants import ParseMode

from gaple_bot.bot.outbox_json import params_from_json, params_to_json


def test_parameters_come_back_equal_after_json() -> None:
    params = {
        "text": "<b>Round 1</b>",
        "parse_mode": ParseMode.HTML,
        "message_thread_id": None,
        "disable_notification": True,
        "reply_parameters": ReplyParameters(41, allow_sending_without_reply=True),
        "reply_markup": InlineKeyboardMarkup(
            [
                [InlineKeyboardButton("Again", callback_data="pa:3")],
                [InlineKeyboardButton("Add me", url="https://t.me/gaple_test_bot?startgroup=true")],
            ]
        ),
    }
    stored = json.loads(json.dumps(params_to_json(params)))
    assert stored["parse_mode"] == "HTML"
    assert params_from_json(stored) == params


def test_a_value_json_cannot_hold_is_refused() -> None:
    with pytest.raises(TypeError):
        params_to_json({"from_user": User(1, "Ana", is_bot=False)})
    with pytest.raises(TypeError):
        params_to_json({"text": b"bytes"})
