"""Fakes of external services (the Telegram Bot API) for end-to-end tests."""
