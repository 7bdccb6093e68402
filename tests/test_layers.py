"""The layers of README's architecture, checked: the rules import nothing of the bot,
the services (`bot/service/`) import no discord, not even through another module
(everything they tell Discord goes through the outbox), the bot's parts never name the
cogs or the bot's class, and no module imports itself back through others."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVICES = sorted((ROOT / "bot" / "service").rglob("*.py"))
PACKAGES = ("ai", "bot", "cogs", "league", "migrations", "rules")
# What may build the bot: its entry points (the command line, the runner, the sandbox).
ENTRY_POINTS = {"bot.__main__", "bot.runner", "bot.sandbox"}


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


def module_files() -> dict[str, Path]:
    """The project's modules, by their full names."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Which of the project's modules each one imports, type-only imports included (a
    name imported from a package counts as its module when it is one)."""
    files = module_files()

    def known(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(known(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                found.update(known(f"{base}.{a.name}") or known(base) for a in node.names)
        graph[module] = {m for m in found if m is not None and m != module}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: the groups of two or more modules that each reach the others
    (strongly connected components, by Tarjan's algorithm)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            group = []
            while (top := stack.pop()) != module:
                group.append(top)
            if group:
                found.append(sorted([*group, module]))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return found


def test_no_module_imports_itself_back_through_others() -> None:
    graph = import_graph()
    assert {"bot.app", "bot.ui", "cogs.play", "rules.core"} <= graph.keys()
    assert circles(graph) == []


def test_a_circle_is_found() -> None:
    """The finder itself: a circle of three, beside a module outside it."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert circles(graph) == [["a", "b", "c"]]


def test_the_bot_names_neither_its_cogs_nor_its_own_class() -> None:
    """The cogs are extensions loaded by name (`bot.app.EXTENSIONS`), and the parts and
    cogs see the bot as `bot.host.Host`: only the entry points build `bot.app`'s bot."""
    for module, imports in import_graph().items():
        if module.startswith("bot"):
            assert not any(m.startswith("cogs") for m in imports), f"{module} imports a cog"
        if module not in ENTRY_POINTS:
            assert "bot.app" not in imports, f"{module} imports bot.app"


def names_imported(path: Path) -> set[tuple[str, str]]:
    """The names a file imports from modules: (module, name)."""
    return {
        (node.module, alias.name)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module and not node.level
        for alias in node.names
    }


def test_only_the_bot_and_the_operators_tools_open_the_whole_store() -> None:
    """Each service is given the repositories it uses (`bot.service.store`'s
    `MatchStore`, `ClockStore`, ...): the whole `Store` is opened by the bot's start-up
    and by the operator's tools that copy a database (`transfer`), and named nowhere
    else."""
    openers = {"bot.app", "bot.service.store.transfer", "bot.service.store"}
    for module, path in module_files().items():
        if module in openers or module.startswith("bot.service.store.store"):
            continue
        taken = {
            (source, name)
            for source, name in names_imported(path)
            if source in ("bot.service.store", "bot.service.store.store") and name == "Store"
        }
        assert not taken, f"{module} takes the whole store"
