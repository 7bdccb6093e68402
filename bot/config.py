"""Settings, read from the environment or a `.env` file."""

from __future__ import annotations

from typing import Literal

from pydantic import model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.service.shards import parse_shards


class Settings(BaseSettings):
    """What the process needs to run.

    `DISCORD_TOKEN` is the bot token; `ARBITER_DB` the SQLite file, or a PostgreSQL
    server's `postgresql://` address; `ARBITER_GUILD` (optional) a server id to sync the
    slash commands to, for development.
    """

    # env_ignore_empty: a blank line such as `ARBITER_GUILD=` (as in .env.example) means unset.
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: str | None = None
    arbiter_db: str = "arbiter.db"
    arbiter_guild: int | None = None
    # The pace of the bot's requests on one channel's routes (Discord lets a channel take
    # about 5 messages per 5 s): `arbiter_channel_burst` at once, then one every
    # `arbiter_channel_every` seconds (0: no pace), so any 5 s hold at most 2 + 3.
    arbiter_channel_burst: int = 2
    arbiter_channel_every: float = 5 / 3
    # Gateway shards: `arbiter_shard_count` in all (Discord requires one per 2,500
    # servers at most), of which this process runs `arbiter_shards` ("0,1" or "0-3";
    # every one when unset).
    arbiter_shard_count: int = 1
    arbiter_shards: str | None = None
    # On PostgreSQL: seconds a shard's lease holds without renewal (see bot.service.leases).
    arbiter_lease_ttl: float = 15.0
    # Worker processes the AI players think in (0: a thread of the bot's own process).
    arbiter_ai_workers: int = 1
    # Seconds the AI waits before it acts in a channel (so its moves can be read).
    arbiter_ai_pause: float = 2.0
    # Seconds the publisher's delivery bookkeeping may wait to be saved when no
    # transaction takes it along.
    arbiter_save_after: float = 300.0
    # Seconds one decision of the AI may take at most (unset: its level's own).
    arbiter_ai_think: float | None = None
    # A port for the liveness and readiness checks (/healthz, /readyz); none when unset.
    arbiter_health_port: int | None = None
    arbiter_log_format: Literal["text", "json"] = "text"
    # Error reports to Sentry at this address (the `sentry` extra); none when unset.
    sentry_dsn: str | None = None

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.arbiter_shard_count < 1:
            raise ValueError("ARBITER_SHARD_COUNT is at least 1")
        self.shards  # noqa: B018 - parsed once here, so a bad value stops the start
        return self

    @property
    def shards(self) -> frozenset[int]:
        """The shards this process runs (every one of the count when unset)."""
        count = self.arbiter_shard_count
        if self.arbiter_shards is None:
            return frozenset(range(count))
        return parse_shards(self.arbiter_shards, count)
