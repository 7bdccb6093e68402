"""What a card shows: the symbols of everything in its slots and of its leader, and the
rewards of the rituals its requirements fulfil.

- A slot's layers are bottom first; what an advancement covers no longer counts, except
  an eclipse advancement under another one, which keeps everything but its end-of-game
  VP (the rulebook: a covered eclipse's end of game VP "is not worth any points"). A
  Cursed Land covered by an advancement (Stormbrew Titan) is no longer on the card.
- A ritual is fulfilled when the card shows every symbol it requires, counting what the
  card shows outside rituals: requirement symbols are never present, and no ritual's
  reward helps fulfil a ritual of the same card. A fulfilled ritual's rewards are
  present on the card; the same symbols may fulfil two rituals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cache, lru_cache

from rules.mystic_vale.cards import SLOTS, Advancement, LeaderSide, Pack, Symbols, get_pack
from rules.mystic_vale.state import CURSED_LAND, FERTILE_SOIL, Card, State

PRINTED = {CURSED_LAND: Symbols(decay=1, mana=1), FERTILE_SOIL: Symbols(mana=1)}


def pack_of(state: State) -> Pack:
    return get_pack(state.pack)


@cache
def _counts(pack: str) -> dict[str, dict[str, int]]:
    """Each advancement's symbols by card id, and each leader side's ("id:start",
    "id:upgraded"), counted once per pack."""
    cards = get_pack(pack)
    found = {a.id: a.symbols.counts() for a in cards.advancements}
    for leader in cards.leaders:
        found[f"{leader.id}:start"] = leader.start.symbols.counts()
        found[f"{leader.id}:upgraded"] = leader.upgraded.symbols.counts()
    return found


_PRINTED_COUNTS = {k: v.counts() for k, v in PRINTED.items()}


def advancement_of(state: State, instance: int) -> Advancement:
    """The advancement an instance is."""
    return pack_of(state).advancement(state.cards[instance])


def layers(state: State, card: Card) -> list[tuple[int | str, bool]]:
    """Everything in the card's slots that still counts, with whether it is covered."""
    found: list[tuple[int | str, bool]] = []
    for slot in SLOTS:
        stack = card.slots[slot]
        for depth, layer in enumerate(stack):
            covered = depth < len(stack) - 1
            if covered and (isinstance(layer, str) or not advancement_of(state, layer).eclipse):
                continue  # covered: a printed land (Stormbrew), or never an advancement
            found.append((layer, covered))
    return found


def advancements_on(state: State, card: Card) -> list[int]:
    """The advancements sleeved into a card (covered eclipses included), top slot first."""
    return [layer for slot in SLOTS for layer in card.slots[slot] if isinstance(layer, int)]


def _base(state: State, card: Card) -> Counter[str]:
    """What the card shows outside rituals (a leader's symbols included)."""
    total: Counter[str] = Counter()
    known = _counts(state.pack)
    for layer, covered in layers(state, card):
        counts = _PRINTED_COUNTS[layer] if isinstance(layer, str) else known[state.cards[layer]]
        if covered and "end_vp" in counts:
            counts = {k: v for k, v in counts.items() if k != "end_vp"}
        total.update(counts)
    if card.leader is not None:
        player = state.players[card.owner]
        upgraded = card.upgraded or (card.leader == player.leader and player.leader_upgraded)
        total.update(known[f"{card.leader}:{'upgraded' if upgraded else 'start'}"])
    return total


def fulfilled(state: State, card: Card, base: Counter[str] | None = None) -> list[int]:
    """The advancements of the card whose ritual the card fulfils (`base`: what the card
    shows outside rituals, when the caller has it)."""
    base = _base(state, card) if base is None else base
    done = []
    for instance in advancements_on(state, card):
        ritual = advancement_of(state, instance).ritual
        if ritual is not None and all(base[k] >= v for k, v in ritual.requires.counts().items()):
            done.append(instance)
    return done


def nemesis_symbols(state: State) -> Counter[str]:
    """What the nemesis card shows now (solitaire): its decay (or growth), and its
    hourglass decay once the hourglass has reached it. It covers the card it is sleeved
    over: nothing else of that card counts."""
    assert state.nemesis is not None
    card = get_pack(state.pack).nemesis(state.nemesis.card)
    total = Counter(card.symbols.counts())
    for later in card.hourglass_decay:
        if later.hourglass <= state.nemesis.space:
            total["decay"] += later.decay
    return total


def shown(state: State, card: Card) -> Counter[str]:
    """Every symbol present on the card: its own, plus the rewards of fulfilled rituals
    (the nemesis card: its own symbols only).

    What a card shows depends only on what is in its slots (by card id) and its leader's
    side, so it is worked out once for each such card and remembered."""
    return Counter(_shown_on(state, card))


def _shown_on(state: State, card: Card) -> Mapping[str, int]:
    """What `shown` counts, as the mapping remembered for such a card: read it, never
    change it."""
    if card.nemesis is not None:
        return nemesis_symbols(state)
    instances = state.cards
    slots = tuple(
        tuple([instances[layer] if isinstance(layer, int) else layer for layer in card.slots[slot]])
        for slot in SLOTS
    )
    side = None
    if card.leader is not None:
        player = state.players[card.owner]
        upgraded = card.upgraded or (card.leader == player.leader and player.leader_upgraded)
        side = f"{card.leader}:{'upgraded' if upgraded else 'start'}"
    return _shown(state.pack, slots, side)


@lru_cache(maxsize=1 << 16)
def _shown(pack: str, slots: tuple[tuple[str, ...], ...], side: str | None) -> dict[str, int]:
    """What a card with these slots (card ids or printed marks) and leader side shows."""
    cards = get_pack(pack)
    known = _counts(pack)
    total: Counter[str] = Counter()
    present: list[str] = []
    for stack in slots:
        for depth, layer in enumerate(stack):
            covered = depth < len(stack) - 1
            if layer in _PRINTED_COUNTS:
                if not covered:
                    total.update(_PRINTED_COUNTS[layer])
                continue
            if covered and not cards.advancement(layer).eclipse:
                continue
            counts = known[layer]
            if covered and "end_vp" in counts:
                counts = {k: v for k, v in counts.items() if k != "end_vp"}
            total.update(counts)
            present.append(layer)
    if side is not None:
        total.update(known[side])
    base = Counter(total)
    for layer in present:
        ritual = cards.advancement(layer).ritual
        if ritual is not None and all(base[k] >= v for k, v in ritual.requires.counts().items()):
            total.update(ritual.rewards.counts())
    return dict(total)


def leader_side(state: State, card: Card) -> LeaderSide:
    """The side of the leader sleeved in this card that is face up."""
    leader = pack_of(state).leader(card.leader or "")
    player = state.players[card.owner]
    upgraded = card.upgraded or (card.leader == player.leader and player.leader_upgraded)
    return leader.upgraded if upgraded else leader.start


def field_total(state: State, seat: int) -> Counter[str]:
    """Every symbol present on the cards of a player's field."""
    total: Counter[str] = Counter()
    for card_id in state.players[seat].field:
        total.update(_shown_on(state, state.card(card_id)))
    return total


def decay_count(state: State, seat: int) -> int:
    """The decay that counts towards a Spoil: decay on the field and the on-deck card,
    less their growth (growth on the on-deck card counts too: the notes' default)."""
    player = state.players[seat]
    cards = [*player.field, *([player.on_deck] if player.on_deck is not None else [])]
    decay = growth = 0
    for card_id in cards:
        symbols = _shown_on(state, state.card(card_id))
        decay += symbols.get("decay", 0)
        growth += symbols.get("growth", 0)
    return max(0, decay - growth)


def is_blank(state: State, card: Card) -> bool:
    """A card with nothing in any slot and no leader (nor a nemesis over it)."""
    return card.leader is None and card.nemesis is None and not any(card.slots[s] for s in SLOTS)
