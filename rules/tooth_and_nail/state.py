"""The state of a Tooth & Nail game: teams (deck owners), players (zones, hand, AP),
the queue of steps still to resolve, and the decisions the game waits for."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Variant = Literal["2p", "3p", "alliance", "4p"]
Phase = Literal["faction_choice", "command_choice", "recharge", "action", "revenge", "over"]


class Troop(BaseModel):
    """A Troop card in play."""

    card: int
    drained: bool = False


class Team(BaseModel):
    """Who owns a deck and discard pile: one player, or two in The Enemy of My Enemy.

    Piles are lists with the top card last. `face_down` holds the Alliance game's
    ten cards removed unseen; `removed` holds cards removed from the game face up.
    """

    team: int
    seats: list[int]
    factions: list[str] = Field(default_factory=list)
    deck: list[int] = Field(default_factory=list)
    discard: list[int] = Field(default_factory=list)
    removed: list[int] = Field(default_factory=list)
    face_down: list[int] = Field(default_factory=list)
    shown_under: int = 0  # the deck's bottom cards everyone saw go there (Mend)


class Player(BaseModel):
    """One seat: hand, Action Points, Command Zone and War Zone."""

    seat: int
    name: str
    team: int
    factions: list[str] = Field(default_factory=list)
    command_card: str | None = None
    hand: list[int] = Field(default_factory=list)
    # Cards everyone saw go into the hand (returned from play, taken from the discard
    # pile): known there while they stay (see `redeal`).
    shown_in_hand: list[int] = Field(default_factory=list)
    ap: int = 0
    command_zone: list[Troop] = Field(default_factory=list)
    war_zone: list[Troop] = Field(default_factory=list)
    turns_taken: int = 0
    eliminated: bool = False
    revenge_done: bool = False


class Step(BaseModel):
    """One thing still to resolve, in order. `kind` names the rule it performs."""

    kind: str
    actor: int
    source: str = ""
    index: int = 0
    victims: list[int] = Field(default_factory=list)
    card: int | None = None
    amount: int = 0


class Frame(BaseModel):
    """A decision the game waits for. Options are derived from the state, not stored."""

    kind: str
    deciders: list[int]
    step: Step | None = None
    remaining: dict[str, int] = Field(default_factory=dict)
    prompt: str = ""


class State(BaseModel):
    """A whole game of Tooth & Nail: Factions."""

    variant: Variant
    pack: str
    cards: list[str] = Field(default_factory=list)
    players: list[Player]
    teams: list[Team]
    turn_order: list[int]
    start_player: int
    draft_order: list[int] = Field(default_factory=list)
    alpha: int | None = None
    turn: int = 0
    phase: Phase = "faction_choice"
    queue: list[Step] = Field(default_factory=list)
    frames: list[Frame] = Field(default_factory=list)
    winners: list[int] = Field(default_factory=list)
    losers: list[int] = Field(default_factory=list)
    end_reason: str = ""
    end_text: str = ""  # how the game ended, in a sentence ("Ada's deck is empty: Basil wins.")

    def player(self, seat: int) -> Player:
        return self.players[seat]

    def team_of(self, seat: int) -> Team:
        return self.teams[self.players[seat].team]

    @property
    def limits(self) -> dict[str, int]:
        """Zone limits: 3 Command / 6 War, or 4 / 8 with the larger decks of
        Alliance and The Enemy of My Enemy."""
        if self.variant in ("alliance", "4p"):
            return {"command": 4, "war": 8}
        return {"command": 3, "war": 6}

    def living(self) -> list[int]:
        return [p.seat for p in self.players if not p.eliminated]

    def opponents(self, seat: int) -> list[int]:
        """Living seats on other teams."""
        team = self.players[seat].team
        return [p.seat for p in self.players if p.team != team and not p.eliminated]
