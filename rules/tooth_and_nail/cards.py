"""The Tooth & Nail card pack: its schema, its effect vocabulary, and loading.

A pack is a TOML file of factions. Each faction has a Faction Command card (a
Formation Attack and a Faction Ability) and six Troops. Effects are lists of
operations from a small vocabulary; the text players read is generated from
them (see `effect_text`), so it never drifts from what the engine does.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.core.packs import PackRegistry, marked_name
from rules.core.packs import parse_pack as load_pack

TroopType = Literal["Arcane", "Tech"]
Zone = Literal["command", "war"]
ZoneFilter = Literal["command", "war", "any"]

BUNDLED_PACK = Path(__file__).with_name("pack.toml")


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Damage(_Op):
    """Deal damage to each affected opposing deck."""

    op: Literal["damage"]
    amount: int = Field(ge=1, le=5)


class Draw(_Op):
    """The acting player draws cards from their own deck."""

    op: Literal["draw"]
    amount: int = Field(ge=1, le=3)


class GainAP(_Op):
    """The acting player gains Action Point cards (never above 5)."""

    op: Literal["gain_ap"]
    amount: int = Field(ge=1, le=3)


class DiscardRandom(_Op):
    """Each affected opposing player discards cards at random from hand."""

    op: Literal["discard_random"]
    amount: int = Field(ge=1, le=3)


class DiscardChoice(_Op):
    """Each affected opposing player discards cards of their own choice (their decision)."""

    op: Literal["discard_choice"]
    amount: int = Field(ge=1, le=3)


class TroopTarget(_Op):
    """Common fields for effects that pick one Troop in play."""

    zone: ZoneFilter = "any"
    troop_type: TroopType | None = None
    max_strength: int | None = Field(default=None, ge=0)
    drained: bool | None = None  # None: either state


class Destroy(TroopTarget):
    """Destroy an opposing Troop: it goes to the top of its owner's discard pile."""

    op: Literal["destroy"]


class ReturnToHand(TroopTarget):
    """Return an opposing Troop to its owner's hand."""

    op: Literal["return_to_hand"]


class DrainTroop(TroopTarget):
    """Drain an opposing Troop."""

    op: Literal["drain"]


class RechargeTroop(TroopTarget):
    """Recharge one of the acting player's own drained Troops."""

    op: Literal["recharge"]


class Relocate(TroopTarget):
    """Move one of the acting player's own Troops to their other zone (if it has room)."""

    op: Literal["relocate"]


class Deploy(_Op):
    """Play a Troop from hand into the acting player's War Zone without spending an AP."""

    op: Literal["deploy"]
    troop_type: TroopType | None = None


class Search(_Op):
    """Search the acting player's deck for a Troop, put it in hand, then shuffle the deck."""

    op: Literal["search"]
    faction: Literal["own", "other", "any"] = "any"
    troop_type: TroopType | None = None


class Reclaim(_Op):
    """Take the top card of the acting player's discard pile into hand, if it matches."""

    op: Literal["reclaim"]
    troop_type: TroopType | None = None


class Mend(_Op):
    """Put the top cards of the acting player's discard pile on the bottom of their deck."""

    op: Literal["mend"]
    amount: int = Field(ge=1, le=4)


class Mill(_Op):
    """Put the top cards of each affected opposing deck on its discard pile
    (damage by another name, but not counted as an attack)."""

    op: Literal["mill"]
    amount: int = Field(ge=1, le=3)


Op = Annotated[
    Damage
    | Draw
    | GainAP
    | DiscardRandom
    | DiscardChoice
    | Destroy
    | ReturnToHand
    | DrainTroop
    | RechargeTroop
    | Relocate
    | Deploy
    | Search
    | Reclaim
    | Mend
    | Mill,
    Field(discriminator="op"),
]


class TroopCard(BaseModel):
    """A Troop: name, Strength, Troop Type and Command Ability."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9-]{2,24}$")
    name: str = Field(min_length=2, max_length=40)
    strength: int = Field(ge=0, le=4)
    type: TroopType
    command: tuple[Op, ...] = Field(min_length=1)
    source: Literal["rulebook", "project"] = "project"

    @property
    def shown_name(self) -> str:
        """The name players see: marked when the Troop is the project's own design."""
        return marked_name(self.name, project=self.source == "project")


class FormationAttack(BaseModel):
    """A Formation Attack: the Troop Types it drains, extra damage and extra effect."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    requires: tuple[TroopType, ...] = Field(min_length=2, max_length=4)
    bonus_damage: int = Field(default=0, ge=0, le=3)
    effect: tuple[Op, ...] = ()

    @model_validator(mode="after")
    def _does_something(self) -> FormationAttack:
        if not self.effect and not self.bonus_damage:
            raise ValueError("a Formation Attack needs bonus_damage or an effect")
        return self


class FactionAbility(BaseModel):
    """A Faction Ability: drain 2 Command Zone Troops, then resolve the effect."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    effect: tuple[Op, ...] = Field(min_length=1)


class Faction(BaseModel):
    """A faction deck: six Troops (five copies each) and its Faction Command card."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9-]{2,24}$")
    name: str
    identity: str = Field(default="", max_length=60)  # its play style in a few words
    formation: FormationAttack
    ability: FactionAbility
    troops: tuple[TroopCard, ...] = Field(min_length=6, max_length=6)
    source: Literal["rulebook", "project"] = "project"

    @property
    def shown_name(self) -> str:
        """The name players see: marked when the faction is the project's own design."""
        return marked_name(self.name, project=self.source == "project")


class Pack(BaseModel):
    """A whole card pack: exactly six factions with unique ids and names."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    copies: int = Field(default=5, ge=1, le=5)
    factions: tuple[Faction, ...] = Field(min_length=6, max_length=6)

    @model_validator(mode="after")
    def _unique(self) -> Pack:
        ids = [f.id for f in self.factions]
        troop_ids = [t.id for f in self.factions for t in f.troops]
        names = [t.name for f in self.factions for t in f.troops]
        for label, values in (("faction id", ids), ("troop id", troop_ids), ("troop name", names)):
            seen: set[str] = set()
            for v in values:
                if v in seen:
                    raise ValueError(f"{label} {v!r} appears twice")
                seen.add(v)
        return self

    def faction(self, faction_id: str) -> Faction:
        return next(f for f in self.factions if f.id == faction_id)

    @property
    def troops(self) -> dict[str, tuple[Faction, TroopCard]]:
        return {t.id: (f, t) for f in self.factions for t in f.troops}


@cache
def bundled_pack() -> Pack:
    """The pack that ships with Arbiter."""
    return parse_pack(BUNDLED_PACK.read_text(encoding="utf-8"), BUNDLED_PACK.name)


def parse_pack(text: str, origin: str = "pack") -> Pack:
    """Validate a Tooth & Nail pack from TOML text (errors name the card and field)."""
    return load_pack(Pack, text, origin)


PACKS: PackRegistry[Pack] = PackRegistry(bundled_pack)
register_pack = PACKS.register
get_pack = PACKS.get
