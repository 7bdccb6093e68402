"""The Command of Nature card pack: its schema, its effect vocabulary, and loading.

A pack is a TOML file of cards and faction actions. Every card is an Elemental
(Sage, Champion, Basic, Warrior) or a Command (Attack, Instant, Utility, Ritual).
What a card does is data: an Elemental has effects (a trigger plus a list of
operations), a Command has an effect list (and an Attack Command an attack
profile). The text players read is generated from that data (see `text.py`), so it
never drifts from what the engine runs.

Vocabulary, in one place:

Triggers (`Trigger.on`) -- all watch the owner's own formation, and fire only while
the card stands in one of its required `rows`:
  daybreak            Phase I, once per turn, if the card stood in a required row
                      when the turn began.
  static              always on; its ops are modifiers (only `keep_boosts`).
  enters_formation    an Elemental joins the formation (summoned, bought into it,
                      or brought in by an effect).
  leaves_formation    an Elemental leaves the formation (defeated, or moved to a pile).
  enters_row          an Elemental arrives in row `rows[0]` (summon, swap, shift).
  attacks             an Elemental is declared as the attacker of an Attack Command.
  is_attacked         an Elemental is the target of an attack (resolves before DMG,
                      so `reduce_damage` applies to that attack).
  deals_attack_damage an Elemental's attack put at least 1 damage counter on its target.
  defeats             an Elemental's attack defeated an enemy Elemental.
  would_take_damage   an Elemental is about to take DMG (replacement window).
  would_be_defeated   this Elemental is about to leave the game defeated (replacement).
  receives_shields    an Elemental gets one or more shields.
  loses_shields       an Elemental has its shields removed (any number).
  `who` says whose event counts: `self` (this card), `other` (another own Elemental)
  or `any` (any own Elemental, this one included); `faction`, `subject_rows`,
  `attack` and `connected_to_self` narrow it further. The Elemental the event is
  about is the *subject*.

Targets (`Target.pick`): self, own_sage, attacker, defender, subject, same
(the Elemental picked by the op just before), one / up_to (`count`) / each, with
`side`, `rows`, `faction`, `kind`, `exclude` and `connected_to` filters.

Operations (`op`): gain_gold, draw, add_tokens, remove_tokens, damage, clear_damage,
move_cards, move_elemental, swap, attack_bonus, reduce_damage, take_damage_instead,
play_from_discard, redistribute_shields, choose_one, keep_boosts. An op may carry a
`when` condition; amounts are a number or a `Scaled` count.
"""

from __future__ import annotations

import re
from functools import cache, cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    model_validator,
)

from rules.core.packs import PackRegistry, marked_name
from rules.core.packs import parse_pack as load_pack

BUNDLED_PACK = Path(__file__).with_name("pack.toml")

Faction = Literal["pebble", "droplet", "twig", "leaf", "neutral"]
ElementalFaction = Literal["pebble", "droplet", "twig", "leaf"]
FACTIONS: tuple[ElementalFaction, ...] = ("pebble", "droplet", "twig", "leaf")
Row = Annotated[int, Field(ge=1, le=3)]
Token = Literal["boosts", "shields"]
AttackKind = Literal["melee", "ranged"]
ElementalKind = Literal["sage", "champion", "basic", "warrior"]
CommandType = Literal["attack", "instant", "utility", "ritual"]
Source = Literal["facts", "project"]
CHAMPION_LEVELS = (4, 6, 8)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- amounts


class Scaled(_Model):
    """A number counted at resolution: `per` x `times` + `plus` (never below 0).

    per:
      previous      cards or tokens the op just before actually moved or removed
      self_str      this card's STR
      self_damage   damage counters on this card
      self_shields  shields on this card
      own_sage_row  the row your Sage stands in (1-3)
      connected     own Elementals of `faction` connected to the op's target
    """

    per: Literal["previous", "self_str", "self_damage", "self_shields", "own_sage_row", "connected"]
    times: int = Field(default=1, ge=-5, le=5)
    plus: int = Field(default=0, ge=-5, le=10)
    faction: ElementalFaction | None = None

    @model_validator(mode="after")
    def _faction_only_for_connected(self) -> Scaled:
        if (self.per == "connected") != (self.faction is not None):
            raise ValueError("faction is required for per='connected' and only there")
        return self


Amount = Annotated[int, Field(ge=0, le=12)] | Scaled


# ------------------------------------------------------------------------ conditions


class Condition(_Model):
    """A check made when the op resolves; if it fails the op is skipped.

    self_has_boosts / self_has_shields: this card has at least one.
    subject_faction: the trigger's subject is of `faction`.
    attacker_basic: the attacking Elemental is a Basic Elemental.
    defender_defeated: the attacked Elemental was defeated (only in `after` lists).
    """

    test: Literal[
        "self_has_boosts",
        "self_has_shields",
        "subject_faction",
        "attacker_basic",
        "defender_defeated",
    ]
    faction: ElementalFaction | None = None

    @model_validator(mode="after")
    def _faction(self) -> Condition:
        if (self.test == "subject_faction") != (self.faction is not None):
            raise ValueError("faction is required for test='subject_faction' and only there")
        return self


# --------------------------------------------------------------------------- targets


class Target(_Model):
    """Which Elemental(s) in play an op acts on.

    self, own_sage, attacker, defender (the attacked Elemental), subject (the
    trigger's subject), same (the Elemental the op just before picked) name one
    Elemental; one / up_to / each are chosen by the acting player among the
    Elementals on `side` that pass every filter (up_to: between 0 and `count`,
    distinct Elementals).
    """

    pick: Literal[
        "self", "own_sage", "attacker", "defender", "subject", "same", "one", "up_to", "each"
    ]
    side: Literal["own", "enemy"] = "own"
    rows: tuple[Row, ...] = ()  # empty: any row
    faction: ElementalFaction | None = None
    kind: Literal["basic"] | None = None
    exclude: tuple[Literal["self", "defender", "subject", "own_sage"], ...] = ()
    connected_to: Literal["self", "own_sage"] | None = None
    count: int | None = Field(default=None, ge=2, le=6)

    @model_validator(mode="after")
    def _filters_only_for_choices(self) -> Target:
        chosen = self.pick in ("one", "up_to", "each")
        filtered = bool(self.rows or self.faction or self.kind or self.exclude or self.connected_to)
        if not chosen and (filtered or self.side != "own"):
            raise ValueError(f"pick={self.pick!r} names one Elemental; filters are not allowed")
        if (self.pick == "up_to") != (self.count is not None):
            raise ValueError("count is required for pick='up_to' and only there")
        return self


# ------------------------------------------------------------------------ operations


class _Op(_Model):
    when: Condition | None = None


class GainGold(_Op):
    """The acting player gains gold (never above the cap)."""

    op: Literal["gain_gold"]
    amount: Amount


class Draw(_Op):
    """The acting player draws cards (reshuffling the discard pile when needed)."""

    op: Literal["draw"]
    amount: int = Field(ge=1, le=3)


class AddTokens(_Op):
    """Put boost or shield tokens on the target(s)."""

    op: Literal["add_tokens"]
    token: Token
    amount: Amount
    target: Target


class RemoveTokens(_Op):
    """Take boost or shield tokens off the target: all of them (up_to unset) or a
    number the player picks between at_least and up_to (a cost: with fewer than
    at_least the effect cannot be used). The number removed feeds `previous`."""

    op: Literal["remove_tokens"]
    token: Token
    target: Target
    at_least: int = Field(default=0, ge=0, le=3)
    up_to: int | None = Field(default=None, ge=1, le=3)


class Damage(_Op):
    """Put DMG on the target(s); shields reduce it and are then removed."""

    op: Literal["damage"]
    amount: Amount
    target: Target


class ClearDamage(_Op):
    """Remove every damage counter from the target."""

    op: Literal["clear_damage"]
    target: Target


class MoveCards(_Op):
    """Move between at_least and up_to cards of the acting player from `pile` to `to`.

    From hand, at_least is a cost: without that many cards in hand the effect cannot
    be used. From the discard pile the player moves at_least cards if the pile has
    them (else all that match) and may move more, up to up_to.
    to=formation places each Elemental in the frontmost row with an empty space
    (nothing moves without one). The number moved feeds Scaled `previous`."""

    op: Literal["move_cards"]
    pile: Literal["hand", "discard"]
    to: Literal["hand", "discard", "deck_top", "formation"]
    card: Literal["any", "elemental", "command"] = "any"
    at_least: int = Field(default=1, ge=0, le=6)
    up_to: int = Field(default=1, ge=1, le=6)

    @model_validator(mode="after")
    def _sane(self) -> MoveCards:
        if self.pile == self.to:
            raise ValueError("pile and to must differ")
        if self.at_least > self.up_to:
            raise ValueError("at_least is above up_to")
        if self.to == "formation" and self.card != "elemental":
            raise ValueError("only Elementals can move into the formation")
        return self


class MoveElemental(_Op):
    """Move an Elemental from the formation to its owner's discard pile or hand
    (it leaves the formation; it is not defeated and gives no level). A Sage never
    moves: it leaves the formation only by defeat. `cost`: a sacrifice the rest of the
    effect needs, so without an Elemental to move the effect cannot be used."""

    op: Literal["move_elemental"]
    target: Target
    to: Literal["discard", "hand"]
    cost: bool = False


class Swap(_Op):
    """Swap the positions of two Elementals of one formation (connection not needed)."""

    op: Literal["swap"]
    first: Target
    second: Target

    @model_validator(mode="after")
    def _same_side(self) -> Swap:
        if self.first.side != self.second.side:
            raise ValueError("both Elementals of a swap are in the same formation")
        return self


class AttackBonus(_Op):
    """The attack being made deals extra DMG (attack context only)."""

    op: Literal["attack_bonus"]
    amount: Amount


class ReduceDamage(_Op):
    """The attack being answered deals less DMG; amount unset: it deals 0 DMG."""

    op: Literal["reduce_damage"]
    amount: int | None = Field(default=None, ge=1, le=5)


class TakeDamageInstead(_Op):
    """Replacement (would_take_damage only): this card takes the DMG meant for the
    subject; with swap, the two also trade places first."""

    op: Literal["take_damage_instead"]
    swap: bool = False


class PlayFromDiscard(_Op):
    """Play a Command of `type` from the acting player's discard pile as if from hand
    (an attack made this way is the Elemental's attack for the turn)."""

    op: Literal["play_from_discard"]
    type: Literal["attack"]


class RedistributeShields(_Op):
    """Take every shield off the own formation, then put the same number back on own
    Elementals split as the acting player likes."""

    op: Literal["redistribute_shields"]


class KeepBoosts(_Op):
    """Static: this card keeps its boosts after attacking."""

    op: Literal["keep_boosts"]


class ChooseOne(_Op):
    """The acting player picks one option and resolves its ops."""

    op: Literal["choose_one"]
    options: tuple[tuple[Op, ...], ...] = Field(min_length=2, max_length=3)


Op = Annotated[
    GainGold
    | Draw
    | AddTokens
    | RemoveTokens
    | Damage
    | ClearDamage
    | MoveCards
    | MoveElemental
    | Swap
    | AttackBonus
    | ReduceDamage
    | TakeDamageInstead
    | PlayFromDiscard
    | RedistributeShields
    | KeepBoosts
    | ChooseOne,
    Field(discriminator="op"),
]
ChooseOne.model_rebuild()

OP_NAMES: tuple[str, ...] = (
    "gain_gold",
    "draw",
    "add_tokens",
    "remove_tokens",
    "damage",
    "clear_damage",
    "move_cards",
    "move_elemental",
    "swap",
    "attack_bonus",
    "reduce_damage",
    "take_damage_instead",
    "play_from_discard",
    "redistribute_shields",
    "keep_boosts",
    "choose_one",
)


def walk_ops(ops: tuple[Op, ...]):
    """Every op of a list, options of choose_one included."""
    for op in ops:
        yield op
        if isinstance(op, ChooseOne):
            for option in op.options:
                yield from walk_ops(option)


# -------------------------------------------------------------------------- triggers

TriggerOn = Literal[
    "daybreak",
    "static",
    "enters_formation",
    "leaves_formation",
    "enters_row",
    "attacks",
    "is_attacked",
    "deals_attack_damage",
    "defeats",
    "would_take_damage",
    "would_be_defeated",
    "receives_shields",
    "loses_shields",
]
_ATTACK_TRIGGERS = ("attacks", "is_attacked")
_SELF_ONLY = ("daybreak", "static", "would_be_defeated")


class Trigger(_Model):
    """When an Elemental's effect fires (see the module docstring)."""

    on: TriggerOn
    who: Literal["self", "other", "any"] = "self"
    faction: ElementalFaction | None = None
    subject_rows: tuple[Row, ...] = ()  # enters_row: the row entered; else the subject's row
    attack: AttackKind | None = None
    connected_to_self: bool = False
    optional: bool = False

    @model_validator(mode="after")
    def _sane(self) -> Trigger:
        if self.on in _SELF_ONLY and (
            self.who != "self" or self.faction or self.subject_rows or self.connected_to_self
        ):
            raise ValueError(f"on={self.on!r} takes no subject filters")
        if self.on == "enters_row" and len(self.subject_rows) != 1:
            raise ValueError("on='enters_row' needs exactly one row in subject_rows")
        if self.attack and self.on not in _ATTACK_TRIGGERS:
            raise ValueError("attack is only for on='attacks' or 'is_attacked'")
        return self


class Effect(_Model):
    """One effect of an Elemental: its trigger and its ops, in order."""

    trigger: Trigger
    ops: tuple[Op, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _static_ops(self) -> Effect:
        statics = [isinstance(op, KeepBoosts) for op in walk_ops(self.ops)]
        if (self.trigger.on == "static") != all(statics) or (
            self.trigger.on != "static" and any(statics)
        ):
            raise ValueError("keep_boosts is the static effect, and static effects hold only it")
        replacement = any(isinstance(op, TakeDamageInstead) for op in walk_ops(self.ops))
        if replacement and self.trigger.on != "would_take_damage":
            raise ValueError("take_damage_instead needs on='would_take_damage'")
        return self


# ----------------------------------------------------------------------------- cards


class _Card(_Model):
    name: str = Field(min_length=2, max_length=40)
    faction: Faction
    cost: int = Field(ge=1, le=12)
    in_sage_pack: bool = False
    pack_copies: int = Field(default=0, ge=0, le=4)  # copies in each Sage pack
    copies: int = Field(default=0, ge=0, le=6)  # copies in the market deck
    source: Source

    @property
    def id(self) -> str:
        return _slug(self.name)

    @property
    def shown_name(self) -> str:
        """The name players see: marked when the card is the project's own design."""
        return marked_name(self.name, project=self.source == "project")

    def _check_copies(self) -> None:
        if self.in_sage_pack and (self.pack_copies < 1 or self.copies):
            raise ValueError("a Sage-pack card needs pack_copies >= 1 and copies = 0")
        if not self.in_sage_pack and (self.copies < 1 or self.pack_copies):
            raise ValueError("a market card needs copies >= 1 and pack_copies = 0")


class ElementalCard(_Card):
    """A Sage, Champion, Basic or Warrior Elemental."""

    kind: ElementalKind
    strength: int = Field(ge=0, le=12)
    hp: int = Field(ge=1, le=15)
    rows: tuple[Row, ...] = ()  # rows the card must stand in for its effects
    daybreak: bool = False
    champion_level: Literal[4, 6, 8] | None = None
    effects: tuple[Effect, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> ElementalCard:
        self._check_copies()
        if self.faction == "neutral":
            raise ValueError("an Elemental belongs to one of the four factions")
        if (self.kind == "champion") != (self.champion_level is not None):
            raise ValueError("champion_level is required for Champions and only for them")
        if self.kind in ("sage", "champion") and not self.in_sage_pack:
            raise ValueError("Sages and Champions come in Sage packs")
        if self.kind == "basic" and (self.effects or self.rows or self.daybreak):
            raise ValueError("a Basic Elemental has no effect, rows or daybreak")
        if self.kind != "basic" and not (self.effects and self.rows):
            raise ValueError("this Elemental needs effects and rows")
        has_daybreak = any(e.trigger.on == "daybreak" for e in self.effects)
        if has_daybreak != self.daybreak:
            raise ValueError("daybreak must be true exactly when an effect triggers on daybreak")
        return self


class AttackProfile(_Model):
    """How an Attack Command attacks.

    melee: the attacker stands in own Row I and hits the enemy Row I.
    ranged: the attacker stands in one of `attacker_rows`; the target is `distance`
    rows away (attacker row + target row - 1), or in `target_rows` when no distance
    is given (any row when both are unset).
    DMG to each target = attacker STR + str_modifier (+ boosts, as for every attack).
    """

    range: AttackKind
    attacker_rows: tuple[Row, ...] = Field(min_length=1)
    distance: int | None = Field(default=None, ge=1, le=5)
    target_rows: tuple[Row, ...] = ()
    targets: int = Field(default=1, ge=1, le=3)  # up to this many distinct enemies
    str_modifier: int = Field(default=0, ge=-3, le=3)

    @model_validator(mode="after")
    def _geometry(self) -> AttackProfile:
        if self.range == "melee" and (
            self.attacker_rows != (1,) or self.distance or self.target_rows not in ((), (1,))
        ):
            raise ValueError("a melee attack is Row I against Row I")
        if self.distance and self.target_rows:
            raise ValueError("give distance or target_rows, not both")
        return self


class AttackFilter(_Model):
    """Which attacks an Instant answers: against an own Elemental of `faction`
    (any when unset) with an attack of `attack` kind (any when unset)."""

    faction: ElementalFaction | None = None
    attack: AttackKind | None = None


class RitualNeed(_Model):
    """A Ritual needs `count` connected own Elementals of one faction (`faction`, or
    any single faction when unset)."""

    count: int = Field(ge=2, le=6)
    faction: ElementalFaction | None = None


class CommandCard(_Card):
    """An Attack, Instant, Utility or Ritual Command.

    effect: ops resolved when played (for an attack: after the target is chosen and
    before DMG; for an Instant: at once, in the response window).
    after: ops resolved after the attack's DMG (Attack and Instant Commands only).
    """

    kind: Literal["command"]
    type: CommandType
    attack: AttackProfile | None = None
    responds_to: AttackFilter | None = None
    ritual: RitualNeed | None = None
    effect: tuple[Op, ...] = ()
    after: tuple[Op, ...] = ()

    @property
    def rows(self) -> tuple[int, ...]:
        return self.attack.attacker_rows if self.attack else ()

    @model_validator(mode="after")
    def _consistent(self) -> CommandCard:
        self._check_copies()
        for field, wanted in (
            ("attack", "attack"),
            ("responds_to", "instant"),
            ("ritual", "ritual"),
        ):
            if (getattr(self, field) is not None) != (self.type == wanted):
                raise ValueError(f"{field} is required for {wanted} Commands and only for them")
        if self.type != "attack" and not self.effect:
            raise ValueError("this Command needs an effect")
        if self.after and self.type not in ("attack", "instant"):
            raise ValueError("after is only for Attack and Instant Commands")
        attack_only = (AttackBonus,)
        instant_only = (ReduceDamage,)
        for op in walk_ops(self.effect + self.after):
            if isinstance(op, attack_only) and self.type != "attack":
                raise ValueError(f"{op.op} is only for Attack Commands")
            if isinstance(op, instant_only) and self.type != "instant":
                raise ValueError(f"{op.op} is only for Instant Commands")
            if isinstance(op, KeepBoosts | TakeDamageInstead):
                raise ValueError(f"{op.op} belongs on an Elemental")
        if self.ritual and self.ritual.faction and self.faction not in (self.ritual.faction,):
            raise ValueError("a faction Ritual needs Elementals of its own faction")
        return self


def _card_tag(value: Any) -> str:
    kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
    return "command" if kind == "command" else "elemental"


Card = Annotated[
    Annotated[ElementalCard, Tag("elemental")] | Annotated[CommandCard, Tag("command")],
    Discriminator(_card_tag),
]


class FactionAction(_Model):
    """A Sage's faction action, unlocked at `level` (1 AP, at most one per turn)."""

    sage: str
    level: Literal[4, 6, 8]
    ops: tuple[Op, ...] = Field(min_length=1)
    source: Source = "facts"

    @model_validator(mode="after")
    def _no_card_only_ops(self) -> FactionAction:
        for op in walk_ops(self.ops):
            if isinstance(op, AttackBonus | ReduceDamage | KeepBoosts | TakeDamageInstead):
                raise ValueError(f"{op.op} cannot be a faction action")
        return self


# ------------------------------------------------------------------------------ pack

SAGE_PACK_SIZE = 17
ELEMENTAL_MARKET_SIZE = 56
COMMAND_MARKET_SIZE = 85


class Pack(_Model):
    """A whole card pack: cards and faction actions, checked against the rulebook's
    box: four Sage packs of 1 Sage, 3 Champions (levels 4/6/8), 4 Basics, 3 Warriors
    and 6 Commands of all four types; a 56-card Elemental Market and an 85-card
    Command Market; three faction actions per Sage at levels 4/6/8."""

    name: str
    cards: tuple[Card, ...] = Field(min_length=1)
    faction_actions: tuple[FactionAction, ...] = ()

    @model_validator(mode="after")
    def _box(self) -> Pack:
        seen: set[str] = set()
        for card in self.cards:
            if card.name in seen or card.id in seen:
                raise ValueError(f"card {card.name!r} appears twice")
            seen |= {card.name, card.id}
        sages = [c for c in self.cards if c.kind == "sage"]
        if sorted(s.faction for s in sages) != sorted(FACTIONS):
            raise ValueError("there must be one Sage per faction")
        for sage in sages:
            self._check_sage_pack(sage)
        for action in self.faction_actions:
            if action.sage not in {s.name for s in sages}:
                raise ValueError(f"faction action names {action.sage!r}, which is no Sage")
        elementals = sum(c.copies for c in self.elementals() if not c.in_sage_pack)
        commands = sum(c.copies for c in self.commands() if not c.in_sage_pack)
        if elementals != ELEMENTAL_MARKET_SIZE:
            raise ValueError(f"the Elemental Market holds {elementals} cards, not 56")
        if commands != COMMAND_MARKET_SIZE:
            raise ValueError(f"the Command Market holds {commands} cards, not 85")
        return self

    def _check_sage_pack(self, sage: ElementalCard) -> None:
        where = f"Sage pack of {sage.name}"
        cards = self.sage_pack(sage.name)
        by_kind: dict[str, int] = {}
        for card in cards:
            by_kind[card.kind] = by_kind.get(card.kind, 0) + 1
        want = {"sage": 1, "champion": 3, "basic": 4, "warrior": 3, "command": 6}
        if by_kind != want:
            raise ValueError(f"{where}: holds {by_kind}, wants {want}")
        levels = sorted(c.champion_level for c in cards if c.kind == "champion")
        if levels != list(CHAMPION_LEVELS):
            raise ValueError(f"{where}: Champion levels {levels}, wants 4, 6 and 8")
        types = {c.type for c in cards if isinstance(c, CommandCard)}
        if types != {"attack", "instant", "utility", "ritual"}:
            raise ValueError(f"{where}: Command types {sorted(types)}, wants all four")
        actions = sorted(a.level for a in self.faction_actions if a.sage == sage.name)
        # (faction actions naming no Sage are caught in _box)
        if actions != list(CHAMPION_LEVELS):
            raise ValueError(f"{where}: faction actions at levels {actions}, wants 4, 6 and 8")

    # -- lookups ---------------------------------------------------------------

    @cached_property
    def _by_name_or_id(self) -> dict[str, ElementalCard | CommandCard]:
        index: dict[str, ElementalCard | CommandCard] = {}
        for card in reversed(self.cards):
            index[card.name] = index[card.id] = card
        return index

    def card(self, name_or_id: str) -> ElementalCard | CommandCard:
        try:
            return self._by_name_or_id[name_or_id]
        except KeyError:
            raise KeyError(f"no card named {name_or_id!r}") from None

    def elementals(self) -> list[ElementalCard]:
        return [c for c in self.cards if isinstance(c, ElementalCard)]

    def commands(self) -> list[CommandCard]:
        return [c for c in self.cards if isinstance(c, CommandCard)]

    def sages(self) -> list[ElementalCard]:
        return [c for c in self.elementals() if c.kind == "sage"]

    def sage_pack(self, sage_name: str) -> list[ElementalCard | CommandCard]:
        """The Sage pack as a list of cards, one entry per copy: the Sage, its
        faction's Sage-pack cards and the neutral Sage-pack Commands."""
        sage = self.card(sage_name)
        out: list[ElementalCard | CommandCard] = []
        for card in self.cards:
            if not card.in_sage_pack:
                continue
            if card.kind == "sage" and card is not sage:
                continue
            if card.faction in (sage.faction, "neutral"):
                out += [card] * card.pack_copies
        return out

    def elemental_market(self) -> list[ElementalCard]:
        """The Elemental Market deck, one entry per copy, in pack order."""
        return [c for c in self.elementals() if not c.in_sage_pack for _ in range(c.copies)]

    def command_market(self) -> list[CommandCard]:
        """The Command Market deck, one entry per copy, in pack order."""
        return [c for c in self.commands() if not c.in_sage_pack for _ in range(c.copies)]

    def faction_actions_of(self, sage_name: str) -> list[FactionAction]:
        return sorted(
            (a for a in self.faction_actions if a.sage == sage_name), key=lambda a: a.level
        )


@cache
def bundled_pack() -> Pack:
    """The pack that ships with Arbiter."""
    return parse_pack(BUNDLED_PACK.read_text(encoding="utf-8"), BUNDLED_PACK.name)


def parse_pack(text: str, origin: str = "pack") -> Pack:
    """Validate a Command of Nature pack from TOML text (errors name the card and field)."""
    return load_pack(Pack, text, origin, tags={"elemental", "command", *OP_NAMES})


PACKS: PackRegistry[Pack] = PackRegistry(bundled_pack)
register_pack = PACKS.register
get_pack = PACKS.get


@cache
def _slug(name: str) -> str:
    """A card's id from its name (cached: ids are looked up on every view and check)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
