"""How fast the bot may send: Telegram's limits for the whole bot, each private chat, each group
(its budget) and each game's table message, kept here together."""
