"""The process the AI workers' kill test kills: a real Arbiter bot, with its default AI
worker pool, logged in to a fake Discord (no gateway) on a real database (a SQLite file
or a PostgreSQL database), where ada plays Tooth and Nail against the AI in a server's
channel until the AI has decided once in its worker process.

    python -m tests.bot.ai_bot <database> <fake Discord's API base> <guild> <channel>

It prints "ready" once the AI has acted (its worker pool is running), then serves on
until it is killed.
"""

from __future__ import annotations

import asyncio
import os
import sys

ADA = 1
TURNS = 20  # ada's actions at most before the AI must have decided


async def main(db: str, base: str, guild: int, channel: int) -> None:
    import discord

    from bot.app import create_bot
    from bot.config import Settings

    discord.http.Route.BASE = base
    settings = Settings(
        _env_file=None,
        discord_token=f"ai-bot-{os.getpid()}",
        arbiter_db=db,
        arbiter_channel_every=0,
        arbiter_ai_pause=0,
        arbiter_ai_think=0.05,
    )
    assert settings.arbiter_ai_workers > 0, "the AI thinks in a thread: no worker to watch"
    bot = create_bot(settings)
    await bot.login(settings.discord_token or "")
    service = bot.matches
    table = await service.new_lobby(
        guild_id=guild,
        channel_id=channel,
        user_id=ADA,
        name="ada",
        game="tooth-and-nail",
        seed=2,
        ai_level="easy",
    )
    match_id = table.match.id
    await service.start(match_id, ADA)
    for _ in range(TURNS):
        await bot.players.settled()
        if any(row.user_id != ADA for row in await service.records.actions(match_id)):
            break
        offered = await service.choices(channel, ADA)
        await service.act(match_id, ADA, offered[0].key)
    else:
        raise AssertionError("the AI never decided")
    print("ready", flush=True)
    await asyncio.Event().wait()  # until killed


if __name__ == "__main__":
    db_arg, base_arg, guild_arg, channel_arg = sys.argv[1:]
    asyncio.run(main(db_arg, base_arg, int(guild_arg), int(channel_arg)))
