"""Telegram I/O: handlers, callback data, rendering of text and keyboards, timers."""
