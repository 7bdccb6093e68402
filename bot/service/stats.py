"""Results of finished matches, per seat and player, and what `/stats` and
`/leaderboard` show.

A match's result is recorded once, when it finishes (a change listener on the
match service), and at start-up for any finished match not recorded yet (one that
finished while the process stopped). Cancelled and abandoned matches count for
nobody: only a finished match with winners is recorded.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

import discord

from bot.render.generic import clip
from bot.service.matches import MatchService
from bot.service.store import Record
from rules.core import Game

log = logging.getLogger(__name__)

LEADERBOARD_SIZE = 10


class Stats:
    """Records results and reads them back, per server."""

    def __init__(self, matches: MatchService) -> None:
        self.matches = matches

    async def record(self, match_id: int) -> None:
        """Record a finished match's result for each seat (once; anything else is ignored)."""
        match = await self.matches.get(match_id)
        if match.status != "finished":
            return
        table = await self.matches.table(match_id)
        outcome = table.outcome
        if outcome is None or not outcome.winners:
            return
        results = {
            s.seat: "win"
            if s.seat in outcome.winners
            else "loss"
            if s.seat in outcome.losers
            else "draw"
            for s in table.seats
        }
        if await self.matches.store.record_results(match_id, results):
            log.info("match %s: results recorded", match_id)

    async def catch_up(self) -> None:
        """Record every finished match whose result is missing."""
        for match_id in await self.matches.store.unrecorded_matches():
            await self.record(match_id)

    async def player(self, guild_id: int, user_id: int) -> list[Record]:
        """A player's records in a server, one per game."""
        return await self.matches.store.player_records(guild_id, user_id)

    async def leaderboard(self, guild_id: int, game: str) -> list[Record]:
        """A server's best players of a game."""
        self.matches.game(game)  # an unknown game is refused by name
        return await self.matches.store.leaderboard(guild_id, game, limit=LEADERBOARD_SIZE)


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
