"""Command of Nature's formation geometry and combat arithmetic, against the rulebook."""

from __future__ import annotations

import pytest

from rules.command_of_nature.combat import incoming_attack_dmg, spend_boosts, take_hit
from rules.command_of_nature.formation import (
    Elemental,
    Formation,
    connected,
    connected_group,
    distance,
    gap_to_fill,
    move,
    summon_spaces,
    swap,
    touching,
)


def filled(halves: int = 1, *, skip: set[tuple[int, int]] = frozenset()) -> Formation:  # type: ignore[assignment]
    """A formation with an Elemental (card = its index) in every space but `skip`."""
    formation = Formation.empty(halves)
    for n, pos in enumerate(formation.positions()):
        if pos not in skip:
            formation.put(pos, Elemental(card=n, owner=formation.half_of(pos)))
    return formation


def test_two_player_formation_rows_hold_1_2_and_3_spaces():
    """Set-up, 2 players: "Row I ... space for 1 Elemental, Row II ... 2, and Row III ... 3"."""
    assert [len(r) for r in Formation.empty(1).rows] == [1, 2, 3]


def test_team_formation_rows_hold_2_4_and_6_spaces_half_each():
    """Set-up, 4 players: rows of 2, 4 and 6; each teammate sets up half."""
    team = Formation.empty(2)
    assert [len(r) for r in team.rows] == [2, 4, 6]
    assert [team.half_of((2, s)) for s in range(6)] == [0, 0, 0, 1, 1, 1]


def test_melee_is_row_one_against_row_one():
    """Melee Attack Commands: "the Elemental in Row I ... attack the Elemental in Row I"."""
    assert distance((0, 0), (0, 0)) == 1


def test_ranged_distance_example_two_rows_away():
    """Ranged example: "2 rows away": own Row II against enemy Row I, OR own Row I
    against enemy Row II."""
    assert distance((1, 0), (0, 0)) == 2
    assert distance((0, 0), (1, 1)) == 2
    assert distance((1, 1), (1, 0)) == 3 and distance((2, 2), (2, 0)) == 5


def test_shield_example_1_three_shields_against_four_dmg():
    """Shield tokens, Example 1: 3 shields, an attack of 4 DMG: all 3 shields go and the
    Elemental takes 1 DMG."""
    target = Elemental(card=1, owner=0, shields=3)
    hit = take_hit(target, hp=5, incoming=4)
    assert (hit.dealt, hit.shields_lost, target.shields, target.damage) == (1, 3, 0, 1)
    assert not hit.defeated


def test_shield_example_2_three_shields_against_one_dmg():
    """Shield tokens, Example 2: 3 shields, an attack of 1 DMG: all 3 shields go and the
    Elemental takes 0 DMG."""
    target = Elemental(card=1, owner=0, shields=3)
    hit = take_hit(target, hp=5, incoming=1)
    assert (hit.dealt, hit.shields_lost, target.shields, target.damage) == (0, 3, 0, 0)


def test_combat_dmg_is_command_plus_boosts_minus_instants():
    """Combat: start with the Attack Command's DMG, add 1 per boost, subtract what
    Instant Commands reduce (never below 0)."""
    assert incoming_attack_dmg(command_dmg=2, boosts=3, reduced=1) == 4
    assert incoming_attack_dmg(command_dmg=1, boosts=0, reduced=3) == 0


def test_no_dmg_leaves_the_shields():
    """Shields go "after an Elemental with shields on it is dealt any DMG": none, none go."""
    target = Elemental(card=1, owner=0, shields=2)
    assert take_hit(target, hp=3, incoming=0).shields_lost == 0 and target.shields == 2


def test_an_elemental_is_defeated_when_its_damage_reaches_its_hp():
    """Combat: "If ... the amount of DMG on an Elemental equals or exceeds that card's HP,
    that Elemental is defeated"."""
    target = Elemental(card=1, owner=0, damage=2)
    assert take_hit(target, hp=4, incoming=2).defeated
    assert not take_hit(Elemental(card=2, owner=0), hp=4, incoming=3).defeated


def test_boosts_go_after_attacking_unless_a_card_keeps_them():
    """Boost tokens: "After you attack with an Elemental with boosts on it, you must
    remove all boosts"; a card may say they stay (a Champion does)."""
    attacker = Elemental(card=1, owner=0, boosts=2)
    assert spend_boosts(attacker) == 2 and attacker.boosts == 0
    keeper = Elemental(card=2, owner=0, boosts=2)
    assert spend_boosts(keeper, keeps_boosts=True) == 2 and keeper.boosts == 2


def test_summon_into_the_frontmost_row_with_an_empty_space():
    """Elementals: "place it in the frontmost row that has an empty space ... if you have
    an empty space in Row II, you cannot summon an Elemental in Row III"."""
    formation = filled(skip={(1, 1), (2, 0), (2, 2)})
    assert summon_spaces(formation) == [(1, 1)]
    assert summon_spaces(filled()) == []
    team = filled(2, skip={(2, 1), (2, 4)})
    assert summon_spaces(team) == [(2, 1), (2, 4)]
    assert summon_spaces(team, half=1) == [(2, 4)]


def test_a_gap_in_row_one_is_filled_from_row_two():
    """Combat: "If an Elemental is defeated in Row I of your formation and you have at
    least 1 Elemental in Row II, you must move an Elemental from Row II to Row I"."""
    formation = filled(skip={(0, 0)})
    assert gap_to_fill(formation) == ((0, 0), [(1, 0), (1, 1)])
    move(formation, (1, 1), (0, 0))
    assert gap_to_fill(formation) == ((1, 1), [(2, 0), (2, 1), (2, 2)])
    move(formation, (2, 2), (1, 1))
    assert gap_to_fill(formation) is None  # Row III may keep its gap


def test_an_empty_row_two_is_filled_from_row_three_first():
    """Combat: "Continue this process until Row I and Row II have no empty spaces (or you
    have no available Elementals to move)" — the Sage included."""
    formation = filled(skip={(0, 0), (1, 0), (1, 1), (2, 0), (2, 2)})
    assert gap_to_fill(formation) == ((1, 0), [(2, 1)])
    move(formation, (2, 1), (1, 0))
    assert gap_to_fill(formation) == ((0, 0), [(1, 0)])
    move(formation, (1, 0), (0, 0))
    assert gap_to_fill(formation) is None


def test_connected_elementals_have_nothing_between_them_and_may_be_in_different_rows():
    """Swap: "2 Elementals ... are considered connected if there are no other Elementals
    between them; connected Elementals can be in different rows"."""
    formation = filled()
    assert connected(formation, (0, 0), (1, 0)) and connected(formation, (0, 0), (1, 1))
    assert connected(formation, (1, 0), (1, 1))
    assert not connected(formation, (2, 0), (2, 2))  # (2, 1) stands between them
    assert not connected(formation, (0, 0), (2, 1))  # two rows apart
    formation.put((2, 1), None)
    assert connected(formation, (2, 0), (2, 2))  # only an empty space between them


def test_spaces_touch_the_ones_they_sit_between():
    formation = Formation.empty(1)
    assert sorted(touching(formation, (1, 0))) == [(0, 0), (2, 0), (2, 1)]
    team = Formation.empty(2)
    assert sorted(touching(team, (0, 1))) == [(1, 2), (1, 3)]  # the second teammate's half
    assert sorted(touching(team, (2, 3))) == [(1, 2)]


@pytest.mark.parametrize("size", [2, 3, 5])
def test_a_ritual_counts_connected_elementals_of_one_faction(size: int):
    """Ritual Commands need "a minimum number of connected Elementals of the same faction"."""
    formation = filled()
    order = [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (2, 0)]
    leaf = {formation.at(p).card for p in order[:size]}  # type: ignore[union-attr]
    faction_of = {
        formation.at(p).card: ("leaf" if formation.at(p).card in leaf else "twig")  # type: ignore[union-attr]
        for p in formation.occupied()
    }
    assert len(connected_group(formation, (0, 0), faction_of=faction_of)) == size


def test_swapping_moves_tokens_with_the_elementals():
    formation = filled()
    formation.at((0, 0)).shields = 2  # type: ignore[union-attr]
    swap(formation, (0, 0), (1, 1))
    assert formation.at((1, 1)).shields == 2 and formation.at((0, 0)).shields == 0  # type: ignore[union-attr]
