"""Who counts as a moderator: Manage Server, or the server's configured moderator role."""

from __future__ import annotations

import discord

from bot.service import errors
from bot.service.store import SettingsStore


async def is_moderator(interaction: discord.Interaction, settings: SettingsStore) -> bool:
    """Whether the user may use moderator powers in this server."""
    if interaction.guild is None or not isinstance(interaction.user, discord.Member):
        return False
    if interaction.permissions.manage_guild:
        return True
    saved = await settings.guild(interaction.guild.id)
    if saved.mod_role_id is None:
        return False
    return any(role.id == saved.mod_role_id for role in interaction.user.roles)


async def require_moderator(interaction: discord.Interaction, settings: SettingsStore) -> None:
    """Refuse (NotModerator) anyone who is not a moderator of this server."""
    if not await is_moderator(interaction, settings):
        raise errors.NotModerator()
