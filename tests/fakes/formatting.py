"""Telegram's parse_mode handling (HTML, MarkdownV2, Markdown), ported from tdlib's parser."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

Entity = dict[str, Any]

_SPACE_BYTES: Final = frozenset(b" \t\r\n\v\f\x00")
_HTML_TAGS: Final = frozenset(
    {
        "a",
        "b",
        "strong",
        "i",
        "em",
        "s",
        "strike",
        "del",
        "u",
        "ins",
        "tg-spoiler",
        "tg-emoji",
        "tg-time",
        "span",
        "pre",
        "code",
        "blockquote",
    }
)
_SIMPLE_HTML: Final = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "u": "underline",
    "ins": "underline",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
}
_USER_LINK_RE: Final = re.compile(r"tg://user\?id=(\d+)", re.IGNORECASE)
_URL_SCHEME_RE: Final = re.compile(r"(?i)(https?|tg|ton|ftp)://\S+")
_DOMAIN_RE: Final = re.compile(r"(?i)[a-z0-9-]+(\.[a-z0-9-]+)+(/\S*)?")
_TRIM: Final = " \t\r\n\v\f"

UserLookup = Callable[[int], "dict[str, Any] | None"]


class EntityParseError(Exception):
    """The text can't be parsed in the requested parse_mode (Telegram answers 400)."""


@dataclass
class _Open:
    tag: str
    argument: str
    utf16_offset: int
    byte_offset: int  # in the source, for error messages
    result_pos: int  # in the result (bytes), for <a> without href
    extra: dict[str, str]


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, the unit of MessageEntity offsets."""
    return len(text.encode("utf-16-le")) // 2


def _units(byte: int) -> int:
    """UTF-16 units contributed by a UTF-8 byte (0 for continuation bytes)."""
    if byte & 0xC0 == 0x80:
        return 0
    return 2 if byte >= 0xF0 else 1


def _checked_link(url: str) -> str | None:
    url = url.strip()
    if _URL_SCHEME_RE.fullmatch(url):
        return url
    if _DOMAIN_RE.fullmatch(url):
        return "http://" + url + ("" if "/" in url else "/")
    return None


def _link_entity(
    url: str, offset: int, length: int, lookup_user: UserLookup | None
) -> Entity | None:
    match = _USER_LINK_RE.fullmatch(url.strip())
    if match:
        user = lookup_user(int(match.group(1))) if lookup_user else None
        if user is None:
            return None
        return {"type": "text_mention", "offset": offset, "length": length, "user": user}
    checked = _checked_link(url)
    if checked is None:
        return None
    return {"type": "text_link", "offset": offset, "length": length, "url": checked}


def _decode_html_entity(data: bytes, pos: int) -> tuple[int, int]:
    """Decode ``&...;`` at ``pos``; returns (code point or 0, position after it)."""

    def at(k: int) -> int:
        return data[k] if k < len(data) else 0

    end = pos + 1
    code = 0
    if at(pos + 1) == ord("#"):
        end += 1
        if at(pos + 2) == ord("x"):
            end += 1
            while chr(at(end)) in "0123456789abcdefABCDEF":
                code = code * 16 + int(chr(at(end)), 16)
                end += 1
        else:
            while ord("0") <= at(end) <= ord("9"):
                code = code * 10 + at(end) - ord("0")
                end += 1
        if code == 0 or code >= 0x10FFFF or end - pos >= 10:
            return 0, pos
    else:
        while chr(at(end)).isascii() and chr(at(end)).isalpha():
            end += 1
        name = data[pos + 1 : end]
        named = {b"lt": "<", b"gt": ">", b"amp": "&", b"quot": '"'}.get(name)
        if named is None:
            return 0, pos
        code = ord(named)
    if at(end) == ord(";"):
        end += 1
    return code, end


def parse_html(source: str, lookup_user: UserLookup | None = None) -> tuple[str, list[Entity]]:
    """Parse Telegram-flavoured HTML into (text, entities), raising EntityParseError like tdlib."""
    data = source.encode("utf-8")
    size = len(data)

    def at(k: int) -> int:
        return data[k] if k < size else 0

    out = bytearray()
    utf16 = 0
    entities: list[Entity] = []
    nested: list[_Open] = []
    i = 0
    while i < size:
        c = data[i]
        if c == ord("&"):
            code, after = _decode_html_entity(data, i)
            if code:
                if 0xD800 <= code <= 0xDFFF:
                    raise EntityParseError(
                        "Text contains invalid Unicode characters after decoding HTML entities, "
                        "check for unmatched surrogate code units"
                    )
                utf16 += 2 if code > 0xFFFF else 1
                out += chr(code).encode("utf-8")
                i = after
                continue
        if c != ord("<"):
            utf16 += _units(c)
            out.append(c)
            i += 1
            continue

        begin = i
        i += 1
        if at(i) != ord("/"):
            while at(i) not in _SPACE_BYTES and at(i) != ord(">"):
                i += 1
            if at(i) == 0:
                raise EntityParseError(f"Unclosed start tag at byte offset {begin}")
            tag = data[begin + 1 : i].decode("utf-8", "replace").lower()
            if tag not in _HTML_TAGS:
                raise EntityParseError(f'Unsupported start tag "{tag}" at byte offset {begin}')
            argument = ""
            extra: dict[str, str] = {}
            while at(i) != ord(">"):
                while at(i) != 0 and at(i) in _SPACE_BYTES:
                    i += 1
                if at(i) == ord(">"):
                    break
                attr_begin = i
                while at(i) not in _SPACE_BYTES and at(i) not in (ord("="), ord(">")):
                    i += 1
                attr_name = data[attr_begin:i].decode("utf-8", "replace")
                if not attr_name:
                    raise EntityParseError(
                        f'Empty attribute name in the tag "{tag}" at byte offset {begin}'
                    )
                while at(i) != 0 and at(i) in _SPACE_BYTES:
                    i += 1
                if at(i) != ord("="):
                    if tag == "blockquote" and attr_name.lower() == "expandable":
                        argument = "expandable"
                        continue
                    raise EntityParseError(
                        "Expected equal sign in declaration of an attribute of the tag "
                        f'"{tag}" at byte offset {begin}'
                    )
                i += 1
                while at(i) != 0 and at(i) in _SPACE_BYTES:
                    i += 1
                if at(i) == 0:
                    raise EntityParseError(f'Unclosed start tag "{tag}" at byte offset {begin}')
                if at(i) not in (ord("'"), ord('"')):
                    token_begin = i
                    while chr(at(i)).isascii() and (chr(at(i)).isalnum() or chr(at(i)) in ".-"):
                        i += 1
                    value = data[token_begin:i].decode("utf-8", "replace").lower()
                    if at(i) not in _SPACE_BYTES and at(i) != ord(">"):
                        raise EntityParseError(
                            f"Unexpected end of name token at byte offset {token_begin}"
                        )
                else:
                    quote = at(i)
                    i += 1
                    buf = bytearray()
                    while at(i) != quote and at(i) != 0:
                        if at(i) == ord("&"):
                            code, after = _decode_html_entity(data, i)
                            if code:
                                buf += chr(code).encode("utf-8", "surrogatepass")
                                i = after
                                continue
                        buf.append(at(i))
                        i += 1
                    if at(i) == quote:
                        i += 1
                    value = buf.decode("utf-8", "replace")
                if at(i) == 0:
                    raise EntityParseError(f"Unclosed start tag at byte offset {begin}")
                if tag == "a" and attr_name == "href":
                    argument = value
                elif tag == "code" and attr_name == "class" and value.startswith("language-"):
                    argument = value[len("language-") :]
                elif tag == "span" and attr_name == "class" and value.startswith("tg-"):
                    argument = value[len("tg-") :]
                elif tag == "tg-emoji" and attr_name == "emoji-id":
                    argument = value
                elif tag == "tg-time" and attr_name in ("unix", "format"):
                    extra[attr_name] = value
            if tag == "span" and argument != "spoiler":
                raise EntityParseError(
                    f'Tag "span" must have class "tg-spoiler" at byte offset {begin}'
                )
            nested.append(_Open(tag, argument, utf16, begin, len(out), extra))
        else:
            if not nested:
                raise EntityParseError(f"Unexpected end tag at byte offset {begin}")
            while at(i) not in _SPACE_BYTES and at(i) != ord(">"):
                i += 1
            end_tag = data[begin + 2 : i].decode("utf-8", "replace").lower()
            while at(i) in _SPACE_BYTES and at(i) != 0:
                i += 1
            if at(i) != ord(">"):
                raise EntityParseError(f"Unclosed end tag at byte offset {begin}")
            top = nested[-1]
            if end_tag and end_tag != top.tag:
                raise EntityParseError(
                    f'Unmatched end tag at byte offset {begin}, expected "</{top.tag}>", '
                    f'found "</{end_tag}>"'
                )
            if utf16 > top.utf16_offset:
                _close_html_entity(top, utf16, bytes(out), entities, lookup_user)
            nested.pop()
        i += 1  # skip the '>'
    if nested:
        raise EntityParseError(f"Can't find end tag corresponding to start tag {nested[-1].tag}")
    for entity in entities:
        if entity["type"] == "code":
            entity.pop("language", None)
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return out.decode("utf-8"), entities


def _close_html_entity(
    top: _Open,
    utf16: int,
    out: bytes,
    entities: list[Entity],
    lookup_user: UserLookup | None,
) -> None:
    offset = top.utf16_offset
    length = utf16 - offset
    tag = top.tag
    if tag in _SIMPLE_HTML:
        entities.append({"type": _SIMPLE_HTML[tag], "offset": offset, "length": length})
    elif tag == "tg-emoji":
        if not top.argument.isdigit() or int(top.argument) == 0:
            raise EntityParseError("Invalid custom emoji identifier specified")
        entities.append(
            {
                "type": "custom_emoji",
                "offset": offset,
                "length": length,
                "custom_emoji_id": top.argument,
            }
        )
    elif tag == "tg-time":
        unix = top.extra.get("unix", "")
        if not unix.isdigit():
            raise EntityParseError("Invalid Unix time specified")
        entity: Entity = {
            "type": "date_time",
            "offset": offset,
            "length": length,
            "unix_time": int(unix),
        }
        if top.extra.get("format"):
            entity["date_time_format"] = top.extra["format"]
        entities.append(entity)
    elif tag == "a":
        url = top.argument or out[top.result_pos :].decode("utf-8", "replace")
        link = _link_entity(url, offset, length, lookup_user)
        if link is not None:
            entities.append(link)
    elif tag == "pre":
        last = entities[-1] if entities else None
        if (
            last is not None
            and last["type"] == "code"
            and last["offset"] == offset
            and last["length"] == length
            and last.get("language")
        ):
            last["type"] = "pre"
        else:
            entities.append({"type": "pre", "offset": offset, "length": length})
    elif tag == "code":
        last = entities[-1] if entities else None
        if (
            last is not None
            and last["type"] == "pre"
            and last["offset"] == offset
            and last["length"] == length
            and top.argument
        ):
            last["language"] = top.argument
        else:
            code: Entity = {"type": "code", "offset": offset, "length": length}
            if top.argument:
                code["language"] = top.argument
            entities.append(code)
    elif tag == "blockquote":
        kind = "expandable_blockquote" if top.argument == "expandable" else "blockquote"
        entities.append({"type": kind, "offset": offset, "length": length})


_MDV2_TYPE_NAMES: Final = {
    "bold": "Bold",
    "italic": "Italic",
    "underline": "Underline",
    "strikethrough": "Strikethrough",
    "spoiler": "Spoiler",
    "code": "Code",
    "pre": "Pre",
    "pre_code": "PreCode",
    "text_link": "TextUrl",
    "custom_emoji": "CustomEmoji",
    "blockquote": "BlockQuote",
}


@dataclass
class _MdOpen:
    kind: str
    argument: str
    utf16_offset: int
    byte_offset: int
    result_pos: int


def parse_markdown_v2(
    source: str, lookup_user: UserLookup | None = None
) -> tuple[str, list[Entity]]:
    """Parse MarkdownV2 into (text, entities), raising EntityParseError like tdlib."""
    data = source.encode("utf-8")
    size = len(data)

    def at(k: int) -> int:
        return data[k] if k < size else 0

    def reserved_error(k: int) -> EntityParseError:
        return EntityParseError(
            f"Character '{chr(at(k))}' is reserved and must be escaped with the preceding '\\'"
        )

    out = bytearray()
    utf16 = 0
    entities: list[Entity] = []
    nested: list[_MdOpen] = []
    have_blockquote = False
    i = 0
    while i < size:
        c = data[i]
        if c == ord("\\") and 0 < at(i + 1) <= 126:
            i += 1
            utf16 += 1
            out.append(data[i])
            i += 1
            continue
        reserved = b"_*[]()~`>#+-=|{}.!\n"
        if nested and nested[-1].kind in ("code", "pre", "pre_code"):
            reserved = b"`"
        if c not in reserved:
            utf16 += _units(c)
            out.append(c)
            i += 1
            continue

        is_end = False
        if nested:
            kind = nested[-1].kind
            if have_blockquote and c == ord("\n") and (i + 1 == size or at(i + 1) != ord(">")):
                is_end = True
            elif kind == "bold":
                is_end = c == ord("*")
            elif kind == "italic":
                is_end = c == ord("_") and at(i + 1) != ord("_")
            elif kind == "code":
                is_end = c == ord("`")
            elif kind in ("pre", "pre_code"):
                is_end = c == ord("`") and at(i + 1) == ord("`") and at(i + 2) == ord("`")
            elif kind in ("text_link", "custom_emoji"):
                is_end = c == ord("]")
            elif kind == "underline":
                is_end = c == ord("_") and at(i + 1) == ord("_")
            elif kind == "strikethrough":
                is_end = c == ord("~")
            elif kind == "spoiler":
                is_end = c == ord("|") and at(i + 1) == ord("|")

        if not is_end:
            byte_offset = i
            argument = ""
            kind = ""
            if c == ord("_"):
                if at(i + 1) == ord("_"):
                    kind = "underline"
                    i += 1
                else:
                    kind = "italic"
            elif c == ord("*"):
                kind = "bold"
            elif c == ord("~"):
                kind = "strikethrough"
            elif c == ord("|"):
                if at(i + 1) != ord("|"):
                    raise reserved_error(i)
                i += 1
                kind = "spoiler"
            elif c == ord("["):
                kind = "text_link"
            elif c == ord("`"):
                if at(i + 1) == ord("`") and at(i + 2) == ord("`"):
                    i += 3
                    kind = "pre"
                    lang_end = i
                    while at(lang_end) not in _SPACE_BYTES and at(lang_end) != ord("`"):
                        lang_end += 1
                    if i != lang_end and lang_end < size and at(lang_end) != ord("`"):
                        kind = "pre_code"
                        argument = data[i:lang_end].decode("utf-8", "replace")
                        i = lang_end
                    if at(i) in (ord("\n"), ord("\r")):
                        if at(i + 1) in (ord("\n"), ord("\r")) and at(i) != at(i + 1):
                            i += 2
                        else:
                            i += 1
                    i -= 1
                else:
                    kind = "code"
            elif c == ord("!"):
                if at(i + 1) != ord("["):
                    raise reserved_error(i)
                i += 1
                kind = "custom_emoji"
            elif c == ord("\n"):
                utf16 += 1
                out.append(ord("\n"))
                if i + 1 < size and at(i + 1) == ord(">"):
                    i += 1
                    if not have_blockquote:
                        kind = "blockquote"
                        have_blockquote = True
                if not kind:
                    i += 1
                    continue
            elif c == ord(">"):
                if i != 0:
                    raise reserved_error(i)
                kind = "blockquote"
                have_blockquote = True
            else:
                raise reserved_error(i)
            nested.append(_MdOpen(kind, argument, utf16, byte_offset, len(out)))
            i += 1
            continue

        top = nested[-1]
        if c == ord("\n") and top.kind != "blockquote":
            raise EntityParseError(
                f"Can't find end of {_MDV2_TYPE_NAMES[top.kind]} entity at byte offset "
                f"{top.byte_offset}"
            )
        skip = utf16 == top.utf16_offset
        entity: Entity | None = None
        if top.kind in ("bold", "italic", "code", "strikethrough", "underline", "spoiler"):
            if top.kind in ("underline", "spoiler"):
                i += 1
            entity = {"type": top.kind, "offset": top.utf16_offset, "length": 0}
        elif top.kind in ("pre", "pre_code"):
            i += 2
            entity = {"type": "pre", "offset": top.utf16_offset, "length": 0}
            if top.argument:
                entity["language"] = top.argument
        elif top.kind in ("text_link", "custom_emoji"):
            if at(i + 1) != ord("("):
                if top.kind == "custom_emoji":
                    raise EntityParseError("Custom emoji entity must contain a tg://emoji URL")
                url = out[top.result_pos :].decode("utf-8", "replace")
            else:
                i += 2
                url_begin = i
                buf = bytearray()
                while i < size and at(i) != ord(")"):
                    if at(i) == ord("\\") and 0 < at(i + 1) <= 126:
                        buf.append(at(i + 1))
                        i += 2
                        continue
                    buf.append(at(i))
                    i += 1
                if at(i) != ord(")"):
                    what = "a custom emoji URL" if top.kind == "custom_emoji" else "a URL"
                    raise EntityParseError(f"Can't find end of {what} at byte offset {url_begin}")
                url = buf.decode("utf-8", "replace")
            if top.kind == "custom_emoji":
                match = re.fullmatch(r"tg://emoji\?id=(\d+)", url)
                if not match:
                    raise EntityParseError("Invalid custom emoji URL specified")
                entity = {
                    "type": "custom_emoji",
                    "offset": top.utf16_offset,
                    "length": 0,
                    "custom_emoji_id": match.group(1),
                }
            else:
                entity = _link_entity(url, top.utf16_offset, 0, lookup_user)
        elif top.kind == "blockquote":
            have_blockquote = False
            out.append(c)
            utf16 += 1
            entity = {"type": "blockquote", "offset": top.utf16_offset, "length": 0}
        if entity is not None and not skip:
            entity["length"] = utf16 - top.utf16_offset
            entities.append(entity)
        nested.pop()
        i += 1

    if have_blockquote and nested and nested[-1].kind == "blockquote":
        top = nested.pop()
        if utf16 != top.utf16_offset:
            entities.append(
                {
                    "type": "blockquote",
                    "offset": top.utf16_offset,
                    "length": utf16 - top.utf16_offset,
                }
            )
    if nested:
        top = nested[-1]
        raise EntityParseError(
            f"Can't find end of {_MDV2_TYPE_NAMES[top.kind]} entity at byte offset "
            f"{top.byte_offset}"
        )
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return out.decode("utf-8"), entities


def parse_markdown(source: str, lookup_user: UserLookup | None = None) -> tuple[str, list[Entity]]:
    """Parse legacy Markdown into (text, entities), raising EntityParseError like tdlib."""
    data = source.encode("utf-8")
    size = len(data)

    def at(k: int) -> int:
        return data[k] if k < size else 0

    out = bytearray()
    utf16 = 0
    entities: list[Entity] = []
    i = 0
    while i < size:
        c = data[i]
        if c == ord("\\") and at(i + 1) in b"_*`[":
            i += 1
            out.append(data[i])
            utf16 += 1
            i += 1
            continue
        if c not in b"_*`[":
            utf16 += _units(c)
            out.append(c)
            i += 1
            continue
        begin = i
        end_char = ord("]") if c == ord("[") else c
        is_pre = False
        i += 1
        language = ""
        if c == ord("`") and at(i) == ord("`") and at(i + 1) == ord("`"):
            i += 2
            is_pre = True
            lang_end = i
            while at(lang_end) not in _SPACE_BYTES and at(lang_end) != ord("`"):
                lang_end += 1
            if i != lang_end and lang_end < size and at(lang_end) != ord("`"):
                language = data[i:lang_end].decode("utf-8", "replace")
                i = lang_end
            if at(i) in (ord("\n"), ord("\r")):
                if at(i + 1) in (ord("\n"), ord("\r")) and at(i) != at(i + 1):
                    i += 2
                else:
                    i += 1
        entity_offset = utf16
        content_start = len(out)
        while i < size and (
            at(i) != end_char or (is_pre and not (at(i + 1) == ord("`") and at(i + 2) == ord("`")))
        ):
            utf16 += _units(at(i))
            out.append(at(i))
            i += 1
        if i == size:
            raise EntityParseError(f"Can't find end of the entity starting at byte offset {begin}")
        if entity_offset != utf16:
            length = utf16 - entity_offset
            if c == ord("_"):
                entities.append({"type": "italic", "offset": entity_offset, "length": length})
            elif c == ord("*"):
                entities.append({"type": "bold", "offset": entity_offset, "length": length})
            elif c == ord("["):
                if at(i + 1) != ord("("):
                    url = out[content_start:].decode("utf-8", "replace")
                else:
                    i += 2
                    buf = bytearray()
                    while i < size and at(i) != ord(")"):
                        buf.append(at(i))
                        i += 1
                    url = buf.decode("utf-8", "replace")
                link = _link_entity(url, entity_offset, length, lookup_user)
                if link is not None:
                    entities.append(link)
            elif is_pre:
                pre: Entity = {"type": "pre", "offset": entity_offset, "length": length}
                if language:
                    pre["language"] = language
                entities.append(pre)
            else:
                entities.append({"type": "code", "offset": entity_offset, "length": length})
        if is_pre:
            i += 2
        i += 1
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return out.decode("utf-8"), entities


def parse_text(
    text: str, parse_mode: str | None, lookup_user: UserLookup | None = None
) -> tuple[str, list[Entity]]:
    """Apply ``parse_mode`` (None/""/HTML/MarkdownV2/Markdown, case-insensitive)."""
    mode = (parse_mode or "").lower()
    if mode == "":
        return text, []
    if mode == "html":
        return parse_html(text, lookup_user)
    if mode == "markdownv2":
        return parse_markdown_v2(text, lookup_user)
    if mode == "markdown":
        return parse_markdown(text, lookup_user)
    raise ValueError(f"Unsupported parse_mode {parse_mode!r}")


def trim_text(text: str, entities: list[Entity]) -> tuple[str, list[Entity]]:
    """Strip leading/trailing whitespace like Telegram does, shifting and clipping entities."""
    stripped_left = text.lstrip(_TRIM)
    shift = utf16_len(text) - utf16_len(stripped_left)
    result = stripped_left.rstrip(_TRIM)
    total = utf16_len(result)
    fixed: list[Entity] = []
    for entity in entities:
        start = max(0, entity["offset"] - shift)
        end = min(total, entity["offset"] + entity["length"] - shift)
        if end > start:
            fixed.append({**entity, "offset": start, "length": end - start})
    return result, fixed
