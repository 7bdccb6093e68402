"""The AI's strength: in each 2-player variant of each game it plays, the strong AI
against uniform random play, against a one-ply greedy policy written here, and against
the easy AI, with win rates, their 95 % (Wilson) intervals and the strong AI's time per
decision.

Seats alternate (the strong AI sits first in half the games); a game still going after
MAX_ACTIONS counts as half a win. Games run in one process per core; each decision is
timed in its own process, so the figures are those of one core."""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from pydantic import BaseModel

import ai
from ai import Level
from rules.command_of_nature import State as NatureState
from rules.command_of_nature.table import elemental_def
from rules.core import Action, Game, SeatSpec, rng_for
from rules.mystic_vale import State as ValeState
from rules.mystic_vale.scoring import score as vale_score
from rules.registry import GAMES
from rules.tooth_and_nail import State as NailState


def two_player(game_id: str) -> tuple[tuple[str, str], ...]:
    """A game's variants for two players and no more (Tooth & Nail: 2p and Alliance)."""
    variants = GAMES[game_id].variants.values()
    return tuple((game_id, v.id) for v in variants if v.min_players == v.max_players == 2)


VARIANTS_2P = tuple(mode for game_id in ai.JUDGES for mode in two_player(game_id))
OPPONENTS = ("random", "greedy", "easy")
GOALS = {"random": 0.95, "greedy": 0.65, "easy": 0.75}
MAX_ACTIONS = 3000
Z95 = 1.96

Policy = Callable[[Game, BaseModel, int, list[Action], int], Action]


def uniform(game: Game, state: BaseModel, seat: int, legal: list[Action], n: int) -> Action:
    """Uniform random play."""
    return random.Random(f"uniform:{n}").choice(legal)


def plain_score(state: BaseModel, seat: int) -> float:
    """What a greedy player counts: decks (Tooth & Nail), HP left in the formations, the
    Sage's twice (Command of Nature), the score (Mystic Vale); own side less the other."""
    match state:
        case NailState():
            mine = state.team_of(seat)
            return len(mine.deck) - max(len(t.deck) for t in state.teams if t is not mine)
        case NatureState():
            totals = {}
            for side in state.sides:
                hp = 0
                for pos in side.formation.occupied():
                    e = side.formation.at(pos)
                    assert e is not None
                    card = elemental_def(state, e.card)
                    hp += (2 if card.kind == "sage" else 1) * max(0, card.hp - e.damage)
                totals[side.team] = hp
            mine = state.players[seat].team
            return totals[mine] - max(v for t, v in totals.items() if t != mine)
        case ValeState():
            others = [p.seat for p in state.players if p.seat != seat]
            return vale_score(state, seat) - max(vale_score(state, s) for s in others)
    raise TypeError(type(state))


def greedy(game: Game, state: BaseModel, seat: int, legal: list[Action], n: int) -> Action:
    """One ply: the action whose result scores best in one world its seat imagines
    (a win is best of all), ties broken at random."""
    rng = random.Random(f"greedy:{n}")
    world = game.redeal(state, seat, rng)
    team = game.team_of(state, seat)
    best: list[Action] = []
    top = -math.inf
    for action in legal:
        after, _ = game.apply(world, seat, action, rng_for(n, 0))
        outcome = game.outcome(after)
        if outcome is not None:
            won = any(game.team_of(after, s) == team for s in outcome.winners)
            value = 1e6 if won else -1e6
        else:
            value = plain_score(after, seat)
        if value > top:
            best, top = [action], value
        elif value == top:
            best.append(action)
    return rng.choice(best)


def easy(game: Game, state: BaseModel, seat: int, legal: list[Action], n: int) -> Action:
    """The bot's own easy level: it moves with the games' novice judges, so a figure
    against it is comparable only with one measured since the judges last changed."""
    return ai.decide(game, state, seat, Level.EASY, seed=n)


POLICIES: dict[str, Policy] = {"random": uniform, "greedy": greedy, "easy": easy}


@dataclass
class Result:
    """One game's result for the strong AI: 1 won, 0 lost, ½ unfinished or shared."""

    won: float
    actions: int
    decisions: list[float]


def play(game_id: str, variant: str, opponent: str, seed: int) -> Result:
    """One 2-player game of the strong AI against `opponent`, seats by seed."""
    game = GAMES[game_id]
    strong = seed % 2
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(2)]
    state = game.setup(variant, seats, {}, seed)
    policy = POLICIES[opponent]
    times: list[float] = []
    n = 0
    while game.outcome(state) is None and n < MAX_ACTIONS:
        seat = sorted(game.to_act(state))[0]
        legal = game.legal_actions(state, seat)
        if seat == strong:
            started = time.perf_counter()
            action = ai.decide(game, state, seat, Level.STRONG, seed=seed * 10_000 + n)
            if len(legal) > 1:
                times.append(time.perf_counter() - started)
        else:
            action = policy(game, state, seat, legal, seed * 10_000 + n)
        state, _ = game.apply(state, seat, action, rng_for(seed, n))
        n += 1
    outcome = game.outcome(state)
    if outcome is None:
        return Result(0.5, n, times)
    won = strong in outcome.winners
    lost = strong in outcome.losers
    return Result(1.0 if won and not lost else 0.0 if lost else 0.5, n, times)


def _play(task: tuple[str, str, str, int]) -> tuple[str, str, str, Result]:
    game_id, variant, opponent, seed = task
    return game_id, variant, opponent, play(game_id, variant, opponent, seed)


@dataclass
class Pairing:
    """The games of one game's variant and one opponent."""

    game_id: str
    variant: str
    opponent: str
    results: list[Result] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return sum(r.won for r in self.results) / len(self.results)

    def interval(self) -> tuple[float, float]:
        """Wilson's 95 % interval for the win rate."""
        n = len(self.results)
        p = self.rate
        centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def percentile(self, q: float) -> float:
        times = sorted(t for r in self.results for t in r.decisions)
        return times[min(len(times) - 1, int(q * len(times)))] if times else 0.0


def measure_ai(
    games: int,
    only: tuple[tuple[str, str], ...] = VARIANTS_2P,
    against: tuple[str, ...] = OPPONENTS,
    workers: int = 0,
    done: Callable[[Pairing], None] | None = None,
) -> list[Pairing]:
    """Play `games` games per variant (game id, variant) and opponent, spread over the
    cores; `done` hears of each pairing as soon as its games are all played (a long run
    shows its figures as it goes, and can be split by opponent)."""
    pairings = {(g, v, o): Pairing(g, v, o) for g, v in only for o in against}
    tasks = [(g, v, o, seed) for g, v in only for o in against for seed in range(games)]
    with ProcessPoolExecutor(workers or os.cpu_count() or 1) as pool:
        for game_id, variant, opponent, result in pool.map(_play, tasks, chunksize=1):
            pairing = pairings[game_id, variant, opponent]
            pairing.results.append(result)
            if done is not None and len(pairing.results) == games:
                done(pairing)
    return list(pairings.values())


def ai_table(rows: list[Pairing], seconds: float) -> list[str]:
    """The strength section."""
    budget = ai.BUDGETS[Level.STRONG]
    lines = [
        f"AI strength: the strong AI ({budget.playouts} playouts, {budget.worlds} worlds, "
        f"{budget.seconds} s at most per decision) in 2-player games, seats alternating",
        f"  {'game':<19}{'variant':<10}{'against':<9}{'games':>6}{'wins':>8}"
        f"{'95% interval':>16}{'goal':>7}{'met':>5}{'actions':>9}{'p50 ms':>8}{'p95 ms':>8}",
    ]
    lines += [ai_row(r) for r in rows]
    lines.append(f"  ({seconds:.0f} s on {os.cpu_count()} cores)")
    return lines


def ai_row(r: Pairing) -> str:
    """One pairing's line of the strength section."""
    low, high = r.interval()
    goal = GOALS[r.opponent]
    met = "yes" if r.rate >= goal else "no"
    actions = sum(x.actions for x in r.results) / len(r.results)
    return (
        f"  {r.game_id:<19}{r.variant:<10}{r.opponent:<9}{len(r.results):>6}{r.rate:>8.1%}"
        f"{f'{low:.1%}–{high:.1%}':>16}{goal:>7.0%}{met:>5}{actions:>9.0f}"
        f"{r.percentile(0.5) * 1000:>8.0f}{r.percentile(0.95) * 1000:>8.0f}"
    )
