"""What happens on the table whatever set it off: finding an Elemental, the effects an
event triggers, a defeat and the forward shift it causes, levels and Champions, a
fallen Sage and the end of the game; and the checks every action shares (whose turn,
which phase, which card in hand).

The turn (`turn.py`), the effect interpreter (`effects.py`) and combat (`battle.py`)
all build on this module; it builds on none of them.
"""

from __future__ import annotations

from rules.command_of_nature.cards import ElementalCard
from rules.command_of_nature.formation import (
    ROW_NAMES,
    Elemental,
    Pos,
    connected,
    gap_to_fill,
    move,
)
from rules.command_of_nature.formation import swap as swap_spaces
from rules.command_of_nature.setup import Events, _ev, card_of, pack_of
from rules.command_of_nature.state import Frame, Side, State, Step
from rules.core import IllegalAction

MAX_LEVEL = 8
CHAMPION_LEVELS = (4, 6, 8)

# --------------------------------------------------------------------------- turn and phase


def active_side(state: State) -> Side:
    """The side whose turn it is."""
    return state.sides[state.active]


def phase_name(state: State) -> str:
    """The phase as the rulebook names it."""
    return {
        "daybreak": "Phase I, daybreak",
        "actions": "Phase II, actions",
        "market": "Phase III, the markets",
        "cleanup": "Phase IV, clean up",
    }.get(state.phase, state.phase)


TURN_PHASES = ("daybreak", "actions", "market", "cleanup")


def reached(state: State, phase: str) -> bool:
    """Whether an action of `phase` (Phase II or III) may be taken now: in that phase, or
    in the one just before it with nothing between but moving on (no effect under way),
    the move on being part of the action."""
    if state.phase == phase:
        return True
    if phase not in ("actions", "market") or state.frames or state.queue:
        return False
    return TURN_PHASES.index(state.phase) + 1 == TURN_PHASES.index(phase)


def require_phase(state: State, seat: int, *phases: str, ahead: bool = False) -> Side:
    """The active side, if `seat` plays for it and the turn is in one of `phases` (with
    `ahead`, or just before one of them: see `reached`)."""
    side = active_side(state)
    if seat not in side.seats:
        raise IllegalAction("not-your-turn", "It isn't your side's turn.")
    if state.phase not in phases and not (ahead and any(reached(state, p) for p in phases)):
        raise IllegalAction("phase", f"That can't be done in this phase ({phase_name(state)}).")
    return side


def hand_card(state: State, seat: int, card_id: str) -> int:
    """A card with this id in the seat's hand."""
    card = next((c for c in state.players[seat].hand if state.cards[c] == card_id), None)
    if card is None:
        name = _card_name(state, card_id)
        raise IllegalAction("not-in-hand", f"{name} isn't in your hand.")
    return card


def _card_name(state: State, card_id: str) -> str:
    try:
        return pack_of(state).card(card_id).name
    except KeyError:
        return "That card"


# --------------------------------------------------------------------------- Elementals in play


def locate(state: State, card: int | None) -> tuple[int, Pos] | None:
    """The side and space of an Elemental in play."""
    if card is None:
        return None
    for team, side in enumerate(state.sides):
        pos = side.formation.where(card)
        if pos is not None:
            return team, pos
    return None


def elemental_at(state: State, card: int | None) -> Elemental | None:
    """The Elemental (with its tokens) of this card, while it is in play."""
    found = locate(state, card)
    return None if found is None else state.sides[found[0]].formation.at(found[1])


def elemental_def(state: State, card: int) -> ElementalCard:
    """The card definition of an Elemental."""
    definition = card_of(state, card)
    assert isinstance(definition, ElementalCard)
    return definition


def is_sage(state: State, card: int) -> bool:
    """Whether this card is a Sage (it leaves the formation only by defeat)."""
    return elemental_def(state, card).kind == "sage"


def own_sage(state: State, seat: int) -> int | None:
    """The card of the seat's Sage, while it stands in the formation."""
    formation = state.side_of(seat).formation
    for pos in formation.occupied():
        elemental = formation.at(pos)
        assert elemental is not None
        if elemental.owner == seat and is_sage(state, elemental.card):
            return elemental.card
    return None


def in_required_row(state: State, card: int) -> bool:
    """Effects work only while the Elemental stands in one of its rows."""
    found = locate(state, card)
    return found is not None and found[1][0] + 1 in elemental_def(state, card).rows


# --------------------------------------------------------------------------- triggers


def ops_step(state: State, actor: int, ref: str, **context) -> Step:
    """A step that runs the op list at `ref` for `actor` (in the attack under way, if any)."""
    attack = state.attack
    if attack is not None:
        context.setdefault("attacker", attack.attacker_card)
        context.setdefault("defender", attack.target_card)
    return Step(kind="ops", actor=actor, ops=ref, **context)


def fire(
    state: State,
    on: str,
    subject: int,
    *,
    team: int | None = None,
    row: int | None = None,
    attack_kind: str | None = None,
) -> None:
    """Queue the effects that `on` happening to `subject` triggers in its formation
    (`team`/`row` say where it was, for an Elemental that has just left)."""
    found = locate(state, subject)
    if found is not None:
        team = found[0] if team is None else team
        row = found[1][0] if row is None else row
    if team is None:
        return
    formation = state.sides[team].formation
    steps: list[Step] = []
    for pos in formation.occupied():
        elemental = formation.at(pos)
        assert elemental is not None
        definition = elemental_def(state, elemental.card)
        if pos[0] + 1 not in definition.rows:
            continue
        for i, effect in enumerate(definition.effects):
            trigger = effect.trigger
            if trigger.on != on or on in ("would_take_damage", "would_be_defeated"):
                continue
            is_self = elemental.card == subject
            if (trigger.who == "self" and not is_self) or (trigger.who == "other" and is_self):
                continue
            if trigger.faction and card_of(state, subject).faction != trigger.faction:
                continue
            if trigger.subject_rows and (row is None or row + 1 not in trigger.subject_rows):
                continue
            if trigger.attack and trigger.attack != attack_kind:
                continue
            if trigger.connected_to_self and (
                found is None or not connected(formation, pos, found[1])
            ):
                continue
            # The attacked Elemental of an is_attacked trigger is its subject (an attack
            # may have several targets).
            extra = {"defender": subject} if on == "is_attacked" else {}
            steps.append(
                ops_step(
                    state,
                    elemental.owner,
                    f"card:{definition.id}:fx{i}",
                    source=elemental.card,
                    subject=subject,
                    optional=trigger.optional,
                    **extra,
                )
            )
    # Triggered effects resolve before what caused them carries on.
    state.queue[0:0] = steps


def entered(state: State, card: int) -> None:
    """An Elemental joins the formation: enters_formation and enters_row fire."""
    fire(state, "enters_formation", card)
    fire(state, "enters_row", card)


def swap_cards(state: State, a: int, b: int) -> Events:
    """Two Elementals of one formation trade spaces (each entering its new row)."""
    first, second = locate(state, a), locate(state, b)
    assert first is not None and second is not None and first[0] == second[0]
    swap_spaces(state.sides[first[0]].formation, first[1], second[1])
    if first[1][0] != second[1][0]:
        fire(state, "enters_row", a, row=second[1][0])
        fire(state, "enters_row", b, row=first[1][0])
    name_a, name_b = elemental_def(state, a).name, elemental_def(state, b).name
    return [_ev("swap", f"{name_a} and {name_b} swap places.")]


# --------------------------------------------------------------------------- defeat and the shift


def shields_text(lost: int) -> str:
    """ " (2 shields lost)", or nothing when none were lost."""
    return f" ({lost} shield{'s' if lost != 1 else ''} lost)" if lost else ""


def defeat(state: State, team: int, pos: Pos, *, by_seat: int | None) -> Events:
    """A defeated Elemental leaves the game with its tokens; the player who defeated it
    gains a level; its formation shifts forward. A fallen Sage decides the game."""
    formation = state.sides[team].formation
    fallen = formation.at(pos)
    assert fallen is not None
    formation.put(pos, None)
    state.removed.append(fallen.card)
    definition = elemental_def(state, fallen.card)
    events = [_ev("defeat", f"{definition.name} is defeated and leaves the game.")]
    if by_seat is not None:
        events += level_up(state, by_seat)
    if definition.kind == "sage":
        events += sage_falls(state, fallen.owner)
        if state.phase == "over":
            return events
    return events + shift_forward(state, team)


def sage_falls(state: State, seat: int) -> Events:
    """Two players: the game is won. A team plays on until both its Sages have fallen;
    a player without a Sage has no faction actions and gains no levels."""
    player = state.players[seat]
    player.sage_defeated = True
    team = state.sides[player.team]
    if all(state.players[s].sage_defeated for s in team.seats):
        return end_game(state, losing_team=player.team)
    return [_ev("sage", f"{player.name}'s Sage has fallen; their teammate fights on.", seat)]


def end_game(
    state: State, *, losing_team: int, reason: str = "Sage defeated", cause: str = ""
) -> Events:
    """The game is over: the other side wins (`cause` says why, in words: by default the
    losing side's Sages have fallen). Cards on the table go to their discard piles."""
    state.losers = list(state.sides[losing_team].seats)
    state.winners = list(state.sides[1 - losing_team].seats)
    state.phase = "over"
    state.end_reason = reason
    won = " & ".join(state.players[s].name for s in state.winners)
    verb = "wins" if len(state.winners) == 1 else "win"
    state.end_text = f"{cause or _fallen(state, losing_team)}: {won} {verb}."
    state.frames.clear()
    state.queue.clear()
    if (
        state.attack is not None and not state.attack.landed
    ):  # the Attack Command on the table goes to its discard pile
        state.players[state.attack.seat].discard.append(state.attack.command)
    for played in state.in_play:
        state.players[played.seat].discard.append(played.card)
    state.in_play.clear()
    state.attack = None
    return [_ev("over", f"{state.end_text} The game is over.")]


def _fallen(state: State, team: int) -> str:
    """ "Ada's Sage Cedar has fallen", or both Sages of a team."""
    players = [state.players[s] for s in state.sides[team].seats]
    sages = [pack_of(state).card(p.sage).name if p.sage else "?" for p in players]
    if len(players) == 1:
        return f"{players[0].name}'s Sage {sages[0]} has fallen"
    names = " and ".join(f"{p.name}'s {s}" for p, s in zip(players, sages, strict=True))
    return f"Both Sages have fallen ({names})"


def shift_forward(state: State, team: int) -> Events:
    """Rows I and II may not keep gaps while anything stands behind them: with one
    candidate it moves at once; with several, the formation's side chooses."""
    formation = state.sides[team].formation
    events: Events = []
    while (gap := gap_to_fill(formation)) is not None:
        _, candidates = gap
        if len(candidates) > 1:
            state.frames.append(
                Frame(
                    kind="fill",
                    deciders=list(state.sides[team].seats),
                    prompt="choose the Elemental that moves forward to fill the gap",
                )
            )
            return events
        events += fill_gap(state, team, candidates[0])
    return events


def place(state: State, team: int, pos: Pos) -> str:
    """A space as the board labels it: its row and, where the row has several spaces, a
    letter from the left ("I", "IIa", "IIIc"; a team's rows run "Ia".."IIIf")."""
    row, space = pos
    letters = "abcdef" if len(state.sides[team].formation.rows[row]) > 1 else ""
    return f"{ROW_NAMES[row]}{letters[space] if letters else ''}"


def fill_gap(state: State, team: int, source: Pos) -> Events:
    """Move the chosen Elemental into the frontmost gap."""
    formation = state.sides[team].formation
    gap = gap_to_fill(formation)
    if gap is None or source not in gap[1]:
        raise IllegalAction("not-a-candidate", "That Elemental can't fill the gap.")
    space, _ = gap
    moved = formation.at(source)
    assert moved is not None
    move(formation, source, space)
    fire(state, "enters_row", moved.card)
    name = elemental_def(state, moved.card).name
    where = f"from {place(state, team, source)} into {place(state, team, space)}"
    return [_ev("shift", f"{name} moves forward {where}.")]


# --------------------------------------------------------------------------- levels


def level_up(state: State, seat: int) -> Events:
    """A player who defeats an enemy Elemental gains a level (to 8 at most); at 4, 6 and
    8 that Champion goes to the top of the discard pile and a faction action unlocks.
    A player whose Sage has fallen (four players) gains no more levels."""
    player = state.players[seat]
    if player.level >= MAX_LEVEL or player.sage_defeated:
        return []
    player.level += 1
    events = [_ev("level", f"{player.name} reaches level {player.level}.", seat)]
    champion = player.champions.pop(player.level, None)
    if champion is not None:
        player.discard.append(champion)
        name = card_of(state, champion).name
        events.append(
            _ev(
                "champion",
                f"{player.name}'s {name} joins the discard pile; a faction action unlocks.",
                seat,
            )
        )
    return events
