"""The Mystic Vale card pack: its schema, its effect vocabulary, and loading.

A player's deck is 20 physical cards, each with three slots (top, middle, bottom).
Advancements are sleeved into those slots during play; some of what a card shows is
printed on it (a Cursed Land, a Fertile Soil). Vales are bought with spirit symbols
and stay in their owner's play area. Leaders are sleeved into a blank card at set-up.
What every card does is data, in one vocabulary:

Symbols (`Symbols`) a card shows: mana, decay, growth, the four spirits (sky, animal,
water, plant), guardian, vp (VP tokens taken from the pool at Harvest), curse (curse
tokens gained at Harvest) and end_vp (points at the end of the game, possibly negative).

Costs (`Cost`): mana, spirits, VP tokens and curse tokens a player spends.

Rituals (`Ritual`): symbols the card the advancement is sleeved into must show
(`requires`), and the symbols it then shows besides (`rewards`).

Abilities (`Ability`): `when` they act --
  planting   at the start of its owner's Planting Phase, before the first push;
  played     when the card moves from on-deck into the field (Planting or Prep);
  revealed   when the card turns face up as the on-deck card;
  harvest    in its owner's Harvest Phase, if the card is in the field (lost on a Spoil);
  bought     once, the moment the card is bought;
  field      while the card is in the field (a standing effect);
  spoiled    when its owner Spoils with the card in their field or play area;
  discard    in its owner's Discard Phase, with the card in the field;
  end        at the end of the game, wherever the card is;
-- an optional `cost` (paid to use it, which makes it optional), `around_tokens` (a
Harvest ability usable before or after the field's VP and curse tokens), and `ops`:
  gain              symbols for this Harvest (mana, spirits, guardian) or tokens
                    (vp, curse), `per` a count of something when given;
  shed_curses       return curse tokens to the pool;
  reserve           Reserve an advancement of the commons;
  free_buy          buy a card for free: the top of a deck or one of a row;
  extra_turn        another turn after this one (one extra turn a round at most);
  add_to_pool       VP tokens from the box into the pool;
  discard_field     discard a card of one's field (`which`: rightmost two, any);
  cannot_spoil      the owner cannot Spoil (a standing effect);
  stay              the card stays in the field through the Discard Phase;
  search            a card of the deck or discard pile to the end of the field;
  claim             the nemesis claims a card of the commons into its score pile
                    (solitaire); `claim_vp`: VP tokens from the pool into it;
  tax               lose mana of this Harvest and cancel spirit symbols (a nemesis);
  lose_vp           discard VP tokens one holds (to the box);
  special           a named rule of its own (see `abilities.py`), for the few cards
                    whose clarification no general op says.

A nemesis (the solitaire variant's opponent, `NemesisCard`) is a card of its own kind,
sleeved over a Cursed Land: its symbols (decay, or growth), its power and difficulty
pips, decay and abilities that act only once the hourglass has reached their turn
(`Ability.hourglass`, `HourglassDecay`). The corruption track (`Track`) has two sides,
each a row of spaces saying what the nemesis claims when the hourglass reaches it.

The text players read is generated from this data (see `text.py`).
"""

from __future__ import annotations

from functools import cache, cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

from rules.core.packs import PackRegistry, marked_name
from rules.core.packs import parse_pack as load_pack

BUNDLED_PACK = Path(__file__).with_name("pack.toml")

Slot = Literal["top", "middle", "bottom"]
SLOTS: tuple[Slot, ...] = ("top", "middle", "bottom")
SPIRITS = ("sky", "animal", "water", "plant")
Spirit = Literal["sky", "animal", "water", "plant"]
Source = Literal["nemesis", "base", "project"]
Timing = Literal[
    "planting", "played", "revealed", "harvest", "bought", "field", "spoiled", "discard", "end"
]

# The component counts of the Nemesis box (rulebook, "Components").
NEMESIS_ADVANCEMENTS = {1: 33, 2: 36, 3: 27, 4: 12}
NEMESIS_VALES = {1: 18, 2: 18}
NEMESIS_LEADERS = 8
FERTILE_SOILS_PER_SLOT = 6  # 18 Fertile Soil advancements, 6 for each slot
DIFFICULTY = {1: "easy", 2: "moderate", 3: "difficult", 4: "very difficult"}  # a nemesis' pips


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


@cache  # card names are few, and a card's id is asked for each time it is shown
def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-").replace("--", "-")


# ----------------------------------------------------------------------------- symbols


class Symbols(_Model):
    """Symbols a card (or a reward) shows; all counts, end_vp possibly negative."""

    mana: int = Field(default=0, ge=0, le=9)
    decay: int = Field(default=0, ge=0, le=5)
    growth: int = Field(default=0, ge=0, le=5)
    sky: int = Field(default=0, ge=0, le=5)
    animal: int = Field(default=0, ge=0, le=5)
    water: int = Field(default=0, ge=0, le=5)
    plant: int = Field(default=0, ge=0, le=5)
    guardian: int = Field(default=0, ge=0, le=5)
    vp: int = Field(default=0, ge=0, le=9)
    curse: int = Field(default=0, ge=0, le=9)
    end_vp: int = Field(default=0, ge=-9, le=20)

    def counts(self) -> dict[str, int]:
        """Every symbol shown, by name (zeroes left out)."""
        return {k: v for k, v in self.model_dump().items() if v}


class Cost(_Model):
    """What a player spends: mana and spirits from this Harvest, VP and curse tokens
    they hold."""

    mana: int = Field(default=0, ge=0, le=20)
    sky: int = Field(default=0, ge=0, le=9)
    animal: int = Field(default=0, ge=0, le=9)
    water: int = Field(default=0, ge=0, le=9)
    plant: int = Field(default=0, ge=0, le=9)
    vp: int = Field(default=0, ge=0, le=20)
    curse: int = Field(default=0, ge=0, le=20)

    def counts(self) -> dict[str, int]:
        return {k: v for k, v in self.model_dump().items() if v}


class Ritual(_Model):
    """A ritual: what the card it is sleeved into must show, and what it then shows."""

    requires: Symbols
    rewards: Symbols

    @model_validator(mode="after")
    def _both(self) -> Ritual:
        if not self.requires.counts() or not self.rewards.counts():
            raise ValueError("a ritual needs requirements and rewards")
        return self


# ----------------------------------------------------------------------------- ops


class _Op(_Model):
    pass


Counted = Literal["guardian", "growth", "decay", "mana", "sky", "animal", "water", "plant"]


class Per(_Model):
    """A count an amount is multiplied by: a symbol on this card or in the field, the
    vales one holds, or the curse tokens one holds."""

    count: Literal["symbol", "vales", "curses"]
    symbol: Counted | None = None
    where: Literal["card", "field"] = "field"

    @model_validator(mode="after")
    def _symbol(self) -> Per:
        if (self.count == "symbol") != (self.symbol is not None):
            raise ValueError("a symbol is counted exactly when count = 'symbol'")
        return self


class Gain(_Op):
    """Gain symbols for this Harvest (mana, spirits, guardian) or tokens (vp from the
    pool, curse from the pool), times `per` when given."""

    op: Literal["gain"]
    symbols: Symbols
    per: Per | None = None


class ShedCurses(_Op):
    """Return up to `amount` held curse tokens to the pool (`per`: times a count)."""

    op: Literal["shed_curses"]
    amount: int = Field(ge=1, le=9)
    per: Per | None = None


class Reserve(_Op):
    """Reserve an advancement of the commons (Fertile Soils and level 4 included)."""

    op: Literal["reserve"]


class FreeBuy(_Op):
    """Buy a card for free: the top card of a deck (one may decline and put it back), or
    any card of a row of the commons; it needs no buy of the turn."""

    op: Literal["free_buy"]
    kind: Literal["vale", "advancement"]
    level: int = Field(ge=1, le=3)
    source: Literal["deck_top", "row"] = "deck_top"
    may_decline: bool = False  # the top card may be put back instead


class ExtraTurn(_Op):
    """Take another turn after this one (one extra turn a round at most)."""

    op: Literal["extra_turn"]


class AddToPool(_Op):
    """Put VP tokens from the box into the pool (the game clock)."""

    op: Literal["add_to_pool"]
    amount: int = Field(ge=1, le=20)


class DiscardField(_Op):
    """Discard a card of one's field: the rightmost or second rightmost, or any."""

    op: Literal["discard_field"]
    which: Literal["rightmost_two", "any"]


class CannotSpoil(_Op):
    """A standing effect: the owner cannot Spoil."""

    op: Literal["cannot_spoil"]


class Stay(_Op):
    """The card stays in the field through the Discard Phase (as its leftmost card)."""

    op: Literal["stay"]


class Claim(_Op):
    """The nemesis claims the card at a position of a row of the commons: an advancement
    of level 1, 2 or 3 (left, centre, right: 0-2), or a vale of level 1 or 2 (0-3)."""

    op: Literal["claim"] = "claim"
    kind: Literal["advancement", "vale"]
    level: int = Field(ge=1, le=3)
    position: int = Field(ge=0, le=3)

    @model_validator(mode="after")
    def _in_row(self) -> Claim:
        if self.kind == "vale" and self.level > 2:
            raise ValueError("the vale rows are levels 1 and 2")
        if self.kind == "advancement" and self.position > 2:
            raise ValueError("an advancement row has three positions (0-2)")
        return self


class ClaimVp(_Op):
    """The nemesis takes VP tokens from the pool (from the box once it is empty)."""

    op: Literal["claim_vp"]
    amount: int = Field(ge=1, le=9)


class Tax(_Op):
    """Lose mana of this Harvest (never below 0) and cancel spirit symbols of your choice:
    they still count for rituals, but can't be spent."""

    op: Literal["tax"]
    mana: int = Field(default=0, ge=0, le=9)
    spirits: int = Field(default=0, ge=0, le=4)

    @model_validator(mode="after")
    def _one_kind(self) -> Tax:
        if bool(self.mana) == bool(self.spirits):
            raise ValueError("a tax takes mana or spirit symbols (one op each)")
        return self


class LoseVp(_Op):
    """Discard VP tokens one holds, as many as one has up to `amount` (to the box)."""

    op: Literal["lose_vp"]
    amount: int = Field(ge=1, le=9)


class Search(_Op):
    """Look through the deck or the discard pile for a card whose advancements cost at
    most `max_cost` mana together, and place it at the end of the field."""

    op: Literal["search"]
    max_cost: int = Field(ge=0, le=20)


# The rules of their own that some cards have (each implemented in `abilities.py`,
# by name): what the rulebook's clarification of the card says, where no general op does.
SPECIALS: dict[str, str] = {
    "avatar_shared_win": "Avatar of the Soulless God: with fewer points than every other "
    "player, share the win with the highest score (3+ players)",
    "worth_total": "Bramble Tumbleworld: worth as many points as your total, if positive",
    "gargoyle_summoner": "Gargoyle Summoner: draw 4 leaders; unsleeve one field card's "
    "advancements; sleeve a leader, upgraded, on a blank field card",
    "final_harvest": "Nightvale Agent: at the end, a Harvest with two of your cards",
    "tribal_warlord": "Tribal Warlord: 4 VP, from the pool or from the box",
    "most_curses_vp": "Corrupted World Tree: 2 VP if you hold more curse tokens than anyone",
    "titan_forge": "Earthbound Titan Forge: with 6+ curse tokens, spend 1 to place a card "
    "of your discard pile at the end of your field",
    "place_top_card": "Sapling Sanctuary: place the top card of your deck at the end of your field",
    "curse_the_commons": "Hailburst Titan: put 2 of your curse tokens on an advancement of "
    "the commons",
    "store_curses": "Hailburst Titan (upgraded): put up to 2 of your curse tokens on it",
    "most_curses_titan": "Hailburst Titan (upgraded): 8 points if you hold the most curse tokens",
    "discard_any_for_curse": "Magmaborn Titan: spend 1 curse token to discard any card of "
    "your field",
    "titan_to_bottom": "Magmaborn Titan: spend 1 mana to put it at the bottom of your deck",
    "card_to_bottom": "Magmaborn Titan (upgraded): spend 1 VP to put a card of your field "
    "at the bottom of your deck",
    "field_of_seven": "Magmaborn Titan (upgraded): fill your field to seven cards from "
    "the top of your deck",
    "free_reserved": "Manablood Titan (upgraded): buy any of your Reserved advancements for free",
    "cancel_card_curses": "Oakenstride Titan: cancel the curse tokens of one card of your field",
    "discard_on_deck": "Oakenstride Titan (upgraded): discard your on-deck card",
    "shed_per_growth": "Oakenstride Titan (upgraded): shed curse tokens up to your growth",
    "vale_then_upgrade": "Shardlord: buy a level-1 vale for free, then upgrade",
    "resleeve": "Shardlord (upgraded): move advancements of your field onto one card",
    "return_to_start": "Shardlord (upgraded): with a blank card in your field, sleeve it "
    "into that card on its starting side",
    "cover_cursed_land": "Stormbrew Titan: an advancement may cover a Cursed Land",
    "sleeve_now": "Stormbrew Titan (upgraded): sleeve a bought advancement during Harvest",
    "guardian_discount": "Tidal Wave Titan: each guardian on an advancement you buy lowers "
    "its cost by 1 mana",
    "shed_per_guardian": "Tidal Wave Titan (upgraded): shed curse tokens up to your guardians",
    "push_twice": "Abomination: on deck or in your field, it makes you push at least twice",
    "under_on_deck": "Abomination: revealed or placed in your field during your Harvest, it "
    "goes under your on-deck card",
    "discard_clean": "Blight Troll: you discard two cards of your field that show no decay",
    "spoil_now": "Corrupted Centaur: you Spoil, whatever your decay (unless you cannot Spoil)",
    "spoil_toll": "Tormented Berserker: Sacrifice a vale or discard 3 VP",
}


class Special(_Op):
    """A rule of its own, by name (see `SPECIALS`)."""

    op: Literal["special"]
    name: str

    @model_validator(mode="after")
    def _known(self) -> Special:
        if self.name not in SPECIALS:
            raise ValueError(f"no special rule named {self.name!r}")
        return self


def _op_tag(value: Any) -> str | None:
    return value.get("op") if isinstance(value, dict) else getattr(value, "op", None)


OP_NAMES = (
    "gain",
    "claim",
    "claim_vp",
    "tax",
    "lose_vp",
    "shed_curses",
    "reserve",
    "free_buy",
    "extra_turn",
    "add_to_pool",
    "discard_field",
    "cannot_spoil",
    "stay",
    "search",
    "special",
)

Op = Annotated[
    Annotated[Gain, Tag("gain")]
    | Annotated[ShedCurses, Tag("shed_curses")]
    | Annotated[Reserve, Tag("reserve")]
    | Annotated[FreeBuy, Tag("free_buy")]
    | Annotated[ExtraTurn, Tag("extra_turn")]
    | Annotated[AddToPool, Tag("add_to_pool")]
    | Annotated[DiscardField, Tag("discard_field")]
    | Annotated[CannotSpoil, Tag("cannot_spoil")]
    | Annotated[Stay, Tag("stay")]
    | Annotated[Search, Tag("search")]
    | Annotated[Claim, Tag("claim")]
    | Annotated[ClaimVp, Tag("claim_vp")]
    | Annotated[Tax, Tag("tax")]
    | Annotated[LoseVp, Tag("lose_vp")]
    | Annotated[Special, Tag("special")],
    Discriminator(_op_tag),
]


class Ability(_Model):
    """One ability: when it acts, what it may cost (which makes it optional), and its ops.
    `sacrifice`: using it removes this card (`self`), or one of the owner's advancements
    or vales, from the game."""

    when: Timing
    ops: tuple[Op, ...] = Field(min_length=1)
    cost: Cost | None = None
    sacrifice: Literal["self", "advancement", "vale"] | None = None
    optional: bool = False
    not_on_turn_bought: bool = False  # unusable the turn the card is bought
    # a Harvest ability its owner may use before the field's VP and curse tokens are taken
    # or, declined then, after them
    around_tokens: bool = False
    hourglass: int = Field(default=0, ge=0, le=20)  # a nemesis': acts from this turn on

    @property
    def chosen(self) -> bool:
        """Whether its owner decides to use it (a cost or a sacrifice makes it so)."""
        return self.optional or self.cost is not None or self.sacrifice is not None


# ----------------------------------------------------------------------------- cards


class _Card(_Model):
    name: str = Field(min_length=2, max_length=40)
    source: Source

    @property
    def id(self) -> str:
        return _slug(self.name)

    @property
    def shown_name(self) -> str:
        """The name players see: marked when the card is the project's own design."""
        return marked_name(self.name, project=self.source == "project")


class Advancement(_Card):
    """A transparent card sleeved into one slot of a player's card."""

    level: int = Field(ge=1, le=4)
    cost: Cost
    slot: Slot
    symbols: Symbols = Symbols()
    eclipse: bool = False
    ritual: Ritual | None = None
    abilities: tuple[Ability, ...] = ()
    copies: int = Field(default=1, ge=1, le=18)
    fertile_soil: bool = False  # the shared Fertile Soil supply, beside the level decks
    min_players: int = Field(default=1, ge=1, le=4)  # fewer: boxed and replaced at once


class Vale(_Card):
    """A vale card, bought with spirit symbols; it stays in its owner's play area."""

    level: int = Field(ge=1, le=2)
    cost: Cost
    symbols: Symbols = Symbols()
    abilities: tuple[Ability, ...] = ()
    copies: int = Field(default=1, ge=1, le=4)
    min_players: int = Field(default=1, ge=1, le=4)  # fewer: discarded and replaced at once


class LeaderSide(_Model):
    """One side of a leader: its symbols and abilities (and, on the starting side, the
    cost in the top right corner that upgrades it)."""

    upgrade: Cost | None = None
    vp_replaces: Spirit | None = None  # each VP spent stands for one of these in the cost
    symbols: Symbols = Symbols()
    abilities: tuple[Ability, ...] = ()


class Leader(_Card):
    """A leader, sleeved into a blank card at set-up. A titan leaves its sleeve when
    upgraded and stands beside the play area."""

    titan: bool = False
    start: LeaderSide
    upgraded: LeaderSide

    @model_validator(mode="after")
    def _cost(self) -> Leader:
        if self.start.upgrade is None or not self.start.upgrade.counts():
            raise ValueError("the starting side names its upgrade cost")
        if self.upgraded.upgrade is not None:
            raise ValueError("only the starting side has an upgrade cost")
        return self


class HourglassDecay(_Model):
    """Decay a nemesis shows once the hourglass has reached `hourglass`."""

    hourglass: int = Field(ge=1, le=20)
    decay: int = Field(ge=1, le=3)


class NemesisCard(_Card):
    """The solitaire opponent: sleeved face up over a Cursed Land, it covers the whole
    card (only its own symbols count). `power` is added to its score; `pips` say how
    hard it is (1 easy to 4 very difficult)."""

    power: int = Field(ge=0, le=20)
    pips: int = Field(ge=1, le=4)
    symbols: Symbols = Symbols()
    hourglass_decay: tuple[HourglassDecay, ...] = ()
    abilities: tuple[Ability, ...] = ()

    @model_validator(mode="after")
    def _only_nemesis_symbols(self) -> NemesisCard:
        extra = set(self.symbols.counts()) - {"decay", "growth"}
        if extra:
            raise ValueError(f"a nemesis shows only decay or growth, not {sorted(extra)}")
        return self


class Space(_Model):
    """A space of the corruption track: what the nemesis claims when the hourglass
    reaches it (cards by row position, and VP tokens)."""

    claims: tuple[Claim, ...] = ()
    vp: int = Field(default=0, ge=0, le=9)


class Track(_Model):
    """One side of the corruption track: Start, then the spaces in order (the hourglass
    number of a space is its place after Start); the last one repeats."""

    side: Literal["easy", "standard"]
    spaces: tuple[Space, ...] = Field(min_length=2, max_length=21)

    @model_validator(mode="after")
    def _start(self) -> Track:
        if self.spaces[0].claims or self.spaces[0].vp:
            raise ValueError("the Start space claims nothing")
        return self


class Pack(_Model):
    """A whole Mystic Vale pack: advancements (levels 1-4, the Fertile Soils), vales
    (levels 1-2), leaders, and for the solitaire variant the nemeses and the two sides
    of the corruption track."""

    name: str
    advancements: tuple[Advancement, ...] = Field(min_length=1)
    vales: tuple[Vale, ...] = Field(min_length=1)
    leaders: tuple[Leader, ...] = ()
    nemeses: tuple[NemesisCard, ...] = ()
    tracks: tuple[Track, ...] = ()

    @model_validator(mode="after")
    def _sane(self) -> Pack:
        seen: set[str] = set()
        for card in (*self.advancements, *self.vales, *self.leaders, *self.nemeses):
            if card.id in seen:
                raise ValueError(f"card {card.name!r} appears twice")
            seen.add(card.id)
        if self.nemeses and {t.side for t in self.tracks} != {"easy", "standard"}:
            raise ValueError("a pack with nemeses needs both sides of the corruption track")
        soils = [a for a in self.advancements if a.fertile_soil]
        if {a.slot for a in soils} != set(SLOTS):
            raise ValueError("the Fertile Soil supply needs a Fertile Soil for each slot")
        return self

    @cached_property
    def by_id(self) -> dict[str, Advancement | Vale | Leader | NemesisCard]:
        """Every card by id (and by name)."""
        index: dict[str, Advancement | Vale | Leader | NemesisCard] = {}
        for card in (*self.advancements, *self.vales, *self.leaders, *self.nemeses):
            index[card.id] = index[card.name] = card
        return index

    def card(self, key: str) -> Advancement | Vale | Leader | NemesisCard:
        """A card by id or name."""
        return self.by_id[key]

    def nemesis(self, key: str) -> NemesisCard:
        card = self.by_id[key]
        assert isinstance(card, NemesisCard)
        return card

    def track(self, side: str) -> Track:
        """A side of the corruption track."""
        return next(t for t in self.tracks if t.side == side)

    def advancement(self, key: str) -> Advancement:
        card = self.by_id[key]
        assert isinstance(card, Advancement)
        return card

    def vale(self, key: str) -> Vale:
        card = self.by_id[key]
        assert isinstance(card, Vale)
        return card

    def leader(self, key: str) -> Leader:
        card = self.by_id[key]
        assert isinstance(card, Leader)
        return card

    def mixes(self) -> list[str]:
        """The card mixes this pack can deal: Nemesis alone, and Nemesis mixed into the
        base game when the pack holds base-game cards."""
        sources = {c.source for c in (*self.advancements, *self.vales)}
        return ["nemesis", "mixed"] if "base" in sources else ["nemesis"]


def bundled_pack() -> Pack:
    """The pack that ships with Arbiter."""
    return parse_pack(BUNDLED_PACK.read_text(encoding="utf-8"), BUNDLED_PACK.name)


def parse_pack(text: str, origin: str = "pack") -> Pack:
    """Validate a Mystic Vale pack from TOML text (errors name the card and field)."""
    return load_pack(Pack, text, origin, tags=set(OP_NAMES))


PACKS: PackRegistry[Pack] = PackRegistry(bundled_pack)
register_pack = PACKS.register
get_pack = PACKS.get
