"""How Command of Nature speaks to its players: labels that tell choices apart, what
each choice costs and does, the question put to the decider, the public prompt, the
end in a sentence, and the decisions that need nobody because they have one answer."""

from __future__ import annotations

import re

from rules.command_of_nature import GAME, battle, effects, table, turn
from rules.command_of_nature.actions import legal_actions
from rules.command_of_nature.setup import choose_sage, sage_options, setup_game
from rules.core import Action, rng_for
from tests.rules.test_command_of_nature_effects import RNG, place
from tests.rules.test_command_of_nature_setup import PACK
from tests.rules.test_command_of_nature_targets import DOUBLE, double_strike_position
from tests.rules.test_command_of_nature_turn import in_phase


def test_two_choices_never_share_a_label_even_when_the_names_repeat():
    """Two Timbers side by side: each swap names its Elementals with their spaces."""
    state, seat = in_phase("actions")
    team = state.active
    for pos in list(state.sides[team].formation.occupied()):
        state.sides[team].formation.put(pos, None)
    for pos in ((0, 0), (1, 0), (1, 1), (2, 1)):
        place(state, team, pos, "timber")
    state.sides[team].formation.at((1, 1)).damage = 1  # type: ignore[union-attr]
    legal = legal_actions(state, seat)
    labels = [GAME.describe(a, state) for a in legal]
    assert len(set(labels)) == len(labels)
    assert "Swap Timber (IIa) with Timber (IIb)" in labels


def test_an_attack_label_names_the_command_the_attacker_and_each_target_with_its_space():
    state, *_ = double_strike_position()
    label = GAME.describe(Action(kind="attack", args=(DOUBLE, "0.0", "1.1+1.0")), state)
    assert (
        label == "Distant Double Strike: Splinter Stinger (I) attacks Bruce (IIb), then Bruce (IIa)"
    )


def test_every_choice_says_what_it_costs_and_does():
    state, seat, *_ = double_strike_position()
    for action in legal_actions(state, seat):
        assert GAME.explain(action, state, seat), action.key
    attack = Action(kind="attack", args=(DOUBLE, "0.0", "1.0+1.1"))
    assert GAME.explain(attack, state, seat) == "1 AP · 1 DMG each before Instants and shields"
    assert GAME.explain(Action(kind="draw"), state, seat).startswith("1 AP · ")


def test_the_decider_is_asked_in_the_second_person_with_the_phase_and_ap():
    state, seat = in_phase("actions")
    other = state.sides[1 - state.active].seats[0]
    assert GAME.question(state, seat) == (
        "your turn — Phase II (actions), 4 AP left: summon, play Commands, attack, swap or draw;"
        " or buy (ends Phase II), or End turn"
    )
    assert GAME.question(state, other) is None
    name = state.players[seat].name
    assert GAME.view(state, None)["prompt"] == f"{name}'s turn — Phase II (actions), 4 AP left"


def test_the_defenders_are_asked_about_the_incoming_attack_before_instants():
    """A response window names the attacker, the Command, the targets and the DMG they
    face before Instants (and shields)."""
    state, seat, *_ = double_strike_position()
    battle.declare_attack(state, seat, DOUBLE, (0, 0), [(1, 0), (1, 1)], RNG)
    defender = state.sides[1 - state.active].seats[0]
    asked = GAME.question(state, defender)
    assert asked == (
        "Distant Double Strike: Splinter Stinger (I) attacks Bruce (IIa) and Bruce (IIb) for "
        "1 DMG each — respond? Answer with an Instant Command or let it through"
    )
    assert GAME.view(state, None)["attack"].startswith("Distant Double Strike: Splinter Stinger")


def test_a_choice_an_effect_asks_for_says_whose_effect_and_what_for():
    """Convergence Hymn: 3 DMG to one enemy Elemental of the player's choice."""
    state, seat = in_phase("actions")
    state.queue.insert(0, table.ops_step(state, seat, "card:convergence-hymn:effect"))
    effects.resume(state, RNG)
    frame = state.frames[-1]
    assert frame.about == "elemental"
    assert GAME.question(state, seat) == (
        "Convergence Hymn ✦: choose the enemy Elemental that takes 3 DMG"
    )
    labels = [GAME.describe(Action(kind="choose", args=(o,)), state) for o in frame.options]
    assert all(label.startswith("Enemy ") for label in labels)
    assert len(set(labels)) == len(labels)


def test_the_end_names_who_lost_why_and_who_won():
    state, seat = in_phase("actions")
    loser = state.sides[1 - state.active].seats[0]
    sage = table.locate(state, table.own_sage(state, loser))
    assert sage is not None
    table.defeat(state, sage[0], sage[1], by_seat=seat)
    outcome = GAME.outcome(state)
    assert outcome is not None
    sage_name = PACK.card(state.players[loser].sage or "").name
    assert outcome.text == (
        f"{state.players[loser].name}'s Sage {sage_name} has fallen: "
        f"{state.players[seat].name} wins."
    )


def test_a_concession_ends_with_a_sentence_too():
    state, seat = in_phase("actions")
    state, _ = GAME.concede(state, seat, rng_for(1, 1))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.text.startswith(f"{state.players[seat].name} conceded: ")


def test_four_players_the_last_sage_left_is_taken_without_a_decision():
    """Four players, four Sages: the last to choose has one left, so it is theirs at once,
    and the table is told."""
    state = setup_game("4p", ["Ann", "Ben", "Cid", "Dot"], PACK.name, rng_for(1, 0))
    events = []
    for _ in range(3):
        (seat,) = state.frames[0].deciders
        events = choose_sage(state, seat, sage_options(state)[0])
    assert all(p.sage for p in state.players)
    assert state.phase == "formation"
    assert "the last Sage left" in events[-1].text
    # Each Sage named with its faction as a reader takes it ("Cedar, the Twig Sage"),
    # not as if it were the card's kind ("Cedar (twig)").
    last = PACK.card(state.players[(seat + 1) % 4].sage or "")
    assert re.search(
        r"takes [A-Z][\w' -]+, the [A-Z][a-z]+ Sage, the last Sage left", events[-1].text
    )
    assert f"({last.faction})" not in " ".join(e.text for e in events)


def test_a_turn_without_daybreak_effects_goes_straight_to_phase_two():
    """Phase I holds only daybreak effects: with none ready there is nothing to decide,
    so Phase II begins, and the table is told."""
    state, seat = in_phase("market")
    side = state.sides[1 - state.active]
    for pos in side.formation.occupied():
        elemental = side.formation.at(pos)
        assert elemental is not None
        if PACK.card(state.cards[elemental.card]).daybreak:  # type: ignore[union-attr]
            state.cards.append("timber")
            elemental.card = len(state.cards) - 1
    turn.go_to_cleanup(state, seat)
    events = turn.end_turn(state)
    assert state.phase == "actions"
    assert any("Phase II begins" in e.text for e in events)
