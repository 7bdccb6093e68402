"""The Command of Nature board: both formations row by row with each Elemental's STR/HP,
damage, shields and boosts; levels, gold, AP, hand/deck/discard counts; both markets.

Reads the public view (`game.view(state, None)`) and a seat's view defensively: a
missing key shows as a dash rather than failing.
"""

from __future__ import annotations

from typing import Any

from bot.render.generic import FIELD_LIMIT, Field, Renderer, chunked_fields, clip
from rules.core.packs import PROJECT_LEGEND

ROWS = ("I", "II", "III")
LEGEND = f"STR/HP · 💥 damage · 🛡 shields · ⚡ boosts · {PROJECT_LEGEND}"


def elemental(card: dict[str, Any] | None) -> str:
    """One space of a formation: its Elemental and tokens, or an empty space."""
    if not card:
        return "·"
    text = f"{card.get('name', '?')} {card.get('strength', '?')}/{card.get('hp', '?')}"
    for key, mark in (("damage", "💥"), ("shields", "🛡"), ("boosts", "⚡")):
        if card.get(key):
            text += f" {mark}{card[key]}"
    return text


def formation_lines(rows: list[list[dict[str, Any] | None]]) -> list[str]:
    """A formation front row first: "I · Timber 1/2 💥1"."""
    return [
        f"**{ROWS[n] if n < len(ROWS) else n + 1}** · " + " · ".join(elemental(c) for c in row)
        for n, row in enumerate(rows)
    ]


def player_line(player: dict[str, Any]) -> str:
    sage = str(player.get("sage") or "no Sage yet").replace("-", " ").title()
    fallen = " ☠" if player.get("sage_defeated") else ""
    waiting = "/".join(str(level) for level in player.get("champions_waiting") or [])
    champions = f" · Champions at {waiting}" if waiting else ""
    top = f" (top: {player['discard_top']})" if player.get("discard_top") else ""
    return (
        f"**{player.get('name', '?')}** — {sage}{fallen} · level {player.get('level', 1)}"
        f" · hand {player.get('hand_count', 0)} · deck {player.get('deck_count', 0)}"
        f" · discard {player.get('discard_count', 0)}{top}{champions}"
    )


def market_line(cards: list[dict[str, Any]], left: Any) -> str:
    shown = " · ".join(f"{c.get('name', '?')} ({c.get('cost', '?')}g)" for c in cards) or "empty"
    return f"{shown} — {left if left is not None else '?'} in the deck"


class CommandOfNatureRenderer(Renderer):
    """Board and hands for Command of Nature."""

    legend = LEGEND

    def board_fields(self, view: dict[str, Any], to_act: tuple[int, ...]) -> list[Field]:
        players = {p.get("seat"): p for p in view.get("players", []) if isinstance(p, dict)}
        fields: list[Field] = []
        for side in view.get("sides", []):
            if not isinstance(side, dict):
                continue
            seats = side.get("seats", [])
            names = " & ".join(str(players.get(s, {}).get("name", s)) for s in seats)
            marker = "▶ " if any(s in to_act for s in seats) else ""
            turn = " · their turn" if side.get("team") == view.get("active") else ""
            title = f"{marker}{names} — {side.get('gold', 0)} gold · {side.get('ap', 0)} AP{turn}"
            lines = [player_line(players[s]) for s in seats if s in players]
            lines += formation_lines(side.get("formation") or [])
            fields.append(Field(clip(title, 256), clip("\n".join(lines), FIELD_LIMIT)))
        markets = view.get("markets") or {}
        if markets:
            elementals = market_line(markets.get("elementals", []), markets.get("elemental_deck"))
            commands = market_line(markets.get("commands", []), markets.get("command_deck"))
            value = f"**Elementals:** {elementals}\n**Commands:** {commands}"
            fields.append(Field("Markets", clip(value, FIELD_LIMIT)))
        return fields

    def private_fields(self, view: dict[str, Any]) -> list[Field]:
        hands = view.get("hands")
        if not isinstance(hands, dict):
            return super().private_fields(view)
        me = str(view.get("me"))
        names = {
            str(p.get("seat")): p.get("name")
            for p in view.get("players", [])
            if isinstance(p, dict)
        }
        fields: list[Field] = []
        for seat, cards in sorted(hands.items(), key=lambda item: item[0] != me):
            title = "Your hand" if seat == me else f"{names.get(seat, 'Teammate')}'s hand"
            lines = [self.card_line(c) for c in cards]
            fields.extend(chunked_fields(f"{title} ({len(cards)})", lines, empty="(empty)"))
        return fields
