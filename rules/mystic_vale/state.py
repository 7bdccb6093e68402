"""The state of a Mystic Vale game.

Each player owns 20 physical cards (`Card`), each with three slots; a slot holds what
is printed there (a Cursed Land, a Fertile Soil) and the advancements sleeved into it,
bottom first, the last one on top (only an eclipse advancement is ever covered).
Advancements and vales in play are instances, numbered in `State.cards` (instance ->
card id). Piles are lists with the top last.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rules.mystic_vale.cards import Slot

Variant = Literal["solo", "2p", "3p", "4p"]
Phase = Literal["leaders", "planting", "harvest", "discard", "prep", "final", "over"]
CURSED_LAND = "cursed_land"
FERTILE_SOIL = "fertile_soil"
Printed = Literal["cursed_land", "fertile_soil"]


class Card(BaseModel):
    """One of a player's 20 cards: its three slots, and a leader if one is sleeved in it
    (no advancement goes onto a leader)."""

    id: int
    owner: int
    slots: dict[Slot, list[int | Printed]] = Field(
        default_factory=lambda: {"top": [], "middle": [], "bottom": []}
    )
    leader: str | None = None
    upgraded: bool = False  # the leader is on its upgraded side (Gargoyle Summoner's)
    nemesis: str | None = None  # the nemesis sleeved over it (solitaire): it covers the card


class Player(BaseModel):
    """One seat: its deck, on-deck card, field and discard pile (card ids), its vales,
    tokens, mana token, Reserved advancements and leader."""

    seat: int
    name: str
    deck: list[int] = Field(default_factory=list)  # top last, face down
    shown_under: int = 0  # the deck's bottom cards everyone saw go there (see `redeal`)
    on_deck: int | None = None  # face up on top of the deck
    field: list[int] = Field(default_factory=list)  # left to right
    discard: list[int] = Field(default_factory=list)
    vales: list[int] = Field(default_factory=list)  # vale instances
    vp: int = 0  # VP tokens held
    curses: int = 0  # curse tokens held
    stored_curses: int = 0  # curse tokens held on an upgraded Hailburst Titan (no minus)
    mana_token: bool = False  # active (worth 1 mana) after a Spoil, until spent
    reserved: list[int] = Field(default_factory=list)  # advancement instances
    leader: str | None = None  # the leader's card id, once chosen
    leader_options: list[str] = Field(default_factory=list)  # the two dealt at set-up
    leader_upgraded: bool = False
    upgraded_on_turn: int = -1  # the turn it was upgraded (its new side acts from the next)
    titan_aside: bool = False  # an upgraded titan stands beside the play area
    turns: int = 0  # turns taken
    extra_turn_round: int = -1  # the round in which this seat took an extra turn
    skip_harvest: bool = False  # Spoiled during Prep: the next Harvest is skipped
    conceded: bool = False  # left the table: their turns are skipped, they lose


class Pending(BaseModel):
    """An ability waiting to resolve: whose, from where (`source`: "a:<instance>" an
    advancement, "v:<instance>" a vale, "l:<leader id>:<side>" a leader), which of its
    abilities, the field card it acts from, how far it got."""

    seat: int
    source: str
    ability: int
    card: int | None = None
    op: int = 0
    agreed: bool = False  # an ability its owner chooses to use: they said yes and paid


class Harvest(BaseModel):
    """What the active player has to spend in this Harvest, and what they bought."""

    mana: int = 0
    sky: int = 0
    animal: int = 0
    water: int = 0
    plant: int = 0
    guardian: int = 0
    growth: int = 0  # growth gained from abilities and rewards this turn
    buys: int = 0  # advancements bought (and leader upgrades): two at most
    vale_buys: int = 0  # vales bought: two at most
    advancements_started: bool = False  # once an advancement is bought, no more vales
    bought: list[int] = Field(default_factory=list)  # advancements to sleeve in Discard
    sleeved_now: list[int] = Field(default_factory=list)  # sleeved during this Harvest
    scored: bool = False  # the field's VP and curse tokens have been taken
    no_curses: list[int] = Field(default_factory=list)  # cards whose curses were cancelled
    # abilities usable before or after the tokens, declined before: offered again after
    after_tokens: list[Pending] = Field(default_factory=list)


class Frame(BaseModel):
    """A decision the game waits for: its kind, who decides, the question, the options."""

    kind: str
    deciders: list[int]
    prompt: str = ""
    options: list[str] = Field(default_factory=list)
    subject: int | None = None  # the card or instance the decision is about


class Commons(BaseModel):
    """The advancements and vales for sale, and the decks that refill them."""

    decks: dict[int, list[int]] = Field(default_factory=lambda: {1: [], 2: [], 3: []})
    rows: dict[int, list[int | None]] = Field(
        default_factory=lambda: {1: [None] * 3, 2: [None] * 3, 3: [None] * 3}
    )
    level4: list[int] = Field(default_factory=list)
    fertile: list[int] = Field(default_factory=list)  # the Fertile Soil supply
    vale_decks: dict[int, list[int]] = Field(default_factory=lambda: {1: [], 2: []})
    vale_rows: dict[int, list[int | None]] = Field(
        default_factory=lambda: {1: [None] * 4, 2: [None] * 4}
    )
    curses: dict[int, int] = Field(default_factory=dict)  # advancement -> curse tokens on it


class Nemesis(BaseModel):
    """The solitaire variant's opponent: its card (sleeved over one of the player's
    cards), the side of the corruption track and the hourglass's space on it (0: Start),
    its score pile (claimed advancement and vale instances, VP tokens), and what its
    abilities remember within a turn."""

    card: str  # the nemesis' card id in the pack
    physical: int  # the player card it is sleeved over
    side: Literal["easy", "standard"]
    space: int = 0
    pile: list[int] = Field(default_factory=list)
    vp: int = 0
    pushes: int = 0  # pushes this Planting (Abomination)
    forced_spoil: bool = False  # Corrupted Centaur turned over: the next Spoil test Spoils
    spot: str = ""  # where the card was when the Harvest began (Abomination)
    score: int | None = None  # its final score, once the game is over


class State(BaseModel):
    """A whole game of Mystic Vale."""

    variant: Variant
    pack: str
    mix: str = "nemesis"
    leaders: bool = False
    cards: list[str] = Field(default_factory=list)  # advancement and vale instance -> id
    boxed: list[int] = Field(default_factory=list)  # instances back in the box
    physical: list[Card] = Field(default_factory=list)  # every player card, by id
    players: list[Player]
    commons: Commons = Field(default_factory=Commons)
    pool: int  # VP tokens in the pool: the game clock
    pool_start: int
    pool_added: int = 0  # put into the pool by effects
    from_pool: int = 0  # taken from the pool
    from_box: int = 0  # taken from the box once the pool ran out (or by choice)
    spent_vp: int = 0  # VP tokens spent or discarded (back to the box)
    first: int  # the first player (the starred mana token)
    active: int
    round: int = 1
    turn: int = 0  # turns taken in all
    phase: Phase = "prep"
    last_round: bool = False  # the pool ran out: the round is finished, then the game ends
    finals: list[int] = Field(default_factory=list)  # seats still to take Nightvale's Harvest
    final: bool = False  # a Nightvale Agent's final Harvest is under way
    final_picks: list[int] = Field(default_factory=list)  # the cards chosen for it
    extra_turn: bool = False  # the active seat takes another turn after this one
    harvest: Harvest | None = None
    opening: bool = True  # the opening Preps of the set-up are under way
    prepping: list[int] = Field(default_factory=list)  # seats still to carry out a Prep
    prep_step: Literal["start", "move", "reveal", "check"] = "start"
    check_spoil: bool = False  # a push happened: test for a Spoil once its effects resolved
    pending: list[Pending] = Field(default_factory=list)  # abilities to resolve, in order
    staying: list[int] = Field(default_factory=list)  # field cards kept through Discard
    gargoyle: list[str] = Field(default_factory=list)  # leaders Gargoyle Summoner drew
    frames: list[Frame] = Field(default_factory=list)
    winners: list[int] = Field(default_factory=list)
    losers: list[int] = Field(default_factory=list)
    scores: dict[str, int] = Field(default_factory=dict)  # seat -> final score
    end_text: str = ""
    nemesis: Nemesis | None = None  # the solitaire variant's opponent

    def card(self, card_id: int) -> Card:
        """A physical card by its id."""
        return self.physical[card_id]
