"""Card text, generated from the card data so it always says what the engine does.

One notation everywhere: a count, then the symbol's word, the symbols joined by " · "
("2 mana · 1 decay · 1 sky"). The words: mana, decay, growth, sky, animal, water,
plant, guardian(s), VP (VP tokens), curse(s) (curse tokens) and end VP (points at the
end of the game). A cost uses the same notation ("4 mana · 2 VP": VP and curse tokens
one holds are spent).

Card text is cached by card id; a cached line is reused only for the very same card
object, so a moderator's pack with a card of the same name gets its own text.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.mystic_vale.cards import (
    DIFFICULTY,
    SPECIALS,
    Ability,
    AddToPool,
    Advancement,
    CannotSpoil,
    Claim,
    ClaimVp,
    Cost,
    DiscardField,
    ExtraTurn,
    FreeBuy,
    Gain,
    Leader,
    LeaderSide,
    LoseVp,
    NemesisCard,
    Op,
    Per,
    Reserve,
    Ritual,
    Search,
    ShedCurses,
    Special,
    Stay,
    Symbols,
    Tax,
    Vale,
)

SEPARATOR = " · "

# (singular, plural) of each symbol's word, in the order they are written.
SYMBOL_WORDS: dict[str, tuple[str, str]] = {
    "mana": ("mana", "mana"),
    "decay": ("decay", "decay"),
    "growth": ("growth", "growth"),
    "sky": ("sky", "sky"),
    "animal": ("animal", "animal"),
    "water": ("water", "water"),
    "plant": ("plant", "plant"),
    "guardian": ("guardian", "guardians"),
    "vp": ("VP", "VP"),
    "curse": ("curse", "curses"),
    "end_vp": ("end VP", "end VP"),
}

TIMING_WORDS = {
    "planting": "Before you push",
    "played": "When played",
    "revealed": "When revealed",
    "harvest": "Harvest",
    "bought": "When bought",
    "field": "While in field",
    "spoiled": "When you Spoil",
    "discard": "Discard Phase",
    "end": "End of game",
}
ASIDE_FIELD = "Always"  # an upgraded titan's standing effect (it stands beside the field)

SACRIFICED = {"self": "this card", "advancement": "an advancement", "vale": "a vale"}
ADVANCEMENT_PLACES = ("left", "centre", "right")
VALE_PLACES = ("1st", "2nd", "3rd", "4th")


def _count(name: str, n: int) -> str:
    one, many = SYMBOL_WORDS[name]
    return f"{n} {one if abs(n) == 1 else many}"


def listed(words: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def counts_text(counts: Mapping[str, int]) -> str:
    """Counts of symbols by name: '2 mana · 1 decay · 1 sky' ('' for none)."""
    return SEPARATOR.join(_count(k, counts[k]) for k in SYMBOL_WORDS if counts.get(k))


def symbols_text(symbols: Symbols) -> str:
    """'2 mana · 1 decay · 1 sky' ('' when the card shows nothing)."""
    return counts_text(symbols.counts())


def cost_text(cost: Cost) -> str:
    """'4 mana · 2 VP', in the symbols' notation ('free' when it costs nothing)."""
    return counts_text(cost.counts()) or "free"


def _per(per: Per) -> str:
    if per.count == "vales":
        return "per vale you hold"
    if per.count == "curses":
        return "per curse token you hold"
    assert per.symbol is not None
    return f"per {per.symbol} {'on this card' if per.where == 'card' else 'in your field'}"


def place_name(claim: Claim) -> str:
    """Where a claim takes from, in words: "the right level-1 advancement"."""
    if claim.kind == "advancement":
        where = ADVANCEMENT_PLACES[claim.position]
        return f"the {where} level-{claim.level} advancement"
    return f"the {VALE_PLACES[claim.position]} level-{claim.level} vale"


def special_text(name: str) -> str:
    """What a special rule does, without the card name its description starts with."""
    _, _, what = SPECIALS[name].partition(": ")
    return what


def _clause(op: Op) -> str:
    """The op as a clause to follow 'Harvest: ' or 'you may ' (no capital, no period)."""
    match op:
        case Gain(per=None):
            return f"gain {symbols_text(op.symbols)}"
        case Gain(per=per):
            return f"gain {symbols_text(op.symbols)} {_per(per)}"
        case ShedCurses():
            tokens = "curse token" if op.amount == 1 else "curse tokens"
            per = f" {_per(op.per)}" if op.per else ""
            return f"return to the pool up to {op.amount} {tokens}{per}"
        case Reserve():
            return "Reserve an advancement of the commons"
        case FreeBuy(source="deck_top"):
            leave = ", or leave it" if op.may_decline else ""
            return f"buy the top card of the level-{op.level} {op.kind} deck free{leave}"
        case FreeBuy():
            return f"buy a level-{op.level} {op.kind} of the commons free"
        case ExtraTurn():
            return "take another turn after this one"
        case AddToPool():
            return f"add {op.amount} VP from the box to the pool"
        case DiscardField(which="rightmost_two"):
            return "discard your rightmost or second-rightmost field card"
        case DiscardField():
            return "discard a card of your field"
        case CannotSpoil():
            return "you cannot Spoil"
        case Stay():
            return "keep this card in your field, leftmost, for your next turn"
        case Search():
            return (
                f"place a card costing {op.max_cost} or less in all from your deck or "
                "discard pile at the end of your field"
            )
        case Claim():
            return f"the nemesis claims {place_name(op)}"
        case ClaimVp():
            return f"the nemesis claims {op.amount} VP"
        case Tax(mana=mana) if mana:
            return f"lose {mana} mana of your Harvest"
        case Tax():
            spirits = "spirit symbol" if op.spirits == 1 else "spirit symbols"
            return f"cancel {op.spirits} {spirits} of your Harvest (your choice)"
        case LoseVp():
            return f"discard {op.amount} VP"
        case Special():
            return special_text(op.name)
    raise ValueError(f"no text for {op!r}")


def _sentence(clause: str) -> str:
    return f"{clause[:1].upper()}{clause[1:]}."


def op_text(op: Op) -> str:
    """One sentence for one operation."""
    return _sentence(_clause(op))


def _may(clause: str, payment: str = "") -> str:
    """'you may ...', after the condition a clause opens with ('with 6+ curse tokens, ')."""
    condition = ""
    if clause.startswith(("with ", "if ")) and ", " in clause:
        condition, _, clause = clause.partition(", ")
        condition += ", "
    return f"{condition}you may {payment}{clause}"


def ability_text(ability: Ability, *, aside: bool = False) -> str:
    """'Harvest: you may pay 3 mana to gain 2 VP.' (`aside`: the ability of an upgraded
    titan, which stands beside the play area, so a standing effect always applies)."""
    head = ASIDE_FIELD if aside and ability.when == "field" else TIMING_WORDS[ability.when]
    body = "; ".join(_clause(op) for op in ability.ops)
    payments = []
    # a special whose description begins with what it spends says its cost itself
    states_cost = len(ability.ops) == 1 and body.startswith("spend ")
    if ability.cost is not None and not states_cost:
        payments.append(f"pay {cost_text(ability.cost)}")
    if ability.sacrifice is not None:
        payments.append(f"sacrifice {SACRIFICED[ability.sacrifice]}")
    if payments:
        body = _may(body, f"{' and '.join(payments)} to ")
    elif ability.chosen:
        body = _may(body)
    if ability.not_on_turn_bought:
        body += " (not the turn you buy it)"
    if ability.around_tokens:
        body += " (before or after your tokens)"
    if ability.hourglass:
        head = f"{head} (from ⌛{ability.hourglass})"
    return f"{head}: {body}."


def use_text(ability: Ability) -> str:
    """What using an ability its owner may use does, its payment first: "Pay 3 mana:
    gain 2 VP", "Return to the pool up to 1 curse token"."""
    body = "; ".join(_clause(op) for op in ability.ops)
    states_cost = len(ability.ops) == 1 and body.startswith("spend ")
    payments = []
    if ability.cost is not None and not states_cost:
        payments.append(f"pay {cost_text(ability.cost)}")
    if ability.sacrifice is not None:
        payments.append(f"sacrifice {SACRIFICED[ability.sacrifice]}")
    said = f"{' and '.join(payments)}: {body}" if payments else body
    return said[:1].upper() + said[1:]


def ritual_text(ritual: Ritual) -> str:
    """'Ritual: if this card shows 1 guardian, then also 1 mana · 1 guardian.'"""
    return (
        f"Ritual: if this card shows {symbols_text(ritual.requires)}, "
        f"then also {symbols_text(ritual.rewards)}."
    )


def _shows(symbols: Symbols) -> list[str]:
    text = symbols_text(symbols)
    return [f"Shows {text}."] if text else []


def _advancement_text(card: Advancement) -> str:
    kind = "Fertile Soil" if card.fertile_soil else "Advancement"
    head = f"{kind}, level {card.level}, {card.slot} slot. Cost {cost_text(card.cost)}."
    return f"{head} {what_it_does(card)}"


def _vale_text(card: Vale) -> str:
    return f"Vale, level {card.level}. Cost {cost_text(card.cost)}. {what_it_does(card)}"


def what_it_does(card: Advancement | Vale) -> str:
    """A card's text after what it is (kind, level, slot, cost): what it shows and does,
    as a menu gives it under a label that names the rest."""
    parts = _shows(card.symbols)
    if isinstance(card, Advancement) and card.eclipse:
        parts.append("Eclipse: may be covered, never covers.")
    if isinstance(card, Advancement) and card.ritual is not None:
        parts.append(ritual_text(card.ritual))
    return " ".join([*parts, *_abilities_and_players(card)]) or "Shows nothing."


def _abilities_and_players(card: Advancement | Vale) -> list[str]:
    """A card's abilities, then the players it needs (with fewer, it leaves the commons)."""
    parts = [ability_text(a) for a in card.abilities]
    if card.min_players > 1:
        parts.append(f"With fewer than {card.min_players} players, boxed and replaced.")
    return parts


def _nemesis_text(card: NemesisCard) -> str:
    parts = [f"Nemesis, {DIFFICULTY[card.pips]} ({card.pips} of 4), power {card.power}."]
    parts += _shows(card.symbols)
    parts += [
        f"From ⌛{d.hourglass}: {_count('decay', d.decay)} more." for d in card.hourglass_decay
    ]
    parts += [ability_text(a, aside=True) for a in card.abilities]
    return " ".join(parts)


def side_text(leader: Leader, *, upgraded: bool) -> str:
    """One side of a leader: its upgrade cost (starting side), symbols and abilities."""
    side: LeaderSide = leader.upgraded if upgraded else leader.start
    kind = "Titan" if leader.titan else "Leader"
    if upgraded:
        where = ", beside your play area" if leader.titan else ""
        parts = [f"{kind}, upgraded{where}."]
    else:
        assert side.upgrade is not None
        upgrade = cost_text(side.upgrade)
        if side.vp_replaces:
            upgrade += f" (each VP spent stands for 1 {side.vp_replaces})"
        parts = [f"{kind}, starting side. Upgrade {upgrade}."]
    parts += _shows(side.symbols)
    aside = upgraded and leader.titan
    parts += [ability_text(a, aside=aside) for a in side.abilities]
    return " ".join(parts)


def _leader_text(card: Leader) -> str:
    return f"{side_text(card, upgraded=False)}\n{side_text(card, upgraded=True)}"


Card = Advancement | Vale | Leader | NemesisCard
_CACHE: dict[tuple[str, str], tuple[Card, str]] = {}


def card_text(card: Card) -> str:
    """A card's rules text: what it is, its cost and symbols, what it does. A leader's
    text is two lines, its starting side then its upgraded side. A nemesis' "(from ⌛n)":
    once the hourglass is on the n-th space of the corruption track, or past it."""
    key = (type(card).__name__, card.id)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is card:
        return hit[1]
    if isinstance(card, Advancement):
        text = _advancement_text(card)
    elif isinstance(card, Vale):
        text = _vale_text(card)
    elif isinstance(card, NemesisCard):
        text = _nemesis_text(card)
    else:
        text = _leader_text(card)
    _CACHE[key] = (card, text)
    return text
