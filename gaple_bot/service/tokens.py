"""The start parameters of the page's links: a live table's join token, a replay's prefix."""

from __future__ import annotations

REPLAY_START_PREFIX = "rp_"
"""A replay's Mini App start parameter: this, then the game's replay token (a live table's
start parameter is its join token, made never to start so)."""
