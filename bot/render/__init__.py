"""Embeds and lines of text built from the match service's results.

Nothing here talks to Discord or the store; `bot.ui` sends what these build.
Each game may register a `Renderer` for its board; others get the generic one.
"""

from __future__ import annotations

import discord

from bot.matches import ActResult, PrivateView, Table
from bot.render.command_of_nature import CommandOfNatureRenderer
from bot.render.generic import Field, Renderer, chunked_fields, clip
from bot.render.tooth_and_nail import ToothAndNailRenderer
from bot.store import MatchRow
from bot.timing import clock_text, terms_text

RENDERERS: dict[str, Renderer] = {
    "tooth-and-nail": ToothAndNailRenderer(),
    "command-of-nature": CommandOfNatureRenderer(),
}
_GENERIC = Renderer()

EMBED_BUDGET = 5800  # Discord refuses embeds over 6000 characters in total
MESSAGE_LIMIT = 2000

COLOURS = {
    "lobby": discord.Colour.blurple(),
    "active": discord.Colour.green(),
    "finished": discord.Colour.gold(),
    "cancelled": discord.Colour.dark_grey(),
    "abandoned": discord.Colour.dark_grey(),
}

__all__ = [
    "Field",
    "Renderer",
    "action_text",
    "board_embed",
    "lobby_embed",
    "private_embed",
    "renderer_for",
    "seed_notice",
    "turn_text",
]


def seed_notice(match: MatchRow) -> str | None:
    """The public warning a chosen seed needs (every shuffle can be worked out from it);
    None for a drawn seed, which is never shown while the match is open."""
    if not match.seed_chosen:
        return None
    return f"🎲 Seed {match.seed} — shuffles are predictable (for testing or replays)."


def renderer_for(game_id: str) -> Renderer:
    """The board renderer of a game (the generic one by default)."""
    return RENDERERS.get(game_id, _GENERIC)


def _fill(embed: discord.Embed, fields: list[Field]) -> discord.Embed:
    """Add fields while the embed stays within Discord's size and count limits."""
    used = len(embed.title or "") + len(embed.description or "") + len(embed.footer.text or "")
    for field in fields[:25]:
        room = EMBED_BUDGET - used - len(field.name)
        if room < 20:
            break
        value = clip(field.value, min(room, 1024)) or "—"
        embed.add_field(name=field.name, value=value, inline=field.inline)
        used += len(field.name) + len(value)
    return embed


def _names(table: Table, seats: tuple[int, ...] | list[int]) -> str:
    return " and ".join(f"**{table.user_of(s).name}**" for s in seats)


def _players_needed(table: Table) -> str:
    info = table.variant
    if info.min_players == info.max_players:
        return f"{info.min_players} players"
    return f"{info.min_players}–{info.max_players} players"


def lobby_embed(table: Table) -> discord.Embed:
    """The lobby message: the game, the variant and who has joined."""
    info = table.variant
    status = table.match.status
    if status == "lobby":
        text = (
            f"{info.blurb}\n\nPress **Join** to take a seat ({_players_needed(table)}). "
            "The host (first seat) presses **Start**."
        ).strip()
    elif status == "cancelled":
        text = "This lobby was closed."
    else:
        text = "This match has started: follow it on the board below."
    notice = seed_notice(table.match)
    if notice:
        text = f"{text}\n\n{notice}"
    embed = discord.Embed(
        title=f"{table.game.name} — {info.name}", description=text, colour=COLOURS[status]
    )
    lines = [f"{s.seat + 1}. {s.name}" + (" (host)" if s.seat == 0 else "") for s in table.seats]
    embed.add_field(
        name=f"Players ({len(table.seats)}/{info.max_players})", value="\n".join(lines) or "—"
    )
    embed.add_field(
        name="Clock",
        value=terms_text(table.match.clock_seconds, table.match.timeout_policy),
        inline=False,
    )
    embed.set_footer(text=f"Match #{table.match.id}")
    return embed


def board_embed(table: Table, clocks: list[str] | None = None) -> discord.Embed:
    """The public board: whose decision it is (and by when: `clocks`, lines of the match
    clock's status), or who won, and the game's own fields."""
    view = table.view or {}
    if table.outcome is not None:
        winners = _names(table, table.outcome.winners) or "nobody"
        reason = f" ({table.outcome.reason})" if table.outcome.reason else ""
        description = f"🏆 {winners} won{reason}."
    elif table.match.status == "cancelled":
        description = "This match was stopped by a moderator."
    elif table.match.status == "abandoned":
        description = "This match was abandoned (a player ran out of time): nobody won."
    else:
        prompt = view.get("prompt")
        description = str(prompt) if prompt else f"Waiting for {_names(table, table.to_act)}."
    embed = discord.Embed(
        title=f"{table.game.name} — {table.variant.name}",
        description=clip(description, 4000),
        colour=COLOURS[table.match.status],
    )
    footer = f"Match #{table.match.id}"
    if isinstance(view.get("turn"), int):
        footer += f" · turn {view['turn']}"
    renderer = renderer_for(table.match.game)
    if renderer.legend:
        footer += f" · {renderer.legend}"
    if table.match.status == "active":
        footer += f"\n{clock_text(table.match.clock_seconds)}"
    notice = seed_notice(table.match)
    if notice:
        footer += f"\n{notice}"
    embed.set_footer(text=footer)
    fields = renderer.board_fields(view, table.to_act)
    if clocks and table.match.status == "active":
        fields.append(Field("Clock", clip("\n".join(clocks), 1024)))
    return _fill(embed, fields)


def private_embed(pv: PrivateView) -> discord.Embed:
    """One player's own view: their decision, their hand and what they saw lately."""
    table = pv.table
    decision = pv.view.get("decision")
    if table.outcome is not None:
        description = board_embed(table).description or ""
    elif decision:
        description = f"**{decision}**"
    elif table.to_act:
        description = f"Nothing to decide right now: waiting for {_names(table, table.to_act)}."
    else:
        description = "Nothing to decide right now."
    embed = discord.Embed(
        title=f"Your view — {table.game.name}",
        description=clip(description, 4000),
        colour=COLOURS[table.match.status],
    )
    embed.set_footer(text=f"Match #{table.match.id} · only you can see this")
    fields = renderer_for(table.match.game).private_fields(pv.view)
    if pv.recent:
        fields.extend(chunked_fields("Lately", pv.recent[-8:]))
    return _fill(embed, fields)


def turn_text(table: Table) -> str:
    """Who decides next (as mentions), or who won."""
    if table.outcome is not None:
        winners = " and ".join(f"<@{table.user_of(s).user_id}>" for s in table.outcome.winners)
        return f"🏆 {winners or 'Nobody'} won! The channel is free for a new match."
    if not table.to_act:
        return ""
    who = " ".join(f"<@{table.user_of(s).user_id}>" for s in table.to_act)
    prompt = str((table.view or {}).get("prompt") or "your decision")
    return f"➡️ {who} — {prompt}"


def action_text(result: ActResult) -> str:
    """The public line after an action: what happened, then who decides next."""
    happened = [e.text for e in result.events if e.text]
    if not happened:
        happened = [f"**{result.table.user_of(result.seat).name}**: {result.label}"]
    table = result.table
    # A player carrying on with their own turn needs no arrow after every move: it only
    # appears when the decision passes to someone else (or the game ends).
    carries_on = table.outcome is None and table.to_act == (result.seat,)
    tail = "" if carries_on else turn_text(table)
    body = clip("\n".join(happened), MESSAGE_LIMIT - len(tail) - 2)
    return f"{body}\n{tail}" if tail else body
