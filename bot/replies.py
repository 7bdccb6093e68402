"""Where errors become replies: one place maps every refusal to an ephemeral sentence.

Player-caused refusals (`bot.service.errors.UserError`, the rules' `IllegalAction`)
are told to the player as they are. Anything else is a fault of ours: the
player gets an apology with a short reference, and the traceback goes to the
log under that reference.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord
from discord import app_commands

from bot.service.errors import UserError
from bot.service.logs import about
from bot.service.metrics import Metrics, family
from bot.service.shards import shard_of
from rules.core import IllegalAction

log = logging.getLogger(__name__)


def refusal(error: BaseException) -> str | None:
    """The sentence for a player-caused error, or None for a fault of ours."""
    if isinstance(error, UserError | IllegalAction):
        return error.message
    return None


def apology(reference: str) -> str:
    """What a player reads when something broke on our side."""
    return (
        "Sorry, something went wrong on my side. If it keeps happening, tell the server's "
        f"moderators and quote reference `{reference}`."
    )


def where(interaction: discord.Interaction) -> str:
    """An interaction, for the log: what was used, by whom, where."""
    data = interaction.data or {}
    what = data.get("name") or data.get("custom_id") or interaction.type.name
    return f"{what} by user {interaction.user.id} in channel {interaction.channel_id}"


async def tell(interaction: discord.Interaction, message: str) -> None:
    """An ephemeral message to the person who interacted, answered or not yet."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not reply to %s", where(interaction), exc_info=True)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Reply to an error: the refusal's sentence, or an apology with a logged reference."""
    message = refusal(error)
    if message is None:
        reference = secrets.token_hex(3)
        log.error("unexpected error [ref %s] in %s", reference, where(interaction), exc_info=error)
        message = apology(reference)
    await tell(interaction, message)


def handled_as(interaction: discord.Interaction) -> tuple[str, str]:
    """What an interaction used, as metric labels: its kind (command, component, modal)
    and the command's name or the component's family (`metrics.family`)."""
    if interaction.type is discord.InteractionType.application_command:
        command = interaction.command
        return "command", command.qualified_name if command is not None else "other"
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    kind = "modal" if interaction.type is discord.InteractionType.modal_submit else "component"
    return kind, family(custom_id)


@asynccontextmanager
async def guard(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Run an interaction handler's body; any error it raises is reported, never re-raised.
    Every log line written meanwhile names the interaction's server and shard, and the
    time it took is counted (`Metrics.handling_of`)."""
    shard = shard_of(interaction.guild_id, interaction.client.shard_count or 1)
    metrics: Metrics = interaction.client.metrics  # type: ignore[attr-defined]
    with (
        about(guild=interaction.guild_id, shard=shard),
        metrics.handling_of(*handled_as(interaction)),
    ):
        try:
            yield
        except Exception as error:
            await report(interaction, error)


class ArbiterTree(app_commands.CommandTree):
    """The command tree, reporting errors raised before a handler's own guard runs
    (a failed check or option conversion) the same way."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(error, app_commands.NoPrivateMessage):
            await tell(interaction, "Use this command in a server channel.")
        elif isinstance(error, app_commands.CheckFailure):
            await tell(interaction, "You can't use this command here.")
        else:
            await report(interaction, original)
