"""`/stats` and `/leaderboard`: results of finished matches on this server."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import ui
from bot.render.stats import leaderboard_embed, player_embed
from bot.replies import guard
from bot.service.stats import Stats

if TYPE_CHECKING:
    from bot.app import ArbiterBot


class StatsCog(commands.Cog):
    """Read-only views of the results the bot recorded."""

    def __init__(self, bot: ArbiterBot) -> None:
        self.bot = bot
        self.results = Stats(bot.matches)
        ui.offer_choices(self.leaderboard, game=ui.game_choices(bot.matches.games))

    @app_commands.command(name="stats", description="Matches, wins and losses per game.")
    @app_commands.describe(player="Whose results (default: yours)")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, player: discord.User | None = None
    ) -> None:
        async with guard(interaction):
            assert interaction.guild_id is not None
            who = player or interaction.user
            records = await self.results.player(interaction.guild_id, who.id)
            versus = await self.results.versus(interaction.guild_id, who.id)
            with_ai = await self.results.against_ai(interaction.guild_id, who.id)
            games = self.bot.matches.games
            embed = player_embed(who.display_name, records, games, versus, with_ai)
            await interaction.response.send_message(embed=embed)

    @app_commands.command(name="leaderboard", description="The best players of a game here.")
    @app_commands.describe(game="The game")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        async with guard(interaction):
            assert interaction.guild_id is not None
            records = await self.results.leaderboard(interaction.guild_id, game)
            hunters = await self.results.hunters(interaction.guild_id, game)
            embed = leaderboard_embed(self.bot.matches.game(game), records, hunters)
            await interaction.response.send_message(embed=embed)
