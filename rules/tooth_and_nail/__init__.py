"""Tooth & Nail: Factions — the rulebook's four modes behind the shared contract."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from rules.core import Action, Event, IllegalAction, Outcome, SeatSpec, VariantInfo, fresh_copy
from rules.core.rng import rng_for
from rules.tooth_and_nail import actions, rules
from rules.tooth_and_nail.cards import bundled_pack, get_pack
from rules.tooth_and_nail.state import Frame, Player, State, Troop
from rules.tooth_and_nail.text import faction_text, troop_text

SUMMARY = """\
**Goal.** Empty the other deck before yours runs out: damage moves cards from the top of \
a deck to its discard pile, and a player (or team) whose deck is empty loses at once.
**Your turn.** *Recharge*: draw a card and gain an Action Point, then for each Troop in \
your Command Zone draw a card or gain an AP; recharge your Command Zone Troops and one War \
Zone Troop. (Your first turn: draw 5, gain 3 AP.) *Action*: in any order — play a Troop into \
your Command Zone (max 3) or War Zone (max 6) for 1 AP; use a Command Zone Troop's Command \
Ability for 0 AP (it then leaves the game unless you discard a copy from hand); drain two \
Command Zone Troops for your Faction Ability; attack for 1 AP with one War Zone Troop \
(Boost +1 by removing a card of its Troop Type from hand) or with a Formation Attack.
**Modes.** 2 players; 3 players (elimination, then one revenge hit); Alliance (two \
factions each, 8 War / 4 Command); The Enemy of My Enemy (2 teams of 2 sharing a deck)."""


class ToothAndNail:
    """The Game contract for Tooth & Nail: Factions."""

    id: ClassVar[str] = "tooth-and-nail"
    name: ClassVar[str] = "Tooth & Nail: Factions"
    variants: ClassVar[dict[str, VariantInfo]] = {
        "2p": VariantInfo(
            id="2p", name="2 players", min_players=2, max_players=2, blurb="The standard game."
        ),
        "3p": VariantInfo(
            id="3p",
            name="3 players",
            min_players=3,
            max_players=3,
            blurb="Every opponent is 'the opposing player'; last deck standing wins.",
        ),
        "alliance": VariantInfo(
            id="alliance",
            name="Alliance",
            min_players=2,
            max_players=2,
            blurb="Draft two factions each; bigger zones.",
        ),
        "4p": VariantInfo(
            id="4p",
            name="The Enemy of My Enemy",
            min_players=4,
            max_players=4,
            teams=True,
            blurb="Two teams of two, each sharing one deck.",
        ),
    }
    state_model: ClassVar[type[State]] = State
    rules_summary: ClassVar[str] = SUMMARY
    default_pack: ClassVar[str | None] = bundled_pack().name

    def setup(
        self, variant: str, seats: list[SeatSpec], options: dict[str, Any], seed: int
    ) -> State:
        pack = str(options.get("pack", bundled_pack().name))
        get_pack(pack)
        names = [s.name for s in sorted(seats, key=lambda s: s.seat)]
        return rules.setup_game(variant, names, pack, rng_for(seed, 0))

    def to_act(self, state: State) -> set[int]:  # type: ignore[override]
        return actions.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:  # type: ignore[override]
        return actions.legal_actions(state, seat)

    def apply(
        self, state: State, seat: int, action: Action, rng: random.Random
    ) -> tuple[State, list[Event]]:  # type: ignore[override]
        if not 0 <= seat < len(state.players):
            raise IllegalAction("no-seat", "You are not playing in this game.")
        actions.check(state, seat, action)
        new = fresh_copy(state)
        events = actions.apply_action(new, seat, action, rng)
        return new, events

    def rename(self, state: State, seat: int, name: str) -> State:  # type: ignore[override]
        new = fresh_copy(state)
        new.players[seat].name = name
        return new

    def concede(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:  # type: ignore[override]
        new = fresh_copy(state)
        events = rules.concede(new, seat, rng)
        return new, events + actions.run(new, rng)

    def outcome(self, state: State) -> Outcome | None:  # type: ignore[override]
        if state.phase != "over":
            return None
        return Outcome(
            winners=list(state.winners), losers=list(state.losers), reason=state.end_reason
        )

    def describe(self, action: Action, state: State) -> str:  # type: ignore[override]
        return actions.describe(state, action)

    def active_seat(self, state: State) -> int | None:  # type: ignore[override]
        if state.phase in ("recharge", "action", "revenge"):
            return state.alpha
        return None

    def timeout_action(self, state: State, seat: int) -> Action:  # type: ignore[override]
        return actions.timeout_action(state, seat)

    def team_of(self, state: State, seat: int) -> int:  # type: ignore[override]
        return state.players[seat].team

    def view(self, state: State, seat: int | None) -> dict[str, Any]:  # type: ignore[override]
        return view(state, seat)


def _shown(state: State, card: int) -> str:
    """A card's name as players see it (marked when it is the project's own)."""
    return rules.card_def(state, card).shown_name


def _troop_view(state: State, troop: Troop) -> dict[str, Any]:
    d = rules.card_def(state, troop.card)
    return {
        "name": d.shown_name,
        "strength": d.strength,
        "type": d.type,
        "drained": troop.drained,
    }


def _player_view(state: State, p: Player) -> dict[str, Any]:
    pack = get_pack(state.pack)
    return {
        "seat": p.seat,
        "name": p.name,
        "team": p.team,
        "factions": [pack.faction(f).shown_name for f in p.factions],
        "command_card": pack.faction(p.command_card).shown_name if p.command_card else None,
        "command_card_text": faction_text(pack.faction(p.command_card)) if p.command_card else None,
        "hand_count": len(p.hand),
        "ap": p.ap,
        "eliminated": p.eliminated,
        "command_zone": [_troop_view(state, t) for t in p.command_zone],
        "war_zone": [_troop_view(state, t) for t in p.war_zone],
    }


def _prompt(state: State, frame: Frame | None, seat: int | None) -> str:
    """What the game waits for: for everyone (`seat` None), or addressed to the decider.
    Frame prompts are phrased for a third person ("their deck") and turned to "your"."""
    names = " or ".join(state.players[s].name for s in sorted(actions.to_act(state)))
    if state.phase == "over":
        return "The game is over."
    if frame is None:
        return f"{names} is taking their Action Step." if seat is None else "Take your actions."
    if seat is None:
        return f"Waiting for {names} to {frame.prompt}."
    text = frame.prompt.replace("their ", "your ")
    return text[:1].upper() + text[1:] + "."


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What `seat` may see (None: everyone). Hands and deck order are never included,
    only counts; card instance numbers never leave the engine."""
    pack = get_pack(state.pack)
    frame = actions.top_frame(state)
    out: dict[str, Any] = {
        "game": ToothAndNail.id,
        "variant": state.variant,
        "phase": state.phase,
        "turn": state.turn,
        "alpha": state.alpha,
        "to_act": sorted(actions.to_act(state)),
        "prompt": _prompt(state, frame, None),
        "limits": state.limits,
        "available_factions": [
            {
                "id": f.id,
                "name": f.shown_name,
                "text": faction_text(f),
                "troops": [f"{t.shown_name} ({t.type} {t.strength})" for t in f.troops],
            }
            for f in pack.factions
            if f.id not in rules.taken_factions(state)
        ]
        if state.phase == "faction_choice"
        else [],
        "teams": [
            {
                "team": t.team,
                "seats": list(t.seats),
                "deck": len(t.deck),
                "discard_count": len(t.discard),
                "discard_top": _shown(state, t.discard[-1]) if t.discard else None,
                "discard": [_shown(state, c) for c in t.discard],
                "removed_count": len(t.removed),
                "face_down_removed": len(t.face_down),
            }
            for t in state.teams
        ],
        "players": [_player_view(state, p) for p in state.players],
        "outcome": (
            {"winners": state.winners, "losers": state.losers, "reason": state.end_reason}
            if state.phase == "over"
            else None
        ),
    }
    if seat is not None:
        me = state.players[seat]
        out["me"] = seat
        out["hand"] = [
            {
                "id": state.cards[c],
                "name": _shown(state, c),
                "strength": rules.card_def(state, c).strength,
                "type": rules.card_def(state, c).type,
                "text": troop_text(rules.card_def(state, c)),
            }
            for c in me.hand
        ]
        out["decision"] = _prompt(state, frame, seat) if seat in actions.to_act(state) else None
    return out


GAME = ToothAndNail()

__all__ = ["GAME", "State", "ToothAndNail", "view"]
