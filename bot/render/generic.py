"""How any game's views become embed fields, and the base every game's renderer extends.

A renderer reads the JSON-able views the rules produce; it never sees a state.
The generic one relies only on the common keys (`prompt`, `players` with
`name`, a seat view's `hand` and `decision`) and shows other simple values
as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core.text import clip

FIELD_LIMIT = 1024


@dataclass(frozen=True)
class Field:
    """One embed field."""

    name: str
    value: str
    inline: bool = False


def chunked_fields(title: str, lines: list[str], *, empty: str = "—") -> list[Field]:
    """Lines packed into as few fields as fit (continuations titled '… (cont.)')."""
    if not lines:
        return [Field(title, empty)]
    fields: list[Field] = []
    current: list[str] = []
    size = 0
    for line in (clip(line, FIELD_LIMIT) for line in lines):
        if current and size + len(line) + 1 > FIELD_LIMIT:
            fields.append(Field(title if not fields else f"{title} (cont.)", "\n".join(current)))
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
    fields.append(Field(title if not fields else f"{title} (cont.)", "\n".join(current)))
    return fields


def _scalar(value: Any) -> str | None:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float | str):
        return str(value)
    return None


class Renderer:
    """Turns views into embed fields. Subclass per game for a richer board."""

    hidden_player_keys: frozenset[str] = frozenset({"seat", "name"})
    legend: str = ""  # the board footer's key to its marks, below the match's number
    # The private fields a private view's picture shows (by a part of their names),
    # left out when the player chose pictures only.
    pictured: tuple[str, ...] = ()
    # The most lines one public turn message holds before the next lines start a new one
    # (None: as many as fit in a message).
    turn_lines: int | None = None
    # Whether the board and the private view end with the last public lines ("Lately"); a
    # game whose board lists its recent events itself (Historia's numbered reports), with
    # no private lines, leaves them out.
    lately: bool = True
    # Whether the game numbers its own public lines (Historia's reports, "`#5`"): the
    # match log then shows those numbers, not the actions' (one numbering).
    numbers_lines: bool = False

    def scores(self, view: dict[str, Any]) -> list[str]:
        """Every side's score in a few words ("Ada: deck 18"), as the board's headline and
        its summary read it (none: the game keeps no score worth a glance)."""
        return []

    def when(self, view: dict[str, Any]) -> str:
        """Where the game is, in a word or two ("Turn 5", "Round 10", "Set-up")."""
        turn = view.get("turn")
        if view.get("phase") == "over":
            return "Game over"
        return f"Turn {turn}" if isinstance(turn, int) and not isinstance(turn, bool) else ""

    def private_headline(self, view: dict[str, Any]) -> str | None:
        """What a seat's private view is headed with when the game asks it nothing, but the
        game has something to tell it (None: who decides instead, or where the match is)."""
        return None

    def board_fields(self, view: dict[str, Any], to_act: tuple[int, ...]) -> list[Field]:
        """The public board: one field per player with their simple values."""
        fields = []
        for player in view.get("players", []):
            if not isinstance(player, dict):
                continue
            marker = "▶ " if player.get("seat") in to_act else ""
            parts = []
            for key, value in player.items():
                text = _scalar(value)
                if key in self.hidden_player_keys or text is None:
                    continue
                parts.append(f"{key.replace('_', ' ')}: {text}")
            name = f"{marker}{player.get('name', 'Seat ' + str(player.get('seat')))}"
            fields.append(Field(clip(name, 256), clip(" · ".join(parts) or "—", FIELD_LIMIT)))
        return fields

    def card_line(self, card: dict[str, Any], copies: int = 1) -> str:
        """One card of a hand (`copies` of it, when the hand holds several alike)."""
        line = f"**{card.get('name', '?')}**" + (f" ×{copies}" if copies > 1 else "")
        text = card.get("text")
        return f"{line} — {text}" if text else line

    def private_fields(self, view: dict[str, Any]) -> list[Field]:
        """A seat's own view: their hand, identical cards shown once with a count."""
        hand = view.get("hand")
        if not isinstance(hand, list):
            return []
        alike: dict[str, tuple[Any, int]] = {}
        for card in hand:
            key = repr(sorted(card.items())) if isinstance(card, dict) else repr(card)
            first, count = alike.get(key, (card, 0))
            alike[key] = (first, count + 1)
        lines = [
            self.card_line(card, count) if isinstance(card, dict) else f"{card} ×{count}"
            for card, count in alike.values()
        ]
        return chunked_fields(f"Your hand ({len(hand)})", lines, empty="(empty)")
