"""Update handlers: commands, buttons and chat-member changes."""
