"""`/tournament`: events a moderator runs from a channel, with a sign-up, rounds of
pairings each played in a thread, and standings kept up to date."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.desk import PERSISTENT_ITEMS, tournament_view
from bot.host import Host, host
from bot.names import shown_name
from bot.permissions import require_moderator
from bot.render.tournament import FORMAT_NAMES, standings_embed
from bot.replies import guard
from bot.service import errors
from bot.service.tables import MAX_SEED
from bot.service.timing import parse_duration
from bot.service.tournaments import Event, pairs_two_sides
from bot.ui.choices import game_choices, named_choices, offer_choices, variant_choices
from bot.ui.interactions import defer
from rules.core.text import clip

LOG_LINES = 25  # the latest lines of a tournament's log `/tournament log` shows


@app_commands.guild_only()
class TournamentCog(
    commands.GroupCog, group_name="tournament", group_description="Tournaments on this server."
):
    """Moderators open, start, correct and cancel tournaments; anyone sees the standings
    and a player may drop out."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        offer_choices(self.new, game=game_choices(bot.matches.games))

    async def _here(self, interaction: discord.Interaction, *, ended: bool = False) -> Event:
        """The channel's open tournament (`ended`: or else its last one); in a thread,
        the tournament of the channel it is in (a match's thread)."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        channel = interaction.channel
        where = channel.parent_id if isinstance(channel, discord.Thread) else None
        return await self.bot.desk.service.in_channel(
            where or interaction.channel_id, interaction.guild_id, ended=ended
        )

    async def _moderator(self, interaction: discord.Interaction) -> Event:
        """Defer privately, check the caller is a moderator; the channel's tournament."""
        await defer(interaction, ephemeral=True)
        await require_moderator(interaction, self.bot.matches.settings)
        return await self._here(interaction)

    async def _done(self, interaction: discord.Interaction, event: Event, reply: str) -> None:
        await self.bot.desk.settle(event.row.id)
        await interaction.followup.send(reply, ephemeral=True)

    @app_commands.command(name="new", description="Open a tournament's sign-up in this channel.")
    @app_commands.describe(
        name="What it is called",
        game="The game",
        variant="A 2-player variant, or one of two teams (2p, 4p...)",
        format="Swiss, round robin or single elimination",
        rounds="Swiss: how many rounds",
        signup="How long the sign-up stays open, such as 2d (default 1 day)",
        deadline="How long each round lasts, such as 3d (default 3 days)",
        seeding="By rating (default), or at random",
        at_deadline="A match unfinished at its round's deadline: forfeit, or a moderator decides",
        seed="Fix the random draws (public: anyone could predict every shuffle)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        game: str,
        variant: str,
        format: str,
        rounds: app_commands.Range[int, 1, 12] | None = None,
        signup: str = "1d",
        deadline: str = "3d",
        seeding: Literal["rating", "random"] = "rating",
        at_deadline: Literal["forfeit", "moderator"] = "forfeit",
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
    ) -> None:
        async with guard(interaction):
            await require_moderator(interaction, self.bot.matches.settings)
            assert interaction.guild_id is not None and interaction.channel_id is not None
            if not isinstance(interaction.channel, discord.TextChannel):
                raise errors.BadOption(
                    "Open a tournament in a text channel: each of its matches gets a thread there."
                )
            desk = self.bot.desk
            row = await desk.service.create(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                user_id=interaction.user.id,
                name=name,
                game=game,
                variant=variant,
                format=format,
                rounds=rounds,
                signup_seconds=parse_duration(signup),
                round_seconds=parse_duration(deadline),
                seeding=seeding,
                at_deadline=at_deadline,
                seed=seed,
                now=discord.utils.utcnow(),
            )
            event = await desk.service.event(row.id)
            rules = self.bot.matches.game(row.game)
            await interaction.response.send_message(
                embed=standings_embed(event, rules), view=tournament_view(event)
            )
            message = await interaction.original_response()
            await desk.service.tournaments.set_message(row.id, message.id)
            await desk.settle(row.id)

    @new.autocomplete("variant")
    async def variant_suggestions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The chosen game's variants a tournament can play (two sides a game), each
        with what it is."""
        return variant_choices(
            self.bot.matches.games, interaction.namespace.game, current, pairs_two_sides
        )

    @new.autocomplete("format")
    async def format_suggestions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The formats, each named."""
        return named_choices(FORMAT_NAMES, current)

    @app_commands.command(name="start", description="End the sign-up and pair round 1.")
    async def start(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            event = await self._moderator(interaction)
            event = await self.bot.desk.service.start(
                event.row.id, interaction.user.id, now=discord.utils.utcnow()
            )
            await self._done(interaction, event, "Started: round 1 is paired.")

    @app_commands.command(name="standings", description="This channel's tournament as it stands.")
    async def standings(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            event = await self._here(interaction, ended=True)
            embed = standings_embed(event, self.bot.matches.game(event.row.game))
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="log", description="What was done to this channel's tournament.")
    async def log(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            event = await self._here(interaction, ended=True)
            notes = await self.bot.desk.service.tournaments.log(event.row.id)
            lines = [f"• {text}" for _, _, text in notes[-LOG_LINES:]]
            embed = discord.Embed(
                title=f"🏆 {event.row.name} — log", description=clip("\n".join(lines), 4000)
            )
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="drop", description="Leave the tournament (moderators: anyone).")
    @app_commands.describe(player="Who drops out (default: you)")
    async def drop(
        self, interaction: discord.Interaction, player: discord.User | None = None
    ) -> None:
        async with guard(interaction):
            await defer(interaction, ephemeral=True)
            who = player or interaction.user
            moderator = None
            if who.id != interaction.user.id:
                await require_moderator(interaction, self.bot.matches.settings)
                moderator = interaction.user.id
            event = await self._here(interaction)
            event = await self.bot.desk.service.drop(
                event.row.id, moderator, who.id, now=discord.utils.utcnow()
            )
            await self._done(
                interaction, event, f"{shown_name(who.display_name)} is out of the tournament."
            )

    @app_commands.command(name="record", description="Record a player's result this round.")
    @app_commands.describe(player="A player of the game", result="How it ended for them")
    async def record(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        result: Literal["win", "draw", "loss"],
    ) -> None:
        async with guard(interaction):
            event = await self._moderator(interaction)
            event = await self.bot.desk.service.record(
                event.row.id, interaction.user.id, player.id, result, now=discord.utils.utcnow()
            )
            await self._done(
                interaction, event, f"Recorded: a {result} for {shown_name(player.display_name)}."
            )

    @app_commands.command(name="pair-again", description="Pair the round being played again.")
    async def pair_again(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            event = await self._moderator(interaction)
            event = await self.bot.desk.service.pair_again(
                event.row.id, interaction.user.id, now=discord.utils.utcnow()
            )
            await self._done(interaction, event, f"Round {event.row.round} is paired again.")

    @app_commands.command(name="cancel", description="End this channel's tournament: nobody wins.")
    async def cancel(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            event = await self._moderator(interaction)
            event = await self.bot.desk.service.cancel(event.row.id, interaction.user.id)
            await self._done(interaction, event, "The tournament is cancelled.")


async def setup(bot: commands.Bot) -> None:
    """Add these commands to `bot`, and the components they post that outlive a restart."""
    await bot.add_cog(TournamentCog(host(bot)))
    bot.add_dynamic_items(*PERSISTENT_ITEMS)
