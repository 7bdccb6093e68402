"""The state of a Command of Nature game: each player's Sage board, deck, hand and
discard pile; each side's formation, gold and Action Points; the two markets."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rules.command_of_nature.formation import Formation

Variant = Literal["2p", "4p"]
Phase = Literal["sage_choice", "formation", "daybreak", "actions", "market", "cleanup", "over"]


class Player(BaseModel):
    """One seat: a Sage board (level, face-down Champions), a deck, a hand, a discard pile.

    Piles are lists with the top card last."""

    seat: int
    name: str
    team: int
    sage: str | None = None  # the Sage's card id; the player's faction is the Sage's
    level: int = 1
    champions: dict[int, int] = Field(default_factory=dict)  # level -> card, face down
    hand: list[int] = Field(default_factory=list)
    deck: list[int] = Field(default_factory=list)
    discard: list[int] = Field(default_factory=list)
    faction_action_used: bool = False
    sage_defeated: bool = False  # four players: plays on without faction actions or levels
    # What the whole table has seen of this player's hidden cards (kept fixed when the AI
    # imagines them, see `redeal`): cards that went into the hand face up (from the
    # discard pile or the formation), cards put on top of the deck face up, top last.
    shown_in_hand: list[int] = Field(default_factory=list)
    shown_on_top: list[int] = Field(default_factory=list)


class Side(BaseModel):
    """One side of the table (a player, or a team of two): the formation, the wallet and
    the Action Points of its turn."""

    team: int
    seats: list[int]
    formation: Formation
    gold: int = 0
    ap: int = 0
    attacked: list[int] = Field(default_factory=list)  # cards that attacked this turn
    daybreak: list[int] = Field(default_factory=list)  # cards whose daybreak is still usable


class Market(BaseModel):
    """A market deck (top last) and the three cards face up beside it."""

    deck: list[int] = Field(default_factory=list)
    row: list[int] = Field(default_factory=list)
    shown_under: int = 0  # the deck's bottom cards everyone saw go there (a refresh)


class Step(BaseModel):
    """One thing still to resolve, front of the queue first. `kind` names the rule:
    ops (a list of effect ops, see `effects.py`), respond (open the response window),
    hit (an attack's DMG), damage (DMG to one Elemental), defeat_check, played (a
    Command goes to the discard pile), end_attack.

    Decisions an op needs are asked one at a time and kept in `choices`; the op runs
    again from the start with them, and changes the state only once all are made."""

    kind: str
    actor: int
    ops: str = ""  # where the op list lives: see effects.ops_at
    index: int = 0
    optional: bool = False
    source: int | None = None  # the Elemental whose effect this is ("self")
    attacker: int | None = None
    defender: int | None = None
    subject: int | None = None
    same: list[int] = Field(default_factory=list)  # what the op just before picked
    previous: int = 0  # what the op just before moved or removed
    choices: list[str] = Field(default_factory=list)
    card: int | None = None  # damage / played / defeat_check: the card concerned
    amount: int = 0
    attack: bool = False  # damage: this is an attack's DMG
    checked: bool = False  # damage: replacement effects were offered


class Played(BaseModel):
    """A Command on the table while its effect resolves."""

    card: int
    seat: int


class Frame(BaseModel):
    """A decision the game waits for. `prompt` is the question put to the decider ("choose
    the enemy Elemental that takes 3 DMG"); a `choose` frame lists its options, and
    `about` says what they are: elemental (cards in play, by number), card (card ids of a
    pile), count, option (a choose_one's effects, 1-based), attack, use (use or skip an
    optional effect), instead (who takes DMG meant for another), shield (where a shield
    goes)."""

    kind: str
    deciders: list[int]
    prompt: str = ""
    options: list[str] = Field(default_factory=list)
    about: str = ""


class Attack(BaseModel):
    """An attack declared and waiting for the defending side's Instant Commands."""

    seat: int  # the attacking player
    command: int  # the Attack Command card
    attacker: tuple[int, int]
    target: tuple[int, int]  # the target being hit now (the first until DMG lands)
    # The Command's DMG before boosts: the attacker's STR plus its modifier, which may be
    # below 0 (boosts add to STR first; the total is floored at 0 only when DMG lands).
    dmg: int
    reduced: int = 0  # what Instant Commands took off (from the DMG each target gets)
    # What a target's own `is_attacked` triggers took off, when the attack has several
    # targets (target card -> DMG): it reduces the DMG to that target only.
    reduced_for: dict[int, int] = Field(default_factory=dict)
    bonus: int = 0  # extra DMG from effects (attack_bonus)
    boosts: int = 0  # the attacker's boosts, counted once for the attack (for every target)
    attacker_card: int = -1
    target_card: int = -1  # the target being hit now
    # Every target named (an Attack Command with `targets = N` names 1..N), in the order
    # they are hit; `targets` holds their spaces, taken again when DMG starts to land.
    targets: list[tuple[int, int]] = Field(default_factory=list)
    target_cards: list[int] = Field(default_factory=list)
    defeated: bool = False  # an attacked Elemental was defeated
    landed: bool = False  # DMG has been dealt; the Command is in the discard pile
    passed: list[int] = Field(default_factory=list)  # defenders who let it through


class State(BaseModel):
    """A whole game of Command of Nature."""

    variant: Variant
    pack: str
    cards: list[str] = Field(default_factory=list)  # card instance -> card id
    players: list[Player]
    sides: list[Side]
    elementals: Market = Field(default_factory=Market)
    commands: Market = Field(default_factory=Market)
    removed: list[int] = Field(default_factory=list)  # back in the game box
    start_team: int
    active: int  # the side whose turn it is
    turn: int = 0
    phase: Phase = "sage_choice"
    frames: list[Frame] = Field(default_factory=list)
    queue: list[Step] = Field(default_factory=list)
    in_play: list[Played] = Field(default_factory=list)
    attack: Attack | None = None
    cleaned_up: list[int] = Field(default_factory=list)  # seats done with Phase IV
    winners: list[int] = Field(default_factory=list)
    losers: list[int] = Field(default_factory=list)
    end_reason: str = ""
    end_text: str = ""  # the end in a sentence: who lost, why, who won

    @property
    def limits(self) -> dict[str, int]:
        """Action Points per turn and the most gold a wallet holds: 4 and 12 for a
        player, 6 and 20 for a team."""
        return {"ap": 4, "gold": 12} if self.variant == "2p" else {"ap": 6, "gold": 20}

    def side_of(self, seat: int) -> Side:
        return self.sides[self.players[seat].team]
