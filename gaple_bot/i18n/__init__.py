"""Message catalogs and the translators handed explicitly to whatever renders text."""

from .translator import SUPPORTED_LANGUAGES, Translator, Translators, pick_language

__all__ = ["SUPPORTED_LANGUAGES", "Translator", "Translators", "pick_language"]
