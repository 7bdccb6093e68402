"""ruff (lint and format, configured in pyproject.toml) is part of the test run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_lint_is_clean() -> None:
    result = _ruff("check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = _ruff("format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_rules_stay_pure() -> None:
    """rules/ never imports discord, storage, the clock or global randomness (DESIGN.md)."""
    banned = ("discord", "aiosqlite", "sqlite3", "asyncio", "time", "datetime")
    offenders = []
    for path in (ROOT / "rules").rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            words = line.split()
            imported = words[1].split(".")[0] if len(words) >= 2 else ""
            if words and words[0] in ("import", "from") and imported in banned:
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
            if "random.shuffle(" in line or "random.choice(" in line or "random.randint(" in line:
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
