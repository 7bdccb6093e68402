"""`/settings`: this server's moderator role, match channels, clock, timeouts, reminders,
board pictures."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import Host, host
from bot.permissions import require_moderator
from bot.replies import guard
from bot.service.moderation import ServerSettings, settings_lines
from bot.service.store import GuildSettings
from bot.ui.choices import BOARD_CHOICES


@app_commands.guild_only()
class SettingsCog(
    commands.GroupCog,
    group_name="settings",
    group_description="This server's Arbiter settings (moderators).",
):
    """Each command checks the caller is a moderator, stores one change, and shows the
    server's settings as they now are."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.settings = ServerSettings(bot.matches.settings)

    async def _guild(self, interaction: discord.Interaction) -> int:
        await require_moderator(interaction, self.settings.store)
        assert interaction.guild_id is not None
        return interaction.guild_id

    @staticmethod
    async def _show(interaction: discord.Interaction, settings: GuildSettings, head: str) -> None:
        embed = discord.Embed(title=head, description="\n".join(settings_lines(settings)))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="mod-role", description="The role whose members are moderators.")
    @app_commands.describe(role="The moderator role (leave empty: Manage Server only)")
    async def mod_role(
        self, interaction: discord.Interaction, role: discord.Role | None = None
    ) -> None:
        async with guard(interaction):
            guild = await self._guild(interaction)
            changed = await self.settings.set_mod_role(guild, role.id if role else None)
            await self._show(interaction, changed, "Moderator role saved")

    @app_commands.command(name="channels", description="Where matches may be opened.")
    @app_commands.describe(
        action="Add or remove a channel, or clear the list (matches anywhere)",
        channel="The channel (its threads count too)",
    )
    async def channels(
        self,
        interaction: discord.Interaction,
        action: Literal["add", "remove", "clear"],
        channel: discord.TextChannel | discord.ForumChannel | None = None,
    ) -> None:
        async with guard(interaction):
            guild = await self._guild(interaction)
            changed = await self.settings.change_channels(
                guild, action, channel.id if channel else None
            )
            await self._show(interaction, changed, "Match channels saved")

    @app_commands.command(name="clock", description="The default time for each decision.")
    @app_commands.describe(duration="Such as 30m, 24h or 3d (5 minutes to 14 days)")
    async def clock(self, interaction: discord.Interaction, duration: str) -> None:
        async with guard(interaction):
            guild = await self._guild(interaction)
            changed = await self.settings.set_clock(guild, duration)
            await self._show(interaction, changed, "Default clock saved")

    @app_commands.command(name="timeout", description="What a deadline does by default.")
    @app_commands.describe(
        policy="skip: decided for them; abandon: the match ends; ai: the AI plays till they're back"
    )
    async def timeout(
        self, interaction: discord.Interaction, policy: Literal["skip", "abandon", "ai"]
    ) -> None:
        async with guard(interaction):
            guild = await self._guild(interaction)
            changed = await self.settings.set_timeout_policy(guild, policy)
            await self._show(interaction, changed, "Timeout policy saved")

    @app_commands.command(name="reminders", description="When the decider is reminded.")
    @app_commands.describe(cadence="At half time and near the end, only near the end, or never")
    async def reminders(
        self,
        interaction: discord.Interaction,
        cadence: Literal["half-and-end", "end-only", "off"],
    ) -> None:
        async with guard(interaction):
            guild = await self._guild(interaction)
            changed = await self.settings.set_reminders(guild, cadence)
            await self._show(interaction, changed, "Reminders saved")

    @app_commands.command(name="pictures", description="How the boards are shown.")
    @app_commands.describe(mode="The picture and a summary (default), the picture only, or text")
    @app_commands.choices(mode=BOARD_CHOICES)
    async def pictures(self, interaction: discord.Interaction, mode: str) -> None:
        async with guard(interaction):
            guild = await self._guild(interaction)
            changed = await self.settings.set_pictures(guild, mode)
            await self._show(interaction, changed, "Boards saved")

    @app_commands.command(name="ratings", description="Which endings of a match move ratings.")
    @app_commands.describe(
        ending="How a match ended, by its last move (one played to its end is always rated)",
        rated="Whether such matches are rated from now on",
    )
    async def ratings(
        self,
        interaction: discord.Interaction,
        ending: Literal["concessions", "timeouts", "abandons", "moderators"],
        rated: bool,
    ) -> None:
        async with guard(interaction):
            guild = await self._guild(interaction)
            changed = await self.settings.set_rated(guild, ending, rated)
            await self._show(interaction, changed, "Ratings saved")

    @app_commands.command(name="show", description="This server's Arbiter settings.")
    async def show(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            guild = await self._guild(interaction)
            await self._show(interaction, await self.settings.get(guild), "Server settings")


async def setup(bot: commands.Bot) -> None:
    """Add these commands to `bot` (`bot.app` loads this module by name)."""
    await bot.add_cog(SettingsCog(host(bot)))
