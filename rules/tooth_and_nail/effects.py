"""Resolving card effects: each operation of the vocabulary, one at a time.

An effect is queued as steps (one per operation); a step that needs a choice
(a target, a card) opens a decision and waits. Victims are fixed when the
effect starts: the opponent (2 players), every opponent (3 players: abilities
that affect "the opposing player" affect all of them), or the one the player
picks (The Enemy of My Enemy).
"""

from __future__ import annotations

import random

from rules.core import IllegalAction
from rules.core.rng import pick, shuffle
from rules.tooth_and_nail.cards import (
    Damage,
    Deploy,
    Destroy,
    DiscardChoice,
    DiscardRandom,
    DrainTroop,
    Draw,
    Faction,
    GainAP,
    Mend,
    Mill,
    Op,
    RechargeTroop,
    Reclaim,
    Relocate,
    ReturnToHand,
    Search,
    TroopTarget,
)
from rules.tooth_and_nail.rules import (
    Events,
    _ev,
    _name,
    _troop_index,
    _zone,
    card_def,
    card_faction,
    card_name,
    check_decks,
    deal_damage,
    destroy,
    discard_from_hand,
    draw,
    forget_left_hand,
    gain_ap,
    pack_of,
    put_into_play,
    troop_def,
)
from rules.tooth_and_nail.state import Frame, State, Step

OPPOSING_TARGETS = (Destroy, ReturnToHand, DrainTroop)
NO_DEPLOY = "none"
OWN_TARGETS = (RechargeTroop, Relocate)


# --------------------------------------------------------------------------- sources


def source_ops(state: State, source: str) -> tuple[Op, ...]:
    """The operations behind a source: `troop:<id>`, `formation:<faction>`, `ability:<faction>`."""
    kind, ref = source.split(":", 1)
    if kind == "troop":
        return troop_def(state, ref).command
    faction = pack_of(state).faction(ref)
    return faction.formation.effect if kind == "formation" else faction.ability.effect


def source_faction(state: State, source: str) -> Faction:
    kind, ref = source.split(":", 1)
    if kind == "troop":
        return _troop_index(state.pack)[ref][0]
    return pack_of(state).faction(ref)


def source_label(state: State, source: str) -> str:
    kind, ref = source.split(":", 1)
    if kind == "troop":
        return f"{troop_def(state, ref).name}'s Command Ability"
    faction = pack_of(state).faction(ref)
    return faction.formation.name if kind == "formation" else faction.ability.name


def queue_effect(state: State, actor: int, source: str, victims: list[int]) -> None:
    """Queue every operation of a source, in order, ahead of what was already queued."""
    steps = [
        Step(kind="op", actor=actor, source=source, index=i, victims=list(victims))
        for i in range(len(source_ops(state, source)))
    ]
    state.queue[0:0] = steps


def choose_semantics(state: State) -> bool:
    """The Enemy of My Enemy: an effect hits one opposing player of the actor's choice."""
    return state.variant == "4p"


# --------------------------------------------------------------------------- targets


def target_key(state: State, seat: int, zone: str, card: int, drained: bool) -> str:
    return f"{seat}|{zone}|{state.cards[card]}|{int(drained)}"


def troop_targets(state: State, step: Step) -> dict[str, tuple[int, str, int]]:
    """Distinct Troops the step may pick, by key -> (seat, zone, index). Troops of the
    same name, owner, zone and drain state are interchangeable, so they share a key."""
    op = source_ops(state, step.source)[step.index]
    assert isinstance(op, TroopTarget)
    own = isinstance(op, OWN_TARGETS)
    seats = [step.actor] if own else step.victims
    limits = state.limits
    found: dict[str, tuple[int, str, int]] = {}
    for seat in seats:
        player = state.players[seat]
        for zone in ("command", "war"):
            if op.zone not in ("any", zone):
                continue
            for i, troop in enumerate(_zone(player, zone)):
                if own and troop.card == step.card:
                    continue  # "another" Troop: never the one using its ability
                d = card_def(state, troop.card)
                if op.troop_type and d.type != op.troop_type:
                    continue
                if op.max_strength is not None and d.strength > op.max_strength:
                    continue
                if op.drained is not None and troop.drained != op.drained:
                    continue
                if isinstance(op, DrainTroop) and troop.drained:
                    continue
                if isinstance(op, RechargeTroop) and not troop.drained:
                    continue
                if isinstance(op, Relocate):
                    other = "war" if zone == "command" else "command"
                    if len(_zone(player, other)) >= limits[other]:
                        continue
                found.setdefault(
                    target_key(state, seat, zone, troop.card, troop.drained), (seat, zone, i)
                )
    return found


def only_target(state: State, step: Step, seat: int, zone: str, index: int) -> Events:
    """A Troop effect with a single Troop it can pick needs no choice: it picks that one,
    and the table is told why."""
    troop = _zone(state.players[seat], zone)[index]
    text = (
        f"{source_label(state, step.source)} has one Troop it can pick: "
        f"{_name(state, seat)}'s {card_name(state, troop.card)}."
    )
    return [_ev("only", text, step.actor), *apply_troop_op(state, step, seat, zone, index)]


def apply_troop_op(state: State, step: Step, seat: int, zone: str, index: int) -> Events:
    op = source_ops(state, step.source)[step.index]
    player = state.players[seat]
    troop = _zone(player, zone)[index]
    name = card_name(state, troop.card)
    match op:
        case Destroy():
            return destroy(state, seat, zone, index)
        case ReturnToHand():
            _zone(player, zone).pop(index)
            player.hand.append(troop.card)
            player.shown_in_hand.append(troop.card)
            return [_ev("return", f"{player.name}'s {name} returns to their hand.", seat)]
        case DrainTroop():
            troop.drained = True
            return [_ev("drain", f"{player.name}'s {name} is drained.", seat)]
        case RechargeTroop():
            troop.drained = False
            return [_ev("recharge", f"{player.name} recharges {name}.", seat)]
        case Relocate():
            other = "war" if zone == "command" else "command"
            _zone(player, zone).pop(index)
            _zone(player, other).append(troop)
            label = {"war": "War Zone", "command": "Command Zone"}[other]
            return [_ev("relocate", f"{player.name} moves {name} to their {label}.", seat)]
    raise AssertionError(op)


# --------------------------------------------------------------------------- hand and deck choices


def deploy_options(state: State, step: Step) -> list[str]:
    op = source_ops(state, step.source)[step.index]
    assert isinstance(op, Deploy)
    player = state.players[step.actor]
    if len(player.war_zone) >= state.limits["war"]:
        return []
    ids = {state.cards[c] for c in player.hand}
    return sorted(i for i in ids if not op.troop_type or troop_def(state, i).type == op.troop_type)


def deploy(state: State, seat: int, troop_id: str) -> Events:
    """Play a Troop from hand into the War Zone without spending an Action Point, or
    (NO_DEPLOY) decline to."""
    if troop_id == NO_DEPLOY:
        return [_ev("deploy", f"{_name(state, seat)} deploys nothing.", seat)]
    return put_into_play(state, seat, troop_id, "war", cost=0)


def search_options(state: State, step: Step) -> list[str]:
    op = source_ops(state, step.source)[step.index]
    assert isinstance(op, Search)
    home = source_faction(state, step.source).id
    ids = set()
    for c in state.team_of(step.actor).deck:
        faction = card_faction(state, c).id
        if op.faction == "own" and faction != home:
            continue
        if op.faction == "other" and faction == home:
            continue
        if op.troop_type and card_def(state, c).type != op.troop_type:
            continue
        ids.add(state.cards[c])
    return sorted(ids)


def take_from_deck(state: State, seat: int, troop_id: str | None, rng: random.Random) -> Events:
    """Put the searched-for Troop in hand, then shuffle the deck."""
    team = state.team_of(seat)
    events: Events = []
    if troop_id is not None:
        card = next(c for c in reversed(team.deck) if state.cards[c] == troop_id)
        team.deck.remove(card)
        forget_left_hand(state.players[seat])
        state.players[seat].hand.append(card)
        private = {str(seat): f"You search your deck and take {card_name(state, card)}."}
        text = f"{_name(state, seat)} searches their deck and takes a Troop."
        events.append(_ev("search", text, seat, **private))
    else:
        events.append(
            _ev("search", f"{_name(state, seat)} searches their deck and finds nothing.", seat)
        )
    shuffle(team.deck, rng)
    team.shown_under = 0
    return events + check_decks(state)


def discard_random(state: State, seat: int, n: int, rng: random.Random) -> Events:
    """Discard cards chosen at random from a player's hand."""
    player = state.players[seat]
    gone = []
    for _ in range(min(n, len(player.hand))):
        card = player.hand[pick(len(player.hand), rng)]
        discard_from_hand(state, seat, card)
        gone.append(card_name(state, card))
    if not gone:
        return [_ev("discard", f"{player.name} has no cards to discard.", seat)]
    return [_ev("discard_random", f"{player.name} discards {', '.join(gone)} at random.", seat)]


def discard_chosen(state: State, seat: int, troop_id: str) -> Events:
    """A player discards a card of their choice (an opponent's effect made them)."""
    frame = state.frames[-1]
    player = state.players[seat]
    card = next((c for c in player.hand if state.cards[c] == troop_id), None)
    if card is None:
        raise IllegalAction("not-in-hand", "You have no card of that name in your hand.")
    discard_from_hand(state, seat, card)
    frame.remaining[str(seat)] -= 1
    if frame.remaining[str(seat)] <= 0 or not player.hand:
        frame.remaining.pop(str(seat))
        frame.deciders.remove(seat)
    if not frame.deciders:
        state.frames.pop()
    text = f"{player.name} discards {card_name(state, card)}."
    return [_ev("discard", text, seat, reveals=True)]  # out of the hand, face up


# --------------------------------------------------------------------------- one operation


def run_op(state: State, step: Step, rng: random.Random) -> Events:
    """Resolve one queued operation as far as the rules allow."""
    op = source_ops(state, step.source)[step.index]
    actor = step.actor
    victims = [v for v in step.victims if not state.players[v].eliminated]
    match op:
        case Draw(amount=n):
            return draw(state, actor, n)
        case GainAP(amount=n):
            return gain_ap(state, actor, n)
        case Damage(amount=n) | Mill(amount=n):
            events: Events = []
            for team in sorted({state.players[v].team for v in victims}):
                if state.phase == "over":
                    break
                seat = next(v for v in victims if state.players[v].team == team)
                events += deal_damage(state, seat, n)
            return events
        case DiscardRandom(amount=n) | DiscardChoice(amount=n):
            events = []
            holding = [v for v in victims if state.players[v].hand]
            if choose_semantics(state) and len(holding) > 1:
                return _ask_opponent(state, step, holding)
            if not holding:
                return [_ev("discard", "No opposing player has a card to discard.")]
            if choose_semantics(state) and len(victims) > 1:
                # One opponent to choose from: the other holds no card (public knowledge).
                label = source_label(state, step.source)
                whom = _name(state, holding[0])
                text = f"{label} hits {whom}, the only opponent holding cards."
                events.append(_ev("opponent", text, actor))
            if isinstance(op, DiscardRandom):
                return events + [e for v in holding for e in discard_random(state, v, n, rng)]
            state.frames.append(
                Frame(
                    kind="discard",
                    deciders=holding,
                    step=step.model_copy(update={"victims": holding}),
                    remaining={str(v): min(n, len(state.players[v].hand)) for v in holding},
                    prompt=f"discard {n} card{'s' if n > 1 else ''} of their choice",
                )
            )
            return events
        case Destroy() | ReturnToHand() | DrainTroop() | RechargeTroop() | Relocate():
            if (
                isinstance(op, OPPOSING_TARGETS)
                and len(victims) > 1
                and not choose_semantics(state)
            ):
                # Every opposing player is affected: one Troop of each.
                state.queue[0:0] = [step.model_copy(update={"victims": [v]}) for v in victims]
                return []
            step = step.model_copy(update={"victims": victims})
            targets = troop_targets(state, step)
            if not targets:
                label = source_label(state, step.source)
                if len(step.victims) == 1 and not isinstance(op, OWN_TARGETS):
                    whose = _name(state, step.victims[0])
                    return [_ev("fizzle", f"{label}: {whose} has no Troop it can target.")]
                return [_ev("fizzle", f"{label}: no Troop it can target.")]
            if len(targets) == 1:
                return only_target(state, step, *next(iter(targets.values())))
            state.frames.append(
                Frame(
                    kind="target",
                    deciders=[actor],
                    step=step,
                    prompt=f"choose a Troop for {source_label(state, step.source)}",
                )
            )
            return []
        case Deploy():
            # Deploying is optional and asked whenever the hand holds a card, so the
            # question never tells the table which Troops the hand holds.
            player = state.players[actor]
            if not player.hand or len(player.war_zone) >= state.limits["war"]:
                label = source_label(state, step.source)
                return [_ev("fizzle", f"{label}: {player.name} can't deploy a Troop.")]
            state.frames.append(
                Frame(kind="deploy", deciders=[actor], step=step, prompt="choose a Troop to deploy")
            )
            return []
        case Search():
            # One option or several, the player is asked: how many kinds of Troop the
            # deck holds stays hidden.
            options = search_options(state, step)
            if not options:
                return take_from_deck(state, actor, None, rng)
            state.frames.append(
                Frame(
                    kind="search",
                    deciders=[actor],
                    step=step,
                    prompt="choose a Troop from their deck",
                )
            )
            return []
        case Reclaim(troop_type=t):
            team = state.team_of(actor)
            if not team.discard:
                return [_ev("fizzle", f"{_name(state, actor)}'s discard pile is empty.")]
            top = team.discard[-1]
            if t and card_def(state, top).type != t:
                return [
                    _ev(
                        "fizzle",
                        f"The top of {_name(state, actor)}'s discard pile is "
                        f"{card_name(state, top)}, not a {t} Troop.",
                    )
                ]
            team.discard.pop()
            state.players[actor].hand.append(top)
            state.players[actor].shown_in_hand.append(top)
            return [
                _ev(
                    "reclaim",
                    f"{_name(state, actor)} takes {card_name(state, top)} from their discard pile.",
                    actor,
                )
            ]
        case Mend(amount=n):
            team = state.team_of(actor)
            moved = [team.discard.pop() for _ in range(min(n, len(team.discard)))]
            team.deck[0:0] = moved
            team.shown_under = min(team.shown_under, len(team.deck) - len(moved)) + len(moved)
            return [
                _ev(
                    "mend",
                    f"{_name(state, actor)} puts {len(moved)} card"
                    f"{'s' if len(moved) != 1 else ''} from their discard pile under their deck.",
                    actor,
                )
            ]
    raise AssertionError(f"unhandled operation {op!r}")


def _ask_opponent(state: State, step: Step, victims: list[int]) -> Events:
    state.frames.append(
        Frame(
            kind="opponent",
            deciders=[step.actor],
            step=step.model_copy(update={"victims": victims}),
            prompt=f"choose an opposing player for {source_label(state, step.source)}",
        )
    )
    return []
