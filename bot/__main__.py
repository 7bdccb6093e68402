"""`python -m bot`: run Arbiter with DISCORD_TOKEN, try it offline with `--sandbox`,
check a match export with `python -m bot replay FILE`, back up a running SQLite store
with `python -m bot backup --to FILE`, or move a server's database (or restore a backup)
with `python -m bot migrate-store --from arbiter.db --to postgresql://...`."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from pydantic import ValidationError

from bot.config import Settings
from bot.history import replay_export
from bot.runner import main as run_bot
from bot.service.moving import copy_store
from bot.service.store.backup import BackupRefused, backup
from bot.service.store.transfer import TransferRefused
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
    parser.add_argument(
        "--shard-count",
        type=int,
        default=None,
        help="the gateway shards in all, across every process (ARBITER_SHARD_COUNT)",
    )
    parser.add_argument(
        "--shards",
        default=None,
        help="the shards this process runs, as 0,1 or 0-3 (ARBITER_SHARDS; default: all)",
    )
    commands = parser.add_subparsers(dest="command", title="commands")
    replay = commands.add_parser(
        "replay",
        help="replay a match export (/match export) and check it reproduces the final state",
    )
    replay.add_argument("file", type=Path, help="the exported JSON file")
    moving = commands.add_parser(
        "migrate-store",
        help="copy every match and setting into another database, or restore a backup "
        "(stop the bot first), then check every match replays there",
        description="Copy every match, action, seat, deadline, outbox row and setting into "
        "another database (brought to the current schema first), then check every row and "
        "replay every match there. Stop the bot first. Also restores a backup (made by "
        "`python -m bot backup`): --from the backup file --to the bot's database, SQLite or "
        "PostgreSQL, with --replace to write over what it holds. Exit status: 0 when all "
        "checks out, 1 when a check failed, 2 when nothing was copied.",
    )
    moving.add_argument(
        "--from",
        dest="source",
        required=True,
        help="the database now, or a backup: a SQLite file (or a postgresql:// address)",
    )
    moving.add_argument(
        "--to",
        dest="target",
        required=True,
        help="the new one: a SQLite file, or postgresql://user:pass@host/db",
    )
    moving.add_argument(
        "--replace", action="store_true", help="empty the new database first if it holds rows"
    )
    saving = commands.add_parser(
        "backup",
        help="copy a SQLite store into a backup file while the bot runs, and check the copy",
        description="Copy the SQLite store into FILE with SQLite's online backup API: one "
        "consistent moment, while the bot may go on playing. The copy is checked (integrity, "
        "schema, matches, actions) before it takes FILE's name. Restore it with "
        "migrate-store. A PostgreSQL store is backed up with pg_dump. Exit status: 0 when "
        "the copy checks out, 1 when its integrity check failed, 2 when nothing was copied.",
    )
    saving.add_argument(
        "--to", dest="target", metavar="FILE", required=True, help="the backup file to write"
    )
    saving.add_argument(
        "--from",
        dest="source",
        metavar="DB",
        default=None,
        help="the SQLite file to back up (default: ARBITER_DB, from the environment or .env)",
    )
    saving.add_argument(
        "--replace", action="store_true", help="write over the backup file if it exists"
    )
    args = parser.parse_args(argv)
    if args.command == "backup":
        return backup_file(args.source, args.target, replace=args.replace)
    if args.command == "replay":
        return replay_file(args.file)
    if args.command == "migrate-store":
        return migrate_store(args.source, args.target, replace=args.replace)
    if args.sandbox:
        from bot.sandbox import run_sandbox

        asyncio.run(run_sandbox(port=args.port))
        return 0
    given = {"arbiter_shard_count": args.shard_count, "arbiter_shards": args.shards}
    try:
        settings = Settings(**{k: v for k, v in given.items() if v is not None})
    except ValidationError as wrong:
        print(
            "; ".join(str(e.get("ctx", {}).get("error", e["msg"])) for e in wrong.errors()),
            file=sys.stderr,
        )
        return 2
    if not settings.discord_token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    return run_bot(settings)


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


def migrate_store(source: str, target: str, *, replace: bool) -> int:
    """Copy a database into another and print the report: 0 when every row and every
    match checks out, 1 when one doesn't, 2 when nothing was copied (refused)."""
    try:
        report = asyncio.run(copy_store(source, target, replace=replace))
    except TransferRefused as refused:
        print(refused, file=sys.stderr)
        return 2
    print(report)
    return 0 if report.ok else 1


def backup_file(source: str | None, target: str, *, replace: bool) -> int:
    """Back up a SQLite store and print the report: 0 when the copy checks out, 1 when
    its integrity check failed, 2 when nothing was copied (refused)."""
    if source is None:
        try:
            source = Settings().arbiter_db
        except ValidationError as wrong:
            print("; ".join(str(e["msg"]) for e in wrong.errors()), file=sys.stderr)
            return 2
    try:
        report = backup(source, target, replace=replace)
    except BackupRefused as refused:
        print(refused, file=sys.stderr)
        return 2
    print(report, file=sys.stdout if report.ok else sys.stderr)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
