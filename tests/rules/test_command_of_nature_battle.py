"""Command of Nature combat through a real position: declare, respond, DMG, defeat."""

from __future__ import annotations

import pytest

from rules.command_of_nature import battle, table
from rules.command_of_nature.cards import CommandCard
from rules.command_of_nature.formation import Elemental
from rules.command_of_nature.setup import card_of
from rules.command_of_nature.state import State
from rules.core import IllegalAction, rng_for
from tests.rules.test_command_of_nature_turn import in_phase

RNG = rng_for(1, 99)


def holding(state: State, seat: int, command_id: str) -> None:
    """Put a copy of this Command in the seat's hand (taken from its deck or discard)."""
    player = state.players[seat]
    for pile in (player.deck, player.discard, player.hand):
        for card in pile:
            if state.cards[card] == command_id:
                pile.remove(card)
                player.hand.append(card)
                return
    raise AssertionError(f"{command_id} is not in this player's cards")


def enemy_of(state: State) -> int:
    return state.sides[1 - state.active].seats[0]


def test_melee_needs_row_one_against_row_one():
    """Melee Attack Commands: the Elemental in Row I attacks the Elemental in Row I."""
    state, seat = in_phase("actions")
    holding(state, seat, "close-strike")
    with pytest.raises(IllegalAction, match="can't reach"):
        battle.declare_attack(state, seat, "close-strike", (1, 0), (0, 0), RNG)
    with pytest.raises(IllegalAction, match="can't reach"):
        battle.declare_attack(state, seat, "close-strike", (0, 0), (1, 0), RNG)
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    assert state.sides[state.active].ap == 3


def shielded(state: State) -> None:
    """Enough shields on the enemy's Row I that an attack can't defeat it."""
    target = state.sides[1 - state.active].formation.at((0, 0))
    assert target is not None
    target.shields = 20


def test_an_attack_opens_a_response_window_for_the_defending_side():
    """Combat: "Your opponent has a chance to respond by playing any number of Instant
    Commands"; until they do or let it through, DMG waits."""
    state, seat = in_phase("actions")
    holding(state, seat, "close-strike")
    shielded(state)
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    assert state.frames[-1].kind == "respond"
    assert state.frames[-1].deciders == [enemy_of(state)]
    target = state.sides[1 - state.active].formation.at((0, 0))
    assert target is not None and target.damage == 0
    battle.let_through(state, enemy_of(state), RNG)
    assert state.frames == [] and state.attack is None


def test_attack_dmg_is_the_attackers_strength_plus_boosts_less_shields():
    """Combat: DMG + boosts − shields; boosts leave the attacker, shields the target."""
    state, seat = in_phase("actions")
    holding(state, seat, "close-strike")
    own = state.sides[state.active].formation.at((0, 0))
    target = state.sides[1 - state.active].formation.at((0, 0))
    assert own is not None and target is not None
    own.boosts, target.shields = 2, 1
    strength = card_of(state, own.card).strength  # type: ignore[union-attr]
    command = card_of(
        state, next(c for c in state.players[seat].hand if state.cards[c] == "close-strike")
    )
    assert isinstance(command, CommandCard) and command.attack is not None
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    battle.let_through(state, enemy_of(state), RNG)
    expected = strength + command.attack.str_modifier + 2 - 1
    hp = card_of(state, target.card).hp  # type: ignore[union-attr]
    if expected < hp:
        assert target.damage == expected
    assert own.boosts == 0 and target.shields == 0
    assert state.players[seat].discard[-1] == next(
        c for c in state.players[seat].discard if state.cards[c] == "close-strike"
    )


def test_each_elemental_attacks_once_per_turn():
    """Combat note: "Each Elemental may only attack once per turn"."""
    state, seat = in_phase("actions")
    holding(state, seat, "close-strike")
    shielded(state)
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    battle.let_through(state, enemy_of(state), RNG)
    holding(state, seat, "close-strike")
    with pytest.raises(IllegalAction, match="already attacked"):
        battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)


def test_a_defeat_removes_the_elemental_levels_up_and_shifts_the_formation():
    """Combat: a defeated Elemental goes back to the box with its tokens, the attacker's
    player gains a level, and Row I is filled from Row II."""
    state, seat = in_phase("actions")
    holding(state, seat, "close-strike")
    enemy = state.sides[1 - state.active].formation
    target = enemy.at((0, 0))
    assert target is not None
    target.damage = card_of(state, target.card).hp - 1  # type: ignore[union-attr]
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    events = battle.let_through(state, enemy_of(state), RNG)
    assert target.card in state.removed
    assert state.players[seat].level == 2
    assert any(e.kind == "defeat" for e in events)
    # Two Elementals stood in Row II: the defending side chooses which moves up.
    assert state.frames[-1].kind == "fill" and enemy.at((0, 0)) is None
    table.fill_gap(state, 1 - state.active, (1, 1))
    assert enemy.at((0, 0)) is not None and enemy.at((1, 1)) is None


def test_defeating_the_sage_wins_the_two_player_game():
    """How to Win: "When you defeat your opponent's Sage, you win the game"."""
    state, seat = in_phase("actions")
    team = 1 - state.active
    sage_pos = (2, 1)
    events = table.defeat(state, team, sage_pos, by_seat=seat)
    assert state.phase == "over" and state.winners == [seat]
    assert events[-1].text.endswith("The game is over.")


def test_a_team_plays_on_until_both_sages_fall():
    """How to Win, 4 players: both opposing Sages; a player whose Sage falls plays on
    without faction actions or levels."""
    state, seat = in_phase("actions", "4p")
    team = 1 - state.active
    first, second = state.sides[team].seats
    table.defeat(state, team, (2, 1), by_seat=seat)  # the first teammate's Sage
    assert state.phase != "over" and state.players[first].sage_defeated
    assert not state.players[second].sage_defeated
    while state.frames:
        frame = state.frames.pop()
        assert frame.kind == "fill"
    table.defeat(state, team, (2, 4), by_seat=seat)
    assert state.phase == "over" and set(state.losers) == {first, second}


def test_only_the_side_whose_turn_it_is_may_attack():
    state, seat = in_phase("actions")
    other = enemy_of(state)
    holding(state, other, "close-strike")
    with pytest.raises(IllegalAction, match="isn't your side's turn"):
        battle.declare_attack(state, other, "close-strike", (0, 0), (0, 0), RNG)
    assert table.active_side(state).seats == [seat]


def test_boosts_add_to_str_before_a_negative_modifier_and_dmg_floors_at_zero_last():
    """Combat: "each boost adds 1 to that Elemental's STR during the attack" — a STR 1
    Willow with 2 boosts playing Distant Double Strike (STR −2) deals (1 + 2) − 2 = 1."""
    state, seat = in_phase("actions")
    team = state.active
    formation = state.sides[team].formation
    state.cards.append("willow")
    willow = len(state.cards) - 1
    formation.put((0, 0), Elemental(card=willow, owner=seat, boosts=2))
    target = state.sides[1 - team].formation.at((1, 0))
    assert target is not None
    target.shields = target.damage = 0
    state.cards.append("distant-double-strike")
    state.players[seat].hand.append(len(state.cards) - 1)
    battle.declare_attack(state, seat, "distant-double-strike", (0, 0), [(1, 0)], RNG)
    battle.let_through(state, enemy_of(state), RNG)
    assert target.damage == 1


def test_a_negative_str_modifier_alone_deals_no_dmg():
    """Combat: "If the calculated DMG is greater than 0, add damage counters" — a STR 1
    Willow without boosts playing a STR −2 Command deals nothing (and takes no shield)."""
    state, seat = in_phase("actions")
    team = state.active
    state.cards.append("willow")
    willow = len(state.cards) - 1
    state.sides[team].formation.put((0, 0), Elemental(card=willow, owner=seat))
    target = state.sides[1 - team].formation.at((1, 0))
    assert target is not None
    target.shields, target.damage = 1, 0
    state.cards.append("distant-double-strike")
    state.players[seat].hand.append(len(state.cards) - 1)
    battle.declare_attack(state, seat, "distant-double-strike", (0, 0), [(1, 0)], RNG)
    battle.let_through(state, enemy_of(state), RNG)
    assert target.damage == 0 and target.shields == 1


def test_standing_answers_let_the_attack_through_only_when_they_apply():
    """A defender's standing answers: "let it through when no Instant could answer" holds
    back while an Instant in hand could answer; "as my partner did" (4 players) answers
    once the partner has let the attack through, whatever the hand holds."""
    from rules.command_of_nature import GAME
    from rules.command_of_nature.actions import FOLLOW_PARTNER, LET_WITHOUT_INSTANT

    state, seat = in_phase("actions", "4p")
    holding(state, seat, "close-strike")
    shielded(state)
    first, second = state.sides[1 - state.active].seats
    for defender in (first, second):
        player = state.players[defender]
        instants = [c for c in player.hand if getattr(card_of(state, c), "type", "") == "instant"]
        player.deck += instants
        player.hand = [c for c in player.hand if c not in instants]
    holding(state, second, "natural-restoration")  # an Instant that answers any attack
    assert GAME.standing_answer(state, first, frozenset({LET_WITHOUT_INSTANT})) is None
    battle.declare_attack(state, seat, "close-strike", (0, 0), (0, 0), RNG)
    alone = frozenset({LET_WITHOUT_INSTANT})
    assert GAME.standing_answer(state, first, alone).key == "let"  # type: ignore[union-attr]
    assert GAME.standing_answer(state, second, alone) is None  # it holds an answer
    assert GAME.standing_answer(state, second, frozenset({FOLLOW_PARTNER})) is None
    battle.let_through(state, first, RNG)
    assert state.frames[-1].deciders == [second]
    assert GAME.standing_answer(state, second, frozenset({FOLLOW_PARTNER})).key == "let"  # type: ignore[union-attr]
    assert GAME.standing_answer(state, second, frozenset()) is None
