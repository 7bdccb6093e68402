"""Tally: a small test-only game exercising the whole contract the bot relies on.

Each seat first raises a banner (30 colours: more than one select-menu page),
in turn, or all at once in the Muster variant (several seats deciding at the
same time); then seats take turns playing a numbered card from a hidden hand onto their
team's tally and drawing a replacement from their own shuffled deck. A card
of 4 or more opens an out-of-turn decision for the next opponent: challenge
(a coin flip, from the action's rng, may cancel the card) or let it stand.
The first team to reach the target wins; a seat that cannot play ends the
game and the best tally wins.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Literal

from pydantic import BaseModel

from rules.core import (
    Action,
    Event,
    IllegalAction,
    OptionInfo,
    Outcome,
    PreferenceInfo,
    SeatSpec,
    VariantInfo,
    deal_again,
    shuffle,
)
from rules.core.text import chose

COLOURS = [
    "amber", "azure", "beige", "black", "bronze", "brown", "coral", "crimson", "cyan", "gold",
    "green", "grey", "indigo", "ivory", "jade", "khaki", "lemon", "lilac", "lime", "magenta",
    "maroon", "navy", "olive", "orange", "pink", "plum", "ruby", "silver", "teal", "white",
]  # fmt: skip

HAND_SIZE = 3


class Player(BaseModel):
    seat: int
    name: str
    team: int
    banner: str | None = None
    hand: list[int]
    deck: list[int]


class TallyState(BaseModel):
    variant: str
    target: int
    players: list[Player]
    tallies: dict[int, int]
    phase: Literal["banner", "play", "challenge", "over"] = "banner"
    turn: int = 0
    pending: int | None = None
    winners: list[int] = []
    losers: list[int] = []
    reason: str = ""


class Tally:
    """The test game. Implements every method of `rules.core.Game`."""

    id: ClassVar[str] = "tally"
    name: ClassVar[str] = "Tally"
    variants: ClassVar[dict[str, VariantInfo]] = {
        "duel": VariantInfo(id="duel", name="Duel", min_players=2, max_players=2),
        "melee": VariantInfo(id="melee", name="Melee", min_players=2, max_players=4),
        "teams": VariantInfo(id="teams", name="Teams", min_players=4, max_players=4, teams=True),
        "muster": VariantInfo(id="muster", name="Muster", min_players=2, max_players=4),
    }
    options: ClassVar[dict[str, OptionInfo]] = {}
    open_kinds: ClassVar[frozenset[str]] = frozenset()
    preferences: ClassVar[dict[str, PreferenceInfo]] = {}  # no standing answers
    state_model: ClassVar[type[BaseModel]] = TallyState
    rules_summary: ClassVar[str] = (
        "Raise a banner, then play a card a turn onto your team's tally and draw. "
        "A card of 4 or more may be challenged by the next opponent."
    )
    default_pack: ClassVar[str | None] = None

    def setup(
        self, variant: str, seats: list[SeatSpec], options: dict[str, Any], seed: int
    ) -> TallyState:
        rng = random.Random(f"tally:{seed}")
        players = []
        for spec in seats:
            deck = [value for value in range(1, 6) for _ in range(3)]
            shuffle(deck, rng)
            team = spec.seat % 2 if variant == "teams" else spec.seat
            players.append(
                Player(
                    seat=spec.seat,
                    name=spec.name,
                    team=team,
                    hand=deck[:HAND_SIZE],
                    deck=deck[HAND_SIZE:],
                )
            )
        tallies = {player.team: 0 for player in players}
        return TallyState(variant=variant, target=12, players=players, tallies=tallies)

    def standing_answer(self, state: BaseModel, seat: int, chosen: frozenset[str]) -> Action | None:
        return None

    def card_texts(self, pack: str | None) -> dict[str, str]:
        return {}  # no cards to look up

    def team_of(self, state: BaseModel, seat: int) -> int:
        return _s(state).players[seat].team

    def to_act(self, state: BaseModel) -> set[int]:
        s = _s(state)
        if s.phase == "over":
            return set()
        if s.phase == "challenge":
            return {self._challenger(s)}
        if s.phase == "banner" and s.variant == "muster":
            return {p.seat for p in s.players if p.banner is None}
        return {s.turn}

    def active_seat(self, state: BaseModel) -> int | None:
        s = _s(state)
        return s.turn if s.phase in ("play", "challenge") else None

    def timeout_action(self, state: BaseModel, seat: int) -> Action:
        s = _s(state)
        if s.phase == "challenge":
            return Action(kind="allow")
        return self.legal_actions(s, seat)[0]

    def legal_actions(self, state: BaseModel, seat: int) -> list[Action]:
        s = _s(state)
        if seat not in self.to_act(s):
            return []
        if s.phase == "banner":
            taken = {p.banner for p in s.players}
            return [Action(kind="banner", args=(c,)) for c in COLOURS if c not in taken]
        if s.phase == "challenge":
            return [Action(kind="challenge"), Action(kind="allow")]
        return [Action(kind="play", args=(str(v),)) for v in sorted(set(s.players[seat].hand))]

    def apply(
        self, state: BaseModel, seat: int, action: Action, rng: random.Random
    ) -> tuple[TallyState, list[Event]]:
        s = _s(state).model_copy(deep=True)
        if seat not in self.to_act(s):
            raise IllegalAction("not-your-turn", "It is not your turn.")
        me = s.players[seat]
        if s.phase == "banner":
            if action.kind != "banner" or len(action.args) != 1 or action.args[0] not in COLOURS:
                raise IllegalAction("banner-first", "First raise a banner (rule: Set-up).")
            if any(p.banner == action.args[0] for p in s.players):
                raise IllegalAction("banner-taken", "Someone already raised that banner.")
            me.banner = action.args[0]
            if s.variant != "muster":
                s.turn = (seat + 1) % len(s.players)
            if all(p.banner for p in s.players):
                s.phase = "play"
            return s, [Event(kind="banner", seat=seat, text=f"{me.name} raises {me.banner}.")]
        if s.phase == "challenge":
            if action.kind not in ("challenge", "allow") or s.pending is None:
                raise IllegalAction("respond", "Challenge the card or let it stand.")
            card, s.pending = s.pending, None
            player = s.players[s.turn]
            if action.kind == "challenge" and rng.random() < 0.5:
                text = f"{me.name} challenges and cancels {player.name}'s {card}."
            else:
                s.tallies[player.team] += card
                verb = "challenges, but" if action.kind == "challenge" else "lets"
                text = f"{me.name} {verb} {player.name}'s {card} stand."
            events = [Event(kind=action.kind, seat=seat, text=text)]
            return self._next_turn(s, events)
        if action.kind != "play" or len(action.args) != 1 or not action.args[0].isdigit():
            raise IllegalAction("play", "Play a card from your hand.")
        value = int(action.args[0])
        if value not in me.hand:
            raise IllegalAction("not-in-hand", f"You hold no {value}.")
        me.hand.remove(value)
        events = [Event(kind="play", seat=seat, text=f"{me.name} plays a {value}.")]
        if me.deck:
            drawn = me.deck.pop(0)
            me.hand.append(drawn)
            events.append(
                Event(
                    kind="draw",
                    seat=seat,
                    text=f"{me.name} draws a card.",
                    private={str(seat): f"You draw a {drawn}."},
                    reveals=True,
                )
            )
        if value >= 4:
            s.phase = "challenge"
            s.pending = value
            return s, events
        s.tallies[me.team] += value
        return self._next_turn(s, events)

    def redeal(self, state: BaseModel, seat: int, rng: random.Random) -> TallyState:
        new = _s(state).model_copy(deep=True)
        for p in new.players:
            deal_again([p.deck] if p.seat == seat else [p.deck, p.hand], rng)
        return new

    def rename(self, state: BaseModel, seat: int, name: str) -> TallyState:
        s = _s(state).model_copy(deep=True)
        s.players[seat].name = name
        return s

    def concede(
        self, state: BaseModel, seat: int, rng: random.Random
    ) -> tuple[TallyState, list[Event]]:
        s = _s(state).model_copy(deep=True)
        me = s.players[seat]
        swept = [*me.deck, *me.hand]  # the conceder's cards, swept up and shuffled
        shuffle(swept, rng)
        me.deck, me.hand = swept, []
        team = me.team
        s.phase = "over"
        s.losers = [p.seat for p in s.players if p.team == team]
        s.winners = [p.seat for p in s.players if p.team != team]
        s.reason = f"{s.players[seat].name} conceded"
        return s, [Event(kind="concede", seat=seat, text=f"{s.players[seat].name} concedes.")]

    def view(self, state: BaseModel, seat: int | None) -> dict[str, Any]:
        s = _s(state)
        to_act = sorted(self.to_act(s))
        view: dict[str, Any] = {
            "game": self.id,
            "variant": s.variant,
            "phase": s.phase,
            "turn": s.turn,
            "to_act": to_act,
            "responding": to_act if s.phase == "challenge" else [],  # a challenge answers a card
            "prompt": self._prompt(s),
            "players": [
                {
                    "seat": p.seat,
                    "name": p.name,
                    "team": p.team,
                    "banner": p.banner,
                    "tally": s.tallies[p.team],
                    "hand_count": len(p.hand),
                    "deck": len(p.deck),
                }
                for p in s.players
            ],
            "outcome": self._outcome_dict(s),
        }
        if seat is not None:
            view["me"] = seat
            view["hand"] = [
                {"id": str(v), "name": f"Card {v}", "text": f"Worth {v}."}
                for v in s.players[seat].hand
            ]
            view["decision"] = self._prompt(s) if seat in to_act else None
        return view

    def outcome(self, state: BaseModel) -> Outcome | None:
        s = _s(state)
        if s.phase != "over":
            return None
        return Outcome(winners=s.winners, losers=s.losers, reason=s.reason)

    def describe(self, action: Action, state: BaseModel) -> str:
        s = _s(state)
        if action.kind == "banner":
            return f"Raise the {action.args[0]} banner"
        if action.kind == "play":
            return f"Play a {action.args[0]}"
        player = s.players[s.turn].name
        if action.kind == "challenge":
            return f"Challenge {player}'s {s.pending}"
        return f"Let {player}'s {s.pending} stand"

    def acknowledge(self, action: Action, state: BaseModel, seat: int) -> str:
        return chose(self.describe(action, state))

    def explain(self, action: Action, state: BaseModel, seat: int | None = None) -> str:
        s = _s(state)
        if action.kind == "play":
            value = int(action.args[0])
            return f"+{value} to your tally" + (" · may be challenged" if value >= 4 else "")
        if action.kind == "challenge":
            return "a coin flip: heads cancels the card"
        if action.kind == "allow":
            return f"{s.pending} more for {s.players[s.turn].name}'s team"
        return ""

    def question(self, state: BaseModel, seat: int) -> str | None:
        s = _s(state)
        if seat not in self.to_act(s):
            return None
        if s.phase == "banner":
            return "your turn — raise a banner"
        if s.phase == "challenge":
            return f"{s.players[s.turn].name} plays a {s.pending} — challenge it?"
        return f"your turn — play a card (your tally: {s.tallies[s.players[seat].team]})"

    def candidates(self, state: BaseModel, seat: int) -> list[Action]:
        s = _s(state)
        if s.phase == "banner":
            return [Action(kind="banner", args=(c,)) for c in COLOURS]
        if s.phase == "challenge":
            return [Action(kind="challenge"), Action(kind="allow")]
        return [Action(kind="play", args=(str(v),)) for v in range(1, 6)]

    def _challenger(self, s: TallyState) -> int:
        count = len(s.players)
        team = s.players[s.turn].team
        for step in range(1, count):
            other = s.players[(s.turn + step) % count]
            if other.team != team:
                return other.seat
        raise AssertionError("a game always has two teams")

    def _prompt(self, s: TallyState) -> str:
        if s.phase == "banner" and s.variant == "muster":
            return "Everyone raises a banner."
        if s.phase == "banner":
            return f"{s.players[s.turn].name} raises a banner."
        if s.phase == "challenge":
            challenger = s.players[self._challenger(s)].name
            return f"{challenger} may challenge {s.players[s.turn].name}'s {s.pending}."
        if s.phase == "play":
            return f"{s.players[s.turn].name} plays a card."
        return "The game is over."

    def _next_turn(self, s: TallyState, events: list[Event]) -> tuple[TallyState, list[Event]]:
        s.phase = "play"
        best = max(s.tallies.values())
        if best >= s.target:
            return self._finish(s, events, f"reached {s.target}")
        s.turn = (s.turn + 1) % len(s.players)
        if not s.players[s.turn].hand:
            return self._finish(s, events, f"{s.players[s.turn].name} has no card left")
        return s, events

    def _finish(
        self, s: TallyState, events: list[Event], reason: str
    ) -> tuple[TallyState, list[Event]]:
        best = max(s.tallies.values())
        s.phase = "over"
        s.winners = [p.seat for p in s.players if s.tallies[p.team] == best]
        s.losers = [p.seat for p in s.players if s.tallies[p.team] != best]
        s.reason = reason
        names = ", ".join(s.players[w].name for w in s.winners)
        events.append(Event(kind="over", text=f"Game over ({reason}): {names} win."))
        return s, events

    @staticmethod
    def _outcome_dict(s: TallyState) -> dict[str, Any] | None:
        if s.phase != "over":
            return None
        return {"winners": s.winners, "losers": s.losers, "reason": s.reason}


def _s(state: BaseModel) -> TallyState:
    assert isinstance(state, TallyState)
    return state


GAME = Tally()
