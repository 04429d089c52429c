"""Pictures a game's messages may carry: plain data that a drawer turns into a PNG."""

from .picture import Picture, PictureError, plain

__all__ = ["Picture", "PictureError", "plain"]
