"""Running `python -m bot` as a real process, the way a container or a service manager
does, with Discord out of reach: its host names do not resolve (a `sitecustomize`
module put first on the process's path), so logging in fails at once with a connection
error, wherever the tests run and whatever network the machine has."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

NO_DISCORD = '''"""Discord's host names don't resolve in this process (tests/ops/process.py)."""
import socket

_resolve = socket.getaddrinfo


def _getaddrinfo(host, *args, **kwargs):
    name = (host.decode() if isinstance(host, bytes) else str(host or "")).rstrip(".")
    if name.lower().endswith(("discord.com", "discord.gg", "discordapp.com")):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    return _resolve(host, *args, **kwargs)


socket.getaddrinfo = _getaddrinfo
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def environment(directory: Path, settings: Mapping[str, str]) -> dict[str, str]:
    """This machine's environment without any Arbiter or Discord setting of its own,
    with `settings`, and Discord out of reach (see the module's text)."""
    path = directory / "no-discord"
    path.mkdir(exist_ok=True)
    (path / "sitecustomize.py").write_text(NO_DISCORD, encoding="utf-8")
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ARBITER_", "DISCORD_", "PYTHON"))
    }
    return {**env, "PYTHONPATH": str(path), **settings}


class Process:
    """A started process whose stderr and stdout go to a file, read as it runs."""

    def __init__(self, command: Sequence[str], cwd: Path, env: Mapping[str, str]) -> None:
        self.output = cwd / "output.log"
        with self.output.open("wb") as out:
            self.popen = subprocess.Popen(
                list(command), cwd=cwd, env=dict(env), stdout=out, stderr=subprocess.STDOUT
            )

    def text(self) -> str:
        return self.output.read_text(encoding="utf-8", errors="replace")

    def lines(self, containing: str) -> list[str]:
        return [line for line in self.text().splitlines() if containing in line]

    def wait_for_lines(self, containing: str, count: int = 1, timeout: float = 10) -> list[str]:
        """The first `count` lines that contain `containing`, once written."""
        deadline = time.monotonic() + timeout
        while len(found := self.lines(containing)) < count:
            assert self.popen.poll() is None, f"it ended ({self.popen.returncode}):\n{self.text()}"
            assert time.monotonic() < deadline, f"no {containing!r} line:\n{self.text()}"
            time.sleep(0.05)
        return found[:count]

    def get(self, url: str, timeout: float = 10) -> tuple[int, Any]:
        """The status and JSON body of a GET, as soon as the server answers at all."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    return answer.status, json.loads(answer.read())
            except urllib.error.HTTPError as refused:
                return refused.code, json.loads(refused.read())
            except OSError:  # not listening yet
                assert self.popen.poll() is None, f"it ended:\n{self.text()}"
                assert time.monotonic() < deadline, f"{url} never answered:\n{self.text()}"
                time.sleep(0.05)

    def stop(self, timeout: float = 10) -> tuple[int, float]:
        """SIGTERM; the exit status and the seconds it took to end."""
        sent = time.monotonic()
        self.popen.send_signal(signal.SIGTERM)
        try:
            status = self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()
            raise AssertionError(
                f"still running {timeout} s after SIGTERM:\n{self.text()}"
            ) from None
        return status, time.monotonic() - sent

    def end(self) -> None:
        """Kill it if it still runs (a failed test's clean-up)."""
        if self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait()
