"""`python -m tests.bench`: print the engine, `/play`, SQLite, clock scheduler, taps,
board picture, match creation, Discord calls per action, concurrency, stores, metrics'
cost and AI figures.

The metrics section (`--only metrics`): `/play` in the crowd mode (`--crowd-mode`) with
the metrics counted and with a stand-in that counts nothing, in alternating rounds, and
what they add to a call's CPU time.

The `/play` sections: each game's cost beside a do-nothing bot, early against late
in long matches, and 1 against many open matches. A quick run: `--plays 60
--engine-seconds 0.5 --sqlite-seconds 0.5 --deadlines 1000 --long-matches 1
--crowd-actions 0`; `--only play` runs just the `/play` sections, `--taps` just the taps a
turn takes through the bot, `--ai` just the AI's strength and conduct
(`--ai-games 4 --ai-workers 1 --ai-against baseline` for a quick look; the full measure
of issue 43 is in tests/bench/ai.py)."""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from tests.bench.ai import (
    OPPONENTS,
    VARIANTS_2P,
    ai_row,
    ai_table,
    behaviour_table,
    measure_ai,
)
from tests.bench.calls import calls_table, measure_calls
from tests.bench.concurrency import concurrency_table, measure_concurrency
from tests.bench.creation import creation_table, measure_creation
from tests.bench.engine import EngineFigures, measure_engine
from tests.bench.pictures import (
    measure_pictures,
    measure_play_cost,
    pictures_table,
    play_cost_table,
)
from tests.bench.play import (
    HARNESS,
    Crowd,
    GameFigures,
    Harness,
    MetricsCost,
    Mode,
    Timings,
    Windows,
    find_mode,
    growth,
    not_timed,
    time_crowd,
    time_do_nothing,
    time_games,
    time_metrics,
    time_windows,
)
from tests.bench.scheduler import measure_scheduler, scheduler_table
from tests.bench.sqlite import Commits, mid_game_move, raw_commits, store_commits
from tests.bench.stores import measure_stores, stores_table
from tests.bench.taps import measure_taps, taps_table

SECTIONS = (
    "engine",
    "play",
    "sqlite",
    "scheduler",
    "taps",
    "pictures",
    "creation",
    "calls",
    "concurrency",
    "stores",
    "metrics",
    "ai",
)
IDLE_MS = 20.0  # more idle time than this in a call (its mean − CPU) is pointed out
DEFAULT_MODES = "tooth-and-nail:2p,command-of-nature:2p,mystic-vale:2p"


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


def games_table(
    rows: list[GameFigures], floor: Timings, warmup: int, harness: Harness
) -> list[str]:
    """The `/play` section per game: Arbiter beside the do-nothing bot, and what each
    accepted action cost."""
    plays = len(rows[0].arbiter.samples)
    lines = [
        f"/play per game under simcord: {plays} timed calls per bot after {warmup} warm-up",
        "  (bare = the do-nothing discord.py bot answering the same /play in the same harness,",
        "  timed just before each game; CPU = the process's CPU time, every thread's; each",
        f"  call settled for at most {harness.settle:g} s, polled every"
        f" {harness.poll * 1e3:g} ms, {_pace(harness)})",
        f"  {'':<18}{'Arbiter, ms':^32}{'bare, ms':^24}{'Arbiter/bare':^21}",
        f"  {'game':<10}{'matches':>8}{'mean':>8}{'p50':>8}{'p99':>8}{'CPU':>8}"
        f"{'mean':>8}{'p99':>8}{'CPU':>8}{'mean':>7}{'p99':>7}{'CPU':>7}   target: mean ≤ 2×",
    ]
    for r in rows:
        a, b = r.arbiter, r.bare
        lines.append(
            f"  {r.mode.label:<10}{a.games:>8}{a.mean_ms:>8.2f}{a.percentile_ms(50):>8.2f}"
            f"{a.percentile_ms(99):>8.2f}{a.cpu_ms:>8.2f}{b.mean_ms:>8.2f}"
            f"{b.percentile_ms(99):>8.2f}{b.cpu_ms:>8.2f}{r.mean_ratio:>6.1f}×"
            f"{r.p99_ratio:>6.1f}×{a.cpu_ms / b.cpu_ms:>6.1f}×   {_ok(r.mean_ratio <= 2)}"
        )
    f = floor
    lines.append(
        f"  floor: {f.label} (answers, then edits two channel messages, as Arbiter's action"
        f" does; no game, no database), {len(f.samples)} calls: mean {f.mean_ms:.2f} ms,"
        f" p99 {f.percentile_ms(99):.2f} ms, CPU {f.cpu_ms:.2f} ms; Arbiter/floor (mean): "
        + ", ".join(f"{r.mode.label} {r.arbiter.mean_ms / f.mean_ms:.1f}×" for r in rows)
    )
    lines.append(
        "  Arbiter's I/O alone: one of its accepted actions done again and again with"
        " nothing else (its store's transaction, synced first, then the same answer and"
        " two edits with the same bodies; no game, rendering, clocks or publisher):"
    )
    for r in rows:
        if r.io is None:
            lines.append(f"    {r.mode.label:<8}no call made the usual three requests")
            continue
        io, b = r.io, r.bare
        lines.append(
            f"    {r.mode.label:<8}mean {io.mean_ms:.2f} ms, p99 {io.percentile_ms(99):.2f} ms,"
            f" CPU {io.cpu_ms:.2f} ms: {io.mean_ms / b.mean_ms:.1f}× the bare bot;"
            f" Arbiter {r.arbiter.mean_ms / io.mean_ms:.1f}× its own I/O"
        )
    for r in rows:
        idle = r.arbiter.mean_ms - r.arbiter.cpu_ms
        if idle > IDLE_MS:
            lines.append(
                f"  {r.mode.label}: {idle:.0f} ms of each call idle (mean − CPU): simcord's"
                " settle waiting, for a bot's timer or a poll"
            )
    lines.append(
        f"  {'per accepted /play':<20}{'round trips (≤ 10)':<34}{'COMMITs (exactly 1)':<34}"
        "REST calls (≤ 3)"
    )
    for r in rows:
        lines.append(f"  {r.mode.label:<20}{_counts(r.arbiter)}")
    bare_rest = [n for r in rows for n in r.bare.rest]
    paused = ', the pause after it included ("after": its share)' if harness.pace else ""
    lines.append(
        f"  (mean (range) per call{paused}; the do-nothing bot: {_spread(bare_rest)} REST"
        " calls per /play)"
    )
    lines += [f"  {line}" for line in _refusals([r.arbiter for r in rows])]
    lines += [f"  {line}" for line in not_timed()]
    return lines


def metrics_table(cost: MetricsCost) -> list[str]:
    """The section on what counting the metrics costs a `/play`."""
    on, off = MetricsCost.cpu(cost.on), MetricsCost.cpu(cost.off)
    plays = len(cost.on[0].samples)
    met = cost.share < 0.02 or cost.share <= cost.noise
    return [
        f"Metrics' cost per /play ({cost.mode.label}, {len(cost.on)} rounds of {plays} calls"
        " with them and without, alternating)",
        f"  CPU per call: {on:.2f} ms with, {off:.2f} ms without: {cost.share:+.1%}"
        f" (the rounds' own spread: ±{cost.noise:.1%}); target: under 2 % or within the"
        f" spread   {_ok(met)}",
        "  rounds with:    " + ", ".join(f"{t.cpu_ms:.2f}" for t in cost.on) + " ms",
        "  rounds without: " + ", ".join(f"{t.cpu_ms:.2f}" for t in cost.off) + " ms",
    ]


def windows_table(w: Windows) -> list[str]:
    """The section comparing `/play` early and late in long matches."""
    lines = [
        f"/play early against late in a match: {w.mode.label}, {_matches(len(w.lengths))}"
        f" played (to actions {', '.join(str(n) for n in w.lengths)}), {w.pooled} pooled",
    ]
    if len(w.early.samples) == 0 or len(w.late.samples) == 0:
        return [*lines, "  no match lasted long enough for two windows"]
    if w.late_span != w.asked_late:
        lines.append(
            f"  no match reached action {w.asked_late[1]}: the late window is actions"
            f" {w.late_span[0]}–{w.late_span[1]} of the longest, before the one that ended it"
        )
    lines += _window_rows([w.early, w.late])
    lines.append(f"  late − early: {_growth(w.early, w.late)}")
    lines.append("  target: no growth beyond noise (± 2 standard errors)")
    return lines


def crowd_table(c: Crowd, warmup: int) -> list[str]:
    """The section comparing `/play` with one open match and with many."""
    others = c.open_matches - 1
    lines = [
        f"/play with 1 against {c.open_matches:,} open matches: {c.mode.label},"
        f" {len(c.alone.samples)} timed calls after {warmup} warm-up on each database",
        "  (the same matches and picks both times; the others: started through the match"
        f" service in channels of their own, {c.crowd_actions} /play each, made in"
        f" {c.fill_seconds:.1f} s;",
        f'  "{c.elsewhere.label}": each call in the least recently played of the'
        f" {others:,} others)",
    ]
    lines += _window_rows([c.alone, c.crowded, c.elsewhere], label="database")
    lines.append(f"  {c.crowded.label} − 1: {_growth(c.alone, c.crowded)}")
    if c.elsewhere.samples:
        lines.append(f"  {c.elsewhere.label} − 1: {_growth(c.alone, c.elsewhere)}")
    lines.append("  target: no growth beyond noise (± 2 standard errors)")
    lines += [f"  {line}" for line in _refusals([c.alone, c.crowded, c.elsewhere])]
    return lines


def _window_rows(rows: list[Timings], label: str = "window") -> list[str]:
    """Timings side by side: calls, mean, p50, p99, CPU, and the counts per accepted call."""
    lines = [
        f"  {label:<24}{'calls':>6}{'mean ms':>9}{'p50 ms':>9}{'p99 ms':>9}{'CPU ms':>9}"
        f"   {'round trips':<26}{'COMMITs':<22}{'REST calls'}"
    ]
    for t in rows:
        if not t.samples:
            continue
        lines.append(
            f"  {t.label:<24}{len(t.samples):>6}{t.mean_ms:>9.2f}{t.percentile_ms(50):>9.2f}"
            f"{t.percentile_ms(99):>9.2f}{t.cpu_ms:>9.2f}   {_with_after(t, 0):<26}"
            f"{_with_after(t, 1):<22}{_with_after(t, 2)}"
        )
    return lines


def _growth(before: Timings, after: Timings) -> str:
    """How much the mean time and round trips grew, against twice their standard error."""
    ms, ms_noise = growth(before.samples, after.samples)
    trips, trips_noise = growth([float(n) for n in before.trips], [float(n) for n in after.trips])
    return (
        f"{ms * 1e3:+.2f} ± {ms_noise * 1e3:.2f} ms ({_noise(ms, ms_noise)}),"
        f" {trips:+.1f} ± {trips_noise:.1f} round trips ({_noise(trips, trips_noise)})"
    )


def _noise(change: float, noise: float) -> str:
    """Whether a change is beyond its noise (± 2 standard errors)."""
    if change > noise:
        return "GREW"
    return "fell" if change < -noise else "within noise"


def _counts(t: Timings) -> str:
    """Round trips, COMMITs and REST calls per accepted call, each against its target."""
    return (
        f"{_with_after(t, 0) + '  ' + _at_most(t.trips, 10):<34}"
        f"{_with_after(t, 1) + '  ' + _ok(set(t.commits) == {1}):<34}"
        f"{_with_after(t, 2) + '  ' + _at_most(t.rest, 3)}"
    ).rstrip()


def _matches(n: int) -> str:
    """ "1 match", "3 matches"."""
    return f"{n} match" if n == 1 else f"{n} matches"


def _pace(harness: Harness) -> str:
    """What happens between two calls."""
    if not harness.pace:
        return "simcord's virtual clock standing still between calls"
    return f"then simcord's virtual clock moved on {harness.pace:g} s (untimed)"


def _with_after(t: Timings, which: int) -> str:
    """Round trips (0), COMMITs (1) or REST calls (2) per accepted call, and the mean
    share of the pause after it."""
    counts = (t.trips, t.commits, t.rest)[which]
    later = t.later(which)
    share = sum(later) / len(later) if later else 0.0
    return _spread(counts) + (f", {share:.1f} after" if share >= 0.05 else "")


def _at_most(counts: list[int], limit: int) -> str:
    """ok: every call within `limit`; "mean ok": the mean is, some calls are not."""
    if counts and max(counts) <= limit:
        return "ok"
    return "mean ok" if counts and sum(counts) / len(counts) <= limit else "MISSED"


def _ok(met: bool) -> str:
    """A target's verdict."""
    return "ok" if met else "MISSED"


def _refusals(rows: list[Timings]) -> list[str]:
    """A line for each set of calls the bot refused some of (none expected)."""
    return [f"{t.label}: {t.refused} calls refused" for t in rows if t.refused]


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


async def run(args: argparse.Namespace) -> None:
    """Measure the sections asked for, in order, printing each once it is measured."""
    started = time.perf_counter()
    only = set(args.only or SECTIONS) | ({"taps"} if args.taps else set())
    if args.taps and not args.only:
        only = {"taps"}
    if args.store and not args.only:
        only = {"stores"}
    if args.ai and not args.only:
        only = {"ai"}
    show(
        f"Arbiter benchmarks: {os.cpu_count()} cores, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.platform(terse=True)}",
        load_line(),
    )
    if "engine" in only:
        show("", *engine_table(measure_engine(args.engine_seconds)))
    if "ai" in only:
        begun = time.perf_counter()
        pairings = measure_ai(
            args.ai_games,
            tuple(m for ms in args.ai_game or [VARIANTS_2P] for m in ms),
            tuple(args.ai_against or OPPONENTS),
            workers=args.ai_workers,
            done=lambda p: print(f"done:{ai_row(p)}", flush=True),
            record=args.ai_record,
        )
        show("", *ai_table(pairings, time.perf_counter() - begun))
        show("", *behaviour_table(pairings), load_line())
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-") as tmp:
        if "play" in only:
            await play_sections(args, Path(tmp))
        if "sqlite" in only:
            move = mid_game_move()
            commits = [
                await store_commits(Path(tmp) / "store.db", move, args.sqlite_seconds),
                await raw_commits(
                    Path(tmp) / "raw.db",
                    move.action + move.events + move.snapshot,
                    args.sqlite_seconds,
                ),
            ]
            show("", *sqlite_table(commits, str(Path(tmp).parent)))
        if "scheduler" in only:
            figures = await measure_scheduler(Path(tmp) / "clocks.db", args.deadlines)
            show("", *scheduler_table(figures))
        if "taps" in only:
            show("", *taps_table(await measure_taps()))
        if "creation" in only:
            show("", *creation_table(await measure_creation()))
        if "calls" in only:
            show("", *calls_table(await measure_calls()))
        if "concurrency" in only:
            show("", *concurrency_table(await measure_concurrency()), load_line())
        if "stores" in only:
            engines = ("sqlite", args.store) if args.store else ("sqlite", "postgresql")
            show("", *stores_table(await measure_stores(engines)), load_line())
        if "metrics" in only:
            cost = await time_metrics(args.crowd_mode, args.plays, args.warmup, Path(tmp))
            show("", *metrics_table(cost), load_line())
        if "pictures" in only:
            show("", *pictures_table(measure_pictures()))
            cost = await measure_play_cost(args.modes, args.plays, args.warmup, Path(tmp))
            show("", *play_cost_table(cost))
    show("", f"({time.perf_counter() - started:.0f} s)")


async def play_sections(args: argparse.Namespace, tmp: Path) -> None:
    """The three `/play` sections: per game, early against late, 1 against many matches."""
    harness = Harness(args.settle_timeout, args.pace)
    games = await time_games(args.modes, args.plays, args.warmup, tmp, harness=harness)
    floor = await time_do_nothing(args.plays, args.warmup, traffic=True, harness=harness)
    show("", *games_table(games, floor, args.warmup, harness))
    if args.long_matches:
        windows = await time_windows(
            args.long_mode,
            args.early,
            args.late,
            args.long_matches,
            args.long_tries,
            tmp / "long.db",
            harness=harness,
        )
        show("", *windows_table(windows))
    else:
        show("", "/play early against late: not timed (--long-matches 0)")
    crowd = await time_crowd(
        args.crowd_mode,
        args.crowd_plays,
        args.warmup,
        args.open_matches,
        args.crowd_actions,
        tmp,
        harness=harness,
    )
    show("", *crowd_table(crowd, args.warmup))


def load_line() -> str:
    """The machine's load average now: figures taken under load are not a quiet run's."""
    one, five, fifteen = os.getloadavg()
    cores = os.cpu_count()
    return f"Load average: {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min; {cores} cores)"


def show(*lines: str) -> None:
    """Print these lines now (a full run takes minutes)."""
    print("\n".join(lines), flush=True)


def span(text: str) -> tuple[int, int]:
    """Action numbers "first-last", both included."""
    first, _, last = text.partition("-")
    if not (first.isdigit() and last.isdigit()) or not 1 <= int(first) <= int(last):
        raise argparse.ArgumentTypeError(f"expected first-last action numbers, got {text!r}")
    return int(first), int(last)


def modes(text: str) -> list[Mode]:
    """Modes "game-id:variant", comma-separated."""
    try:
        return [find_mode(spec.strip()) for spec in text.split(",") if spec.strip()]
    except ValueError as unknown:
        raise argparse.ArgumentTypeError(str(unknown)) from None


def mode(text: str) -> Mode:
    """One mode, "game-id:variant"."""
    try:
        return find_mode(text)
    except ValueError as unknown:
        raise argparse.ArgumentTypeError(str(unknown)) from None


def ai_variants(text: str) -> tuple[tuple[str, str], ...]:
    """The AI's 2-player variants a spec names: "game-id" (all of that game's) or
    "game-id:variant"."""
    game_id, _, variant = text.partition(":")
    chosen = tuple(m for m in VARIANTS_2P if m[0] == game_id and variant in ("", m[1]))
    if not chosen:
        names = ", ".join(f"{g}:{v}" for g, v in VARIANTS_2P)
        raise argparse.ArgumentTypeError(
            f"no 2-player variant {text!r} the AI plays; known: {names}"
        )
    return chosen


def main(argv: list[str] | None = None) -> int:
    """Parse the options, measure, print."""
    parser = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__)
    add = parser.add_argument
    add("--only", action="append", choices=SECTIONS, help="run only this section (repeatable)")
    add("--taps", action="store_true", help="only the taps a turn takes (as --only taps)")
    add(
        "--store",
        choices=("postgresql",),
        help="only the stores: SQLite in one process, this engine in 1, 2 and 4",
    )
    add("--ai", action="store_true", help="only the AI's strength and conduct (as --only ai)")
    add("--ai-games", type=int, default=200, help="AI games per game and opponent (200)")
    add(
        "--ai-game",
        action="append",
        type=ai_variants,
        help="the AI's strength at this game (game-id) or variant (game-id:variant)",
    )
    add("--ai-against", action="append", choices=OPPONENTS, help="only against this opponent")
    add("--ai-workers", type=int, default=0, help="processes for AI games (0: one per core)")
    add(
        "--ai-record",
        type=Path,
        help="add each AI game to this file as it ends, and take the games it holds for "
        "the same code instead of playing them again (a long measure run in parts)",
    )
    add("--engine-seconds", type=float, default=5.0, help="per mode (5)")
    add("--plays", type=int, default=400, help="timed /play calls per bot and game (400)")
    add("--warmup", type=int, default=20, help="untimed /play calls first (20)")
    add("--modes", type=modes, default=modes(DEFAULT_MODES), help=f"per game ({DEFAULT_MODES})")
    add(
        "--long-mode",
        type=mode,
        default=mode("mystic-vale:2p"),
        help="early against late (mystic-vale:2p)",
    )
    add("--early", type=span, default=(5, 15), help="early actions timed (5-15)")
    add("--late", type=span, default=(295, 305), help="late actions timed (295-305)")
    add("--long-matches", type=int, default=3, help="matches pooled early and late (3)")
    add("--long-tries", type=int, default=8, help="most matches opened to find them (8)")
    add(
        "--crowd-mode",
        type=mode,
        default=mode("tooth-and-nail:2p"),
        help="1 against many (tooth-and-nail:2p)",
    )
    add("--open-matches", type=int, default=1000, help="open matches in the crowd (1,000)")
    add("--crowd-plays", type=int, default=60, help="timed /play calls per database (60)")
    add("--crowd-actions", type=int, default=1, help="/play calls in each other match (1)")
    add(
        "--settle-timeout",
        type=float,
        default=HARNESS.settle,
        help=f"seconds simcord settles each /play for, at most ({HARNESS.settle:g})",
    )
    add(
        "--pace",
        type=float,
        default=HARNESS.pace,
        help=f"virtual seconds after each /play, untimed ({HARNESS.pace:g})",
    )
    add("--sqlite-seconds", type=float, default=3.0, help="per writer (3)")
    add("--deadlines", type=int, default=10_000, help="stored deadlines to schedule (10,000)")
    asyncio.run(run(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
