"""`/stats` and `/leaderboard`: results of finished matches on this server."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import Host, host
from bot.names import shown_name
from bot.render.stats import history_embed, leaderboard_embed, player_embed
from bot.replies import guard
from bot.ui.choices import game_choices, offer_choices


class StatsCog(commands.Cog):
    """Read-only views of the results the bot recorded."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.results = bot.stats
        games = game_choices(bot.matches.games)
        offer_choices(self.leaderboard, game=games)
        offer_choices(self.stats, game=games)

    @app_commands.command(name="stats", description="Ratings, matches, wins and losses per game.")
    @app_commands.describe(
        player="Whose results (default: yours)",
        game="A game's rating and what each recent match did to it",
        season="A past season (default: this one)",
    )
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: str | None = None,
        season: app_commands.Range[int, 1] | None = None,
    ) -> None:
        async with guard(interaction):
            guild = interaction.guild_id
            assert guild is not None
            who = player or interaction.user
            asked = await self.results.season(guild, season)
            if game is not None:
                history = await self.results.history(guild, who.id, game, asked)
                rating = next(
                    (
                        r
                        for r in await self.results.player_ratings(guild, who.id, asked)
                        if r.game == game
                    ),
                    None,
                )
                embed = history_embed(
                    shown_name(who.display_name),
                    self.bot.matches.game(game),
                    rating,
                    history,
                    asked,
                )
                await interaction.response.send_message(embed=embed)
                return
            ratings = [
                (r, await self.results.history(guild, who.id, r.game, asked))
                for r in await self.results.player_ratings(guild, who.id, asked)
            ]
            records = await self.results.player(guild, who.id)
            versus = await self.results.versus(guild, who.id)
            with_ai = await self.results.against_ai(guild, who.id)
            games = self.bot.matches.games
            embed = player_embed(
                shown_name(who.display_name), records, games, versus, with_ai, ratings, season=asked
            )
            await interaction.response.send_message(embed=embed)

    @app_commands.command(name="leaderboard", description="The best rated players of a game here.")
    @app_commands.describe(game="The game", season="A past season (default: this one)")
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str,
        season: app_commands.Range[int, 1] | None = None,
    ) -> None:
        async with guard(interaction):
            guild = interaction.guild_id
            assert guild is not None
            current = await self.results.season(guild)
            asked = await self.results.season(guild, season)
            ratings = await self.results.ratings(guild, game, asked)
            hunters = await self.results.hunters(guild, game)
            names = await self.results.names(
                guild, [r.user_id for r in ratings] + [h.user_id for h in hunters]
            )
            embed = leaderboard_embed(
                self.bot.matches.game(game),
                ratings,
                hunters,
                names=names,
                season=asked,
                current=current,
            )
            await interaction.response.send_message(embed=embed)


async def setup(bot: commands.Bot) -> None:
    """Add these commands to `bot` (`bot.app` loads this module by name)."""
    await bot.add_cog(StatsCog(host(bot)))
