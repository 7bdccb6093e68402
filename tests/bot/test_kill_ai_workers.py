"""kill -9 of a real bot whose AI thinks in worker processes: nothing of it lives on.

The bot (`tests.bot.ai_bot`, the default settings: one worker process) plays against
ada until its AI has decided in its worker; the test then notes every process the bot
started (its worker, and multiprocessing's resource tracker) and kills the bot with
SIGKILL, which runs no clean-up of its own. Within a short wait every one of those
processes must have ended, and the bot's stdout and stderr, which they inherited, must
be closed: a reader of the dead bot's output reaches its end.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.bot.fake_discord import FakeDiscord

GUILD, CHANNEL = 1 << 22, 4242
READY = 60.0  # seconds for the bot to start and its AI to decide once
GRACE = 5.0  # seconds its processes may take to end once it is killed
ROOT = Path(__file__).resolve().parents[2]

Process = tuple[int, str]  # a pid, and its start time (a pid may be used again)


def started_by(pid: int) -> list[Process]:
    """Every process below `pid` (its children, theirs...), read from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            parents.setdefault(int(stat[1]), []).append(int(entry.name))
    found: list[Process] = []
    below = list(parents.get(pid, []))
    while below:
        child = below.pop()
        stat = _stat(child)
        if stat is not None:
            found.append((child, stat[19]))
            below += parents.get(child, [])
    return found


def alive(process: Process) -> bool:
    """Whether the process still runs (a zombie no one reaped has ended)."""
    stat = _stat(process[0])
    return stat is not None and stat[19] == process[1] and stat[0] != "Z"


async def survivors(processes: list[Process], since: float) -> list[Process]:
    """Those of `processes` still running GRACE seconds after `since` (none sooner)."""
    while True:
        left = [p for p in processes if alive(p)]
        if not left or time.perf_counter() - since > GRACE:
            return left
        await asyncio.sleep(0.02)


async def end(proc: asyncio.subprocess.Process, processes: list[Process]) -> None:
    """Kill what is left of a test's processes (when it failed), and reap the first."""
    if proc.returncode is None:
        processes = [*processes, *started_by(proc.pid)]
        proc.kill()
    for process in processes:
        if alive(process):
            os.kill(process[0], signal.SIGKILL)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(proc.wait(), GRACE)


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return "(gone)"


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command's name (state, ppid, ...)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


@pytest.mark.engines
async def test_kill_9_of_the_bot_ends_its_ai_workers_and_closes_its_output(database: str) -> None:
    fake = FakeDiscord({CHANNEL: GUILD})
    base = await fake.start()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bot.ai_bot",
        database,
        base,
        str(GUILD),
        str(CHANNEL),
        cwd=ROOT,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    children: list[Process] = []
    try:
        line = await asyncio.wait_for(proc.stdout.readline(), READY)
        if line != b"ready\n":
            error = await asyncio.wait_for(proc.stderr.read(), READY)
            raise AssertionError(f"the bot didn't start: {error.decode()[-4000:]}")
        children = started_by(proc.pid)
        commands = [command_line(pid) for pid, _ in children]
        assert any("spawn_main" in c for c in commands), f"no AI worker: {commands}"

        os.kill(proc.pid, signal.SIGKILL)
        began = time.perf_counter()
        try:
            await asyncio.wait_for(asyncio.gather(proc.stdout.read(), proc.stderr.read()), GRACE)
        except TimeoutError:
            holders = [command_line(p[0]) for p in children if alive(p)]
            raise AssertionError(
                f"the killed bot's output is still open {GRACE:.0f} s on, held by {holders}"
            ) from None
        assert await asyncio.wait_for(proc.wait(), GRACE) == -signal.SIGKILL
        left = await survivors(children, began)
        assert left == [], f"outlived the bot: {[command_line(pid) for pid, _ in left]}"
        ended = time.perf_counter() - began
        print(f"\nkill -9 of the bot: its {len(children)} processes ended {ended:.2f} s on")
    finally:
        await end(proc, children)  # nothing left behind, even when the test fails
        await fake.stop()


WATCHER = """
import sys
from bot.service import lifeline
print("watching", flush=True)
lifeline.watch(int(sys.argv[1]))
"""
PARENT = f"""
import os, subprocess, sys, time
subprocess.Popen([sys.executable, "-c", {WATCHER!r}, str(os.getpid())])
time.sleep(60)
"""


async def test_where_linux_sends_no_signal_the_watch_alone_ends_an_orphan() -> None:
    """The portable half of the lifeline (`lifeline.watch`, for systems without
    Linux's signal at a parent's death): a process watching its parent ends soon after
    the parent is killed, and lets go of the output it inherited."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        PARENT,
        cwd=ROOT,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    children: list[Process] = []
    try:
        assert await asyncio.wait_for(proc.stdout.readline(), READY) == b"watching\n"
        children = started_by(proc.pid)
        assert len(children) == 1
        os.kill(proc.pid, signal.SIGKILL)
        began = time.perf_counter()
        try:
            await asyncio.wait_for(proc.stdout.read(), GRACE)
        except TimeoutError:
            raise AssertionError(f"the orphan still holds the output {GRACE:.0f} s on") from None
        assert await survivors(children, began) == []
        print(f"\nthe watch alone: the orphan ended {time.perf_counter() - began:.2f} s on")
    finally:
        await end(proc, children)
