"""gaple-bot: play Gaple, the Indonesian block-domino game, in Telegram group chats."""

__version__ = "0.1.0"
