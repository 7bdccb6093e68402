"""Card text, generated from effect data so it always says what the engine does."""

from __future__ import annotations

from functools import cache

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
    TroopCard,
    TroopTarget,
)


def _cards(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"


def _a(troop_type: str | None) -> str:
    """'a Troop', 'a Tech Troop', 'an Arcane Troop'."""
    if not troop_type:
        return "a Troop"
    return f"{'an' if troop_type[0] in 'AEIOU' else 'a'} {troop_type} Troop"


def _top(n: int) -> str:
    return "the top card" if n == 1 else f"the top {n} cards"


def _troop_phrase(op: TroopTarget, lead: str, own: bool) -> str:
    """'an opposing drained Tech Troop in a War Zone with Strength 2 or less', or for
    the player's own Troops 'another Tech Troop of yours in your War Zone'."""
    words = [lead]
    if op.drained is not None:
        words.append("drained" if op.drained else "non-drained")
    words += [op.troop_type, "Troop"] if op.troop_type else ["Troop"]
    if own:
        words.append("of yours")
    if op.zone != "any":
        zone = "Command Zone" if op.zone == "command" else "War Zone"
        words.append(f"in your {zone}" if own else f"in a {zone}")
    if op.max_strength is not None:
        words.append(f"with Strength {op.max_strength} or less")
    return " ".join(words)


def op_text(op: Op) -> str:
    """One sentence for one operation."""
    match op:
        case Damage(amount=n):
            return f"Deal {n} damage to the opposing player's deck."
        case Mill(amount=n):
            return f"The opposing player puts {_top(n)} of their deck on their discard pile."
        case Draw(amount=n):
            return f"Draw {_cards(n)}."
        case GainAP(amount=n):
            return f"Gain {n} Action Point{'s' if n > 1 else ''}."
        case DiscardRandom(amount=n):
            return f"The opposing player discards {_cards(n)} at random."
        case DiscardChoice(amount=n):
            return f"The opposing player discards {_cards(n)} of their choice."
        case Destroy():
            return f"Destroy {_troop_phrase(op, 'an opposing', own=False)}."
        case ReturnToHand():
            return f"Return {_troop_phrase(op, 'an opposing', own=False)} to its owner's hand."
        case DrainTroop():
            return f"Drain {_troop_phrase(op, 'an opposing', own=False)}."
        case RechargeTroop():
            return f"Recharge {_troop_phrase(op, 'another', own=True)}."
        case Relocate():
            return f"Move {_troop_phrase(op, 'another', own=True)} to your other zone."
        case Deploy(troop_type=t):
            return f"You may play {_a(t)} from your hand into your War Zone at no cost."
        case Search(faction=f, troop_type=t):
            which = {"own": " of your faction", "other": " not of your faction", "any": ""}[f]
            return f"Search your deck for {_a(t)}{which}, put it in your hand, then shuffle."
        case Reclaim(troop_type=t):
            kind = f" if it is {_a(t)}" if t else ""
            return f"Put the top card of your discard pile into your hand{kind}."
        case Mend(amount=n):
            return f"Put {_top(n)} of your discard pile on the bottom of your deck."
    raise ValueError(f"no text for {op!r}")


def effect_text(ops: tuple[Op, ...]) -> str:
    """The sentences of an effect, in order."""
    return " ".join(op_text(op) for op in ops)


@cache
def troop_text(troop: TroopCard) -> str:
    """A Troop's rules line: type, Strength and Command Ability."""
    return f"{troop.type} · Strength {troop.strength} · Command: {effect_text(troop.command)}"


@cache
def faction_text(faction: Faction) -> str:
    """A Faction Command card: its Formation Attack and Faction Ability."""
    f = faction.formation
    needs = ", ".join(f.requires)
    bonus = f" +{f.bonus_damage} damage." if f.bonus_damage else ""
    return (
        f"{f.name} ({needs}):{bonus} {effect_text(f.effect)}".rstrip()
        + f" — {faction.ability.name} (drain 2 Command Zone Troops): "
        + effect_text(faction.ability.effect)
    )
