"""Historia's Ways of Command, rule by rule.

One test per rule of the module's rulebook (/work/shared/rulebooks/historia-ways-of-
command.txt, short: every sentence binds), named after it, the rule's gist in the
docstring; the rulebook's Roman example is played as written. Arbiter referees only the
Command tokens: the table reports what the token's rule reads (territories, Military and
Technology levels, cubes, turns), so every position here is built by those reports,
through `GAME.setup` and `GAME.apply` only.

Ada is seat 0 and the host; she plays the Romans (Territory & Military). Basil (seat 1)
plays the Greeks, whose token shows Military & Technology by default, and Cleo (seat 2)
the Persians, Technology & Territory; Dov, Eve and Finn follow.
"""

from __future__ import annotations

import json

import pytest

from rules.core import Action, Event, IllegalAction, SeatSpec, rng_for
from rules.historia_command import GAME, State
from rules.historia_command.powers import claims
from rules.historia_command.state import CUBES

NAMES = ["Ada", "Basil", "Cleo", "Dov", "Eve", "Finn"]
CIVS = ["Romans", "Greeks", "Persians", "Egyptians", "Carthage", "Huns"]
ADA, BASIL, CLEO, DOV, EVE, FINN = range(6)


# --------------------------------------------------------------------------- helpers


def new_table(players: int = 3) -> State:
    seats = [SeatSpec(seat=i, name=NAMES[i]) for i in range(players)]
    return GAME.setup(f"{players}p", seats, {}, 0)


def act(state: State, seat: int, key: str) -> tuple[State, list[Event]]:
    return GAME.apply(state, seat, Action.from_key(key), rng_for(0, 1))


def go(state: State, *moves: tuple[int, str]) -> State:
    """The state after each (seat, key) in turn."""
    for seat, key in moves:
        state, _ = act(state, seat, key)
    return state


def said(state: State, seat: int, key: str) -> tuple[State, str]:
    """The state after the action, and everything it said, a line each."""
    state, events = act(state, seat, key)
    return state, "\n".join(e.text for e in events)


def refused(state: State, seat: int, key: str) -> str:
    """The refusal's sentence; the position is unchanged by it."""
    before = state.model_dump_json()
    with pytest.raises(IllegalAction) as refusal:
        act(state, seat, key)
    assert state.model_dump_json() == before, "a refused action changed the state"
    message = refusal.value.message
    assert message[0].isupper() and message.endswith((".", "?", "!")), message
    return message


def keys(state: State, seat: int) -> list[str]:
    return [a.key for a in GAME.legal_actions(state, seat)]


def commands(state: State, seat: int) -> list[str]:
    """The seat's activations: as Arbiter counts the cubes, or on the player's word."""
    return [k for k in keys(state, seat) if k.startswith(("command|", "vouch|"))]


def named(players: int = 3, civs: list[str] | None = None) -> State:
    """A set-up with every civilization named (CIVS by default), not yet begun."""
    state = new_table(players)
    for seat, name in enumerate(civs or CIVS[:players]):
        state = go(state, (seat, f"civ|{name}"))
    return state


def table(
    players: int = 3,
    territories: dict[int, int | list[str]] | None = None,
    military: dict[int, int] | None = None,
    technology: dict[int, int] | None = None,
    civs: list[str] | None = None,
    cubes: bool = True,
) -> State:
    """Era I, turn 1, begun after a set-up that named the civilizations and reported
    their territories (a count, named "<civ> 1", "<civ> 2"…, or the names) and levels.
    With `cubes`, each civilization has 2 cubes in each of the Bank, the Used Pool and
    the reserve (4 left in its personal supply)."""
    state = named(players, civs)
    for seat, held in (territories or {}).items():
        names = (
            [f"{state.civs[seat].name} {i}" for i in range(1, held + 1)]
            if isinstance(held, int)
            else held
        )
        for name in names:
            state = go(state, (seat, f"territory|add|{name}"))
    for track, levels in (("military", military), ("technology", technology)):
        for seat, n in (levels or {}).items():
            state = go(state, (seat, f"level|{track}|{n}"))
    if cubes:
        for seat in range(players):
            for place in ("bank", "used", "reserve"):
                state = go(state, (seat, f"cubes|2|supply|{place}"))
    return go(state, (ADA, "begin"))


def roman_table() -> State:
    """The Romans lead the Territories (3 to 2 and 1) and are not last in Military (2,
    between 3 and 1)."""
    return table(territories={ADA: 3, BASIL: 2, CLEO: 1}, military={ADA: 2, BASIL: 3, CLEO: 1})


def turns(state: State, seat: int = ADA) -> State:
    """The rest of the Era's turns reported, to turn 4."""
    while state.turn < 4:
        state = go(state, (seat, "turn"))
    return state


def end_era(state: State, seat: int = ADA) -> tuple[State, str]:
    """The end of the Era reported by `seat` after its last turn, and agreed by each
    other player: the state, and everything said."""
    state, text = said(turns(state, seat), seat, "era")
    for other in state.in_play():
        if state.phase == "ending" and other.seat != seat:
            state, more = said(state, other.seat, "agree")
            text += "\n" + more
    return state, text


def to_final(state: State) -> State:
    while state.phase == "era":
        state, _ = end_era(state)
    assert state.phase == "final"
    return state


def last_report(state: State) -> int:
    return state.reports[-1].number


def cubes_whole(state: State) -> None:
    for civ in state.civs:
        on_token = 1 if civ.token.status == "active" else 0
        assert sum(civ.cubes.values()) + on_token == CUBES + civ.added_cubes, (civ.name, civ.cubes)


# --------------------------------------------------------------------------- set-up


def test_each_player_names_a_civilization_before_the_host_begins() -> None:
    """Set-up: every player names a civilization; the table waits for them, then for
    the host, and Era I can't begin while one is unnamed."""
    state = new_table(3)
    assert GAME.to_act(state) == {ADA, BASIL, CLEO}
    state = go(state, (ADA, "civ|Romans"), (BASIL, "civ|Greeks"))
    assert GAME.to_act(state) == {CLEO}
    assert "waiting for Cleo" in refused(state, ADA, "begin")
    state = go(state, (CLEO, "civ|Persians"))
    assert GAME.to_act(state) == {ADA}
    assert "host" in refused(state, BASIL, "begin")
    assert "begin" in keys(state, ADA) and "begin" not in keys(state, BASIL)
    state, text = said(state, ADA, "begin")
    assert (state.phase, state.era, state.turn) == ("era", 1, 1)
    assert "Era I begins" in text and "Romans Territory & Military" in text
    assert GAME.to_act(state) == set(), "nobody is waited for during an Era"
    assert "named during the set-up" in refused(state, ADA, "civ|Gauls")


def test_civilization_names_are_unique_at_the_table() -> None:
    """Two players can't play the same civilization (names compare without case); a
    player may rename theirs during the set-up."""
    state = go(new_table(3), (ADA, "civ|Greeks"))
    assert "Ada plays Greeks already" in refused(state, BASIL, "civ|greeks")
    state = go(state, (ADA, "civ|Macedon"), (BASIL, "civ|Greeks"))
    assert state.civs[BASIL].name == "Greeks" and state.civs[ADA].name == "Macedon"


def test_a_name_is_a_few_plain_words() -> None:
    """A name is trimmed, not empty, at most 32 characters, without markup or the key
    separator."""
    state = new_table(2)
    assert "Give the civilization a name" in refused(state, ADA, "civ|   ")
    assert "at most 32" in refused(state, ADA, "civ|" + "x" * 33)
    assert "simple punctuation" in refused(state, ADA, "civ|**Rome**")
    assert "simple punctuation" in refused(state, ADA, "civ|@everyone")
    state = go(state, (ADA, "civ|  Old   Kingdom "))
    assert state.civs[ADA].name == "Old Kingdom"


def test_the_romans_token_is_territory_and_military() -> None:
    """ "The Roman Command token shows the Territory and Military symbols": whoever plays
    the Romans gets it, and nobody changes it; renamed, the civilization gets its seat's
    default token back."""
    state = new_table(3)
    assert state.civs[BASIL].token.symbols == ("military", "technology")
    state, text = said(state, BASIL, "civ|Romans")
    assert state.civs[BASIL].token.symbols == ("territory", "military")
    assert "Territory & Military" in text
    assert "as printed" in refused(state, ADA, "token|1|military-technology")
    assert "as printed" in refused(state, BASIL, "token|1|military-technology")
    state = go(state, (BASIL, "civ|Greeks"))
    assert state.civs[BASIL].token.symbols == ("military", "technology")


def test_only_one_civilization_plays_the_romans() -> None:
    """The Romans are one civilization, however they are written."""
    state = go(new_table(3), (ADA, "civ|Romans"))
    assert "plays the Romans already" in refused(state, BASIL, "civ|Rome")


def test_the_host_sets_any_token_and_each_player_their_own() -> None:
    """The host may set any token's two symbols during the set-up; another player only
    their own; a token shows two different categories."""
    state = new_table(3)
    state, text = said(state, ADA, "token|2|military-territory")
    assert state.civs[CLEO].token.symbols == ("territory", "military")
    assert "Territory & Military" in text
    assert "Only the host" in refused(state, BASIL, "token|2|military-technology")
    state = go(state, (BASIL, "token|1|technology-territory"))
    assert state.civs[BASIL].token.symbols == ("technology", "territory")
    assert "two of Territory, Military and Technology" in refused(
        state, ADA, "token|1|military-military"
    )
    assert "already" in refused(state, ADA, "token|1|territory-technology")
    state = go(named(3), (ADA, "begin"))
    assert "set during the set-up" in refused(state, ADA, "token|1|military-technology")


def test_a_players_timeout_names_their_civilization_after_them() -> None:
    """When a player's clock runs out in the set-up their civilization is named after
    them (with only the characters a name holds, and not a name taken); the host's
    clock begins Era I."""
    seats = [SeatSpec(seat=0, name="cool_guy"), SeatSpec(seat=1, name="@@@")]
    state = GAME.setup("2p", seats, {}, 0)
    state = go(state, (ADA, "civ|coolguy's people"))
    action = GAME.timeout_action(state, BASIL)
    assert action.kind == "civ"
    state, _ = GAME.apply(state, BASIL, action, rng_for(0, 1))
    assert state.civs[BASIL].name == "Seat 2's people"
    state = GAME.setup("2p", seats, {}, 0)
    state = go(state, (BASIL, "civ|coolguy's people"))
    state, _ = GAME.apply(state, ADA, GAME.timeout_action(state, ADA), rng_for(0, 1))
    assert state.civs[ADA].name == "coolguy's people 2"
    assert GAME.timeout_action(state, ADA).kind == "begin"


def test_starting_levels_reported_in_the_set_up_earn_no_bonus() -> None:
    """The levels a civilization starts with are reported in the set-up: no bonus is
    announced for them."""
    state = named(2)
    state, text = said(state, ADA, "level|military|3")
    assert "bonus" not in text
    state = go(state, (ADA, "begin"))
    state, text = said(state, ADA, "level|military|4")
    assert "take the bonus printed at level 4" in text


# --------------------------------------------------------------------------- activating


def test_the_roman_example_more_territories_than_any_and_not_last_in_military() -> None:
    """ "The Romans must have more territories than any other Civilizations and not be
    the last in Military level": 3 territories to 2 and 1, Military 2 between 3 and 1."""
    state = roman_table()
    assert "command|military|bank" in commands(state, ADA)
    state, text = said(state, ADA, "command|military|bank")
    assert "first in Territory" in text
    assert state.civs[ADA].token.status == "active"


def test_the_roman_example_blocked_when_last_in_military() -> None:
    """The Romans first in territories but the last in Military can't activate."""
    state = go(roman_table(), (ADA, "level|military|0"))
    assert commands(state, ADA) == []
    message = refused(state, ADA, "command|military|bank")
    assert message == "Your token is blocked: first in Territory but last in Military (0)."


def test_the_roman_example_or_the_highest_military_and_not_last_in_territories() -> None:
    """ "OR be the Civilization with the highest Military level and not the last in
    number of territories": Military 4 to 3 and 1, territories 2 between 3 and 1."""
    state = table(territories={ADA: 2, BASIL: 3, CLEO: 1}, military={ADA: 4, BASIL: 3, CLEO: 1})
    state, text = said(state, ADA, "command|technology|used")
    assert "first in Military" in text
    state = table(territories={ADA: 1, BASIL: 3, CLEO: 2}, military={ADA: 4, BASIL: 3, CLEO: 1})
    assert "first in Military but last in Territory" in refused(state, ADA, "command|military|bank")


def test_a_tie_for_first_blocks_the_token() -> None:
    """ "If a player is tied in the first position with other civilizations the command
    cannot be activated": the Romans tied with the Greeks for the most territories."""
    state = table(territories={ADA: 3, BASIL: 3, CLEO: 1}, military={ADA: 2, BASIL: 3, CLEO: 1})
    assert commands(state, ADA) == []
    message = refused(state, ADA, "command|military|bank")
    assert message == (
        "Your token is blocked: tied for first in Territory with Greeks (3); not first in "
        "Military (2; Greeks 3)."
    )


def test_a_tie_for_first_in_one_symbol_leaves_the_other() -> None:
    """The tie blocks the category it is in: the Romans tied first in Territory but
    alone first in Military (and not last in Territory) may activate through Military."""
    state = table(territories={ADA: 3, BASIL: 3, CLEO: 1}, military={ADA: 4, BASIL: 3, CLEO: 1})
    state, text = said(state, ADA, "command|military|bank")
    assert "first in Military" in text


def test_a_tie_for_last_does_not_block_the_token() -> None:
    """ "If a player is tied in the last position it can still be activated": the Romans
    lead the territories and share the lowest Military with the Persians."""
    state = table(territories={ADA: 3, BASIL: 2, CLEO: 1}, military={ADA: 1, BASIL: 3, CLEO: 1})
    assert commands(state, ADA)
    state, text = said(state, ADA, "command|shared|reserve")
    assert "first in Territory" in text


def test_first_in_both_symbols_activates() -> None:
    """First in both of the token's categories is first in one and not last in the
    other."""
    state = table(territories={ADA: 3, BASIL: 2, CLEO: 1}, military={ADA: 5, BASIL: 3, CLEO: 1})
    state = go(state, (ADA, "command|military|bank"))
    assert state.civs[ADA].token.power == "military"


def test_last_in_both_symbols_cannot_activate() -> None:
    """The last in both categories is first in neither."""
    state = table(territories={ADA: 1, BASIL: 2, CLEO: 3}, military={ADA: 1, BASIL: 3, CLEO: 2})
    message = refused(state, ADA, "command|military|bank")
    assert "not first in Territory (1; Persians 3); not first in Military (1; Greeks 3)" in message


def test_only_the_tokens_two_symbols_count() -> None:
    """The Romans' token reads Territory and Military: leading Technology alone does
    nothing for it, and the Persians (Technology & Territory) can't lead through
    Military."""
    state = table(
        territories={ADA: 2, BASIL: 2, CLEO: 2},
        military={CLEO: 5},
        technology={ADA: 6, BASIL: 1},
    )
    assert commands(state, ADA) == [] and commands(state, CLEO) == []
    assert commands(state, BASIL) == [], "the Greeks are first in nothing alone"


def test_with_two_players_first_in_one_and_level_in_the_other_activates() -> None:
    """Two civilizations: leading one category while level in the other (tied first and
    last at once) activates; trailing the other is being strictly last."""
    state = table(2, territories={ADA: 3, BASIL: 1}, military={ADA: 2, BASIL: 2})
    assert commands(state, ADA)
    assert commands(state, BASIL) == [], "the Greeks are tied first in Military"
    state = table(2, territories={ADA: 3, BASIL: 1}, military={ADA: 1, BASIL: 2})
    assert "last in Military" in refused(state, ADA, "command|military|bank")
    assert commands(state, BASIL), "the Greeks lead Military and tie Technology (0-0)"


def test_with_six_players_the_ties_read_the_same() -> None:
    """Six civilizations: a tie for first among two of six blocks; sharing the bottom
    with three others does not; alone at the bottom does."""
    state = table(
        6,
        territories={ADA: 5, BASIL: 5, CLEO: 3, DOV: 2, EVE: 1},
        military={ADA: 1, BASIL: 1, CLEO: 1, DOV: 1, EVE: 4, FINN: 3},
    )
    assert "tied for first in Territory" in refused(state, ADA, "command|military|bank")
    state = go(state, (BASIL, "territory|remove|Greeks 5"))
    assert commands(state, ADA), "first in Territory, tied last (of four) in Military"
    state = go(state, (BASIL, "level|military|2"), (CLEO, "level|military|2"))
    state = go(state, (DOV, "level|military|2"))
    assert "first in Territory but last in Military" in refused(state, ADA, "command|military|bank")
    # Carthage's token (seat 5's default) shows Military & Technology: Carthage lead
    # Military alone, and everyone is level in Technology.
    assert commands(state, EVE)


def test_a_category_where_everyone_is_equal_blocks_leading_it_but_nobody_is_last() -> None:
    """Everyone level in a category: all are tied first there (nobody leads through it)
    and nobody is strictly last in it (so it never blocks the other symbol); at the
    start, with everything level, no token can be activated."""
    state = table(4)
    assert all(commands(state, s) == [] for s in range(4))
    state = go(state, (BASIL, "level|military|3"))
    assert commands(state, BASIL), "the Greeks lead Military; Technology is level"
    assert commands(state, ADA) == [], "the Romans lead nothing"
    state = go(state, (CLEO, "territory|add|Babylon"))
    assert commands(state, CLEO), "the Persians lead Territory; Technology is level"


def test_a_conceded_civilization_leaves_the_standings() -> None:
    """A player who concedes no longer counts among the civilizations compared."""
    state = table(territories={ADA: 2, BASIL: 3, CLEO: 1}, military={ADA: 2, BASIL: 3, CLEO: 1})
    assert commands(state, ADA) == []
    state, _ = GAME.concede(state, BASIL, rng_for(0, 1))
    assert commands(state, ADA), "first in Territory now, and not last in Military"


def test_the_tokens_cube_comes_from_the_bank_the_used_pool_or_the_reserve() -> None:
    """ "Take his own cube (from the Bank, the Used Pool, or from his reserve) put it on
    the Command token": one cube goes from the place chosen onto the token; another
    place is refused."""
    for source in ("bank", "used", "reserve"):
        state = roman_table()
        before = state.civs[ADA].cubes[source]
        state, text = said(state, ADA, f"command|military|{source}")
        assert state.civs[ADA].cubes[source] == before - 1
        assert state.civs[ADA].token.cube_from == source
        assert "counted in" not in text, "the count needed no correction"
        cubes_whole(state)
    state = roman_table()
    assert "Bank, the Used Pool or your reserve" in refused(state, ADA, "command|military|supply")
    assert "Bank, the Used Pool or your reserve" in refused(state, ADA, "command|military|map")


def test_a_token_is_activated_once_and_only_during_an_era() -> None:
    """The token is turned face down once; it can't be used in the set-up or once the
    last Era is over; an unknown power is refused."""
    state = go(roman_table(), (ADA, "command|military|bank"))
    assert "already active this Era" in refused(state, ADA, "command|technology|used")
    assert "during an Era" in refused(named(3), ADA, "command|military|bank")
    assert "powers are cubes, shared, technology, military" in refused(
        roman_table(), ADA, "command|gold|bank"
    )
    assert "Only the cubes power says how many" in refused(
        roman_table(), ADA, "command|military|bank|1"
    )
    assert "Only the cubes power says how many" in refused(roman_table(), ADA, "command|cubes|bank")


def test_the_token_named_without_a_power_explains_and_never_activates() -> None:
    """Asking for the token with no power named (the "Not now" suggestion) activates
    nothing, whatever the standings: it is refused with why the token can't be
    activated, or, once it can, with what to do."""
    tied = table(territories={ADA: 3, BASIL: 3, CLEO: 1}, military={ADA: 2, BASIL: 3, CLEO: 1})
    assert "tied for first in Territory" in refused(tied, ADA, "command")
    assert "pick a power in `/historia command`" in refused(roman_table(), ADA, "command")
    used = go(roman_table(), (ADA, "command|military|bank"))
    assert "already active this Era (+2 Military)" in refused(used, ADA, "command")
    assert "command" not in keys(roman_table(), ADA)


def test_the_tokens_cube_is_taken_from_where_arbiter_counts_one_or_on_the_players_word() -> None:
    """ "Take his own cube (from the Bank, the Used Pool, or from his reserve)": a cube
    is never taken from where Arbiter counts none without the player saying so. The
    table reports only the cube moves it cares to (all ten start in the personal
    supply), so where Arbiter counts none the activation is refused with Arbiter's
    counts, changing nothing, and the menu offers it with the player's word instead
    ("my table has it"): taken so, one cube counted elsewhere (the personal supply
    first) is counted there, in the open; the word is refused where it isn't needed."""
    state = table(
        territories={ADA: 3, BASIL: 2, CLEO: 1}, military={ADA: 2, BASIL: 3, CLEO: 1}, cubes=False
    )
    assert refused(state, ADA, "command|military|used") == (
        "Arbiter counts no cube of yours in the Used Pool (Bank 0, reserve 0): take the "
        "token's cube from another place, or say your table has one there."
    )
    assert "command|military|used" not in commands(state, ADA)
    assert "vouch|military|used" in commands(state, ADA)
    assert GAME.describe(Action.from_key("vouch|military|used"), state) == (
        "Command: +2 Military (its cube from the Used Pool) — my table has it"
    )
    assert GAME.explain(Action.from_key("vouch|military|used"), state, ADA).startswith(
        "Arbiter counts 0 in the Used Pool · +2 Military levels"
    )
    state, text = said(state, ADA, "vouch|military|used")
    civ = state.civs[ADA]
    assert civ.token.status == "active" and civ.token.cube_from == "used"
    assert civ.cubes == {"supply": 9, "bank": 0, "used": 0, "reserve": 0, "map": 0}
    assert (
        "a cube from the Used Pool on it: **+2 Military**. Arbiter counted none of Romans' "
        "cubes in the Used Pool: on their word, one counted in their personal supply is there."
    ) in text
    cubes_whole(state)
    state, _ = end_era(state)
    assert state.civs[ADA].cubes == {"supply": 9, "bank": 0, "used": 1, "reserve": 0, "map": 0}
    # Where Arbiter counts a cube, the word isn't taken: the cube is simply taken.
    state = roman_table()
    assert "vouch|military|used" not in commands(state, ADA)
    assert refused(state, ADA, "vouch|military|used") == (
        "Arbiter counts a cube of yours in the Used Pool already: activate without saying "
        "your table has one."
    )


def test_the_legal_actions_offer_activation_exactly_when_allowed() -> None:
    """When the token may be activated, every power with every source is offered once (the
    cubes power with each count it may take): as it is where Arbiter counts the cubes it
    takes, with the player's word where it counts too few; otherwise none."""
    state = roman_table()
    offered = set(commands(state, ADA))
    # With 2 cubes in the reserve, the token's cube from there leaves 1 for the power:
    # taking 2 is offered with the player's word.
    assert offered == {
        *(f"command|cubes|{s}|{n}" for s in ("bank", "used", "reserve") for n in (0, 1, 2)),
        *(
            f"command|{p}|{s}"
            for p in ("shared", "technology", "military")
            for s in ("bank", "used", "reserve")
        ),
    } - {"command|cubes|reserve|2"} | {"vouch|cubes|reserve|2"}
    assert commands(state, CLEO) == [], "the Persians lead neither Technology nor Territory"


# --------------------------------------------------------------------------- the powers


def test_the_cubes_power_takes_up_to_2_cubes_from_the_general_supply() -> None:
    """ "Take up to 2 cubes of your color from the general supply and put them in your
    personal supply": 0, 1 or 2, never more. The general supply is where the
    civilization's cubes wait beside the board, its reserve, not the Bank (README): the
    power works with none of its cubes in the Bank."""
    for n in (0, 1, 2):
        state, text = said(roman_table(), ADA, f"command|cubes|used|{n}")
        civ = state.civs[ADA]
        assert (civ.cubes["reserve"], civ.cubes["supply"], civ.cubes["bank"]) == (2 - n, 4 + n, 2)
        assert civ.token.cubes_taken == n
        assert f"{n} cube" in text and "from the general supply into their personal" in text
        assert "word" not in text, "Arbiter counted every cube taken"
        cubes_whole(state)
    assert "from 0 to 2" in refused(roman_table(), ADA, "command|cubes|used|3")
    state = go(roman_table(), (ADA, "cubes|2|bank|map"))
    state = go(state, (ADA, "command|cubes|used|2"))
    assert state.civs[ADA].cubes == {"supply": 6, "bank": 0, "used": 1, "reserve": 0, "map": 2}


def test_the_cubes_power_takes_cubes_arbiter_doesnt_count_only_on_the_players_word() -> None:
    """The cubes power never makes a cube out of nothing, nor takes one from a place the
    rule doesn't name: with the reserve and the Bank at 0 (all ten cubes counted in the
    personal supply), "2 cubes, the token's cube from the Bank" is refused with
    Arbiter's counts and changes nothing; the menu offers it with the player's word
    ("my table has them"), and taken so, each cube Arbiter didn't count is said in the
    open: the token's cube was one counted in the personal supply (10 -> 9), and the 2
    cubes were in the general supply beyond Arbiter's count (added: 11). At the end of
    the Era they go back to the general supply (9 again)."""
    state = table(territories={ADA: 3, BASIL: 2, CLEO: 1}, military={ADA: 2, BASIL: 3}, cubes=False)
    civ = state.civs[ADA]
    assert (civ.cubes["supply"], civ.cubes["bank"], civ.cubes["reserve"]) == (CUBES, 0, 0)
    assert "Arbiter counts no cube of yours in the Bank (Used Pool 0, reserve 0)" in refused(
        state, ADA, "command|cubes|bank|2"
    )
    assert "command|cubes|bank|2" not in commands(state, ADA)
    assert "vouch|cubes|bank|2" in commands(state, ADA)
    state, text = said(state, ADA, "vouch|cubes|bank|2")
    civ = state.civs[ADA]
    assert civ.cubes["supply"] == 11 and civ.added_cubes == 2
    assert "2 cubes from the general supply into their personal supply (now 11)" in text
    assert (
        "Arbiter counted none of Romans' cubes in the Bank: on their word, one counted in "
        "their personal supply is there. On their word, the general supply had 2 of Romans' "
        "cubes that Arbiter didn't count (added to their count)."
    ) in text
    cubes_whole(state)
    state, _ = end_era(state)
    civ = state.civs[ADA]
    assert civ.cubes["supply"] == 9 and civ.cubes["reserve"] == 2
    cubes_whole(state)
    # The token's cube from the reserve leaves one of its 2 there for the power: taking
    # 2 needs the player's word for the second, never out of the personal supply.
    state = roman_table()
    assert refused(state, ADA, "command|cubes|reserve|2") == (
        "Arbiter counts 1 cube of yours in the general supply (your reserve) for the 2 you "
        "take: take fewer, or say your table has them there."
    )
    assert "command|cubes|reserve|1" in commands(state, ADA)
    state, text = said(state, ADA, "vouch|cubes|reserve|2")
    assert state.civs[ADA].cubes == {"supply": 6, "bank": 2, "used": 2, "reserve": 0, "map": 0}
    assert "the general supply had 1 of Romans' cubes that Arbiter didn't count" in text
    assert "Arbiter counted none" not in text, "a cube was counted in the reserve"
    cubes_whole(state)


def test_the_cubes_power_returns_its_cubes_at_the_end_of_the_era_before_the_turn_end() -> None:
    """ "At the end of the Era, before the Turn End procedure, return the cubes to the
    general supply" (the reserve): from the personal supply first, then wherever they
    went."""
    state = go(roman_table(), (ADA, "command|cubes|used|2"))
    state = go(state, (ADA, "cubes|5|supply|map"))  # the supply kept 1 of its 6
    state, text = end_era(state)
    civ = state.civs[ADA]
    # The 2 cubes come from the supply (1) and the Used Pool (1); the token's cube goes
    # back to the Used Pool.
    assert civ.cubes == {"supply": 0, "bank": 2, "used": 1, "reserve": 2, "map": 5}
    assert text.index("Romans return 2 cubes to the general supply") < text.index("Turn End")
    cubes_whole(state)


def test_the_shared_power_scores_the_territories_shared_with_others() -> None:
    """ "Score Territories you are sharing with others in the Territory Bonus steps of
    the Era. Other players cannot consider these shared territory for Leader bonus and
    for cube turn recovery": the shared territories the power reaches are its holder's
    claims (a territory held alone is no claim)."""
    state = table(
        territories={ADA: ["Gaul", "Sicily", "Iberia"], BASIL: ["Gaul", "Sicily"], CLEO: ["Gaul"]},
        military={ADA: 2, BASIL: 3, CLEO: 1},
    )
    assert claims(state) == {}
    state, text = said(state, ADA, "command|shared|bank")
    assert "Gaul, Sicily shared now" in text
    assert claims(state) == {"Gaul": [ADA], "Sicily": [ADA]}
    view = GAME.view(state, None)
    assert view["claims"] == {"Gaul": [ADA], "Sicily": [ADA]}
    assert view["civs"][BASIL]["shared"] == ["Gaul", "Sicily"]
    state = go(state, (BASIL, "territory|remove|Sicily"))
    assert claims(state) == {"Gaul": [ADA]}, "a territory no longer shared is no claim"
    state = go(state, (CLEO, "territory|add|Iberia"))
    assert claims(state) == {"Gaul": [ADA], "Iberia": [ADA]}, "a territory shared later is"


def test_two_shared_powers_on_one_territory_cancel_out() -> None:
    """ "If two or more players activate this power in the same territory, they cancel
    each other out": the territory both claim has two claimants (nobody scores it),
    while each still scores a territory only they claim."""
    state = table(
        territories={
            ADA: ["Gaul", "Sicily", "Iberia"],
            BASIL: ["Gaul", "Crete"],
            CLEO: ["Crete", "Sicily"],
        },
        military={ADA: 2, BASIL: 3, CLEO: 1},
    )
    state = go(state, (ADA, "command|shared|bank"), (BASIL, "command|shared|bank"))
    assert claims(state) == {"Gaul": [ADA, BASIL], "Sicily": [ADA], "Crete": [BASIL]}
    scorers = {t: seats[0] for t, seats in claims(state).items() if len(seats) == 1}
    assert scorers == {"Sicily": ADA, "Crete": BASIL}


def test_the_technology_power_gains_2_levels_until_the_end_of_the_era() -> None:
    """ "Gain 2 Technology levels until the end of the Era": the standings count them on
    top of the reported level, a new report too, until the Era ends."""
    state = go(roman_table(), (ADA, "level|technology|3"))
    state, text = said(state, ADA, "command|technology|bank")
    view = GAME.view(state, None)
    assert view["civs"][ADA]["effective"]["technology"] == 5
    assert view["standings"]["technology"]["values"][str(ADA)] == 5
    assert "reach Technology 5: take the bonus printed at levels 4 and 5" in text
    state, text = said(state, ADA, "level|technology|4")
    assert "(+2 by Command: 6)" in text
    state, text = end_era(state)
    assert GAME.view(state, None)["civs"][ADA]["effective"]["technology"] == 4
    assert "fall to Technology 4" in text


def test_the_military_power_counts_in_the_standings_the_others_are_checked_against() -> None:
    """ "Gain 2 Military levels until the end of the Era": the others are compared with
    the Romans' Military plus 2 — the Greeks, first in Military at 3 to the Romans' 2,
    are no longer first once the Romans have 4."""
    state = roman_table()
    assert commands(state, BASIL), "the Greeks lead Military and are not last in Technology"
    state = go(state, (ADA, "command|military|bank"))
    assert GAME.view(state, None)["standings"]["military"]["first"] == [ADA]
    assert "not first in Military (3; Romans 4)" in refused(state, BASIL, "command|military|bank")
    state, _ = end_era(state)
    assert commands(state, BASIL), "the +2 lapsed with the Era"


# --------------------------------------------------------------------------- end of the Era


def three_powers() -> State:
    """Era I with three tokens active: the Romans took 1 cube (their token's cube from
    the Bank), the Greeks +2 Military (cube from the Used Pool), the Persians +2
    Technology (cube from the reserve)."""
    state = table(
        territories={ADA: 4, BASIL: 2, CLEO: 2},
        military={ADA: 1, BASIL: 5},
        technology={BASIL: 1, CLEO: 4},
    )
    return go(
        state,
        (ADA, "command|cubes|bank|1"),
        (BASIL, "command|military|used"),
        (CLEO, "command|technology|reserve"),
    )


def test_the_end_of_the_era_reverts_everything_in_the_rulebooks_order() -> None:
    """At the end of the Era: the cubes power's cubes go back to the general supply
    (before the Turn End procedure), the +2 levels lapse, and "any activated Command
    tokens are removed from the game", each cube back where it came from; then the
    summary, and Era II."""
    state = three_powers()
    cubes_whole(state)
    state, text = end_era(state, CLEO)
    lines = text.split("\n")
    order = [
        "Persians report the end of Era I",
        "End of Era I",
        "Romans return 1 cube to the general supply",
        "Greeks fall to Military 5",
        "Persians fall to Technology 4",
        "Romans' Command token leaves the game; its cube goes back to the Bank",
        "Greeks' Command token leaves the game; its cube goes back to the Used Pool",
        "Persians' Command token leaves the game; its cube goes back to their reserve",
        "Era I summary",
        "Turn End procedure",
    ]
    found = []
    for part in order:
        where = [i for i, line in enumerate(lines) if part.casefold() in line.casefold()]
        assert where, f"{part!r} not said:\n{text}"
        found.append(where[0])
    assert found == sorted(found), text
    assert all(c.token.status == "removed" for c in state.civs)
    assert [c.cubes for c in state.civs] == [
        {"supply": 4, "bank": 2, "used": 2, "reserve": 2, "map": 0},
        {"supply": 4, "bank": 2, "used": 2, "reserve": 2, "map": 0},
        {"supply": 4, "bank": 2, "used": 2, "reserve": 2, "map": 0},
    ]
    assert (state.era, state.turn, state.phase) == (2, 1, "era")


def test_the_era_summary_names_each_power_used_and_the_standings() -> None:
    """The summary line lists the tokens used and the standings before and after."""
    state, text = end_era(three_powers())
    summary = next(line for line in text.split("\n") if "summary" in line)
    assert summary.startswith(
        "Era I summary — Command: Romans: Cubes from the general supply; Greeks: +2 Military; "
        "Persians: +2 Technology."
    )
    assert "Standings before the end: Territory: Romans 4 · Military: Greeks 7 · " in summary
    assert "After: Territory: Romans 4 · Military: Greeks 5 · Technology: Persians 4." in summary
    state, text = end_era(state)
    assert "Era II summary — Command: no token was activated." in text


def test_a_token_used_in_an_era_is_out_of_the_game_and_an_unused_one_stays() -> None:
    """ "At the end of the Era, any activated Command tokens are removed from the game":
    a token used in Era I can't be used in Era II; one not used can."""
    state = table(territories={ADA: 3, BASIL: 2, CLEO: 1}, military={ADA: 2, BASIL: 3, CLEO: 1})
    state = go(state, (ADA, "command|military|bank"))
    state, _ = end_era(state)
    assert "used in an earlier Era and is out of the game" in refused(
        state, ADA, "command|military|used"
    )
    assert commands(state, BASIL), "the Greeks' token is still there in Era II"
    state, _ = end_era(state)
    state = go(state, (BASIL, "command|military|bank"))
    assert state.civs[BASIL].token.era == 3


def test_an_era_has_four_turns_and_the_table_reports_each() -> None:
    """Historia's Eras have four turns: any player reports each new one; the Era ends
    in its fourth, and three Eras make the game."""
    state = roman_table()
    assert "An Era has 4 turns and this is turn 1" in refused(state, ADA, "era")
    state, text = said(state, CLEO, "turn")
    assert state.turn == 2 and "Turn 2 of 4 begins (Persians report)" in text
    state = go(state, (BASIL, "turn"), (ADA, "turn"))
    assert "This is turn 4 of 4" in refused(state, ADA, "turn")
    assert "turn" not in keys(state, ADA) and "era" in keys(state, ADA)
    state = go(state, (BASIL, "era"), (ADA, "agree"), (CLEO, "agree"))
    assert (state.era, state.turn) == (2, 1)
    state = to_final(state)
    assert state.era == 3 and "Turns are counted during the Eras" in refused(state, ADA, "turn")
    assert "Only an Era under way can end" in refused(state, ADA, "era")


def test_the_end_of_an_era_takes_effect_once_the_others_agree() -> None:
    """An end of the Era reported too early must not take effect: one player reports
    it, each other player agrees; until then nothing of it happens (the powers stay in
    force, the Era's reports stay open) and the others are asked, reports waiting; one
    objection and the Era goes on, its reports still open to dispute."""
    state = go(turns(roman_table()), (ADA, "command|military|bank"))
    number = last_report(state)
    state, text = said(state, BASIL, "era")
    assert "Greeks report the end of Era I" in text and "End of Era I" not in text
    assert (state.phase, state.era) == ("ending", 1)
    assert state.civs[ADA].token.status == "active" and state.reports
    assert GAME.to_act(state) == {ADA, CLEO}
    assert "Greeks report the end of Era I" in (GAME.question(state, CLEO) or "")
    assert "The end of Era I waits for Ada, Cleo" in refused(state, CLEO, "territory|add|Gaul")
    assert "agreed to the end of the Era already" in refused(state, BASIL, "agree")
    state, text = said(state, CLEO, "object")
    assert "Cleo objects: Era I goes on" in text
    assert state.phase == "era" and state.civs[ADA].token.status == "active"
    assert f"dispute|{number}" in keys(state, BASIL)
    state = go(state, (BASIL, "era"), (ADA, "agree"))
    assert state.phase == "ending" and GAME.to_act(state) == {CLEO}
    assert GAME.timeout_action(state, CLEO).key == "agree"
    state, text = said(state, CLEO, "agree")
    assert (state.era, state.phase) == (2, "era") and "End of Era I" in text
    assert state.civs[ADA].token.status == "removed" and state.reports == []


# --------------------------------------------------------------------------- bonuses


def test_a_bonus_is_kept_when_the_level_is_lost_and_earned_again_when_regained() -> None:
    """ "Any bonus associated to the lost Technology or Military levels ... is not lost
    and can be gained again when increasing the level": the +2 lapses (its levels'
    bonuses stay earned), and reaching those levels again earns them again."""
    state, text = said(roman_table(), ADA, "command|military|bank")
    assert "Romans reach Military 4: take the bonus printed at levels 3 and 4" in text
    assert "earned again" not in text
    state, text = end_era(state)
    assert "Romans fall to Military 2: the bonuses of levels 3 and 4 stay earned" in text
    state, text = said(state, ADA, "level|military|3")
    assert "reach Military 3: take the bonus printed at level 3" in text
    assert "level 3 reached before: its bonus is earned again" in text
    state, text = said(state, ADA, "level|military|5")
    assert "levels 4 and 5" in text and "(level 4 reached before" in text


def test_a_level_reported_down_and_up_again_earns_its_bonus_again() -> None:
    """The same for a level the table reports lost (Historia's own losses)."""
    state = roman_table()
    state, text = said(state, BASIL, "level|technology|3")
    assert "earned again" not in text
    state, text = said(state, BASIL, "level|technology|1")
    assert "Greeks fall to Technology 1: the bonuses of levels 2 and 3 stay earned" in text
    state, text = said(state, BASIL, "level|technology|4")
    assert "(levels 2 and 3 reached before: its bonus is earned again)" in text


def test_a_level_taken_back_was_never_reached() -> None:
    """A level report taken back in a dispute did not happen: the level it claimed is
    not "reached before" afterwards."""
    state = go(roman_table(), (BASIL, "level|technology|3"))
    state = go(state, (ADA, f"dispute|{last_report(state)}"), (BASIL, "retract"))
    assert state.civs[BASIL].levels["technology"] == 0
    state, text = said(state, BASIL, "level|technology|2")
    assert "earned again" not in text


def test_a_set_up_level_taken_back_announces_no_bonus() -> None:
    """Starting levels earn no bonus: a set-up level report taken back, even once the
    Era has begun, says nothing of bonuses earned or kept."""
    state = go(named(3), (ADA, "level|military|3"))
    number = last_report(state)
    state = go(state, (ADA, "begin"), (BASIL, f"dispute|{number}"))
    state, text = said(state, ADA, "retract")
    assert state.civs[ADA].levels["military"] == 0
    assert "bonus" not in text and "earned" not in text, text


def test_a_level_taken_back_says_its_bonus_was_not_earned() -> None:
    """A report taken back did not happen: the levels it reached (by a report or by the
    +2 of an activation) earned nothing, and a fall it reported lost nothing, so taking
    it back earns nothing again."""
    state = go(roman_table(), (BASIL, "level|military|5"))
    state = go(state, (ADA, f"dispute|{last_report(state)}"))
    state, text = said(state, BASIL, "retract")
    assert "Greeks' Military is back to 3: the bonus printed at levels 4 and 5 was not " in text
    assert "stay earned" not in text
    state, text = said(roman_table(), ADA, "command|military|bank")
    assert "take the bonus printed at levels 3 and 4" in text
    state = go(state, (BASIL, f"dispute|{last_report(state)}"))
    state, text = said(state, ADA, "retract")
    assert "Romans' Military is back to 2: the bonus printed at levels 3 and 4 was not " in text
    assert "stay earned" not in text
    state = go(roman_table(), (BASIL, "level|military|1"))
    state = go(state, (ADA, f"dispute|{last_report(state)}"))
    state, text = said(state, BASIL, "retract")
    assert state.civs[BASIL].levels["military"] == 3
    assert "bonus" not in text and "earned" not in text, text


# --------------------------------------------------------------------------- disputes


def test_a_dispute_pauses_the_match_until_it_is_settled() -> None:
    """Anyone may dispute another's report: the match waits (nothing else is reported)
    for the disputer, until the reporter takes it back or the disputer withdraws."""
    state = go(roman_table(), (BASIL, "territory|add|Crete"))
    number = last_report(state)
    state, text = said(state, CLEO, f"dispute|{number}")
    assert state.phase == "dispute" and GAME.to_act(state) == {CLEO}
    assert f"Cleo disputes report #{number}" in text
    assert "Paused by Cleo's dispute" in refused(state, ADA, "territory|add|Gaul")
    assert "Paused by Cleo's dispute" in refused(state, ADA, "command|military|bank")
    assert "Paused by Cleo's dispute" in refused(state, BASIL, "turn")
    assert keys(state, CLEO) == ["withdraw"] and keys(state, BASIL) == ["retract"]
    assert keys(state, ADA) == []
    assert f"Paused by Cleo's dispute of #{number}" in GAME.view(state, None)["prompt"]


def test_withdrawing_a_dispute_lets_the_report_stand() -> None:
    """The disputer withdraws: the report stands, settled (it can't be disputed again)."""
    state = go(roman_table(), (BASIL, "territory|add|Crete"))
    number = last_report(state)
    state = go(state, (CLEO, f"dispute|{number}"))
    state, text = said(state, CLEO, "withdraw")
    assert state.phase == "era" and "stands" in text
    assert "Crete" in state.civs[BASIL].territories
    assert "it was settled: it stands" in refused(state, ADA, f"dispute|{number}")


def test_retracting_a_report_undoes_it() -> None:
    """The reporter takes a disputed report back: what it changed is undone (a
    territory, a level, cubes, a turn, an activation), and the match goes on."""
    base = roman_table()
    cases = {
        "territory|add|Crete": lambda s: "Crete" not in s.civs[BASIL].territories,
        "level|military|6": lambda s: s.civs[BASIL].levels["military"] == 3,
        "cubes|2|used|map": lambda s: (
            s.civs[BASIL].cubes["used"] == 2 and s.civs[BASIL].cubes["map"] == 0
        ),
        "turn": lambda s: s.turn == 1,
    }
    for key, undone in cases.items():
        state = go(base, (BASIL, key))
        state = go(state, (ADA, f"dispute|{last_report(state)}"))
        state, text = said(state, BASIL, "retract")
        assert undone(state), key
        assert state.phase == "era" and "Basil takes report" in text
        assert state.reports[-1].status == "retracted"
    state = go(base, (ADA, "command|cubes|used|2"))
    state = go(state, (BASIL, f"dispute|{last_report(state)}"), (ADA, "retract"))
    civ = state.civs[ADA]
    assert civ.token.status == "available" and civ.cubes == {
        "supply": 4,
        "bank": 2,
        "used": 2,
        "reserve": 2,
        "map": 0,
    }
    assert state.history[-1].activations == []


def test_an_activation_taken_back_takes_back_what_the_players_word_corrected() -> None:
    """An activation on the player's word is one report: taken back (disputed, or by its
    reporter), the cubes its word counted go back to where Arbiter counted them, and the
    ones it added to the civilization's count are taken off it, said in the line; no
    cube is left behind, made out of nothing."""
    base = table(territories={ADA: 3, BASIL: 2, CLEO: 1}, military={ADA: 2, BASIL: 3}, cubes=False)
    state = go(base, (ADA, "vouch|cubes|reserve|2"))
    assert state.civs[ADA].cubes["supply"] == 11 and state.civs[ADA].added_cubes == 2
    state = go(state, (BASIL, f"dispute|{last_report(state)}"))
    state, text = said(state, ADA, "retract")
    civ = state.civs[ADA]
    assert civ.token.status == "available" and civ.added_cubes == 0
    assert civ.cubes == {"supply": CUBES, "bank": 0, "used": 0, "reserve": 0, "map": 0}
    assert (
        "Romans' Command token is face up again; the cube counted in their reserve on their "
        "word is counted in their personal supply again; the 2 cubes their word added are "
        "off their count."
    ) in text
    cubes_whole(state)
    state = go(base, (ADA, "vouch|military|used"))
    state, text = said(state, ADA, f"retract|{last_report(state)}")
    assert state.civs[ADA].cubes == {"supply": CUBES, "bank": 0, "used": 0, "reserve": 0, "map": 0}
    assert "counted in their personal supply again" in text


def test_a_report_cannot_be_retracted_after_a_later_change_to_the_same_thing() -> None:
    """A report is taken back only while what it set still stands: not a territory lost
    since, a level reported again since, a turn followed by another, nor an activation
    whose cubes have been spent; the disputer may still withdraw."""
    base = roman_table()
    cases = [
        ("territory|add|Crete", "territory|remove|Crete"),
        ("level|military|6", "level|military|7"),
        ("turn", "turn"),
        ("cubes|2|used|map", "cubes|2|map|bank"),
    ]
    for key, later in cases:
        state = go(base, (BASIL, key))
        number = last_report(state)
        state = go(state, (BASIL, later), (ADA, f"dispute|{number}"))
        assert "a later report changed the same thing" in refused(state, BASIL, "retract"), key
        assert GAME.view(state, BASIL)["can_retract"] is False
        state = go(state, (ADA, "withdraw"))
        assert state.phase == "era"
    state = go(base, (ADA, "command|cubes|used|2"))
    number = last_report(state)
    state = go(state, (ADA, "cubes|6|supply|map"), (BASIL, f"dispute|{number}"))
    assert "can't be taken back" in refused(state, ADA, "retract")


def test_a_reporter_takes_back_their_own_report_without_a_dispute() -> None:
    """A reporter who got a report wrong takes it back themselves: what it changed is
    undone and it reads as taken back; only their own recent reports not yet settled,
    and only while what it set still stands."""
    state = go(roman_table(), (BASIL, "territory|add|Crete"))
    number = last_report(state)
    assert f"retract|{number}" in keys(state, BASIL)
    assert f"retract|{number}" not in keys(state, ADA)
    assert f"Report #{number} is Basil's" in refused(state, ADA, f"retract|{number}")
    state, text = said(state, BASIL, f"retract|{number}")
    assert "Crete" not in state.civs[BASIL].territories and state.phase == "era"
    assert state.report(number).status == "retracted"  # type: ignore[union-attr]
    assert f"Basil takes report #{number} back." in text
    assert "taken back already" in refused(state, BASIL, f"retract|{number}")
    assert "no recent report #99" in refused(state, BASIL, "retract|99")
    state = go(state, (BASIL, "level|military|6"), (BASIL, "level|military|7"))
    assert "a later report changed the same thing" in refused(
        state, BASIL, f"retract|{last_report(state) - 1}"
    )
    state = go(state, (ADA, f"dispute|{last_report(state)}"))
    assert "Paused by " in refused(state, CLEO, f"retract|{last_report(state) - 3}")


def test_an_activation_that_rested_on_a_report_taken_back_is_undone() -> None:
    """Taking back a report checks again every activation made after it: the Romans,
    alone first in Territory only by the territory taken back, are tied for first
    without it, so their activation is taken back too (its cube returned) and the line
    says why; an activation that still stands on its own is said to stand."""
    base = table(territories={ADA: 2, BASIL: 2, CLEO: 1}, military={ADA: 2, BASIL: 3, CLEO: 1})
    state = go(base, (ADA, "territory|add|Gaul"))
    number = last_report(state)
    state = go(state, (ADA, "command|military|bank"))
    activation = last_report(state)
    state = go(state, (BASIL, f"dispute|{number}"))
    state, text = said(state, ADA, "retract")
    civ = state.civs[ADA]
    assert civ.token.status == "available" and civ.cubes["bank"] == 2
    assert state.report(activation).status == "retracted"  # type: ignore[union-attr]
    assert (
        f"Romans' activation (#{activation}) is checked again without report #{number}: "
        "it is taken back (tied for first in Territory with Greeks (2)"
    ) in text
    assert "Romans' Military is back to 2" in text and "face up again" in text
    cubes_whole(state)
    # Taken back by its reporter, the same, judged as the activation was made: a later
    # report that would make the Romans first today doesn't save it.
    state = go(base, (ADA, "territory|add|Iberia"))
    number = last_report(state)
    state = go(state, (ADA, "command|military|bank"), (BASIL, "territory|remove|Greeks 2"))
    state, text = said(state, ADA, f"retract|{number}")
    assert state.civs[ADA].token.status == "available"
    assert "is checked again without report" in text and "it is taken back (tied" in text


def test_an_activation_is_judged_as_it_was_made_not_on_later_standings() -> None:
    """Taking back an earlier report checks an activation made after it at the moment it
    was made, without that report: the Romans, first in Territory (3 to 2) when they
    activated, keep their activation when Carthage's unrelated earlier report is taken
    back, though a later legitimate report has tied the Greeks with them since."""
    state = go(roman_table(), (CLEO, "territory|add|Sicily"))
    number = last_report(state)
    state = go(
        state,
        (ADA, "command|military|bank"),
        (BASIL, "territory|add|Thrace"),  # the Greeks tie the Romans (3 each) after it
    )
    state, text = said(state, CLEO, f"retract|{number}")
    assert state.civs[ADA].token.status == "active"
    assert "is checked again without report" in text and "it stands (first in Territory)" in text
    cubes_whole(state)


def test_only_the_disputer_withdraws_and_only_the_reporter_retracts() -> None:
    """The one who raised the dispute withdraws it; the one who made the report takes
    it back; nobody else settles it."""
    state = go(roman_table(), (BASIL, "territory|add|Crete"))
    state = go(state, (ADA, f"dispute|{last_report(state)}"))
    assert "Only Ada, who raised the dispute" in refused(state, CLEO, "withdraw")
    assert "Only Ada, who raised the dispute" in refused(state, BASIL, "withdraw")
    assert "Only Basil, who made the report" in refused(state, ADA, "retract")
    assert "Only Basil, who made the report" in refused(state, CLEO, "retract")
    assert "No dispute is open" in refused(roman_table(), ADA, "withdraw")


def test_reports_are_numbered_once_for_the_whole_game() -> None:
    """One numbering for the whole game: the first report of an Era follows the last of
    the Era before (the Era's reports themselves can no longer be disputed)."""
    state = go(roman_table(), (ADA, "territory|add|Gaul"))
    last = last_report(state)
    state, _ = end_era(state)
    assert state.era == 2 and state.reports == []
    state, text = said(state, BASIL, "level|military|4")
    assert text.startswith(f"`#{last + 4}` ")  # after the 3 turns reported
    assert last_report(state) == state.reported == last + 4


def test_a_match_saved_before_one_numbering_numbers_on_from_its_latest_report() -> None:
    """A match saved before reports were numbered once for the game (its state has no
    count of reports) loads with its latest report's number, so its next report
    follows it and its log replays to the same state."""
    state = go(roman_table(), (ADA, "territory|add|Gaul"))
    saved = json.loads(state.model_dump_json())
    del saved["reported"]
    old = State.model_validate_json(json.dumps(saved))
    assert old == state and old.reported == last_report(state)
    old, text = said(old, BASIL, "level|military|4")
    assert text.startswith(f"`#{last_report(state) + 1}` ")


def test_only_another_players_recent_unsettled_report_is_disputed() -> None:
    """Your own report is corrected by another report, not disputed; only the latest
    five can be; the end of the Era closes the Era's reports."""
    state = go(roman_table(), (BASIL, "territory|add|Crete"))
    number = last_report(state)
    assert f"Report #{number} is yours: if it is wrong, take it back" in refused(
        state, BASIL, f"dispute|{number}"
    )
    assert "no recent report #99" in refused(state, ADA, "dispute|99")
    for n in range(1, 6):
        state = go(state, (CLEO, f"territory|add|Babylon {n}"))
    assert "only the latest few reports" in refused(state, ADA, f"dispute|{number}")
    assert f"dispute|{number + 5}" in keys(state, ADA)
    state, _ = end_era(state)
    assert state.reports == [] and not any(k.startswith("dispute|") for k in keys(state, ADA))
    assert "no recent report" in refused(state, ADA, f"dispute|{number + 5}")


# --------------------------------------------------------------------------- the result


def test_after_the_last_era_the_table_reports_the_winner_and_everyone_agrees() -> None:
    """After Era III the table scores Historia itself: a player reports the winner, each
    other player agrees, and then the match is over."""
    state = to_final(roman_table())
    assert "report who won" in GAME.view(state, None)["prompt"]
    assert GAME.to_act(state) == set()
    assert "No result has been reported yet" in refused(state, BASIL, "agree")
    state, text = said(state, ADA, "result|1")
    assert "Ada reports that Greeks (Basil) won" in text
    assert GAME.to_act(state) == {BASIL, CLEO}
    assert "has reported a result already" in refused(state, CLEO, "result|2")
    assert "agreed to this result already" in refused(state, ADA, "agree")
    state = go(state, (BASIL, "agree"))
    assert GAME.outcome(state) is None and GAME.to_act(state) == {CLEO}
    state, text = said(state, CLEO, "agree")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == [BASIL] and outcome.losers == [ADA, CLEO]
    assert outcome.text == "The table agrees: Greeks won (Basil)." and outcome.reason == "reported"
    assert "This game is over" in refused(state, ADA, "agree")


def test_a_shared_win_is_reported_and_agreed() -> None:
    """The table's score may end level: the winners reported together share the win once
    every other player agrees; each winner is named once."""
    state = to_final(roman_table())
    assert "result|0|2" in keys(state, BASIL) and "result|0|1|2" in keys(state, BASIL)
    state, text = said(state, BASIL, "result|0|2")
    assert "Basil reports that Romans and Persians (Ada, Cleo) share the win" in text
    state = go(state, (ADA, "agree"), (CLEO, "agree"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == [ADA, CLEO] and outcome.losers == [BASIL]
    assert outcome.text == "The table agrees: Romans and Persians won (Ada, Cleo)."
    final = to_final(roman_table())
    assert "each winner once, in seat order" in refused(final, ADA, "result|2|0")
    assert "each winner once, in seat order" in refused(final, ADA, "result|0|0")


def test_an_objection_drops_the_result_reported() -> None:
    """One objection and the result is reported again."""
    state = go(to_final(roman_table()), (ADA, "result|0"))
    state, text = said(state, CLEO, "object")
    assert state.proposal is None and state.phase == "final" and "Cleo objects" in text
    state = go(state, (CLEO, "result|2"), (ADA, "agree"), (BASIL, "agree"))
    assert GAME.outcome(state).winners == [CLEO]  # type: ignore[union-attr]


def test_the_result_is_reported_only_after_the_last_era() -> None:
    """Before Era III ends there is no result to report; a conceded player can't be
    reported the winner."""
    assert "once the last Era has ended" in refused(roman_table(), ADA, "result|0")
    state, _ = GAME.concede(to_final(roman_table()), CLEO, rng_for(0, 1))
    assert "Cleo has conceded" in refused(state, ADA, "result|2")


# --------------------------------------------------------------------------- concession


def test_a_concession_of_one_of_two_leaves_the_other_the_winner() -> None:
    """A player may concede at any moment: the last player left wins."""
    for state in (new_table(2), table(2), to_final(table(2))):
        state, events = GAME.concede(state, ADA, rng_for(0, 1))
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome.winners == [BASIL] and outcome.losers == [ADA]
        assert outcome.reason == "concession" and "Basil wins" in outcome.text
        assert any("Ada concedes" in e.text for e in events)


def test_with_three_the_others_play_on_without_the_conceded_civilization() -> None:
    """With more players the others play on; the conceded player does nothing more and
    their active token leaves the game with its cube returned."""
    state = go(roman_table(), (ADA, "command|military|bank"))
    state, _ = GAME.concede(state, ADA, rng_for(0, 1))
    assert GAME.outcome(state) is None and state.phase == "era"
    assert keys(state, ADA) == [] and GAME.question(state, ADA) is None
    assert "You have conceded" in refused(state, ADA, "turn")
    assert state.civs[ADA].token.status == "removed"
    cubes_whole(state)
    state, events = GAME.concede(state, ADA, rng_for(0, 2))
    assert events == [], "conceding twice changes nothing"


def test_a_dispute_ends_when_its_disputer_or_reporter_concedes() -> None:
    """A dispute lapses with the player who raised it or made the report: the report
    stands and the match goes on; another player's concession leaves it open."""
    for who in (BASIL, CLEO):
        state = go(table(4, military={BASIL: 2}), (BASIL, "territory|add|Crete"))
        state = go(state, (CLEO, f"dispute|{last_report(state)}"))
        state, events = GAME.concede(state, who, rng_for(0, 1))
        assert state.phase == "era" and state.dispute is None
        assert state.reports[-1].status == "stands"
        assert any("ends with it" in e.text for e in events)
    state = go(table(4), (BASIL, "territory|add|Crete"))
    state = go(state, (CLEO, f"dispute|{last_report(state)}"))
    state, _ = GAME.concede(state, DOV, rng_for(0, 1))
    assert state.phase == "dispute"


def test_a_concession_completes_the_agreement_or_drops_the_winner() -> None:
    """In the final phase, a concession by the last player to agree closes the match;
    by the player reported the winner, drops the result."""
    state = go(to_final(table(4)), (ADA, "result|1"), (BASIL, "agree"), (CLEO, "agree"))
    state, _ = GAME.concede(state, DOV, rng_for(0, 1))
    assert GAME.outcome(state).winners == [BASIL]  # type: ignore[union-attr]
    state = go(to_final(table(4)), (ADA, "result|1"))
    state, _ = GAME.concede(state, BASIL, rng_for(0, 1))
    assert state.proposal is None and state.phase == "final"


# --------------------------------------------------------------------------- words


def positions() -> list[State]:
    """A position of every kind: set-up (partly and fully named), an Era with tokens
    to activate, one active, a dispute, the final phase with and without a result, a
    concession, the end, an Era's end waiting for the table."""
    out = [new_table(3), go(new_table(3), (ADA, "civ|Romans")), named(3), roman_table()]
    out.append(three_powers())
    disputed = go(roman_table(), (BASIL, "level|military|6"))
    out.append(go(disputed, (ADA, f"dispute|{last_report(disputed)}")))
    final = to_final(roman_table())
    out += [final, go(final, (ADA, "result|2"))]
    out.append(GAME.concede(roman_table(), CLEO, rng_for(0, 1))[0])
    out.append(go(final, (ADA, "result|2"), (BASIL, "agree"), (CLEO, "agree")))
    out.append(GAME.concede(table(2), BASIL, rng_for(0, 1))[0])
    out.append(table(6, territories={ADA: 2, BASIL: 2}, military={CLEO: 3}))
    out.append(go(turns(three_powers()), (BASIL, "era"), (CLEO, "agree")))  # the Era ending
    return out


def test_a_refused_action_changes_nothing_and_says_why() -> None:
    """Everything a seat might try (`candidates`) that isn't legal is refused with a
    sentence, and the position is left as it was; what is legal is accepted."""
    for state in positions():
        for seat in range(len(state.civs)):
            legal = set(keys(state, seat))
            for action in GAME.candidates(state, seat):
                if action.key in legal:
                    act(state, seat, action.key)
                else:
                    refused(state, seat, action.key)


def test_labels_are_unique_among_a_seats_legal_actions() -> None:
    """No two of a seat's choices read alike."""
    for state in positions():
        for seat in range(len(state.civs)):
            labels = [GAME.describe(a, state) for a in GAME.legal_actions(state, seat)]
            assert len(set(labels)) == len(labels), labels
            assert all(0 < len(label) <= 100 for label in labels)
            for action in GAME.legal_actions(state, seat):
                GAME.explain(action, state, seat)


def test_a_seat_waited_for_is_asked_in_the_second_person_and_has_a_timeout() -> None:
    """Each seat the table waits for is asked what to do, addressed to them, and has a
    timeout action it may take; the others are asked nothing."""
    for state in positions():
        waiting = GAME.to_act(state)
        for seat in range(len(state.civs)):
            asked = GAME.question(state, seat)
            assert (asked is not None) == (seat in waiting), (state.phase, seat, asked)
            if asked is None:
                continue
            assert " you" in f" {asked}" or "your" in asked, asked
            assert GAME.timeout_action(state, seat) in GAME.legal_actions(state, seat) or (
                GAME.timeout_action(state, seat).kind in GAME.open_kinds
            )
            act(state, seat, GAME.timeout_action(state, seat).key)  # accepted


def test_the_prompt_says_where_the_table_is() -> None:
    """The board's headline: the set-up waiting for names or for the host, the Era and
    turn, a dispute, the result awaited, the end."""
    prompts = [GAME.view(state, None)["prompt"] for state in positions()]
    assert prompts[0] == "Set-up — waiting for Ada, Basil, Cleo to name a civilization"
    assert prompts[2] == "Set-up — Ada begins Era I"
    assert prompts[3] == "Era I, turn 1 of 4 — report changes as you play"
    assert prompts[5].startswith("Paused by Ada's dispute of #19: ")
    assert prompts[7] == "Result reported — waiting for Basil, Cleo to agree"
    assert prompts[9] == "The table agrees: Persians won (Cleo)."
    assert prompts[-1] == (
        "The end of Era I waits for Ada to agree or object (`/historia agree`, `/historia object`)."
    )


def test_the_view_never_fails_and_is_json() -> None:
    """Every position's view, public and each seat's, serialises to JSON."""
    for state in positions():
        for seat in (None, *range(len(state.civs))):
            json.dumps(GAME.view(state, seat))


def test_the_view_says_who_may_activate_and_why_not() -> None:
    """Each civilization's token shows whether it may be activated, through which
    category, or why not."""
    civs = GAME.view(roman_table(), BASIL)["civs"]
    assert civs[ADA]["token"]["eligible"] and civs[ADA]["token"]["by"] == "Territory"
    assert not civs[CLEO]["token"]["eligible"]
    why = civs[CLEO]["token"]["why_not"]
    assert why == (
        "tied for first in Technology with Romans and Greeks (0); not first in Territory "
        "(1; Romans 3)"
    )


def test_any_open_key_is_labelled_without_failing() -> None:
    """A player's own words are labelled before they are checked: words that don't read
    as a report are labelled by their key."""
    state = roman_table()
    for key in (
        "level|speed|3",
        "cubes|x|supply|bank",
        "cubes|0|supply|bank",
        "territory|add",
        "civ",
    ):
        assert GAME.describe(Action.from_key(key), state) == key
    assert GAME.describe(Action.from_key("cubes|2|supply|bank"), state) == (
        "Move 2 cubes from your personal supply to the Bank"
    )
    assert GAME.describe(Action.from_key("level|military|4"), state) == "Military level 4"


def test_a_seat_not_at_the_table_is_refused() -> None:
    """Only the table's seats act (a negative seat is not the last one)."""
    state = roman_table()
    for seat in (-1, 3, 99):
        assert "don't have a seat at this table" in refused(state, seat, "turn")
        assert GAME.legal_actions(state, seat) == []


def test_reports_check_their_words() -> None:
    """A report names a known track and place, a whole number in range, and changes
    something."""
    state = roman_table()
    assert "Military or Technology" in refused(state, ADA, "level|gold|3")
    assert "from 0 to 30" in refused(state, ADA, "level|military|31")
    assert "from 0 to 30" in refused(state, ADA, "level|military|-1")
    assert "from 0 to 30" in refused(state, ADA, "level|military|02")
    assert "level is 2 already" in refused(state, ADA, "level|military|2")
    assert "Cubes are in one of" in refused(state, ADA, "cubes|1|supply|pocket")
    assert "from one place to another" in refused(state, ADA, "cubes|1|bank|bank")
    assert refused(state, ADA, "cubes|3|bank|map") == (
        "Arbiter counts 2 cubes of yours in the Bank: if your table has more there, first "
        "report the move that put them there."
    )
    assert "from 1 to 10" in refused(state, ADA, "cubes|0|bank|map")
    assert "hold Romans 1 already" in refused(state, ADA, "territory|add|romans 1")
    assert "don't hold Gaul" in refused(state, ADA, "territory|remove|Gaul")
    assert "added or removed" in refused(state, ADA, "territory|swap|Gaul")
    state = go(state, (BASIL, "territory|add|romans 1"))
    assert state.civs[BASIL].territories[-1] == "Romans 1", "a known territory keeps its name"


def test_the_result_is_acknowledged_as_what_the_player_did() -> None:
    """What a player reads after reporting, agreeing with or objecting to the result: what
    they did, not the menu's label ("Romans (Ada) won")."""
    final = to_final(roman_table())
    assert GAME.acknowledge(Action.from_key("result|0"), final, BASIL) == (
        "You reported that Romans won: the others are asked to agree."
    )
    assert GAME.acknowledge(Action.from_key("result|0|2"), final, BASIL) == (
        "You reported a shared win for Romans and Persians: the others are asked to agree."
    )
    reported = go(final, (ADA, "result|0"))
    assert GAME.acknowledge(Action.from_key("agree"), reported, BASIL) == (
        "You agreed with the result."
    )
    assert GAME.acknowledge(Action.from_key("object"), reported, BASIL) == (
        "You objected to the result: it is reported again."
    )
