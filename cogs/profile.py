"""`/profile`: what a player sets for themselves, for every match they play: their
standing answers (the game answers a decision for them when it comes) and how they see
their private views (pictures and text, pictures only, or text)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import Host, host
from bot.render.generic import clip
from bot.replies import guard
from bot.service.store import BOARD_MODES, VIEW_MODES
from bot.ui.choices import VIEW_CHOICES


class ProfileCog(
    commands.GroupCog, group_name="profile", group_description="What you set for yourself."
):
    """A player's own choices; nobody else sees them or what they are set to."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(name="show", description="Your standing answers, game by game.")
    async def show(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            found = await self.bot.matches.standing_answers_of(interaction.user.id)
            lines = [
                f"{'✅' if on else '⬜'} **{game.name}**: {info.label} (`{game.id}:{info.id}`)"
                for game, info, on in found
            ]
            text = "**Your standing answers** — the game answers for you when one applies:\n"
            text += "\n".join(lines) or "No game has any."
            text += "\nSet one with `/profile answer`."
            mode = await self.bot.matches.pictures_of(interaction.user.id)
            text += (
                f"\n\n🖼️ **Your private views**: {VIEW_MODES[mode][0]} "
                "(change it with `/profile pictures`)."
            )
            await interaction.response.send_message(clip(text, 2000), ephemeral=True)

    @app_commands.command(
        name="answer", description="Let the game answer a decision for you when it comes."
    )
    @app_commands.describe(preference="Which standing answer", on="On, or off")
    async def answer(self, interaction: discord.Interaction, preference: str, on: bool) -> None:
        async with guard(interaction):
            game, info = await self.bot.matches.set_standing_answer(
                interaction.user.id, preference, on
            )
            if on:
                text = (
                    f"✅ **{game.name}**: {info.label} — on, in every match you play.\n"
                    f"What the table can tell from it: {info.reveals}"
                )
            else:
                text = f"⬜ **{game.name}**: {info.label} — off: you answer yourself."
            await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="pictures", description="How you see your own hand and view.")
    @app_commands.describe(mode="A picture and the text, the picture only, or text only")
    @app_commands.choices(mode=VIEW_CHOICES)
    async def pictures(self, interaction: discord.Interaction, mode: str) -> None:
        async with guard(interaction):
            await self.bot.matches.set_pictures(interaction.user.id, mode)
            name, shows = VIEW_MODES[mode]
            board = BOARD_MODES[mode][1]
            text = (
                f"🖼️ Your private views: **{name}** — {shows}, in every match you play.\n"
                f"A game you play in a direct message with the bot shows its board so: {board}."
            )
            await interaction.response.send_message(text, ephemeral=True)

    @answer.autocomplete("preference")
    async def _preferences(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        found = await self.bot.matches.standing_answers_of(interaction.user.id)
        words = typed.casefold().split()
        choices = []
        for game, info, on in found:
            name = f"{game.name}: {info.label} ({'on' if on else 'off'})"
            if all(w in name.casefold() for w in words):
                choices.append(
                    app_commands.Choice(name=clip(name, 100), value=f"{game.id}:{info.id}")
                )
        return choices[:25]


async def setup(bot: commands.Bot) -> None:
    """Add these commands to `bot` (`bot.app` loads this module by name)."""
    await bot.add_cog(ProfileCog(host(bot)))
