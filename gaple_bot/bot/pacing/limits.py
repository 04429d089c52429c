"""Telegram's limits as the pacer keeps them, and the priorities of what waits."""

MESSAGES_PER_SECOND = 30
"""Telegram's limit for one bot: about 30 messages a second over all chats."""
PRIVATE_PER_SECOND = 1
"""Telegram's limit in one private chat: about one message a second."""
WINDOW_SECONDS = 1.0
MARGIN_SECONDS = 0.05
"""Added to the window: Telegram's clock and ours need not agree to the millisecond."""
RETRIES = 3
PACED_PREFIXES = ("send", "edit", "copy", "forward")
"""Methods that count as messages: sends and edits (answering a button press does not)."""

PRIVATE, GROUP_SEND, GROUP_EDIT, WITHDRAWABLE = 0, 1, 2, 3
"""Priorities: a private message (a hand, a player's own move), then a new group message (a
lobby, a round's table, a notice), then a group edit (a table edit the group outbox merges
with the next one while it waits), then a request a newer one may take the place of while it
waits (the edit that takes a tapped hand's buttons off, which the person's next hand merges
with when the bot is busy)."""
AGED_SECONDS = 3.0
"""A request that has waited this long goes before every newer one, whatever its kind: under
more demand than the limits allow, nothing starves (a new group's lobby behind the hands of
running games), and the queue turns first come, first served."""
WITHDRAWABLE_AGED_SECONDS = 60.0
"""The same for a withdrawable request, later: it is worth most when it waits (the next edit
of its message, usually the person's next hand, then takes its place), but nothing waits for
ever behind a queue that never empties."""
