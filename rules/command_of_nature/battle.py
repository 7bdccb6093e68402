"""Combat as the rulebook runs it: an Attack Command is played, the defending side may
answer with Instant Commands, then DMG lands; a defeated Elemental leaves the game,
its attacker's player levels up, and the formation shifts forward.

Rows in card data count from 1 (Row I); positions here count from 0.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.command_of_nature.cards import CommandCard, ElementalCard
from rules.command_of_nature.formation import Pos, distance, gap_to_fill, move
from rules.command_of_nature.setup import Events, _ev, card_of
from rules.command_of_nature.state import Frame, State
from rules.command_of_nature.turn import _hand_card, _require_phase, active_side, level_up
from rules.core import IllegalAction

ROW_NAMES = ("I", "II", "III")


def _elemental_def(state: State, card: int) -> ElementalCard:
    definition = card_of(state, card)
    assert isinstance(definition, ElementalCard)
    return definition


def attack_reaches(command: CommandCard, attacker: Pos, target: Pos) -> bool:
    """Whether an Attack Command lets an Elemental at `attacker` hit one at `target`:
    melee is Row I against Row I; ranged goes by distance or by the target's rows."""
    profile = command.attack
    assert profile is not None
    if attacker[0] + 1 not in profile.attacker_rows:
        return False
    if profile.range == "melee":
        return attacker[0] == 0 and target[0] == 0
    if profile.distance is not None:
        return distance(attacker, target) == profile.distance
    return not profile.target_rows or target[0] + 1 in profile.target_rows


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
    side = _require_phase(state, seat, "actions")
    if state.frames or state.queue or state.attack is not None:
        raise IllegalAction("not-now", "Finish resolving what is under way first.")
    targets = as_targets(targets)
    card = _hand_card(state, seat, command_id)
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
    from rules.command_of_nature import effects

    card = check_attack(state, seat, command_id, attacker, targets)
    active_side(state).ap -= 1
    state.players[seat].hand.remove(card)
    events = effects.start_attack(state, seat, card, attacker, as_targets(targets))
    return events + effects.resume(state, rng)


def let_through(state: State, seat: int, rng: random.Random) -> Events:
    """A defender plays no more Instants; once every defender has, DMG lands (and the
    rest of the attack resolves)."""
    from rules.command_of_nature import effects

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


def _shields_text(lost: int) -> str:
    return f" ({lost} shield{'s' if lost != 1 else ''} lost)" if lost else ""


def defeat(state: State, team: int, pos: Pos, *, by_seat: int | None) -> Events:
    """A defeated Elemental leaves the game with its tokens; the player who defeated it
    gains a level; its formation shifts forward. A fallen Sage decides the game."""
    formation = state.sides[team].formation
    fallen = formation.at(pos)
    assert fallen is not None
    formation.put(pos, None)
    state.removed.append(fallen.card)
    definition = _elemental_def(state, fallen.card)
    events = [_ev("defeat", f"{definition.name} is defeated and leaves the game.")]
    if by_seat is not None:
        events += level_up(state, by_seat)
    if definition.kind == "sage":
        events += sage_falls(state, fallen.owner)
        if state.phase == "over":
            return events
    return events + shift_forward(state, team)


def sage_falls(state: State, seat: int) -> Events:
    """Two players: the game is won. A team plays on until both its Sages have fallen;
    a player without a Sage has no faction actions and gains no levels."""
    player = state.players[seat]
    player.sage_defeated = True
    team = state.sides[player.team]
    if all(state.players[s].sage_defeated for s in team.seats):
        return end_game(state, losing_team=player.team)
    return [_ev("sage", f"{player.name}'s Sage has fallen; their teammate fights on.", seat)]


def end_game(state: State, *, losing_team: int, reason: str = "Sage defeated") -> Events:
    state.losers = list(state.sides[losing_team].seats)
    state.winners = list(state.sides[1 - losing_team].seats)
    state.phase = "over"
    state.end_reason = reason
    state.frames.clear()
    state.queue.clear()
    if (
        state.attack is not None and not state.attack.landed
    ):  # the Attack Command on the table goes to its discard pile
        state.players[state.attack.seat].discard.append(state.attack.command)
    for played in state.in_play:
        state.players[played.seat].discard.append(played.card)
    state.in_play.clear()
    state.attack = None
    won = " & ".join(state.players[s].name for s in state.winners)
    verb = "wins" if len(state.winners) == 1 else "win"
    return [_ev("over", f"{won} {verb}: the opposing side has no Sage left. The game is over.")]


def shift_forward(state: State, team: int) -> Events:
    """Rows I and II may not keep gaps while anything stands behind them: with one
    candidate it moves at once; with several, the formation's side chooses."""
    formation = state.sides[team].formation
    events: Events = []
    while (gap := gap_to_fill(formation)) is not None:
        _, candidates = gap
        if len(candidates) > 1:
            state.frames.append(
                Frame(
                    kind="fill",
                    deciders=list(state.sides[team].seats),
                    prompt="move an Elemental forward",
                )
            )
            return events
        events += fill_gap(state, team, candidates[0])
    return events


def fill_gap(state: State, team: int, source: Pos) -> Events:
    """Move the chosen Elemental into the frontmost gap."""
    formation = state.sides[team].formation
    gap = gap_to_fill(formation)
    if gap is None or source not in gap[1]:
        raise IllegalAction("not-a-candidate", "That Elemental can't fill the gap.")
    space, _ = gap
    moved = formation.at(source)
    assert moved is not None
    move(formation, source, space)
    from rules.command_of_nature import effects

    effects.fire(state, "enters_row", moved.card)
    name = _elemental_def(state, moved.card).name
    return [_ev("shift", f"{name} moves forward into Row {ROW_NAMES[space[0]]}.")]
