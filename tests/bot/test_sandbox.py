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
