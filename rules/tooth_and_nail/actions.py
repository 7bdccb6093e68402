"""The decisions a seat can take, checked and applied.

Each action kind has a check that raises `IllegalAction` with the rule it breaks
and a `do` that performs it. `legal_actions` is built by running the checks over
every candidate, so menus and refusals can never disagree.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations

from rules.core import Action, IllegalAction, passing
from rules.tooth_and_nail.effects import (
    NO_DEPLOY,
    apply_troop_op,
    deploy,
    deploy_options,
    discard_chosen,
    queue_effect,
    run_op,
    search_options,
    source_label,
    take_from_deck,
    troop_targets,
)
from rules.tooth_and_nail.rules import (
    ZONE_NAMES,
    Events,
    _ev,
    _name,
    _zone,
    advance_turn,
    card_def,
    card_name,
    choose_command_card,
    choose_faction,
    command_card_options,
    deal_damage,
    discard_from_hand,
    end_turn,
    first_recharge,
    hand_card,
    has_troop_id,
    pack_of,
    put_into_play,
    recharge_choice,
    recharge_draw,
    recharge_troops,
    recharge_war_troop,
    remove_from_game,
    take_revenge,
    taken_factions,
    troop_def,
)
from rules.tooth_and_nail.state import Frame, State, Step, Troop

NO_BOOST = "none"

# --------------------------------------------------------------------------- whose decision


def top_frame(state: State) -> Frame | None:
    return state.frames[-1] if state.frames else None


def to_act(state: State) -> set[int]:
    """Seats whose decision the game waits for."""
    if state.phase == "over":
        return set()
    frame = top_frame(state)
    if frame is not None:
        return set(frame.deciders)
    if state.phase == "action" and state.alpha is not None:
        return {state.alpha}
    return set()


def _require_turn(state: State, seat: int) -> None:
    if state.phase == "over":
        raise IllegalAction("over", "This game is over.")
    if seat not in to_act(state):
        waiting = ", ".join(_name(state, s) for s in sorted(to_act(state))) or "nobody"
        raise IllegalAction(
            "not-your-turn", f"It isn't your decision: the game waits for {waiting}."
        )


def _require_frame(state: State, kind: str) -> Frame:
    frame = top_frame(state)
    if frame is None or frame.kind != kind:
        raise IllegalAction("not-now", "That choice isn't open right now.")
    return frame


def _require_action_step(state: State) -> None:
    if state.frames or state.phase != "action":
        raise IllegalAction("not-now", "That can only be done in your Action Step.")


def _spend_ap(state: State, seat: int) -> None:
    player = state.players[seat]
    if player.ap < 1:
        raise IllegalAction("no-ap", "You have no Action Point left this turn.")


def _find(troops: list[Troop], state: State, troop_id: str, drained: bool | None = None) -> int:
    for i, troop in enumerate(troops):
        if state.cards[troop.card] == troop_id and (drained is None or troop.drained == drained):
            return i
    return -1


def _troop_id(state: State, troop_id: str) -> str:
    if not has_troop_id(state, troop_id):
        raise IllegalAction("unknown-card", "There is no such card in this game.")
    return troop_id


def _named_once(troop_ids: tuple[str, ...]) -> None:
    """Troops used together are one choice, named once (in the menu's order), not one
    choice per order they could be named in."""
    if list(troop_ids) != sorted(troop_ids):
        raise IllegalAction("not-an-option", "That isn't one of the choices open to you now.")


# --------------------------------------------------------------------------- Action Step rules


def check_play(state: State, seat: int, troop_id: str, zone: str) -> None:
    """Playing a Troop costs 1 Action Point and needs room in the zone."""
    _require_action_step(state)
    if zone not in ZONE_NAMES:
        raise IllegalAction("zone", "Troops go into your Command Zone or your War Zone.")
    if hand_card(state, seat, _troop_id(state, troop_id)) is None:
        raise IllegalAction("not-in-hand", "That Troop isn't in your hand.")
    _spend_ap(state, seat)
    _check_room(state, seat, zone)


def _check_room(state: State, seat: int, zone: str) -> None:
    limit = state.limits[zone]
    if len(_zone(state.players[seat], zone)) >= limit:
        raise IllegalAction("zone-full", f"Your {ZONE_NAMES[zone]} holds at most {limit} Troops.")


def check_command_ability(state: State, seat: int, troop_id: str) -> int:
    """A Command Ability is used from a non-drained Troop in the Command Zone, for 0 AP."""
    _require_action_step(state)
    i = _find(state.players[seat].command_zone, state, _troop_id(state, troop_id), drained=False)
    if i < 0:
        raise IllegalAction("no-troop", "You need that Troop, non-drained, in your Command Zone.")
    return i


def use_command_ability(state: State, seat: int, troop_id: str) -> Events:
    """Drain the Troop and resolve its ability; afterwards it leaves the game unless a
    Troop of the same name is discarded from hand."""
    i = check_command_ability(state, seat, troop_id)
    troop = state.players[seat].command_zone[i]
    troop.drained = True
    source = f"troop:{troop_id}"
    state.queue.insert(0, Step(kind="keep_or_remove", actor=seat, card=troop.card))
    queue_effect(state, seat, source, state.opponents(seat))
    for step in state.queue:
        if step.kind == "op" and step.source == source:
            step.card = troop.card
    return [_ev("ability", f"{_name(state, seat)} uses {source_label(state, source)}.", seat)]


def keep_or_remove(state: State, seat: int, card: int) -> Events:
    """After a Command Ability: remove the Troop, unless a same-name Troop is discarded.

    The question is asked whenever the player holds any card, so that whether it is
    asked never tells the table what their hand holds."""
    player = state.players[seat]
    i = next((k for k, t in enumerate(player.command_zone) if t.card == card), -1)
    if i < 0:
        return []  # the Troop already left the Command Zone during its own ability
    if player.hand:
        state.frames.append(
            Frame(
                kind="keep",
                deciders=[seat],
                step=Step(kind="keep", actor=seat, card=card),
                prompt=f"decide whether to keep {card_name(state, card)}",
            )
        )
        return []
    return _remove_used_troop(state, seat, i)


def _remove_used_troop(state: State, seat: int, index: int) -> Events:
    troop = state.players[seat].command_zone.pop(index)
    remove_from_game(state, seat, troop.card)
    return [
        _ev(
            "removed",
            f"{_name(state, seat)}'s {card_name(state, troop.card)} is removed from the game.",
            seat,
        )
    ]


def decide_keep(state: State, seat: int, keep: bool) -> Events:
    frame = _require_frame(state, "keep")
    assert frame.step is not None and frame.step.card is not None
    state.frames.pop()
    card = frame.step.card
    player = state.players[seat]
    i = next(k for k, t in enumerate(player.command_zone) if t.card == card)
    if not keep:
        return _remove_used_troop(state, seat, i)
    copy = hand_card(state, seat, state.cards[card])
    assert copy is not None
    discard_from_hand(state, seat, copy)
    return [
        _ev(
            "keep",
            f"{player.name} discards {card_name(state, copy)} from hand to keep "
            "the one in their Command Zone.",
            seat,
        )
    ]


def check_faction_ability(state: State, seat: int, first: str, second: str) -> None:
    """A Faction Ability costs 0 AP and drains 2 non-drained Command Zone Troops."""
    _require_action_step(state)
    if state.players[seat].command_card is None:
        raise IllegalAction("no-command-card", "You have no Faction Command card.")
    _named_once((first, second))
    ready = Counter(state.cards[t.card] for t in state.players[seat].command_zone if not t.drained)
    need = Counter([first, second])
    if any(ready[k] < v for k, v in need.items()):
        raise IllegalAction(
            "drain-two", "A Faction Ability drains 2 non-drained Troops in your Command Zone."
        )


def use_faction_ability(state: State, seat: int, first: str, second: str) -> Events:
    check_faction_ability(state, seat, first, second)
    zone = state.players[seat].command_zone
    for troop_id in (first, second):
        zone[_find(zone, state, troop_id, drained=False)].drained = True
    faction = state.players[seat].command_card
    assert faction is not None
    queue_effect(state, seat, f"ability:{faction}", state.opponents(seat))
    return [
        _ev(
            "faction",
            f"{_name(state, seat)} drains {troop_def(state, first).name} and "
            f"{troop_def(state, second).name} to use {source_label(state, 'ability:' + faction)}.",
            seat,
        )
    ]


def attack_targets(state: State, seat: int) -> list[int]:
    """Whose deck an attack can hit. In 3 players the attacker picks among the opponents;
    otherwise it is the opposing player (team)."""
    opponents = state.opponents(seat)
    return opponents if state.variant == "3p" else opponents[:1]


def _target(state: State, seat: int, target: str | None) -> int:
    targets = attack_targets(state, seat)
    if state.variant != "3p":
        if target is not None:
            raise IllegalAction(
                "target", "Attacks hit the opposing deck: there is no target to name."
            )
        return targets[0]
    by_name = {str(t): t for t in targets}  # as the menu names them: "2", not "02" or "²"
    if target not in by_name:
        raise IllegalAction("target", "Choose an opponent who is still in the game to attack.")
    return by_name[target]


def check_attack(
    state: State, seat: int, troop_id: str, boost_with: str, target: str | None
) -> int:
    """A Non-formation Attack costs 1 AP and uses one non-drained War Zone Troop; it may be
    Boosted once with a card in hand of the attacking Troop's Troop Type."""
    _require_action_step(state)
    _spend_ap(state, seat)
    i = _find(state.players[seat].war_zone, state, _troop_id(state, troop_id), drained=False)
    if i < 0:
        raise IllegalAction("no-troop", "Only a non-drained Troop in your War Zone can attack.")
    if boost_with != NO_BOOST and boost_with not in boost_options(state, seat, troop_id):
        raise IllegalAction(
            "boost", "Boost with a card in your hand of the attacking Troop's Troop Type."
        )
    _target(state, seat, target)
    return i


def boost_options(state: State, seat: int, attacker: str) -> list[str]:
    """Cards in hand that can Boost: any card of the attacking Troop's Troop Type."""
    kind = troop_def(state, attacker).type
    return sorted(
        {state.cards[c] for c in state.players[seat].hand if card_def(state, c).type == kind}
    )


def non_formation_attack(
    state: State, seat: int, troop_id: str, boost_with: str, target: str | None
) -> Events:
    """Drain the Troop; it deals its Strength in damage, +1 if Boosted (the Boost card is
    removed from the game)."""
    i = check_attack(state, seat, troop_id, boost_with, target)
    victim = _target(state, seat, target)
    player = state.players[seat]
    troop = player.war_zone[i]
    troop.drained = True
    player.ap -= 1
    d = card_def(state, troop.card)
    events = [_ev("attack", f"{player.name} attacks {_name(state, victim)} with {d.name}.", seat)]
    amount = d.strength
    if boost_with != NO_BOOST:
        card = hand_card(state, seat, boost_with)
        assert card is not None
        player.hand.remove(card)
        remove_from_game(state, seat, card)
        amount += 1
        text = f"{player.name} Boosts the attack, removing {card_name(state, card)} from the game."
        events.append(_ev("boost", text, seat))
    return events + deal_damage(state, victim, amount)


def formation_options(state: State, seat: int, faction_id: str) -> list[tuple[str, ...]]:
    """Distinct groups of non-drained War Zone Troops that meet the formation's Troop Types."""
    requires = sorted(pack_of(state).faction(faction_id).formation.requires)
    ready = sorted({state.cards[t.card] for t in state.players[seat].war_zone if not t.drained})
    counts = Counter(state.cards[t.card] for t in state.players[seat].war_zone if not t.drained)
    pool = [tid for tid in ready for _ in range(min(counts[tid], len(requires)))]
    groups = set()
    for combo in combinations(pool, len(requires)):
        if sorted(troop_def(state, t).type for t in combo) == requires:
            groups.add(tuple(sorted(combo)))
    return sorted(groups)


def check_formation(state: State, seat: int, troops: tuple[str, ...], target: str | None) -> None:
    """A Formation Attack costs 1 AP and drains exactly the Troop Types its card names."""
    _require_action_step(state)
    faction = state.players[seat].command_card
    if faction is None:
        raise IllegalAction("no-command-card", "You have no Faction Command card.")
    _spend_ap(state, seat)
    _named_once(troops)
    if troops not in formation_options(state, seat, faction):
        needs = ", ".join(pack_of(state).faction(faction).formation.requires)
        raise IllegalAction(
            "formation",
            f"This Formation Attack needs non-drained War Zone Troops of these types: {needs}.",
        )
    _target(state, seat, target)


def formation_attack(
    state: State, seat: int, troops: tuple[str, ...], target: str | None
) -> Events:
    """Drain the Troops; they deal their combined Strength, plus the formation's extra
    damage, then its effect applies. Never Boosted."""
    check_formation(state, seat, troops, target)
    victim = _target(state, seat, target)
    player = state.players[seat]
    faction_id = player.command_card
    assert faction_id is not None
    formation = pack_of(state).faction(faction_id).formation
    player.ap -= 1
    total = 0
    for troop_id in troops:
        troop = player.war_zone[_find(player.war_zone, state, troop_id, drained=False)]
        troop.drained = True
        total += card_def(state, troop.card).strength
    events = [
        _ev(
            "formation",
            f"{player.name} launches {formation.name} at {_name(state, victim)} "
            f"with {', '.join(troop_def(state, t).name for t in troops)}.",
            seat,
        )
    ]
    events += deal_damage(state, victim, total + formation.bonus_damage)
    if state.phase != "over":
        victims = state.opponents(seat) if state.variant == "4p" else [victim]
        queue_effect(state, seat, f"formation:{faction_id}", victims)
    return events


# --------------------------------------------------------------------------- resolution loop


def run(state: State, rng: random.Random) -> Events:
    """Resolve queued steps until a decision is needed or nothing is left to resolve.

    An Alpha player eliminated mid-turn (3 players) ends their turn at once, and
    so does one who can do nothing but end it ("once the Alpha player has
    completed all of the Actions he is able to... his turn ends").
    """
    events: Events = []
    while True:
        alpha = state.alpha
        if (
            alpha is not None
            and state.phase in ("recharge", "action")
            and state.players[alpha].eliminated
        ):
            state.players[alpha].ap = 0  # an eliminated player's turn ends at once
            events += advance_turn(state)
            continue
        if state.phase == "over" or state.frames:
            return events
        if state.queue:
            step = state.queue.pop(0)
            events += STEPS[step.kind](state, step, rng)
        elif alpha is not None and _nothing_left_to_do(state, alpha):
            events += end_turn(state, alpha, forced=True)
        else:
            return events


def _nothing_left_to_do(state: State, seat: int) -> bool:
    if state.phase != "action":
        return False
    return [a.kind for a in legal_actions(state, seat)] == ["end"]


def _action_step(state: State, step: Step, rng: random.Random) -> Events:
    state.phase = "action"
    return []


STEPS: dict[str, Callable[[State, Step, random.Random], Events]] = {
    "first_recharge": lambda s, st, r: first_recharge(s, st.actor),
    "recharge_draw": lambda s, st, r: recharge_draw(s, st.actor),
    "recharge_pick": lambda s, st, r: _open_recharge_pick(s, st),
    "recharge_troops": lambda s, st, r: recharge_troops(s, st.actor),
    "action_step": _action_step,
    "op": run_op,
    "keep_or_remove": lambda s, st, r: keep_or_remove(s, st.actor, st.card or 0),
}


def _open_recharge_pick(state: State, step: Step) -> Events:
    state.frames.append(
        Frame(
            kind="recharge",
            deciders=[step.actor],
            remaining={"n": step.amount},
            prompt="draw a card or gain an AP for each Command Zone Troop",
        )
    )
    return []


# ------------------------------------------------------------------ candidates and dispatch


def candidates(state: State, seat: int) -> Iterator[Action]:
    """A superset of the legal actions; `legal_actions` keeps those whose check passes."""
    frame = top_frame(state)
    player = state.players[seat]
    if frame is not None:
        yield from _frame_candidates(state, seat, frame)
        return
    if state.phase != "action":
        return
    hand_ids = sorted({state.cards[c] for c in player.hand})
    for troop_id in hand_ids:
        for zone in ("command", "war"):
            yield Action(kind="play", args=(troop_id, zone))
    cz = sorted({state.cards[t.card] for t in player.command_zone if not t.drained})
    for troop_id in cz:
        yield Action(kind="ability", args=(troop_id,))
    ready = [state.cards[t.card] for t in player.command_zone if not t.drained]
    for pair in sorted({tuple(sorted(p)) for p in combinations(ready, 2)}):
        yield Action(kind="faction_ability", args=pair)
    targets = [str(t) for t in attack_targets(state, seat)] if state.variant == "3p" else [None]
    wz = sorted({state.cards[t.card] for t in player.war_zone if not t.drained})
    for troop_id in wz:
        for boost_with in [NO_BOOST, *boost_options(state, seat, troop_id)]:
            for target in targets:
                extra = (target,) if target else ()
                yield Action(kind="attack", args=(troop_id, boost_with, *extra))
    if player.command_card is not None:
        for group in formation_options(state, seat, player.command_card):
            for target in targets:
                yield Action(
                    kind="formation", args=(",".join(group),) + ((target,) if target else ())
                )
    yield Action(kind="end")


def _frame_candidates(state: State, seat: int, frame: Frame) -> Iterator[Action]:
    player = state.players[seat]
    match frame.kind:
        case "faction":
            for faction in pack_of(state).factions:
                if faction.id not in taken_factions(state):
                    yield Action(kind="faction", args=(faction.id,))
        case "command_card":
            for faction_id in command_card_options(state, seat):
                yield Action(kind="command_card", args=(faction_id,))
        case "recharge":
            yield Action(kind="recharge", args=("draw",))
            yield Action(kind="recharge", args=("ap",))
        case "ready":
            for troop_id in sorted({state.cards[t.card] for t in player.war_zone if t.drained}):
                yield Action(kind="ready", args=(troop_id,))
        case "keep":
            assert frame.step is not None and frame.step.card is not None
            if hand_card(state, seat, state.cards[frame.step.card]) is not None:
                yield Action(kind="keep", args=("yes",))
            yield Action(kind="keep", args=("no",))
        case "target":
            assert frame.step is not None
            for key in troop_targets(state, frame.step):
                yield Action(kind="target", args=tuple(key.split("|")))
        case "opponent":
            assert frame.step is not None
            for victim in frame.step.victims:
                yield Action(kind="opponent", args=(str(victim),))
        case "discard":
            for troop_id in sorted({state.cards[c] for c in player.hand}):
                yield Action(kind="discard", args=(troop_id,))
        case "deploy":
            assert frame.step is not None
            for troop_id in deploy_options(state, frame.step):
                yield Action(kind="deploy", args=(troop_id,))
            yield Action(kind="deploy", args=(NO_DEPLOY,))
        case "search":
            assert frame.step is not None
            for troop_id in search_options(state, frame.step):
                yield Action(kind="search", args=(troop_id,))
        case "revenge":
            for target in state.opponents(seat):
                yield Action(kind="revenge", args=(str(target),))


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    return passing(candidates(state, seat), lambda action: check(state, seat, action))


def check(state: State, seat: int, action: Action) -> None:
    """Raise IllegalAction unless `seat` may take `action` now."""
    _require_turn(state, seat)
    a = action.args
    frame = top_frame(state)
    match action.kind, len(a):
        case "play", 2:
            check_play(state, seat, a[0], a[1])
        case "ability", 1:
            check_command_ability(state, seat, a[0])
        case "faction_ability", 2:
            check_faction_ability(state, seat, a[0], a[1])
        case "attack", 2 | 3:
            check_attack(state, seat, a[0], a[1], a[2] if len(a) > 2 else None)
        case "formation", 1 | 2:
            check_formation(state, seat, tuple(a[0].split(",")), a[1] if len(a) > 1 else None)
        case "end", 0:
            _require_action_step(state)
        case _ if frame is None:
            raise IllegalAction("not-now", "That choice isn't open right now.")
        case _:
            _check_choice(state, seat, action, frame)


def _check_choice(state: State, seat: int, action: Action, frame: Frame) -> None:
    if (
        action.kind == frame.kind == "faction"
        and action.args[:1]
        and (action.args[0] in taken_factions(state))
    ):
        raise IllegalAction("faction-taken", "That faction has already been chosen.")
    if action.kind != frame.kind or action not in set(_frame_candidates(state, seat, frame)):
        raise IllegalAction("not-an-option", "That isn't one of the choices open to you now.")


def apply_action(state: State, seat: int, action: Action, rng: random.Random) -> Events:
    """Perform a checked action on `state` (mutated in place), then resolve what follows."""
    check(state, seat, action)
    a = action.args
    frame = top_frame(state)
    events: Events
    match action.kind:
        case "play":
            events = put_into_play(state, seat, a[0], a[1], cost=1)
        case "ability":
            events = use_command_ability(state, seat, a[0])
        case "faction_ability":
            events = use_faction_ability(state, seat, a[0], a[1])
        case "attack":
            events = non_formation_attack(state, seat, a[0], a[1], a[2] if len(a) > 2 else None)
        case "formation":
            events = formation_attack(
                state, seat, tuple(a[0].split(",")), a[1] if len(a) > 1 else None
            )
        case "end":
            events = end_turn(state, seat)
        case "faction":
            events = choose_faction(state, seat, a[0], rng)
        case "command_card":
            events = choose_command_card(state, seat, a[0])
        case "recharge":
            events = recharge_choice(state, seat, a[0])
        case "ready":
            events = recharge_war_troop(state, seat, a[0])
        case "keep":
            events = decide_keep(state, seat, a[0] == "yes")
        case "discard":
            events = discard_chosen(state, seat, a[0])
        case "revenge":
            events = take_revenge(state, seat, int(a[0]))
        case _:
            events = _resolve_step_choice(state, seat, action, frame, rng)
    return events + run(state, rng)


def _resolve_step_choice(
    state: State, seat: int, action: Action, frame: Frame | None, rng: random.Random
) -> Events:
    assert frame is not None and frame.step is not None
    state.frames.pop()
    step = frame.step
    a = action.args
    match action.kind:
        case "target":
            found = troop_targets(state, step)["|".join(a)]
            return apply_troop_op(state, step, *found)
        case "opponent":
            state.queue.insert(0, step.model_copy(update={"victims": [int(a[0])]}))
            label = source_label(state, step.source)
            return [
                _ev(
                    "opponent",
                    f"{_name(state, seat)} aims {label} at {_name(state, int(a[0]))}.",
                    seat,
                )
            ]
        case "deploy":
            return deploy(state, seat, a[0])
        case "search":
            return take_from_deck(state, seat, a[0], rng)
    raise AssertionError(action)


# Options a timed-out decision takes, most preferred first: decline what is optional.
TIMEOUT_PREFERENCES = ("end", "keep|no", "deploy|none", "recharge|ap")


def timeout_action(state: State, seat: int) -> Action:
    """What happens for a seat whose clock ran out: the turn ends, an optional choice is
    declined, and a choice that must be made takes the first option offered."""
    legal = legal_actions(state, seat)
    if not legal:
        raise IllegalAction("not-your-turn", "The game is not waiting for this seat.")
    by_key = {a.key: a for a in legal}
    for key in TIMEOUT_PREFERENCES:
        if key in by_key:
            return by_key[key]
    return legal[0]


# --------------------------------------------------------------------------- labels


def describe(state: State, action: Action) -> str:
    """The human label of an action, as shown in menus."""
    a = action.args
    match action.kind:
        case "faction":
            return f"Choose the {pack_of(state).faction(a[0]).name}"
        case "command_card":
            return f"Set the {pack_of(state).faction(a[0]).name} Faction Command card"
        case "recharge":
            return "Recharge: draw a card" if a[0] == "draw" else "Recharge: gain an Action Point"
        case "ready":
            return f"Recharge {troop_def(state, a[0]).name} in your War Zone"
        case "play":
            d = troop_def(state, a[0])
            return f"Play {d.name} ({d.type} {d.strength}) into your {ZONE_NAMES[a[1]]} (1 AP)"
        case "ability":
            return f"Use {troop_def(state, a[0]).name}'s Command Ability"
        case "faction_ability":
            names = " + ".join(troop_def(state, t).name for t in a)
            return f"Faction Ability: drain {names}"
        case "attack":
            d = troop_def(state, a[0])
            at = f" at {_name(state, int(a[2]))}" if len(a) > 2 else ""
            if a[1] == NO_BOOST:
                return f"Attack{at} with {d.name} ({d.strength} damage, 1 AP)"
            boost = troop_def(state, a[1]).name
            return f"Attack{at} with {d.name}, Boosted by {boost} ({d.strength + 1} damage, 1 AP)"
        case "formation":
            troops = [troop_def(state, t) for t in a[0].split(",")]
            at = f" at {_name(state, int(a[1]))}" if len(a) > 1 else ""
            return f"Formation Attack{at}: {' + '.join(t.name for t in troops)} (1 AP)"
        case "end":
            return "End your turn"
        case "keep":
            return (
                "Discard a copy from hand to keep it" if a[0] == "yes" else "Let it leave the game"
            )
        case "target":
            owner, zone, troop_id, drained = a
            state_word = "drained " if drained == "1" else ""
            return (
                f"Target {_name(state, int(owner))}'s {state_word}{troop_def(state, troop_id).name}"
                f" ({ZONE_NAMES[zone]})"
            )
        case "opponent":
            return f"Choose {_name(state, int(a[0]))}"
        case "discard":
            return f"Discard {troop_def(state, a[0]).name}"
        case "deploy":
            if a[0] == NO_DEPLOY:
                return "Deploy nothing"
            return f"Deploy {troop_def(state, a[0]).name} into your War Zone"
        case "search":
            return f"Take {troop_def(state, a[0]).name} from your deck"
        case "revenge":
            return f"Take revenge on {_name(state, int(a[0]))}"
    return action.key
