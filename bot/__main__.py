"""`python -m bot`: run Arbiter with DISCORD_TOKEN, or try it offline with `--sandbox`."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.app import create_bot
from bot.config import Settings

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
    args = parser.parse_args(argv)
    if args.sandbox:
        from bot.sandbox import run_sandbox

        asyncio.run(run_sandbox(port=args.port))
        return 0
    settings = Settings()
    if not settings.discord_token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    create_bot(settings).run(settings.discord_token, root_logger=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
