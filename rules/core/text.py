"""Words as menus and messages hold them."""

from __future__ import annotations

from rules.core.contract import NAME_LIMIT


def shorten(text: str, limit: int = NAME_LIMIT) -> str:
    """Text cut to `limit` characters at a word, with an ellipsis when cut (a menu
    option's label or description holds NAME_LIMIT)."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ·,;:") + "…"


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
