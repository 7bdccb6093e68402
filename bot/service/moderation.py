"""Moderator powers and server settings.

Who counts as a moderator is `bot.permissions.is_moderator` (Manage Server, or the
server's configured role). Each power here goes through the match service, which
tells the table its public sentence (an outbox notice saved with the change), then
writes a line into the match log naming the moderator. Server settings are validated
here and stored per server.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from bot.service import errors, outbox
from bot.service.matches import MatchService
from bot.service.store import BOARD_MODES, PICTURE_MODES, GuildSettings, SettingsStore
from bot.service.tables import AI_NAME, Table
from bot.service.timing import (
    REMINDER_CADENCES,
    TIMEOUT_POLICIES,
    format_duration,
    parse_clock,
)
from league.ratings import ENDING_CHOICES, REMOVED
from rules.core.text import clip

ENDING_WORDS = {
    "concessions": "concessions",
    "timeouts": "forfeits at a deadline",
    "abandons": "matches abandoned at a deadline (the one who left loses)",
    "moderators": "a moderator's removal of a player",
}

MODERATOR_KIND = "moderator"  # the kind of the match-log lines written here

ChannelChange = Literal["add", "remove", "clear"]


async def check_match_channel(
    settings: SettingsStore, guild_id: int | None, channel_id: int, parent_id: int | None
) -> None:
    """Refuse opening a match outside the server's match channels (and their threads),
    when it has set any."""
    if guild_id is None:
        return
    allowed = (await settings.guild(guild_id)).match_channels
    if not allowed or channel_id in allowed or (parent_id is not None and parent_id in allowed):
        return
    where = ", ".join(f"<#{c}>" for c in allowed)
    raise errors.ChannelNotAllowed(
        f"On this server, matches are opened only in {where} (or in threads there)."
    )


def jump_url(table: Table) -> str:
    """A link to the match's message (its lobby or board), or to its channel."""
    match = table.match
    base = f"https://discord.com/channels/{match.guild_id or '@me'}/{match.channel_id}"
    return f"{base}/{match.board_message_id}" if match.board_message_id else base


def match_line(table: Table) -> str:
    """One open match as `/mod matches` lists it."""
    match = table.match
    players = ", ".join(s.name for s in table.seats) or "nobody yet"
    if match.status == "lobby":
        state = "lobby"
    else:
        waiting = " and ".join(table.user_of(s).name for s in table.to_act)
        state = f"waiting for {waiting}" if waiting else "in play"
    return (
        f"**[#{match.id} {table.game.name} — {table.variant.name}]({jump_url(table)})** "
        f"in <#{match.channel_id}> · {state} · {clip(players, 200)}"
    )


@dataclass(frozen=True)
class Done:
    """A moderator power carried out: the match after it and the public sentence."""

    table: Table
    line: str


class Moderation:
    """Abort, kick, replace and undo, each logged under the moderator's name."""

    def __init__(self, matches: MatchService) -> None:
        self.matches = matches

    async def _log(self, match_id: int, moderator_id: int, text: str) -> None:
        await self.matches.log.add(match_id, user_id=moderator_id, kind=MODERATOR_KIND, text=text)

    async def abort(self, match_id: int, moderator_id: int, moderator: str) -> Done:
        """End a lobby or a match in play: nobody wins, nothing is counted."""
        line = f"🛡️ The match was aborted by <@{moderator_id}>: nobody wins."
        told = [outbox.say(match_id, line)]
        table = await self.matches.cancel(match_id, moderator_id, moderator=True, notices=told)
        await self._log(match_id, moderator_id, f"{moderator} (moderator) aborted the match.")
        return Done(table, line)

    async def kick(self, match_id: int, moderator_id: int, moderator: str, user_id: int) -> Done:
        """The player's seat forfeits, as if they conceded (with elimination, the others
        play on)."""
        table = await self.matches.table(match_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise errors.NotInMatch("That member doesn't play in this match.")
        line = f"🛡️ <@{moderator_id}> removed {seat.name} from the match: the seat forfeits."
        told = [outbox.say(match_id, line)]
        result = await self.matches.concede(match_id, user_id, first=told, ending=REMOVED)
        await self._log(
            match_id,
            moderator_id,
            f"{moderator} (moderator) removed {seat.name} from the match: the seat forfeits.",
        )
        return Done(result.table, line)

    async def replace(
        self, match_id: int, moderator_id: int, moderator: str, old_id: int, new_id: int, name: str
    ) -> Done:
        """Hand a seat to another member: its hand, its private view and its decisions."""
        old = (await self.matches.table(match_id)).seat_of(old_id)
        if old is None:
            raise errors.NotInMatch("That member doesn't play in this match.")
        old_name = old.name
        line = (
            f"🛡️ <@{new_id}> takes over {old_name}'s seat (moderator <@{moderator_id}>): "
            "its hand and its decisions are theirs now — `/hand` shows them."
        )
        table = await self.matches.replace_seat(
            match_id,
            old_id,
            new_id,
            name,
            moderator_id=moderator_id,
            notices=[outbox.say(match_id, line, ping=(new_id,))],
        )
        await self._log(
            match_id,
            moderator_id,
            f"{moderator} (moderator) handed {old_name}'s seat to {name}.",
        )
        return Done(table, line)

    async def stand_in(
        self, match_id: int, moderator_id: int, moderator: str, user_id: int, level: str
    ) -> Done:
        """Have the AI play an absent player's seat (level "off": give it back to them)."""
        table = await self.matches.table(match_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise errors.NotInMatch("That member doesn't play in this match.")
        if level == "off":
            table = await self.matches.take_back(match_id, user_id)
            line = f"↩️ {seat.name} plays their seat again."
        else:
            line = (
                f"🛡️ 🤖 {AI_NAME} ({level}) plays for {seat.name} (moderator <@{moderator_id}>) "
                f"until they are back: any move of theirs takes the seat back."
            )
            table = await self.matches.hand_to_ai(
                match_id, user_id, level, notices=[outbox.say(match_id, line)]
            )
        await self._log(match_id, moderator_id, f"{moderator} (moderator): {line}")
        return Done(table, line)

    async def practice(self, match_id: int, moderator_id: int, moderator: str, *, on: bool) -> Done:
        """Mark the match as practice (never rated; its players may ask `/hint`), or not."""
        if on:
            line = (
                f"🎓 <@{moderator_id}> marked this match as practice: it won't be rated, "
                "and each player may ask for a hint with `/hint`."
            )
            said = f"{moderator} (moderator) marked the match as practice."
        else:
            line = f"🛡️ <@{moderator_id}> took the practice mark off this match."
            table = await self.matches.table(match_id)
            unmarked = replace(table, match=replace(table.match, practice=False))
            if not unmarked.never_rated:  # else the AI plays in it, or it is solitaire
                line += " It will be rated, and hints are off."
            said = f"{moderator} (moderator) took the practice mark off the match."
        notices = [outbox.say(match_id, line), outbox.board(match_id)]
        table = await self.matches.set_practice(
            match_id, on, user_id=moderator_id, kind=MODERATOR_KIND, text=said, notices=notices
        )
        return Done(table, line)

    async def undo(self, match_id: int, moderator_id: int, moderator: str, *, force: bool) -> Done:
        """Take back the last game action still in effect (see MatchService.undo)."""
        undone = await self.matches.undo(match_id, moderator_id, force=force)
        await self._log(
            match_id,
            moderator_id,
            f"{moderator} (moderator) undid action {undone.seq}{undone.forced}: "
            f"{clip(undone.what, 300)}",
        )
        return Done(undone.table, undone.line(moderator_id))

    async def open_matches(self, guild_id: int) -> list[Table]:
        """A server's lobbies and matches in play."""
        rows = await self.matches.records.open_in_guild(guild_id)
        return [await self.matches.table(row.id) for row in rows]


class ServerSettings:
    """Read and change a server's settings, each value checked first."""

    def __init__(self, store: SettingsStore) -> None:
        self.store = store

    async def get(self, guild_id: int) -> GuildSettings:
        """The server's settings."""
        return await self.store.guild(guild_id)

    async def set_mod_role(self, guild_id: int, role_id: int | None) -> GuildSettings:
        """The role whose members are moderators (None: Manage Server only)."""
        return await self.store.update_guild(guild_id, mod_role_id=role_id)

    async def change_channels(
        self, guild_id: int, change: ChannelChange, channel_id: int | None
    ) -> GuildSettings:
        """Add or remove a channel where matches may be opened, or clear the list
        (matches anywhere)."""
        channels = set((await self.get(guild_id)).match_channels)
        if change == "clear":
            channels = set()
        elif channel_id is None:
            raise errors.BadSetting(f"Name the channel to {change}.")
        elif change == "add":
            channels.add(channel_id)
        else:
            if channel_id not in channels:
                raise errors.BadSetting(f"<#{channel_id}> isn't in the list.")
            channels.discard(channel_id)
        return await self.store.update_guild(guild_id, match_channels=channels)

    async def set_clock(self, guild_id: int, duration: str) -> GuildSettings:
        """The default time for each decision, from text such as `24h`."""
        seconds = parse_clock(duration)
        return await self.store.update_guild(guild_id, default_clock_seconds=seconds)

    async def set_timeout_policy(self, guild_id: int, policy: str) -> GuildSettings:
        """What a deadline does by default: skip the decision, abandon the match, or hand
        the seat to the AI."""
        if policy not in TIMEOUT_POLICIES:
            raise errors.BadSetting(f"The timeout policy is one of {', '.join(TIMEOUT_POLICIES)}.")
        return await self.store.update_guild(guild_id, default_timeout_policy=policy)

    async def set_reminders(self, guild_id: int, cadence: str) -> GuildSettings:
        """When the decider is reminded of their clock."""
        if cadence not in REMINDER_CADENCES:
            raise errors.BadSetting(f"Reminders are one of {', '.join(REMINDER_CADENCES)}.")
        return await self.store.update_guild(guild_id, reminder_cadence=cadence)

    async def set_rated(self, guild_id: int, ending: str, rated: bool) -> GuildSettings:
        """Whether matches that end one way (`league.ratings.ENDING_CHOICES`) are rated."""
        if ending not in ENDING_CHOICES:
            raise errors.BadSetting(f"The endings rated are among {', '.join(ENDING_CHOICES)}.")
        chosen = set((await self.get(guild_id)).rated_endings)
        chosen = chosen | {ending} if rated else chosen - {ending}
        return await self.store.update_guild(guild_id, rated_endings=chosen)

    async def set_pictures(self, guild_id: int, mode: str) -> GuildSettings:
        """How the server's boards are shown: pictures and text, pictures or text only."""
        if mode not in PICTURE_MODES:
            raise errors.BadSetting(f"Board pictures are one of {', '.join(PICTURE_MODES)}.")
        return await self.store.update_guild(guild_id, board_pictures=mode)


def settings_lines(settings: GuildSettings) -> list[str]:
    """A server's settings in plain words."""
    role = f"<@&{settings.mod_role_id}>" if settings.mod_role_id else "none (Manage Server only)"
    channels = ", ".join(f"<#{c}>" for c in settings.match_channels) or "anywhere"
    return [
        f"**Moderator role:** {role}",
        f"**Match channels:** {channels}",
        f"**Default clock:** {format_duration(settings.default_clock_seconds)} per decision",
        f"**Timeout policy:** {settings.default_timeout_policy}",
        f"**Reminders:** {settings.reminder_cadence}",
        "**Boards:** {}: {}".format(*BOARD_MODES.get(settings.board_pictures, ("?", "?"))),
        f"**Ratings:** season {settings.season}; {rated_line(settings.rated_endings)}",
    ]


def rated_line(chosen: frozenset[str]) -> str:
    """Which endings of a match the server rates, in words."""
    rated = ["matches played to the end", *(ENDING_WORDS[c] for c in ENDING_CHOICES if c in chosen)]
    unrated = [ENDING_WORDS[c] for c in ENDING_CHOICES if c not in chosen]
    line = "rated: " + ", ".join(rated)
    return line + ("; not rated: " + ", ".join(unrated) if unrated else "")
