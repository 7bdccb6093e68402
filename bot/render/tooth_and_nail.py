"""The Tooth & Nail board and private view, readable at a glance by a newcomer.

The board: every deck as the life total that decides the game (marked when low), with
the end condition said once; then each team (The Enemy of My Enemy: its players, its
Factions once, its shared discard pile) and each player: whose turn it is (the Alpha
player) and who must decide, AP, hand size, both zones with every Troop as "Name (Type
Strength)", drained ones marked. The private view: your resources, your hand with each
card's Command Ability, the abilities of your Command Zone Troops, your Faction Command
card; during the set-up, the Factions or Faction Command cards to choose from.

Reads the views of `rules.tooth_and_nail` defensively: a missing key shows as a dash.
"""

from __future__ import annotations

from typing import Any

from bot.render.generic import FIELD_LIMIT, Field, Renderer, chunked_fields, clip
from rules.core.packs import PROJECT_LEGEND

DRAINED = "💤"
LOW = "⚠️"
TO_ACT = "▶️"
OUT = "☠"
LOW_DECK = 5  # the rules mark a deck this small as low too (view key "low")
LEGEND = (  # a few marks to a line, under the match's number
    f"{DRAINED} drained (used; it recharges later) · (Arcane 1) Troop Type and Strength\n"
    f"{LOW} {LOW_DECK} cards or fewer left · {TO_ACT} decides now · {PROJECT_LEGEND}"
)
NAME_LIMIT = 256
COMMAND_ABILITY = "Command Ability: "


def troop(card: dict[str, Any]) -> str:
    """A Troop: "Cinder Cub ✦ (Arcane 1)", drained ones marked "💤 Cinder Cub ✦ (Arcane 1)"."""
    text = f"{card.get('name', '?')} ({card.get('type', '?')} {card.get('strength', '?')})"
    return f"{DRAINED} {text}" if card.get("drained") else text


def zone(title: str, cards: list[dict[str, Any]], limit: Any) -> str:
    """One zone on one line, with how full it is: "**War Zone** 2/6: ..."."""
    troops = " · ".join(troop(c) for c in cards) if cards else "empty"
    return f"**{title}** {len(cards)}/{limit if limit is not None else '?'}: {troops}"


def deck_count(team: dict[str, Any]) -> str:
    """A deck's size in bold, marked when it is close to running out."""
    count = team.get("deck", "?")
    low = team.get("low", isinstance(count, int) and count <= LOW_DECK)
    return f"**{count}**" + (f" {LOW}" if low else "")


def piles(team: dict[str, Any], *, shared: bool = False) -> str:
    """A deck's discard pile and the cards removed from the game (when there are any)."""
    pile = "Shared discard pile" if shared else "Discard pile"
    count = team.get("discard_count", 0)
    parts = [f"{pile} {count} (top: {team['discard_top']})" if count else f"{pile} empty"]
    if team.get("removed_count"):
        parts.append(f"{team['removed_count']} removed from the game")
    if team.get("face_down_removed"):
        parts.append(f"{team['face_down_removed']} set aside face down")
    return " · ".join(parts)


def _players(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in view.get("players") or [] if isinstance(p, dict)]


def _teams(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for t in view.get("teams") or [] if isinstance(t, dict)]


def _team_number(team: dict[str, Any]) -> str:
    number = team.get("team")
    return f"Team {number + 1}" if isinstance(number, int) else "Team"


def _shared(view: dict[str, Any]) -> bool:
    return any(len(t.get("seats", [])) > 1 for t in _teams(view))


def _drafting(view: dict[str, Any]) -> bool:
    return view.get("phase") == "faction_choice"


def _me(view: dict[str, Any]) -> dict[str, Any] | None:
    return next((p for p in _players(view) if p.get("seat") == view.get("me")), None)


def _ability(text: Any) -> str:
    """A Command Ability's effect, without its heading."""
    return str(text or "").removeprefix(COMMAND_ABILITY)


def scores(view: dict[str, Any]) -> list[str]:
    """Every side's deck (a deck that runs out loses), or "out" for a side eliminated."""
    players = {p.get("seat"): p for p in _players(view)}
    out = []
    for team in _teams(view):
        seats = team.get("seats") if isinstance(team.get("seats"), list) else []
        members = [players[s] for s in seats if isinstance(s, int) and s in players]
        names = " & ".join(str(p.get("name") or "?") for p in members) or "?"
        if members and all(p.get("eliminated") for p in members):
            out.append(f"{names}: out")
        elif _drafting(view):
            out.append(f"{names}: choosing")
        else:
            left = team.get("deck")
            shown = left if isinstance(left, int) and not isinstance(left, bool) else "—"
            out.append(f"{names}: deck {shown}")
    return out


def when(view: dict[str, Any]) -> str:
    """The turn, the set-up, or the end."""
    if view.get("phase") == "over":
        return "Game over"
    turn = view.get("turn")
    return f"Turn {turn}" if isinstance(turn, int) and turn > 0 else "Set-up"


class ToothAndNailRenderer(Renderer):
    """Board and hand for Tooth & Nail: Factions."""

    legend = LEGEND

    def scores(self, view: dict[str, Any]) -> list[str]:
        return scores(view)

    def when(self, view: dict[str, Any]) -> str:
        return when(view)

    # ------------------------------------------------------------------ the board

    def board_fields(self, view: dict[str, Any], to_act: tuple[int, ...]) -> list[Field]:
        fields: list[Field] = []
        if not _drafting(view):
            fields.append(self.decks_field(view))
        shared = _shared(view)
        teams = _teams(view)
        players = _players(view)
        if shared:
            for team in teams:
                fields.append(self.team_field(view, team, to_act))
                if _drafting(view):
                    continue  # the team drafts as one: its players show once the game starts
                seats = team.get("seats", [])
                fields += [
                    self.player_field(view, p, to_act) for p in players if p.get("seat") in seats
                ]
        else:
            fields += [self.player_field(view, p, to_act) for p in players]
        available = [f for f in view.get("available_factions") or [] if isinstance(f, dict)]
        if available:
            lines = [
                f"**{f.get('name', '?')}** — {f.get('identity') or f.get('formation_brief', '')}"
                for f in available
            ]
            fields += chunked_fields(f"Factions still to choose ({len(available)})", lines)
        return fields

    def decks_field(self, view: dict[str, Any]) -> Field:
        """Every deck as the life total that decides the game, and how it ends."""
        players = {p.get("seat"): p for p in _players(view)}
        parts = []
        for team in _teams(view):
            seats = team.get("seats", [])
            names = [str(players.get(s, {}).get("name", s)) for s in seats]
            if len(seats) > 1:
                parts.append(f"{_team_number(team)} ({' & '.join(names)}) {deck_count(team)}")
                continue
            out = any(players.get(s, {}).get("eliminated") for s in seats)
            who = f"~~{names[0]}~~ {OUT}" if out and names else " & ".join(names)
            parts.append(f"{who} {deck_count(team)}")
        goal = str(view.get("goal") or "a deck that runs out loses")
        return Field(clip(f"Decks left — {goal}", NAME_LIMIT), " · ".join(parts) or "—")

    def team_field(
        self, view: dict[str, Any], team: dict[str, Any], to_act: tuple[int, ...] = ()
    ) -> Field:
        """A team of The Enemy of My Enemy: its players, its Factions, its shared piles
        (during the draft, marked when it is the team's pick)."""
        seats = team.get("seats", [])
        named = team.get("names") or [
            p.get("name", "?") for p in _players(view) if p.get("seat") in seats
        ]
        names = " & ".join(str(n) for n in named) or "?"
        factions = ", ".join(str(f) for f in team.get("factions", [])) or "none yet"
        value = f"Factions: {factions}"
        title = f"{_team_number(team)} — {names}"
        if _drafting(view):
            if any(s in to_act for s in seats):
                title = f"{TO_ACT} {title} — to choose a Faction now"
        else:
            value += f"\n{piles(team, shared=True)}"
        return Field(clip(title, NAME_LIMIT), clip(value, FIELD_LIMIT))

    def player_field(
        self, view: dict[str, Any], player: dict[str, Any], to_act: tuple[int, ...]
    ) -> Field:
        """One player: who they are in the turn, their Faction, AP, hand and zones."""
        seat = player.get("seat")
        teams = {t.get("team"): t for t in _teams(view)}
        team = teams.get(player.get("team"), {})
        shared = len(team.get("seats", [])) > 1
        name = f"{TO_ACT} " if seat in to_act else ""
        name += str(player.get("name", seat))
        if shared:
            name += f" ({_team_number(team)})"
        if player.get("eliminated"):
            later = (
                " — their revenge comes on their next turn" if player.get("revenge_pending") else ""
            )
            name += f" — {OUT} out of the game{later}"
        elif seat == view.get("alpha") and view.get("phase") not in ("over", None):
            name += " — Alpha player: it's their turn"
        elif seat in to_act:
            name += " — to decide now"
        return Field(
            clip(name, NAME_LIMIT),
            clip("\n".join(self.player_lines(view, player, team)), FIELD_LIMIT),
        )

    def player_lines(
        self, view: dict[str, Any], player: dict[str, Any], team: dict[str, Any]
    ) -> list[str]:
        limits = view.get("limits") or {}
        shared = len(team.get("seats", [])) > 1
        factions = [str(f) for f in player.get("factions") or []]
        card = player.get("command_card") or "not chosen yet"
        lines = []
        if shared:
            lines.append(f"Faction Command card: {card}")
        elif len(factions) > 1:
            lines.append(f"Factions: {' + '.join(factions)} · Faction Command card: {card}")
        else:
            lines.append(f"Faction: {factions[0] if factions else 'not chosen yet'}")
        if _drafting(view):
            return lines
        counts = f"Hand **{player.get('hand_count', 0)}** cards"
        if player.get("seat") == view.get("alpha"):
            counts = f"AP **{player.get('ap', 0)}** left · {counts}"
        lines.append(counts)
        if not shared and team:
            lines.append(piles(team))
        lines.append(zone("Command Zone", player.get("command_zone", []), limits.get("command")))
        lines.append(zone("War Zone", player.get("war_zone", []), limits.get("war")))
        return lines

    # ------------------------------------------------------------------ the private view

    def card_line(self, card: dict[str, Any], copies: int = 1) -> str:
        """A card of the hand: "**Cinder Cub ✦** (Arcane 1) ×2 · Command Ability: ..."."""
        times = f" ×{copies}" if copies > 1 else ""
        kind = f"({card.get('type', '?')} {card.get('strength', '?')})"
        text = f" · {card['text']}" if card.get("text") else ""
        return f"**{card.get('name', '?')}** {kind}{times}{text}"

    def private_fields(self, view: dict[str, Any]) -> list[Field]:
        fields: list[Field] = []
        deciding = bool(view.get("question"))
        if _drafting(view) and deciding:
            fields += self.draft_fields(view)
        choices = [c for c in view.get("command_card_choices") or [] if isinstance(c, dict)]
        if choices:
            lines = [
                f"**{c.get('name', '?')}**\nFormation Attack {c.get('formation', '')}\n"
                f"Faction Ability {c.get('ability', '')}"
                for c in choices
            ]
            fields += chunked_fields("Faction Command cards to choose from", lines)
        me = _me(view)
        setting_up = _drafting(view) or view.get("phase") == "command_choice"
        if me is not None and not setting_up:
            fields.append(self.resources_field(view, me))
        if view.get("hand") or not setting_up:
            fields += self.hand_fields(view)
        if me is not None and not _drafting(view) and view.get("phase") != "command_choice":
            fields += self.command_zone_fields(me)
        if me is not None and me.get("command_card"):
            fields.append(self.command_card_field(me))
        return fields

    def draft_fields(self, view: dict[str, Any]) -> list[Field]:
        """The Factions still to choose, each in two short lines."""
        lines = [
            f"**{f.get('name', '?')}** — {f.get('identity', '')}\n"
            f"Formation Attack {f.get('formation_brief', '')} · "
            f"Faction Ability {f.get('ability_brief', '')}"
            for f in view.get("available_factions") or []
            if isinstance(f, dict)
        ]
        return chunked_fields("Factions to choose from", lines)

    def resources_field(self, view: dict[str, Any], me: dict[str, Any]) -> Field:
        """What you have to play with: AP, hand, deck, room in your zones."""
        limits = view.get("limits") or {}
        team = next((t for t in _teams(view) if t.get("team") == me.get("team")), {})
        shared = len(team.get("seats", [])) > 1
        deck = f"{'shared deck' if shared else 'deck'} {deck_count(team)}"
        parts = [
            f"AP **{me.get('ap', 0)}** left (5 at most)",
            f"hand **{me.get('hand_count', 0)}**",
            deck,
            f"Command Zone {len(me.get('command_zone', []))}/{limits.get('command', '?')}",
            f"War Zone {len(me.get('war_zone', []))}/{limits.get('war', '?')}",
        ]
        return Field(f"You — {me.get('name', '?')}", " · ".join(parts))

    def hand_fields(self, view: dict[str, Any]) -> list[Field]:
        """Your hand, identical cards once with a count, each with its Command Ability."""
        hand = view.get("hand")
        if not isinstance(hand, list):
            return []
        alike: dict[str, tuple[dict[str, Any], int]] = {}
        for card in hand:
            if not isinstance(card, dict):
                continue
            key = str(card.get("id", card.get("name")))
            first, count = alike.get(key, (card, 0))
            alike[key] = (first, count + 1)
        lines = [self.card_line(card, count) for card, count in alike.values()]
        title = f"Your hand ({len(hand)})"
        if lines:
            title += " — a Command Ability works once its Troop is in your Command Zone"
        return chunked_fields(title, lines, empty="(empty)")

    def command_zone_fields(self, me: dict[str, Any]) -> list[Field]:
        """The Command Abilities you can use now: those of your Command Zone Troops."""
        title = "Your Command Zone — Command Abilities, 0 AP each"
        troops = [t for t in me.get("command_zone") or [] if isinstance(t, dict)]
        lines = [
            f"{troop(t)}{' — drained until your next Recharge Step' if t.get('drained') else ''}"
            f" · {_ability(t.get('text'))}"
            for t in troops
        ]
        if not lines:
            return [Field(title, "Empty: play a Troop here (1 AP) to use its Command Ability.")]
        lines.append("*A Troop whose ability you use leaves the game unless you discard a copy.*")
        return chunked_fields(title, lines)

    def command_card_field(self, me: dict[str, Any]) -> Field:
        """Your Faction Command card: its Formation Attack and its Faction Ability."""
        formation = me.get("command_card_formation")
        ability = me.get("command_card_ability")
        if formation or ability:
            value = f"**Formation Attack** {formation or '—'}\n**Faction Ability** {ability or '—'}"
        else:
            value = str(me.get("command_card_text") or "—")
        title = f"Your Faction Command card: {me.get('command_card')}"
        return Field(clip(title, NAME_LIMIT), clip(value, FIELD_LIMIT))
