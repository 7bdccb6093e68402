"""What `/stats` and `/leaderboard` show: a server's results as embeds."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.service.store import Record
from rules.core import Game
from rules.core.text import clip


def _counts(record: Record) -> str:
    wins = f"{record.wins} win" + ("" if record.wins == 1 else "s")
    losses = f"{record.losses} loss" + ("" if record.losses == 1 else "es")
    games = f"{record.games} match" + ("" if record.games == 1 else "es")
    return f"{games} · {wins} · {losses} · {record.win_rate:.0%} won"


def player_embed(name: str, records: list[Record], games: Mapping[str, Game]) -> discord.Embed:
    """A player's results per game."""
    embed = discord.Embed(title=f"{name} — results on this server", colour=discord.Colour.gold())
    if not records:
        embed.description = "No finished match yet."
    for record in records[:25]:
        game = games.get(record.game)
        embed.add_field(
            name=game.name if game else record.game, value=_counts(record), inline=False
        )
    return embed


def leaderboard_embed(game: Game, records: list[Record]) -> discord.Embed:
    """The best players of a game: most wins, then best win rate."""
    lines = [f"**{n}.** <@{r.user_id}> — {_counts(r)}" for n, r in enumerate(records, start=1)]
    return discord.Embed(
        title=f"{game.name} — leaderboard",
        description=clip("\n".join(lines), 4000) or "No finished match of this game yet.",
        colour=discord.Colour.gold(),
    )
