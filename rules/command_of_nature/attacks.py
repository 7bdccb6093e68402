"""An attack's course once it is declared: its start (the attacker's boosts spent, the
defenders' response window), each hit landing in turn, and its end; and the Command
that finishes once its effect has resolved. The queue that runs these steps, and the
damage each hit deals, are `effects.py`'s; declaring an attack is `battle.py`'s.
"""

from __future__ import annotations

from rules.command_of_nature.cards import (
    CommandCard,
    KeepBoosts,
)
from rules.command_of_nature.combat import (
    incoming_attack_dmg,
    spend_boosts,
)
from rules.command_of_nature.formation import (
    ROW_NAMES,
    Pos,
)
from rules.command_of_nature.setup import Events, _ev, card_of
from rules.command_of_nature.state import Attack, Frame, State, Step
from rules.command_of_nature.table import (
    elemental_at,
    elemental_def,
    fire,
    in_required_row,
    locate,
    ops_step,
)


def keeps_boosts(state: State, card: int) -> bool:
    """Static: a card that keeps its boosts after attacking (from its rows)."""
    return in_required_row(state, card) and any(
        e.trigger.on == "static" and any(isinstance(op, KeepBoosts) for op in e.ops)
        for e in elemental_def(state, card).effects
    )


def start_attack(
    state: State,
    seat: int,
    card: int,
    attacker: Pos,
    targets: list[Pos],
    *,
    at: int = 0,
    from_hand: bool = True,
) -> Events:
    """An Attack Command (already out of the hand, or `from_hand` False: out of the
    discard pile, where it lay face up) is played: attack triggers, its effect, the
    response window, DMG to each target in turn, its `after` ops."""
    side = state.side_of(seat)
    command = card_of(state, card)
    assert isinstance(command, CommandCard) and command.attack is not None
    own = side.formation.at(attacker)
    enemy_formation = state.sides[1 - side.team].formation
    enemies = [enemy_formation.at(t) for t in targets]
    assert own is not None and targets and all(e is not None for e in enemies)
    side.attacked.append(own.card)
    dmg = elemental_def(state, own.card).strength + command.attack.str_modifier
    target_cards = [e.card for e in enemies]  # type: ignore[union-attr]
    state.attack = Attack(
        seat=seat,
        command=card,
        attacker=attacker,
        target=targets[0],
        dmg=dmg,
        attacker_card=own.card,
        target_card=target_cards[0],
        targets=list(targets),
        target_cards=target_cards,
    )
    kind = command.attack.range
    steps = [
        ops_step(state, seat, f"card:{command.id}:effect"),
        Step(kind="respond", actor=seat),
        Step(kind="hit", actor=seat, index=0),
        ops_step(state, seat, f"card:{command.id}:after"),
        Step(kind="end_attack", actor=seat),
    ]
    state.queue[at:at] = steps
    # Queued in front, so: the attacker's trigger, then each target's in order.
    for target_card in reversed(target_cards):
        fire(state, "is_attacked", target_card, attack_kind=kind)
    fire(state, "attacks", own.card, attack_kind=kind)
    player = state.players[seat]
    named = " and ".join(
        f"{card_of(state, c).name} in Row {ROW_NAMES[t[0]]}"
        for c, t in zip(target_cards, targets, strict=True)
    )
    return [
        _ev(
            "attack",
            f"{player.name} plays {command.name}: {card_of(state, own.card).name} attacks {named}.",
            seat,
            reveals=from_hand,
        )
    ]


def open_response_window(state: State) -> Events:
    """The defending side may answer with Instant Commands, or let the attack through."""
    attack = state.attack
    if attack is None:
        return []
    defenders = [s for s in state.sides[1 - state.active].seats if s not in attack.passed]
    if defenders:
        state.frames.append(
            Frame(
                kind="respond",
                deciders=defenders,
                prompt="answer with an Instant Command or let the attack through",
            )
        )
    return []


def attack_hit(state: State, index: int = 0) -> Events:
    """DMG lands on the attack's target number `index`, then on the next (a chain of
    `hit` steps, so each target's damage, triggers, defeat and forward shift resolve
    before the next target is hit).

    Per target: DMG = the Command's DMG + bonuses + boosts − Instant reductions, then
    that target's shields. The boosts are counted once for the whole attack (taken off
    the attacker when the first DMG lands) and add to every target's DMG. Instant
    reductions, like bonuses, change the attack's DMG, so they apply to every target
    (the rulebook subtracts them from the attack's DMG before each target's shields).
    A target that has left the formation is skipped, and so is a later target that has
    moved (a defeat's forward shift, a swap) since DMG began to land: the attack was
    aimed at a space. If the attacker is gone when DMG would land, nothing is hit."""
    attack = state.attack
    assert attack is not None
    events: Events = []
    if index == 0:
        attack.landed = True  # the Command has done its work: to the discard pile
        state.players[attack.seat].discard.append(attack.command)
        attacker = elemental_at(state, attack.attacker_card)
        if attacker is None:
            return [_ev("fizzle", "The attack finds no target.")]
        attack.boosts = spend_boosts(
            attacker, keeps_boosts=keeps_boosts(state, attack.attacker_card)
        )
        # Where the targets stand as DMG starts to land (Instants may have moved them).
        defending = 1 - state.side_of(attack.seat).team
        attack.targets = [
            (found[1] if found is not None and found[0] == defending else (-1, -1))
            for found in (locate(state, c) for c in attack.target_cards)
        ]
    if index + 1 < len(attack.target_cards):
        state.queue.insert(0, Step(kind="hit", actor=attack.seat, index=index + 1))
    card = attack.target_cards[index]
    found = locate(state, card)
    if found is None or found[1] != attack.targets[index]:
        if len(attack.target_cards) == 1:
            return [_ev("fizzle", "The attack finds no target.")]
        return [_ev("fizzle", f"{card_of(state, card).name} is no longer there: it is not hit.")]
    attack.target = found[1]
    attack.target_card = card
    cut = attack.reduced + attack.reduced_for.get(card, 0)
    incoming = incoming_attack_dmg(attack.dmg + attack.bonus, attack.boosts, cut)
    state.queue.insert(
        0, Step(kind="damage", actor=attack.seat, card=card, amount=incoming, attack=True)
    )
    if incoming <= 0:
        events.append(_ev("damage", f"{card_of(state, card).name} takes 0 DMG."))
    return events


def end_attack(state: State) -> Events:
    attack = state.attack
    if attack is None:
        return []
    state.attack = None
    return []


def finish_command(state: State, card: int | None) -> Events:
    """A played Command goes to its player's discard pile once its effect is over."""
    played = next(p for p in state.in_play if p.card == card)
    state.in_play.remove(played)
    state.players[played.seat].discard.append(played.card)
    return []
