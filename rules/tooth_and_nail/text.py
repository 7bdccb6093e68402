"""Card text, generated from effect data so it always says what the engine does."""

from __future__ import annotations

from collections import Counter
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


def a_troop(troop_type: str | None) -> str:
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
            return f"You may play {a_troop(t)} from your hand into your War Zone at no cost."
        case Search(faction=f, troop_type=t):
            which = {"own": " of your faction", "other": " not of your faction", "any": ""}[f]
            return f"Search your deck for {a_troop(t)}{which}, put it in your hand, then shuffle."
        case Reclaim(troop_type=t):
            kind = f" if it is {a_troop(t)}" if t else ""
            return f"Put the top card of your discard pile into your hand{kind}."
        case Mend(amount=n):
            return f"Put {_top(n)} of your discard pile on the bottom of your deck."
    raise ValueError(f"no text for {op!r}")


def effect_text(ops: tuple[Op, ...]) -> str:
    """The sentences of an effect, in order."""
    return " ".join(op_text(op) for op in ops)


def troop_label(troop: TroopCard, *, shown: bool = False) -> str:
    """A Troop with its Troop Type and Strength, the one notation players read everywhere:
    "Cinder Cub (Arcane 1)" (`shown`: the name as players see it, marked when it is the
    project's own card)."""
    return f"{troop.shown_name if shown else troop.name} ({troop.type} {troop.strength})"


@cache
def troop_text(troop: TroopCard) -> str:
    """A Troop's Command Ability, in full (its Troop Type and Strength are shown beside
    its name, see `troop_label`)."""
    return f"Command Ability: {effect_text(troop.command)}"


def requirement(faction: Faction) -> str:
    """The Troop Types a Formation Attack drains: "Arcane + Tech + Tech"."""
    return " + ".join(faction.formation.requires)


@cache
def formation_text(faction: Faction) -> str:
    """The Formation Attack of a Faction Command card, with what it needs and does."""
    f = faction.formation
    bonus = f" +{f.bonus_damage}" if f.bonus_damage else ""
    then = f" Then: {effect_text(f.effect)}" if f.effect else ""
    return (
        f"{f.name} ({requirement(faction)}): 1 AP, drains non-drained War Zone Troops of "
        f"these Troop Types; they deal their combined Strength{bonus} in damage.{then}"
    )


@cache
def ability_text(faction: Faction) -> str:
    """The Faction Ability of a Faction Command card, with its cost and effect."""
    return (
        f"{faction.ability.name}: 0 AP, drains 2 non-drained Troops in your Command Zone. "
        f"{effect_text(faction.ability.effect)}"
    )


@cache
def faction_text(faction: Faction) -> str:
    """A Faction Command card: its Formation Attack and its Faction Ability."""
    return f"Formation Attack {formation_text(faction)} Faction Ability {ability_text(faction)}"


# --------------------------------------------------------------------------- in short


def listing(words: list[str]) -> str:
    """ "Ada", "Ada and Basil", "Ada, Basil and Cleo"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


NUMBERS = {2: "two", 3: "three", 4: "four"}  # copies of one Troop used together


def plural(troop: str) -> str:
    """A Troop's name, or its label, for several copies: "Pyre-Mane Chanters", "Emberhide
    Bruisers (Tech 3)"."""
    name, paren, rest = troop.partition(" (")
    ending = "es" if name.endswith(("s", "x", "z", "sh")) else "s"
    return f"{name}{ending}{paren}{rest}"


def troops_listed(troops: list[str]) -> str:
    """Troops used together, each name once with its copies counted (copies of a Troop
    are alike): "Cinder Cub and Emberhide Bruiser", "both Pyre-Mane Chanters", "Cinder
    Cub (Arcane 1) and two Emberhide Bruisers (Tech 3)"."""
    counts = Counter(troops)
    if len(counts) == 1 and len(troops) == 2:
        return f"both {plural(troops[0])}"
    return listing([t if n == 1 else f"{NUMBERS.get(n, n)} {plural(t)}" for t, n in counts.items()])


def possessive(who: str) -> str:
    """The possessive of a name: Basil's, the opponent's."""
    return f"{who}'s"


def short_troop(op: TroopTarget, own: bool) -> str:
    """A Troop an operation picks, in short: "an opposing drained Troop (Strength 2 or
    less)", "another War Zone Troop of yours"."""
    words = ["another" if own else "an opposing"]
    if op.drained is not None:
        words.append("drained" if op.drained else "non-drained")
    if op.zone != "any":
        words.append("Command Zone" if op.zone == "command" else "War Zone")
    words += [op.troop_type, "Troop"] if op.troop_type else ["Troop"]
    if own:
        words.append("of yours")
    if op.max_strength is not None:
        words.append(f"(Strength {op.max_strength} or less)")
    return " ".join(words)


def brief_op(op: Op, foe: str = "the opponent") -> str:
    """One operation in a few words, for menus and the faction draft; `foe` names whoever
    "the opposing player" is ("Basil", "each opponent")."""
    match op:
        case Damage(amount=n):
            return f"{n} damage to {possessive(foe)} deck"
        case Mill(amount=n):
            return f"{_cards(n)} off the top of {possessive(foe)} deck"
        case Draw(amount=n):
            return f"draw {_cards(n)}"
        case GainAP(amount=n):
            return f"+{n} AP"
        case DiscardRandom(amount=n):
            return f"{foe} discards {_cards(n)} at random"
        case DiscardChoice(amount=n):
            return f"{foe} discards {_cards(n)} of their choice"
        case Destroy():
            return f"destroy {short_troop(op, own=False)}"
        case ReturnToHand():
            return f"return {short_troop(op, own=False)} to its owner's hand"
        case DrainTroop():
            return f"drain {short_troop(op, own=False)}"
        case RechargeTroop():
            return f"recharge {short_troop(op, own=True)}"
        case Relocate():
            return f"move {short_troop(op, own=True)} to your other zone"
        case Deploy(troop_type=t):
            return f"deploy {a_troop(t)} from your hand for free"
        case Search(faction=f, troop_type=t):
            which = {"own": " of your faction", "other": " not of your faction", "any": ""}[f]
            return f"search your deck for {a_troop(t)}{which}"
        case Reclaim(troop_type=t):
            kind = f" if it is {a_troop(t)}" if t else ""
            return f"the top card of your discard pile to your hand{kind}"
        case Mend(amount=n):
            return f"{_cards(n)} from your discard pile under your deck"
    raise ValueError(f"no text for {op!r}")


def brief_effect(ops: tuple[Op, ...], foe: str = "the opponent") -> str:
    """An effect in a few words: its operations joined ("1 damage to Basil's deck, +1 AP"),
    one repeated at once counted ("drain an opposing Troop ×2")."""
    parts: list[tuple[str, int]] = []
    for op in ops:
        text = brief_op(op, foe)
        if parts and parts[-1][0] == text:
            parts[-1] = (text, parts[-1][1] + 1)
        else:
            parts.append((text, 1))
    return ", ".join(text if n == 1 else f"{text} ×{n}" for text, n in parts)


def brief_formation(faction: Faction, foe: str = "the opponent") -> str:
    """A Formation Attack in short: "War Screech (Arcane + Tech): combined Strength, then
    the opponent discards a card at random"."""
    f = faction.formation
    bonus = f" +{f.bonus_damage}" if f.bonus_damage else ""
    then = f", then {brief_effect(f.effect, foe)}" if f.effect else ""
    return f"{f.name} ({requirement(faction)}): combined Strength{bonus}{then}"


def brief_ability(faction: Faction, foe: str = "the opponent") -> str:
    """A Faction Ability in short: "Assimilation: search your deck for a Troop not of your
    faction"."""
    return f"{faction.ability.name}: {brief_effect(faction.ability.effect, foe)}"
