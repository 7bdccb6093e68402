"""Random playouts of Command of Nature (card effects, Instants, Rituals, daybreak and
faction actions included), checking
the invariants after every action: every card in one place, no gaps in front rows, gold
within the cap, Action Points never negative, hands and deck order hidden, and the log
replaying to the same states."""

from __future__ import annotations

import json
import random

import pytest

from rules.command_of_nature import GAME, State
from rules.command_of_nature.formation import gap_to_fill
from rules.core import Action, SeatSpec, rng_for

GAMES = 200  # per variant: the bar (all must end with a winner)
MAX_ACTIONS = 6000
PLAYERS = {"2p": 2, "4p": 4}
# A table that fights: attacks first, then what keeps a turn moving.
PREFERENCE = (
    "attack",
    "choose",
    "instant",
    "let",
    "fill",
    "sage",
    "formation",
    "daybreak",
    "faction",
    "play",
    "summon",
    "buy",
    "phase",
    "done",
)


def choose(chooser: random.Random, legal: list[Action]) -> Action:
    for kind in PREFERENCE:
        picks = [a for a in legal if a.kind == kind]
        if picks and chooser.random() < (0.6 if kind == "instant" else 0.85):
            return chooser.choice(picks)
    return chooser.choice(legal)


def check_invariants(state: State) -> None:
    places = list(state.removed) + state.elementals.deck + state.elementals.row
    places += state.commands.deck + state.commands.row
    if state.attack is not None and not state.attack.landed:
        places.append(state.attack.command)  # on the table until DMG lands
    places += [played.card for played in state.in_play]  # Commands mid-resolution
    for player in state.players:
        places += player.hand + player.deck + player.discard + list(player.champions.values())
    for side in state.sides:
        places += [side.formation.at(p).card for p in side.formation.occupied()]  # type: ignore[union-attr]
        assert 0 <= side.gold <= state.limits["gold"] and 0 <= side.ap <= state.limits["ap"]
        shifting = bool(state.frames) and state.frames[-1].kind == "fill"
        setting_up = state.phase in ("sage_choice", "formation")
        if not shifting and not setting_up and GAME.outcome(state) is None:
            assert gap_to_fill(side.formation) is None, "a gap was left in a front row"
    assert sorted(places) == list(range(len(state.cards))), "a card was lost or duplicated"
    if GAME.outcome(state) is None:
        assert GAME.to_act(state)
    public = GAME.view(state, None)
    assert '"deck": [' not in json.dumps(public) and "hands" not in public
    for seat in range(len(state.players)):
        view = GAME.view(state, seat)
        # A seat's view is the public one plus who it is and its side's hands (encoding
        # only what differs keeps this check cheap enough to run after every action).
        assert {k: v for k, v in view.items() if k not in ("me", "hands")} == public
        assert '"deck": [' not in json.dumps(view["hands"])
        mates = set(state.sides[state.players[seat].team].seats)
        assert {int(s) for s in view["hands"]} == mates


def play(variant: str, seed: int) -> tuple[State, list[tuple[int, Action]], list[str]]:
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(PLAYERS[variant])]
    state = GAME.setup(variant, seats, {}, seed)
    chooser = random.Random(seed)
    log: list[tuple[int, Action]] = []
    snapshots = [state.model_dump_json()]
    while GAME.outcome(state) is None and len(log) < MAX_ACTIONS:
        seat = chooser.choice(sorted(GAME.to_act(state)))
        legal = GAME.legal_actions(state, seat)
        assert legal, f"seat {seat} must act but has nothing legal"
        assert GAME.timeout_action(state, seat) in legal
        action = choose(chooser, legal)
        state, events = GAME.apply(state, seat, action, rng_for(seed, len(log) + 1))
        assert events, f"{action.key} happened silently"
        log.append((seat, action))
        snapshots.append(state.model_dump_json())
        check_invariants(state)
    return state, log, snapshots


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_random_standard_games_keep_every_invariant_and_replay(variant: str) -> None:
    finished = 0
    for seed in range(GAMES):
        state, log, snapshots = play(variant, seed)
        finished += GAME.outcome(state) is not None
        seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(PLAYERS[variant])]
        again = GAME.setup(variant, seats, {}, seed)
        replayed = [again.model_dump_json()]
        for seq, (seat, action) in enumerate(log, start=1):
            again, _ = GAME.apply(again, seat, Action.from_key(action.key), rng_for(seed, seq))
            replayed.append(again.model_dump_json())
        assert replayed == snapshots
    assert finished == GAMES, f"only {finished} of {GAMES} games reached a winner"
