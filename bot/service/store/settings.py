"""Settings: each server's settings, and each player's (DMs, standing answers, how
they see their private views).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.service.outbox import Notice
from bot.service.store import rows as decode
from bot.service.store.database import Database
from bot.service.store.outbox import OutboxStore
from bot.service.store.rows import (
    GUILD_SETTING_FIELDS,
    PICTURE_MODES,
    GuildSettings,
    NotifyPrefs,
    iso,
    when,
)


class SettingsStore:
    """Servers' and players' settings."""

    def __init__(self, db: Database, outbox: OutboxStore) -> None:
        self._db = db
        self._outbox = outbox

    async def guild(self, guild_id: int) -> GuildSettings:
        """A server's settings (the defaults when it has none stored)."""

        async def load() -> GuildSettings:
            row = await self._db.one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
            return decode.guild_settings(guild_id, row)

        return await self._db.memory.recall_small("guild", guild_id, load)

    async def update_guild(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of a server's settings; returns them all."""
        unknown = set(changes) - GUILD_SETTING_FIELDS
        if unknown:
            raise ValueError(f"unknown server settings: {sorted(unknown)}")
        if "match_channels" in changes:
            changes["match_channels"] = json.dumps(sorted(changes["match_channels"]))
        if "rated_endings" in changes:
            changes["rated_endings"] = json.dumps(sorted(changes["rated_endings"]))
        async with self._db.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, self._db.now()),
            )
            for name, value in changes.items():  # names checked against the allow-list
                await db.execute(
                    f"UPDATE guild_settings SET {name} = ?, updated_at = ? WHERE guild_id = ?",
                    (value, self._db.now(), guild_id),
                )
            db.then(lambda: self._db.memory.forget_small("guild", guild_id), f"g:{guild_id}")
        return await self.guild(guild_id)

    async def notify_prefs(self, user_id: int) -> NotifyPrefs:
        """A user's DM preferences (off until they opt in)."""

        async def load() -> NotifyPrefs:
            row = await self._db.one("SELECT * FROM notify WHERE user_id = ?", (user_id,))
            if row is None:
                return NotifyPrefs(user_id)
            return NotifyPrefs(user_id, bool(row["enabled"]), when(row["dm_closed_until"]))

        return await self._db.memory.recall_small("prefs", user_id, load)

    async def set_notify(self, user_id: int, enabled: bool) -> None:
        """Opt a user in or out of DMs (either way, their DMs count as open again)."""
        async with self._db.transaction() as db:
            await db.execute(
                "INSERT INTO notify (user_id, enabled, dm_closed_until) VALUES (?, ?, NULL)"
                " ON CONFLICT (user_id) DO UPDATE SET enabled = excluded.enabled,"
                " dm_closed_until = NULL",
                (user_id, int(enabled)),
            )
            db.forget_user("prefs", user_id)

    async def standing_answers(self, user_id: int) -> frozenset[tuple[str, str]]:
        """The standing answers a user has set, as (game id, preference id) pairs."""

        async def load() -> frozenset[tuple[str, str]]:
            rows = await self._db.all(
                "SELECT game, preference FROM standing_answers WHERE user_id = ?", (user_id,)
            )
            return frozenset((r["game"], r["preference"]) for r in rows)

        return await self._db.memory.recall_small("standing", user_id, load)

    async def set_standing_answer(self, user_id: int, game: str, preference: str, on: bool) -> None:
        """Set or clear one of a user's standing answers."""
        async with self._db.transaction() as db:
            if on:
                await db.execute(
                    "INSERT INTO standing_answers (user_id, game, preference)"
                    " VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (user_id, game, preference),
                )
            else:
                await db.execute(
                    "DELETE FROM standing_answers WHERE user_id = ? AND game = ?"
                    " AND preference = ?",
                    (user_id, game, preference),
                )
            db.forget_user("standing", user_id)

    async def player_pictures(self, user_id: int) -> str:
        """How a user sees their private views (a key of PICTURE_MODES)."""

        async def load() -> str:
            row = await self._db.one(
                "SELECT pictures FROM player_settings WHERE user_id = ?", (user_id,)
            )
            return row["pictures"] if row else "both"

        return await self._db.memory.recall_small("pictures", user_id, load)

    async def set_player_pictures(self, user_id: int, mode: str) -> None:
        """Set how a user sees their private views."""
        if mode not in PICTURE_MODES:
            raise ValueError(f"unknown picture mode: {mode!r}")
        async with self._db.transaction() as db:
            await db.execute(
                "INSERT INTO player_settings (user_id, pictures) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET pictures = excluded.pictures",
                (user_id, mode),
            )
            db.forget_user("pictures", user_id)

    async def set_dm_closed(
        self, user_id: int, until: datetime, *, notices: Sequence[Notice] = ()
    ) -> None:
        """A user's DMs are closed: no attempt before `until`."""
        async with self._db.transaction() as db:
            await db.execute(
                "UPDATE notify SET dm_closed_until = ? WHERE user_id = ?", (iso(until), user_id)
            )
            db.forget_user("prefs", user_id)
            await self._outbox.write(db, notices)
