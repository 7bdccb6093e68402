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
