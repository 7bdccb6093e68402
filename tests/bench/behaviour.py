"""How person-like an AI's moves are (issue 43): self-undoing moves, empty moves and
wasted turns, counted narrowly with the rules' own functions (`legal_actions`, `apply`),
never with rules written again here.

- **Position** (`position`): the game state as JSON, less what only counts spending and
  with the identity of interchangeable cards forgotten, per game:
  Command of Nature — the sides' `ap` left out; an Elemental in a formation is known by
  its card id (two Cobbles are alike), with whether it attacked this turn and whether
  its daybreak is still usable (the sides' `attacked` and `daybreak` lists, which name
  card instances, are folded into the formation that way); everything else as saved.
  Tooth & Nail — the players' `ap` left out. Mystic Vale — the whole state (no
  counter there only spends).
- **Turn** (`turn_key`): the state's turn number and the active team (-1 in set-up).
- **Empty move**: an AI move after which the position is the one before it (so at most
  AP was spent).
- **Self-undoing move**: an AI move after which the position is one already seen earlier
  in the same turn, other than the one just before it (a swap, then the same swap back).
- **Wasted turn** (at most one per turn of the AI's side; `wastes_turn`):
  Command of Nature — leaving Phase II (moving on to the market, a Phase III action
  taken directly, or ending the turn) with AP unspent while an attack would land: a
  legal `attack` action after which, every defender letting it through and every other
  decision of the attack taken as its first legal choice, an enemy Elemental has taken
  DMG or left its formation (`attack_lands`). Mystic Vale — ending a Harvest (`done`)
  while a vale (a legal `vale` action) or a clean advancement (a legal `buy` of one
  showing no decay) could be bought; not an advancement that costs VP (Bloodmoon Pact),
  nor one with no empty slot in the field to go into (it would cover an eclipse), nor,
  in the last round (the player's last turn), one with no VP of its own, which would
  never show in a Harvest. Tooth & Nail — ending the Action Step (`end`) with
  AP unspent while an attack would score: a legal `attack` after which (its decisions
  taken as above) an enemy team's deck is shorter. In every game, a move that ends the
  game wastes nothing.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from rules.command_of_nature import State as NatureState
from rules.core import Action, Game, Seat
from rules.mystic_vale import State as ValeState
from rules.mystic_vale.cards import Advancement
from rules.mystic_vale.moves import slot_takes, targets
from rules.mystic_vale.symbols import advancement_of
from rules.tooth_and_nail import State as NailState

SETTLE = 40  # the most decisions an attack takes to resolve when tried (`_resolve`)
LET = Action(kind="let")  # Command of Nature: a defender lets the attack through


def position(state: BaseModel) -> str:
    """The position a state stands for, as comparable text (see the module's notes)."""
    data: dict[str, Any] = state.model_dump(mode="json")
    match state:
        case NatureState():
            for side in data["sides"]:
                attacked, daybreak = set(side.pop("attacked")), set(side.pop("daybreak"))
                side.pop("ap")
                placed = set()
                for row in side["formation"]["rows"]:
                    for i, elemental in enumerate(row):
                        if elemental is None:
                            continue
                        card = elemental["card"]
                        placed.add(card)
                        row[i] = {
                            **elemental,
                            "card": state.cards[card],
                            "attacked": card in attacked,
                            "daybreak": card in daybreak,
                        }
                side["attacked_elsewhere"] = sorted(attacked - placed)
                side["daybreak_elsewhere"] = sorted(daybreak - placed)
        case NailState():
            for player in data["players"]:
                player.pop("ap")
        case ValeState():
            pass
        case _:
            raise TypeError(f"no position defined for {type(state).__name__}")
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def turn_key(game: Game, state: BaseModel) -> tuple[int, int]:
    """Which turn a state is in: its turn number and the active team (-1: set-up)."""
    active = game.active_seat(state)
    team = -1 if active is None else game.team_of(state, active)
    return (getattr(state, "turn", 0), team)


def wastes_turn(
    game: Game, state: BaseModel, seat: Seat, action: Action, after: BaseModel | None = None
) -> bool:
    """Whether `seat` taking `action` in `state` wastes its turn (see the module's notes);
    `after`: the state the action led to, when it is known. A move that ends the game
    wastes nothing (ending the turn may win it: the other side cannot draw)."""
    if after is None:
        after, _ = game.apply(state, seat, action, random.Random(0))
    if game.outcome(after) is not None:
        return False
    match state:
        case NatureState():
            return _nature_wastes(game, state, seat, action, after)
        case ValeState():
            return _vale_wastes(game, state, seat, action)
        case NailState():
            return _nail_wastes(game, state, seat, action)
    raise TypeError(f"no wasted turn defined for {type(state).__name__}")


def _nature_wastes(
    game: Game, state: NatureState, seat: Seat, action: Action, after: BaseModel
) -> bool:
    if state.frames or state.phase not in ("daybreak", "actions"):
        return False
    if state.side_of(seat).ap <= 0:
        return False
    assert isinstance(after, NatureState)
    stays = after.phase in ("daybreak", "actions") and turn_key(game, after) == turn_key(
        game, state
    )
    if stays:
        return False
    legal = game.legal_actions(state, seat)
    return any(attack_lands(game, state, seat, a) for a in legal if a.kind == "attack")


def _vale_wastes(game: Game, state: ValeState, seat: Seat, action: Action) -> bool:
    if action.kind != "done" or state.phase != "harvest" or state.frames:
        return False
    for option in game.legal_actions(state, seat):
        if option.kind == "vale":
            return True
        if option.kind == "buy" and _useful(
            state, seat, advancement_of(state, int(option.args[0]))
        ):
            return True
    return False


def _useful(state: ValeState, seat: Seat, card: Advancement) -> bool:
    """Whether buying a clean advancement (no decay) is sure to be of use: it costs no VP,
    it has an empty slot to go into (sleeved over an eclipse, it would hide that card's
    symbols, its VP too), and it will show in a Harvest to come or brings VP of its own
    (in the last round the turn under way is the player's last)."""
    clean = card.symbols.decay == 0 and card.cost.vp == 0
    useful = clean and (not state.last_round or card.symbols.end_vp > 0)
    return useful and _empty_slots(state, seat, card) > 0


def _empty_slots(state: ValeState, seat: Seat, card: Advancement) -> int:
    """The field's cards that take this advancement into an empty slot, less the ones
    bought this Harvest for that slot (each takes one)."""
    empty = sum(
        slot_takes(state, state.card(c), card) and not state.card(c).slots[card.slot]
        for c in targets(state, seat)
    )
    assert state.harvest is not None
    bought = [advancement_of(state, i).slot for i in state.harvest.bought]
    return empty - bought.count(card.slot)


def _nail_wastes(game: Game, state: NailState, seat: Seat, action: Action) -> bool:
    if action.kind != "end" or state.phase != "action" or state.frames:
        return False
    if state.players[seat].ap <= 0:
        return False
    legal = game.legal_actions(state, seat)
    return any(attack_lands(game, state, seat, a) for a in legal if a.kind == "attack")


def attack_lands(game: Game, state: BaseModel, seat: Seat, attack: Action) -> bool:
    """Whether a legal attack would land if the defenders let it through: Command of
    Nature, an enemy Elemental takes DMG or leaves its formation; Tooth & Nail, an enemy
    team's deck gets shorter."""
    after, _ = game.apply(state, seat, attack, random.Random(0))
    after = _resolve(game, after)
    match state:
        case NatureState():
            assert isinstance(after, NatureState)
            mine = state.side_of(seat).team
            for team, side in enumerate(state.sides):
                if team == mine:
                    continue
                now = {e.card: e.damage for e in _elementals(after.sides[team])}
                for elemental in _elementals(side):
                    if now.get(elemental.card, 10**6) > elemental.damage:
                        return True
            return False
        case NailState():
            assert isinstance(after, NailState)
            mine = state.team_of(seat).team
            return any(
                len(after.teams[t.team].deck) < len(t.deck) for t in state.teams if t.team != mine
            )
    raise TypeError(f"no attack defined for {type(state).__name__}")


def _elementals(side: Any) -> list[Any]:
    return [side.formation.at(pos) for pos in side.formation.occupied()]


def _resolve(game: Game, state: BaseModel) -> BaseModel:
    """Play on the decisions an attack opens (a response window, a choice) until none is
    left: a defender lets it through, anyone else takes the first legal choice."""
    for _ in range(SETTLE):
        if game.outcome(state) is not None or not getattr(state, "frames", None):
            break
        who = sorted(game.to_act(state))[0]
        legal = game.legal_actions(state, who)
        if not legal:
            break
        choice = LET if LET in legal else legal[0]
        state, _ = game.apply(state, who, choice, random.Random(0))
    return state


@dataclass
class Conduct:
    """One AI level's moves in some games: what it did, and what it took to decide."""

    moves: int = 0
    turns: int = 0  # turns of its side in which it moved
    empty: int = 0
    self_undoing: int = 0
    wasted: int = 0
    times: list[float] = field(default_factory=list)  # seconds per decision with a choice
    playouts: list[int] = field(default_factory=list)  # per decision that reported a count

    def add(self, other: Conduct) -> None:
        self.moves += other.moves
        self.turns += other.turns
        self.empty += other.empty
        self.self_undoing += other.self_undoing
        self.wasted += other.wasted
        self.times += other.times
        self.playouts += other.playouts

    def per_100_turns(self, count: int) -> float:
        return 100.0 * count / self.turns if self.turns else 0.0


class Watch:
    """Follows one game move by move and books the AI's moves to their `Conduct`."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.turn: tuple[int, int] | None = None
        self.seen: set[str] = set()
        self.turns: set[tuple[int, tuple[int, int]]] = set()  # (conduct id, turn) counted
        self.wasted: set[tuple[int, tuple[int, int]]] = set()

    def move(
        self,
        before: BaseModel,
        seat: Seat,
        action: Action,
        after: BaseModel,
        conduct: Conduct | None = None,
    ) -> None:
        """Book one move (every move of the game, so the turn's positions are known;
        `conduct` for an AI's move)."""
        turn = turn_key(self.game, before)
        was = position(before)
        if turn != self.turn:
            self.turn, self.seen = turn, {was}
        now = position(after)
        if conduct is not None:
            conduct.moves += 1
            if now == was:
                conduct.empty += 1
            elif now in self.seen:
                conduct.self_undoing += 1
            own = turn[1] == self.game.team_of(before, seat)
            mark = (id(conduct), turn)
            if own and mark not in self.turns:
                self.turns.add(mark)
                conduct.turns += 1
            if (
                own
                and mark not in self.wasted
                and wastes_turn(self.game, before, seat, action, after)
            ):
                self.wasted.add(mark)
                conduct.wasted += 1
        if turn_key(self.game, after) == turn:
            self.seen.add(now)
