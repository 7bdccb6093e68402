"""What a seat plays besides its Elementals and attacks: Instants (in an attack's
response window), Commands (paid, with their rituals), an Elemental's Daybreak effect
and the faction actions. Each is checked, paid and queued here; `effects.py`
resolves what it queues.
"""

from __future__ import annotations

import random

from rules.command_of_nature.cards import (
    CommandCard,
)
from rules.command_of_nature.effects import can_pay, ops_at, resume
from rules.command_of_nature.formation import (
    connected_group,
)
from rules.command_of_nature.setup import Events, _ev, card_of
from rules.command_of_nature.state import Played, State, Step
from rules.command_of_nature.table import (
    elemental_at,
    elemental_def,
    in_required_row,
    ops_step,
    reached,
)
from rules.command_of_nature.text import row_names
from rules.core import IllegalAction


def instant_allowed(state: State, seat: int, card: int) -> bool:
    """Instants answer an attack on one's side while the window is open, if their
    `responds_to` filter allows that attack (a faction filter: when any of the attack's
    targets is of that faction)."""
    command = card_of(state, card)
    attack = state.attack
    if not isinstance(command, CommandCard) or command.type != "instant" or attack is None:
        return False
    flt = command.responds_to
    assert flt is not None
    attack_command = card_of(state, attack.command)
    assert isinstance(attack_command, CommandCard) and attack_command.attack is not None
    if flt.attack and flt.attack != attack_command.attack.range:
        return False
    if flt.faction and all(card_of(state, c).faction != flt.faction for c in attack.target_cards):
        return False
    return can_pay(state, seat, command.effect, playing=card)


def check_instant(state: State, seat: int, card_id: str) -> int:
    frame = state.frames[-1] if state.frames else None
    if frame is None or frame.kind != "respond" or seat not in frame.deciders:
        raise IllegalAction("not-now", "Instant Commands answer an attack on your side.")
    card = next((c for c in state.players[seat].hand if state.cards[c] == card_id), None)
    if card is None:
        raise IllegalAction("not-in-hand", "That card isn't in your hand.")
    if not instant_allowed(state, seat, card):
        raise IllegalAction("instant", "That Command can't answer this attack.")
    return card


def play_instant(state: State, seat: int, card_id: str, rng: random.Random) -> Events:
    """No AP: its effect resolves now, its `after` ops once DMG has landed; then the
    window opens again."""
    card = check_instant(state, seat, card_id)
    command = card_of(state, card)
    assert isinstance(command, CommandCard)
    state.players[seat].hand.remove(card)
    state.in_play.append(Played(card=card, seat=seat))
    state.frames.pop()
    after = [
        ops_step(state, seat, f"card:{command.id}:after"),
        Step(kind="played", actor=seat, card=card),
    ]
    hit = next(i for i, s in enumerate(state.queue) if s.kind == "hit")
    state.queue[hit + 1 : hit + 1] = after
    state.queue[0:0] = [
        ops_step(state, seat, f"card:{command.id}:effect"),
        Step(kind="respond", actor=seat),
    ]
    events = [_ev("instant", f"{state.players[seat].name} answers with {command.name}.", seat)]
    return events + resume(state, rng)


# --------------------------------------------------------------------------- Commands


def ritual_ready(state: State, seat: int, command: CommandCard) -> bool:
    """A Ritual needs `count` connected own Elementals of one faction."""
    need = command.ritual
    assert need is not None
    formation = state.side_of(seat).formation
    factions = {
        formation.at(p).card: card_of(state, formation.at(p).card).faction  # type: ignore[union-attr]
        for p in formation.occupied()
    }
    for pos in formation.occupied():
        if need.faction and factions[formation.at(pos).card] != need.faction:  # type: ignore[union-attr]
            continue
        if len(connected_group(formation, pos, faction_of=factions)) >= need.count:
            return True
    return False


def check_command(state: State, seat: int, card_id: str) -> int:
    """Playing a Utility or Ritual Command costs 1 AP in Phase II (a Ritual needs its
    connected Elementals; a cost in its effect must be payable)."""
    side = state.sides[state.active]
    if seat not in side.seats or not reached(state, "actions") or state.frames or state.queue:
        raise IllegalAction("phase", "Commands are played in Phase II of your turn.")
    card = next((c for c in state.players[seat].hand if state.cards[c] == card_id), None)
    if card is None:
        raise IllegalAction("not-in-hand", "That card isn't in your hand.")
    command = card_of(state, card)
    if not isinstance(command, CommandCard) or command.type not in ("utility", "ritual"):
        raise IllegalAction("not-playable", "Play Utility and Ritual Commands this way.")
    if command.type == "ritual" and not ritual_ready(state, seat, command):
        need = command.ritual
        assert need is not None
        raise IllegalAction(
            "ritual",
            f"{command.name} needs {need.count} connected Elementals "
            f"of {need.faction or 'one faction'}.",
        )
    if not can_pay(state, seat, command.effect, playing=card):
        raise IllegalAction("cost", f"You can't pay what {command.name} asks.")
    if side.ap < 1:
        raise IllegalAction("no-ap", "Your side has no Action Point left this turn.")
    return card


def play_command(state: State, seat: int, card_id: str, rng: random.Random) -> Events:
    card = check_command(state, seat, card_id)
    command = card_of(state, card)
    state.sides[state.active].ap -= 1
    state.players[seat].hand.remove(card)
    state.in_play.append(Played(card=card, seat=seat))
    state.queue[0:0] = [
        ops_step(state, seat, f"card:{command.id}:effect"),
        Step(kind="played", actor=seat, card=card),
    ]
    events = [_ev("command", f"{state.players[seat].name} plays {command.name}.", seat)]
    return events + resume(state, rng)


# --------------------------------------------------------------------------- daybreak


def _daybreak_index(state: State, card: int) -> int:
    return next(
        i for i, e in enumerate(elemental_def(state, card).effects) if e.trigger.on == "daybreak"
    )


def check_daybreak(state: State, seat: int, card: int) -> None:
    side = state.sides[state.active]
    if seat not in side.seats or state.phase != "daybreak" or state.frames or state.queue:
        raise IllegalAction("phase", "Daybreak effects are used in Phase I of your turn.")
    if card not in side.daybreak:
        raise IllegalAction("daybreak", "That Elemental has no daybreak effect to use now.")
    elemental = elemental_at(state, card)
    if elemental is None or elemental.owner != seat:
        raise IllegalAction("daybreak", "Use the daybreak effects of your own Elementals.")
    if not in_required_row(state, card):
        definition = elemental_def(state, card)
        raise IllegalAction(
            "row",
            f"{definition.name} no longer stands in {row_names(definition.rows)}: its "
            "daybreak effect is used only from there.",
        )
    ops = elemental_def(state, card).effects[_daybreak_index(state, card)].ops
    if not can_pay(state, seat, ops, source=card):
        raise IllegalAction("cost", "You can't pay what that effect asks.")


def use_daybreak(state: State, seat: int, card: int, rng: random.Random) -> Events:
    check_daybreak(state, seat, card)
    state.sides[state.active].daybreak.remove(card)
    definition = elemental_def(state, card)
    state.queue.insert(
        0,
        ops_step(
            state, seat, f"card:{definition.id}:fx{_daybreak_index(state, card)}", source=card
        ),
    )
    events = [
        _ev(
            "daybreak",
            f"{state.players[seat].name} uses {definition.name}'s daybreak effect.",
            seat,
        )
    ]
    return events + resume(state, rng)


# --------------------------------------------------------------------------- faction actions


def check_faction_action(state: State, seat: int, level: int) -> None:
    """Unlocked at levels 4, 6 and 8; 1 AP; one per turn; not without one's Sage."""
    side = state.sides[state.active]
    player = state.players[seat]
    if seat not in side.seats or not reached(state, "actions") or state.frames or state.queue:
        raise IllegalAction("phase", "Faction actions are taken in Phase II of your turn.")
    if player.sage_defeated:
        raise IllegalAction("no-sage", "A player whose Sage has fallen has no faction actions.")
    if level not in (4, 6, 8) or player.level < level:
        raise IllegalAction("locked", f"That faction action unlocks at level {level}.")
    if player.faction_action_used:
        raise IllegalAction("once", "Only one faction action per turn.")
    if side.ap < 1:
        raise IllegalAction("no-ap", "Your side has no Action Point left this turn.")
    assert player.sage is not None
    if not can_pay(state, seat, ops_at(state, f"faction:{player.sage}:{level}")):
        raise IllegalAction("cost", "You can't pay what that faction action asks.")


def faction_action(state: State, seat: int, level: int, rng: random.Random) -> Events:
    check_faction_action(state, seat, level)
    player = state.players[seat]
    state.sides[state.active].ap -= 1
    player.faction_action_used = True
    state.queue.insert(0, ops_step(state, seat, f"faction:{player.sage}:{level}"))
    events = [_ev("faction", f"{player.name} takes their level-{level} faction action.", seat)]
    return events + resume(state, rng)
