"""The page front end: a Telegram Mini App table served by the bot's own web server."""
