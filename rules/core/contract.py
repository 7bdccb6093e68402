"""The rules-engine contract shared by every game.

A game is a module-level object implementing `Game`. The service never looks
inside a state: it asks the game who must decide, what they may do, applies
one action at a time and shows each seat only its own view.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, model_validator

Seat = int
M = TypeVar("M", bound=BaseModel)


def passing(candidates: Iterable[Action], check: Callable[[Action], None]) -> list[Action]:
    """The candidates `check` accepts (it raises IllegalAction for the others): how a
    game builds `legal_actions` from the very checks `apply` runs."""
    legal = []
    for action in candidates:
        try:
            check(action)
        except IllegalAction:
            continue
        legal.append(action)
    return legal


def fresh_copy(state: M) -> M:
    """An independent copy of a state (a round trip through JSON, done by pydantic's
    compiled core, is several times faster than a deep copy of the models)."""
    return type(state).model_validate_json(state.model_dump_json())


class IllegalAction(Exception):
    """A refusal a player caused; `message` is a sentence meant for them."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Action(BaseModel):
    """One decision a seat can take. `key` is its stable, compact identity."""

    model_config = ConfigDict(frozen=True)

    kind: str
    args: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return "|".join((self.kind, *self.args))

    @classmethod
    def from_key(cls, key: str) -> Action:
        kind, *args = key.split("|")
        return cls(kind=kind, args=tuple(args))


class Event(BaseModel):
    """Something that happened. `text` is public; `private` lines go only to
    the seats named as keys (as strings, so the model round-trips through JSON)."""

    model_config = ConfigDict(frozen=True)

    kind: str
    text: str
    seat: Seat | None = None
    private: dict[str, str] = Field(default_factory=dict)
    # True when this event showed someone a card that was hidden (a draw, the top of a
    # deck, a searched deck, a random discard): taking it back would not hide it again.
    reveals: bool = False

    def text_for(self, seat: Seat | None) -> str:
        """The line this seat reads: its private version when it has one."""
        if seat is not None and str(seat) in self.private:
            return self.private[str(seat)]
        return self.text


class Outcome(BaseModel):
    """How a game ended: `reason` in a word or two ("deck empty", "concession"), `text`
    the whole story in a sentence for the table ("Ada's deck is empty: Basil wins.").
    A game the players play against the game itself (a solitaire nemesis) names that
    opponent in `against`, with how hard it is (`against_level`, 1 easy to 4)."""

    winners: list[Seat]
    losers: list[Seat]
    reason: str
    text: str = ""
    against: str | None = None
    against_level: int = 0
    # The seats in the order they finished, tied seats together, where the game ranks
    # them all (Mystic Vale's scores); empty: the winners, then the rest, then the losers.
    places: list[list[Seat]] = Field(default_factory=list)


class SeatSpec(BaseModel):
    """A seat at the table as the lobby filled it: its index and display name."""

    seat: Seat
    name: str


class VariantInfo(BaseModel):
    """What a variant needs from the lobby."""

    id: str
    name: str
    min_players: int
    max_players: int
    teams: bool = False
    blurb: str = ""


PACK_OPTION = "pack"  # the entry of `setup`'s options naming the card pack (not an OptionInfo)
OPTION_ID = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")  # it travels in a component's custom id
MAX_CHOICES = 25  # the options one Discord select menu holds
NAME_LIMIT = 100  # Discord: a select option's label and value, an autocomplete choice


class OptionInfo(BaseModel):
    """A setting of a game that the lobby's host chooses before the deal, such as
    leaders on or off. `setup` receives the value of every declared option (see
    `rules.core.resolve_options`) beside the card pack.

    `choices` maps each value to what players read ("on" → "Leaders on"), in the order
    menus show them; a choice's label should make sense alone (the board's footer lists
    the chosen labels; the lobby writes "Leaders: off" for a label that is the option's
    label and one word). `default` is the value unless the host picks another, and
    `variant_defaults` gives some variants another default ({"solo": "on"}), and `only`
    names the variants the option belongs to when it doesn't belong to all of them (the
    others neither show nor use it). `blurb` says in one line what the option changes.
    Invalid declarations raise ValueError when the model is built, so at import.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    label: str
    choices: dict[str, str]
    default: str
    variant_defaults: dict[str, str] = {}
    only: tuple[str, ...] = ()  # the variants it belongs to (empty: every variant)
    blurb: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> OptionInfo:
        where = f"option {self.id!r}"
        if not OPTION_ID.match(self.id) or self.id == PACK_OPTION:
            raise ValueError(
                f"{where}: an id is 1 to 32 lower-case letters, digits, '-' or '_', starting "
                f"with a letter, and not {PACK_OPTION!r} (the card pack's entry)"
            )
        if not 0 < len(self.label.strip()) <= NAME_LIMIT:
            raise ValueError(f"{where}: its label must be 1 to {NAME_LIMIT} characters")
        if not 2 <= len(self.choices) <= MAX_CHOICES:
            raise ValueError(f"{where}: it needs 2 to {MAX_CHOICES} choices")
        for value, label in self.choices.items():
            if not value or value != value.strip() or len(value) > NAME_LIMIT:
                raise ValueError(f"{where}: choice value {value!r} is empty, padded or too long")
            if not 0 < len(label.strip()) <= NAME_LIMIT:
                raise ValueError(f"{where}: the label of {value!r} is empty or too long")
        for variant, value in {"": self.default, **self.variant_defaults}.items():
            if value not in self.choices:
                default = f"the default of variant {variant!r}" if variant else "the default"
                raise ValueError(f"{where}: {default}, {value!r}, is not one of its choices")
        return self

    def default_for(self, variant: str) -> str:
        """The value this option takes in `variant` unless the host picks another."""
        return self.variant_defaults.get(variant, self.default)

    def belongs_to(self, variant: str) -> bool:
        """Whether a match of `variant` shows and uses this option."""
        return not self.only or variant in self.only


class PreferenceInfo(BaseModel):
    """A standing answer a player may set for themselves, for every match of a game: once
    set, the game answers for them when a decision it applies to comes (see
    `Game.standing_answer`). `reveals` says what the table may learn from an answer given
    that way, at once (players are told before they set it)."""

    model_config = ConfigDict(frozen=True)

    id: str
    label: str
    reveals: str


@runtime_checkable
class Game(Protocol):
    """Every game implements this; see DESIGN.md, "The rules engine contract"."""

    id: ClassVar[str]
    name: ClassVar[str]
    variants: ClassVar[dict[str, VariantInfo]]
    # The settings the lobby's host chooses, by id, in the order the lobby shows them
    # (at most four; `{}` for none). Build it with `rules.core.declare_options`.
    options: ClassVar[dict[str, OptionInfo]]
    # Action kinds whose arguments are the player's own words (a name, a number), so
    # `legal_actions` can't list them all: an action of one of these kinds is legal when
    # `apply` accepts it, listed or not. Most games have none (`frozenset()`).
    open_kinds: ClassVar[frozenset[str]]
    # The standing answers a player may set (`PreferenceInfo`), by id; `{}` for none.
    preferences: ClassVar[dict[str, PreferenceInfo]]
    state_model: ClassVar[type[BaseModel]]
    rules_summary: ClassVar[str]
    default_pack: ClassVar[str | None]  # the bundled card pack's name, if the game has packs

    def setup(
        self, variant: str, seats: list[SeatSpec], options: dict[str, Any], seed: int
    ) -> BaseModel:
        """A new game, with the initial shuffles drawn from `seed`. `options` holds the
        value of every declared option (the service resolves them; a direct caller may
        pass fewer, so read them through `rules.core.resolve_options`) and, under
        `"pack"`, the card pack's name."""

    def to_act(self, state: BaseModel) -> set[Seat]:
        """Every seat whose decision the game waits for now (out-of-turn ones included):
        they are called, and their clocks run."""

    def legal_actions(self, state: BaseModel, seat: Seat) -> list[Action]:
        """Exactly the actions `apply` accepts from `seat` now (of `open_kinds`, the ones
        worth offering). A seat the game doesn't wait for may have some: it may act
        without being called (a report at a Historia table)."""

    def apply(
        self, state: BaseModel, seat: Seat, action: Action, rng: random.Random
    ) -> tuple[BaseModel, list[Event]]:
        """The next state and what happened; raises IllegalAction and changes nothing."""

    def view(self, state: BaseModel, seat: Seat | None) -> dict[str, Any]:
        """What `seat` may see (None: the public view). Hidden cards never appear.

        Entries read by the bot, when present: `"quick"` in the public view, the choices
        worth a button under the line that calls their seat (`[{"key", "label", "style"?,
        "seat"?}]`: the active seat's, or `seat`'s when it decides out of turn);
        `"responding"` in the public view, the seats answering a response window (an
        attack on their side), whose call carries a Respond button (other seats deciding
        out of turn get My hand); and `"together"` in a seat's view, cards it chooses
        together in one multi-select (`{"kind", "count", "label",
        "cards": [{"id", "name"}]}`: the action `<kind>|<id>+<id>…`, the ids in order)."""

    def redeal(self, state: BaseModel, seat: Seat, rng: random.Random) -> BaseModel:
        """A state `seat` can't tell from this one: every card hidden from it dealt again at
        random among the places it may be in (each pile keeps its size), so that
        `view(…, seat)` is unchanged. What a player that never peeks imagines (see `ai`)."""

    def outcome(self, state: BaseModel) -> Outcome | None:
        """Winners and losers once the game is over, else None."""

    def describe(self, action: Action, state: BaseModel) -> str:
        """The human label for an action, as shown in menus: never the same for two legal
        actions of one seat (positions and owners are named where names repeat)."""

    def acknowledge(self, action: Action, state: BaseModel, seat: Seat) -> str:
        """What `seat` reads once it took `action` in `state`: what happened, addressed to
        them ("Your civilization is the Romans."; from a label alone, "You chose: End
        turn", see `rules.core.text.chose`), never the label alone, which reads as a
        button."""

    def explain(self, action: Action, state: BaseModel, seat: Seat | None = None) -> str:
        """What choosing a legal action of `seat` costs and leads to, in a few words for a
        menu option's description ("1 AP · from your hand into Row II", "removes
        Sootstripe Skirmisher from the game"); "" when the label says it all."""

    def question(self, state: BaseModel, seat: Seat) -> str | None:
        """What the game asks of `seat` now, addressed to them, with what is at stake
        ("your turn — Action Step, 3 AP left"; "Dev attacks Timber (Row I) with Far
        Strike for 2 DMG — respond?"); None when it waits for nothing from them."""

    def standing_answer(
        self, state: BaseModel, seat: Seat, chosen: frozenset[str]
    ) -> Action | None:
        """The legal action `seat` takes by itself now under the standing answers its
        player `chosen` (ids of `preferences`), if one applies; None otherwise."""

    def card_texts(self, pack: str | None) -> dict[str, str]:
        """Every card of a pack (None: the bundled one), by the name players read, with
        its full text: what `/card` shows. A game without cards has none."""

    def candidates(self, state: BaseModel, seat: Seat) -> list[Action]:
        """Everything `seat` might try now: the legal actions and more, each of the others
        refused by `apply` with the rule it breaks, so that text naming an action which
        is not legal now can be answered with the reason."""

    def active_seat(self, state: BaseModel) -> Seat | None:
        """Whose turn it is (None during set-up and after the end); in a game where a
        team takes its turn together, any seat of that team. While it is someone's turn,
        a decision by a seat of another team is out of turn, such as a response window."""

    def timeout_action(self, state: BaseModel, seat: Seat) -> Action:
        """What the game does for `seat` when its clock runs out: pass a response, end
        the turn, or the mildest option of a decision that must be made. Always legal."""

    def team_of(self, state: BaseModel, seat: Seat) -> int:
        """The team a seat plays for (every seat is on a team, alone or not)."""

    def rename(self, state: BaseModel, seat: Seat, name: str) -> BaseModel:
        """The state with the player in `seat` known by a new name (the seat changed
        hands); nothing else changes."""

    def concede(
        self, state: BaseModel, seat: Seat, rng: random.Random
    ) -> tuple[BaseModel, list[Event]]:
        """The state after `seat` concedes (allowed at any moment); `rng` is the one for
        this action's number, should the game go on and need it."""
