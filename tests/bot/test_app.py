"""The process around the game: settings, `python -m bot`, migrations, command sync,
moderators, and a board that was deleted."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import discord
import pytest
import simcord

from bot import __main__ as entry
from bot.config import Settings
from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.world import World
from tests.conftest import BotFactory


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


def test_settings_come_from_the_environment_or_a_dotenv_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("DISCORD_TOKEN", "ARBITER_DB", "ARBITER_GUILD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    defaults = Settings()
    assert (defaults.discord_token, defaults.arbiter_db, defaults.arbiter_guild) == (
        None,
        "arbiter.db",
        None,
    )
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nARBITER_GUILD=123\n")
    monkeypatch.setenv("ARBITER_DB", "elsewhere.db")
    settings = Settings()
    assert settings.discord_token == "from-file"
    assert settings.arbiter_guild == 123
    assert settings.arbiter_db == "elsewhere.db"


def test_without_a_token_the_bot_says_how_to_get_one_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    assert entry.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "DISCORD_TOKEN" in err and "developer portal" in err and "--sandbox" in err


def test_sandbox_flag_runs_the_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.sandbox

    ran: list[int | None] = []

    async def fake_sandbox(port: int | None = None) -> None:
        ran.append(port)

    monkeypatch.setattr(bot.sandbox, "run_sandbox", fake_sandbox)
    assert entry.main(["--sandbox"]) == 0
    assert entry.main(["--sandbox", "--port", "8765"]) == 0
    assert ran == [None, 8765]


async def test_commands_sync_to_the_development_server_only(create_bot: BotFactory) -> None:
    server_id = 4242 << 22
    async with simcord.run(create_bot(arbiter_guild=server_id)) as env:
        guild = env.create_guild("Dev", id=server_id)
        other = env.create_guild("Elsewhere")
        here = guild.add_member(env.create_user("alice"))
        there = other.add_member(env.create_user("bob"))
        assert "match new" in here.available_commands(guild.create_text_channel("games"))
        assert there.available_commands(other.create_text_channel("games")) == ()


async def test_a_moderator_can_stop_a_match_in_play(simcord_env: simcord.Env) -> None:
    world = World.build(simcord_env)
    await world.start("tally", "duel", [world.alice, world.bob])
    mods = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    moderator = world.guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    refused = await world.alice.slash(world.channel, "match cancel")
    assert refused.response is not None and "has started" in refused.response.content
    # /match cancel is the host's, for a lobby; a moderator stops a match with /mod abort,
    # which the match log records.
    pointed = await moderator.slash(world.channel, "match cancel")
    assert pointed.response is not None and "/mod abort" in pointed.response.content
    assert (await world.match()).status == "active"
    await moderator.slash(world.channel, "mod abort")
    assert (await world.match()).status == "cancelled"
    board = await world.board()
    assert board.embeds[0].description == "🛑 This match was stopped by a moderator."
    assert board.components == []
    entries = await world.bot.store.log.entries((await world.match()).id)
    assert [(e.user_id, e.text) for e in entries] == [
        (moderator.id, "mod (moderator) aborted the match.")
    ]


async def test_a_deleted_board_is_posted_again(simcord_env: simcord.Env) -> None:
    world = World.build(simcord_env)
    await world.start("tally", "duel", [world.alice, world.bob])
    old = await world.board()
    # Gone for every route: the channel's, and the followups of the click that posted it.
    for route in (f"/channels/{world.channel.id}/messages/{old.id}", f"/webhooks/*/{old.id}"):
        simcord_env.inject_error("PATCH", route, status=404, code=10008)
    await world.alice.slash(world.channel, "play", action="banner|amber")
    new = await world.board()
    assert new.id != old.id
    assert new.embeds[0].description == "▶️ bob raises a banner."
