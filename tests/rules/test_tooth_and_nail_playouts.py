"""Random playouts of every Tooth & Nail mode, checking the invariants after every action.

Each game is driven by random legal actions (ending the turn only now and then, so
games reach full zones, formations and eliminations). After every action: every card
is in exactly one place, zone limits and the 5-AP cap hold, whoever must decide has a
legal action, and no view shows a hand or deck order it shouldn't. In the first games of
each mode, what players read is checked too: every seat the game waits for is asked a
question (and nobody else is), no two of its legal actions share a menu label, and every
one of them says what it costs and leads to. At the end the log
is replayed from the seed and must reproduce every intermediate state exactly. Other
games have a random seat concede at a random moment (mostly early: the draft, the set-up,
the first turns; in 3 players, sometimes a second seat too): the game then ends, or plays
on without ever asking a conceded seat to decide.
"""

from __future__ import annotations

import json
import random

import pytest

from rules.core import Action, IllegalAction, SeatSpec, fresh_copy, rng_for
from rules.core.rng import shuffle
from rules.tooth_and_nail import GAME, State

GAMES_PER_MODE = 200
CHUNKS = 4  # the games of a mode run as this many tests
WORDED_GAMES_PER_MODE = 50  # games whose every step also checks labels and questions
MENU_LABEL = 100  # characters a select option shows
SCRAMBLED_GAMES_PER_MODE = 20
CONCEDING_GAMES_PER_MODE = 50
PLAYERS = {"2p": 2, "3p": 3, "alliance": 2, "4p": 4}
# Decisions before the first Action Step: the faction picks and Faction Command choices.
SET_UP_DECISIONS = {"2p": 2, "3p": 3, "alliance": 6, "4p": 10}
MAX_ACTIONS = 3000
# Every view is checked after every fourth action, after a concession and at the end
# (the views of a 4p table cost more than the move itself).
VIEWS_EVERY = 4
# One game in this many is replayed from its log and compared state by state (a replay
# costs as much as the game; the conceding and scrambled games are all replayed). These
# samplings keep the suite inside its CI budget.
REPLAYED_EVERY = 2
CONCEDE = "concede"


def play_random_game(
    variant: str, seed: int, concede_at: tuple[int, ...] = (), *, words: bool = False
) -> tuple[State, list[tuple[int, Action]], list[str]]:
    """Play one game to its end; return the final state, the log and every snapshot.
    Before the action numbered by each of `concede_at`, a random seat still in the game
    concedes (logged as a `concede` action). `words`: check what players read at every
    step (see `check_words`)."""
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(PLAYERS[variant])]
    state = GAME.setup(variant, seats, {}, seed)
    chooser = random.Random(seed)
    log: list[tuple[int, Action]] = []
    snapshots = [state.model_dump_json()]
    conceded: set[int] = set()
    check_invariants(state)
    while GAME.outcome(state) is None:
        assert len(log) < MAX_ACTIONS, "game did not end"
        if len(log) in concede_at:
            seat = concede_once(state, chooser)
            state, events = GAME.concede(state, seat, rng_for(seed, len(log) + 1))
            assert events, "a concession happened silently"
            conceded.add(seat)
            log.append((seat, Action(kind=CONCEDE)))
            snapshots.append(state.model_dump_json())
            check_invariants(state)
            check_nobody_out_decides(state, conceded)
            continue
        if words:
            check_words(state)
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
        over = GAME.outcome(state) is not None
        check_invariants(state, views=over or len(log) % VIEWS_EVERY == 0)
        if conceded:
            check_nobody_out_decides(state, conceded)
    return state, log, snapshots


def check_words(state: State) -> None:
    """Every seat the game waits for is asked a question, and nobody else is; no two of
    its legal actions read the same in a menu (labels cut to what a menu shows), and each
    one says what it costs and leads to."""
    waiting = GAME.to_act(state)
    for seat in range(len(state.players)):
        question = GAME.question(state, seat)
        if seat not in waiting:
            assert question is None, (seat, question)
            continue
        assert isinstance(question, str) and question, (state.phase, seat)
        legal = GAME.legal_actions(state, seat)
        labels = [GAME.describe(a, state)[:MENU_LABEL] for a in legal]
        assert len(set(labels)) == len(labels), sorted(labels)
        for action in legal:
            assert GAME.explain(action, state, seat), action.key


def concede_once(state: State, chooser: random.Random) -> int:
    """A random seat still in the game, half the time one the game waits for."""
    still_in = [p.seat for p in state.players if not (p.eliminated and p.revenge_done)]
    waited_for = sorted(GAME.to_act(state) & set(still_in))
    return chooser.choice(waited_for if waited_for and chooser.random() < 0.5 else still_in)


def check_nobody_out_decides(state: State, conceded: set[int]) -> None:
    """Whoever the game waits for can act, and a seat that conceded is never asked."""
    waiting = GAME.to_act(state)
    assert not waiting & conceded, f"a conceded seat is asked to decide: {waiting & conceded}"
    for seat in waiting:
        assert GAME.legal_actions(state, seat), f"seat {seat} must act but has no legal action"
    for seat in conceded:
        assert GAME.legal_actions(state, seat) == []


def check_invariants(state: State, *, views: bool = True) -> None:
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
    for seat in [None, *range(len(state.players))] if views else []:
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
        if action.kind == CONCEDE:
            state, _ = GAME.concede(state, seat, rng_for(seed, seq))
        else:
            state, _ = GAME.apply(state, seat, Action.from_key(action.key), rng_for(seed, seq))
        snapshots.append(state.model_dump_json())
    return snapshots


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("variant", list(PLAYERS))
def test_random_playouts_end_with_a_winner_and_keep_every_invariant(
    variant: str, chunk: int
) -> None:
    """200 games per mode, in chunks that test runners can share out."""
    endings: dict[str, int] = {}
    size = GAMES_PER_MODE // CHUNKS
    for seed in range(chunk * size, (chunk + 1) * size):
        state, log, snapshots = play_random_game(variant, seed, words=seed < WORDED_GAMES_PER_MODE)
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome.winners
        assert outcome.text and outcome.text.endswith("."), outcome
        assert set(outcome.winners).isdisjoint(outcome.losers)
        if seed % REPLAYED_EVERY == 0:
            assert replay(variant, seed, log) == snapshots, f"replay differs for seed {seed}"
        endings[outcome.reason] = endings.get(outcome.reason, 0) + 1
    assert sum(endings.values()) == size


def concession_moments(variant: str, chooser: random.Random) -> tuple[int, ...]:
    """When seats concede (numbers of logged actions): mostly during the draft and the
    set-up or the first turns, else anywhere in a typical game; in 3 players half the
    games see a second concession, soon after the first or later on."""
    set_up = SET_UP_DECISIONS[variant]
    roll = chooser.random()
    if roll < 0.4:
        first = chooser.randint(0, set_up)
    elif roll < 0.7:
        first = chooser.randint(set_up, set_up + 12)
    else:
        first = chooser.randint(0, 80)
    if variant == "3p" and chooser.random() < 0.5:
        return (first, first + chooser.randint(1, 3 if chooser.random() < 0.5 else 30))
    return (first,)


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_random_concessions_end_the_game_or_let_the_others_play_on(variant: str) -> None:
    """A seat may concede at any moment: with elimination (3 players) the others play on
    (the draft goes on without it, turns skip it, it is never asked to decide), else its
    side loses at once. Every invariant holds throughout and the log replays exactly."""
    chooser = random.Random(f"concessions-{variant}")
    conceded_games = 0
    for seed in range(CONCEDING_GAMES_PER_MODE):
        moments = concession_moments(variant, chooser)
        state, log, snapshots = play_random_game(variant, seed, concede_at=moments)
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome.winners
        assert set(outcome.winners).isdisjoint(outcome.losers)
        concessions = [seat for seat, action in log if action.kind == CONCEDE]
        assert set(concessions) <= set(outcome.losers)
        if concessions and variant != "3p":
            assert outcome.reason == "concession" and log[-1][1].kind == CONCEDE
        conceded_games += bool(concessions)
        assert replay(variant, seed, log) == snapshots, f"replay differs for seed {seed}"
    assert conceded_games >= CONCEDING_GAMES_PER_MODE * 3 // 4


def scramble(state: State, actor: int, action: Action, seed: int) -> State:
    """The same position with every card nobody may see (hands, deck orders, face-down
    cards) dealt again at random. The actor keeps their hand when the action names one
    of its cards, so the action means the same thing."""
    other = fresh_copy(state)
    places = [t.deck for t in other.teams] + [t.face_down for t in other.teams]
    for p in other.players:
        named = set(action.args) & {other.cards[c] for c in p.hand}
        if not (p.seat == actor and named):
            places.append(p.hand)
    pool = [c for place in places for c in place]
    shuffle(pool, random.Random(seed))
    start = 0
    for place in places:
        place[:] = pool[start : start + len(place)]
        start += len(place)
    return other


def public_until_revealed(events: list, others: list) -> tuple[list[str], list[str]]:
    """The public lines of two runs of an action, up to the first one of either that shows
    a hidden card (an action whose question shows some has it marked on its first line)."""

    def shown(lines: list) -> int:
        return next((i for i, e in enumerate(lines) if e.reveals), len(lines))

    n = min(shown(events), shown(others))
    return [e.text for e in events[:n]], [e.text for e in others[:n]]


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_what_the_table_sees_never_depends_on_hidden_cards(variant: str) -> None:
    """Replaying each action of random games on a copy whose hidden cards were dealt
    differently must show the table the same lines and, until a card is revealed, the
    same board: no prompt, question or line gives away a hand or a deck."""
    compared = 0
    for seed in range(SCRAMBLED_GAMES_PER_MODE):
        _, log, snapshots = play_random_game(variant, seed)
        for seq, ((seat, action), before) in enumerate(zip(log, snapshots, strict=False), 1):
            state = State.model_validate_json(before)
            other = scramble(state, seat, action, seed * 10_000 + seq)
            if action not in GAME.legal_actions(other, seat):
                continue  # e.g. keeping a Troop needs the copy the scramble dealt away
            rng_seed = seed * 10_000 + seq
            after, events = GAME.apply(state, seat, action, rng_for(rng_seed, 0))
            try:
                after_other, events_other = GAME.apply(other, seat, action, rng_for(rng_seed, 0))
            except IllegalAction as refusal:  # pragma: no cover - reported below
                raise AssertionError(f"{action.key} legal but refused: {refusal}") from None
            seen, seen_other = public_until_revealed(events, events_other)
            assert seen == seen_other, (variant, seed, action.key)
            if not any(e.reveals for e in events + events_other):
                public, public_other = GAME.view(after, None), GAME.view(after_other, None)
                assert public == public_other, (variant, seed, action.key)
                compared += 1
    assert compared > 100 * SCRAMBLED_GAMES_PER_MODE // 10
