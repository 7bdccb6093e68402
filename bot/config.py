"""Settings, read from the environment or a `.env` file."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """What the process needs to run.

    `DISCORD_TOKEN` is the bot token; `ARBITER_DB` the SQLite file; `ARBITER_GUILD`
    (optional) a server id to sync the slash commands to, for development.
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
