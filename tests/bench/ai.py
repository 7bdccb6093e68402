"""The AI's strength and conduct: in each 2-player variant of each game it plays, the
strong AI against uniform random play, against a one-ply greedy policy written here,
against the easy AI and against the baseline (the strong AI of b3a8efc, kept in
`tests.bench.baseline_ai`), with win rates, their 95 % (Wilson) intervals and the strong
AI's time per decision; then, per game and AI level (strong, and easy and baseline from
the games they played), how person-like its moves are (`tests.bench.behaviour`:
self-undoing moves, empty moves and wasted turns per 100 turns of its side), its think
time (median, p95, max, with the machine's load) and its playouts per decision.

Seats alternate (the strong AI sits first in half the games); a game still going after
MAX_ACTIONS counts as half a win. Games run in one process per core; each decision is
timed in its own process, so the figures are those of one core.

The full measure of issue 43 (100 games per 2-player variant against the baseline and
against greedy, 600 games): about 2 hours with both of 2 cores and nothing else
running (a seed's six games in about 1¼ minutes), most of it Command of Nature and
Mystic Vale, whose games run 150-600 actions of up to 0.8 s a decision. Other work on
the machine starves both AIs' searches (their time is the clock's), so run it alone:
`python -m tests.bench --ai --ai-games 100 --ai-against baseline --ai-against greedy`.
A quick look: `--ai-games 4 --ai-workers 1 --ai-against baseline` (about 20 minutes)."""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

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
from tests.bench import baseline_ai
from tests.bench.behaviour import Conduct, Watch


def two_player(game_id: str) -> tuple[tuple[str, str], ...]:
    """A game's variants for two players and no more (Tooth & Nail: 2p and Alliance)."""
    variants = GAMES[game_id].variants.values()
    return tuple((game_id, v.id) for v in variants if v.min_players == v.max_players == 2)


VARIANTS_2P = tuple(mode for game_id in ai.JUDGES for mode in two_player(game_id))
OPPONENTS = ("random", "greedy", "easy", "baseline")
# The strong AI's win rate to reach; against the baseline it depends on the game (issue 43).
GOALS = {"random": 0.95, "greedy": 0.95, "easy": 0.75}
BASELINE_GOALS = {"command-of-nature": 0.6, "mystic-vale": 0.6, "tooth-and-nail": 0.5}
# Behaviour goals (issue 43): per 100 turns, and the strong level's think time.
MOST_WASTED = 3.0
THINK_P95, THINK_MAX = 1.0, 1.5
MAX_ACTIONS = 3000
Z95 = 1.96

Policy = Callable[[Game, BaseModel, int, list[Action], int], Action]
Key = tuple[str, str, str, int]  # a game of the bench: game id, variant, opponent, seed


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
    return _deliberate(game, state, seat, Level.EASY, n)


def baseline(game: Game, state: BaseModel, seat: int, legal: list[Action], n: int) -> Action:
    """The strong AI as it was at b3a8efc (`tests.bench.baseline_ai`)."""
    return baseline_ai.decide(game, state, seat, baseline_ai.Level.STRONG, seed=n)


POLICIES: dict[str, Policy] = {
    "random": uniform,
    "greedy": greedy,
    "easy": easy,
    "baseline": baseline,
}
# The opponents that are AI levels, whose conduct is measured too: the module deciding.
AI_OPPONENTS = {"easy": ai, "baseline": baseline_ai}

# The hook for playouts per decision: the searches of `ai` and of the baseline count the
# tries of one decision in `Search.playouts`, which `decide` does not return, so the bench
# reads it off each search it makes (`count_playouts`). A search that no longer has the
# attribute reports nothing, and the table says "n/a".
PLAYOUTS = "playouts"
_last_playouts: list[int | None] = [None]


def count_playouts(module: object) -> None:
    """Have the baseline's `decide` leave the playouts of each decision it searched in
    `_last_playouts` (None when it searched none or can't say); the strong AI's
    `deliberate` says them itself."""
    search = getattr(module, "Search", None)
    if search is None or getattr(search, "bench_counts", False):
        return

    class Counted(search):  # type: ignore[misc, valid-type]
        bench_counts = True

        def best(self, legal: list[Action]) -> Action:
            _last_playouts[0] = None
            chosen = super().best(legal)
            _last_playouts[0] = getattr(self, PLAYOUTS, None)
            return chosen

    module.Search = Counted  # type: ignore[attr-defined]


def strong(game: Game, state: BaseModel, seat: int, legal: list[Action], n: int) -> Action:
    """The strong AI being measured, asked as the bot asks (`ai.deliberate`, which says
    what it spent)."""
    return _deliberate(game, state, seat, Level.STRONG, n)


def _deliberate(game: Game, state: BaseModel, seat: int, level: Level, n: int) -> Action:
    """The bot's AI at `level`, its playouts left in `_last_playouts` when it searched."""
    decision = ai.deliberate(game, state, seat, level, seed=n)
    _last_playouts[0] = decision.playouts if decision.choices else None
    return decision.action


def timed(
    policy: Policy,
    game: Game,
    state: BaseModel,
    seat: int,
    legal: list[Action],
    n: int,
    conduct: Conduct,
) -> Action:
    """An AI's decision, its time and playouts booked to `conduct` when it had a choice."""
    _last_playouts[0] = None
    started = time.perf_counter()
    action = policy(game, state, seat, legal, n)
    if len(legal) > 1:
        conduct.times.append(time.perf_counter() - started)
        if _last_playouts[0] is not None:
            conduct.playouts.append(_last_playouts[0])
    return action


@dataclass
class Result:
    """One game's result for the strong AI: 1 won, 0 lost, ½ unfinished or shared; and
    the conduct of each AI level that played (strong, and the opponent if an AI)."""

    won: float
    actions: int
    conduct: dict[str, Conduct]

    @property
    def decisions(self) -> list[float]:
        """The strong AI's seconds per decision with a choice."""
        return self.conduct["strong"].times


def play(game_id: str, variant: str, opponent: str, seed: int) -> Result:
    """One 2-player game of the strong AI against `opponent`, seats by seed."""
    count_playouts(baseline_ai)
    game = GAMES[game_id]
    first = seed % 2
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(2)]
    state = game.setup(variant, seats, {}, seed)
    policy = POLICIES[opponent]
    conduct = {"strong": Conduct()}
    if opponent in AI_OPPONENTS:
        conduct[opponent] = Conduct()
    watch = Watch(game)
    n = 0
    while game.outcome(state) is None and n < MAX_ACTIONS:
        seat = sorted(game.to_act(state))[0]
        legal = game.legal_actions(state, seat)
        key = seed * 10_000 + n
        if seat == first:
            mine = conduct["strong"]
            action = timed(strong, game, state, seat, legal, key, mine)
        elif opponent in AI_OPPONENTS:
            mine = conduct[opponent]
            action = timed(policy, game, state, seat, legal, key, mine)
        else:
            mine = None
            action = policy(game, state, seat, legal, key)
        after, _ = game.apply(state, seat, action, rng_for(seed, n))
        watch.move(state, seat, action, after, mine)
        state = after
        n += 1
    outcome = game.outcome(state)
    if outcome is None:
        return Result(0.5, n, conduct)
    won = first in outcome.winners
    lost = first in outcome.losers
    return Result(1.0 if won and not lost else 0.0 if lost else 0.5, n, conduct)


def _play(task: Key) -> tuple[str, str, str, int, Result]:
    game_id, variant, opponent, seed = task
    return game_id, variant, opponent, seed, play(game_id, variant, opponent, seed)


@dataclass
class Pairing:
    """The games of one game's variant and one opponent."""

    game_id: str
    variant: str
    opponent: str
    results: list[Result] = field(default_factory=list)

    @property
    def goal(self) -> float:
        """The win rate the strong AI should reach in this pairing."""
        if self.opponent == "baseline":
            return BASELINE_GOALS[self.game_id]
        return GOALS[self.opponent]

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
        return percentile([t for r in self.results for t in r.decisions], q)


def percentile(values: list[float], q: float) -> float:
    """The value at rank `q` (0 to 1) of these, by nearest rank (0 for none)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def measure_ai(
    games: int,
    only: tuple[tuple[str, str], ...] = VARIANTS_2P,
    against: tuple[str, ...] = OPPONENTS,
    workers: int = 0,
    done: Callable[[Pairing], None] | None = None,
    record: Path | None = None,
) -> list[Pairing]:
    """Play `games` games per variant (game id, variant) and opponent, spread over the
    cores; `done` hears of each pairing as soon as its games are all played (a long run
    shows its figures as it goes, and can be split by opponent). With `record`, each
    game is added to that file as it ends, and a game the file already holds for the
    same code (its game's `fingerprint`) is read from it instead of played: a measure of
    many hours can be run in parts, and a change to one game's AI plays that game's
    games again, not the others'."""
    pairings = {(g, v, o): Pairing(g, v, o) for g, v in only for o in against}
    # As the games start: an edit during a long run counts for the next.
    codes = {g: fingerprint(g) for g, _ in only}
    kept = recorded(record, codes) if record is not None else {}
    tasks = []
    # Seed by seed across the pairings, so that a run stopped early has figures for all.
    for seed in range(games):
        for g, v, o in pairings:
            if (g, v, o, seed) in kept:
                pairings[g, v, o].results.append(kept[g, v, o, seed])
            else:
                tasks.append((g, v, o, seed))
    for pairing in pairings.values():
        if done is not None and len(pairing.results) == games:
            done(pairing)
    with ProcessPoolExecutor(workers or os.cpu_count() or 1) as pool:
        for game_id, variant, opponent, seed, result in pool.map(_play, tasks, chunksize=1):
            if record is not None:
                write_record(record, (game_id, variant, opponent, seed), result, codes[game_id])
            pairing = pairings[game_id, variant, opponent]
            pairing.results.append(result)
            if done is not None and len(pairing.results) == games:
                done(pairing)
    return list(pairings.values())


# What every recorded game depends on: the AI's search and levels, the rules' core, the
# baseline and the measures; besides, each game's own judge and rules (`played_by`).
SHARED = (
    "ai/__init__.py",
    "ai/judges.py",
    "ai/search.py",
    "rules/__init__.py",
    "rules/core",
    "rules/registry.py",
    "tests/bench/baseline_ai",
    "tests/bench/behaviour.py",
)
# What no recorded game runs: an AI seat beside partners (team games; the bench plays
# 2-player games, which never import it).
UNPLAYED = ("ai/partners.py",)
ROOT = Path(__file__).resolve().parents[2]


def played_by(game_id: str) -> tuple[str, ...]:
    """The code a recorded game of `game_id` depends on: a change to another game's judge
    or rules leaves its games standing."""
    module = game_id.replace("-", "_")
    return (*SHARED, f"ai/{module}.py", f"rules/{module}")


def fingerprint(game_id: str) -> str:
    """A digest of the code a game of `game_id` depends on (`played_by`)."""
    digest = hashlib.sha256()
    for part in played_by(game_id):
        path = ROOT / part
        files = sorted(path.rglob("*")) if path.is_dir() else [path]
        for file in files:
            if file.is_file() and "__pycache__" not in file.parts:
                digest.update(file.relative_to(ROOT).as_posix().encode())
                digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def recorded(path: Path, codes: Mapping[str, str]) -> dict[Key, Result]:
    """The games `path` holds that were played by the code of today, by game id (each
    game's `fingerprint`)."""
    if not path.exists():
        return {}
    found: dict[Key, Result] = {}
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if row["code"] == codes.get(row["game"]):
            conduct = {level: Conduct(**c) for level, c in row["conduct"].items()}
            key = (row["game"], row["variant"], row["opponent"], row["seed"])
            found[key] = Result(row["won"], row["actions"], conduct)
    return found


def write_record(path: Path, key: Key, result: Result, code: str) -> None:
    """Add one game to `path`, with the code that played it (a `fingerprint`) and the
    machine's load."""
    game_id, variant, opponent, seed = key
    row = {
        "code": code,
        "game": game_id,
        "variant": variant,
        "opponent": opponent,
        "seed": seed,
        "won": result.won,
        "actions": result.actions,
        "conduct": {level: asdict(c) for level, c in result.conduct.items()},
        "load": os.getloadavg()[0],
    }
    with path.open("a") as file:
        file.write(json.dumps(row) + "\n")


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


LEVELS = ("strong", "easy", "baseline")


def conduct_of(rows: list[Pairing]) -> dict[tuple[str, str], tuple[int, Conduct]]:
    """Each game's and AI level's conduct over the games it played: (games, conduct)."""
    found: dict[tuple[str, str], tuple[int, Conduct]] = {}
    for pairing in rows:
        for result in pairing.results:
            for level, conduct in result.conduct.items():
                games, total = found.get((pairing.game_id, level), (0, Conduct()))
                total.add(conduct)
                found[pairing.game_id, level] = (games + 1, total)
    return found


def behaviour_table(rows: list[Pairing]) -> list[str]:
    """The conduct section: per game and AI level, the moves a person would not make
    and the time and playouts a decision took."""
    lines = [
        "AI conduct per game and level, over every game it played above (per 100 turns of"
        " its side; see tests/bench/behaviour.py)",
        f"  goals: 0 self-undoing and 0 empty moves, ≤ {MOST_WASTED:g} wasted turns; strong"
        f" think time p95 ≤ {THINK_P95 * 1000:.0f} ms, max ≤ {THINK_MAX * 1000:.0f} ms",
        f"  {'game':<19}{'level':<10}{'games':>6}{'turns':>7}{'moves':>7}{'undoing':>9}"
        f"{'empty':>7}{'wasted':>8}{'choices':>9}{'p50 ms':>8}{'p95 ms':>8}{'max ms':>8}"
        f"{'playouts':>10}{'met':>5}",
    ]
    found = conduct_of(rows)
    for game_id in dict.fromkeys(r.game_id for r in rows):
        for level in LEVELS:
            if (game_id, level) in found:
                games, conduct = found[game_id, level]
                lines.append(behaviour_row(game_id, level, games, conduct))
    lines.append(
        "  (undoing, empty, wasted: per 100 turns; choices: decisions with more than one"
        " legal action, timed; playouts: mean per timed decision, n/a if the search does"
        f" not report Search.{PLAYOUTS})"
    )
    return lines


def behaviour_row(game_id: str, level: str, games: int, c: Conduct) -> str:
    """One game's and level's line of the conduct section."""
    undoing, empty, wasted = (c.per_100_turns(n) for n in (c.self_undoing, c.empty, c.wasted))
    p50, p95, most = (percentile(c.times, q) for q in (0.5, 0.95, 1.0))
    playouts = f"{sum(c.playouts) / len(c.playouts):.0f}" if c.playouts else "n/a"
    met = undoing == 0 and empty == 0 and wasted <= MOST_WASTED
    if level == "strong":
        met = met and p95 <= THINK_P95 and most <= THINK_MAX
    return (
        f"  {game_id:<19}{level:<10}{games:>6}{c.turns:>7}{c.moves:>7}{undoing:>9.1f}"
        f"{empty:>7.1f}{wasted:>8.1f}{len(c.times):>9}{p50 * 1000:>8.0f}{p95 * 1000:>8.0f}"
        f"{most * 1000:>8.0f}{playouts:>10}{'yes' if met else 'no':>5}"
    )


def ai_row(r: Pairing) -> str:
    """One pairing's line of the strength section."""
    low, high = r.interval()
    goal = r.goal
    met = "yes" if r.rate >= goal else "no"
    actions = sum(x.actions for x in r.results) / len(r.results)
    return (
        f"  {r.game_id:<19}{r.variant:<10}{r.opponent:<9}{len(r.results):>6}{r.rate:>8.1%}"
        f"{f'{low:.1%}–{high:.1%}':>16}{goal:>7.0%}{met:>5}{actions:>9.0f}"
        f"{r.percentile(0.5) * 1000:>8.0f}{r.percentile(0.95) * 1000:>8.0f}"
    )
