"""Command of Nature attacks with several targets (an Attack Command's `targets = N`),
from real positions: Distant Double Strike hits up to 2 enemy Elementals in Row II."""

from __future__ import annotations

import pytest

from rules.command_of_nature import battle, effects, table
from rules.command_of_nature.actions import apply_action, legal_actions
from rules.command_of_nature.formation import gap_to_fill
from rules.command_of_nature.labels import describe, option_label
from rules.command_of_nature.setup import card_of
from rules.command_of_nature.state import State
from rules.core import Action, IllegalAction
from tests.rules.test_command_of_nature_effects import RNG, at, give, place, settle
from tests.rules.test_command_of_nature_turn import in_phase

DOUBLE = "distant-double-strike"  # ranged, from Rows I-II at Row II, 2 targets, STR - 2


def double_strike_position() -> tuple[State, int, int, int, int]:
    """Our Splinter Stinger (STR 3, so 1 DMG a target) in Row I holding Distant Double
    Strike; two Bruces (HP 3, no effect) in the enemy's Row II."""
    state, seat = in_phase("actions")
    team = state.active
    stinger = place(state, team, (0, 0), "splinter-stinger")
    first = place(state, 1 - team, (1, 0), "bruce")
    second = place(state, 1 - team, (1, 1), "bruce")
    give(state, seat, DOUBLE)
    return state, seat, stinger, first, second


def attack(targets: str) -> Action:
    return Action(kind="attack", args=(DOUBLE, "0.0", targets))


def test_legal_actions_offer_one_or_two_distinct_targets_in_reach_in_either_order():
    state, seat, *_ = double_strike_position()
    offered = {a.args[2] for a in legal_actions(state, seat) if a.kind == "attack"}
    offered_double = {
        a.args[2]
        for a in legal_actions(state, seat)
        if a.kind == "attack" and a.args[0] == DOUBLE and a.args[1] == "0.0"
    }
    assert offered_double == {"1.0", "1.1", "1.0+1.1", "1.1+1.0"}
    assert "0.0" not in offered_double and all(len(a) <= 100 for a in offered)
    assert all(len(a.key) <= 100 for a in legal_actions(state, seat)), (
        "action keys stay within 100 characters"
    )
    label = describe(state, attack("1.0+1.1"))
    assert label == (
        "Distant Double Strike: Splinter Stinger (I) attacks Bruce (IIa), then Bruce (IIb)"
    )


@pytest.mark.parametrize(
    ("targets", "reason"),
    [
        ("1.0+1.0", "different"),  # the same Elemental twice
        ("1.0+1.1+2.0", "different"),  # more than the Command allows
        ("1.0+0.0", "reach"),  # Row I is out of its reach
    ],
)
def test_targets_must_be_distinct_at_most_n_and_in_reach(targets: str, reason: str):
    state, seat, *_ = double_strike_position()
    with pytest.raises(IllegalAction, match=reason):
        apply_action(state, seat, attack(targets), RNG)
    assert state.sides[state.active].ap == 4 and state.attack is None


def test_a_single_target_command_names_exactly_one():
    state, seat = in_phase("actions")
    give(state, seat, "close-strike")
    with pytest.raises(IllegalAction, match="one enemy Elemental"):
        battle.check_attack(state, seat, "close-strike", (0, 0), [(0, 0), (0, 0)])


def test_each_target_takes_the_full_dmg_with_boosts_counted_once_and_its_own_shields():
    """DMG per target = Command DMG + boosts - shields of that target; the boosts come
    off once, after the attack; shields go only from a target that was dealt DMG."""
    state, seat, _stinger, first, second = double_strike_position()
    team = state.active
    at(state, team, (0, 0)).boosts = 1  # 1 + 1 = 2 DMG a target
    at(state, 1 - team, (1, 1)).shields = 1
    apply_action(state, seat, attack("1.0+1.1"), RNG)
    assert state.sides[team].ap == 3 and state.attack is not None
    assert state.attack.target_cards == [first, second]
    settle(state)
    assert at(state, 1 - team, (1, 0)).damage == 2  # Bruce HP 3 survives
    assert at(state, 1 - team, (1, 1)).damage == 1  # 2 DMG - 1 shield
    assert at(state, 1 - team, (1, 1)).shields == 0
    # Splinter Stinger: +1 boost each time it deals attack DMG, so once per target; the
    # boost it attacked with was spent once.
    assert at(state, team, (0, 0)).boosts == 2
    assert state.attack is None
    assert card_of(state, state.players[seat].discard[-1]).id == DOUBLE


def test_is_attacked_fires_for_each_target():
    """Geo Weasel (enemy Row I): each time one of its Elementals is attacked, 1 gold."""
    state, seat, *_ = double_strike_position()
    enemy = 1 - state.active
    place(state, enemy, (0, 0), "geo-weasel")
    state.sides[enemy].gold = 0
    apply_action(state, seat, attack("1.0+1.1"), RNG)
    settle(state)
    assert state.sides[enemy].gold == 2  # two twig Bruces attacked: 1 gold each


def test_an_effect_gaining_gold_twice_is_told_as_one_gain():
    """Geo Weasel attacked itself (a Pebble): 1 gold and 1 more, one line for the 2 (a
    newcomer read "gains 1 gold" twice as the same line printed twice)."""
    state, seat = in_phase("actions")
    team = state.active
    place(state, team, (0, 0), "splinter-stinger")
    place(state, 1 - team, (0, 0), "geo-weasel")
    give(state, seat, "close-strike")
    state.sides[1 - team].gold = 0
    events = apply_action(
        state, seat, Action(kind="attack", args=("close-strike", "0.0", "0.0")), RNG
    )
    owner = state.players[state.sides[1 - team].seats[0]].name
    gold = [e.text for e in events if e.kind == "gold"]
    assert gold == [f"{owner}'s side gains 2 gold."]
    assert state.sides[1 - team].gold == 2


def test_instant_reduction_applies_to_every_target():
    """Natural Defense takes 1 off the attack's DMG: each target gets DMG - 1."""
    state, seat, *_ = double_strike_position()
    team = state.active
    at(state, team, (0, 0)).boosts = 2  # 1 + 2 = 3 DMG a target
    defender = state.sides[1 - team].seats[0]
    give(state, defender, "natural-defense")
    apply_action(state, seat, attack("1.0+1.1"), RNG)
    apply_action(state, defender, Action(kind="instant", args=("natural-defense",)), RNG)
    settle(state)
    assert at(state, 1 - team, (1, 0)).damage == 2
    assert at(state, 1 - team, (1, 1)).damage == 2


def test_two_defeats_two_levels_and_the_formation_shifts_between_hits():
    """Both targets beaten: each defeat raises the attacker's level and fires `defeats`;
    the first defeat's forward shift happens before the second target is hit."""
    state, seat, _stinger, first, second = double_strike_position()
    team = state.active
    for pos in ((1, 0), (1, 1)):
        at(state, 1 - team, pos).damage = 2  # 1 DMG more defeats each
    level = state.players[seat].level
    apply_action(state, seat, attack("1.0+1.1"), RNG)
    settle(state)
    assert first in state.removed and second in state.removed
    assert state.players[seat].level == level + 2
    assert gap_to_fill(state.sides[1 - team].formation) is None


def test_defeats_trigger_fires_per_defeated_target():
    """Horned Hollow attacking: `defeats` clears its damage after each defeat."""
    state, seat = in_phase("actions")
    team = state.active
    hollow = place(state, team, (1, 0), "horned-hollow")  # STR 6: 4 DMG a target
    first = place(state, 1 - team, (1, 0), "bruce")
    second = place(state, 1 - team, (1, 1), "bruce")
    give(state, seat, DOUBLE)
    at(state, team, (1, 0)).damage = 2
    fired: list[int] = []
    real_fire = effects.fire

    def spy(state: State, on: str, subject: int, **kw) -> None:
        if on == "defeats":
            fired.append(subject)
        real_fire(state, on, subject, **kw)

    effects.fire = spy  # type: ignore[assignment]
    try:
        apply_action(state, seat, Action(kind="attack", args=(DOUBLE, "1.0", "1.0+1.1")), RNG)
        settle(state)
    finally:
        effects.fire = real_fire  # type: ignore[assignment]
    assert fired == [hollow, hollow]
    assert first in state.removed and second in state.removed
    assert at(state, team, (1, 0)).damage == 0


def test_a_target_that_moved_between_hits_is_skipped():
    """King Crustacean takes the DMG meant for the connected Bruce and swaps with it;
    the second hit was aimed at the Crustacean's old space, so nothing more lands."""
    state, seat = in_phase("actions")
    team = state.active
    place(state, team, (0, 0), "splinter-stinger")
    bruce = place(state, 1 - team, (1, 0), "bruce")
    crab = place(state, 1 - team, (1, 1), "king-crustacean")
    give(state, seat, DOUBLE)
    at(state, team, (0, 0)).boosts = 1  # 2 DMG a target
    apply_action(state, seat, attack("1.0+1.1"), RNG)
    battle.let_through(state, state.sides[1 - team].seats[0], RNG)
    frame = state.frames[-1]
    assert frame.kind == "choose" and str(crab) in frame.options
    effects.choose(state, frame.deciders[0], str(crab), RNG)
    settle(state)
    formation = state.sides[1 - team].formation
    assert formation.where(crab) == (1, 0) and formation.where(bruce) == (1, 1)
    assert at(state, 1 - team, (1, 0)).damage == 2  # the Crustacean, once
    assert at(state, 1 - team, (1, 1)).damage == 0  # Bruce, never
    assert state.attack is None


def test_a_target_that_left_is_skipped():
    """A target that has left the formation before its hit (here: returned to its
    owner's hand while the response window is open) is skipped; the others are hit."""
    state, seat, _stinger, first, second = double_strike_position()
    team = state.active
    level = state.players[seat].level
    at(state, team, (0, 0)).boosts = 2  # 3 DMG: defeats the first Bruce
    apply_action(state, seat, attack("1.0+1.1"), RNG)
    # Before DMG lands, the second target leaves the formation (to its owner's hand).
    effects.move_to_pile(state, second, "hand")
    effects.resume(state, RNG)
    settle(state)
    assert first in state.removed
    assert second in state.players[state.sides[1 - team].seats[0]].hand
    assert state.attack is None and state.players[seat].level == level + 1


def test_play_from_discard_offers_several_targets():
    """Porella's level-4 action plays an Attack Command from the discard pile; a
    two-target Command may name both."""
    state, seat, *_ = double_strike_position()
    card = next(c for c in state.players[seat].hand if state.cards[c] == DOUBLE)
    state.players[seat].hand.remove(card)
    state.players[seat].discard.append(card)
    options = effects._attack_options(state, seat, [card])
    assert f"{DOUBLE}@0.0>1.0+1.1" in options and f"{DOUBLE}@0.0>1.1" in options
    state.queue.insert(0, table.ops_step(state, seat, "faction:porella:4"))
    effects.resume(state, RNG)
    frame = state.frames[-1]
    assert option_label(state, frame, f"{DOUBLE}@0.0>1.0+1.1") == (
        "Distant Double Strike: Splinter Stinger (I) attacks Bruce (IIa), then Bruce (IIb)"
    )
    assert frame.kind == "choose" and f"{DOUBLE}@0.0>1.0+1.1" in frame.options
    effects.choose(state, seat, f"{DOUBLE}@0.0>1.0+1.1", RNG)
    settle(state)
    enemy = 1 - state.active
    assert at(state, enemy, (1, 0)).damage == 1 and at(state, enemy, (1, 1)).damage == 1
    assert state.attack is None and card in state.players[seat].discard


def test_a_targets_own_is_attacked_reduction_applies_to_that_target_only():
    """Cackle Ripclaw (enemy Row I): when an Elemental of its side is attacked with a
    ranged attack, 2 less DMG. With two targets it fires once per target, and each
    reduction is for the target that set it off (they don't stack onto both)."""
    state, seat, _stinger, first, second = double_strike_position()
    team = state.active
    place(state, 1 - team, (0, 0), "cackle-ripclaw")
    at(state, team, (0, 0)).boosts = 3  # 1 + 3 = 4 DMG a target
    apply_action(state, seat, attack("1.0+1.1"), RNG)
    assert state.attack is not None and state.attack.reduced_for == {first: 2, second: 2}
    assert state.attack.reduced == 0
    settle(state)
    assert at(state, 1 - team, (1, 0)).damage == 2
    assert at(state, 1 - team, (1, 1)).damage == 2
