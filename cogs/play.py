"""`/hand` and `/play`: see your own view, and take one of your legal actions."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import Host, host
from bot.replies import guard
from bot.ui.choices import choice_name
from bot.ui.interactions import answer, defer, in_time, reply_after_save
from bot.ui.table import PERSISTENT_ITEMS, done_text, give_hint, show_private

AUTOCOMPLETE_LIMIT = 25


class PlayCog(commands.Cog):
    """Private views and actions, for the match of the channel they are used in."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(name="hand", description="Your hand and your choices, just for you.")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def hand(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            match = await self.bot.matches.open_match(interaction.channel_id)
            await show_private(interaction, match.id)

    @app_commands.command(name="play", description="Take one of your legal actions.")
    @app_commands.describe(action="Start typing to pick from your legal actions")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def play(self, interaction: discord.Interaction, action: str) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            match = await self.bot.matches.open_match(interaction.channel_id)
            with self.bot.publisher.through(interaction, match.id) as carry:
                act = self.bot.matches.act(match.id, interaction.user.id, action, typed=True)
                result = await in_time(interaction, act, ephemeral=True)
                reply = answer(interaction, content=done_text(result), ephemeral=True)
                if await reply_after_save(interaction, reply):
                    carry(result.table)  # its followups post the public lines

    @app_commands.command(
        name="hint", description="What Arbiter would play in your place (unrated matches)."
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def hint(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            await defer(interaction, ephemeral=True)  # the AI thinks for a while
            match = await self.bot.matches.open_match(interaction.channel_id)
            await give_hint(interaction, match.id)

    @play.autocomplete("action")
    async def play_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal actions that the typed words fit, each with its detail."""
        if interaction.channel_id is None:
            return []
        choices = await self.bot.matches.choices(
            interaction.channel_id, interaction.user.id, typed=current
        )
        shown = choices[:AUTOCOMPLETE_LIMIT]
        return [app_commands.Choice(name=choice_name(c), value=c.key) for c in shown]


async def setup(bot: commands.Bot) -> None:
    """Add these commands to `bot`, and the components they post that outlive a restart."""
    await bot.add_cog(PlayCog(host(bot)))
    bot.add_dynamic_items(*PERSISTENT_ITEMS)
