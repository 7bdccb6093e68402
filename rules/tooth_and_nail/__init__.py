"""Tooth & Nail: Factions — the rulebook's four modes behind the shared contract."""

from __future__ import annotations

import random
from functools import cache
from typing import Any, ClassVar

from rules.core import Action, Event, IllegalAction, Outcome, SeatSpec, VariantInfo, fresh_copy
from rules.core.contract import OptionInfo, PreferenceInfo
from rules.core.rng import deal_again, rng_for
from rules.core.text import chose
from rules.tooth_and_nail import actions, labels, rules
from rules.tooth_and_nail.cards import Faction, bundled_pack, get_pack
from rules.tooth_and_nail.state import Player, State, Team, Troop
from rules.tooth_and_nail.text import (
    ability_text,
    brief_ability,
    brief_formation,
    faction_text,
    formation_text,
    troop_label,
    troop_text,
)

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
            id="2p",
            name="2 players",
            min_players=2,
            max_players=2,
            blurb="One against one: each picks a faction; whoever runs out of deck first loses.",
        ),
        "3p": VariantInfo(
            id="3p",
            name="3 players",
            min_players=3,
            max_players=3,
            blurb="Free-for-all of three: whoever runs out of deck is out; the last one left wins.",
        ),
        "alliance": VariantInfo(
            id="alliance",
            name="Alliance",
            min_players=2,
            max_players=2,
            blurb="One against one, two factions each; zones hold more (8 in War, 4 in Command).",
        ),
        "4p": VariantInfo(
            id="4p",
            name="The Enemy of My Enemy",
            min_players=4,
            max_players=4,
            teams=True,
            blurb="Two teams of two, seats 1 & 3 against 2 & 4; each team shares one deck.",
        ),
    }
    options: ClassVar[dict[str, OptionInfo]] = {}  # none to choose in the lobby
    open_kinds: ClassVar[frozenset[str]] = frozenset()
    preferences: ClassVar[dict[str, PreferenceInfo]] = {}  # no standing answers
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

    def redeal(self, state: State, seat: int, rng: random.Random) -> State:  # type: ignore[override]
        """Each team's unseen cards (its deck, the Alliance cards removed face down, and
        the hands `seat` doesn't hold) dealt again among those places: which faction
        cards a team owns is public, where they lie is not. What everyone saw stays:
        cards that went into a hand face up, cards put under a deck (Mend)."""
        new = fresh_copy(state)
        for team in new.teams:
            under = min(team.shown_under, len(team.deck))
            deck = team.deck[under:]
            others = [new.players[s] for s in team.seats if s != seat]
            hands = [[c for c in p.hand if c not in p.shown_in_hand] for p in others]
            deal_again([deck, team.face_down, *hands], rng)
            team.deck[under:] = deck
            for player, hand in zip(others, hands, strict=True):
                dealt = iter(hand)
                player.hand = [c if c in player.shown_in_hand else next(dealt) for c in player.hand]
        return new

    def outcome(self, state: State) -> Outcome | None:  # type: ignore[override]
        if state.phase != "over":
            return None
        return Outcome(
            winners=list(state.winners),
            losers=list(state.losers),
            reason=state.end_reason,
            text=state.end_text,
        )

    def describe(self, action: Action, state: State) -> str:  # type: ignore[override]
        return labels.describe(state, action)

    def acknowledge(self, action: Action, state: State, seat: int) -> str:  # type: ignore[override]
        return chose(labels.describe(state, action))

    def explain(self, action: Action, state: State, seat: int | None = None) -> str:  # type: ignore[override]
        return labels.explain(state, action, seat)

    def question(self, state: State, seat: int) -> str | None:  # type: ignore[override]
        return labels.question(state, seat)

    def candidates(self, state: State, seat: int) -> list[Action]:  # type: ignore[override]
        return actions.candidates(state, seat)

    def active_seat(self, state: State) -> int | None:  # type: ignore[override]
        if state.phase in ("recharge", "action", "revenge"):
            return state.alpha
        return None

    def timeout_action(self, state: State, seat: int) -> Action:  # type: ignore[override]
        return actions.timeout_action(state, seat)

    def standing_answer(  # type: ignore[override]
        self, state: State, seat: int, chosen: frozenset[str]
    ) -> Action | None:
        return None

    def card_texts(self, pack: str | None) -> dict[str, str]:
        return _card_texts(pack or bundled_pack().name)

    def team_of(self, state: State, seat: int) -> int:  # type: ignore[override]
        return state.players[seat].team

    def view(self, state: State, seat: int | None) -> dict[str, Any]:  # type: ignore[override]
        return view(state, seat)


# The end of the game, said once on the board.
GOALS = {
    "2p": "a deck that runs out loses",
    "alliance": "a deck that runs out loses",
    "3p": "a player whose deck runs out is out (with one revenge hit); the last one left wins",
    "4p": "a team whose shared deck runs out loses",
}


def _shown(state: State, card: int) -> str:
    """A card's name as players see it (marked when it is the project's own)."""
    return rules.card_def(state, card).shown_name


@cache
def _troop_texts(pack_name: str) -> dict[str, str]:
    """Every Troop's Command Ability text, by Troop id (worked out once per pack)."""
    return {t.id: troop_text(t) for f in get_pack(pack_name).factions for t in f.troops}


@cache
def _faction_views(pack_name: str) -> dict[str, dict[str, Any]]:
    """Every faction's view, by id (worked out once per pack; copied before it is shown)."""
    return {f.id: _faction_view(f) for f in get_pack(pack_name).factions}


def _faction(state: State, faction_id: str) -> dict[str, Any]:
    view = _faction_views(state.pack)[faction_id]
    return {**view, "troops": list(view["troops"])}


def _troop_view(state: State, troop: Troop) -> dict[str, Any]:
    d = rules.card_def(state, troop.card)
    return {
        "name": d.shown_name,
        "strength": d.strength,
        "type": d.type,
        "drained": troop.drained,
        "text": _troop_texts(state.pack)[d.id],
    }


def _faction_view(faction: Faction) -> dict[str, Any]:
    """A faction as the draft and the Faction Command card show it: in full and in short."""
    return {
        "id": faction.id,
        "name": faction.shown_name,
        "identity": faction.identity,
        "text": faction_text(faction),
        "formation": formation_text(faction),
        "ability": ability_text(faction),
        "formation_brief": brief_formation(faction),
        "ability_brief": brief_ability(faction),
        "troops": [troop_label(t, shown=True) for t in faction.troops],
    }


def _player_view(state: State, p: Player) -> dict[str, Any]:
    pack = get_pack(state.pack)
    card = _faction(state, p.command_card) if p.command_card else None
    return {
        "seat": p.seat,
        "name": p.name,
        "team": p.team,
        "alpha": p.seat == state.alpha and state.phase != "over",
        "factions": [pack.faction(f).shown_name for f in p.factions],
        "command_card": card["name"] if card else None,
        "command_card_text": card["text"] if card else None,
        "command_card_formation": card["formation"] if card else None,
        "command_card_ability": card["ability"] if card else None,
        "hand_count": len(p.hand),
        "ap": p.ap,
        "eliminated": p.eliminated,
        "revenge_pending": p.eliminated and not p.revenge_done,
        "command_zone": [_troop_view(state, t) for t in p.command_zone],
        "war_zone": [_troop_view(state, t) for t in p.war_zone],
    }


def _team_view(state: State, team: Team) -> dict[str, Any]:
    pack = get_pack(state.pack)
    return {
        "team": team.team,
        "seats": list(team.seats),
        "names": [state.players[s].name for s in team.seats],
        "factions": [pack.faction(f).shown_name for f in team.factions],
        "deck": len(team.deck),
        "low": labels.low_deck(len(team.deck)),
        "discard_count": len(team.discard),
        "discard_top": _shown(state, team.discard[-1]) if team.discard else None,
        "discard": [_shown(state, c) for c in team.discard],
        "removed_count": len(team.removed),
        "face_down_removed": len(team.face_down),
    }


QUICK_FRAMES = ("recharge", "ready")  # the Recharge Step's decisions, as buttons too
MOST_READY = 3  # War Zone Troops offered as buttons (the rest are in the menu)


def _quick(state: State) -> list[dict[str, str]]:
    """The choices worth a button under the line that calls the Alpha player, when they
    are theirs to take now: in the Recharge Step, drawing or gaining an AP for a Command
    Zone Troop, or the War Zone Troop to recharge; and ending the turn (from the
    Recharge Step too: the one-tap way to pass)."""
    seat = state.alpha
    if seat is None or state.phase == "over" or seat not in actions.to_act(state):
        return []
    frame = actions.top_frame(state)
    if frame is not None and frame.kind not in QUICK_FRAMES:
        return []
    legal = actions.legal_actions(state, seat)
    quick = [a for a in legal if a.kind == "recharge"]
    quick += [a for a in legal if a.kind == "ready"][:MOST_READY]
    quick += [a for a in legal if a.kind == "end"]
    styles = {"end": "secondary", "ready": "primary"}
    return [
        {
            "key": a.key,
            "label": labels.describe(state, a),
            "style": styles.get(a.kind, "success" if a.args == ("draw",) else "primary"),
        }
        for a in quick
    ]


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What `seat` may see (None: everyone). Hands and deck order are never included,
    only counts; card instance numbers never leave the engine."""
    pack = get_pack(state.pack)
    out: dict[str, Any] = {
        "game": ToothAndNail.id,
        "variant": state.variant,
        "phase": state.phase,
        "turn": state.turn,
        "alpha": state.alpha,
        "to_act": sorted(actions.to_act(state)),
        "prompt": labels.public_prompt(state),
        "quick": _quick(state),
        "goal": GOALS[state.variant],
        "limits": state.limits,
        "available_factions": [
            _faction(state, f.id) for f in pack.factions if f.id not in rules.taken_factions(state)
        ]
        if state.phase == "faction_choice"
        else [],
        "teams": [_team_view(state, t) for t in state.teams],
        "players": [_player_view(state, p) for p in state.players],
        "outcome": (
            {
                "winners": state.winners,
                "losers": state.losers,
                "reason": state.end_reason,
                "text": state.end_text,
            }
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
                "text": _troop_texts(state.pack)[state.cards[c]],
            }
            for c in me.hand
        ]
        out["question"] = labels.question(state, seat)
        deciding = seat in actions.to_act(state)
        out["command_card_choices"] = (
            [_faction(state, f) for f in rules.command_card_options(state, seat)]
            if deciding and state.phase == "command_choice"
            else []
        )
    return out


GAME = ToothAndNail()

__all__ = ["GAME", "State", "ToothAndNail", "view"]


@cache
def _card_texts(pack: str) -> dict[str, str]:
    """Every Faction Command card and Troop of a pack, with its text."""
    texts: dict[str, str] = {}
    for faction in get_pack(pack).factions:
        texts[f"{faction.name} (Faction Command card)"] = faction_text(faction)
        for troop in faction.troops:
            texts[troop_label(troop, shown=True)] = f"{faction.name} Troop. {troop_text(troop)}"
    return texts
