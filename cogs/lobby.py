"""`/match`: open a lobby, join, leave, start, cancel, see the status, concede."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import ui
from bot.matches import MAX_SEED
from bot.render import board_embed, lobby_embed
from bot.replies import guard

if TYPE_CHECKING:
    from bot.app import ArbiterBot

log = logging.getLogger(__name__)


@app_commands.guild_only()
class MatchCog(commands.GroupCog, group_name="match", group_description="Play a match here."):
    """The lobby and the match's life cycle, one open match per channel or thread."""

    def __init__(self, bot: ArbiterBot) -> None:
        self.bot = bot
        games = bot.matches.games
        ui.offer_choices(
            self.new,
            game=ui.game_choices(games),
            variant=ui.variant_choices(games),
        )

    @app_commands.command(name="new", description="Open a lobby for a match in this channel.")
    @app_commands.describe(
        game="The game to play",
        variant="Which way to play it (default: the game's standard variant)",
        seed="Deal from this seed: shown to all, it makes shuffles predictable (default: random)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        variant: str | None = None,
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
    ) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            table = await self.bot.matches.new_lobby(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                user_id=interaction.user.id,
                name=interaction.user.display_name,
                game=game,
                variant=variant,
                seed=seed,
            )
            try:
                sent = await interaction.response.send_message(
                    embed=lobby_embed(table), view=ui.lobby_view(table)
                )
            except discord.HTTPException:
                log.warning(
                    "match %s: could not answer with its lobby; posting it",
                    table.match.id,
                    exc_info=True,
                )
                await self.bot.publisher.refresh(table.match.id)  # posts it in the channel
                return
            if sent.message_id is not None:
                await self.bot.matches.set_board_message(table.match.id, sent.message_id)

    async def _lobby(self, interaction: discord.Interaction, op: str) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            match = await self.bot.matches.open_match(interaction.channel_id)
            await ui.lobby_step(interaction, op, match.id, on_lobby_message=False)

    @app_commands.command(name="join", description="Take a seat in this channel's lobby.")
    async def join(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, "join")

    @app_commands.command(name="leave", description="Give up your seat in this channel's lobby.")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, "leave")

    @app_commands.command(name="start", description="Start the match (the host only).")
    async def start(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, "start")

    @app_commands.command(
        name="cancel", description="Close this channel's lobby (the host; moderators: any match)."
    )
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, "cancel")

    @app_commands.command(name="status", description="Show this channel's match.")
    async def status(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            match = await self.bot.matches.open_match(interaction.channel_id)
            table = await self.bot.matches.table(match.id)
            embed = lobby_embed(table) if match.status == "lobby" else board_embed(table)
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="concede", description="Give up this channel's match.")
    async def concede(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            await ui.defer(interaction, ephemeral=True)
            match = await self.bot.matches.open_match(interaction.channel_id)
            result = await self.bot.matches.concede(match.id, interaction.user.id)
            try:
                reply = interaction.followup.send("You conceded.", ephemeral=True)
                await ui.reply_after_save(interaction, reply)
            finally:
                await self.bot.publisher.announce(result)
