"""`/mod`: moderator powers over the channel's match, and the server's open matches."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import Host, host
from bot.names import shown_name
from bot.permissions import require_moderator
from bot.render.generic import clip
from bot.replies import guard
from bot.service.moderation import Moderation, match_line
from bot.service.store import MatchRow
from bot.service.timing import parse_duration
from bot.ui.interactions import defer, reply_after_save


@app_commands.guild_only()
class ModerationCog(
    commands.GroupCog, group_name="mod", group_description="Moderator powers over matches."
):
    """Abort, kick, replace, undo, pause, resume, extend, and the list of open matches.
    Every command refuses anyone who is not a moderator."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.moderation = Moderation(bot.matches)

    async def _server(self, interaction: discord.Interaction) -> int:
        """Defer, check the caller is a moderator; the server's id."""
        await defer(interaction, ephemeral=True)
        await require_moderator(interaction, self.bot.matches.settings)
        assert interaction.guild_id is not None
        return interaction.guild_id

    async def _begin(self, interaction: discord.Interaction) -> MatchRow:
        """Defer, check the caller is a moderator, and find the channel's match."""
        await self._server(interaction)
        assert interaction.channel_id is not None
        return await self.bot.matches.open_match(interaction.channel_id)

    async def _finish(self, interaction: discord.Interaction, reply: str) -> None:
        """Confirm privately (the public line was saved with the change, for the publisher)."""
        await reply_after_save(interaction, interaction.followup.send(reply, ephemeral=True))

    @app_commands.command(name="abort", description="End this channel's match: nobody wins.")
    async def abort(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            match = await self._begin(interaction)
            user = interaction.user
            await self.moderation.abort(match.id, user.id, shown_name(user.display_name))
            await self._finish(interaction, "The match is aborted.")

    @app_commands.command(name="kick", description="Remove a player: their seat forfeits.")
    @app_commands.describe(player="The player to remove")
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        async with guard(interaction):
            match = await self._begin(interaction)
            user = interaction.user
            await self.moderation.kick(match.id, user.id, shown_name(user.display_name), player.id)
            await self._finish(interaction, f"{shown_name(player.display_name)} was removed.")

    @app_commands.command(
        name="replace", description="Give a player's seat, with their hand, to another member."
    )
    @app_commands.describe(old="The player leaving the seat", new="The member taking it over")
    async def replace(
        self, interaction: discord.Interaction, old: discord.User, new: discord.Member
    ) -> None:
        async with guard(interaction):
            match = await self._begin(interaction)
            user = interaction.user
            await self.moderation.replace(
                match.id,
                user.id,
                shown_name(user.display_name),
                old.id,
                new.id,
                shown_name(new.display_name),
            )
            await self._finish(interaction, f"{shown_name(new.display_name)} now holds the seat.")

    @app_commands.command(
        name="ai", description="Have the AI play an absent player's seat, or give it back."
    )
    @app_commands.describe(
        player="The player whose seat it is",
        level="How well the AI plays for them; off gives the seat back",
    )
    async def ai(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        level: Literal["strong", "easy", "off"] = "strong",
    ) -> None:
        async with guard(interaction):
            match = await self._begin(interaction)
            user = interaction.user
            done = await self.moderation.stand_in(
                match.id, user.id, shown_name(user.display_name), player.id, level
            )
            await self._finish(interaction, done.line)

    @app_commands.command(
        name="practice", description="Mark this match as practice: not rated, hints allowed."
    )
    @app_commands.describe(on="True: a practice match (players may ask /hint); False: rated again")
    async def practice(self, interaction: discord.Interaction, on: bool = True) -> None:
        async with guard(interaction):
            match = await self._begin(interaction)
            user = interaction.user
            await self.moderation.practice(match.id, user.id, shown_name(user.display_name), on=on)
            await self._finish(
                interaction,
                "This match is practice now: it won't be rated, and players may ask `/hint`."
                if on
                else "This match is no longer practice.",
            )

    @app_commands.command(name="undo", description="Take back the last game action.")
    @app_commands.describe(force="Undo even an action that revealed hidden cards or drew at random")
    async def undo(self, interaction: discord.Interaction, force: bool = False) -> None:
        async with guard(interaction):
            match = await self._begin(interaction)
            user = interaction.user
            await self.moderation.undo(
                match.id, user.id, shown_name(user.display_name), force=force
            )
            await self._finish(interaction, "The last action is undone.")

    @app_commands.command(name="pause", description="Freeze every clock of this match.")
    async def pause(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            match = await self._begin(interaction)
            await self.bot.clock.pause(match.id, interaction.user.id, moderator=True, announce=True)
            await self._finish(interaction, "Done.")

    @app_commands.command(name="resume", description="Run this match's clocks again.")
    async def resume(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            match = await self._begin(interaction)
            await self.bot.clock.resume(
                match.id, interaction.user.id, moderator=True, announce=True
            )
            await self._finish(interaction, "Done.")

    @app_commands.command(name="extend", description="Give whoever decides now more time.")
    @app_commands.describe(by="Such as 30m, 24h or 3d (default: one more full clock)")
    async def extend(self, interaction: discord.Interaction, by: str | None = None) -> None:
        async with guard(interaction):
            match = await self._begin(interaction)
            seconds = parse_duration(by) if by else match.clock_seconds
            await self.bot.clock.extend(match.id, seconds, interaction.user.id)
            await self._finish(interaction, "Done.")

    @app_commands.command(
        name="new-season", description="Start a new season: ratings start afresh."
    )
    async def new_season(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            guild = await self._server(interaction)
            season = await self.bot.stats.new_season(guild, interaction.user.id)
            await interaction.followup.send(f"Season {season} has begun.", ephemeral=True)
            await interaction.followup.send(
                f"🏁 <@{interaction.user.id}> started season {season}: every rating starts "
                f"afresh. Season {season - 1}'s leaderboards stay readable "
                f"(`/leaderboard season:{season - 1}`)."
            )

    @app_commands.command(
        name="rebuild-ratings", description="Work the ratings out again from the rated results."
    )
    async def rebuild_ratings(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            replayed, differing = await self.bot.stats.rebuild(await self._server(interaction))
            found = (
                "every rating was already right"
                if not differing
                else f"{differing} rating{'s' if differing != 1 else ''} differed and "
                "now follow the results"
            )
            await interaction.followup.send(
                f"Rated {replayed} match{'es' if replayed != 1 else ''} again: {found}.",
                ephemeral=True,
            )

    @app_commands.command(name="matches", description="This server's open matches, with links.")
    async def matches(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            tables = await self.moderation.open_matches(await self._server(interaction))
            lines = [match_line(t) for t in tables]
            embed = discord.Embed(
                title=f"Open matches ({len(tables)})",
                description=clip("\n".join(lines), 4000) or "No lobby or match in play.",
            )
            await interaction.followup.send(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Add these commands to `bot` (`bot.app` loads this module by name)."""
    await bot.add_cog(ModerationCog(host(bot)))
