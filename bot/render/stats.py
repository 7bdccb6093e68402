"""What `/stats` and `/leaderboard` show: a server's results as embeds, with the
solitaire victory tracker (wins and losses per nemesis; who has beaten the most, and the
hardest)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.service.store import Hunter, Record, Versus
from rules.core import Game
from rules.core.text import clip


def _counts(record: Record) -> str:
    wins = f"{record.wins} win" + ("" if record.wins == 1 else "s")
    losses = f"{record.losses} loss" + ("" if record.losses == 1 else "es")
    games = f"{record.games} match" + ("" if record.games == 1 else "es")
    return f"{games} · {wins} · {losses} · {record.win_rate:.0%} won"


def player_embed(
    name: str,
    records: list[Record],
    games: Mapping[str, Game],
    versus: Sequence[Versus] = (),
    against_ai: Sequence[Record] = (),
) -> discord.Embed:
    """A player's results per game, then their solitaire record against each opponent
    (a game's nemeses), marked ✅ beaten at least once, then their matches with the AI
    (not rated)."""
    embed = discord.Embed(title=f"{name} — results on this server", colour=discord.Colour.gold())
    if not records and not versus and not against_ai:
        embed.description = "No finished match yet."
    for record in records[:20]:
        game = games.get(record.game)
        embed.add_field(
            name=game.name if game else record.game, value=_counts(record), inline=False
        )
    by_game: dict[str, list[Versus]] = {}
    for row in versus:
        by_game.setdefault(row.game, []).append(row)
    for game_id, rows in list(by_game.items())[:4]:
        game = games.get(game_id)
        beaten = sum(1 for r in rows if r.wins)
        title = (
            f"{game.name if game else game_id} — solitaire: {beaten} beaten of {len(rows)} faced"
        )
        lines = [
            f"{'✅' if r.wins else '❌'} **{r.opponent}** (level {r.level} of 4): "
            f"{r.wins} won · {r.losses} lost"
            for r in rows
        ]
        embed.add_field(name=clip(title, 256), value=clip("\n".join(lines), 1024), inline=False)
    if against_ai:
        lines = [
            f"**{games[r.game].name if r.game in games else r.game}**: {_counts(r)}"
            for r in against_ai
        ]
        embed.add_field(
            name="🤖 With Arbiter, the AI (not rated)",
            value=clip("\n".join(lines), 1024),
            inline=False,
        )
    if versus or against_ai:
        embed.set_footer(
            text="Solitaire games and games with the AI count wherever they were played, "
            "DMs included."
        )
    return embed


def leaderboard_embed(
    game: Game,
    records: list[Record],
    hunters: Sequence[Hunter] = (),
) -> discord.Embed:
    """The best players of a game: most wins, then best win rate; for a game with a
    solitaire variant, its own board too: who has beaten the most opponents, and the
    hardest."""
    lines = [f"**{n}.** <@{r.user_id}> — {_counts(r)}" for n, r in enumerate(records, start=1)]
    embed = discord.Embed(
        title=f"{game.name} — leaderboard",
        description=clip("\n".join(lines), 4000) or "No finished match of this game yet.",
        colour=discord.Colour.gold(),
    )
    if hunters:
        rows = [
            f"**{n}.** <@{h.user_id}> — {h.beaten} beaten"
            + (f", the hardest level {h.hardest} of 4" if h.hardest else "")
            + f" · {h.wins} won of {h.games}"
            for n, h in enumerate(hunters, start=1)
        ]
        embed.add_field(
            name="Solitaire: the most opponents beaten, and the hardest",
            value=clip("\n".join(rows), 1024),
            inline=False,
        )
    return embed
