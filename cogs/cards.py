"""`/card name:`: any card's full text, looked up by name (the way card-game
communities look cards up), from the channel's match's pack."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import Host, host
from bot.render.generic import clip
from bot.replies import guard
from bot.service import errors
from bot.service.tables import words_fit

EMBED_TEXT = 4096  # Discord: an embed's description


class CardsCog(commands.Cog):
    """Card lookup: names offered as they are typed, the text shown privately."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(name="card", description="A card's full text, by name.")
    @app_commands.describe(name="Start typing a card's name")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            found = await self.bot.matches.card_texts(interaction.channel_id)
            game_id, _, wanted = name.rpartition(":")
            matching = [
                (game, card, text)
                for game, texts in found
                for card, text in texts.items()
                if (not game_id or game.id == game_id)
                and (card == wanted or words_fit(wanted.casefold(), card))
            ]
            exact = [m for m in matching if m[1] == wanted]
            if not any(texts for _, texts in found):
                (game, _), *_ = found
                raise errors.UserError(
                    f"{game.name} has no cards: Arbiter referees it, and there is no card "
                    "text to look up."
                )
            if not (exact or matching):
                raise errors.UserError(
                    f"No card here is called {clip(wanted, 80)!r}: start typing, and pick a "
                    "name from the list."
                )
            game, card, text = (exact or matching)[0]
            embed = discord.Embed(
                title=clip(card, 256),
                description=clip(text, EMBED_TEXT),
                colour=discord.Colour.blurple(),
            )
            embed.set_footer(text=game.name)
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @card.autocomplete("name")
    async def _names(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        found = await self.bot.matches.card_texts(interaction.channel_id)
        if not any(texts for _, texts in found):
            game = found[0][0].name if found else "This game"
            return [app_commands.Choice(name=f"{game} has no cards to look up", value="none")]
        several = len(found) > 1
        wanted = typed.strip().casefold()
        choices = []
        for game, texts in found:
            for card in sorted(texts):
                if wanted and not words_fit(wanted, card):
                    continue
                shown = f"{card} ({game.name})" if several else card
                value = f"{game.id}:{card}"
                if len(value) <= 100:
                    choices.append(app_commands.Choice(name=clip(shown, 100), value=value))
        return choices[:25]


async def setup(bot: commands.Bot) -> None:
    """Add these commands to `bot` (`bot.app` loads this module by name)."""
    await bot.add_cog(CardsCog(host(bot)))
