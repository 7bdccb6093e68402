"""`python -m tests.bench`: print the engine, `/play`, SQLite and clock scheduler figures."""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from tests.bench.engine import EngineFigures, measure_engine
from tests.bench.play import Timings, time_arbiter, time_do_nothing
from tests.bench.scheduler import measure_scheduler, scheduler_table
from tests.bench.sqlite import Commits, mid_game_move, raw_commits, store_commits


def engine_table(rows: list[EngineFigures]) -> list[str]:
    """The engine section."""
    lines = [
        "Rules engine: random legal games (to_act + legal_actions + apply, one core)",
        f"  {'mode':<13}{'games':>7}{'actions':>9}{'actions/s':>11}{'µs/apply':>10}"
        f"{'actions/game':>14}",
    ]
    for r in rows:
        lines.append(
            f"  {r.variant:<13}{r.games:>7}{r.actions:>9}{r.actions_per_second:>11,.0f}"
            f"{r.apply_us:>10,.0f}{r.actions_per_game:>14.1f}"
        )
    return lines


def play_table(baseline: Timings, arbiter: Timings, unyielding: Timings, warmup: int) -> list[str]:
    """The `/play` section, with Arbiter's cost above the do-nothing bot."""
    lines = [
        f"/play under simcord: {len(arbiter.samples)} timed calls per bot after {warmup} "
        f"warm-up ({arbiter.games} Arbiter matches)",
        f"  {'bot':<28}{'mean ms':>9}{'p50 ms':>9}{'p99 ms':>9}",
    ]
    for t in (baseline, arbiter, unyielding):
        lines.append(
            f"  {t.label:<28}{t.mean_ms:>9.2f}"
            f"{t.percentile_ms(50):>9.2f}{t.percentile_ms(99):>9.2f}"
        )
    lines.insert(
        -1,
        f"  {'Arbiter − do-nothing bot':<28}{arbiter.mean_ms - baseline.mean_ms:>9.2f}"
        f"{arbiter.percentile_ms(50) - baseline.percentile_ms(50):>9.2f}"
        f"{arbiter.percentile_ms(99) - baseline.percentile_ms(99):>9.2f}",
    )
    lines.append(
        "  (*) no `await asyncio.sleep(0)` after responding: simcord's settle then waits"
        " its 50 ms idle poll"
    )
    lines.append(
        f"  per accepted action on Arbiter: {_spread(arbiter.trips)} database round trips,"
        f" {_spread(arbiter.commits)} COMMITs, {_spread(arbiter.rest)} REST calls"
        f" (the do-nothing bot: {_spread(baseline.rest)} REST calls)"
    )
    return lines


def _spread(counts: list[int]) -> str:
    """A count per call: its mean, with the range."""
    if not counts:
        return "?"
    return f"{sum(counts) / len(counts):.1f} ({min(counts)}–{max(counts)})"


def sqlite_table(rows: list[Commits], where: str) -> list[str]:
    """The SQLite section."""
    lines = [
        f"SQLite commits (WAL, one writer, temp files in {where})",
        f"  {'writer':<28}{'row bytes':>10}{'commits':>9}{'commits/s':>11}",
    ]
    for r in rows:
        lines.append(f"  {r.label:<28}{r.row_bytes:>10,}{r.commits:>9,}{r.per_second:>11,.0f}")
    return lines


async def run(args: argparse.Namespace) -> list[str]:
    """Measure everything, in order; return the printed lines."""
    started = time.perf_counter()
    lines = [
        f"Arbiter benchmarks: {os.cpu_count()} cores, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.platform(terse=True)}",
        "",
    ]
    lines += engine_table(measure_engine(args.engine_seconds))
    lines.append("")
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-") as tmp:
        baseline = await time_do_nothing(args.plays, args.warmup)
        arbiter = await time_arbiter(args.plays, args.warmup, Path(tmp) / "play.db")
        unyielding = await time_do_nothing(args.plays // 4, args.warmup, yield_once=False)
        lines += play_table(baseline, arbiter, unyielding, args.warmup)
        lines.append("")
        move = mid_game_move()
        commits = [
            await store_commits(Path(tmp) / "store.db", move, args.sqlite_seconds),
            await raw_commits(
                Path(tmp) / "raw.db", move.action + move.events + move.snapshot, args.sqlite_seconds
            ),
        ]
        lines += sqlite_table(commits, str(Path(tmp).parent))
        lines.append("")
        lines += scheduler_table(await measure_scheduler(Path(tmp) / "clocks.db", args.deadlines))
    lines += ["", f"({time.perf_counter() - started:.0f} s)"]
    return lines


def main(argv: list[str] | None = None) -> int:
    """Parse the options, measure, print."""
    parser = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__)
    parser.add_argument("--engine-seconds", type=float, default=5.0, help="per mode (5)")
    parser.add_argument("--plays", type=int, default=400, help="timed /play calls per bot (400)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed /play calls first (20)")
    parser.add_argument("--sqlite-seconds", type=float, default=3.0, help="per writer (3)")
    parser.add_argument(
        "--deadlines", type=int, default=10_000, help="stored deadlines to schedule (10,000)"
    )
    args = parser.parse_args(argv)
    print("\n".join(asyncio.run(run(args))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
