"""Random playouts of Historia's Ways of Command: 200 matches for each of 2, 4 and 6
civilizations. A random table names its civilizations (from a small pool, so some names
are taken), reports territories (from a small pool, so territories get shared), levels
and cubes, activates tokens when it may, disputes reports (withdrawn or taken back),
takes back its own, counts its turns and reports the end of its Eras (agreed, now and
then objected to), then reports a winner and agrees; some players concede on the way.
Malformed and illegal words are sent too: each must be refused with IllegalAction,
leaving the position as it was.

After every action: each civilization's cubes are whole (its places and its token's
cube make CUBES); no token is active past its Era; a level is its reported base, plus 2
while its power is active; and the view serialises. Every few actions, no two of a
seat's choices read alike and the seats the table waits for are asked and can act. At
the end each match is over, and replaying its actions from the set-up gives the same
state.
"""

from __future__ import annotations

import json
import random

import pytest

from rules.core import Action, IllegalAction, SeatSpec, rng_for
from rules.historia_command import GAME, State
from rules.historia_command.standings import level
from rules.historia_command.state import CUBES, PLACES, TRACKS

GAMES = 200  # per table size: the bar
CHUNKS = 4  # each size's matches run as this many tests
PLAYERS = (2, 4, 6)
MAX_ACTIONS = 1500
WORDS_EVERY = 16  # check labels and questions every Nth action
CONCEDE_EVERY = 6  # one match in this many has a concession (two in a 6-player one)
CONCEDE = "concede"
PROGRESS = 0.15  # how often a try in an Era reports the next turn (or the Era's end)
MENU = 0.5  # below this (and above PROGRESS), a try in an Era looks at the seat's menu
CIV_POOL = ("Romans", "Rome", "Greeks", "Persians", "Egyptians", "Carthage", "Huns", "Maya")
TERRITORIES = ("Gaul", "Sicily", "Iberia", "Egypt", "Thrace", "Crete", "Nubia")
# Words that no position accepts: wrong numbers, places, tracks, powers and shapes.
MALFORMED = (
    "level|military|-1",
    "level|military|31",
    "level|military|02",
    "level|gold|2",
    "level|technology|x",
    "level|military",
    "cubes|0|supply|bank",
    "cubes|11|supply|bank",
    "cubes|1|supply|supply",
    "cubes|1|pocket|bank",
    "cubes|one|supply|bank",
    "territory|add|",
    "territory|add|Gaul|Sicily",
    "territory|conquer|Gaul",
    "territory|add|" + "x" * 40,
    "territory|add|Ga`ul",
    "civ|",
    "civ|Rome|Greeks",
    "civ|**Rome**",
    "command|cubes|bank|3",
    "command|cubes|bank",
    "command|gold|bank",
    "command|military|supply",
    "command|military|bank|1",
    "vouch|military|bank|1",
    "vouch|cubes|bank",
    "vouch|military|table",
    "vouch|military",
    "vouch",
    "dispute|0",
    "dispute|x",
    "result|99",
    "result|-1",
    "turn|1",
    "era|now",
    "token|9|military-technology",
    "token|0|military-military",
    "begin|now",
    "withdraw|1",
    "agree|yes",
    "",
)

Log = list[tuple[int, str]]


def new_match(players: int) -> State:
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(players)]
    return GAME.setup(f"{players}p", seats, {}, 0)


def typed(chooser: random.Random, state: State, seat: int) -> str:
    """A report in the player's own words: a territory won or lost, a level, cubes
    moved (often legal, not always)."""
    roll = chooser.random()
    if roll < 0.35:
        held = state.civs[seat].territories
        if held and chooser.random() < 0.35:
            return f"territory|remove|{chooser.choice(held)}"
        return f"territory|add|{chooser.choice(TERRITORIES)}"
    if roll < 0.7:
        track = chooser.choice(TRACKS)
        now = state.civs[seat].levels[track]
        return f"level|{track}|{max(0, now + chooser.choice((-2, -1, 1, 1, 2, 3)))}"
    a, b = chooser.sample(PLACES, 2)
    if chooser.random() < 0.5:  # mostly out of the personal supply, as the table spends
        a, b = "supply", chooser.choice(("bank", "used", "reserve", "map"))
    return f"cubes|{chooser.choice((1, 1, 2, 3))}|{a}|{b}"


def attempt(chooser: random.Random, state: State) -> tuple[int, str]:
    """Who tries what next."""
    in_play = [c.seat for c in state.in_play()]
    seat = chooser.choice(in_play)
    roll = chooser.random()
    if roll < 0.04:
        return seat, chooser.choice(MALFORMED)
    if roll < 0.08:  # a well-formed key of this phase, legal or not
        candidates = GAME.candidates(state, seat)
        if candidates:
            return seat, chooser.choice(candidates).key
    phase = state.phase
    if phase == "setup":
        if not state.civs[seat].name or chooser.random() < 0.1:
            return seat, f"civ|{chooser.choice(CIV_POOL)}"
        legal = [a.key for a in GAME.legal_actions(state, seat)]
        if "begin" in legal and chooser.random() < 0.3:
            return seat, "begin"
        if chooser.random() < 0.6:
            return seat, typed(chooser, state, seat)
        return seat, chooser.choice(legal) if legal else "begin"
    if phase == "dispute":
        dispute = state.dispute
        assert dispute is not None
        report = state.report(dispute.report)
        settlers = [dispute.by] + ([report.seat] if report else [])
        seat = chooser.choice(settlers)
        legal = [a.key for a in GAME.legal_actions(state, seat)]
        if legal and chooser.random() < 0.8:
            return seat, chooser.choice(legal)
        return seat, chooser.choice(("withdraw", "retract", typed(chooser, state, seat)))
    if phase in ("ending", "final"):
        proposal = state.proposal
        if proposal is None:
            return seat, f"result|{chooser.choice(in_play)}"
        waiting = [s for s in in_play if s not in proposal.agreed]
        seat = chooser.choice(waiting or in_play)
        return seat, "object" if chooser.random() < 0.08 else "agree"
    roll = chooser.random()
    if roll < PROGRESS:
        return seat, "era" if state.turn == 4 else "turn"
    if roll < MENU:  # from the seat's menu: its token when it may, now and then a dispute
        legal = [a.key for a in GAME.legal_actions(state, seat)]
        moves = [k for k in legal if k.startswith(("command|", "vouch|"))]
        if moves and chooser.random() < 0.8:
            return seat, chooser.choice(moves)
        disputes = [k for k in legal if k.startswith("dispute|")]
        if disputes and chooser.random() < 0.15:
            return seat, chooser.choice(disputes)
        own = [k for k in legal if k.startswith("retract|")]
        if own and chooser.random() < 0.1:
            return seat, chooser.choice(own)
    return seat, typed(chooser, state, seat)


def check_invariants(state: State) -> None:
    for civ in state.civs:
        token = civ.token
        active = token.status == "active"
        assert all(n >= 0 for n in civ.cubes.values()), (civ.name, civ.cubes)
        whole = CUBES + civ.added_cubes  # the cubes power may add some (its player's word)
        assert sum(civ.cubes.values()) + (1 if active else 0) == whole, (civ.name, civ.cubes)
        if active:
            assert token.era == state.era, f"{civ.name}'s token outlived Era {token.era}"
            assert state.phase in ("era", "dispute", "ending"), f"active in {state.phase}"
            assert not civ.conceded
        for track in TRACKS:
            bonus = level(civ, track) - civ.levels[track]
            assert bonus == (2 if active and token.power == track else 0), (civ.name, track)
            assert civ.levels[track] >= 0
            assert civ.reached[track] >= level(civ, track)
    json.dumps(GAME.view(state, None))


def check_words(state: State) -> None:
    waiting = GAME.to_act(state)
    for seat in range(len(state.civs)):
        legal = GAME.legal_actions(state, seat)
        shown = [GAME.describe(a, state) for a in legal]
        assert len(set(shown)) == len(shown), sorted(x for x in shown if shown.count(x) > 1)
        assert (GAME.question(state, seat) is not None) == (seat in waiting)
        if seat in waiting:
            timeout = GAME.timeout_action(state, seat)
            assert timeout in legal or timeout.kind in GAME.open_kinds
            GAME.apply(state, seat, timeout, rng_for(0, 0))  # accepted
        json.dumps(GAME.view(state, seat))


def play(players: int, seed: int) -> tuple[State, Log]:
    """A random match, checked after every action; its last state and its actions."""
    chooser = random.Random(f"historia:{players}:{seed}")
    state = new_match(players)
    log: Log = []
    before = state.model_dump_json()  # the position, to compare after a refusal
    concessions = [chooser.randrange(200)] if seed % CONCEDE_EVERY == 0 else []
    if concessions and players == 6:
        concessions.append(concessions[0] + chooser.randrange(1, 100))
    tries = 0
    while GAME.outcome(state) is None and tries < MAX_ACTIONS:
        tries += 1
        rng = rng_for(seed, len(log) + 1)
        if concessions and len(log) == concessions[0]:
            concessions.pop(0)
            seat = chooser.choice([c.seat for c in state.in_play()])
            state, events = GAME.concede(state, seat, rng)
            assert events
            log.append((seat, CONCEDE))
        else:
            seat, key = attempt(chooser, state)
            try:
                state, events = GAME.apply(state, seat, Action.from_key(key), rng)
            except IllegalAction as refusal:
                assert state.model_dump_json() == before, f"refused {key!r} changed the state"
                message = refusal.message
                assert message[:1].isupper() and message.endswith((".", "?", "!")), message
                continue
            assert key not in MALFORMED, f"{key!r} was accepted"
            assert events, f"{key} happened silently"
            log.append((seat, key))
        before = state.model_dump_json()
        check_invariants(state)
        if len(log) % WORDS_EVERY == 0:
            check_words(state)
    return state, log


def replay(players: int, seed: int, log: Log) -> State:
    """The state after the match's actions, replayed from the set-up."""
    state = new_match(players)
    for seq, (seat, key) in enumerate(log, start=1):
        rng = rng_for(seed, seq)
        if key == CONCEDE:
            state, _ = GAME.concede(state, seat, rng)
        else:
            state, _ = GAME.apply(state, seat, Action.from_key(key), rng)
    return state


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", PLAYERS)
def test_random_matches_end_keep_every_invariant_and_replay(players: int, chunk: int) -> None:
    """200 matches per table size, in chunks: each ends (a result agreed, or everyone
    else conceded), keeps the invariants throughout, and replays to the same state."""
    size = GAMES // CHUNKS
    kinds: set[str] = set()
    for seed in range(chunk * size, (chunk + 1) * size):
        state, log = play(players, seed)
        outcome = GAME.outcome(state)
        assert outcome is not None, f"seed {seed} did not end in {MAX_ACTIONS} tries"
        assert outcome.winners and outcome.text
        assert state.era == 3 or outcome.reason == "concession"
        again = replay(players, seed, log)
        assert again.model_dump() == state.model_dump(), f"replay differs, seed {seed}"
        assert State.model_validate(state.model_dump()) == state
        kinds |= {key.split("|")[0] for _, key in log}
    wanted = {"civ", "begin", "territory", "level", "cubes", "command", "vouch", "turn", "era"}
    wanted |= {"dispute", "withdraw", "retract", "result", "agree"}
    assert wanted <= kinds, f"never played: {wanted - kinds}"
