"""The contract's promise about `apply`, checked with random action keys on every game.

"`legal_actions`: exactly the actions `apply` accepts from `seat` now"; "`apply`: the
next state and what happened; raises IllegalAction and changes nothing". From positions
reached by seeded random play, keys are sent the way a player, a stale button or a
hand-typed key could send them: the legal keys of the seat the game waits for, keys legal
elsewhere in the game, and legal keys corrupted one part at a time (the wrong kind, an
argument missing or extra, empty, non-numeric, negative, out of range, 30 digits long, a
number written another way, an unknown card id), from seats inside and outside the
table. Each one is either legal and accepted, or refused with `IllegalAction` and a
sentence for the player; nothing else is ever raised, and the position given to `apply`
is never changed.

A game with `open_kinds` (actions whose arguments are the player's own words, a name or
a number) lists only the ones worth offering: "an action of one of these kinds is legal
when `apply` accepts it, listed or not". So a key of an open kind may be accepted without
being listed (a listed one must still be accepted), and the random play also types the
words of `TYPED` and takes the timeout action of a seat it waits for, so that its
positions reach past what the menus alone lead to. A game that waits for nobody (a
Historia table during an Era, where anyone reports as the table plays) is played and
probed from every seat that has something to do.

Everything is seeded: the positions, the keys and the generators, so a failure is the
same on every run and names the key, the seat and the position it came from.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from typing import NamedTuple

import pytest
from pydantic import BaseModel

from rules.core import Action, Game, IllegalAction, SeatSpec, rng_for
from rules.registry import GAMES
from tests.rules.mv_helpers import copies_to_choose

VARIANTS = [(game_id, variant) for game_id, game in GAMES.items() for variant in game.variants]
VARIANT_IDS = [f"{game_id}-{variant}" for game_id, variant in VARIANTS]
GAMES_PLAYED = 3  # seeded random games per variant the positions come from
POSITIONS_PER_DECISION = 4  # positions kept per kind of decision the game waits for
MAX_ACTIONS = 400  # a random game is cut short after this many actions
LEGAL_KEYS_TRIED = 4  # legal keys applied per position (one of each kind first)
REPORTED = 3  # failing examples shown per kind of action and kind of mistake

# Whole arguments a corrupted key may carry instead of a real one.
BAD_ARGS = (
    "",
    " ",
    "-1",
    "-1.0",
    "0",
    "1",
    "3.0",
    "0.9",
    "99",
    "9" * 30,
    "9" * 30 + ".0",
    "0." + "9" * 30,
    "1.0+1.0",
    "0.0+",
    "+",
    ".",
    "0..0",
    "0.0.0",
    "1.5",
    "1e3",
    "nan",
    "none",
    "None",
    "yes",
    "draw",
    "war",
    "command",
    "no-such-card",
    "thunderfoot,thunderfoot",
    ",",
)
# What one piece of a structured argument ("1.0+1.1", "a,b", "card@0.0>1.0") may become.
BAD_PIECES = ("", "-1", "3", "9", "99", "9" * 30, "x", "0.9")
SEPARATORS = re.compile(r"([.,+>@])")
BAD_KINDS = ("", " ", "END", "end ", "concede", "x", "9")
# The same number written the ways `int()` and `str.isdigit()` are lenient about.
NEAR_NUMBERS = (
    lambda n: "-" + n,
    lambda n: "+" + n,
    lambda n: "0" + n,
    lambda n: " " + n,
    lambda n: n + " ",
    lambda n: n[0] + "_" + n[1:] if len(n) > 1 else n + "_0",
    lambda n: n.translate(str.maketrans("0123456789", "０１２３４５６７８９")),
    lambda n: n.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")),
    lambda n: n.translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")),
)
DIGITS = re.compile(r"\d+")
# What players type for a game's open kinds (a few names from a small pool, so that they
# meet, and numbers): tried in the random play beside the listed actions, and corrupted
# like them. Every game with open kinds has an entry.
TYPED: dict[str, tuple[str, ...]] = {
    "historia-command": (
        *(f"civ|{name}" for name in ("Romans", "Greeks", "Carthage", "Persians", "Egypt", "Huns")),
        *(f"territory|add|{name}" for name in ("Gaul", "Sicily", "Egypt", "Iberia")),
        "territory|remove|Gaul",
        *(f"level|{track}|{n}" for track in ("military", "technology") for n in (0, 1, 3, 5)),
        "cubes|1|supply|used",
        "cubes|2|supply|bank",
        "cubes|1|used|reserve",
        "cubes|1|bank|supply",
        "cubes|2|reserve|map",
    ),
}
TYPED_SHARE = 0.4  # how often the random play types words instead of picking from the menu
# Positions the random play seldom reaches, built by hand, by game (for a variant): kept
# beside the played ones.
BUILT: dict[str, Callable[[str], list[BaseModel]]] = {
    "mystic-vale": copies_to_choose,  # copies of a card Reserved, and bought
}


class Pool(NamedTuple):
    """What the keys of one variant are drawn from."""

    states: list[BaseModel]  # positions of seeded random games (and built ones)
    built: int  # how many of them, the last ones, were built (every legal key is probed)
    vocabulary: list[str]  # every key legal in any of them
    kinds: list[str]  # the kinds of those keys
    args: list[str]  # the arguments of those keys


def seats_of(game: Game, variant: str) -> int:
    return game.variants[variant].max_players


def acting(game: Game, state: BaseModel, seats: int) -> list[int]:
    """The seats the game waits for; when it waits for nobody but the match goes on,
    every seat that has something to do (anyone may report at a Historia table)."""
    waiting = sorted(game.to_act(state))
    if waiting or game.outcome(state) is not None:
        return waiting
    return [s for s in range(seats) if game.legal_actions(state, s)]


def decision(game: Game, state: BaseModel, seats: int) -> tuple[str, ...]:
    """What the game waits for, as the kinds of action the acting seats may take."""
    deciders = acting(game, state, seats)
    return tuple(sorted({a.kind for s in deciders for a in game.legal_actions(state, s)}))


def is_open(game: Game, key: str) -> bool:
    """Whether `key` is of one of the game's open kinds (the player's own words)."""
    return key.split("|")[0] in game.open_kinds


def typed_choice(
    game: Game, state: BaseModel, seat: int, waited: bool, chooser: random.Random
) -> Action | None:
    """Words the player types instead of a menu choice, when `apply` accepts them: one of
    the game's `TYPED` keys, or the timeout action of a seat the game waits for."""
    options = [Action.from_key(key) for key in TYPED[game.id]]
    if waited:
        options.append(game.timeout_action(state, seat))
    action = chooser.choice(options)
    try:
        game.apply(state, seat, action, rng_for(0, 0))
    except IllegalAction:
        return None
    return action


@cache
def pool(game_id: str, variant: str) -> Pool:
    """Positions from seeded random games, up to POSITIONS_PER_DECISION of each kind of
    decision (and each game's last), with the keys that were legal in them."""
    game = GAMES[game_id]
    n_seats = seats_of(game, variant)
    kept: dict[tuple[str, ...], list[BaseModel]] = {}
    vocabulary: set[str] = set()
    for seed in range(GAMES_PLAYED):
        seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(n_seats)]
        state = game.setup(variant, seats, {}, seed)
        chooser = random.Random(seed)
        for n in range(1, MAX_ACTIONS + 1):
            if game.outcome(state) is not None:
                break
            kind = decision(game, state, n_seats)
            if len(kept.setdefault(kind, [])) < POSITIONS_PER_DECISION and chooser.random() < 0.3:
                kept[kind].append(state)
            seat = chooser.choice(acting(game, state, n_seats))
            legal = game.legal_actions(state, seat)
            vocabulary.update(a.key for a in legal)
            action = None
            if game.open_kinds and (not legal or chooser.random() < TYPED_SHARE):
                waited = seat in game.to_act(state)
                action = typed_choice(game, state, seat, waited, chooser)
                if action is not None:
                    vocabulary.add(action.key)
            if action is None and not legal:
                continue  # nothing this seat typed was accepted: another seat acts
            if action is None:
                # Ending a turn or a phase only now and then, so boards fill up.
                onward = [a for a in legal if a.kind not in ("end", "phase", "done")]
                action = chooser.choice(onward if onward and chooser.random() < 0.85 else legal)
            state, _ = game.apply(state, seat, action, rng_for(seed, n))
        kept.setdefault(("over",), []).append(state)
    built = BUILT.get(game_id, lambda variant: [])(variant)
    for state in built:
        for seat in acting(game, state, n_seats):
            vocabulary.update(a.key for a in game.legal_actions(state, seat))
    return Pool(
        states=[s for group in kept.values() for s in group] + built,
        built=len(built),
        vocabulary=sorted(vocabulary),
        kinds=sorted({k.split("|")[0] for k in vocabulary}),
        args=sorted({a for k in vocabulary for a in k.split("|")[1:]}),
    )


def one_of_each_kind(keys: list[str], chooser: random.Random) -> list[str]:
    """A random key of each kind among `keys`."""
    by_kind: dict[str, list[str]] = {}
    for key in keys:
        by_kind.setdefault(key.split("|")[0], []).append(key)
    return [chooser.choice(group) for group in by_kind.values()]


def near_misses(arg: str) -> Iterator[str]:
    """`arg` with one of its numbers written another way ("-0", "01", " 1", "１", "¹")."""
    for match in DIGITS.finditer(arg):
        for rewrite in NEAR_NUMBERS:
            yield arg[: match.start()] + rewrite(match.group()) + arg[match.end() :]


def neighbours(arg: str) -> Iterator[str]:
    """`arg` with one of its numbers one less or one more: the next card, or another copy
    of the same card (copies are numbered in a row), which is one choice with it."""
    for match in DIGITS.finditer(arg):
        for step in (-1, 1):
            number = int(match.group()) + step
            if number >= 0:
                yield arg[: match.start()] + str(number) + arg[match.end() :]


def corruptions(key: str, known: Pool, chooser: random.Random) -> Iterator[str]:
    """A real key with one part changed: each argument (replaced, a piece of it replaced,
    its pieces in another order, its number written another way, dropped), an argument
    too many, the arguments in another order, the kind, the separators; each number of an
    argument one less and one more."""
    kind, *args = key.split("|")

    def with_arg(i: int, value: str) -> str:
        return "|".join((kind, *args[:i], value, *args[i + 1 :]))

    for i, arg in enumerate(args):
        replacements = chooser.sample(BAD_ARGS, 5) + chooser.sample(known.args, 2)
        for bad in replacements:
            yield with_arg(i, bad)
        pieces = SEPARATORS.split(arg)
        for j in range(0, len(pieces), 2):  # the pieces between separators
            for bad in chooser.sample(BAD_PIECES, 2):
                yield with_arg(i, "".join((*pieces[:j], bad, *pieces[j + 1 :])))
        if len(pieces) > 1:
            yield with_arg(i, "".join(reversed(pieces)))  # "a,b" as "b,a"; "1.0" as "0.1"
        misses = list(near_misses(arg))
        for miss in chooser.sample(misses, min(4, len(misses))):
            yield with_arg(i, miss)
        for neighbour in neighbours(arg):
            yield with_arg(i, neighbour)
        yield "|".join((kind, *args[:i], *args[i + 1 :]))
    for extra in (chooser.choice(BAD_ARGS), chooser.choice(known.args or BAD_ARGS)):
        yield "|".join((kind, *args, extra))
    if len(args) > 1:
        yield "|".join((kind, *reversed(args)))
    other_kinds = chooser.sample(known.kinds, min(2, len(known.kinds)))
    for other in [*other_kinds, chooser.choice(BAD_KINDS)]:
        yield "|".join((other, *args))
    yield chooser.choice([f"{key}|", f"|{key}", key.replace("|", "||", 1), key.upper()])


def is_sentence(text: str) -> bool:
    return bool(text) and text[0].isupper() and text.endswith((".", "?", "!"))


def problem_with(
    game: Game, state: BaseModel, seat: int, key: str, legal: set[str], *, open_kind: bool = False
) -> str:
    """What is wrong with how `apply` treats `key` from `seat` ("" when nothing is). A key
    of an open kind may be accepted unlisted, as `apply` decides; a listed one never
    refused."""
    before = state.model_dump_json()
    try:
        game.apply(state, seat, Action.from_key(key), rng_for(7, 1))
    except IllegalAction as refusal:
        if key in legal:
            return f"legal but refused ({refusal.message})"
        if not is_sentence(refusal.message):
            return f"refused without a sentence for the player: {refusal.message!r}"
    except Exception as error:
        return f"raised {type(error).__name__}: {error}"
    else:
        if key not in legal and not open_kind:
            return "accepted but not among the legal actions"
    if state.model_dump_json() != before:
        return "changed the state it was given"
    return ""


def test_every_game_with_open_kinds_has_typed_words() -> None:
    """The random play needs the words a player types for a game's open kinds."""
    for game_id, game in GAMES.items():
        if game.open_kinds:
            assert game_id in TYPED, f"{game_id} has open kinds but no TYPED words"
            assert {k.split("|")[0] for k in TYPED[game_id]} <= game.open_kinds


@pytest.mark.parametrize(("game_id", "variant"), VARIANTS, ids=VARIANT_IDS)
def test_apply_accepts_exactly_the_legal_actions_and_refuses_the_rest_cleanly(
    game_id: str, variant: str
) -> None:
    """From every kept position: legal keys of each waiting seat (accepted), each of
    them (every legal key, in a built position) and two keys from elsewhere corrupted
    every way above (refused unless the corruption happens to make another legal key),
    and legal keys sent from a seat the game does not wait for and from a seat that is
    not at the table (refused)."""
    game = GAMES[game_id]
    known = pool(game_id, variant)
    n = seats_of(game, variant)
    chooser = random.Random(f"keys-{game_id}-{variant}")
    failures: dict[tuple[str, str], list[str]] = {}
    tried = Counter[str]()
    typed = list(TYPED.get(game_id, ()))
    first_built = len(known.states) - known.built
    for index, state in enumerate(known.states):
        everyones = {s: [a.key for a in game.legal_actions(state, s)] for s in range(n)}
        # The seats waited for, and any other that may act unasked.
        waiting = sorted(set(acting(game, state, n)) | {s for s in range(n) if everyones[s]})
        idle = [s for s in range(n) if s not in waiting]
        outside = chooser.choice([-1, -n, n, n + 1, 99])
        sends: list[tuple[int, str]] = []
        for seat in waiting:
            legal = everyones[seat]
            firsts = one_of_each_kind(legal, chooser)
            sends += [(seat, k) for k in firsts[:LEGAL_KEYS_TRIED]]
            probed = legal if index >= first_built else firsts  # a built one: every key
            bases = probed + chooser.sample(known.vocabulary, 2)
            if typed:
                sends += [(seat, k) for k in chooser.sample(typed, 3)]
                bases += chooser.sample(typed, 2)
            sends += [(seat, bad) for base in bases for bad in corruptions(base, known, chooser)]
        someone_elses = [k for keys in everyones.values() for k in keys] or known.vocabulary
        for seat in [*chooser.sample(idle, min(1, len(idle))), outside]:
            sends += [(seat, k) for k in chooser.sample(someone_elses, min(4, len(someone_elses)))]
        for seat, key in sends:
            legal_here = set(everyones.get(seat, ()))
            if is_open(game, key):
                tried["open"] += 1
                problem = problem_with(game, state, seat, key, legal_here, open_kind=True)
            else:
                tried["accepted" if key in legal_here else "refused"] += 1
                problem = problem_with(game, state, seat, key, legal_here)
            if problem:
                mistake = re.split(r"[:(]", problem)[0].strip()
                failures.setdefault((key.split("|")[0], mistake), []).append(
                    f"position {index}, seat {seat}, {key!r}: {problem}"
                )
    assert tried["accepted"] and tried["refused"] > 40 * len(known.states)
    report = [
        f"{kind!r} keys {mistake}: {len(examples)}\n    " + "\n    ".join(examples[:REPORTED])
        for (kind, mistake), examples in sorted(failures.items())
    ]
    if failures:
        total = sum(len(examples) for examples in failures.values())
        summary = f"{total} of {tried.total()} keys mistreated:\n" + "\n".join(report)
        pytest.fail(summary, pytrace=False)
