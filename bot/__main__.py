"""`python -m bot`: run Arbiter with DISCORD_TOKEN, try it offline with `--sandbox`, or
check a match export with `python -m bot replay FILE`."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from bot.app import create_bot
from bot.config import Settings
from bot.history import replay_export
from bot.service.store import NewerSchema
from rules.registry import GAMES

NO_TOKEN = (
    "No DISCORD_TOKEN set: create an application in the Discord developer portal, add a bot, "
    "and put its token in DISCORD_TOKEN (environment or .env); "
    "or try Arbiter without one: python -m bot --sandbox"
)


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run; returns the process exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run Arbiter.")
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help="no token needed: play in a local browser page against simulated players",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help="with --sandbox: the local port (default: a free one)",
    )
    commands = parser.add_subparsers(dest="command", title="commands")
    replay = commands.add_parser(
        "replay",
        help="replay a match export (/match export) and check it reproduces the final state",
    )
    replay.add_argument("file", type=Path, help="the exported JSON file")
    args = parser.parse_args(argv)
    if args.command == "replay":
        return replay_file(args.file)
    if args.sandbox:
        from bot.sandbox import run_sandbox

        asyncio.run(run_sandbox(port=args.port))
        return 0
    settings = Settings()
    if not settings.discord_token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    try:
        create_bot(settings).run(settings.discord_token, root_logger=True)
    except NewerSchema as refused:
        print(refused, file=sys.stderr)
        return 2
    return 0


def replay_file(path: Path) -> int:
    """Replay an export and print the verdict: 0 when it reproduces the final state
    exactly, 1 when it differs, 2 when the file can't be read."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        print(f"Can't read {path}: {error}", file=sys.stderr)
        return 2
    report = replay_export(document, GAMES)
    print(report)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
