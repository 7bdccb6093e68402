"""Rules engine speed: random legal games of every Tooth & Nail mode."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from rules.core import Action, SeatSpec, rng_for
from rules.tooth_and_nail import GAME, State

PLAYERS = {"2p": 2, "3p": 3, "alliance": 2, "4p": 4}
END_TURN_ODDS = 0.1  # as in the playout tests: end the turn only now and then


@dataclass(frozen=True)
class EngineFigures:
    """What one mode measured."""

    variant: str
    games: int
    actions: int
    seconds: float
    apply_seconds: float

    @property
    def actions_per_second(self) -> float:
        """apply() calls per second of the whole random-play loop."""
        return self.actions / self.seconds

    @property
    def apply_us(self) -> float:
        """Mean microseconds inside apply() alone."""
        return self.apply_seconds / self.actions * 1e6

    @property
    def actions_per_game(self) -> float:
        """Mean length of a game, in actions."""
        return self.actions / self.games


def choose(chooser: random.Random, legal: list[Action]) -> Action:
    """A random legal action, ending the turn only now and then."""
    others = [a for a in legal if a.kind != "end"]
    if others and chooser.random() >= END_TURN_ODDS:
        return chooser.choice(others)
    return next((a for a in legal if a.kind == "end"), legal[-1])


def new_game(variant: str, seed: int) -> State:
    """A fresh game of this mode dealt from `seed`."""
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(PLAYERS[variant])]
    return GAME.setup(variant, seats, {}, seed)


def measure_mode(variant: str, budget: float) -> EngineFigures:
    """Play whole random games of one mode until `budget` seconds have passed."""
    games = actions = 0
    apply_seconds = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        seed = games
        state = new_game(variant, seed)
        chooser = random.Random(seed)
        seq = 0
        while GAME.outcome(state) is None:
            seat = chooser.choice(sorted(GAME.to_act(state)))
            action = choose(chooser, GAME.legal_actions(state, seat))
            seq += 1
            before = time.perf_counter()
            state, _ = GAME.apply(state, seat, action, rng_for(seed, seq))
            apply_seconds += time.perf_counter() - before
        games += 1
        actions += seq
    return EngineFigures(variant, games, actions, time.perf_counter() - start, apply_seconds)


def measure_engine(budget_per_mode: float) -> list[EngineFigures]:
    """Every mode, one after the other."""
    return [measure_mode(variant, budget_per_mode) for variant in PLAYERS]
