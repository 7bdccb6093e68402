"""The layers of README's architecture, checked: the rules import nothing of the bot,
and the services (`bot/service/`) import no discord, not even through another module:
everything they tell Discord goes through the outbox."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVICES = sorted((ROOT / "bot" / "service").rglob("*.py"))


def imported(path: Path) -> set[str]:
    """The modules a file imports, by their full names."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_no_service_module_imports_discord_or_the_discord_side() -> None:
    assert len(SERVICES) >= 10  # matches, store, clock, scheduler, moderation, stats...
    for path in SERVICES:
        for name in imported(path):
            top = name.split(".")[0]
            assert top != "discord", f"{path.name} imports {name}"
            if top == "bot":
                assert name.startswith("bot.service"), f"{path.name} imports {name}"


def test_loading_every_service_loads_no_discord() -> None:
    modules = ", ".join(
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for p in SERVICES
        if p.stem != "__init__"
    )
    code = f"import sys, {modules}; print('discord' in sys.modules)"
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert run.stdout.strip() == "False"


def test_the_rules_import_nothing_of_the_bot() -> None:
    for path in sorted((ROOT / "rules").rglob("*.py")):
        for name in imported(path):
            assert name.split(".")[0] not in ("bot", "cogs", "discord", "aiosqlite"), (
                f"{path.relative_to(ROOT)} imports {name}"
            )


def test_the_ai_plays_from_the_rules_alone() -> None:
    """The AI player (`ai/`) reads the rules and nothing of the bot or of storage."""
    for path in sorted((ROOT / "ai").rglob("*.py")):
        for name in imported(path):
            assert name.split(".")[0] not in ("bot", "cogs", "discord", "aiosqlite", "asyncpg"), (
                f"{path.relative_to(ROOT)} imports {name}"
            )


def test_the_league_is_pure() -> None:
    """Ratings and pairings (`league/`) read what they are given: nothing of the bot,
    of storage or of Discord."""
    for path in sorted((ROOT / "league").rglob("*.py")):
        for name in imported(path):
            assert name.split(".")[0] not in ("bot", "cogs", "discord", "aiosqlite", "asyncpg"), (
                f"{path.relative_to(ROOT)} imports {name}"
            )
