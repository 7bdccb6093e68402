"""The Tooth & Nail board: decks and discards per team, each player's zones and AP.

Reads the public view (`game.view(state, None)`) and a seat's view; every key
is read defensively so a missing one shows as a dash rather than failing.
"""

from __future__ import annotations

from typing import Any

from bot.render.generic import FIELD_LIMIT, Field, Renderer, chunked_fields, clip
from rules.core.packs import PROJECT_LEGEND

DRAINED = "💤"
LEGEND = f"{DRAINED} drained · (A2) Arcane 2 · (T1) Tech 1 · {PROJECT_LEGEND}"


def troop(card: dict[str, Any]) -> str:
    """A Troop in play: name, type initial and strength, drained marked."""
    kind = str(card.get("type") or "?")[:1]
    text = f"{card.get('name', '?')} ({kind}{card.get('strength', '?')})"
    return f"{DRAINED} {text}" if card.get("drained") else text


def zone(title: str, cards: list[dict[str, Any]], limit: Any) -> str:
    """One zone on one line, with its fill against its limit."""
    troops = " · ".join(troop(c) for c in cards) if cards else "empty"
    return f"**{title} {len(cards)}/{limit if limit is not None else '?'}**: {troops}"


def pile(team: dict[str, Any]) -> str:
    """A team's deck, discard pile and removed cards."""
    parts = [f"Deck **{team.get('deck', '?')}**"]
    discard = f"Discard {team.get('discard_count', 0)}"
    if team.get("discard_top"):
        discard += f" (top: {team['discard_top']})"
    parts.append(discard)
    removed = f"Removed {team.get('removed_count', 0)}"
    if team.get("face_down_removed"):
        removed += f" + {team['face_down_removed']} face down"
    parts.append(removed)
    return " · ".join(parts)


class ToothAndNailRenderer(Renderer):
    """Board and hand for Tooth & Nail: Factions."""

    legend = LEGEND

    def board_fields(self, view: dict[str, Any], to_act: tuple[int, ...]) -> list[Field]:
        limits = view.get("limits") or {}
        teams = {t.get("team"): t for t in view.get("teams", []) if isinstance(t, dict)}
        players = [p for p in view.get("players", []) if isinstance(p, dict)]
        shared = any(len(t.get("seats", [])) > 1 for t in teams.values())
        fields: list[Field] = []
        if shared:
            for number, team in teams.items():
                names = " & ".join(
                    str(p.get("name")) for p in players if p.get("seat") in team.get("seats", [])
                )
                label = f"Team {number + 1 if isinstance(number, int) else number}: {names}"
                fields.append(Field(clip(label, 256), pile(team)))
        for player in players:
            seat = player.get("seat")
            marks = "▶ " if seat in to_act else ""
            if player.get("eliminated"):
                marks += "☠ "
            factions = " + ".join(player.get("factions") or []) or "no faction yet"
            alpha = " · α" if seat == view.get("alpha") else ""
            name = f"{marks}{player.get('name', seat)} — {factions}{alpha}"
            lines = [f"AP **{player.get('ap', 0)}** · Hand **{player.get('hand_count', 0)}**"]
            command_card = player.get("command_card")
            if command_card and len(player.get("factions") or []) > 1:
                lines[0] += f" · Command card: {command_card}"
            if not shared and player.get("team") in teams:
                lines.append(pile(teams[player["team"]]))
            lines.append(zone("Command", player.get("command_zone", []), limits.get("command")))
            lines.append(zone("War", player.get("war_zone", []), limits.get("war")))
            fields.append(Field(clip(name, 256), clip("\n".join(lines), FIELD_LIMIT)))
        available = view.get("available_factions") or []
        if available:
            names = ", ".join(str(f.get("name")) for f in available if isinstance(f, dict))
            fields.append(Field("Factions still available", clip(names, FIELD_LIMIT)))
        return fields

    def card_line(self, card: dict[str, Any], copies: int = 1) -> str:
        if card.get("text"):  # the generated text already names the type and strength
            return super().card_line(card, copies)
        times = f" ×{copies}" if copies > 1 else ""
        kind = f"({card.get('type', '?')} {card.get('strength', '?')})"
        return f"**{card.get('name', '?')}**{times} {kind}"

    def private_fields(self, view: dict[str, Any]) -> list[Field]:
        fields = super().private_fields(view)
        if view.get("decision") and view.get("available_factions"):
            lines = [
                f"**{f.get('name', '?')}** — {f.get('text', '')}\n"
                f"Troops: {', '.join(str(t) for t in f.get('troops', []))}"
                for f in view["available_factions"]
                if isinstance(f, dict)
            ]
            fields.extend(chunked_fields("Factions to choose from", lines))
        me = next(
            (
                p
                for p in view.get("players", [])
                if isinstance(p, dict) and p.get("seat") == view.get("me")
            ),
            None,
        )
        if me and me.get("command_card"):
            text = me.get("command_card_text")
            title = f"Your Faction Command card: {me['command_card']}"
            fields.extend(chunked_fields(clip(title, 256), [text] if text else []))
        return fields
