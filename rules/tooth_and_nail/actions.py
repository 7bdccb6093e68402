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
from rules.tooth_and_nail.cards import TroopTarget
from rules.tooth_and_nail.effects import (
    NO_DEPLOY,
    OWN_TARGETS,
    apply_troop_op,
    deploy,
    deploy_options,
    discard_chosen,
    queue_effect,
    run_op,
    search_options,
    source_label,
    source_ops,
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
from rules.tooth_and_nail.text import short_troop, troops_listed

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
        waiting = " or ".join(_name(state, s) for s in sorted(to_act(state))) or "nobody"
        raise IllegalAction(
            "not-your-turn", f"It isn't your decision: the game waits for {waiting}."
        )


def _require_frame(state: State, kind: str) -> Frame:
    frame = top_frame(state)
    if frame is None or frame.kind != kind:
        raise IllegalAction("not-now", "That choice isn't open right now.")
    return frame


def open_choice(frame: Frame) -> str:
    """The decision a frame waits for, said to its decider ("choose a Faction")."""
    return frame.prompt.replace("their ", "your ")


RECHARGE_FRAMES = ("recharge", "ready")  # the Recharge Step's decisions


def _require_end(state: State) -> None:
    """A turn ends in the Action Step, or at once from the Recharge Step's decisions (the
    way to pass: see `end_turn_now`)."""
    frame = top_frame(state)
    if frame is not None and frame.kind in RECHARGE_FRAMES and state.phase == "recharge":
        return
    _require_action_step(state)


def recharge_default(state: State, seat: int) -> str | None:
    """The War Zone Troop a turn ended from the Recharge Step recharges: the strongest
    kind drained there (by name among equals); None when none is drained."""
    drained = {state.cards[t.card] for t in state.players[seat].war_zone if t.drained}
    if not drained:
        return None
    return max(sorted(drained), key=lambda t: troop_def(state, t).strength)


def end_turn_now(state: State, seat: int, rng: random.Random) -> Events:
    """End the turn from the Recharge Step: each Command Zone Troop still to count gains
    1 AP (drawing nothing; unused AP go back as the turn ends), the War Zone Troop the
    player would be asked for is `recharge_default`'s, and the Action Step passes at
    once: the decisions a player in a hurry would take, as one."""
    events: Events = []
    while state.phase == "recharge" and state.alpha == seat:
        frame = top_frame(state)
        if frame is not None and frame.kind == "recharge":
            events += recharge_choice(state, seat, "ap")
        elif frame is not None and frame.kind == "ready":
            chosen = recharge_default(state, seat)
            assert chosen is not None
            events += recharge_war_troop(state, seat, chosen)
        elif frame is not None:
            return events  # an effect asks something first: the turn goes on from there
        events += run(state, rng)
    if state.phase == "action" and state.alpha == seat and top_frame(state) is None:
        events += end_turn(state, seat)
    return events


def _require_action_step(state: State) -> None:
    frame = top_frame(state)
    if frame is not None:
        raise IllegalAction("not-now", f"Not now: first {open_choice(frame)}.")
    if state.phase != "action":
        raise IllegalAction("not-now", "That can only be done in your Action Step.")


def _spend_ap(state: State, seat: int, doing: str) -> None:
    """`doing` costs 1 Action Point ("Playing Cinder Cub", "An attack")."""
    player = state.players[seat]
    if player.ap < 1:
        raise IllegalAction("no-ap", f"{doing} costs 1 AP and you have none left this turn.")


def article(word: str) -> str:
    """A word with its indefinite article: an Arcane, a Tech."""
    return f"{'an' if word[:1] in 'AEIOU' else 'a'} {word}"


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
    name = troop_def(state, _troop_id(state, troop_id)).name
    if hand_card(state, seat, troop_id) is None:
        raise IllegalAction("not-in-hand", f"{name} isn't in your hand.")
    _check_room(state, seat, zone)
    _spend_ap(state, seat, f"Playing {name}")


def _check_room(state: State, seat: int, zone: str) -> None:
    limit = state.limits[zone]
    if len(_zone(state.players[seat], zone)) >= limit:
        raise IllegalAction("zone-full", f"Your {ZONE_NAMES[zone]} holds at most {limit} Troops.")


def check_command_ability(state: State, seat: int, troop_id: str) -> int:
    """A Command Ability is used from a non-drained Troop in the Command Zone, for 0 AP;
    a War Zone Troop's Command Ability is ignored."""
    _require_action_step(state)
    name = troop_def(state, _troop_id(state, troop_id)).name
    player = state.players[seat]
    i = _find(player.command_zone, state, troop_id, drained=False)
    if i >= 0:
        return i
    if _find(player.command_zone, state, troop_id) >= 0:
        raise IllegalAction("drained", f"{name} is drained: it recharges in your Recharge Step.")
    if _find(player.war_zone, state, troop_id) >= 0:
        raise IllegalAction(
            "no-troop",
            f"{name} is in your War Zone, where its Command Ability is ignored: only Troops "
            "in your Command Zone use theirs.",
        )
    raise IllegalAction("no-troop", f"{name} is not in your Command Zone.")


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
    return _remove_used_troop(state, seat, i, why=" (no card in hand to keep it with)")


def _remove_used_troop(state: State, seat: int, index: int, why: str = "") -> Events:
    troop = state.players[seat].command_zone.pop(index)
    remove_from_game(state, seat, troop.card)
    name = card_name(state, troop.card)
    return [_ev("removed", f"{_name(state, seat)}'s {name} is removed from the game{why}.", seat)]


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
    zone = state.players[seat].command_zone
    ready = Counter(state.cards[t.card] for t in zone if not t.drained)
    there = Counter(state.cards[t.card] for t in zone)
    for troop_id, wanted in Counter([first, second]).items():
        name = troop_def(state, _troop_id(state, troop_id)).name
        if ready[troop_id] >= wanted:
            continue
        rule = "a Faction Ability drains 2 non-drained Troops in your Command Zone"
        if there[troop_id] > ready[troop_id]:
            raise IllegalAction("drain-two", f"{name} is drained: {rule}.")
        if ready[troop_id]:
            raise IllegalAction("drain-two", f"You have only one {name} ready to drain: {rule}.")
        raise IllegalAction("drain-two", f"{name} is not in your Command Zone: {rule}.")


def use_faction_ability(state: State, seat: int, first: str, second: str) -> Events:
    check_faction_ability(state, seat, first, second)
    zone = state.players[seat].command_zone
    for troop_id in (first, second):
        zone[_find(zone, state, troop_id, drained=False)].drained = True
    faction = state.players[seat].command_card
    assert faction is not None
    queue_effect(state, seat, f"ability:{faction}", state.opponents(seat))
    drained = troops_listed([troop_def(state, first).name, troop_def(state, second).name])
    used = source_label(state, "ability:" + faction)
    return [_ev("faction", f"{_name(state, seat)} drains {drained} to use {used}.", seat)]


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
    if target in by_name:
        return by_name[target]
    if target == str(seat):
        raise IllegalAction("target", "You can't attack your own deck.")
    seats = {str(p.seat): p for p in state.players}
    if target in seats:
        raise IllegalAction(
            "target", f"{seats[target].name} is out of the game: attack an opponent still in it."
        )
    raise IllegalAction("target", "Choose an opponent who is still in the game to attack.")


def check_attack(
    state: State, seat: int, troop_id: str, boost_with: str, target: str | None
) -> int:
    """A Non-formation Attack costs 1 AP and uses one non-drained War Zone Troop; it may be
    Boosted once with a card in hand of the attacking Troop's Troop Type."""
    _require_action_step(state)
    attacker = troop_def(state, _troop_id(state, troop_id))
    player = state.players[seat]
    i = _find(player.war_zone, state, troop_id, drained=False)
    if i < 0:
        if _find(player.war_zone, state, troop_id) >= 0:
            raise IllegalAction(
                "drained",
                f"{attacker.name} is drained: it can't attack until it is recharged (your "
                "Recharge Step recharges one War Zone Troop).",
            )
        raise IllegalAction(
            "no-troop",
            f"{attacker.name} is not in your War Zone{_where(state, seat, troop_id)}: only "
            "War Zone Troops attack.",
        )
    _spend_ap(state, seat, "An attack")
    if boost_with != NO_BOOST:
        boost = troop_def(state, _troop_id(state, boost_with))
        if hand_card(state, seat, boost_with) is None:
            raise IllegalAction("boost", f"{boost.name} isn't in your hand to Boost with.")
        if boost.type != attacker.type:
            raise IllegalAction(
                "boost",
                f"{boost.name} is {article(boost.type)} card: only {article(attacker.type)} card "
                f"from your hand can Boost {attacker.name}'s attack.",
            )
    _target(state, seat, target)
    return i


def _where(state: State, seat: int, troop_id: str) -> str:
    """Where a Troop of the player's that isn't in their War Zone is, said after its
    name: " (it is in your Command Zone)", " (it is in your hand)", or nothing."""
    player = state.players[seat]
    if _find(player.command_zone, state, troop_id) >= 0:
        return " (it is in your Command Zone)"
    if hand_card(state, seat, troop_id) is not None:
        return " (it is in your hand)"
    return ""


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
        text = f"{player.name} boosts the attack, removing {card_name(state, card)} from the game."
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
    _named_once(troops)
    formation = pack_of(state).faction(faction).formation
    zone = state.players[seat].war_zone
    ready = Counter(state.cards[t.card] for t in zone if not t.drained)
    there = Counter(state.cards[t.card] for t in zone)
    for troop_id, wanted in Counter(troops).items():
        name = troop_def(state, _troop_id(state, troop_id)).name
        if ready[troop_id] >= wanted:
            continue
        if there[troop_id] > ready[troop_id]:
            raise IllegalAction(
                "formation", f"{name} is drained: {formation.name} needs non-drained Troops."
            )
        raise IllegalAction(
            "formation",
            f"{name} is not in your War Zone{_where(state, seat, troop_id)}: only War Zone "
            "Troops attack.",
        )
    if troops not in formation_options(state, seat, faction):
        needs = " + ".join(formation.requires)
        raise IllegalAction(
            "formation", f"{formation.name} needs War Zone Troops of these Troop Types: {needs}."
        )
    _spend_ap(state, seat, "A Formation Attack")
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
            f"with {troops_listed([troop_def(state, t).name for t in troops])}.",
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


def offers(state: State, seat: int) -> Iterator[Action]:
    """A close superset of the legal actions, built from what the seat holds and has in
    play; `legal_actions` keeps those whose check passes."""
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
            yield Action(kind="end")
        case "ready":
            for troop_id in sorted({state.cards[t.card] for t in player.war_zone if t.drained}):
                yield Action(kind="ready", args=(troop_id,))
            yield Action(kind="end")
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
    """Exactly the actions `apply_action` accepts from `seat` now."""
    if seat not in to_act(state):
        return []
    return passing(offers(state, seat), lambda action: check(state, seat, action))


def candidates(state: State, seat: int) -> list[Action]:
    """Everything `seat` might try now, legal or not: the offers first, then every action
    a player could name from the table and their hand (a drained attacker, an attacker
    still in the hand, a Troop not in the Command Zone, a full zone, someone else's
    decision...), so that each can be refused with the rule it breaks."""
    found = dict.fromkeys(offers(state, seat))
    found.update(dict.fromkeys(_tries(state, seat)))
    return list(found)


def _tries(state: State, seat: int) -> Iterator[Action]:
    if state.phase == "over":
        return
    player = state.players[seat]
    if state.phase == "faction_choice":
        for faction in pack_of(state).factions:
            yield Action(kind="faction", args=(faction.id,))
        return
    if state.phase == "command_choice":
        for faction_id in player.factions:
            yield Action(kind="command_card", args=(faction_id,))
        return
    frame = top_frame(state)
    if frame is not None:
        yield from _frame_tries(state, seat, frame)
    yield from _action_step_tries(state, seat)


def _action_step_tries(state: State, seat: int) -> Iterator[Action]:
    """The Action Step's actions with every Troop the player owns or holds."""
    player = state.players[seat]
    pack = pack_of(state)
    hand = sorted({state.cards[c] for c in player.hand})
    command = sorted({state.cards[t.card] for t in player.command_zone})
    war = sorted({state.cards[t.card] for t in player.war_zone})
    owned = sorted(
        {t.id for f in player.factions for t in pack.faction(f).troops} | set(hand) | set(command)
    )
    for troop_id in owned:
        yield Action(kind="play", args=(troop_id, "command"))
        yield Action(kind="play", args=(troop_id, "war"))
        yield Action(kind="ability", args=(troop_id,))
    for i, first in enumerate(command):
        for second in command[i:]:
            yield Action(kind="faction_ability", args=(first, second))
    if state.variant == "3p":
        targets: list[tuple[str, ...]] = [(str(p.seat),) for p in state.players if p.seat != seat]
    else:
        targets = [()]
    for troop_id in sorted(set(owned) | set(war)):  # in play or not: only War Zone ones attack
        boosts = owned if troop_id in war else hand  # elsewhere, its zone is refused first
        for boost_with in [NO_BOOST, *boosts]:
            for target in targets:
                yield Action(kind="attack", args=(troop_id, boost_with, *target))
    if player.command_card is not None:
        size = len(pack.faction(player.command_card).formation.requires)
        counts = Counter(state.cards[t.card] for t in player.war_zone + player.command_zone)
        pool = [tid for tid in sorted(counts) for _ in range(min(counts[tid], size))]
        for group in sorted(set(combinations(pool, size))):
            for target in targets:
                yield Action(kind="formation", args=(",".join(group), *target))
    yield Action(kind="end")
    if state.phase == "revenge":
        for p in state.players:
            if p.seat != seat:
                yield Action(kind="revenge", args=(str(p.seat),))


def _frame_tries(state: State, seat: int, frame: Frame) -> Iterator[Action]:
    """The answers to the open decision a player might name beyond the ones on offer."""
    player = state.players[seat]
    hand = sorted({state.cards[c] for c in player.hand})
    match frame.kind:
        case "recharge":
            yield Action(kind="recharge", args=("draw",))
            yield Action(kind="recharge", args=("ap",))
        case "ready":
            for troop_id in sorted({state.cards[t.card] for t in player.war_zone}):
                yield Action(kind="ready", args=(troop_id,))
        case "keep":
            yield Action(kind="keep", args=("yes",))
            yield Action(kind="keep", args=("no",))
        case "target" if frame.step is not None:
            for owner in sorted({frame.step.actor, *frame.step.victims}):
                for zone in ("command", "war"):
                    for troop in _zone(state.players[owner], zone):
                        tid, drained = state.cards[troop.card], str(int(troop.drained))
                        yield Action(kind="target", args=(str(owner), zone, tid, drained))
        case "opponent":
            for victim in state.opponents(seat):
                yield Action(kind="opponent", args=(str(victim),))
        case "discard" | "deploy":
            for troop_id in hand:
                yield Action(kind=frame.kind, args=(troop_id,))


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
            _require_end(state)
        case _ if frame is None:
            raise IllegalAction("not-now", "That choice isn't open right now.")
        case _:
            _check_choice(state, seat, action, frame)


def _check_choice(state: State, seat: int, action: Action, frame: Frame) -> None:
    if action.kind != frame.kind:
        raise IllegalAction("not-an-option", f"That isn't open now: first {open_choice(frame)}.")
    if action in set(_frame_candidates(state, seat, frame)):
        return
    why = _why_not(state, seat, action, frame)
    if why is not None:
        raise why
    raise IllegalAction("not-an-option", "That isn't one of the choices open to you now.")


def _why_not(state: State, seat: int, action: Action, frame: Frame) -> IllegalAction | None:
    """The rule an answer to the open decision breaks, naming the card, when one is known."""
    a = action.args
    player = state.players[seat]
    named = troop_def(state, a[0]).name if a and has_troop_id(state, a[0]) else None
    match frame.kind:
        case "faction" if len(a) == 1:
            faction = next((f for f in pack_of(state).factions if f.id == a[0]), None)
            if faction is not None and faction.id in taken_factions(state):
                return IllegalAction(
                    "faction-taken", f"The {faction.name} faction is already taken."
                )
        case "command_card" if len(a) == 1:
            faction = next((f for f in pack_of(state).factions if f.id == a[0]), None)
            if faction is not None and faction.id not in player.factions:
                return IllegalAction(
                    "command-card", f"The {faction.name} is not one of your Factions."
                )
            mates = [
                state.players[s].name
                for s in state.team_of(seat).seats
                if s != seat and state.players[s].command_card == a[0]
            ]
            if faction is not None and mates:
                return IllegalAction(
                    "command-card",
                    f"{mates[0]} already uses the {faction.name} Faction Command card.",
                )
        case "keep" if a == ("yes",) and frame.step is not None and frame.step.card is not None:
            name = card_name(state, frame.step.card)
            return IllegalAction(
                "no-copy", f"You hold no other {name} to discard, so it leaves the game."
            )
        case "ready" if named is not None:
            if _find(player.war_zone, state, a[0]) >= 0:
                return IllegalAction("not-drained", f"{named} isn't drained.")
            return IllegalAction("not-drained", f"{named} isn't in your War Zone.")
        case "discard" | "deploy" if named is not None:
            if hand_card(state, seat, a[0]) is None:
                return IllegalAction("not-in-hand", f"{named} isn't in your hand.")
            if frame.kind == "deploy" and len(player.war_zone) >= state.limits["war"]:
                limit = state.limits["war"]
                return IllegalAction("zone-full", f"Your War Zone holds at most {limit} Troops.")
            if frame.kind == "deploy" and frame.step is not None:
                label = source_label(state, frame.step.source)
                kind = troop_def(state, a[0]).type
                return IllegalAction(
                    "not-an-option", f"{label} can't deploy {named}, {article(kind)} Troop."
                )
        case "target" if len(a) == 4 and has_troop_id(state, a[2]) and frame.step is not None:
            label = source_label(state, frame.step.source)
            op = source_ops(state, frame.step.source)[frame.step.index]
            assert isinstance(op, TroopTarget)
            wanted = short_troop(op, own=isinstance(op, OWN_TARGETS))
            return IllegalAction(
                "not-an-option",
                f"{label} can't pick {troop_def(state, a[2]).name}: it picks {wanted}.",
            )
    return None


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
        case "end" if frame is not None and frame.kind in RECHARGE_FRAMES:
            events = end_turn_now(state, seat, rng)
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
    events += run(state, rng)
    searching = top_frame(state)
    if searching is not None and searching.kind == "search" and searching != frame and events:
        # The search's choices show its player what their deck holds.
        events[0] = events[0].model_copy(update={"reveals": True})
    return events


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
