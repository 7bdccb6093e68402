"""The state of a Historia table as the Ways of Command module needs it.

Arbiter keeps only what the module's rule reads: each civilization's territories, its
Military and Technology levels, its cubes by place, and its Command token; the Era and
the turn; and the reports that changed them, so a report can be disputed. Everything
else of Historia is played on the table.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

Category = Literal["territory", "military", "technology"]
CATEGORIES: tuple[Category, ...] = ("territory", "military", "technology")
Track = Literal["military", "technology"]
TRACKS: tuple[Track, ...] = ("military", "technology")
Power = Literal["cubes", "shared", "technology", "military"]
POWERS: tuple[Power, ...] = ("cubes", "shared", "technology", "military")
# Where a civilization's cubes are: its personal supply, the Bank (the general
# supply), the Used Pool, its reserve, and on the map (in its territories).
Place = Literal["supply", "bank", "used", "reserve", "map"]
PLACES: tuple[Place, ...] = ("supply", "bank", "used", "reserve", "map")
SOURCES: tuple[Place, ...] = ("bank", "used", "reserve")  # where a token's cube comes from
# "ending": the end of an Era is reported and waits for the table to agree.
Phase = Literal["setup", "era", "dispute", "ending", "final", "over"]
TokenStatus = Literal["available", "active", "removed"]

CUBES = 10  # power cubes per civilization (Historia's component count)
ERAS = 3  # Historia is played over three Eras
TURNS = 4  # of four turns each
MAX_LEVEL = 30  # a level past any track: the highest a report may set


class Token(BaseModel):
    """A civilization's Command token: its two category symbols, and once activated the
    power chosen, where its cube came from and what the power gave."""

    symbols: tuple[Category, Category]
    status: TokenStatus = "available"
    power: Power | None = None
    cube_from: Place | None = None
    cubes_taken: int = 0  # the "cubes" power: how many went from the Bank to the supply
    era: int = 0  # the Era it was activated in
    # What the player's word corrected as it was activated, undone if it is taken back:
    # where the cube it counted in `cube_from` had been counted, and how many cubes the
    # cubes power added to the civilization's count.
    recounted: Place | None = None
    cubes_added: int = 0


class Civilization(BaseModel):
    """One seat's civilization. `levels` are the levels the table reports (the base);
    an active power adds to them until the end of the Era."""

    seat: int
    player: str
    name: str = ""  # empty until the player names it
    territories: list[str] = Field(default_factory=list)  # in the order they were added
    levels: dict[Track, int] = Field(default_factory=lambda: {"military": 0, "technology": 0})
    # The highest level each track has shown (base plus Command), for the bonus reminders.
    reached: dict[Track, int] = Field(default_factory=lambda: {"military": 0, "technology": 0})
    cubes: dict[Place, int] = Field(
        default_factory=lambda: {"supply": CUBES, "bank": 0, "used": 0, "reserve": 0, "map": 0}
    )
    token: Token
    conceded: bool = False
    # Cubes the cubes power brought from the general supply beyond those Arbiter counted
    # there (the player's word): the civilization's cubes are CUBES and these.
    added_cubes: int = 0


class Report(BaseModel):
    """One change the table told Arbiter of, kept so it can be disputed: who made it,
    what it said, and the action that takes it back (None when nothing can)."""

    number: int
    seat: int
    text: str
    inverse: str | None = None
    status: Literal["", "disputed", "stands", "retracted"] = ""
    # What the report set that must still stand for it to be taken back as it was made
    # (a level, the turn), and the reporter's highest levels before it (restored then).
    after: int | None = None
    reached: dict[Track, int] | None = None
    setup: bool = False  # made in the set-up: it announced no bonus (starting levels)


class Dispute(BaseModel):
    """A report someone disputes: the match waits while the table settles it."""

    report: int
    by: int
    resume: Phase  # the phase the match goes back to


class Proposal(BaseModel):
    """What a player reported that the others must confirm, and who has agreed: the end
    of an Era (no winners), or after the last Era who won."""

    by: int
    winners: list[int]
    agreed: list[int] = Field(default_factory=list)


class EraRecord(BaseModel):
    """What happened to the Command tokens in one Era, for its summary."""

    era: int
    activations: list[str] = Field(default_factory=list)


class State(BaseModel):
    """A Ways of Command table."""

    variant: str
    phase: Phase = "setup"
    era: int = 1
    turn: int = 1
    civs: list[Civilization]
    reports: list[Report] = Field(default_factory=list)  # the recent ones, of this Era
    # The number of the game's latest report: one numbering for the whole game, on from
    # one Era to the next.
    reported: int = 0
    dispute: Dispute | None = None
    proposal: Proposal | None = None
    history: list[EraRecord] = Field(default_factory=list)
    winners: list[int] = Field(default_factory=list)
    end_text: str = ""

    @model_validator(mode="before")
    @classmethod
    def _numbered_on(cls, data: Any) -> Any:
        """A match saved before the count of reports was kept numbers on from its latest
        report (its numbers had started again with each Era): a match of the first Era
        reads as if the count had always been kept, so its log replays to it."""
        if isinstance(data, dict) and "reported" not in data and data.get("reports"):
            latest = data["reports"][-1]
            number = latest.get("number") if isinstance(latest, dict) else latest.number
            data = {**data, "reported": number}
        return data

    def civ(self, seat: int) -> Civilization:
        return self.civs[seat]

    def in_play(self) -> list[Civilization]:
        """The civilizations whose players have not conceded."""
        return [c for c in self.civs if not c.conceded]

    def report(self, number: int) -> Report | None:
        return next((r for r in self.reports if r.number == number), None)
