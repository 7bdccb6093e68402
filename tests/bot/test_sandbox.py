"""The sandbox (`python -m bot --sandbox`): the real bot behind a page on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from bot.sandbox import CHANNEL, PLAYERS, open_sandbox, run_sandbox


def free_port() -> int:
    """A port nothing listens on at the moment, on the loopback interface."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(url: str, *, capability: str | None = None) -> tuple[int, str]:
    """GET a URL (POST `{}` with the page's access key when given); status and body."""
    request = urllib.request.Request(url)
    if capability is not None:
        request = urllib.request.Request(
            url,
            data=b"{}",
            method="POST",
            headers={"X-Simcord-Capability": capability, "Content-Type": "application/json"},
        )
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.status, response.read().decode()


async def test_the_page_answers_on_loopback_with_every_player_and_a_live_bot(
    tmp_path: Path,
) -> None:
    port = free_port()
    async with open_sandbox(tmp_path / "sandbox.db", port=port) as sandbox:
        address = urlsplit(sandbox.url)
        assert (address.hostname, address.port) == ("127.0.0.1", port)
        base = f"http://127.0.0.1:{port}/"

        status, html = await asyncio.to_thread(fetch, base)
        assert status == 200 and "<html" in html

        status, body = await asyncio.to_thread(
            fetch, base + "api/pages", capability=address.fragment
        )
        page: dict[str, Any] = json.loads(body)
        assert status == 200
        assert [v["name"] for v in page["viewers"]] == [display for _, display in PLAYERS]
        assert page["channel"]["name"] == CHANNEL
        assert page["commands"]["state"] == "available"

        guide = next(m.content for m in sandbox.channel.history() if m.content)
        first = guide.splitlines()[:2]  # the page doesn't follow the bot: the guide says so
        assert "**This page doesn't update by itself**" in first[1]
        assert "**Refresh preview**" in first[1]
        assert [p.name for p in sandbox.players] == [name for name, _ in PLAYERS]
        opened = await sandbox.players[0].slash(sandbox.channel, "match new", game="tooth-and-nail")
        assert opened.response is not None and opened.response.embeds
        assert (await sandbox.bot.matches.open_match(sandbox.channel.id)).status == "lobby"
        assert not sandbox.env.errors

    with pytest.raises(urllib.error.URLError):
        fetch(base)


async def test_run_sandbox_prints_the_url_and_stops_cleanly_on_ctrl_c(
    capsys: pytest.CaptureFixture[str],
) -> None:
    running = asyncio.create_task(run_sandbox(port=free_port()))
    printed = ""
    for _ in range(200):
        await asyncio.sleep(0.05)
        printed += capsys.readouterr().out
        if "Open http://127.0.0.1:" in printed:
            break
    assert "Open http://127.0.0.1:" in printed and "/match new" in printed
    signal.raise_signal(signal.SIGINT)
    await asyncio.wait_for(running, timeout=5)
    assert "Sandbox stopped." in capsys.readouterr().err


async def test_the_ais_moves_after_yours_are_done_when_your_action_is(tmp_path: Path) -> None:
    """Ending your turn against the AI: its whole turn (several moves) is part of your
    action, which the page shows once it is done. It used to outlast simcord's settle
    time (the AI paused 2 s a move), so the page said the outcome was uncertain and
    kept showing the AI thinking."""
    async with open_sandbox(tmp_path / "sandbox.db") as sandbox:
        ada = sandbox.players[0]
        opened = await ada.slash(
            sandbox.channel, "match new", game="tooth-and-nail", ai="strong", seed=3
        )
        assert opened.response is not None
        await ada.click(opened.response, label="Start")
        match = await sandbox.bot.matches.open_match(sandbox.channel.id)
        faction = await ada.autocomplete(sandbox.channel, "play", "action", "")
        await ada.slash(sandbox.channel, "play", action=faction[0]["value"])
        offered = await ada.autocomplete(sandbox.channel, "play", "action", "end your turn")
        before = (await sandbox.bot.matches.table(match.id)).match.version
        await ada.slash(sandbox.channel, "play", action=offered[0]["value"])  # settles
        table = await sandbox.bot.matches.table(match.id)
        assert table.match.version - before >= 4  # the AI's turn, move after move
        assert [table.user_of(s).user_id for s in table.to_act] == [ada.id]
        last = [m.content for m in sandbox.channel.history(viewer=ada) if m.content][-1]
        assert "is thinking" not in last and f"<@{ada.id}>" in last
        assert not sandbox.env.errors


async def test_a_tournament_is_seen_through_on_the_page_as_its_guide_says(
    tmp_path: Path,
) -> None:
    """The page shows the game channel only; the guide says so, and how a tournament
    goes on without its threads: Ada records each table's result. Sign-ups and
    standings name the players (an embed shows a mention as it is typed here)."""
    async with open_sandbox(tmp_path / "sandbox.db") as sandbox:
        guide = next(m.content for m in sandbox.channel.history() if m.content)
        assert f"**This page shows #{CHANNEL} only**" in guide
        assert "record each table's result as Ada with `/tournament record" in guide
        ada, *others = sandbox.players
        opened = await ada.slash(
            sandbox.channel,
            "tournament new",
            name="Cup",
            game="tooth-and-nail",
            variant="2p",
            format="swiss",
            rounds=2,
        )
        signup = opened.response
        assert signup is not None
        for player in others[:4]:
            await player.click(signup, label="Join")
        assert signup.embeds[0].fields[0].value == "Basil, Cleo, Dev, Emil"
        await ada.slash(sandbox.channel, "tournament start")
        desk = sandbox.bot.desk
        (row,) = await desk.service.tournaments.in_channel(sandbox.channel.id)
        event = await desk.service.event(row.id)
        by_id = {p.id: p for p in others}
        for game in event.round_games():
            winner = by_id[event.members(game.a)[0].user_id]
            await ada.slash(sandbox.channel, "tournament record", player=winner, result="win")
        await desk.idle()
        event = await desk.service.event(event.row.id)
        assert event.row.round == 2  # the next round follows
        shown = next(m for m in sandbox.channel.history(viewer=ada) if m.id == event.row.message_id)
        embed = shown.embeds[0]
        assert embed.title == "🏆 Cup — round 2 of 2"
        standings = next(f.value for f in embed.fields if f.name == "Standings")
        assert "<@" not in standings and "**1 point** (1 win)" in standings
        assert not sandbox.env.errors
