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


def _troop_phrase(op: TroopTarget, owner: str) -> str:
    words = [owner]
    if op.drained is True:
        words.append("drained")
    elif op.drained is False:
        words.append("non-drained")
    words.append(op.troop_type or "Troop")
    if op.troop_type:
        words.append("Troop")
    phrase = " ".join(words)
    if op.zone == "command":
        phrase += " in a Command Zone" if owner == "an opposing" else " in your Command Zone"
    elif op.zone == "war":
        phrase += " in a War Zone" if owner == "an opposing" else " in your War Zone"
    if op.max_strength is not None:
        phrase += f" with Strength {op.max_strength} or less"
    return phrase


def op_text(op: Op) -> str:
    """One sentence for one operation."""
    match op:
        case Damage(amount=n):
            return f"Deal {n} damage to the opposing player's deck."
        case Mill(amount=n):
            return (
                f"The opposing player puts the top {_cards(n)} of their deck on their discard pile."
            )
        case Draw(amount=n):
            return f"Draw {_cards(n)}."
        case GainAP(amount=n):
            return f"Gain {n} Action Point{'s' if n > 1 else ''} (never more than 5)."
        case DiscardRandom(amount=n):
            return f"The opposing player discards {_cards(n)} at random."
        case DiscardChoice(amount=n):
            return f"The opposing player discards {_cards(n)} of their choice."
        case Destroy():
            return f"Destroy {_troop_phrase(op, 'an opposing')}."
        case ReturnToHand():
            return f"Return {_troop_phrase(op, 'an opposing')} to its owner's hand."
        case DrainTroop():
            return f"Drain {_troop_phrase(op, 'an opposing')}."
        case RechargeTroop():
            return f"Recharge another {_troop_phrase(op, 'of your').removeprefix('of your ')}."
        case Relocate():
            phrase = _troop_phrase(op, "of your").removeprefix("of your ")
            return f"Move another {phrase} of yours to your other zone."
        case Deploy(troop_type=t):
            kind = f"an {t} Troop" if t == "Arcane" else f"a {t} Troop" if t else "a Troop"
            return f"Play {kind} from your hand into your War Zone at no cost."
        case Search(faction=f, troop_type=t):
            which = {"own": "of your faction", "other": "not of your faction", "any": ""}[f]
            kind = f"{t} Troop" if t else "Troop"
            return " ".join(
                f"Search your deck for a {kind} {which}, put it in your hand, then shuffle.".split()
            )
        case Reclaim(troop_type=t):
            kind = f"if it is a {t} Troop" if t else ""
            return " ".join(f"Put the top card of your discard pile into your hand {kind}.".split())
        case Mend(amount=n):
            return f"Put the top {_cards(n)} of your discard pile on the bottom of your deck."
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
