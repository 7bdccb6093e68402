"""How an AI seat decides: from its own view only, it imagines the cards it can't see
(`Game.redeal`), tries each of its choices in a few such worlds, plays the rest of the
turn out with a quick policy (and the turns after it a judge asks for: Tooth & Nail's
plays the other side's too) and judges where each choice leads with its game's
heuristics (`ai.judges`).

Why determinization: the three games hide cards the same simple way (hands, deck
orders, market decks), their engines are exact and fast, and a whole turn is a chain of
small decisions whose worth shows only at its end. Sampling a few complete worlds
consistent with the seat's view and searching each as if it were open is the known
strong baseline for such card games (Perfect Information Monte Carlo); its known flaw,
acting as if it would learn the hidden cards, matters little when the search ends with
the turn. Every world is drawn from the sorted unseen cards and a seed the view can
know, so two states a seat can't tell apart lead it to the same decision.

Search is spent where choices matter: a judge may settle a decision alone
(`Judge.instinct`), stop a playout once the rest of the turn hardly changes its worth
(`Judge.settled`) and play it out from hunches that need no list of legal actions
(`Judge.hunch`); and a search stops early once one choice leads every other by several
standard errors of its tries (at once when tries never vary: nothing hidden bears on
the choice).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from pydantic import BaseModel

from ai.judges import PROGRESS, Judge
from rules.core import Action, Game, IllegalAction, Seat, rng_for

EXPLORE = 0.4  # UCB1's exploration weight, on values in [0, 1]
DEPTH = 80  # actions a playout may run before it is judged where it stands
SURE = 3.0  # a leader this many standard errors ahead of every other choice is the choice


@dataclass(frozen=True)
class Budget:
    """What one decision may spend: tries of a choice in a world (`playouts`), worlds
    imagined (`worlds`), and time (`seconds`: None for no limit, so that a decision
    depends only on its inputs)."""

    playouts: int
    worlds: int
    per_choice: int
    seconds: float | None = None


@dataclass
class Tally:
    """One choice's record in a search."""

    action: Action
    tries: int = 0
    total: float = 0.0
    squares: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.tries if self.tries else 0.0

    def add(self, value: float) -> None:
        self.tries += 1
        self.total += value
        self.squares += value * value

    @property
    def error(self) -> float:
        """The squared standard error of the mean."""
        if self.tries < 2:
            return math.inf
        spread = max(0.0, self.squares / self.tries - self.mean**2)
        return spread / (self.tries - 1)


Clock = Callable[[], float]


@dataclass(frozen=True)
class Decision:
    """What a search chose and what it spent: playouts run, choices searched (0 when
    the decision needed no search) and seconds taken; and what its tries judged each
    choice tried, by action key (the mean of `Judge.value`: a chance to win)."""

    action: Action
    playouts: int = 0
    choices: int = 0
    seconds: float = 0.0
    values: Mapping[str, float] = field(default_factory=dict)


class Search:
    """One decision of `seat` in `state`, searched as `Budget` allows."""

    def __init__(
        self,
        game: Game,
        judge: Judge,
        state: BaseModel,
        seat: Seat,
        seed: int,
        budget: Budget,
        clock: Clock = time.perf_counter,
    ) -> None:
        self.game = game
        self.judge = judge
        self.state = state
        self.seat = seat
        self.team = game.team_of(state, seat)
        self.budget = budget
        self.seed = seed
        self.clock = clock
        self.rng = random.Random(f"ai:{seed}")
        self.worlds: list[BaseModel] = []
        self.playouts = 0
        self.deadline: float | None = None  # the clock's reading the decision must end by

    def best(self, legal: list[Action]) -> Action:
        """The legal action whose tries judged best (see `decide`)."""
        return self.decide(legal).action

    def decide(self, legal: list[Action]) -> Decision:
        """The legal action whose tries judged best, and what finding it cost: on a tie,
        one that moves the game on (`PROGRESS`), then the more tried, then the first
        shortlisted. The clock is looked at before every try and at every step of one:
        past `budget.seconds` the choice is made from the tries finished so far (the
        shortlist's first if none)."""
        started = self.clock()
        limit = self.budget.seconds
        self.deadline = None if limit is None else started + limit

        tallies: list[Tally] = []

        def done(action: Action, choices: int = 0) -> Decision:
            values = {t.action.key: t.mean for t in tallies if t.tries}
            return Decision(action, self.playouts, choices, self.clock() - started, values)

        if len(legal) == 1:
            return done(legal[0])
        world = self._world(0)
        hint = self.judge.instinct(self.game, world, self.seat, legal)
        if hint is not None:
            return done(hint)
        shortlist = self.judge.shortlist(self.game, world, self.seat, legal)
        tallies = [Tally(action) for action in shortlist]
        if len(tallies) == 1:
            return done(tallies[0].action, 1)
        wanted = min(self.budget.playouts, self.budget.per_choice * len(tallies))
        while self.playouts < wanted and not self._late():
            tally = self._next(tallies)
            value = self._try(tally.action, tally.tries)
            if value is None:  # the time ran out during the try
                break
            tally.add(value)
            self.playouts += 1
            if settled(tallies, self.judge.sure_after):
                break
        tried = [t for t in tallies if t.tries] or tallies[:1]
        best = max(tried, key=lambda t: (t.mean, t.action.kind in PROGRESS, t.tries))
        return done(best.action, len(tallies))

    def _next(self, tallies: list[Tally]) -> Tally:
        """The choice to try next: each once, then by UCB1."""
        for tally in tallies:
            if not tally.tries:
                return tally
        log_n = math.log(self.playouts)
        return max(tallies, key=lambda t: t.mean + EXPLORE * math.sqrt(log_n / t.tries))

    def _world(self, n: int) -> BaseModel:
        """The `n`th imagined world (of `budget.worlds`, reused in turn), drawn lazily."""
        n %= self.budget.worlds
        while len(self.worlds) <= n:
            self.worlds.append(self.game.redeal(self.state, self.seat, self.rng))
        return self.worlds[n]

    def _late(self) -> bool:
        """Whether the decision's time is up."""
        return self.deadline is not None and self.clock() > self.deadline

    def _try(self, action: Action, n: int) -> float | None:
        """Play `action` in world n, the turn out with the quick policy, and judge it
        (None if the decision's time ran out before the turn did).

        The kth try of every choice meets the same world and the same luck, so choices
        are compared on equal terms."""
        luck = rng_for(self.seed, n)
        try:
            state, _ = self.game.apply(self._world(n), self.seat, action, luck)
        except IllegalAction:  # pragma: no cover - legal in the seat's view is legal in any world
            return 0.0
        end = self.play_out(state, luck)
        return None if end is None else self.judge.value(self.game, end, self.seat)

    def play_out(self, state: BaseModel, luck: random.Random) -> BaseModel | None:
        """Play on with the quick policy until the turn the decision is made in ends and
        the judge's `turns_after` turns after it (or the game, or the judge calls it
        settled); None if the decision's time runs out first."""

        def turn(at: BaseModel) -> tuple[tuple[int, int], int]:
            return turn_of(self.game, at, self.seat, self.team), self.judge.turn(at)

        # The turn the decision is made in: every choice's playout stops where it ends,
        # a choice that ends it at once included (judged as the next turn begins), or
        # where the judge's `turns_after` further turns end.
        current = turn(self.state)
        ended = 0
        for _ in range(DEPTH):
            if self._late():
                return None
            if self.game.outcome(state) is not None:
                break
            if (now := turn(state)) != current:
                current, ended = now, ended + 1
                if ended > self.judge.turns_after:
                    break
            if self.judge.settled(self.game, state, self.seat):
                break
            deciders = sorted(self.game.to_act(state))
            if not deciders:
                break
            who = deciders[0]
            after = self._hunch(state, who, luck)
            if after is None:
                legal = self.game.legal_actions(state, who)
                if not legal:
                    break
                action = self.judge.quick(self.game, state, who, legal, luck)
                after, _ = self.game.apply(state, who, action, luck)
            state = after
        return state

    def _hunch(self, state: BaseModel, who: Seat, luck: random.Random) -> BaseModel | None:
        """The state after the first of the judge's hunches that is legal, if any."""
        for action in self.judge.hunch(self.game, state, who, luck) or ():
            try:
                after, _ = self.game.apply(state, who, action, luck)
            except IllegalAction:
                continue
            return after
        return None


def settled(tallies: list[Tally], least: int) -> bool:
    """Whether more tries would hardly change the choice: every choice tried a few times
    (`least`) and the leader ahead of each other by SURE standard errors (at once when the tries
    never vary, as when nothing hidden or random bears on the choice)."""
    if any(t.tries < least for t in tallies):
        return False
    leader = max(tallies, key=lambda t: t.mean)
    for other in tallies:
        if other is not leader:
            gap = leader.mean - other.mean
            if gap < SURE * math.sqrt(leader.error + other.error):
                return False
    return True


def turn_of(game: Game, state: BaseModel, seat: Seat, team: int) -> tuple[int, int]:
    """Whose turn it is, as far as a playout cares: the active team, or during set-up
    whether `seat` still has something to decide."""
    active = game.active_seat(state)
    if active is None:
        return (-1, int(seat in game.to_act(state)))
    return (game.team_of(state, active), 0)
