"""Text and keyboards for every message the bot sends, built from service views."""
