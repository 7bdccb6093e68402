"""Card text, generated from effect data so it always says what the engine does."""

from __future__ import annotations

from functools import cache

from rules.command_of_nature.cards import (
    AddTokens,
    AttackBonus,
    AttackProfile,
    ChooseOne,
    ClearDamage,
    CommandCard,
    Condition,
    Damage,
    Draw,
    Effect,
    ElementalCard,
    FactionAction,
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
    Trigger,
)

ROMAN = {1: "I", 2: "II", 3: "III"}
KIND_NAME = {
    "sage": "Sage",
    "champion": "Champion",
    "basic": "Basic Elemental",
    "warrior": "Warrior",
}


def row_names(rows: tuple[int, ...], word: str = "Row") -> str:
    """'Row I', 'Row I or II', 'Row I, II or III'."""
    names = [ROMAN[r] for r in rows]
    if len(names) == 1:
        return f"{word} {names[0]}"
    return f"{word} {', '.join(names[:-1])} or {names[-1]}"


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"a {word}"
    return f"{n} {word}s"


def _elementals(faction: str | None, kind: str | None) -> str:
    words = [w for w in (faction and faction.capitalize(), kind and kind.capitalize()) if w]
    return " ".join([*words, "Elementals"])


def target_text(t: Target) -> str:
    """A noun phrase for a target."""
    named = {
        "self": "this Elemental",
        "own_sage": "your Sage",
        "attacker": "the attacking Elemental",
        "defender": "the attacked Elemental",
        "subject": "that Elemental",
        "same": "it",
    }
    if t.pick in named:
        return named[t.pick]
    noun = _elementals(t.faction, t.kind)
    if t.pick == "one":
        head = f"one of your {noun}" if t.side == "own" else f"one enemy {noun[:-1]}"
    elif t.pick == "up_to":
        head = (
            f"up to {t.count} of your {noun}"
            if t.side == "own"
            else f"up to {t.count} enemy {noun}"
        )
    else:
        head = f"each of your {noun}" if t.side == "own" else f"each enemy {noun[:-1]}"
    if t.rows:
        head += f" in {row_names(t.rows)}"
    if t.connected_to:
        head += " connected to " + ("this Elemental" if t.connected_to == "self" else "your Sage")
    others = {"self": "this one", "defender": "the attacked one", "subject": "that one"}
    others["own_sage"] = "your Sage"
    if t.exclude:
        head += " other than " + " and ".join(others[x] for x in t.exclude)
    return head


def _previous_noun(prev: Op | None) -> str:
    if isinstance(prev, RemoveTokens):
        return f"{prev.token} removed"
    if isinstance(prev, MoveCards):
        return "cards discarded" if prev.to == "discard" else "cards moved"
    return "cards moved"


def amount_text(a: Scaled, prev: Op | None) -> str:
    """A noun phrase for a counted amount: 'twice the number of shields removed'."""
    if a.per == "own_sage_row":
        values = ", ".join(f"{max(0, a.times * r + a.plus)} in Row {ROMAN[r]}" for r in (1, 2, 3))
        return f"a number set by your Sage's row ({values})"
    base = {
        "previous": f"the number of {_previous_noun(prev)}",
        "self_str": "this Elemental's STR",
        "self_damage": "the number of damage counters on this Elemental",
        "self_shields": "the number of shields on this Elemental",
        "connected": f"the number of {(a.faction or '').capitalize()} Elementals connected to it",
    }[a.per]
    if a.times == 2:
        base = f"twice {base}"
    elif a.times != 1:
        base = f"{a.times} times {base}"
    if a.plus > 0:
        base += f" plus {a.plus}"
    elif a.plus < 0:
        base += f" minus {-a.plus}"
    return base


def _condition(c: Condition) -> str:
    return {
        "self_has_boosts": "if this Elemental has a boost",
        "self_has_shields": "if this Elemental has a shield",
        "subject_faction": f"if that Elemental is a {(c.faction or '').capitalize()} Elemental",
        "attacker_basic": "if the attacking Elemental is a Basic Elemental",
        "defender_defeated": "if the attacked Elemental was defeated",
    }[c.test]


def _lower_first(s: str) -> str:
    return s[:1].lower() + s[1:]


def _tokens(op: AddTokens, prev: Op | None) -> str:
    word = op.token[:-1]
    where = target_text(op.target)
    if isinstance(op.amount, Scaled):
        return f"Put {op.token} equal to {amount_text(op.amount, prev)} on {where}."
    return f"Put {_plural(op.amount, word)} on {where}."


def _move_cards(op: MoveCards) -> str:
    thing = {"any": "card", "elemental": "Elemental", "command": "Command"}[op.card]
    if op.at_least == op.up_to:
        count = (
            _plural(op.up_to, thing)
            if op.up_to > 1
            else f"{'an' if thing[0] in 'AEI' else 'a'} {thing}"
        )
    else:
        count = f"up to {op.up_to} {thing}s" if op.up_to > 1 else f"up to one {thing}"
        if op.at_least:
            count = f"{op.at_least} to {op.up_to} {thing}s"
    if op.pile == "hand":
        return f"Discard {count}." if op.to == "discard" else f"Put {count} from your hand {op.to}."
    dest = {
        "hand": "into your hand",
        "deck_top": "on top of your deck",
        "formation": "into your formation (frontmost row with an empty space)",
    }[op.to]
    return f"Put {count} from your discard pile {dest}."


def op_text(op: Op, prev: Op | None = None) -> str:
    """One sentence for one operation (prev: the op just before, for 'the number of')."""
    text = _op_sentence(op, prev)
    if op.when is not None:
        cond = _condition(op.when)
        text = f"{cond[:1].upper()}{cond[1:]}, {_lower_first(text)}"
    return text


def _op_sentence(op: Op, prev: Op | None) -> str:
    match op:
        case GainGold(amount=Scaled() as a):
            return f"Gain gold equal to {amount_text(a, prev)}."
        case GainGold(amount=n):
            return f"Gain {n} gold."
        case Draw(amount=n):
            return "Draw a card." if n == 1 else f"Draw {n} cards."
        case AddTokens():
            return _tokens(op, prev)
        case RemoveTokens(up_to=None):
            return f"Remove all {op.token} from {target_text(op.target)}."
        case RemoveTokens(at_least=lo, up_to=hi):
            return f"Remove {lo} to {hi} {op.token} from {target_text(op.target)}."
        case Damage(amount=Scaled() as a):
            return f"Deal DMG equal to {amount_text(a, prev)} to {target_text(op.target)}."
        case Damage(amount=n):
            return f"Deal {n} DMG to {target_text(op.target)}."
        case ClearDamage():
            return f"Remove all damage counters from {target_text(op.target)}."
        case MoveCards():
            return _move_cards(op)
        case MoveElemental(cost=True):
            where = "hand" if op.to == "hand" else "discard pile"
            return (
                f"First put {target_text(op.target)} (not a Sage) into its owner's {where}; "
                "without one to put there, this can't be used."
            )
        case MoveElemental(to="hand"):
            return f"Return {target_text(op.target)} to your hand."
        case MoveElemental():
            return f"Put {target_text(op.target)} into your discard pile."
        case Swap() if op.first == op.second:
            whose = "of your Elementals" if op.first.side == "own" else "enemy Elementals"
            return f"Swap any two {whose}."
        case Swap():
            return f"Swap {target_text(op.first)} with {target_text(op.second)}."
        case AttackBonus(amount=Scaled() as a):
            return f"The attack deals extra DMG equal to {amount_text(a, prev)}."
        case AttackBonus(amount=n):
            return f"The attack deals {n} more DMG."
        case ReduceDamage(amount=None):
            return "That attack deals 0 DMG."
        case ReduceDamage(amount=n):
            return f"That attack deals {n} less DMG."
        case TakeDamageInstead(swap=True):
            return "Swap this Elemental with that one; this Elemental takes that DMG instead."
        case TakeDamageInstead():
            return "This Elemental takes that DMG instead."
        case PlayFromDiscard():
            return "Play an Attack Command from your discard pile as if from your hand."
        case RedistributeShields():
            return (
                "Remove every shield from your formation, then put the same number back "
                "on your Elementals, split as you like."
            )
        case KeepBoosts():
            return "This Elemental keeps its boosts after it attacks."
        case ChooseOne():
            options = [
                "; ".join(_lower_first(s).rstrip(".") for s in _sentences(o)) for o in op.options
            ]
            return "Choose one: " + "; or ".join(options) + "."
    raise ValueError(f"no text for {op!r}")


def _sentences(ops: tuple[Op, ...]) -> list[str]:
    out = []
    prev: Op | None = None
    for op in ops:
        out.append(op_text(op, prev))
        prev = op
    return out


def effect_text(ops: tuple[Op, ...]) -> str:
    """The sentences of an op list, in order."""
    return " ".join(_sentences(ops))


def _subject(t: Trigger) -> str:
    if t.who == "self":
        return "this Elemental"
    noun = _elementals(t.faction, None)
    head = f"another of your {noun}" if t.who == "other" else f"one of your {noun}"
    if t.on in ("enters_formation", "leaves_formation") and not t.faction:
        head = "another Elemental" if t.who == "other" else "an Elemental"
    if t.subject_rows and t.on != "enters_row":
        head += f" in {row_names(t.subject_rows)}"
    if t.connected_to_self:
        head += " connected to this one"
    return head


def trigger_text(t: Trigger) -> str:
    """The lead-in of an effect: 'Daybreak:', 'When ... :'."""
    if t.on == "daybreak":
        return "Daybreak:"
    if t.on == "static":
        return ""
    if t.on == "would_be_defeated":
        return "If this Elemental would be defeated, instead:"
    who = _subject(t)
    attack = f" with a {t.attack} attack" if t.attack else ""
    verb = {
        "enters_formation": "joins your formation",
        "leaves_formation": "leaves your formation",
        "enters_row": f"moves into your {row_names(t.subject_rows)}" if t.subject_rows else "",
        "attacks": f"makes a {t.attack} attack" if t.attack else "attacks",
        "is_attacked": f"is attacked{attack}",
        "deals_attack_damage": "deals DMG with an attack",
        "defeats": "defeats an enemy Elemental",
        "would_take_damage": "would take DMG",
        "receives_shields": "gets shields",
        "loses_shields": "loses its shields",
    }[t.on]
    lead = "After" if t.on == "deals_attack_damage" else "When"
    optional = " (optional)" if t.optional else ""
    return f"{lead} {who} {verb}{optional}:"


def elemental_effect_text(effect: Effect) -> str:
    head = trigger_text(effect.trigger)
    body = effect_text(effect.ops)
    return f"{head} {body}" if head else body


def _attack_text(a: AttackProfile) -> str:
    dmg = "its STR"
    if a.str_modifier > 0:
        dmg += f" plus {a.str_modifier}"
    elif a.str_modifier < 0:
        dmg += f" minus {-a.str_modifier}"
    if a.range == "melee":
        return (
            "Melee: your Elemental in Row I attacks the enemy Elemental in Row I "
            f"for DMG equal to {dmg}."
        )
    who = f"one of your Elementals in {row_names(a.attacker_rows)}"
    many = "an enemy Elemental" if a.targets == 1 else f"up to {a.targets} enemy Elementals"
    if a.distance:
        pairs = [
            f"your Row {ROMAN[r]} to their Row {ROMAN[a.distance + 1 - r]}"
            for r in a.attacker_rows
            if 1 <= a.distance + 1 - r <= 3
        ]
        where = f"{a.distance} rows away ({', or '.join(pairs)})"
    elif a.target_rows:
        where = f"in {row_names(a.target_rows)}"
    else:
        where = "in any row"
    each = " each" if a.targets > 1 else ""
    return f"Ranged: {who} attacks {many} {where} for DMG equal to {dmg}{each}."


def _responds_text(card: CommandCard) -> str:
    f = card.responds_to
    assert f is not None
    noun = "one of your " + _elementals(f.faction, None)
    attack = f" with a {f.attack} attack" if f.attack else ""
    return f"Play when {noun} is attacked{attack}:"


@cache
def card_text(card: ElementalCard | CommandCard) -> str:
    """A card's full rules line: what it is, its numbers (⚔ STR, ♥ HP; the gold it
    costs in a market) and what it does."""
    price = "" if card.in_sage_pack else f" · {card.cost} gold"  # Sage-pack cards aren't sold
    if isinstance(card, ElementalCard):
        kind = KIND_NAME[card.kind]
        level = f" (level {card.champion_level})" if card.champion_level else ""
        head = f"{card.faction.capitalize()} {kind}{level} · ⚔{card.strength} ♥{card.hp}{price}"
        if not card.effects:
            return f"{head} — No effect."
        effects = " ".join(elemental_effect_text(e) for e in card.effects)
        where = "Any row" if card.rows == (1, 2, 3) else row_names(card.rows)
        return f"{head} — {where}: {effects}"
    faction = "" if card.faction == "neutral" else f"{card.faction.capitalize()} "
    head = f"{faction}{card.type.capitalize()} Command{price}"
    parts: list[str] = []
    if card.attack:
        parts.append(_attack_text(card.attack))
    if card.responds_to:
        parts.append(_responds_text(card))
    if card.ritual:
        need = card.ritual
        noun = (
            f"{need.faction.capitalize()} Elementals"
            if need.faction
            else "Elementals of one faction"
        )
        parts.append(f"Needs {need.count} connected {noun} in your formation.")
    if card.effect:
        parts.append(effect_text(card.effect))
    if card.after:
        parts.append("After the attack: " + effect_text(card.after))
    return f"{head} — {' '.join(parts)}"


@cache
def faction_action_text(action: FactionAction) -> str:
    """A faction action's line: 'Cedar, level 4 (1 AP): ...'."""
    return f"{action.sage}, level {action.level} (1 AP): {effect_text(action.ops)}"
