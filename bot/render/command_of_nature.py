"""The Command of Nature board and private view.

The board shows each side as the table sees it: its players with their Sage's health
(the card whose fall loses the game), level, gold and Action Points; its formation
row by row, front row first, every space labelled as the menus name it (I, IIa, IIIc)
with its Elemental's STR, HP left and tokens; and both markets with their costs. The
private view adds the player's hand with each card's text, their teammate's, and their
faction actions. Views are read defensively: a missing key shows as a dash.
"""

from __future__ import annotations

from typing import Any

from bot.render.generic import FIELD_LIMIT, Field, Renderer, chunked_fields, clip
from rules.core.packs import PROJECT_LEGEND

ROWS = ("I", "II", "III")
ROW_HINTS = (" (front)", "", " (back)")
SAGE = "👑"
DANGER = "⚠️"
LOW_SAGE_HP = 4  # a Sage this close to falling is marked as in danger
UNLOCKS = (4, 6, 8)  # the levels that unlock a faction action
LEGEND = (
    f"⚔ STR · ♥ HP left/HP · 🛡 shields · ⚡ boosts · {SAGE} Sage: when it falls, its side "
    f"loses · {PROJECT_LEGEND}"
)


def elemental(card: dict[str, Any] | None) -> str:
    """One Elemental in play: "Timber ⚔2 ♥1/3 🛡1 ⚡2" (a Sage crowned)."""
    if not card:
        return "(empty)"
    hp = card.get("hp", 0)
    left = hp - card.get("damage", 0)
    crown = SAGE if card.get("sage") else ""
    text = f"{crown}{card.get('name', '?')} ⚔{card.get('strength', '?')} ♥{left}/{hp}"
    for key, mark in (("shields", "🛡"), ("boosts", "⚡")):
        if card.get(key):
            text += f" {mark}{card[key]}"
    return text


def space_name(row: int, index: int, size: int) -> str:
    """A space as the menus name it: "I", "IIa", "IIIc" (set apart as code)."""
    return f"`{ROWS[row] + ('abcdef'[index] if size > 1 else '')}`"


def formation_lines(rows: list[list[dict[str, Any] | None]], halves: list[str]) -> list[str]:
    """A formation front row first, each space labelled; a team's halves set apart."""
    lines = []
    for n, row in enumerate(rows):
        spaces = [f"{space_name(n, i, len(row))} {elemental(c)}" for i, c in enumerate(row)]
        if len(halves) > 1:
            half = len(spaces) // 2
            spaces = [" · ".join(spaces[:half]), "║", " · ".join(spaces[half:])]
            joined = " ".join(spaces)
        else:
            joined = " · ".join(spaces)
        lines.append(f"**Row {ROWS[n]}**{ROW_HINTS[n]}: {joined}")
    if len(halves) > 1:
        lines.append(f"*Left half {halves[0]}'s, right half {halves[1]}'s.*")
    return lines


def player_line(player: dict[str, Any], *, named: bool = True) -> str:
    """A player's Sage health, level and cards: "👑 Cedar ♥9/12 · level 2 (…)" (after
    their name when `named`)."""
    name = f"**{player.get('name', '?')}** — " if named else ""
    if not player.get("sage_name"):
        return f"{name}no Sage yet"
    if player.get("sage_defeated"):
        sage = f"☠ {player['sage_name']} has fallen"
    elif player.get("sage_placed") is False:
        sage = f"{SAGE} {player['sage_name']} ♥{player.get('sage_hp', 0)} (not set up yet)"
    else:
        left, hp = player.get("sage_hp_left", 0), player.get("sage_hp", 0)
        danger = f" {DANGER}" if left <= LOW_SAGE_HP else ""
        sage = f"{SAGE} {player['sage_name']} ♥{left}/{hp}{danger}"
    return f"{name}{sage} · {level_text(player)} · {cards_text(player)}"


def level_text(player: dict[str, Any]) -> str:
    """A level and where the faction actions stand: "level 4 (1 faction action; next
    at 6)"."""
    level = player.get("level", 1)
    unlock = player.get("next_unlock")
    unlocked = sum(1 for n in UNLOCKS if n <= level)
    if not unlocked:
        return f"level {level} (first faction action at {unlock})"
    held = f"{unlocked} faction action{'s' * (unlocked != 1)}"
    return f"level {level} ({held}; next at {unlock})" if unlock else f"level {level} ({held})"


def cards_text(player: dict[str, Any]) -> str:
    """A player's card counts."""
    return (
        f"hand {player.get('hand_count', 0)} · deck {player.get('deck_count', 0)} · "
        f"discard {player.get('discard_count', 0)}"
    )


def market_line(title: str, cards: list[dict[str, Any]], left: Any) -> str:
    """A market's face-up cards with their costs, and what is left in its deck."""
    shown = " · ".join(f"{c.get('name', '?')} ({c.get('cost', '?')} gold)" for c in cards)
    return f"**{title}** ({left if left is not None else '?'} in the deck): {shown or 'empty'}"


SET_UP = {"sage_choice": "Set-up: choosing Sages", "formation": "Set-up: formations"}


def _number(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def scores(view: dict[str, Any]) -> list[str]:
    """Each player's Sage's health, side by side (a Sage that falls loses its side the
    game)."""
    players = {p.get("seat"): p for p in view.get("players") or [] if isinstance(p, dict)}
    out = []
    for side in view.get("sides") or []:
        seats = side.get("seats") if isinstance(side, dict) else None
        for seat in seats if isinstance(seats, list) else []:
            player = players.get(seat, {})
            name = str(player.get("name", seat))
            if player.get("sage_defeated"):
                out.append(f"{name}: Sage fallen")
            elif not player.get("sage_name"):
                out.append(f"{name}: no Sage yet")
            else:
                hp = _number(player.get("sage_hp"))
                placed = player.get("sage_placed") is not False
                left = _number(player.get("sage_hp_left")) if placed else hp
                out.append(f"{name} ♥{left}/{hp}")
    return out


def when(view: dict[str, Any]) -> str:
    """The turn, the set-up, or the end."""
    phase = view.get("phase")
    if phase == "over":
        return "Game over"
    turn = view.get("turn")
    return f"Turn {turn}" if isinstance(turn, int) and phase not in SET_UP else "Set-up"


class CommandOfNatureRenderer(Renderer):
    """Board and private view for Command of Nature."""

    legend = LEGEND

    def scores(self, view: dict[str, Any]) -> list[str]:
        return scores(view)

    def when(self, view: dict[str, Any]) -> str:
        return when(view)

    pictured = ("hand (", "To choose from")  # the hands and the set-up choices, as cards

    def board_fields(self, view: dict[str, Any], to_act: tuple[int, ...]) -> list[Field]:
        players = {p.get("seat"): p for p in view.get("players", []) if isinstance(p, dict)}
        fields: list[Field] = []
        if view.get("attack"):
            fields.append(Field("⚔️ Attack under way", clip(str(view["attack"]), FIELD_LIMIT)))
        for side in view.get("sides", []):
            if not isinstance(side, dict):
                continue
            seats = side.get("seats", [])
            names = " & ".join(str(players.get(s, {}).get("name", s)) for s in seats)
            marker = "▶️ " if any(s in to_act for s in seats) else ""
            wallet = f"{side.get('gold', 0)} gold · {side.get('ap', 0)} AP"
            title = f"{marker}{names} · {wallet}"
            team = len(seats) > 1
            lines = [player_line(players[s], named=team) for s in seats if s in players]
            lines += formation_lines(side.get("formation") or [], side.get("names") or [])
            fields.append(Field(clip(title, 256), clip("\n".join(lines), FIELD_LIMIT)))
        markets = view.get("markets") or {}
        if markets:
            value = "\n".join(
                (
                    market_line(
                        "Elemental Market",
                        markets.get("elementals", []),
                        markets.get("elemental_deck"),
                    ),
                    market_line(
                        "Command Market", markets.get("commands", []), markets.get("command_deck")
                    ),
                )
            )
            fields.append(Field("Markets (Phase III)", clip(value, FIELD_LIMIT)))
        return fields

    def private_fields(self, view: dict[str, Any]) -> list[Field]:
        hands = view.get("hands")
        if not isinstance(hands, dict):
            return super().private_fields(view)
        me = str(view.get("me"))
        players = {str(p.get("seat")): p for p in view.get("players", []) if isinstance(p, dict)}
        fields: list[Field] = []
        if view.get("attack"):
            fields.append(Field("⚔️ Attack under way", clip(str(view["attack"]), FIELD_LIMIT)))
        mine = players.get(me)
        side = next(
            (
                s
                for s in view.get("sides", [])
                if isinstance(s, dict) and view.get("me") in s.get("seats", [])
            ),
            None,
        )
        if mine and side:
            wallet = f"Your side: {side.get('gold', 0)} gold · {side.get('ap', 0)} AP"
            fields.append(Field("You", clip(f"{player_line(mine)}\n{wallet}", FIELD_LIMIT)))
            rows = side.get("formation") or []
            if any(any(row) for row in rows):
                lines = formation_lines(rows, side.get("names") or [])
                fields.append(Field("Your formation", clip("\n".join(lines), FIELD_LIMIT)))
        offered = [c for c in view.get("to_choose") or [] if isinstance(c, dict)]
        if offered:
            lines = [self.card_line(c) for c in offered]
            fields.extend(chunked_fields("To choose from", lines))
        for seat, cards in sorted(hands.items(), key=lambda item: item[0] != me):
            owner = players.get(seat, {}).get("name", "Teammate")
            title = "Your hand" if seat == me else f"{owner}'s hand"
            lines = [self.card_line(c) for c in cards]
            fields.extend(chunked_fields(f"{title} ({len(cards)})", lines, empty="(empty)"))
        actions = view.get("faction_actions") or []
        if actions:
            lines = [
                f"{'✅' if a.get('unlocked') else '🔒'} {a.get('text', '')}"
                for a in actions
                if isinstance(a, dict)
            ]
            fields.extend(chunked_fields("Your faction actions (1 AP, one a turn)", lines))
        return fields
