"""Board pictures: how long each game's picture takes to draw (PNG encoding included)
and how big it is, over positions of random games of every variant."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median

from bot import pictures
from rules.core import Action, Game, SeatSpec, rng_for
from rules.registry import GAMES
from tests.bench.engine import MODES as ENGINE_MODES
from tests.bench.engine import Policy
from tests.bench.play import Mode, Timings, time_arbiter

POSITIONS = 120  # drawn per variant
GAMES_AT_MOST = 40  # random games a variant may take to give that many positions
EVERY = 3  # a position every third action, so they spread over whole games
MAX_ACTIONS = 4000


@dataclass
class PictureFigures:
    """One variant's pictures."""

    label: str
    board_ms: list[float] = field(default_factory=list)
    board_bytes: list[int] = field(default_factory=list)
    heights: list[int] = field(default_factory=list)
    private_ms: list[float] = field(default_factory=list)
    private_bytes: list[int] = field(default_factory=list)


def _policy(game: Game, variant: str) -> Policy:
    """The engine bench's way of playing the variant (any legal action otherwise)."""
    for known, name, _, policy in ENGINE_MODES:
        if known.id == game.id and name == variant:
            return policy
    return lambda chooser, legal: chooser.choice(legal)


def positions(game: Game, variant: str) -> list[tuple[dict, tuple[int, ...], list[dict]]]:
    """Public views (with whose decision it is) and the deciders' private views, from
    random games of the variant."""
    info = game.variants[variant]
    players = info.min_players
    policy = _policy(game, variant)
    found: list[tuple[dict, tuple[int, ...], list[dict]]] = []
    for seed in range(GAMES_AT_MOST):
        seats = [SeatSpec(seat=i, name=f"Player {i + 1}") for i in range(players)]
        state = game.setup(variant, seats, {}, seed)
        chooser = random.Random(seed)
        for n in range(MAX_ACTIONS):
            deciders = sorted(game.to_act(state))
            if game.outcome(state) is not None or not deciders:
                break
            if n % EVERY == 0:
                privates = [game.view(state, s) for s in deciders]
                found.append((game.view(state, None), tuple(deciders), privates))
                if len(found) >= POSITIONS:
                    return found
            seat = chooser.choice(deciders)
            legal: list[Action] = game.legal_actions(state, seat)
            state, _ = game.apply(state, seat, policy(chooser, legal), rng_for(seed, n + 1))
    return found


def measure_pictures() -> list[PictureFigures]:
    """Every variant of every game that has a board picture."""
    rows = []
    for game in GAMES.values():
        if not pictures.has_board(game.id):
            continue
        for variant in game.variants:
            figures = PictureFigures(f"{game.name.split(':')[0][:16]} {variant}")
            for view, to_act, privates in positions(game, variant):
                started = time.perf_counter()
                drawn = pictures.board(game.id, view, to_act)
                figures.board_ms.append((time.perf_counter() - started) * 1e3)
                assert drawn is not None
                figures.board_bytes.append(len(drawn.png))
                figures.heights.append(drawn.height)
                for seen in privates[:1]:
                    started = time.perf_counter()
                    mine = pictures.private(game.id, seen)
                    if mine is not None:
                        figures.private_ms.append((time.perf_counter() - started) * 1e3)
                        figures.private_bytes.append(len(mine.png))
            rows.append(figures)
    return rows


@dataclass(frozen=True)
class PlayCost:
    """One mode's `/play` with the server's boards as text only, then with pictures."""

    label: str
    text: Timings
    pictured: Timings


async def measure_play_cost(
    modes: list[Mode], plays: int, warmup: int, tmp: Path
) -> list[PlayCost]:
    """Each mode's accepted `/play` timed with board pictures off, then on."""
    found = []
    for mode in modes:
        text, _ = await time_arbiter(
            mode, plays, warmup, tmp / f"text-{mode.label}.db", pictures="text"
        )
        pictured, _ = await time_arbiter(
            mode, plays, warmup, tmp / f"pictures-{mode.label}.db", pictures="both"
        )
        found.append(PlayCost(mode.label, text, pictured))
    return found


def play_cost_table(rows: list[PlayCost]) -> list[str]:
    """What drawing the board adds to an accepted `/play` (simcord, as the /play section)."""
    plays = len(rows[0].text.samples) if rows else 0
    lines = [
        f"/play with board pictures against text only: {plays} timed calls each"
        "   target: grows by ≤ the draw's p50",
        f"  {'mode':<12}{'text ms':>9}{'pictures ms':>13}{'grew ms':>9}{'p50 grew':>10}",
    ]
    for r in rows:
        grew = r.pictured.mean_ms - r.text.mean_ms
        p50 = r.pictured.percentile_ms(50) - r.text.percentile_ms(50)
        lines.append(
            f"  {r.label:<12}{r.text.mean_ms:>9.2f}{r.pictured.mean_ms:>13.2f}"
            f"{grew:>+9.2f}{p50:>+10.2f}"
        )
    return lines


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def pictures_table(rows: list[PictureFigures]) -> list[str]:
    """The pictures section."""
    lines = [
        "Board pictures: drawn from positions of random games (PNG encoding included, one",
        "core; the bot draws them in a worker thread, off the event loop)   target: p50 ≤ 15 ms",
        f"  {'variant':<24}{'drawn':>6}{'p50 ms':>8}{'p99 ms':>8}{'kB p50':>8}{'kB max':>8}"
        f"{'px high':>9}{'hand p50':>10}{'hand kB':>9}",
    ]
    for r in rows:
        hand = f"{_p(r.private_ms, 0.5):>10.1f}" if r.private_ms else f"{'—':>10}"
        hand_kb = f"{median(r.private_bytes) / 1e3:>9.1f}" if r.private_bytes else f"{'—':>9}"
        lines.append(
            f"  {r.label:<24}{len(r.board_ms):>6}{_p(r.board_ms, 0.5):>8.1f}"
            f"{_p(r.board_ms, 0.99):>8.1f}{median(r.board_bytes) / 1e3:>8.1f}"
            f"{max(r.board_bytes) / 1e3:>8.1f}{max(r.heights):>9}{hand}{hand_kb}"
        )
    return lines
