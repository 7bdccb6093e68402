"""Words as menus and messages hold them."""

from __future__ import annotations

import unicodedata

from rules.core.contract import NAME_LIMIT

_ZWJ = "\u200d"  # joins emoji into one (👩‍💻 is 👩, ZWJ, 💻)
_JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner and joiner
_MARKS = frozenset({"Mn", "Mc", "Me"})  # accents, variation selectors, the keycap's frame
_TONES = range(0x1F3FB, 0x1F400)  # emoji skin tones
_TAGS = range(0xE0020, 0xE0080)  # the letters of a subdivision flag (🏴 + tags)
_FLAG_LETTERS = range(0x1F1E6, 0x1F200)  # two of them make a country's flag
_VIRAMA = 9  # the combining class of a virama (Indic scripts)


def _extends(char: str) -> bool:
    """Whether `char` belongs to the character before it rather than starting one."""
    code = ord(char)
    return (
        char in _JOINERS or code in _TONES or code in _TAGS or unicodedata.category(char) in _MARKS
    )


def splits(text: str, at: int) -> bool:
    """Whether cutting `text` at index `at` would split one character as a reader sees
    it (a letter and its accents, an emoji sequence such as 👩‍💻, 👍🏽, 1️⃣ or a flag)."""
    if at <= 0 or at >= len(text):
        return False
    if _extends(text[at]) or text[at - 1] == _ZWJ:
        return True
    if unicodedata.combining(text[at - 1]) == _VIRAMA and text[at].isalpha():
        return True  # a conjunct (क्ष): a virama joins the letters on either side
    if ord(text[at]) in _FLAG_LETTERS:  # flag letters pair off from the first of a run
        run = at
        while run > 0 and ord(text[run - 1]) in _FLAG_LETTERS:
            run -= 1
        return (at - run) % 2 == 1
    return False


def graphemes(text: str) -> list[str]:
    """`text` as the characters a reader sees, each whole (see `splits`)."""
    found: list[str] = []
    start = 0
    for at in range(1, len(text) + 1):
        if at == len(text) or not splits(text, at):
            found.append(text[start:at])
            start = at
    return found


def cut(text: str, limit: int) -> str:
    """The longest start of `text` at most `limit` characters long that splits no
    character a reader sees (see `splits`)."""
    if len(text) <= limit:
        return text
    end = max(limit, 0)
    while end > 0 and splits(text, end):
        end -= 1
    return text[:end]


def shorten(text: str, limit: int = NAME_LIMIT) -> str:
    """Text cut to `limit` characters at a word, with an ellipsis when cut (a menu
    option's label or description holds NAME_LIMIT)."""
    if len(text) <= limit:
        return text
    return cut(text, limit - 1).rsplit(" ", 1)[0].rstrip(" ·,;:") + "…"


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with an ellipsis when cut; never inside an
    emoji sequence or a letter's accents."""
    return text if len(text) <= limit else cut(text, limit - 1) + "…"


def plural(count: int, word: str, many: str = "") -> str:
    """ "1 card", "2 cards", "0 cards"; `many` for a word whose plural isn't `word` + s."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def listed(names: list[str]) -> str:
    """Names as a sentence lists them: "Ada", "Ada and Basil", "Ada, Basil and Cleo"."""
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)


def chose(label: str) -> str:
    """What a player reads once an action is taken, from its menu label: "You chose:
    End turn" (a label alone reads as a button)."""
    return f"You chose: {label}"
