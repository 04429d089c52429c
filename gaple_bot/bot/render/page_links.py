"""The buttons that open a game's table page (the Mini App): a link in the group, the app
itself in a private chat."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from telegram import InlineKeyboardButton, WebAppInfo

from ...i18n import Translator


@dataclass(frozen=True, slots=True)
class PageLinks:
    """Where the bot's Mini App lives: its direct link's bot and short name (from @BotFather's
    /newapp) and the page's own public address (WEBAPP_URL)."""

    bot_username: str
    short_name: str
    page_url: str

    def direct_link(self, token: str) -> str:
        """The t.me link that opens the app at the table `token` opens. Telegram refuses
        web_app buttons in groups, so the group gets this link: the token reaches the page as
        its start parameter."""
        return f"https://t.me/{self.bot_username}/{self.short_name}?startapp={quote(token)}"

    def app_url(self, token: str) -> str:
        """The page's address for a private chat's web_app button (which Telegram opens
        signed, as the direct link does), the table named in its query."""
        return f"{self.page_url.rstrip('/')}/app?table={quote(token)}"

    def group_button(self, t: Translator, token: str) -> InlineKeyboardButton:
        """The group's Open table button."""
        return InlineKeyboardButton(open_table_label(t), url=self.direct_link(token))

    def private_button(self, t: Translator, token: str) -> InlineKeyboardButton:
        """A private chat's Open table button: the Mini App itself."""
        return InlineKeyboardButton(open_table_label(t), web_app=WebAppInfo(self.app_url(token)))


def open_table_label(t: Translator) -> str:
    """The words on every Open table button."""
    return t.gettext("🎲 Open table")
