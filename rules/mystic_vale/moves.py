"""The moves every part of a turn shares: revealing the on-deck card, putting cards into
and out of the field, VP and curse tokens, sleeving an advancement into a card.

- The deck: when a card must be revealed and the deck is empty, the discard pile is
  shuffled into a new deck; with both empty nothing is revealed (the notes' default).
- VP tokens come from the pool; once it is empty, from the box. The pool running out
  finishes the round (`State.last_round`).
- Sleeving: an advancement goes into its printed slot of a card in the field. The slot
  must be empty, or hold an eclipse advancement alone, which it then covers; an eclipse
  advancement may go under a (non-eclipse) advancement alone in its slot, but never
  covers anything. No advancement goes onto a leader. (Stormbrew Titan may let one
  cover a Cursed Land: see `abilities.py`.)
"""

from __future__ import annotations

import random

from rules.core import Event
from rules.core.rng import shuffle
from rules.mystic_vale.cards import Advancement
from rules.mystic_vale.setup import Events, _ev
from rules.mystic_vale.state import CURSED_LAND, Card, State
from rules.mystic_vale.symbols import advancement_of, advancements_on, pack_of
from rules.mystic_vale.text import listed


def name_of(state: State, instance: int) -> str:
    """The name players see of an advancement or vale instance."""
    return pack_of(state).card(state.cards[instance]).shown_name


def card_label(state: State, card_id: int) -> str:
    """A player card as players tell it apart: what is sleeved in it, or what is printed
    (the nemesis over it, for the card it covers)."""
    card = state.card(card_id)
    if card.nemesis is not None:
        return f"the nemesis {pack_of(state).nemesis(card.nemesis).shown_name}"
    parts = [name_of(state, i) for i in advancements_on(state, card)]
    if card.leader:
        parts.insert(0, pack_of(state).leader(card.leader).shown_name)
    for slot, stack in card.slots.items():
        for layer in stack:
            if isinstance(layer, str):
                parts.append(f"{layer_name(state, layer)} ({slot})")
    return " + ".join(parts) if parts else "a blank card"


def layer_name(state: State, layer: int | str) -> str:
    """What lies in a slot: an advancement's name, or the printed Cursed Land or Fertile
    Soil."""
    if isinstance(layer, int):
        return name_of(state, layer)
    return "Cursed Land" if layer == CURSED_LAND else "Fertile Soil"


# --------------------------------------------------------------------------- the deck

# What a card turned up and a card planted read (after the player's name).
_TURNED, _PLANTED = "turns {} face up on deck", "plants {}"


def reveal(state: State, seat: int, rng: random.Random) -> Events:
    """Turn the top card of the deck face up as the on-deck card (the discard pile is
    shuffled into a new deck first when the deck is empty)."""
    player = state.players[seat]
    assert player.on_deck is None
    events: Events = []
    if not player.deck and player.discard:
        player.deck, player.discard = player.discard, []
        shuffle(player.deck, rng)
        events.append(
            _ev("shuffle", f"{player.name} shuffles their discard pile into a new deck.", seat)
        )
    if not player.deck:
        return events
    player.on_deck = player.deck.pop()
    label = card_label(state, player.on_deck)
    events.append(_ev("reveal", f"{player.name} {_TURNED.format(label)}.", seat))
    return events


def to_field(state: State, seat: int) -> Events:
    """The on-deck card moves to the end of the field."""
    player = state.players[seat]
    assert player.on_deck is not None
    card = player.on_deck
    player.field.append(card)
    player.on_deck = None
    return [_ev("field", f"{player.name} {_PLANTED.format(card_label(state, card))}.", seat)]


def fold_lines(state: State, events: Events) -> Events:
    """The cards a player plants and turns up one after another (a push, a Prep) told
    in one line, in the order they came: "Ada plants X, then turns up and plants Y and
    Z, and turns W face up on deck." Anything else between them (a shuffle, an ability)
    keeps its own line and starts a new one."""
    folded: Events = []
    run: list[tuple[str, str]] = []  # ("R" turned up | "P" planted, the card's label)
    seat: int | None = None  # whose run it is
    reveals = False  # whether the run showed a hidden card
    for event in events:
        step = _step(state, event)
        if run and seat is not None and (step is None or event.seat != seat):
            folded += _run_lines(state, seat, run, reveals)
            run, reveals = [], False
        if step is None:
            folded.append(event)
        else:
            run.append(step)
            seat, reveals = event.seat, reveals or event.reveals
    if run and seat is not None:
        folded += _run_lines(state, seat, run, reveals)
    return folded


def _step(state: State, event: Event) -> tuple[str, str] | None:
    """A card turned up or planted, as ("R" or "P", its label); None for any other line."""
    if event.kind not in ("reveal", "field") or event.seat is None or event.private:
        return None
    name = f"{state.players[event.seat].name} "
    said = event.text.removeprefix(name).removesuffix(".")
    template = _TURNED if event.kind == "reveal" else _PLANTED
    head, tail = template.split("{}")
    if not event.text.startswith(name) or not said.startswith(head) or not said.endswith(tail):
        return None
    return ("R" if event.kind == "reveal" else "P", said[len(head) : len(said) - len(tail)])


def _run_lines(state: State, seat: int, run: list[tuple[str, str]], reveals: bool) -> Events:
    """One line for a run of cards planted and turned up (more lines only where a card
    planted is not the one turned up before it), revealing if any of them did."""
    lead = run[0][1] if run[0][0] == "P" else None
    i = 1 if lead is not None else 0
    pairs = []
    while i + 1 < len(run) and run[i][0] == "R" and run[i + 1] == ("P", run[i][1]):
        pairs.append(run[i][1])
        i += 2
    tail = run[i][1] if i < len(run) and run[i][0] == "R" else None
    i += tail is not None
    said = _PLANTED.format(lead) if lead is not None else ""
    if pairs:
        said += (", then " if said else "") + f"turns up and plants {listed(pairs)}"
    if tail is not None:
        said += (", and " if pairs else " and " if said else "") + _TURNED.format(tail)
    kind = "reveal" if pairs or tail is not None else "field"
    line = _ev(kind, f"{state.players[seat].name} {said}.", seat, reveals=reveals)
    return [line, *(_run_lines(state, seat, run[i:], reveals) if i < len(run) else [])]


def discard_from_field(state: State, seat: int, card_id: int) -> Events:
    """A card leaves the field for the discard pile."""
    player = state.players[seat]
    player.field.remove(card_id)
    player.discard.append(card_id)
    return [_ev("discard", f"{player.name} discards {card_label(state, card_id)}.", seat)]


# --------------------------------------------------------------------------- tokens


def gain_vp(state: State, seat: int, amount: int, *, from_box: bool = False) -> Events:
    """VP tokens from the pool (the rest from the box once it is empty, or all of them
    from the box when `from_box`)."""
    if amount <= 0:
        return []
    player = state.players[seat]
    taken = 0 if from_box else min(amount, state.pool)
    state.pool -= taken
    state.from_pool += taken
    state.from_box += amount - taken
    player.vp += amount
    events = [_ev("vp", f"{player.name} gains {amount} VP.", seat)]
    if state.pool == 0 and not state.last_round:
        state.last_round = True
        last = "turn" if state.nemesis is not None else "round"
        events.append(_ev("clock", f"The VP pool has run out: this {last} is the last."))
    return events


def spend_vp(state: State, seat: int, amount: int) -> None:
    """VP tokens spent or discarded go back to the box, not the pool."""
    player = state.players[seat]
    assert player.vp >= amount
    player.vp -= amount
    state.spent_vp += amount


def gain_curses(state: State, seat: int, amount: int) -> Events:
    """Curse tokens from the pool (it never runs out)."""
    if amount <= 0:
        return []
    state.players[seat].curses += amount
    name = state.players[seat].name
    return [_ev("curse", f"{name} gains {amount} curse token{'s' if amount > 1 else ''}.", seat)]


def shed_curses(state: State, seat: int, amount: int) -> Events:
    """Curse tokens back to the pool."""
    player = state.players[seat]
    shed = min(amount, player.curses)
    player.curses -= shed
    if not shed:
        return []
    return [
        _ev("curse", f"{player.name} returns {shed} curse token{'s' if shed > 1 else ''}.", seat)
    ]


# --------------------------------------------------------------------------- sleeving


def slot_takes(
    state: State, card: Card, advancement: Advancement, *, over_land: bool = False
) -> bool:
    """Whether an advancement can be sleeved into this card's slot for it (never onto a
    leader or a nemesis)."""
    if card.leader is not None or card.nemesis is not None:
        return False
    stack = card.slots[advancement.slot]
    if not stack:
        return True
    top = stack[-1]
    if isinstance(top, str):
        return over_land and top == CURSED_LAND and not advancement.eclipse and len(stack) == 1
    top_eclipse = advancement_of(state, top).eclipse
    if advancement.eclipse:
        return not top_eclipse and len(stack) == 1  # slid under the advancement
    return top_eclipse and len(stack) == 1  # covers the eclipse


def sleeve(state: State, card_id: int, instance: int) -> None:
    """Sleeve an advancement into a card (under the one there, if it is an eclipse going
    under)."""
    _into(state, state.card(card_id), instance)


def sleeved(state: State, card_id: int, instance: int) -> Card:
    """A copy of the card as it would be with the advancement sleeved in (the card
    itself unchanged): what a choice of where to sleeve leads to."""
    card = state.card(card_id).model_copy(deep=True)
    _into(state, card, instance)
    return card


def _into(state: State, card: Card, instance: int) -> None:
    advancement = advancement_of(state, instance)
    stack = card.slots[advancement.slot]
    if advancement.eclipse and stack and isinstance(stack[-1], int):
        stack.insert(0, instance)
    else:
        stack.append(instance)


def targets(state: State, seat: int) -> list[int]:
    """The cards bought advancements may be sleeved into: the field's (and, in Nightvale
    Agent's final Harvest, the discard pile's too)."""
    player = state.players[seat]
    return [*player.field, *player.discard] if state.final else list(player.field)


def homes(state: State, seat: int, instance: int, *, over_land: bool = False) -> list[int]:
    """The cards an advancement could be sleeved into."""
    advancement = advancement_of(state, instance)
    return [
        c
        for c in targets(state, seat)
        if slot_takes(state, state.card(c), advancement, over_land=over_land)
    ]


def all_fit(state: State, seat: int, instances: list[int], *, over_land: bool = False) -> bool:
    """Whether these advancements can all be sleeved into the field at once (no two into
    the same slot of one card)."""
    field = targets(state, seat)
    advancements = [advancement_of(state, i) for i in instances]

    def place(k: int, used: frozenset[tuple[int, str]]) -> bool:
        if k == len(advancements):
            return True
        adv = advancements[k]
        return any(
            place(k + 1, used | {(c, adv.slot)})
            for c in field
            if (c, adv.slot) not in used
            and slot_takes(state, state.card(c), adv, over_land=over_land)
        )

    return place(0, frozenset())
