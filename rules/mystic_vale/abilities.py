"""Abilities: when they are set off, and how their ops resolve.

An ability set off goes into `State.pending` (front first) and resolves in order. One
whose owner chooses to use it (`Ability.chosen`: optional, with a cost or a sacrifice)
asks first, and is skipped when its cost can't be paid. An op that needs a decision
asks it (a `Frame`) and the resolution waits; the answer resolves it and the queue goes
on. Standing effects (`field`) are not queued: the rules ask `standing()` for them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import cache

from rules.core import IllegalAction
from rules.core.rng import shuffle
from rules.mystic_vale.cards import (
    SPIRITS,
    Ability,
    AddToPool,
    CannotSpoil,
    Claim,
    ClaimVp,
    Cost,
    DiscardField,
    ExtraTurn,
    FreeBuy,
    Gain,
    LoseVp,
    Op,
    Per,
    Reserve,
    Search,
    ShedCurses,
    Special,
    Stay,
    Tax,
    Timing,
    Vale,
    get_pack,
)
from rules.mystic_vale.commons import offered, one_of_each, take
from rules.mystic_vale.moves import (
    all_fit,
    card_label,
    discard_from_field,
    gain_curses,
    gain_vp,
    name_of,
    shed_curses,
    spend_vp,
)
from rules.mystic_vale.nemesis import claim_card, claim_vp, is_active
from rules.mystic_vale.setup import Events, _ev
from rules.mystic_vale.state import Frame, Pending, State
from rules.mystic_vale.symbols import (
    advancement_of,
    advancements_on,
    field_total,
    pack_of,
    shown,
)

USE, SKIP = "use", "skip"
LAST_TURN = "The VP pool has run out: no turn follows this one, an extra one neither."
HARVEST_SYMBOLS = ("mana", "sky", "animal", "water", "plant", "guardian", "growth")

Handler = Callable[[State, Pending, random.Random], Events | None]


# --------------------------------------------------------------------------- sources


def abilities_of(state: State, source: str) -> tuple[Ability, ...]:
    """The abilities of a source: an advancement, a vale, a leader's side, a nemesis."""
    kind, key, *side = source.split(":")
    if kind == "l":
        return _by_card(state.pack)[f"{key}:{side[0]}"]
    if kind == "n":
        return _by_card(state.pack)[key]
    return _by_card(state.pack)[state.cards[int(key)]]


@cache
def _by_card(pack: str) -> dict[str, tuple[Ability, ...]]:
    """Every card's abilities by card id (a leader's by "id:start" and "id:upgraded")."""
    cards = get_pack(pack)
    found: dict[str, tuple[Ability, ...]] = {}
    for card in (*cards.advancements, *cards.vales):
        found[card.id] = card.abilities
    for leader in cards.leaders:
        found[f"{leader.id}:start"] = leader.start.abilities
        found[f"{leader.id}:upgraded"] = leader.upgraded.abilities
    for nemesis in cards.nemeses:
        found[nemesis.id] = nemesis.abilities
    return found


def source_name(state: State, source: str) -> str:
    kind, key, *_ = source.split(":")
    if kind == "l":
        return pack_of(state).leader(key).shown_name
    if kind == "n":
        return pack_of(state).nemesis(key).shown_name
    return name_of(state, int(key))


def card_sources(state: State, card_id: int) -> Iterator[str]:
    """What on a player card has abilities: its advancements and its leader's side (the
    nemesis, for the card it covers)."""
    card = state.card(card_id)
    if card.nemesis is not None:
        yield f"n:{card.nemesis}"
        return
    for instance in advancements_on(state, card):
        yield f"a:{instance}"
    if card.leader is not None:
        player = state.players[card.owner]
        upgraded = card.upgraded or (card.leader == player.leader and player.leader_upgraded)
        yield f"l:{card.leader}:{'upgraded' if upgraded else 'start'}"


def play_area_sources(state: State, seat: int) -> Iterator[tuple[str, int | None]]:
    """Sources whose abilities act from the play area: the field's cards, the vales, and
    an upgraded titan beside the play area (from the turn after its upgrade)."""
    player = state.players[seat]
    for card_id in player.field:
        for source in card_sources(state, card_id):
            yield source, card_id
    for vale in player.vales:
        yield f"v:{vale}", None
    if player.titan_aside and player.leader and player.upgraded_on_turn < state.turn:
        yield f"l:{player.leader}:upgraded", None


def set_off(state: State, seat: int, when: Timing, sources: list[tuple[str, int | None]]) -> None:
    """Queue every ability of these sources that acts `when` (in the order given)."""
    queued = []
    for source, card_id in sources:
        for index, ability in enumerate(abilities_of(state, source)):
            if ability.when == when and _usable(state, source, ability):
                queued.append(Pending(seat=seat, source=source, ability=index, card=card_id))
    state.pending.extend(queued)


def _usable(state: State, source: str, ability: Ability) -> bool:
    """An ability that may not act the turn its card was bought doesn't (the card was
    sleeved during this Harvest); a nemesis' acts once the hourglass reached it."""
    kind, key, *_ = source.split(":")
    if kind == "n":
        return is_active(state, ability)
    if not ability.not_on_turn_bought or state.harvest is None:
        return True
    return not (kind == "a" and int(key) in state.harvest.sleeved_now)


def standing(state: State, seat: int, op_type: type) -> bool:
    """Whether a standing effect of this kind acts for the seat (its field's cards)."""
    for source, _ in play_area_sources(state, seat):
        for ability in abilities_of(state, source):
            if ability.when == "field" and any(isinstance(op, op_type) for op in ability.ops):
                return True
    return False


def standing_special(state: State, seat: int, name: str) -> bool:
    """Whether a named standing rule (an ability that acts while its card is in the
    field) acts for the seat."""
    carriers = _standing(state.pack).get(name)
    if not carriers:
        return False
    player = state.players[seat]
    cards = state.cards
    for card_id in player.field:
        card = state.physical[card_id]
        for stack in card.slots.values():
            for layer in stack:
                if isinstance(layer, int) and cards[layer] in carriers:
                    return True
        if card.leader is not None:
            upgraded = card.upgraded or (card.leader == player.leader and player.leader_upgraded)
            if f"{card.leader}:{'upgraded' if upgraded else 'start'}" in carriers:
                return True
    if any(cards[v] in carriers for v in player.vales):
        return True
    aside = player.titan_aside and player.leader and player.upgraded_on_turn < state.turn
    return bool(aside) and f"{player.leader}:upgraded" in carriers


@cache
def _standing(pack: str) -> dict[str, frozenset[str]]:
    """For each named standing rule, the cards (and leader sides) that carry it."""
    found: dict[str, set[str]] = {}
    for card_key, card_abilities in _by_card(pack).items():
        for ability in card_abilities:
            if ability.when != "field":
                continue
            for op in ability.ops:
                if isinstance(op, Special):
                    found.setdefault(op.name, set()).add(card_key)
    return {name: frozenset(keys) for name, keys in found.items()}


def commons_curses(state: State, seat: int, instance: int) -> Events:
    """Curse tokens lying on an advancement come with it to whoever takes it."""
    return gain_curses(state, seat, state.commons.curses.pop(instance, 0))


# --------------------------------------------------------------------------- costs


def can_pay(state: State, seat: int, cost: Cost | None) -> bool:
    """Whether the seat can pay a cost now (mana and spirits of this Harvest, held tokens)."""
    if cost is None:
        return True
    player = state.players[seat]
    pool = state.harvest
    mana = (pool.mana if pool else 0) + (1 if player.mana_token else 0)
    if cost.mana > mana or cost.vp > player.vp or cost.curse > player.curses:
        return False
    return all(
        getattr(cost, spirit) <= (getattr(pool, spirit) if pool else 0)
        for spirit in ("sky", "animal", "water", "plant")
    )


def pay(state: State, seat: int, cost: Cost | None) -> None:
    """Pay a cost: mana of this Harvest first, then the mana token; spirits; VP tokens
    (to the box) and curse tokens (to the pool)."""
    if cost is None:
        return
    player = state.players[seat]
    pool = state.harvest
    if cost.mana:
        assert pool is not None
        from_pool = min(cost.mana, pool.mana)
        pool.mana -= from_pool
        if cost.mana > from_pool:
            assert player.mana_token
            player.mana_token = False
    for spirit in ("sky", "animal", "water", "plant"):
        if getattr(cost, spirit):
            assert pool is not None
            setattr(pool, spirit, getattr(pool, spirit) - getattr(cost, spirit))
    if cost.vp:
        spend_vp(state, seat, cost.vp)
    if cost.curse:
        shed_curses(state, seat, cost.curse)


def sacrifice(state: State, seat: int, instance: int) -> Events:
    """An advancement or vale of the seat leaves the game, with every effect of it: its
    abilities still waiting to be used are dropped ("Sacrificed cards no longer have any
    impact on the game"); one in the box already is not sacrificed again."""
    player = state.players[seat]
    if instance in state.boxed:
        return []
    state.pending = [p for p in state.pending if p.agreed or not _of(p.source, instance)]
    if state.harvest is not None:
        later = state.harvest.after_tokens
        later[:] = [p for p in later if not _of(p.source, instance)]
    if instance in player.vales:
        player.vales.remove(instance)
    else:
        for card in state.physical:
            for stack in card.slots.values():
                if instance in stack:
                    stack.remove(instance)
    state.boxed.append(instance)
    return [_ev("sacrifice", f"{player.name} sacrifices {name_of(state, instance)}.", seat)]


def _of(source: str, instance: int) -> bool:
    """Whether an ability's source is this advancement or vale."""
    kind, key, *_ = source.split(":")
    return kind in ("a", "v") and int(key) == instance


def gone(state: State, source: str) -> bool:
    """Whether an ability's source has been sacrificed (it has no impact any more)."""
    kind, key, *_ = source.split(":")
    return kind in ("a", "v") and int(key) in state.boxed


def sacrifice_options(state: State, seat: int, kind: str) -> list[int]:
    """What the seat could sacrifice: its vales, or the advancements on its cards."""
    player = state.players[seat]
    if kind == "vale":
        return one_of_each(state, player.vales)
    mine = [c for c in state.physical if c.owner == seat]
    return [i for c in mine for i in advancements_on(state, c)]


# --------------------------------------------------------------------------- resolving


def resolve(state: State, rng: random.Random) -> Events:
    """Resolve queued abilities until a decision is needed or none is left."""
    events: Events = []
    while state.pending and not state.frames and state.phase != "over":
        pending = state.pending[0]
        if gone(state, pending.source) and not pending.agreed:
            state.pending.pop(0)
            continue
        ability = abilities_of(state, pending.source)[pending.ability]
        if ability.chosen and not pending.agreed:
            if not _affordable(state, pending, ability):
                state.pending.pop(0)
                continue
            state.frames.append(
                Frame(
                    kind="use",
                    deciders=[pending.seat],
                    prompt=_use_prompt(state, pending, ability),
                    options=[USE, SKIP],
                )
            )
            break
        if _run_ops(state, pending, ability, rng, events):
            state.pending.remove(pending)
        elif state.frames:
            break
    return events


def _use_prompt(state: State, pending: Pending, ability: Ability) -> str:
    """The question whether to use an ability (one usable before or after the Harvest's
    tokens says which this is)."""
    name = source_name(state, pending.source)
    if before_tokens(state, ability):
        return (
            f"use {name}'s ability now, before your field's VP and curse tokens are taken "
            "(not now: you are asked again after them)?"
        )
    return f"use {name}'s ability?"


def before_tokens(state: State, ability: Ability) -> bool:
    """Whether an ability usable before or after the Harvest's VP and curse tokens comes
    up before them (declined, it comes up again after them)."""
    harvest = state.harvest
    return ability.around_tokens and harvest is not None and not harvest.scored


def _affordable(state: State, pending: Pending, ability: Ability) -> bool:
    """Whether the owner could use the ability now: its cost payable, something to
    sacrifice, and (for a named rule) something for it to do."""
    if not can_pay(state, pending.seat, ability.cost):
        return False
    extra_turn = any(isinstance(op, ExtraTurn) for op in ability.ops)
    if extra_turn and not extra_turn_open(state, pending.seat):  # nothing to pay for
        return False
    if ability.sacrifice in ("advancement", "vale"):
        return bool(sacrifice_options(state, pending.seat, ability.sacrifice))
    for op in ability.ops:
        if isinstance(op, Special) and op.name in READY and not READY[op.name](state, pending):
            return False
    return True


def _run_ops(
    state: State, pending: Pending, ability: Ability, rng: random.Random, events: Events
) -> bool:
    """Run the ability's ops from where it got; False when one waits for a decision or
    set off abilities that resolve first (queued in front of it)."""
    while pending.op < len(ability.ops):
        op = ability.ops[pending.op]
        outcome = run_op(state, pending, op, rng)
        if outcome is None:
            return False
        events += outcome
        pending.op += 1
        if state.pending[0] is not pending:
            return False
    return True


def agree(state: State, seat: int, use: bool, rng: random.Random) -> Events:
    """The owner answers whether to use an ability: yes pays its cost (and sacrifices)."""
    pending = state.pending[0]
    ability = abilities_of(state, pending.source)[pending.ability]
    state.frames.pop()
    name = state.players[seat].name
    if not use:
        state.pending.pop(0)
        later = ""
        if before_tokens(state, ability):
            assert state.harvest is not None
            state.harvest.after_tokens.append(pending)
            later = " before the tokens"
        text = f"{name} doesn't use {source_name(state, pending.source)}'s ability{later}."
        return [_ev("skip", text, seat), *resolve(state, rng)]
    pending.agreed = True
    pay(state, seat, ability.cost)
    events = [_ev("use", f"{name} uses {source_name(state, pending.source)}'s ability.", seat)]
    if ability.sacrifice == "self":
        events += sacrifice(state, seat, int(pending.source.split(":")[1]))
    elif ability.sacrifice is not None:
        options = sacrifice_options(state, seat, ability.sacrifice)
        state.frames.append(
            Frame(
                kind="sacrifice",
                deciders=[seat],
                prompt=f"choose the {ability.sacrifice} you sacrifice",
                options=[str(i) for i in options],
            )
        )
        return events
    return events + resolve(state, rng)


def extra_turn_open(state: State, seat: int) -> bool:
    """Whether the seat may still take an extra turn after this one: one extra turn a
    round at most (Executioner, Hunter's Hall), and none once no turn follows."""
    player = state.players[seat]
    return (
        player.extra_turn_round != state.round
        and not state.extra_turn
        and not no_turn_follows(state)
    )


def no_turn_follows(state: State) -> bool:
    """Solitaire: once the VP pool has run out, the turn under way is the last (its
    Nemesis Phase finished, the game ends); no turn follows it, an extra one neither."""
    return state.nemesis is not None and state.last_round


def count(state: State, pending: Pending, per: Per | None) -> int:
    """What an amount is multiplied by."""
    if per is None:
        return 1
    player = state.players[pending.seat]
    match per.count:
        case "vales":
            return len(player.vales)
        case "curses":
            return player.curses
    assert per.symbol is not None
    if per.where == "card" and pending.card is not None:
        return shown(state, state.card(pending.card))[per.symbol]
    return field_total(state, pending.seat)[per.symbol]


def run_op(state: State, pending: Pending, op: Op, rng: random.Random) -> Events | None:
    """Resolve one op; None when it waits for a decision (a frame is on the stack)."""
    seat = pending.seat
    player = state.players[seat]
    match op:
        case Gain(symbols=symbols, per=per):
            times = count(state, pending, per)
            events: Events = []
            for symbol, n in symbols.counts().items():
                amount = n * times
                if symbol in HARVEST_SYMBOLS and state.harvest is not None:
                    setattr(state.harvest, symbol, getattr(state.harvest, symbol) + amount)
                    if amount:
                        events.append(_ev("gain", f"{player.name} gains {amount} {symbol}.", seat))
                elif symbol == "vp":
                    events += gain_vp(state, seat, amount)
                elif symbol == "curse":
                    events += gain_curses(state, seat, amount)
            return events
        case ShedCurses(amount=n, per=per):
            return shed_up_to(state, seat, n * count(state, pending, per))
        case ExtraTurn():
            if no_turn_follows(state):
                return [_ev("fizzle", LAST_TURN, seat)]
            if not extra_turn_open(state, seat):
                return [_ev("fizzle", f"{player.name} has had an extra turn this round.", seat)]
            state.extra_turn = True
            player.extra_turn_round = state.round
            return [_ev("extra", f"{player.name} will take another turn after this one.", seat)]
        case AddToPool(amount=n):
            state.pool += n
            state.pool_added += n
            return [_ev("pool", f"{n} VP tokens from the box join the pool.", seat)]
        case CannotSpoil() | Stay():
            if isinstance(op, Stay) and pending.card is not None:
                state.staying.append(pending.card)
                return [_ev("stay", f"{card_label(state, pending.card)} stays in the field.", seat)]
            return []
        case DiscardField(which=which):
            return _ask_discard(state, pending, which)
        case Reserve():
            return _ask(
                state,
                pending,
                "reserve",
                "choose an advancement of the commons to Reserve",
                [str(i) for i in offered(state)],
            )
        case Search(max_cost=most):
            return _ask_search(state, pending, most)
        case Claim():
            return claim_card(state, op)
        case ClaimVp(amount=n):
            return claim_vp(state, n)
        case LoseVp(amount=n):
            lost = min(n, player.vp)
            spend_vp(state, seat, lost)
            return [_ev("vp", f"{player.name} discards {lost} VP.", seat)] if lost else []
        case Tax(mana=mana, spirits=spirits):
            return _tax(state, pending, mana, spirits)
        case FreeBuy():
            return _free_buy(state, pending, op, rng)
        case Special(name=name):
            return SPECIALS[name](state, pending, rng)
    raise AssertionError(op)


def shed_up_to(state: State, seat: int, most: int) -> Events | None:
    """Return up to `most` curse tokens to the pool: the player chooses how many, from 0
    to what they may return (asked only when that is more than one: one was agreed to
    with the ability)."""
    most = min(most, state.players[seat].curses)
    if most <= 1:
        return shed_curses(state, seat, most)
    state.frames.append(
        Frame(
            kind="shed",
            deciders=[seat],
            prompt=f"choose how many of your curse tokens to return to the pool (up to {most})",
            options=[str(n) for n in range(most + 1)],
        )
    )
    return None


def _ask(
    state: State, pending: Pending, kind: str, prompt: str, options: list[str]
) -> Events | None:
    """Ask the owner a decision for the op under way; with nothing to choose, nothing."""
    if not options:
        return []
    state.frames.append(Frame(kind=kind, deciders=[pending.seat], prompt=prompt, options=options))
    return None


def _tax(state: State, pending: Pending, mana: int, spirits: int) -> Events | None:
    """A nemesis takes mana of this Harvest and cancels spirit symbols: all of them when
    there are no more than it cancels, else the player chooses, one at a time."""
    harvest = state.harvest
    if harvest is None:
        return []
    player = state.players[pending.seat]
    events: Events = []
    lost = min(mana, harvest.mana)
    if lost:
        harvest.mana -= lost
        events.append(_ev("tax", f"{player.name} loses {lost} mana.", pending.seat))
    if spirits:
        return cancel_spirits(state, pending.seat, spirits)
    return events


def cancel_spirits(state: State, seat: int, spirits: int) -> Events | None:
    """Cancel spirit symbols of this Harvest: all of them when there are no more than
    `spirits`, else the player chooses one (and is asked again for the rest)."""
    harvest = state.harvest
    assert harvest is not None
    held = {s: getattr(harvest, s) for s in SPIRITS if getattr(harvest, s)}
    if sum(held.values()) > spirits:
        state.frames.append(
            Frame(
                kind="cancel_spirit",
                deciders=[seat],
                prompt=f"choose a spirit symbol of your Harvest to cancel ({spirits} to cancel)",
                options=list(held),
                subject=spirits,
            )
        )
        return None
    for spirit in held:
        setattr(harvest, spirit, 0)
    if not held:
        return []
    gone = ", ".join(f"{n} {s}" for s, n in held.items())
    return [_ev("tax", f"{state.players[seat].name}'s {gone} are cancelled.", seat)]


def _ask_discard(state: State, pending: Pending, which: str) -> Events | None:
    field = state.players[pending.seat].field
    options = field[-2:] if which == "rightmost_two" else list(field)
    options = [c for c in options if state.card(c).nemesis is None]  # never the nemesis
    return _ask(
        state,
        pending,
        "discard_field",
        "choose the card of your field to discard",
        [str(c) for c in reversed(options)],
    )


def combined_cost(state: State, card_id: int) -> int:
    """What it would take to buy every advancement on a card (every resource of their
    costs added up)."""
    return sum(
        sum(advancement_of(state, i).cost.counts().values())
        for i in advancements_on(state, state.card(card_id))
    )


def _ask_search(state: State, pending: Pending, most: int) -> Events | None:
    player = state.players[pending.seat]
    # Listed by card number, never in the deck's order (which the searcher may not learn).
    found = sorted(c for c in [*player.deck, *player.discard] if combined_cost(state, c) <= most)
    state.frames.append(
        Frame(
            kind="search",
            deciders=[pending.seat],
            prompt=(
                f"choose a card of your deck or discard pile whose advancements cost {most} "
                "or less together, to place at the end of your field"
            ),
            options=[str(c) for c in found] or ["none"],
        )
    )
    return None


def _free_buy(state: State, pending: Pending, op: FreeBuy, rng: random.Random) -> Events | None:
    commons = state.commons
    if op.source == "row":
        row = commons.vale_rows[op.level] if op.kind == "vale" else commons.rows[op.level]
        options = [
            str(i) for i in row if i is not None and (op.kind == "vale" or _fits(state, pending, i))
        ]
        return _ask(
            state,
            pending,
            "free_row",
            f"choose a level-{op.level} {op.kind} to take for free",
            options,
        )
    deck = commons.vale_decks[op.level] if op.kind == "vale" else commons.decks[op.level]
    if not deck:
        if op.kind == "advancement" and commons.fertile:
            soils = [i for i in offered(state) if i in commons.fertile and _fits(state, pending, i)]
            options = [str(i) for i in soils] + (["none"] if soils and op.may_decline else [])
            return _ask(
                state, pending, "free_row", "choose a Fertile Soil to take for free", options
            )
        return [_ev("fizzle", f"The level-{op.level} {op.kind} deck is empty.", pending.seat)]
    top = deck[-1]
    if op.kind == "advancement" and not all_fit(state, pending.seat, [*_bought(state), top]):
        return [
            _ev(
                "fizzle",
                f"{state.players[pending.seat].name} has no card the top advancement fits into.",
                pending.seat,
            )
        ]
    if op.may_decline:  # looked at by its taker alone: the question doesn't name it
        state.frames.append(
            Frame(
                kind="free_top",
                deciders=[pending.seat],
                prompt=f"take the top card of the {deck_name(op)}, which you looked at, for "
                "free, or put it back?",
                options=["take", "decline"],
                subject=top,
            )
        )
        return None
    deck.pop()
    return acquire(state, pending.seat, top, free=True, from_deck=True)


def deck_name(op: FreeBuy) -> str:
    """The deck a free card is taken from the top of: "level-1 advancement deck"."""
    return f"level-{op.level} {op.kind} deck"


def _bought(state: State) -> list[int]:
    return list(state.harvest.bought) if state.harvest is not None else []


def _fits(state: State, pending: Pending, instance: int) -> bool:
    """Whether a free advancement can be sleeved into the field beside what was bought:
    one that can't is never taken (Sacrosanct Nests' clarification; a bought
    advancement always has a card to go into)."""
    return all_fit(state, pending.seat, [*_bought(state), instance])


def acquire(
    state: State, seat: int, instance: int, *, free: bool, from_deck: bool = False
) -> Events:
    """A bought advancement waits to be sleeved in the Discard Phase; a bought vale goes
    into the play area. Its When Bought abilities go off. `from_deck`: it was taken from
    the top of a deck unseen."""
    player = state.players[seat]
    card = pack_of(state).card(state.cards[instance])
    how = " for free" if free else ""
    if isinstance(card, Vale):
        player.vales.append(instance)
    else:
        assert state.harvest is not None
        state.harvest.bought.append(instance)
    text = f"{player.name} takes {card.shown_name}{how}."
    events = [_ev("buy", text, seat, reveals=from_deck)]
    set_front(
        state, seat, "bought", [(f"{'v' if isinstance(card, Vale) else 'a'}:{instance}", None)]
    )
    return events


def set_front(state: State, seat: int, when: Timing, sources: list[tuple[str, int | None]]) -> None:
    """Queue these sources' abilities in front of what is pending (they resolve first)."""
    behind = state.pending
    state.pending = []
    set_off(state, seat, when, sources)
    state.pending += behind


def answer(state: State, seat: int, option: str, rng: random.Random) -> Events:
    """Answer the decision on top of the stack (an op's), then resolution goes on."""
    frame = state.frames.pop()
    pending = state.pending[0] if state.pending else None
    ops = abilities_of(state, pending.source)[pending.ability].ops if pending else ()
    op_answered = None
    if pending is not None and frame.kind != "sacrifice" and pending.op < len(ops):
        op_answered = ops[pending.op]
        pending.op += 1  # the op that asked is done once answered (follow-up asks too)
    player = state.players[seat]
    events: Events = []
    match frame.kind:
        case "sacrifice":
            events += sacrifice(state, seat, int(option))
            return events + resolve(state, rng)
        case "discard_field":
            events += discard_from_field(state, seat, int(option))
        case "reserve":
            instance = int(option)
            take(state, instance)
            player.reserved.append(instance)
            events.append(
                _ev("reserve", f"{player.name} Reserves {name_of(state, instance)}.", seat)
            )
        case "search":
            if option != "none":
                card_id = int(option)
                pile = player.deck if card_id in player.deck else player.discard
                pile.remove(card_id)
                player.field.append(card_id)
                events.append(
                    _ev(
                        "search",
                        f"{player.name} places {card_label(state, card_id)} at the end of "
                        "their field.",
                        seat,
                    )
                )
            # The deck was searched with the discard pile (one list of both): "if you
            # search your deck, you must shuffle it" (Murkwater Stalker), whatever was taken.
            if player.deck:
                shuffle(player.deck, rng)
            player.shown_under = 0
        case "shed":
            events += shed_curses(state, seat, int(option))
        case "free_row" if option == "none":  # a Fertile Soil one may take, left
            events.append(_ev("decline", f"{player.name} takes no Fertile Soil.", seat))
        case "free_row":
            instance = int(option)
            take(state, instance)
            events += commons_curses(state, seat, instance)
            events += acquire(state, seat, instance, free=True)
        case "free_top":
            op = op_answered
            assert isinstance(op, FreeBuy)
            deck = (
                state.commons.vale_decks[op.level]
                if op.kind == "vale"
                else state.commons.decks[op.level]
            )
            if option == "take":  # the card only its taker had seen: now everyone does
                events += acquire(state, seat, deck.pop(), free=True, from_deck=True)
            else:
                where = f"on top of the {deck_name(op)}"
                text = f"{player.name} puts the card they looked at back {where}."
                mine = f"You put {name_of(state, deck[-1])} back {where}."
                events.append(_ev("decline", text, seat, **{str(seat): mine}))
        case _:
            handler = ANSWERS.get(frame.kind)
            if handler is None:
                raise IllegalAction("not-now", "There is nothing to choose.")
            events += handler(state, seat, option, frame, rng)
    return events + resolve(state, rng)


# --------------------------------------------------------------------------- named rules

SPECIALS: dict[str, Handler] = {}
READY: dict[str, Callable[[State, Pending], bool]] = {}
ANSWERS: dict[str, Callable[[State, int, str, Frame, random.Random], Events]] = {}
