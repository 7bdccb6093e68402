"""`/match`: open a lobby, join, leave, set an option, start, cancel, see the status,
concede, read the log, export; and the clock: nudge, pause, resume, vacation."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot import history
from bot.host import Host, host
from bot.names import shown_name
from bot.permissions import is_moderator
from bot.pictures import BOARD_FILE
from bot.render import lobby_embed, picture_files
from bot.replies import guard
from bot.service.moderation import check_match_channel
from bot.service.tables import MAX_SEED
from bot.service.timing import TIMEOUTS_IN_A_ROW
from bot.ui.choices import game_choices, offer_choices, variant_choices
from bot.ui.interactions import defer
from bot.ui.lobby import (
    PERSISTENT_ITEMS,
    lobby_step,
    lobby_view,
    option_name_choices,
    option_step,
    option_value_choices,
)
from bot.ui.table import ask_concede, board_button, text_board

log = logging.getLogger(__name__)


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
class MatchCog(commands.GroupCog, group_name="match", group_description="Play a match here."):
    """The lobby and the match's life cycle, one open match per channel or thread."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        offer_choices(self.new, game=game_choices(bot.matches.games))

    @app_commands.command(name="new", description="Open a lobby for a match in this channel.")
    @app_commands.describe(
        game="The game to play",
        variant="Which way to play it: pick the game first (default: its first variant)",
        seed="Deal from this seed: shown to all, it makes shuffles predictable (default: random)",
        clock="Time per decision, such as 30m, 24h or 3d (default: the server's)",
        policy="What repeated timeouts lead to (default: the server's)",
        ai="Play against Arbiter, the AI: it takes the second seat (in a DM too)",
    )
    @app_commands.rename(policy="timeout")
    @app_commands.choices(
        policy=[
            app_commands.Choice(
                name=f"skip: after {TIMEOUTS_IN_A_ROW} timeouts in a row, the player forfeits",
                value="skip",
            ),
            app_commands.Choice(
                name=f"abandon: after {TIMEOUTS_IN_A_ROW} timeouts in a row, the match ends",
                value="abandon",
            ),
            app_commands.Choice(
                name="ai: the AI plays for a player whose time runs out, until they're back",
                value="ai",
            ),
        ],
        ai=[
            app_commands.Choice(name="Arbiter, strong", value="strong"),
            app_commands.Choice(name="Arbiter, easy (for practice)", value="easy"),
        ],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        variant: str | None = None,
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
        clock: str | None = None,
        policy: str | None = None,
        ai: str | None = None,
    ) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            await check_match_channel(
                self.bot.matches.settings,
                interaction.guild_id,
                interaction.channel_id,
                getattr(interaction.channel, "parent_id", None),
            )
            terms = await self.bot.clock.terms(interaction.guild_id, clock, policy, game)
            table = await self.bot.matches.new_lobby(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                user_id=interaction.user.id,
                name=shown_name(interaction.user.display_name),
                game=game,
                variant=variant,
                seed=seed,
                ai_level=ai,
                terms=terms,
            )
            try:
                sent = await interaction.response.send_message(
                    embed=lobby_embed(table), view=lobby_view(table)
                )
            except discord.HTTPException:
                log.warning(
                    "match %s: could not answer with its lobby; posting it",
                    table.match.id,
                    exc_info=True,
                )
                await self.bot.matches.repost(table.match.id)  # the publisher posts it
                return
            if sent.message_id is not None:
                await self.bot.matches.set_board_message(table.match.id, sent.message_id)

    @new.autocomplete("variant")
    async def variant_suggestions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The chosen game's variants, each with what it is."""
        return variant_choices(self.bot.matches.games, interaction.namespace.game, current)

    async def _lobby(self, interaction: discord.Interaction, op: str) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            match = await self.bot.matches.open_match(interaction.channel_id)
            await lobby_step(interaction, op, match.id, on_lobby_message=False)

    @app_commands.command(name="join", description="Take a seat in this channel's lobby.")
    async def join(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, "join")

    @app_commands.command(name="leave", description="Give up your seat in this channel's lobby.")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, "leave")

    @app_commands.command(name="start", description="Start the match (the host only).")
    async def start(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, "start")

    @app_commands.command(name="cancel", description="Close this channel's lobby (the host).")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, "cancel")

    @app_commands.command(
        name="option", description="Change one of the lobby's game options (the host only)."
    )
    @app_commands.describe(name="The option to change", value="Its new value")
    async def option(self, interaction: discord.Interaction, name: str, value: str) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            match = await self.bot.matches.open_match(interaction.channel_id)
            await option_step(interaction, match.id, name, value, on_lobby_message=False)

    @option.autocomplete("name")
    async def option_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The lobby's options, each with its value now."""
        return await option_name_choices(self.bot.matches, interaction.channel_id, current)

    @option.autocomplete("value")
    async def option_values(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The choices of the option named first."""
        named = getattr(interaction.namespace, "name", None)
        return await option_value_choices(self.bot.matches, interaction.channel_id, named, current)

    @app_commands.command(name="status", description="Show this channel's match.")
    async def status(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            match = await self.bot.matches.open_match(interaction.channel_id)
            table = await self.bot.matches.table(match.id)
            files = []
            if match.status == "lobby":
                embed = lobby_embed(table)
            else:  # the whole text board, every clock in it, over the picture
                mode = await self.bot.publisher.board_mode(table)
                picture = await self.bot.publisher.board_picture(table, mode)
                shown = BOARD_FILE if picture else None
                embed = await text_board(self.bot, table, picture=shown)
                files = picture_files(picture, BOARD_FILE)
            view = discord.ui.View()
            if match.board_message_id is not None:
                view.add_item(board_button(table))  # where the board stands in the channel
            await interaction.response.send_message(
                embed=embed, view=view, files=files, ephemeral=True
            )

    @app_commands.command(
        name="concede", description="Give up this channel's match (you confirm with a button)."
    )
    async def concede(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            match = await self.bot.matches.open_match(interaction.channel_id)
            await ask_concede(interaction, match.id)

    @app_commands.command(name="log", description="The history of this channel's match.")
    @app_commands.describe(match="A match number (default: this channel's latest match)")
    async def match_log(self, interaction: discord.Interaction, match: int | None = None) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            row = await history.pick_match(
                self.bot.matches,
                interaction.guild_id,
                interaction.channel_id,
                match,
                interaction.user.id,
            )
            shown = await history.log_message(self.bot.matches, row.id, None)
            await interaction.response.send_message(**shown)

    @app_commands.command(
        name="export", description="A match as a JSON file that replays it (open: moderators)."
    )
    @app_commands.describe(match="A match number (default: this channel's latest match)")
    async def export(self, interaction: discord.Interaction, match: int | None = None) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            await defer(interaction, ephemeral=True)
            row = await history.pick_match(
                self.bot.matches,
                interaction.guild_id,
                interaction.channel_id,
                match,
                interaction.user.id,
            )
            moderator = await is_moderator(interaction, self.bot.matches.settings)
            file = await history.export_file(
                self.bot.matches, row.id, moderator=moderator, user_id=interaction.user.id
            )
            await interaction.followup.send(
                f"Match #{row.id}: replay it with `python -m bot replay {file.filename}`.",
                file=file,
                ephemeral=True,
            )

    @app_commands.command(
        name="nudge", description="Remind whoever must decide (once half their clock is gone)."
    )
    async def nudge(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            await defer(interaction, ephemeral=True)
            match = await self.bot.matches.open_match(interaction.channel_id)
            done = await self.bot.clock.nudge(match.id, interaction.user.id)
            await interaction.followup.send(done, ephemeral=True)

    @app_commands.command(
        name="pause", description="Ask to pause the clocks (it pauses once every player asks)."
    )
    async def pause(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            match = await self.bot.matches.open_match(interaction.channel_id)
            line = await self.bot.clock.pause(match.id, interaction.user.id, moderator=False)
            await interaction.response.send_message(line)

    @app_commands.command(
        name="ai", description="Vote that the AI play an absent player's seat until they're back."
    )
    @app_commands.describe(
        player="The absent player: half their clock gone (every other player must ask too)"
    )
    async def ai(self, interaction: discord.Interaction, player: discord.User) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            match = await self.bot.matches.open_match(interaction.channel_id)
            line = await self.bot.clock.vote_ai(match.id, interaction.user.id, player.id)
            await interaction.response.send_message(line)

    @app_commands.command(name="resume", description="Run the clocks again after a pause.")
    async def resume(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            match = await self.bot.matches.open_match(interaction.channel_id)
            line = await self.bot.clock.resume(match.id, interaction.user.id, moderator=False)
            await interaction.response.send_message(line)

    vacation = app_commands.Group(
        name="vacation", description="Freeze your clock while you are away (3 days a match)."
    )

    @vacation.command(name="start", description="Freeze your clock for a while.")
    @app_commands.describe(duration="How long you are away, such as 12h or 2d")
    async def vacation_start(self, interaction: discord.Interaction, duration: str) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            match = await self.bot.matches.open_match(interaction.channel_id)
            line = await self.bot.clock.vacation(match.id, interaction.user.id, duration)
            await interaction.response.send_message(line)

    @vacation.command(name="end", description="Come back early: your clock runs again.")
    async def vacation_end(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            assert interaction.channel_id is not None
            match = await self.bot.matches.open_match(interaction.channel_id)
            line = await self.bot.clock.vacation_end(match.id, interaction.user.id)
            await interaction.response.send_message(line)


async def setup(bot: commands.Bot) -> None:
    """Add these commands to `bot`, and the components they post that outlive a restart."""
    await bot.add_cog(MatchCog(host(bot)))
    bot.add_dynamic_items(*PERSISTENT_ITEMS, *history.PERSISTENT_ITEMS)
