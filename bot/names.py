"""Players' names as Arbiter shows them.

A display name can hold anything: markdown (`**bold**`, `||spoiler||`, `[text](link)`),
mentions (`@everyone`), line breaks and other control characters. A name is made safe
once, where it enters Arbiter (`shown_name`): broken lines and control characters become
spaces and markdown and mentions are escaped, so every message and embed that carries it,
the game's own lines included, shows it as it is. Where text is not markdown (a menu's
labels, autocomplete, thread names, pictures) the escapes are taken off again (`plain`).
"""

from __future__ import annotations

import re
import unicodedata

import discord

_UNSAFE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})  # controls, breaks, format
_ESCAPED = re.compile(r"\\([\\*_~|`>#\-\[\]()])")


def shown_name(display_name: str) -> str:
    """A display name as Arbiter stores and shows it: on one line, its markdown and
    mentions escaped."""
    one_line = "".join(" " if unicodedata.category(c) in _UNSAFE else c for c in display_name)
    cleaned = " ".join(one_line.split()) or "?"
    return discord.utils.escape_markdown(discord.utils.escape_mentions(cleaned))


def plain(text: str) -> str:
    """Text with a shown name's markdown escapes taken off: for places that show text
    as it is (menus, autocomplete, thread names, pictures)."""
    return _ESCAPED.sub(r"\1", text) if "\\" in text else text


__all__ = ["plain", "shown_name"]
