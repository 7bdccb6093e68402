"""Command of Nature card effects from real positions: the op interpreter, decisions as
frames, Commands (Utility, Ritual, Attack effects, Instants), daybreak, triggered
effects and faction actions; and every effect of the bundled pack runs."""

from __future__ import annotations

import random

import pytest

from rules.command_of_nature import battle, effects, plays, table
from rules.command_of_nature.actions import apply_action, legal_actions
from rules.command_of_nature.cards import CommandCard, ElementalCard, bundled_pack
from rules.command_of_nature.formation import Elemental, Pos, connected
from rules.command_of_nature.setup import card_of
from rules.command_of_nature.state import State
from rules.core import Action, IllegalAction
from tests.rules.test_command_of_nature_battle import holding
from tests.rules.test_command_of_nature_turn import in_phase

RNG = random.Random(7)


def place(state: State, team: int, pos: Pos, card_id: str, owner: int | None = None) -> int:
    """Put a fresh copy of a card into a formation space (replacing what stood there)."""
    state.cards.append(card_id)
    card = len(state.cards) - 1
    seat = state.sides[team].seats[0] if owner is None else owner
    state.sides[team].formation.put(pos, Elemental(card=card, owner=seat))
    return card


def give(state: State, seat: int, card_id: str) -> int:
    state.cards.append(card_id)
    state.players[seat].hand.append(len(state.cards) - 1)
    return len(state.cards) - 1


def settle(state: State, pick: int = 0) -> None:
    """Answer every pending decision with option `pick` (or the last), letting attacks through."""
    for _ in range(200):
        if not state.frames or state.phase == "over":
            return
        frame = state.frames[-1]
        seat = frame.deciders[0]
        if frame.kind == "respond":
            battle.let_through(state, seat, RNG)
        elif frame.kind == "choose":
            effects.choose(state, seat, frame.options[min(pick, len(frame.options) - 1)], RNG)
        elif frame.kind == "fill":
            apply_action(state, seat, legal_actions(state, seat)[0], RNG)
        else:
            return


def run(state: State, seat: int, ref: str, pick: int = 0, **context) -> State:
    state.queue.insert(0, table.ops_step(state, seat, ref, **context))
    effects.resume(state, RNG)
    settle(state, pick)
    return state


def at(state: State, team: int, pos: Pos) -> Elemental:
    elemental = state.sides[team].formation.at(pos)
    assert elemental is not None
    return elemental


# --------------------------------------------------------------------------- ops


def test_gain_gold_never_above_the_cap():
    state, seat = in_phase("actions")
    side = state.sides[state.active]
    side.gold = 11
    run(state, seat, "card:cedar:fx0")  # Cedar's daybreak: 3 gold
    assert side.gold == 12


def test_draw_takes_cards_from_the_deck():
    state, seat = in_phase("actions")
    before = len(state.players[seat].hand)
    run(state, seat, "card:forager-s-tithe:effect")
    assert len(state.players[seat].hand) == before + 1


def test_add_tokens_on_a_chosen_elemental_asks_when_there_are_several():
    state, seat = in_phase("actions")
    state.queue.insert(0, table.ops_step(state, seat, "card:cairn-vow:effect"))
    effects.resume(state, RNG)
    frame = state.frames[-1]
    assert frame.kind == "choose" and frame.deciders == [seat] and len(frame.options) == 6
    effects.choose(state, seat, frame.options[0], RNG)
    assert at(state, state.active, (0, 0)).shields == 2 and not state.queue


def test_remove_tokens_feeds_previous_and_a_missing_cost_ends_the_effect():
    """Gravel's level-8 action: remove 1-2 shields from the Sage, deal twice that."""
    state, seat = in_phase("actions")
    team = state.active
    sage = at(state, team, (2, 1))
    sage.shields = 2
    enemy = state.sides[1 - team].formation
    run(state, seat, "faction:gravel:8", pick=1)  # remove 2
    hurt = sum(at(state, 1 - team, p).damage for p in enemy.occupied()) + len(state.removed)
    assert sage.shields == 0 and hurt >= 1
    # nothing left to pay: the effect can't be used
    assert not effects.can_pay(state, seat, effects.ops_at(state, "faction:gravel:8"))


def test_damage_is_reduced_by_shields_which_then_all_go():
    state, seat = in_phase("actions")
    enemy = at(state, 1 - state.active, (0, 0))
    enemy.shields = 3
    run(state, seat, "card:convergence-hymn:effect")  # 3 DMG to one enemy (first option)
    assert enemy.shields == 0 and enemy.damage == 0


def test_clear_damage_removes_every_counter():
    state, seat = in_phase("actions")
    own = at(state, state.active, (0, 0))
    own.damage = 2
    run(state, seat, "card:quiet-mending:effect")
    assert own.damage == 0


def test_move_cards_from_hand_is_a_cost_and_counts_for_previous():
    """Forage Thumper: discard up to 3, deal that much to the enemy Row I."""
    state, seat = in_phase("actions")
    hand = len(state.players[seat].hand)
    enemy = at(state, 1 - state.active, (0, 0))
    enemy.shields = 0
    run(state, seat, "card:forage-thumper:fx0", pick=0)  # keeps picking cards, never "stop"
    moved = hand - len(state.players[seat].hand)
    assert moved == min(3, hand) and (enemy.damage == moved or enemy.card in state.removed)


def test_move_cards_to_formation_fills_the_frontmost_space():
    state, seat = in_phase("actions")
    team = state.active
    state.sides[team].formation.put((1, 0), None)
    state.cards.append("redstone")
    basic = len(state.cards) - 1
    state.players[seat].discard.append(basic)
    run(state, seat, "card:komodo-kin:fx0")
    assert at(state, team, (1, 0)).card == basic


def test_move_elemental_leaves_without_a_level_and_the_formation_shifts():
    """Bog Blight: itself to the discard pile, then 3 DMG."""
    state, seat = in_phase("actions")
    team = state.active
    card = place(state, team, (0, 0), "bog-blight")
    run(state, seat, "card:bog-blight:fx0", source=card)
    assert card in state.players[seat].discard and card not in state.removed
    assert at(state, team, (0, 0)).card != card  # Row II moved forward


def test_swap_trades_two_enemy_spaces():
    state, seat = in_phase("actions")
    enemy = state.sides[1 - state.active].formation
    front, back = at(state, 1 - state.active, (0, 0)).card, at(state, 1 - state.active, (1, 0)).card
    run(state, seat, "card:elemental-swap:effect")
    assert enemy.at((0, 0)).card == back and enemy.at((1, 0)).card == front  # type: ignore[union-attr]


def test_choose_one_resolves_the_chosen_option():
    state, seat = in_phase("actions")
    card = place(state, state.active, (0, 0), "thorn-fencer")
    run(state, seat, "card:thorn-fencer:fx0", pick=1, source=card)
    assert at(state, state.active, (0, 0)).shields == 1


def test_redistribute_shields_moves_every_shield():
    state, seat = in_phase("actions")
    team = state.active
    at(state, team, (0, 0)).shields = 2
    at(state, team, (1, 0)).shields = 1
    run(state, seat, "faction:gravel:6", pick=5)
    shields = [at(state, team, p).shields for p in state.sides[team].formation.occupied()]
    assert sum(shields) == 3 and shields[-1] == 3


def test_redistribute_shields_fires_loses_shields_for_each_elemental_that_had_them():
    """Gravel level 6: the shields are taken off (Oxen Avenger: each own Elemental that
    loses shields deals 1 DMG to an enemy) and placed again."""
    state, seat = in_phase("actions")
    team = state.active
    place(state, team, (0, 0), "oxen-avenger")
    at(state, team, (1, 0)).shields = 2
    at(state, team, (1, 1)).shields = 1
    target = place(state, 1 - team, (0, 0), "oxen-avenger")  # HP 7: survives 2 DMG
    for pos in state.sides[1 - team].formation.occupied():
        at(state, 1 - team, pos).shields = 0
    fired: list[int] = []
    real_fire = effects.fire

    def spy(state: State, on: str, subject: int, **kw) -> None:
        if on == "loses_shields":
            fired.append(subject)
        real_fire(state, on, subject, **kw)

    effects.fire = spy  # type: ignore[assignment]
    try:
        run(state, seat, "faction:gravel:6", pick=0)
    finally:
        effects.fire = real_fire  # type: ignore[assignment]
    losers = [at(state, team, p).card for p in ((1, 0), (1, 1))]
    assert sorted(fired) == sorted(losers)  # once each; never for the shieldless
    assert sum(at(state, team, p).shields for p in state.sides[team].formation.occupied()) == 3
    assert at(state, 1 - team, (0, 0)).card == target
    assert at(state, 1 - team, (0, 0)).damage == 2  # Oxen Avenger's 1 DMG, twice


def test_play_from_discard_makes_an_attack():
    state, seat = in_phase("actions")
    holding(state, seat, "close-strike")
    card = next(c for c in state.players[seat].hand if state.cards[c] == "close-strike")
    state.players[seat].hand.remove(card)
    state.players[seat].discard.append(card)
    enemy = at(state, 1 - state.active, (0, 0))
    run(state, seat, "faction:porella:4")
    assert enemy.damage > 0 or enemy.card in state.removed
    assert state.attack is None and card in state.players[seat].discard


# --------------------------------------------------------------------------- Commands


def test_utility_costs_one_ap_and_goes_to_the_discard_pile():
    state, seat = in_phase("actions")
    card = give(state, seat, "forager-s-tithe")
    apply_action(state, seat, Action(kind="play", args=("forager-s-tithe",)), RNG)
    assert state.sides[state.active].ap == 3 and card in state.players[seat].discard


def test_ritual_needs_connected_elementals_of_one_faction():
    state, seat = in_phase("actions")
    team = state.active
    give(state, seat, "convergence-hymn")
    for pos in state.sides[team].formation.occupied():
        if pos != (2, 1):
            state.sides[team].formation.put(pos, None)
    with pytest.raises(IllegalAction, match="connected"):
        plays.check_command(state, seat, "convergence-hymn")
    for pos in ((0, 0), (1, 0), (1, 1)):
        place(state, team, pos, "redstone")
    plays.check_command(state, seat, "convergence-hymn")


def test_attack_command_effect_adds_dmg_before_it_lands():
    """Nature's Wrath: +2 DMG when a Basic attacks."""
    state, seat = in_phase("actions")
    holding_card = give(state, seat, "nature-s-wrath")
    enemy = at(state, 1 - state.active, (0, 0))
    enemy.shields = 0
    own = card_of(state, at(state, state.active, (0, 0)).card)
    battle.declare_attack(state, seat, "nature-s-wrath", (0, 0), (0, 0), RNG)
    assert state.attack is not None and state.attack.bonus == 2
    settle(state)
    assert holding_card in state.players[seat].discard
    assert enemy.damage == own.strength + 1 or enemy.card in state.removed  # type: ignore[union-attr]


def test_instant_reduce_damage_lowers_the_pending_attack_without_ap():
    state, seat = in_phase("actions")
    defender = state.sides[1 - state.active].seats[0]
    give(state, defender, "natural-defense")
    holding(state, seat, "close-strike")
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    assert Action(kind="instant", args=("natural-defense",)) in legal_actions(state, defender)
    plays.play_instant(state, defender, "natural-defense", RNG)
    assert state.attack is not None and state.attack.reduced == 1
    assert state.frames[-1].kind == "respond"


def test_instants_answer_only_attacks_their_filter_allows():
    state, seat = in_phase("actions")
    defender = state.sides[1 - state.active].seats[0]
    give(state, defender, "ranged-barrier")
    holding(state, seat, "close-strike")
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    with pytest.raises(IllegalAction):
        plays.check_instant(state, defender, "ranged-barrier")


# --------------------------------------------------------------------------- daybreak


def test_daybreak_once_each_and_phase_two_forfeits_the_rest():
    """Phase I: each daybreak effect once; going on to Phase II without using one loses it
    for the turn. Once none is left to use, Phase I ends by itself."""
    state, seat = in_phase("daybreak")
    side = state.sides[state.active]
    sage = at(state, state.active, (2, 1)).card
    assert side.daybreak == [sage]
    gold = side.gold
    apply_action(state, seat, Action(kind="daybreak", args=(str(sage),)), RNG)
    assert side.gold == gold + 3
    with pytest.raises(IllegalAction):
        plays.check_daybreak(state, seat, sage)
    assert state.phase == "actions"  # nothing was left to do in Phase I

    state, seat = in_phase("daybreak")
    side = state.sides[state.active]
    apply_action(state, seat, Action(kind="phase", args=("actions",)), RNG)
    assert side.daybreak == [] and state.phase == "actions"


def test_a_daybreak_effect_is_used_only_from_its_row_checked_when_used():
    """Daybreak: an Elemental's effect is used "if it stood in a required row"; one that
    left its row during Phase I (Slumber Jack, Row II, swapped into Row I) is neither
    offered nor used, and Phase I ends once nothing usable is left."""
    state, seat = in_phase("daybreak")
    side = state.sides[state.active]
    side.formation.put((1, 0), None)
    jack = place(state, state.active, (1, 0), "slumber-jack", owner=seat)
    side.daybreak.append(jack)
    assert Action(kind="daybreak", args=(str(jack),)) in legal_actions(state, seat)
    front = side.formation.at((0, 0))
    side.formation.put((0, 0), side.formation.at((1, 0)))  # a swap during Phase I
    side.formation.put((1, 0), front)
    assert Action(kind="daybreak", args=(str(jack),)) not in legal_actions(state, seat)
    with pytest.raises(IllegalAction, match="no longer stands in"):
        apply_action(state, seat, Action(kind="daybreak", args=(str(jack),)), RNG)


# --------------------------------------------------------------------------- triggers


def test_enters_formation_triggers_from_the_required_row():
    state, seat = in_phase("actions")
    team = state.active
    place(state, team, (1, 0), "botanic-fangs")
    state.sides[team].formation.put((0, 0), None)
    gold = state.sides[team].gold
    give(state, seat, "redstone")
    apply_action(state, seat, Action(kind="summon", args=("redstone", "0.0")), RNG)
    assert state.sides[team].gold == gold + 1


def test_leaves_formation_triggers_for_others():
    state, _seat = in_phase("actions")
    team = state.active
    card = place(state, team, (0, 0), "shrub-beetle")
    other = at(state, team, (1, 0)).card
    effects.move_to_pile(state, other, "discard")
    effects.resume(state, RNG)
    settle(state)
    beetle = state.sides[team].formation.at(state.sides[team].formation.where(card))  # type: ignore[arg-type]
    assert beetle is not None and beetle.boosts == 1 and beetle.shields == 1


def test_enters_row_triggers_on_arrival():
    state, seat = in_phase("actions")
    team = state.active
    card = place(state, team, (1, 0), "riptide-tiger")
    hand = len(state.players[seat].hand)
    table.swap_cards(state, card, at(state, team, (0, 0)).card)
    effects.resume(state, RNG)
    assert len(state.players[seat].hand) == hand + 1


def test_attacks_and_deals_attack_damage_and_defeats_trigger():
    state, seat = in_phase("actions")
    team = state.active
    squire = place(state, team, (0, 0), "acorn-squire")
    gold = state.sides[team].gold
    enemy = at(state, 1 - team, (0, 0))
    enemy.damage = card_of(state, enemy.card).hp - 1  # type: ignore[union-attr]
    holding(state, seat, "close-strike")
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    assert state.sides[team].gold == min(12, gold + card_of(state, squire).strength)  # type: ignore[union-attr]
    settle(state)
    assert enemy.card in state.removed


def test_defeats_trigger_clears_the_attackers_damage():
    state, seat = in_phase("actions")
    team = state.active
    place(state, team, (0, 0), "horned-hollow")
    at(state, team, (0, 0)).damage = 1
    enemy = at(state, 1 - team, (0, 0))
    enemy.damage = card_of(state, enemy.card).hp - 1  # type: ignore[union-attr]
    holding(state, seat, "close-strike")
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    settle(state)
    assert at(state, team, (0, 0)).damage == 0


def test_is_attacked_trigger_reduces_before_dmg():
    """Rune Puma in Row II: a melee attack on the Row I Elemental deals 0."""
    state, seat = in_phase("actions")
    team = 1 - state.active
    place(state, team, (1, 0), "rune-puma")
    enemy = at(state, team, (0, 0))
    holding(state, seat, "close-strike")
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    settle(state)
    assert enemy.damage == 0


def test_would_take_damage_lets_another_take_it_instead():
    state, seat = in_phase("actions")
    team = 1 - state.active
    tumbler = place(state, team, (1, 0), "terrain-tumbler")
    front = at(state, team, (0, 0))
    holding(state, seat, "close-strike")
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    battle.let_through(state, state.sides[team].seats[0], RNG)
    frame = state.frames[-1]
    assert frame.kind == "choose" and frame.options == ["no", str(tumbler)]
    effects.choose(state, frame.deciders[0], str(tumbler), RNG)
    assert front.damage == 0
    assert at(state, team, (1, 0)).damage > 0 or tumbler in state.removed


def test_would_be_defeated_returns_it_to_hand_instead():
    state, seat = in_phase("actions")
    team = 1 - state.active
    viper = place(state, team, (0, 0), "moss-viper")
    at(state, team, (0, 0)).damage = card_of(state, viper).hp - 1  # type: ignore[union-attr]
    holding(state, seat, "close-strike")
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    settle(state)
    assert viper in state.players[state.sides[team].seats[0]].hand
    assert viper not in state.removed and state.players[seat].level == 1


def test_receives_and_loses_shields_trigger():
    state, seat = in_phase("actions")
    team = state.active
    brute = place(state, team, (0, 0), "boulderhide-brute")
    effects.add_tokens(state, [brute], "shields", [1])
    effects.resume(state, RNG)
    assert at(state, team, (0, 0)).boosts == 1
    # Oxen Avenger: when an own Elemental loses its shields, 1 DMG to an enemy Elemental.
    place(state, team, (1, 0), "oxen-avenger")
    enemy_formation = state.sides[1 - team].formation
    for pos in enemy_formation.occupied():
        at(state, 1 - team, pos).shields = 0
    before = sum(at(state, 1 - team, p).damage for p in enemy_formation.occupied())
    removed_before = len(state.removed)
    state.queue.insert(0, effects.Step(kind="damage", actor=seat, card=brute, amount=1))
    effects.resume(state, RNG)
    settle(state)
    assert at(state, team, (0, 0)).shields == 0  # the Brute's shield went with the DMG
    after = sum(at(state, 1 - team, p).damage for p in enemy_formation.occupied())
    defeated = len(state.removed) > removed_before
    assert after - before == 1 or defeated  # 1 DMG landed (or it defeated its target)


def test_static_keep_boosts_after_attacking():
    state, seat = in_phase("actions")
    team = state.active
    place(state, team, (0, 0), "calamity-leopard")
    at(state, team, (0, 0)).boosts = 2
    at(state, 1 - team, (0, 0)).shields = 20
    holding(state, seat, "close-strike")
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    settle(state)
    assert at(state, team, (0, 0)).boosts == 2


# --------------------------------------------------------------------------- faction actions


def test_faction_actions_unlock_by_level_once_per_turn_not_without_a_sage():
    state, seat = in_phase("actions")
    player = state.players[seat]
    with pytest.raises(IllegalAction, match="unlocks"):
        plays.check_faction_action(state, seat, 4)
    player.level = 4
    sage = player.sage
    assert sage is not None
    ok = [a for a in legal_actions(state, seat) if a.kind == "faction"]
    assert ok == [Action(kind="faction", args=("4",))]
    apply_action(state, seat, ok[0], RNG)
    settle(state)
    assert state.sides[state.active].ap == 3
    with pytest.raises(IllegalAction, match="one faction action"):
        plays.check_faction_action(state, seat, 4)
    player.faction_action_used, player.sage_defeated = False, True
    with pytest.raises(IllegalAction, match="fallen"):
        plays.check_faction_action(state, seat, 4)


# --------------------------------------------------------------------------- every effect


def _refs() -> list[tuple[str, str]]:
    pack = bundled_pack()
    refs = []
    for card in pack.cards:
        if isinstance(card, ElementalCard):
            refs += [(card.id, f"card:{card.id}:fx{i}") for i in range(len(card.effects))]
        elif isinstance(card, CommandCard):
            refs += [(card.id, f"card:{card.id}:effect"), (card.id, f"card:{card.id}:after")]
    sages = {s.name: s.id for s in pack.sages()}
    refs += [(sages[a.sage], f"faction:{sages[a.sage]}:{a.level}") for a in pack.faction_actions]
    return refs


@pytest.mark.parametrize("pick", [0, 1])
def test_every_effect_runs(pick: int):
    """Every card effect and faction action of the bundled pack runs from a real position."""
    for card_id, ref in _refs():
        state, seat = in_phase("actions")
        team = state.active
        for pos in state.sides[team].formation.occupied():
            at(state, team, pos).shields = at(state, team, pos).boosts = 1
        source = None
        definition = bundled_pack().card(card_id)
        if isinstance(definition, ElementalCard) and definition.kind != "sage":
            row = definition.rows[0] - 1
            source = place(state, team, (row, 0), card_id)
        elif isinstance(definition, ElementalCard):
            source = at(state, team, (2, 1)).card
        holding(state, seat, "close-strike")
        battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
        subject = at(state, team, (1, 1)).card
        run(state, seat, ref, pick=pick, source=source, subject=subject)
        settle(state, pick)
        assert not state.queue or state.phase == "over", ref


# --------------------------------------------------------------------------- review gaps


def test_utility_dmg_opens_no_response_window_so_instants_cannot_reduce_it():
    """Utility Commands: "DMG you deal using Utility Commands cannot be reduced by the
    effect of an opponent's Instant Command" — the defenders get no window to answer."""
    state, seat = in_phase("actions")
    defender = state.sides[1 - state.active].seats[0]
    give(state, defender, "natural-defense")
    give(state, seat, "obliterate")
    before = sum(
        at(state, 1 - state.active, p).damage
        for p in state.sides[1 - state.active].formation.occupied()
    )
    apply_action(state, seat, Action(kind="play", args=("obliterate",)), RNG)
    assert not any(f.kind == "respond" for f in state.frames)
    assert not [a for a in legal_actions(state, defender) if a.kind == "instant"]
    settle(state)
    after = sum(
        at(state, 1 - state.active, p).damage
        for p in state.sides[1 - state.active].formation.occupied()
    )
    assert after > before or len(state.removed) > 0  # 2 DMG landed (or defeated)


def test_elementals_that_perform_a_ritual_may_still_attack():
    """Ritual Commands: "An Elemental used to perform a ritual can still attack in the
    same turn"."""
    state, seat = in_phase("actions")
    team = state.active
    for pos in ((0, 0), (1, 0), (1, 1)):
        place(state, team, pos, "redstone")
    give(state, seat, "convergence-hymn")
    apply_action(state, seat, Action(kind="play", args=("convergence-hymn",)), RNG)
    settle(state)
    holding(state, seat, "close-strike")
    at(state, 1 - team, (0, 0)).shields = 20
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    assert state.attack is not None  # the Row I Elemental of the ritual attacks


def test_four_players_teammates_never_attack_twice_with_the_same_elemental():
    """Combat note, 4 players: "you and your teammate cannot use the same Elemental to
    attack in a single turn"."""
    state, seat = in_phase("actions", "4p")
    mate = state.sides[state.active].seats[1]
    at(state, 1 - state.active, (0, 0)).shields = 20
    holding(state, seat, "close-strike")
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    settle(state)
    holding(state, mate, "close-strike")
    with pytest.raises(IllegalAction, match="already attacked"):
        battle.declare_attack(state, mate, "close-strike", (0, 0), (0, 0), RNG)


def test_four_players_only_the_attacking_player_levels_up():
    """Combat note, 4 players: "only you increase your level by 1 ... your teammate does
    not"."""
    state, seat = in_phase("actions", "4p")
    mate = state.sides[state.active].seats[1]
    target = at(state, 1 - state.active, (0, 0))
    target.shields = 0
    target.damage = card_of(state, target.card).hp - 1  # type: ignore[union-attr]
    holding(state, seat, "close-strike")
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    settle(state)
    assert state.players[seat].level == 2 and state.players[mate].level == 1


# --------------------------------------------------------------------------- Sages and sacrifices


def _porella_turn(variant: str) -> tuple[State, int]:
    """Phase II of the turn of the player whose Sage is Porella, at level 8."""
    state, seat = in_phase("actions", variant, sages=("porella",))
    assert state.players[seat].sage == "porella"
    state.players[seat].level = 8
    return state, seat


def test_four_players_a_sage_never_leaves_its_formation_except_by_defeat():
    """Porella's level 8 sends "one of your Elementals connected to your Sage" to the
    discard pile: in a team formation the teammate's Sage may be connected to Porella,
    but a Sage leaves the formation only when it is defeated, so it is never offered."""
    state, seat = _porella_turn("4p")
    team = state.players[seat].team
    formation = state.sides[team].formation
    sages = [p for p in formation.occupied() if table.is_sage(state, at(state, team, p).card)]
    assert len(sages) == 2
    for pos in formation.occupied():  # only the two Sages are left standing in Row III
        if pos[0] == 2 and pos not in sages:
            formation.put(pos, None)
    assert connected(formation, sages[0], sages[1])
    mine = next(p for p in sages if at(state, team, p).owner == seat)
    other = next(p for p in sages if p != mine)
    mate_sage = at(state, team, other).card
    step = table.ops_step(state, seat, "faction:porella:8")
    target = effects.ops_at(state, "faction:porella:8")[0].target  # type: ignore[union-attr]
    assert mate_sage in effects.eligible(state, step, target)  # connected, yet...
    apply_action(state, seat, Action(kind="faction", args=("8",)), RNG)
    while state.frames and state.frames[-1].kind == "choose":
        assert str(mate_sage) not in state.frames[-1].options
        effects.choose(state, seat, state.frames[-1].options[0], RNG)
        settle(state)
    assert table.locate(state, mate_sage) is not None
    assert not state.players[other_seat(state, seat)].sage_defeated


def other_seat(state: State, seat: int) -> int:
    """The teammate of a seat (four players)."""
    return next(s for s in state.side_of(seat).seats if s != seat)


def test_porellas_level_eight_sacrifice_is_a_cost():
    """Porella's level 8: "send one of your Elementals connected to your Sage to the
    discard pile, then ..." — without such an Elemental the action can't be taken."""
    state, seat = _porella_turn("2p")
    team = state.players[seat].team
    formation = state.sides[team].formation
    sage = table.locate(state, table.own_sage(state, seat))
    assert sage is not None
    assert Action(kind="faction", args=("8",)) in legal_actions(state, seat)
    for pos in formation.occupied():
        if pos != sage[1] and connected(formation, pos, sage[1]):
            formation.put(pos, None)
    assert Action(kind="faction", args=("8",)) not in legal_actions(state, seat)
    with pytest.raises(IllegalAction, match="can't pay"):
        plays.check_faction_action(state, seat, 8)


def test_a_sacrifice_that_finds_nothing_to_send_ends_the_effect():
    """The sacrifice comes first: when it can't be made (the Elemental left since), the
    DMG that follows it is not dealt."""
    state, seat = _porella_turn("2p")
    team = state.players[seat].team
    formation = state.sides[team].formation
    sage = table.locate(state, table.own_sage(state, seat))
    assert sage is not None
    for pos in formation.occupied():
        if pos != sage[1] and connected(formation, pos, sage[1]):
            formation.put(pos, None)
    enemy = state.sides[1 - team].formation
    before = [(at(state, 1 - team, p).damage, p) for p in enemy.occupied()]
    run(state, seat, "faction:porella:8")
    assert [(at(state, 1 - team, p).damage, p) for p in enemy.occupied()] == before


# --------------------------------------------------------------------------- "connected"


def test_cedars_level_six_counts_only_twig_elementals_connected_to_it():
    """Connected: "there are no other Elementals between them". Cedar's level 6 gives
    a boost per Twig Elemental connected to the chosen one; a Twig Elemental connected
    only through another one (a chain) does not count, as for Gravel's level 4."""
    state, seat = in_phase("actions")
    team = state.active
    formation = state.sides[team].formation
    for pos in list(formation.occupied()):
        formation.put(pos, None)
    chosen = place(state, team, (2, 0), "timber")
    place(state, team, (2, 1), "timber")  # connected to the chosen one
    place(state, team, (2, 2), "timber")  # connected to the middle one only
    step = table.ops_step(state, seat, "faction:cedar:6")
    amount = effects.ops_at(state, "faction:cedar:6")[0].amount  # type: ignore[union-attr]
    assert effects.amount_of(state, step, amount, chosen) == 1


def test_gravels_level_four_shields_only_pebble_elementals_connected_to_the_sage():
    """Gravel's level 4, same reading of "connected": the Pebble Elementals with nothing
    between them and the Sage; one further along a chain gets no shield."""
    state, seat = in_phase("actions")
    team = state.active
    formation = state.sides[team].formation
    for pos in list(formation.occupied()):
        formation.put(pos, None)
    sage = place(state, team, (2, 0), "gravel", owner=seat)
    near = place(state, team, (2, 1), "flint")
    far = place(state, team, (2, 2), "flint")
    step = table.ops_step(state, seat, "faction:gravel:4")
    target = effects.ops_at(state, "faction:gravel:4")[0].target  # type: ignore[union-attr]
    assert table.own_sage(state, seat) == sage
    assert effects.eligible(state, step, target) == [near]
    assert far not in effects.eligible(state, step, target)


def test_an_elemental_filling_a_gap_names_the_spaces_it_moves_between():
    """Filling a gap: the line names the space left and the space entered, so two
    Elementals of one name (two Sprouts) can't be mistaken for each other."""
    state, _ = in_phase("actions")
    team = state.active
    formation = state.sides[team].formation
    front = (0, 0)
    formation.put(front, None)
    behind = next(p for p in formation.occupied() if p[0] == 1)
    events = table.fill_gap(state, team, behind)
    assert events[-1].text.endswith(
        f"moves forward from {table.place(state, team, behind)} into "
        f"{table.place(state, team, front)}."
    )
