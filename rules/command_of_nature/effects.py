"""Card effects: daybreak and triggered effects of Elementals, Commands, Instants,
Rituals and faction actions, resolved from the card data (see `cards.py`).

Resolution is a queue of steps (`State.queue`, front first). An `ops` step runs its
op list one op at a time for its acting seat, with a context: the Elemental whose
effect it is (self), the attacker and defender of the attack under way, and the
trigger's subject. When an op needs a player's choice among several options, a
`choose` frame is pushed and resolution pauses; the next action answers it and
`resume` carries on. An op makes all its choices before it changes anything, so it
can simply run again with the choices made so far. Effects resolve as far as they
can: a target that is missing skips what needs it; a cost that can't be paid (cards
from hand, tokens to remove) ends the effect.

Triggered effects fire from Elementals standing in one of their required rows and
watch their own formation; the steps they queue resolve before whatever caused them
carries on.

Playing an Instant, a Command, a Daybreak effect or a faction action is `plays.py`'s
(it checks, pays and queues); an attack's own steps are `attacks.py`'s.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from rules.command_of_nature.attacks import (
    attack_hit,
    end_attack,
    finish_command,
    open_response_window,
    start_attack,
)
from rules.command_of_nature.cards import (
    AddTokens,
    AttackBonus,
    ChooseOne,
    ClearDamage,
    CommandCard,
    Condition,
    Damage,
    Draw,
    ElementalCard,
    GainGold,
    KeepBoosts,
    MoveCards,
    MoveElemental,
    Op,
    PlayFromDiscard,
    RedistributeShields,
    ReduceDamage,
    RemoveTokens,
    Scaled,
    Swap,
    TakeDamageInstead,
    Target,
)
from rules.command_of_nature.combat import (
    take_hit,
    target_choices,
)
from rules.command_of_nature.formation import (
    ROW_NAMES,
    Elemental,
    connected,
    summon_spaces,
)
from rules.command_of_nature.setup import Events, _ev, card_of, draw, pack_of
from rules.command_of_nature.state import Frame, State, Step
from rules.command_of_nature.table import (
    defeat,
    elemental_at,
    elemental_def,
    entered,
    fire,
    in_required_row,
    is_sage,
    locate,
    ops_step,
    own_sage,
    shields_text,
    shift_forward,
    swap_cards,
)
from rules.core import IllegalAction

STOP = "stop"
NO = "no"
PILES = {"hand": "hand", "discard": "discard pile", "deck_top": "deck", "formation": "formation"}
DESTINATIONS = {
    "hand": "to put into your hand",
    "discard": "to discard",
    "deck_top": "to put on top of your deck",
    "formation": "to bring into your formation",
}


class _Pause(Exception):
    """An op waits for a decision (a `choose` frame is on the stack)."""


# --------------------------------------------------------------------------- where things are


def ops_at(state: State, ref: str) -> tuple[Op, ...]:
    """The op list a step runs: "card:<id>:effect|after|fx<i>" or
    "faction:<sage id>:<level>", then "/<op>/<option>" per choose_one taken."""
    head, *path = ref.split("/")
    kind, key, part = head.split(":")
    pack = pack_of(state)
    if kind == "faction":
        sage = pack.card(key).name
        ops = next(a.ops for a in pack.faction_actions if a.sage == sage and a.level == int(part))
    else:
        card = pack.card(key)
        if isinstance(card, CommandCard):
            ops = card.effect if part == "effect" else card.after
        else:
            ops = card.effects[int(part[2:])].ops
    for i in range(0, len(path), 2):
        op = ops[int(path[i])]
        assert isinstance(op, ChooseOne)
        ops = op.options[int(path[i + 1])]
    return ops


def _name(state: State, card: int) -> str:
    return card_of(state, card).name


# --------------------------------------------------------------------------- decisions


def _decide(
    state: State,
    step: Step,
    asked: list[int],
    options: list[str],
    prompt: str,
    decider: int | None = None,
    *,
    about: str,
    auto: bool = True,
) -> str | None:
    """The answer to the next decision of this op: made already, the only option, or
    asked now (which pauses). None when there is no option at all."""
    k = asked[0]
    asked[0] += 1
    if k < len(step.choices):
        return step.choices[k]
    if not options:
        return None
    if len(options) == 1 and auto:
        step.choices.append(options[0])
        return options[0]
    state.frames.append(
        Frame(
            kind="choose",
            deciders=[step.actor if decider is None else decider],
            prompt=prompt,
            options=options,
            about=about,
        )
    )
    raise _Pause


def choose(state: State, seat: int, option: str, rng: random.Random) -> Events:
    """Answer the decision on top of the stack, then resolution carries on."""
    frame = state.frames[-1] if state.frames else None
    if frame is None or frame.kind != "choose" or seat not in frame.deciders:
        raise IllegalAction("not-now", "There is nothing for you to choose.")
    if option not in frame.options:
        raise IllegalAction("not-an-option", "That isn't one of the choices.")
    state.frames.pop()
    state.queue[0].choices.append(option)
    events = [_ev("choose", f"{state.players[seat].name} decides ({frame.prompt}).", seat)]
    return events + resume(state, rng)


# --------------------------------------------------------------------------- the queue


def resume(state: State, rng: random.Random) -> Events:
    """Resolve queued steps until a decision is needed or nothing is left."""
    events: Events = []
    while state.queue and not state.frames and state.phase != "over":
        try:
            events += run_step(state, state.queue[0], rng)
        except _Pause:
            break
    return events


def run_step(state: State, step: Step, rng: random.Random) -> Events:
    match step.kind:
        case "ops":
            return _run_ops_step(state, step, rng)
        case "respond":
            state.queue.pop(0)
            return open_response_window(state)
        case "hit":
            state.queue.pop(0)
            return attack_hit(state, step.index)
        case "damage":
            return damage_step(state, step)
        case "defeat_check":
            state.queue.pop(0)
            return _defeat_if_due(state, step.card, step.actor, attack=step.attack)
        case "played":
            state.queue.pop(0)
            return finish_command(state, step.card)
        case "end_attack":
            state.queue.pop(0)
            return end_attack(state)
    raise AssertionError(step.kind)


def _run_ops_step(state: State, step: Step, rng: random.Random) -> Events:
    ops = ops_at(state, step.ops)
    if step.index >= len(ops):
        state.queue.pop(0)
        return []
    asked = [0]
    if step.index == 0 and step.optional:
        label = _name(state, step.source) if step.source is not None else "an effect"
        question = f"use {label}'s effect?"
        if (
            _decide(state, step, asked, ["use", "skip"], question, about="use", auto=False)
            == "skip"
        ):
            state.queue.pop(0)
            return []
    op = ops[step.index]
    if isinstance(op, GainGold):
        return _gain_gold(state, step, ops)
    if op.when is not None and not condition_holds(state, step, op.when):
        events: Events = []
    else:
        events = run_op(state, step, op, asked, rng)
    step.index += 1
    step.choices = []
    return events


def _gain_gold(state: State, step: Step, ops: tuple[Op, ...]) -> Events:
    """The gold ops of an effect that follow one another from `step.index` on, gained
    as one (Geo Weasel's 1 gold, and 1 more for a Pebble): one line tells the total."""
    amount, gains = 0, False
    while step.index < len(ops) and isinstance(op := ops[step.index], GainGold):
        if op.when is None or condition_holds(state, step, op.when):
            amount += amount_of(state, step, op.amount)
            gains = True
        step.index += 1
    step.choices = []
    if not gains:
        return []
    side = state.side_of(step.actor)
    gained = min(amount, state.limits["gold"] - side.gold)
    side.gold += gained
    name = state.players[step.actor].name
    return [_ev("gold", f"{name}'s side gains {gained} gold.", step.actor)]


def condition_holds(state: State, step: Step, when: Condition) -> bool:
    me = elemental_at(state, step.source)
    match when.test:
        case "self_has_boosts":
            return me is not None and me.boosts > 0
        case "self_has_shields":
            return me is not None and me.shields > 0
        case "subject_faction":
            return step.subject is not None and card_of(state, step.subject).faction == when.faction
        case "attacker_basic":
            return step.attacker is not None and elemental_def(state, step.attacker).kind == "basic"
        case "defender_defeated":
            return state.attack is not None and state.attack.defeated
    raise AssertionError(when.test)


# --------------------------------------------------------------------------- amounts and targets


def amount_of(state: State, step: Step, amount: int | Scaled, target: int | None = None) -> int:
    if isinstance(amount, int):
        return amount
    me = elemental_at(state, step.source)
    match amount.per:
        case "previous":
            per = step.previous
        case "self_str":
            per = elemental_def(state, step.source).strength if step.source is not None else 0
        case "self_damage":
            per = me.damage if me else 0
        case "self_shields":
            per = me.shields if me else 0
        case "own_sage_row":
            found = locate(state, own_sage(state, step.actor))
            per = found[1][0] + 1 if found else 0
        case "connected":
            per = connected_of_faction(state, target, amount.faction or "")
    return max(0, per * amount.times + amount.plus)


def connected_of_faction(state: State, card: int | None, faction: str) -> int:
    """Own Elementals of `faction` connected to this one: nothing stands between them
    (the rulebook's "connected"; the same reading as `connected_to`)."""
    found = locate(state, card)
    if found is None:
        return 0
    team, pos = found
    formation = state.sides[team].formation
    return sum(
        1
        for other in formation.occupied()
        if connected(formation, pos, other)
        and elemental_def(state, formation.at(other).card).faction == faction  # type: ignore[union-attr]
    )


def eligible(state: State, step: Step, target: Target) -> list[int]:
    """The Elementals a one / up_to / each target may pick, front row first."""
    team = state.players[step.actor].team
    team = team if target.side == "own" else 1 - team
    formation = state.sides[team].formation
    anchors = {"self": step.source, "own_sage": own_sage(state, step.actor)}
    excluded = {anchors.get(x, getattr(step, x, None)) for x in target.exclude}
    anchor = None
    if target.connected_to:
        anchor_card = anchors[target.connected_to]
        anchor = None if anchor_card is None else formation.where(anchor_card)
        if anchor is None:
            return []
    found = []
    for pos in formation.occupied():
        card = formation.at(pos).card  # type: ignore[union-attr]
        definition = elemental_def(state, card)
        if target.rows and pos[0] + 1 not in target.rows:
            continue
        if target.faction and definition.faction != target.faction:
            continue
        if target.kind and definition.kind != target.kind:
            continue
        if card in excluded or (anchor is not None and not connected(formation, anchor, pos)):
            continue
        found.append(card)
    return found


def pick_targets(
    state: State,
    step: Step,
    target: Target,
    asked: list[int],
    but: Iterable[int] = (),
    purpose: str = "an Elemental",
) -> list[int]:
    """The Elemental(s) an op acts on (asking the acting player when it's a choice:
    "choose {purpose}")."""
    named = {
        "self": step.source,
        "own_sage": own_sage(state, step.actor),
        "attacker": step.attacker,
        "defender": step.defender,
        "subject": step.subject,
    }
    left_out = set(but)
    if target.pick in named:
        card = named[target.pick]
        in_play = card is not None and locate(state, card) is not None
        return [card] if in_play and card not in left_out else []  # type: ignore[list-item]
    if target.pick == "same":
        return [c for c in step.same if locate(state, c) is not None and c not in left_out]
    options = [c for c in eligible(state, step, target) if c not in left_out]
    if target.pick == "each":
        return options
    if target.pick == "one":
        ask = f"choose {purpose}"
        picked = _decide(state, step, asked, [str(c) for c in options], ask, about="elemental")
        return [] if picked is None else [int(picked)]
    chosen: list[int] = []
    while len(chosen) < (target.count or 1):
        left = [str(c) for c in options if c not in chosen]
        if not left:
            break
        ask = f"choose {purpose} ({len(chosen) + 1} of up to {target.count}), or stop"
        picked = _decide(state, step, asked, [*left, STOP], ask, about="elemental")
        if picked in (None, STOP):
            break
        chosen.append(int(picked))  # type: ignore[arg-type]
    return chosen


# --------------------------------------------------------------------------- costs


def can_pay(
    state: State,
    seat: int,
    ops: tuple[Op, ...],
    *,
    playing: int | None = None,
    source: int | None = None,
) -> bool:
    """An effect whose cost can't be paid can't be used: cards from hand (not counting
    the Command being played), tokens to remove, an Elemental to sacrifice."""
    hand = [c for c in state.players[seat].hand if c != playing]
    step = ops_step(state, seat, "", source=source)
    for op in ops:
        if isinstance(op, MoveCards) and op.pile == "hand" and len(hand) < op.at_least:
            return False
        if isinstance(op, MoveElemental) and op.cost and not movable(state, step, op.target):
            return False
        if isinstance(op, RemoveTokens) and op.at_least:
            if op.target.pick in ("one", "up_to", "each"):
                cards = eligible(state, step, op.target)
            else:
                cards = pick_targets(state, step, op.target, [0])
            if not any(getattr(elemental_at(state, c), op.token) >= op.at_least for c in cards):
                return False
    return True


# --------------------------------------------------------------------------- operations


def purpose(state: State, step: Step, op: Op) -> str:
    """What choosing an Elemental for this op is for: "the enemy Elemental that takes 3
    DMG", "your Elemental that gets 2 boosts"."""
    target = getattr(op, "target", None)
    whose = (
        "the enemy Elemental" if target is not None and target.side == "enemy" else "your Elemental"
    )
    amount = getattr(op, "amount", None)
    n = (
        amount_of(state, step, amount)
        if isinstance(amount, int) or (isinstance(amount, Scaled) and amount.per != "connected")
        else None
    )
    match op:
        case AddTokens(token=token):
            what = token if n is None else (f"{n} {token}" if n != 1 else f"1 {token[:-1]}")
            return f"{whose} that gets {what}"
        case Damage():
            return f"{whose} that takes {'the' if n is None else n} DMG"
        case ClearDamage():
            return f"{whose} that loses all its damage"
        case MoveElemental(to=to):
            return f"{whose} to put into its owner's {'hand' if to == 'hand' else 'discard pile'}"
        case RemoveTokens(token=token):
            return f"{whose} to take {token} from"
    return "an Elemental"


def run_op(state: State, step: Step, op: Op, asked: list[int], rng: random.Random) -> Events:
    """Resolve one op as far as the rules allow."""
    actor = step.actor
    match op:
        case Draw(amount=n):
            return draw(state, actor, n, rng)
        case AddTokens(token=token, amount=amount, target=target):
            cards = pick_targets(state, step, target, asked, purpose=purpose(state, step, op))
            step.same = cards
            return add_tokens(
                state, cards, token, [amount_of(state, step, amount, c) for c in cards]
            )
        case RemoveTokens():
            return _remove_tokens(state, step, op, asked)
        case Damage(amount=amount, target=target):
            cards = pick_targets(state, step, target, asked, purpose=purpose(state, step, op))
            step.same = cards
            state.queue[0:0] = [
                Step(kind="damage", actor=actor, card=c, amount=amount_of(state, step, amount, c))
                for c in cards
            ]
            return []
        case ClearDamage(target=target):
            cards = pick_targets(state, step, target, asked, purpose=purpose(state, step, op))
            step.same = cards
            for card in cards:
                elemental_at(state, card).damage = 0  # type: ignore[union-attr]
            return [_ev("heal", f"{_name(state, c)} loses all its damage.") for c in cards]
        case MoveCards():
            return _move_cards(state, step, op, asked)
        case MoveElemental(target=target, to=to):
            sages = sages_in_play(state)
            cards = pick_targets(state, step, target, asked, sages, purpose(state, step, op))
            step.same = cards
            if op.cost and not cards:
                step.index = len(ops_at(state, step.ops))  # nothing to sacrifice: it ends
                return [_ev("fizzle", "There is no Elemental to sacrifice.")]
            events: Events = []
            for card in cards:
                events += move_to_pile(state, card, to)
            return events
        case Swap(first=first, second=second):
            a = pick_targets(state, step, first, asked, purpose="the first Elemental to swap")
            b = pick_targets(state, step, second, asked, a, "the Elemental it swaps with")
            if not a or not b or a[0] == b[0]:
                return [_ev("fizzle", "There is nothing to swap.")]
            return swap_cards(state, a[0], b[0])
        case AttackBonus(amount=amount):
            if state.attack is None:
                return []
            bonus = amount_of(state, step, amount)
            state.attack.bonus += bonus
            return [_ev("bonus", f"The attack deals {bonus} more DMG.")]
        case ReduceDamage(amount=amount):
            attack = state.attack
            if attack is None:
                return []
            cut = 99 if amount is None else amount
            text = "to nothing" if amount is None else f"by {amount}"
            if (
                len(attack.target_cards) > 1
                and step.subject in attack.target_cards
                and _trigger_on(state, step) == "is_attacked"
            ):  # triggered by one target being attacked: only the DMG to that one
                attack.reduced_for[step.subject] = attack.reduced_for.get(step.subject, 0) + cut
                return [
                    _ev("reduce", f"The DMG to {_name(state, step.subject)} is reduced {text}.")
                ]
            attack.reduced += cut
            return [_ev("reduce", f"The attack's DMG is reduced {text}.")]
        case TakeDamageInstead() | KeepBoosts():
            return []  # replacement and static effects act where damage and boosts happen
        case PlayFromDiscard():
            return _play_from_discard(state, step, asked)
        case RedistributeShields():
            return _redistribute_shields(state, step, asked)
        case ChooseOne(options=options):
            numbers = [str(i + 1) for i in range(len(options))]
            picked = _decide(state, step, asked, numbers, "choose one effect", about="option")
            child = step.model_copy(
                update={
                    "ops": f"{step.ops}/{step.index}/{int(picked or 1) - 1}",
                    "index": 0,
                    "optional": False,
                    "choices": [],
                }
            )
            state.queue.insert(0, child)
            return []
    raise AssertionError(f"unhandled op {op!r}")


def _trigger_on(state: State, step: Step) -> str | None:
    """What an Elemental's triggered effect (the step's op list) fires on, if it is one."""
    kind, key, part = step.ops.split("/")[0].split(":")
    if kind != "card" or not part.startswith("fx"):
        return None
    definition = pack_of(state).card(key)
    if not isinstance(definition, ElementalCard):
        return None
    return definition.effects[int(part[2:])].trigger.on


def add_tokens(state: State, cards: list[int], token: str, amounts: list[int]) -> Events:
    """Tokens go on; an Elemental that receives shields may trigger."""
    events: Events = []
    for card, n in zip(cards, amounts, strict=True):
        if n <= 0:
            continue
        elemental = elemental_at(state, card)
        assert elemental is not None
        setattr(elemental, token, getattr(elemental, token) + n)
        events.append(
            _ev("tokens", f"{_name(state, card)} gets {n} {token[:-1]}{'s' if n > 1 else ''}.")
        )
        if token == "shields":
            fire(state, "receives_shields", card)
    return events


def _remove_tokens(state: State, step: Step, op: RemoveTokens, asked: list[int]) -> Events:
    cards = pick_targets(state, step, op.target, asked, purpose=purpose(state, step, op))
    step.same = cards
    if not cards:
        step.previous = 0
        return []
    elemental = elemental_at(state, cards[0])
    assert elemental is not None
    have = getattr(elemental, op.token)
    if have < op.at_least:
        step.index = len(ops_at(state, step.ops))  # the cost can't be paid: the effect ends
        return [_ev("fizzle", f"{_name(state, cards[0])} hasn't enough {op.token}.")]
    n = have
    if op.up_to is not None:
        numbers = [str(k) for k in range(op.at_least, min(op.up_to, have) + 1)]
        ask = f"choose how many {op.token} to remove from {_name(state, cards[0])}"
        n = int(_decide(state, step, asked, numbers, ask, about="count") or 0)
    setattr(elemental, op.token, have - n)
    step.previous = n
    if op.token == "shields" and n:
        fire(state, "loses_shields", cards[0])
    return [_ev("tokens", f"{_name(state, cards[0])} loses {n} {op.token}.")] if n else []


def _move_cards(state: State, step: Step, op: MoveCards, asked: list[int]) -> Events:
    player = state.players[step.actor]
    pile = player.hand if op.pile == "hand" else player.discard

    def fits(card: int) -> bool:
        definition = card_of(state, card)
        return op.card == "any" or (op.card == "command") == isinstance(definition, CommandCard)

    pool = [c for c in pile if fits(c)]
    if op.pile == "hand" and len(pool) < op.at_least:
        step.index = len(ops_at(state, step.ops))
        return [_ev("fizzle", f"{player.name} hasn't enough cards in hand.")]
    need = op.at_least if op.pile == "hand" else min(op.at_least, len(pool))
    formation = state.side_of(step.actor).formation
    empty = sum(formation.at(p) is None for p in formation.positions())
    room = empty if op.to == "formation" else op.up_to
    picked: list[int] = []
    while len(picked) < min(op.up_to, room):
        left = [c for c in pool if c not in picked]
        ids = sorted({state.cards[c] for c in left})
        if not ids:
            break
        options = ids + ([STOP] if len(picked) >= need else [])
        ask = f"choose a card from your {PILES[op.pile]} {DESTINATIONS[op.to]}"
        answer = _decide(state, step, asked, options, ask, about="card")
        if answer in (None, STOP):
            break
        picked.append(next(c for c in reversed(left) if state.cards[c] == answer))
    step.previous = len(picked)
    events: Events = []
    where = PILES
    for card in picked:
        pile.remove(card)
        if op.to == "formation":
            events += bring_into_formation(state, step.actor, card, from_hand=op.pile == "hand")
            continue
        {"hand": player.hand, "discard": player.discard, "deck_top": player.deck}[op.to].append(
            card
        )
        if op.pile == "discard" and op.to in ("hand", "deck_top"):  # face up: all saw it
            (player.shown_in_hand if op.to == "hand" else player.shown_on_top).append(card)
    if picked and op.to != "formation":
        shown = op.pile == "discard" or op.to == "discard"
        names = ", ".join(_name(state, c) for c in picked)
        text = f"{player.name} moves {len(picked)} card{'s' if len(picked) > 1 else ''}"
        text += f" from their {where[op.pile]} to their {where[op.to]}"
        events.append(
            _ev(
                "move",
                text + (f": {names}." if shown else "."),
                step.actor,
                reveals=op.pile == "hand" and op.to == "discard",  # out of a hand, face up
                **{str(step.actor): f"You move {names}."},
            )
        )
    return events


def bring_into_formation(state: State, seat: int, card: int, *, from_hand: bool) -> Events:
    """An Elemental joins the formation in the frontmost row with space (`from_hand`: out
    of its player's hand, where the other side couldn't see it)."""
    formation = state.side_of(seat).formation
    spaces = summon_spaces(formation)
    if not spaces:
        return []
    formation.put(spaces[0], Elemental(card=card, owner=seat))
    entered(state, card)
    return [
        _ev(
            "enter",
            f"{_name(state, card)} joins the formation in Row {ROW_NAMES[spaces[0][0]]}.",
            seat,
            reveals=from_hand,
        )
    ]


def move_to_pile(state: State, card: int, to: str) -> Events:
    """An Elemental leaves the formation for its owner's hand or discard pile (not
    defeated: no level); the formation shifts forward."""
    found = locate(state, card)
    if found is None:
        return []
    team, pos = found
    formation = state.sides[team].formation
    elemental = formation.at(pos)
    assert elemental is not None
    formation.put(pos, None)
    owner = state.players[elemental.owner]
    (owner.hand if to == "hand" else owner.discard).append(card)
    if to == "hand":
        owner.shown_in_hand.append(card)
    fire(state, "leaves_formation", card, team=team, row=pos[0])
    events = [
        _ev(
            "leave",
            f"{_name(state, card)} goes to {owner.name}'s "
            f"{'hand' if to == 'hand' else 'discard pile'}.",
        )
    ]
    return events + shift_forward(state, team)


def sages_in_play(state: State) -> list[int]:
    """Every Sage standing in a formation: a Sage leaves the formation only by defeat, so
    no effect moves one to a hand or a discard pile."""
    return [
        e.card
        for side in state.sides
        for p in side.formation.occupied()
        if is_sage(state, (e := side.formation.at(p)).card)  # type: ignore[union-attr]
    ]


def movable(state: State, step: Step, target: Target) -> bool:
    """Whether a move_elemental target has an Elemental to move (never a Sage)."""
    sages = set(sages_in_play(state))
    if target.pick in ("one", "up_to", "each"):
        return any(c not in sages for c in eligible(state, step, target))
    return bool(pick_targets(state, step, target, [0], but=sages))


def _attack_options(state: State, seat: int, cards: list[int]) -> list[str]:
    side = state.side_of(seat)
    enemy = state.sides[1 - side.team].formation
    options = []
    for card_id in sorted({state.cards[c] for c in cards}):
        command = pack_of(state).card(card_id)
        assert isinstance(command, CommandCard)
        for attacker in side.formation.occupied():
            if side.formation.at(attacker).card in side.attacked:  # type: ignore[union-attr]
                continue
            for targets in target_choices(command, attacker, enemy.occupied()):
                keys = "+".join(f"{t[0]}.{t[1]}" for t in targets)
                options.append(f"{card_id}@{attacker[0]}.{attacker[1]}>{keys}")
    return options


def _play_from_discard(state: State, step: Step, asked: list[int]) -> Events:
    player = state.players[step.actor]
    if state.attack is not None or state.side_of(step.actor).team != state.active:
        return []
    attacks = [c for c in player.discard if getattr(card_of(state, c), "type", "") == "attack"]
    answer = _decide(
        state,
        step,
        asked,
        _attack_options(state, step.actor, attacks),
        "choose an Attack Command from your discard pile, the Elemental that attacks with it "
        "and its target",
        about="attack",
    )
    if answer is None:
        return [
            _ev("fizzle", f"{player.name} has no Attack Command to play from the discard pile.")
        ]
    card_id, rest = answer.split("@")
    head, tail = rest.split(">")
    attacker = tuple(int(x) for x in head.split("."))
    targets = [tuple(int(x) for x in t.split(".")) for t in tail.split("+")]
    card = next(c for c in reversed(player.discard) if state.cards[c] == card_id)
    player.discard.remove(card)
    return start_attack(state, step.actor, card, attacker, targets, from_hand=False)  # type: ignore[arg-type]


def _redistribute_shields(state: State, step: Step, asked: list[int]) -> Events:
    """Every shield of the own formation comes off and is placed again, one at a time.
    Each Elemental that had shields loses them as they are taken off (`loses_shields`
    fires for it, even if some come back), and each that gets shields placed receives
    them (`receives_shields`). The losses resolve first, in formation order, then the
    receipts."""
    formation = state.side_of(step.actor).formation
    cards = [formation.at(p).card for p in formation.occupied()]  # type: ignore[union-attr]
    total = sum(formation.at(p).shields for p in formation.occupied())  # type: ignore[union-attr]
    placed = [
        int(
            _decide(
                state,
                step,
                asked,
                [str(c) for c in cards],
                f"choose the Elemental that gets shield {i + 1} of {total}",
                about="shield",
            )
            or cards[0]
        )
        for i in range(total)
    ]
    losers = []
    for pos in formation.occupied():
        elemental = formation.at(pos)
        assert elemental is not None
        if elemental.shields:
            losers.append(elemental.card)
        elemental.shields = 0
    receivers = sorted(set(placed), key=placed.index)
    events = [_ev("shields", f"{total} shield{'s' if total != 1 else ''} are moved around.")]
    events += add_tokens(state, receivers, "shields", [placed.count(c) for c in receivers])
    for card in reversed(losers):  # queued in front: the last fired resolves first
        fire(state, "loses_shields", card)
    return events


# --------------------------------------------------------------------------- damage


def damage_step(state: State, step: Step) -> Events:
    """DMG arrives at one Elemental: replacement effects first (another may take it),
    then shields, damage counters and defeat."""
    target = step.card
    found = locate(state, target)
    if found is None or step.amount <= 0:
        state.queue.pop(0)
        return []
    team, pos = found
    formation = state.sides[team].formation
    if not step.checked:
        helpers = replacements(state, team, target)  # type: ignore[arg-type]
        if helpers:
            owner = formation.at(formation.where(helpers[0][0])).owner  # type: ignore[arg-type, union-attr]
            optional = any(h[2] for h in helpers)
            options = ([NO] if optional else []) + [str(h[0]) for h in helpers]
            answer = _decide(
                state,
                step,
                [0],
                options,
                f"choose who takes the {step.amount} DMG meant for {_name(state, target)}",
                owner,  # type: ignore[arg-type]
                about="instead",
                auto=not optional,
            )
            helper = next((h for h in helpers if str(h[0]) == answer), None)
            step.checked = True
            step.choices = []
            if helper is not None:
                if helper[1]:
                    swap_cards(state, helper[0], target)  # type: ignore[arg-type]
                step.card = target = helper[0]
                found = locate(state, target)
                assert found is not None
                team, pos = found
        step.checked = True
    state.queue.pop(0)
    elemental = formation.at(pos)
    assert elemental is not None and target is not None
    hit = take_hit(elemental, elemental_def(state, target).hp, step.amount)
    events = [
        _ev(
            "damage",
            f"{_name(state, target)} takes {hit.dealt} DMG" + shields_text(hit.shields_lost) + ".",
        )
    ]
    # Queued in front, so they resolve in this order: a would_be_defeated effect, the
    # defeat, then what dealing DMG and losing shields trigger.
    if hit.shields_lost:
        fire(state, "loses_shields", target)
    if step.attack and hit.dealt > 0 and state.attack is not None:
        fire(state, "deals_attack_damage", state.attack.attacker_card)
    if hit.defeated:
        state.queue.insert(
            0, Step(kind="defeat_check", actor=step.actor, card=target, attack=step.attack)
        )
        _would_be_defeated(state, target)
    return events


def replacements(state: State, team: int, subject: int) -> list[tuple[int, bool, bool]]:
    """Elementals that may take DMG meant for `subject`: (card, swap, optional)."""
    formation = state.sides[team].formation
    where = formation.where(subject)
    found = []
    for pos in formation.occupied():
        card = formation.at(pos).card  # type: ignore[union-attr]
        definition = elemental_def(state, card)
        if card == subject or pos[0] + 1 not in definition.rows:
            continue
        for effect in definition.effects:
            trigger = effect.trigger
            if trigger.on != "would_take_damage":
                continue
            if trigger.faction and card_of(state, subject).faction != trigger.faction:
                continue
            if trigger.subject_rows and (where is None or where[0] + 1 not in trigger.subject_rows):
                continue
            if trigger.connected_to_self and not connected(formation, pos, where):  # type: ignore[arg-type]
                continue
            for op in effect.ops:
                if isinstance(op, TakeDamageInstead):
                    found.append((card, op.swap, trigger.optional))
    return found


def _would_be_defeated(state: State, card: int) -> None:
    """A would_be_defeated effect (from its rows) resolves before the defeat; the
    defeat happens only if the Elemental is still there and still beaten."""
    if not in_required_row(state, card):
        return
    definition = elemental_def(state, card)
    owner = elemental_at(state, card).owner  # type: ignore[union-attr]
    state.queue[0:0] = [
        ops_step(state, owner, f"card:{definition.id}:fx{i}", source=card, subject=card)
        for i, e in enumerate(definition.effects)
        if e.trigger.on == "would_be_defeated"
    ]


def _defeat_if_due(state: State, card: int | None, actor: int, *, attack: bool) -> Events:
    found = locate(state, card)
    if found is None:
        return []
    team, pos = found
    elemental = state.sides[team].formation.at(pos)
    assert elemental is not None and card is not None
    if elemental.damage < elemental_def(state, card).hp:
        return []
    if attack and state.attack is not None:
        by: int | None = state.attack.seat
        state.attack.defeated = True
        fire(state, "defeats", state.attack.attacker_card)
    else:
        by = actor if state.players[actor].team != team else None
    fire(state, "leaves_formation", card, team=team, row=pos[0])
    return defeat(state, team, pos, by_seat=by)
