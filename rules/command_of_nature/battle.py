"""Combat as the rulebook runs it: an Attack Command is declared, the defending side may
answer with Instant Commands, then DMG lands (the attack's steps resolve in
`effects.py`; a defeat and the forward shift in `table.py`).

Rows in card data count from 1 (Row I); positions here count from 0.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.command_of_nature import attacks, effects
from rules.command_of_nature.cards import CommandCard
from rules.command_of_nature.combat import attack_reaches
from rules.command_of_nature.formation import Pos
from rules.command_of_nature.setup import Events, _ev, card_of
from rules.command_of_nature.state import State
from rules.command_of_nature.table import active_side, hand_card, require_phase
from rules.core import IllegalAction


def as_targets(targets: Pos | Sequence[Pos]) -> list[Pos]:
    """One space, or the spaces of several targets in the order they are hit."""
    if targets and isinstance(targets[0], int):
        return [targets]  # type: ignore[list-item]
    return [tuple(t) for t in targets]  # type: ignore[misc]


def check_attack(
    state: State, seat: int, command_id: str, attacker: Pos, targets: Pos | Sequence[Pos]
) -> int:
    """Playing an Attack Command costs 1 AP; each Elemental attacks once per turn (a team:
    not twice between teammates); it names 1..`targets` distinct enemy Elementals, each
    in the Command's reach."""
    side = require_phase(state, seat, "actions", ahead=True)
    if state.frames or state.queue or state.attack is not None:
        raise IllegalAction("not-now", "Finish resolving what is under way first.")
    targets = as_targets(targets)
    card = hand_card(state, seat, command_id)
    command = card_of(state, card)
    if not isinstance(command, CommandCard) or command.type != "attack":
        raise IllegalAction("not-attack", "Only an Attack Command starts an attack.")
    assert command.attack is not None
    if not 1 <= len(targets) <= command.attack.targets or len(set(targets)) != len(targets):
        most = command.attack.targets
        raise IllegalAction(
            "targets",
            f"{command.name} attacks "
            + ("one enemy Elemental." if most == 1 else f"1 to {most} different enemy Elementals."),
        )
    own = side.formation.at(attacker)
    enemy = state.sides[1 - state.active].formation
    if own is None or any(enemy.at(target) is None for target in targets):
        raise IllegalAction("no-elemental", "Attack with one of your Elementals at an enemy one.")
    if own.card in side.attacked:
        raise IllegalAction("attacked", "That Elemental has already attacked this turn.")
    if not all(attack_reaches(command, attacker, target) for target in targets):
        raise IllegalAction("reach", f"{command.name} can't reach that Elemental from there.")
    if side.ap < 1:
        raise IllegalAction("no-ap", "Your side has no Action Point left this turn.")
    return card


def declare_attack(
    state: State,
    seat: int,
    command_id: str,
    attacker: Pos,
    targets: Pos | Sequence[Pos],
    rng: random.Random,
) -> Events:
    """The attack is declared: 1 AP, the Command leaves the hand, attack triggers and its
    effect resolve, and the defending side gets its response window."""
    card = check_attack(state, seat, command_id, attacker, targets)
    active_side(state).ap -= 1
    state.players[seat].hand.remove(card)
    events = attacks.start_attack(state, seat, card, attacker, as_targets(targets))
    return events + effects.resume(state, rng)


def let_through(state: State, seat: int, rng: random.Random) -> Events:
    """A defender plays no more Instants; once every defender has, DMG lands (and the
    rest of the attack resolves)."""
    attack = state.attack
    if attack is None or not state.frames or state.frames[-1].kind != "respond":
        raise IllegalAction("not-now", "There is no attack to answer.")
    if seat not in state.frames[-1].deciders:
        raise IllegalAction("not-yours", "This attack isn't aimed at your side.")
    state.frames[-1].deciders.remove(seat)
    attack.passed.append(seat)
    events = [_ev("pass", f"{state.players[seat].name} lets the attack through.", seat)]
    if state.frames[-1].deciders:
        return events
    state.frames.pop()
    return events + effects.resume(state, rng)
