"""Command of Nature: formations, markets, levels and Instant responses, in 2-player
and 4-player team modes, behind the shared engine contract."""

from __future__ import annotations

import random
from functools import cache
from typing import Any, ClassVar

from rules.command_of_nature import actions, labels, turn
from rules.command_of_nature.cards import ElementalCard, bundled_pack, get_pack
from rules.command_of_nature.setup import sage_options, setup_game, warriors_of
from rules.command_of_nature.state import Player, State
from rules.command_of_nature.table import (
    CHAMPION_LEVELS,
    TURN_PHASES,
    elemental_at,
    end_game,
    own_sage,
)
from rules.command_of_nature.text import card_text, faction_action_text
from rules.core import (
    Action,
    Event,
    IllegalAction,
    OptionInfo,
    Outcome,
    PreferenceInfo,
    SeatSpec,
    VariantInfo,
    fresh_copy,
)
from rules.core.rng import deal_again, rng_for
from rules.core.text import chose, plural

SUMMARY = """\
**Goal.** Defeat the opposing Sage (a team: both opposing Sages).
**Your turn.** *I, daybreak*: use the daybreak effects of Elementals that stood in their \
row when the turn began. *II, actions*: 4 AP (a team shares 6) to summon an Elemental into \
the frontmost row with space, play a Command, swap two connected Elementals or draw; one \
unlocked faction action. *III, markets*: buy (an Elemental straight into the formation for \
2 more gold), sell (half the cost; Sage-pack cards 1), refresh a market for 1 gold; gold \
never above 12 (a team 20). *IV, clean up*: discard any, draw up to 5.
**Combat.** DMG = the Command's DMG + boosts − Instants − shields; shields all go when DMG \
arrives. A defeat raises your level; at 4, 6 and 8 a Champion and a faction action unlock."""


class CommandOfNature:
    """The Game contract for Command of Nature."""

    id: ClassVar[str] = "command-of-nature"
    name: ClassVar[str] = "Command of Nature"
    variants: ClassVar[dict[str, VariantInfo]] = {
        "2p": VariantInfo(
            id="2p",
            name="2 players",
            min_players=2,
            max_players=2,
            blurb="One against one: your Sage and formation against theirs.",
        ),
        "4p": VariantInfo(
            id="4p",
            name="2 teams of 2",
            min_players=4,
            max_players=4,
            teams=True,
            blurb="Seats 1 & 3 against 2 & 4: each team shares a formation, 6 AP and its gold.",
        ),
    }
    options: ClassVar[dict[str, OptionInfo]] = {}  # none to choose in the lobby
    open_kinds: ClassVar[frozenset[str]] = frozenset()
    preferences: ClassVar[dict[str, PreferenceInfo]] = {
        actions.LET_WITHOUT_INSTANT: PreferenceInfo(
            id=actions.LET_WITHOUT_INSTANT,
            label="Let an attack through when no Instant Command in my hand could answer it",
            reveals="The table sees you answer at once, so it learns that no Instant Command in "
            "your hand could answer that attack.",
        ),
        actions.FOLLOW_PARTNER: PreferenceInfo(
            id=actions.FOLLOW_PARTNER,
            label="4 players: let an attack through once my partner has",
            reveals="Nothing about your hand: you answer as your partner did, whatever you hold.",
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
        return setup_game(variant, names, pack, rng_for(seed, 0))

    def to_act(self, state: State) -> set[int]:  # type: ignore[override]
        return actions.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:  # type: ignore[override]
        return actions.legal_actions(state, seat)

    def apply(
        self, state: State, seat: int, action: Action, rng: random.Random
    ) -> tuple[State, list[Event]]:  # type: ignore[override]
        actions.check(state, seat, action)
        new = fresh_copy(state)
        return new, actions.apply_action(new, seat, action, rng, checked=True)

    def concede(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:  # type: ignore[override]
        new = fresh_copy(state)
        conceder = new.players[seat]
        events = [Event(kind="concede", text=f"{conceder.name} concedes.", seat=seat)]
        return new, events + end_game(
            new, losing_team=conceder.team, reason="concession", cause=f"{conceder.name} conceded"
        )

    def redeal(self, state: State, seat: int, rng: random.Random) -> State:  # type: ignore[override]
        """Each player's deck, with their hand when `seat` may not look at it (only its
        own and a teammate's), dealt again among those places; each market deck
        reshuffled. What the whole table saw stays: cards that went into a hand or onto
        a deck face up, a market's cards put under its deck by a refresh. The Champions
        wait face down by level, so they stay."""
        new = fresh_copy(state)
        team = new.players[seat].team
        for player in new.players:
            top = _shown_on_top(player)
            unseen = player.deck[: len(player.deck) - len(top)]
            hand = [c for c in player.hand if c not in player.shown_in_hand]
            deal_again([unseen, *([] if player.team == team else [hand])], rng)
            player.deck = unseen + top
            dealt = iter(hand)
            player.hand = [c if c in player.shown_in_hand else next(dealt) for c in player.hand]
        for market in (new.elementals, new.commands):
            above = market.deck[market.shown_under :]
            deal_again([above], rng)
            market.deck[market.shown_under :] = above
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
        return actions.considered(state, seat)

    def standing_answer(  # type: ignore[override]
        self, state: State, seat: int, chosen: frozenset[str]
    ) -> Action | None:
        return actions.standing_answer(state, seat, chosen)

    def card_texts(self, pack: str | None) -> dict[str, str]:
        return _card_texts(pack or bundled_pack().name)

    def team_of(self, state: State, seat: int) -> int:  # type: ignore[override]
        return state.players[seat].team

    def active_seat(self, state: State) -> int | None:  # type: ignore[override]
        if state.phase in ("daybreak", "actions", "market", "cleanup"):
            return state.sides[state.active].seats[0]
        return None

    def timeout_action(self, state: State, seat: int) -> Action:  # type: ignore[override]
        return actions.timeout_action(state, seat)

    def rename(self, state: State, seat: int, name: str) -> State:  # type: ignore[override]
        new = fresh_copy(state)
        new.players[seat].name = name
        return new

    def view(self, state: State, seat: int | None) -> dict[str, Any]:  # type: ignore[override]
        return view(state, seat)


@cache
def _card_texts(pack: str) -> dict[str, str]:
    """Every card of a pack and every Sage's faction actions, with their text."""
    cards = get_pack(pack)
    texts = {card.shown_name: card_text(card) for card in cards.cards}
    for action in cards.faction_actions:
        texts[f"{action.sage}, level {action.level} faction action"] = faction_action_text(action)
    return texts


@cache
def _faces(pack: str) -> dict[str, dict[str, Any]]:
    """What anyone sees of each card of a pack, by card id (its face: name, cost, type,
    numbers and text), built once per pack."""
    faces: dict[str, dict[str, Any]] = {}
    for card in get_pack(pack).cards:
        face: dict[str, Any] = {"id": card.id, "name": card.shown_name, "cost": card.cost}
        if isinstance(card, ElementalCard):
            face |= {
                "faction": card.faction,
                "kind": card.kind,
                "strength": card.strength,
                "hp": card.hp,
            }
        faces[card.id] = face | {"text": card_text(card)}
    return faces


def _shown_on_top(player: Player) -> list[int]:
    """The cards on top of a player's deck that everyone saw go there, still there."""
    shown, deck = player.shown_on_top, player.deck
    n = len(shown)
    while n and deck[len(deck) - n :] != shown[len(shown) - n :]:
        n -= 1
    return deck[len(deck) - n :] if n else []


def _elemental_view(
    state: State, elemental: Any, faces: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    if elemental is None:
        return None
    face = faces[state.cards[elemental.card]]
    return {
        "name": face["name"],
        "faction": face["faction"],
        "sage": face["kind"] == "sage",
        "strength": face["strength"],
        "hp": face["hp"],
        "damage": elemental.damage,
        "shields": elemental.shields,
        "boosts": elemental.boosts,
        "owner": elemental.owner,
    }


def _sage_view(state: State, seat: int, faces: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A player's Sage, the card whose defeat decides the game: its name and health."""
    player = state.players[seat]
    if player.sage is None:
        return {"sage_name": None, "sage_hp": 0, "sage_hp_left": 0}
    face = faces[player.sage]
    standing = elemental_at(state, own_sage(state, seat))
    placed = standing is not None
    if player.sage_defeated:
        left = 0
    else:
        left = face["hp"] - standing.damage if standing is not None else face["hp"]
    return {
        "sage_name": face["name"],
        "sage_hp": face["hp"],
        "sage_hp_left": left,
        "sage_placed": placed,
    }


def _card_view(state: State, card: int, faces: dict[str, dict[str, Any]]) -> dict[str, Any]:
    face = faces[state.cards[card]]
    return {"id": face["id"], "name": face["name"], "cost": face["cost"]}


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What `seat` may see (None: everyone): every formation, wallet and market face up;
    hands only their owner's (and, in a team, the teammate's); never a deck's order."""
    defs = _faces(state.pack)
    out: dict[str, Any] = {
        "game": CommandOfNature.id,
        "variant": state.variant,
        "phase": state.phase,
        "phase_name": labels.PHASES.get(state.phase, ""),
        "prompt": labels.prompt(state),
        "attack": labels.incoming(state) or None,
        "turn": state.turn,
        "active": state.active,
        "to_act": sorted(actions.to_act(state)),
        "sides": [
            {
                "team": side.team,
                "seats": list(side.seats),
                "names": [state.players[s].name for s in side.seats],
                "gold": side.gold,
                "ap": side.ap,
                "formation": [
                    [_elemental_view(state, e, defs) for e in row] for row in side.formation.rows
                ],
            }
            for side in state.sides
        ],
        "players": [
            {
                "seat": p.seat,
                "name": p.name,
                "team": p.team,
                "sage": p.sage,
                **_sage_view(state, p.seat, defs),
                "level": p.level,
                "next_unlock": next((n for n in CHAMPION_LEVELS if n > p.level), None),
                "hand_count": len(p.hand),
                "deck_count": len(p.deck),
                "discard_count": len(p.discard),
                "discard_top": defs[state.cards[p.discard[-1]]]["name"] if p.discard else None,
                "champions_waiting": sorted(p.champions),
                "sage_defeated": p.sage_defeated,
            }
            for p in state.players
        ],
        "markets": {
            "elementals": [_card_view(state, c, defs) for c in state.elementals.row],
            "commands": [_card_view(state, c, defs) for c in state.commands.row],
            "elemental_deck": len(state.elementals.deck),
            "command_deck": len(state.commands.deck),
        },
        "outcome": (
            {"winners": state.winners, "losers": state.losers, "reason": state.end_reason}
            if state.phase == "over"
            else None
        ),
        "quick": _quick(state),
        "responding": _responding(state),
    }
    if seat is not None:
        team = state.players[seat].team
        out["me"] = seat
        out["hands"] = {
            str(s): [
                {**_card_view(state, c, defs), "text": defs[state.cards[c]]["text"]}
                for c in state.players[s].hand
            ]
            for s in state.sides[team].seats
        }
        out["faction_actions"] = _faction_actions(state, seat)
        out["together"] = _together(state, seat, defs)
        out["to_choose"] = _to_choose(state, seat, defs)
    return out


def _to_choose(state: State, seat: int, faces: dict[str, dict[str, Any]]) -> list[dict[str, str]]:
    """What a seat chooses among in the set-up, in full: the Sages left (each with its
    faction actions), then the Warriors of its Sage pack."""
    frame = state.frames[-1] if state.frames else None
    if frame is None or seat not in frame.deciders:
        return []
    pack = get_pack(state.pack)
    if frame.kind == "sage":
        found = []
        for sage_id in sage_options(state):
            face = faces[sage_id]
            acts = [faction_action_text(a) for a in pack.faction_actions if a.sage == face["name"]]
            found.append({"name": face["name"], "text": " ".join([face["text"], *acts])})
        return found
    if frame.kind == "formation":
        return [
            {"name": faces[w]["name"], "text": faces[w]["text"]} for w in warriors_of(state, seat)
        ]
    return []


def _quick(state: State) -> list[dict[str, Any]]:
    """The choices worth a button under the line that calls a player: for each player of
    the side whose turn it is, the way to pass (End turn, or in Phase IV finishing the
    clean-up); for each player answering an attack, letting it through. Two players'
    buttons each say whose they are."""
    responding = _responding(state)
    if responding:
        entries = [{"key": "let", "label": "Let it through", "seat": s} for s in responding]
    elif state.phase not in TURN_PHASES or state.frames or state.queue:
        return []
    else:
        deciding = actions.to_act(state)
        seats = [s for s in state.sides[state.active].seats if s in deciding]
        entries = [e for s in seats if (e := _passing(state, s)) is not None]
    named = len(entries) > 1
    return [
        {
            **e,
            "label": f"{state.players[e['seat']].name}: {e['label']}" if named else e["label"],
            "style": "secondary",
        }
        for e in entries
    ]


def _passing(state: State, seat: int) -> dict[str, Any] | None:
    """A seat's way to pass its part of the turn as a button: End turn or finishing the
    clean-up; above 5 cards, End turn standing for its choices of cards to discard (its
    player picks them privately: their names never go on the button)."""
    for action in (Action(kind="end"), Action(kind="done")):
        try:
            actions.check(state, seat, action)
        except IllegalAction:
            continue
        return {"key": action.key, "label": labels.describe(state, action), "seat": seat}
    ends = [a for a in actions.legal_actions(state, seat) if a.kind == "end" and a.args]
    if ends:
        count = len(ends[0].args[0].split("+"))
        return {"key": "end", "label": f"End turn (discard {plural(count, 'card')})", "seat": seat}
    return None


def _responding(state: State) -> list[int]:
    """The seats answering an attack now (its response window): the line calling them
    carries Respond; a defender's later decision (the Elemental that moves forward) doesn't."""
    frame = state.frames[-1] if state.frames else None
    return sorted(frame.deciders) if frame is not None and frame.kind == "respond" else []


def _together(state: State, seat: int, faces: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """Cards a seat chooses together, as one multi-select: the ones to discard when ending
    the turn above 5 cards (`kind` names the action, whose key lists the chosen card ids
    in order, joined by "+"; `count` cards are chosen of `cards`)."""
    if seat not in actions.to_act(state):
        return None
    first = next(turn.end_turn_choices(state, seat))
    if not first:
        return None
    try:
        turn.check_end_turn(state, seat, list(first))
    except IllegalAction:
        return None
    hand = sorted(state.cards[c] for c in state.players[seat].hand)
    return {
        "kind": "end",
        "count": len(first),
        "label": f"End turn: choose {plural(len(first), 'card')} to discard (you keep 5)",
        "cards": [{"id": card_id, "name": faces[card_id]["name"]} for card_id in hand],
    }


def _faction_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """The three faction actions of a player's Sage, with the levels that unlock them."""
    player = state.players[seat]
    if player.sage is None:
        return []
    sage = get_pack(state.pack).card(player.sage).name
    return [
        {"level": a.level, "text": faction_action_text(a), "unlocked": player.level >= a.level}
        for a in get_pack(state.pack).faction_actions
        if a.sage == sage
    ]


GAME = CommandOfNature()

__all__ = ["GAME", "CommandOfNature", "State", "view"]
