"""`/notify on|off`: turns and reminders by direct message, for the players who want them."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import Host, host
from bot.replies import guard


@app_commands.guild_only()
class NotifyCog(
    commands.GroupCog, group_name="notify", group_description="Your turns by direct message."
):
    """A player's choice, for every match they play."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    async def _set(self, interaction: discord.Interaction, enabled: bool) -> None:
        async with guard(interaction):
            text = await self.bot.clock.set_notify(interaction.user.id, enabled)
            await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(
        name="on", description="DM me my view and menu when a decision becomes mine, and reminders."
    )
    async def on(self, interaction: discord.Interaction) -> None:
        await self._set(interaction, True)

    @app_commands.command(name="off", description="No more DMs: turns and reminders stay here.")
    async def off(self, interaction: discord.Interaction) -> None:
        await self._set(interaction, False)


async def setup(bot: commands.Bot) -> None:
    """Add these commands to `bot` (`bot.app` loads this module by name)."""
    await bot.add_cog(NotifyCog(host(bot)))
