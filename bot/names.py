"""Players' names as Arbiter shows them.

A display name can hold anything: markdown (`**bold**`, `||spoiler||`, `[text](link)`),
mentions (`@everyone`, `<@id>`), Discord's other `<...>` forms (`<#channel>`, a timestamp
`<t:0:R>`, a command link `</match new:1>`, a custom emoji `<:x:id>`), line breaks and
other control characters. A name reads as its player wrote it and never becomes any of
those. Discord shows text in two ways, and a name has one form for each:

- Where markdown renders (message content, an embed's title, description and fields):
  `shown_name`, made once where the name enters Arbiter and stored so. Broken lines and
  control characters become spaces; markdown and every `<` are escaped with a backslash
  (so no `<...>` form is parsed) and mentions broken with a zero-width space (so none
  pings). The game's own lines carry it as it is.
- Where text shows as it is (an embed's footer and author, a button's label, a menu's
  options, autocomplete, a thread's name, the pictures): `plain` of the text holding it,
  which takes those escapes off again (a backslash would show there).

Emoji sequences (👩‍💻, 👨‍👩‍👧, 👍🏽, 1️⃣, flags) are kept whole by both, and by every cut
(`rules.core.text.clip`).
"""

from __future__ import annotations

import re
import unicodedata

import discord

# Controls, breaks, format and private characters. An unassigned one stays: it may be an
# emoji newer than this Python's tables.
_UNSAFE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co"})
_JOINERS = "\u200c\u200d"  # zero-width (non-)joiner: kept inside a word (👩‍💻, Persian)
_TAGS = range(0xE0020, 0xE0080)  # kept after a black flag (🏴 + tags: a region's flag)
_FLAG = "\U0001f3f4"
_BREAKER = "\u200b"  # what `escape_mentions` puts after an @ (never left in a name)
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")  # a backslash before ASCII punctuation
_LIST = re.compile(r"^(\d+)\.(?=\s)")  # "1. Ada" would start a numbered list


def _keeps(char: str, before: str) -> bool:
    """Whether a name keeps `char`, after `before`: not a control, break, format or
    private character (but a joiner, or a tag that goes on a flag), nor one Unicode
    promises never to assign (U+FFFF and the like)."""
    code = ord(char)
    if 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE:
        return False
    if code in _TAGS:
        return before.endswith(_FLAG) or ord(before[-1:] or " ") in _TAGS
    return unicodedata.category(char) not in _UNSAFE or char in _JOINERS


def _one_line(display_name: str) -> str:
    """A display name on one line: what it may not keep as spaces (see `_keeps`), a
    joiner at the edge of a word (it joins nothing) gone, spaces collapsed."""
    out = ""
    for char in display_name:
        out += char if _keeps(char, out) else " "
    words = (word.strip(_JOINERS) for word in out.split())
    return " ".join(word for word in words if word)


def shown_name(display_name: str) -> str:
    """A display name as Arbiter stores it and shows it where markdown renders: on one
    line, its markdown, `<` forms and mentions escaped."""
    cleaned = _one_line(display_name) or "?"
    escaped = discord.utils.escape_markdown(discord.utils.escape_mentions(cleaned))
    return _LIST.sub(r"\1\\.", escaped).replace("<", "\\<")


def plain(text: str) -> str:
    """Text with a shown name's escapes taken off: for places that show text as it is
    (footers, buttons, menus, autocomplete, thread names, pictures)."""
    if "\\" in text:
        text = _ESCAPED.sub(r"\1", text)
    return text.replace("@" + _BREAKER, "@") if _BREAKER in text else text


__all__ = ["plain", "shown_name"]
