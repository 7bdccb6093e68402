"""Random playouts of every Tooth & Nail mode, checking the invariants after every action.

Each game is driven by random legal actions (ending the turn only now and then, so
games reach full zones, formations and eliminations). After every action: every card
is in exactly one place, zone limits and the 5-AP cap hold, whoever must decide has a
legal action, and no view shows a hand or deck order it shouldn't. At the end the log
is replayed from the seed and must reproduce every intermediate state exactly.
"""

from __future__ import annotations

import json
import random

import pytest

from rules.core import Action, SeatSpec, rng_for
from rules.tooth_and_nail import GAME, State

GAMES_PER_MODE = 200
PLAYERS = {"2p": 2, "3p": 3, "alliance": 2, "4p": 4}
MAX_ACTIONS = 3000


def play_random_game(variant: str, seed: int) -> tuple[State, list[tuple[int, Action]], list[str]]:
    """Play one game to its end; return the final state, the log and every snapshot."""
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(PLAYERS[variant])]
    state = GAME.setup(variant, seats, {}, seed)
    chooser = random.Random(seed)
    log: list[tuple[int, Action]] = []
    snapshots = [state.model_dump_json()]
    check_invariants(state)
    while GAME.outcome(state) is None:
        assert len(log) < MAX_ACTIONS, "game did not end"
        seat = chooser.choice(sorted(GAME.to_act(state)))
        legal = GAME.legal_actions(state, seat)
        assert legal, f"seat {seat} must act but has no legal action"
        assert GAME.timeout_action(state, seat) in legal
        others = [a for a in legal if a.kind != "end"]
        action = chooser.choice(others) if others and chooser.random() < 0.9 else legal[-1]
        state, events = GAME.apply(state, seat, action, rng_for(seed, len(log) + 1))
        assert events, f"{action.key} happened silently"
        log.append((seat, action))
        snapshots.append(state.model_dump_json())
        check_invariants(state)
    return state, log, snapshots


def check_invariants(state: State) -> None:
    # Every card is in exactly one place.
    places: list[int] = []
    for team in state.teams:
        places += team.deck + team.discard + team.removed + team.face_down
    for p in state.players:
        places += p.hand + [t.card for t in p.command_zone + p.war_zone]
    assert sorted(places) == list(range(len(state.cards))), "a card was lost or duplicated"
    for p in state.players:
        assert len(p.command_zone) <= state.limits["command"]
        assert len(p.war_zone) <= state.limits["war"]
        assert 0 <= p.ap <= 5
    if GAME.outcome(state) is None:
        assert GAME.to_act(state), "nobody can act but the game is not over"
    else:
        assert not GAME.to_act(state)
    for seat in [None, *range(len(state.players))]:
        check_view(state, seat)


def check_view(state: State, seat: int | None) -> None:
    view = GAME.view(state, seat)
    if seat is None:
        assert "hand" not in view and "decision" not in view
    for p in view["players"]:
        assert "hand" not in p and isinstance(p["hand_count"], int)
    for t in view["teams"]:
        assert isinstance(t["deck"], int)
    if seat is not None:
        own = sorted(state.cards[c] for c in state.players[seat].hand)
        assert sorted(c["id"] for c in view["hand"]) == own
    # No card instance number and no hidden name list leaks anywhere in the view.
    text = json.dumps(view)
    assert '"deck": [' not in text and '"face_down": [' not in text


def replay(variant: str, seed: int, log: list[tuple[int, Action]]) -> list[str]:
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(PLAYERS[variant])]
    state = GAME.setup(variant, seats, {}, seed)
    snapshots = [state.model_dump_json()]
    for seq, (seat, action) in enumerate(log, start=1):
        state, _ = GAME.apply(state, seat, Action.from_key(action.key), rng_for(seed, seq))
        snapshots.append(state.model_dump_json())
    return snapshots


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_random_playouts_end_with_a_winner_and_keep_every_invariant(variant: str) -> None:
    endings: dict[str, int] = {}
    for seed in range(GAMES_PER_MODE):
        state, log, snapshots = play_random_game(variant, seed)
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome.winners
        assert set(outcome.winners).isdisjoint(outcome.losers)
        assert replay(variant, seed, log) == snapshots, f"replay differs for seed {seed}"
        endings[outcome.reason] = endings.get(outcome.reason, 0) + 1
    assert sum(endings.values()) == GAMES_PER_MODE
