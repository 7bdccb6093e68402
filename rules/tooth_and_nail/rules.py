"""Tooth & Nail: Factions, rule by rule.

Each public function here is one rule or action of the rulebook. The game waits
on decisions (`Frame`s); everything else resolves through the step queue in
order, so an ability that needs a choice halfway simply pauses until the
choice arrives as the next action.
"""

from __future__ import annotations

import random
from functools import cache

from rules.core import Event, IllegalAction
from rules.core.rng import pick, shuffle
from rules.tooth_and_nail.cards import (
    Faction,
    Pack,
    TroopCard,
    get_pack,
)
from rules.tooth_and_nail.state import Frame, Player, State, Step, Team, Troop
from rules.tooth_and_nail.text import listing, possessive

MAX_AP = 5
ZONE_NAMES = {"command": "Command Zone", "war": "War Zone"}
PLAYERS = {"2p": 2, "3p": 3, "alliance": 2, "4p": 4}
ALLIANCE_FACE_DOWN = 10

Events = list[Event]


# --------------------------------------------------------------------------- cards


@cache
def _troop_index(pack_name: str) -> dict[str, tuple[Faction, TroopCard]]:
    return get_pack(pack_name).troops


def pack_of(state: State) -> Pack:
    return get_pack(state.pack)


def troop_def(state: State, troop_id: str) -> TroopCard:
    return _troop_index(state.pack)[troop_id][1]


def card_def(state: State, card: int) -> TroopCard:
    return troop_def(state, state.cards[card])


def card_faction(state: State, card: int) -> Faction:
    return _troop_index(state.pack)[state.cards[card]][0]


def card_name(state: State, card: int) -> str:
    return card_def(state, card).name


def names(state: State, cards: list[int]) -> str:
    return ", ".join(card_name(state, c) for c in cards) or "nothing"


def has_troop_id(state: State, troop_id: str) -> bool:
    return troop_id in _troop_index(state.pack)


# Events that always show someone a card that was hidden: a card drawn, a shuffled or
# searched deck, a card leaving a hand face up (played, Boosted, discarded at random, to
# keep a Troop). A kind that shows one only sometimes (damage to a deck that has cards
# left, a discard of a card of one's choice) says so where it happens; so does an action
# that leaves a deck search asked (see `actions`).
REVEALING = frozenset({"draw", "shuffle", "search", "discard_random", "play", "boost", "keep"})


def _ev(
    kind: str, text: str, seat: int | None = None, *, reveals: bool = False, **private: str
) -> Event:
    return Event(
        kind=kind, text=text, seat=seat, private=private, reveals=reveals or kind in REVEALING
    )


def _name(state: State, seat: int) -> str:
    return state.players[seat].name


def seat_names(state: State, seats: list[int]) -> str:
    """The players in these seats, listed: "Ada and Cleo"."""
    return listing([_name(state, s) for s in seats]) if seats else "nobody"


# --------------------------------------------------------------------------- set-up


def setup_game(variant: str, names_by_seat: list[str], pack: str, rng: random.Random) -> State:
    """Standard set-up: pick the start player, then open the faction choice.

    In The Enemy of My Enemy the teams are seats 1 & 3 and 2 & 4 in joining order,
    so turns alternate between teams.
    """
    if variant not in PLAYERS:
        raise IllegalAction("variant", f"Tooth & Nail has no variant {variant!r}.")
    n = PLAYERS[variant]
    if len(names_by_seat) != n:
        raise IllegalAction("players", f"This variant needs exactly {n} players.")
    team_of = [s % 2 for s in range(n)] if variant == "4p" else list(range(n))
    players = [Player(seat=s, name=names_by_seat[s], team=team_of[s]) for s in range(n)]
    teams = [
        Team(team=t, seats=[s for s in range(n) if team_of[s] == t]) for t in sorted(set(team_of))
    ]
    start = pick(n, rng)
    order = [(start + i) % n for i in range(n)]
    state = State(
        variant=variant,  # type: ignore[arg-type]
        pack=pack,
        players=players,
        teams=teams,
        turn_order=order,
        start_player=start,
    )
    state.draft_order = draft_order(state)
    _open_faction_choice(state)
    return state


def draft_order(state: State) -> list[int]:
    """Who chooses factions, by team, in the rulebook's order: the start player
    chooses last; Alliance alternates other/start twice; four players alternate
    teams three times beginning with the Other Team."""
    order = state.turn_order
    team = [state.players[s].team for s in order]
    match state.variant:
        case "2p":
            return [team[1], team[0]]
        case "3p":
            return [team[1], team[2], team[0]]
        case "alliance":
            return [team[1], team[0], team[1], team[0]]
        case _:
            return [team[1], team[0]] * 3


def _open_faction_choice(state: State) -> None:
    team = state.teams[state.draft_order[0]]
    state.frames = [
        Frame(kind="faction", deciders=list(team.seats), prompt="choose a Faction"),
    ]


def taken_factions(state: State) -> set[str]:
    return {f for t in state.teams for f in t.factions}


def choose_faction(state: State, seat: int, faction_id: str, rng: random.Random) -> Events:
    """Take a faction deck and its Faction Command card."""
    faction = pack_of(state).faction(faction_id)
    if faction_id in taken_factions(state):
        raise IllegalAction("faction-taken", f"The {faction.name} have already been chosen.")
    who = _name(state, seat) if state.variant != "4p" else f"{_name(state, seat)} (for their team)"
    return _take_faction(state, seat, faction_id, f"{who} takes the {faction.name}.", rng)


def _take_faction(
    state: State, seat: int, faction_id: str, text: str, rng: random.Random
) -> Events:
    """The team of `seat` takes a faction deck (in The Enemy of My Enemy, for both
    teammates); the draft moves on."""
    team = state.team_of(seat)
    team.factions.append(faction_id)
    for s in team.seats:
        state.players[s].factions.append(faction_id)
    events = [_ev("faction", text, seat)]
    state.draft_order.pop(0)
    return events + _next_in_the_draft(state, rng)


def take_the_last_faction(state: State, rng: random.Random) -> Events:
    """A pick with a single faction left to take is no choice: the team whose pick it is
    takes it."""
    team = state.teams[state.draft_order[0]]
    (faction,) = [f for f in pack_of(state).factions if f.id not in taken_factions(state)]
    verb = "takes" if len(team.seats) == 1 else "take"
    text = f"{seat_names(state, team.seats)} {verb} the {faction.name}, the only Faction left."
    return _take_faction(state, team.seats[0], faction.id, text, rng)


def leave_the_draft(state: State, seat: int, rng: random.Random) -> Events:
    """3 players: a player who concedes during the draft chooses no (more) Factions; the
    draft goes on with the next player in the draft order."""
    team = state.players[seat].team
    state.draft_order = [t for t in state.draft_order if t != team]
    return _next_in_the_draft(state, rng)


def _next_in_the_draft(state: State, rng: random.Random) -> Events:
    """The next in the draft order chooses; once nobody is left to choose, the decks are
    built and the Faction Command cards set."""
    if state.draft_order:
        _open_faction_choice(state)
        if len(pack_of(state).factions) - len(taken_factions(state)) == 1:
            return take_the_last_faction(state, rng)
        return []
    state.frames = []
    return build_decks(state, rng) + _open_command_choice(state)


def build_decks(state: State, rng: random.Random) -> Events:
    """Each team that drafted shuffles its faction decks together (Alliance: then removes
    the top 10 face down). A player who conceded before choosing has no deck."""
    pack = pack_of(state)
    events: Events = []
    for team in state.teams:
        if not team.factions:
            continue
        for faction_id in team.factions:
            for troop in pack.faction(faction_id).troops:
                for _ in range(pack.copies):
                    team.deck.append(len(state.cards))
                    state.cards.append(troop.id)
        shuffle(team.deck, rng)
        if state.variant == "alliance":
            for _ in range(ALLIANCE_FACE_DOWN):
                team.face_down.append(team.deck.pop())
        who = " & ".join(_name(state, s) for s in team.seats)
        extra = " and removes the top 10 face down" if state.variant == "alliance" else ""
        events.append(
            _ev(
                "shuffle",
                f"{who} shuffle{'s' if len(team.seats) == 1 else ''} "
                f"{len(team.deck) + len(team.face_down)} cards{extra}.",
            )
        )
    return events


def _command_choosers(state: State) -> list[int]:
    if state.variant == "alliance":
        return [state.turn_order[1], state.turn_order[0]]
    if state.variant == "4p":
        return list(state.turn_order)
    return []


def _open_command_choice(state: State) -> Events:
    """Each player with a single Faction sets its Faction Command card face up; in
    Alliance and The Enemy of My Enemy the players choose theirs, one at a time (a player
    left with a single card to take sets it without being asked)."""
    choosers = [
        s
        for s in _command_choosers(state)
        if state.players[s].command_card is None and command_card_options(state, s)
    ]
    if state.variant in ("2p", "3p"):
        for p in state.players:
            if p.factions:
                p.command_card = p.factions[0]
    if choosers:
        seat = choosers[0]
        options = command_card_options(state, seat)
        if len(options) == 1:
            return _set_command_card(state, seat, options[0], only=True)
        state.phase = "command_choice"
        state.frames = [
            Frame(kind="command_card", deciders=[seat], prompt="choose a Faction Command card")
        ]
        return []
    return start_first_turn(state)


def command_card_options(state: State, seat: int) -> list[str]:
    """Faction Command cards this seat may set in front of them."""
    player = state.players[seat]
    if state.variant == "4p":
        mate_cards = {state.players[s].command_card for s in state.team_of(seat).seats if s != seat}
        return [f for f in player.factions if f not in mate_cards]
    return list(player.factions)


def choose_command_card(state: State, seat: int, faction_id: str) -> Events:
    """Set one Faction Command card for the whole game; the other goes aside."""
    if faction_id not in command_card_options(state, seat):
        raise IllegalAction("command-card", "You can't take that Faction Command card.")
    return _set_command_card(state, seat, faction_id, only=False)


def _set_command_card(state: State, seat: int, faction_id: str, *, only: bool) -> Events:
    state.players[seat].command_card = faction_id
    faction = pack_of(state).faction(faction_id)
    why = ", the only one left to them" if only else ""
    text = f"{_name(state, seat)} sets the {faction.name} Faction Command card{why}."
    return [_ev("command", text, seat), *_open_command_choice(state)]


def start_first_turn(state: State) -> Events:
    """The start player takes the first turn (3 players: if they conceded during the
    draft, the next player clockwise who is still in the game does)."""
    state.frames = []
    state.turn = 1
    state.alpha = next(s for s in state.turn_order if takes_turns(state.players[s]))
    return begin_turn(state)


def takes_turns(player: Player) -> bool:
    """A player takes turns until they are out for good: eliminated with their revenge
    taken, or conceded."""
    return not player.eliminated or not player.revenge_done


# --------------------------------------------------------------------------- turns


def begin_turn(state: State) -> Events:
    """The Alpha player's turn opens with the Recharge Step (an eliminated player
    instead takes their revenge, once)."""
    seat = state.alpha
    assert seat is not None
    player = state.players[seat]
    if player.eliminated:
        return begin_revenge(state)
    state.phase = "recharge"
    events = [_ev("turn", f"Turn {state.turn}: {player.name} is the Alpha player.", seat)]
    if player.turns_taken == 0:
        state.queue.append(Step(kind="first_recharge", actor=seat))
    else:
        state.queue.append(Step(kind="recharge_draw", actor=seat))
        if player.command_zone:
            state.queue.append(
                Step(kind="recharge_pick", actor=seat, amount=len(player.command_zone))
            )
        state.queue.append(Step(kind="recharge_troops", actor=seat))
    state.queue.append(Step(kind="action_step", actor=seat))
    return events


def first_recharge(state: State, seat: int) -> Events:
    """A player's first Recharge Step: draw 5 cards and gain 3 Action Points."""
    events = draw(state, seat, 5)
    return events if state.phase == "over" else events + gain_ap(state, seat, 3)


def recharge_draw(state: State, seat: int) -> Events:
    """Recharge: draw 1 card and gain 1 Action Point."""
    events = draw(state, seat, 1)
    return events if state.phase == "over" else events + gain_ap(state, seat, 1)


def recharge_choice(state: State, seat: int, choice: str) -> Events:
    """For one Command Zone Troop: draw 1 card or gain 1 Action Point."""
    frame = state.frames[-1]
    frame.remaining["n"] -= 1
    if frame.remaining["n"] <= 0:
        state.frames.pop()
    return draw(state, seat, 1) if choice == "draw" else gain_ap(state, seat, 1)


def recharge_troops(state: State, seat: int) -> Events:
    """Recharge every Command Zone Troop, then one War Zone Troop of the player's choice."""
    player = state.players[seat]
    for troop in player.command_zone:
        troop.drained = False
    drained = {state.cards[t.card] for t in player.war_zone if t.drained}
    if len(drained) == 1:
        return recharge_war_troop(state, seat, drained.pop(), only=True)
    if drained:
        state.frames.append(
            Frame(kind="ready", deciders=[seat], prompt="choose a War Zone Troop to recharge")
        )
    return []


def recharge_war_troop(state: State, seat: int, troop_id: str, *, only: bool = False) -> Events:
    """Recharge one drained War Zone Troop with this name (`only`: there was no other
    kind to choose from)."""
    player = state.players[seat]
    for troop in player.war_zone:
        if troop.drained and state.cards[troop.card] == troop_id:
            troop.drained = False
            if state.frames and state.frames[-1].kind == "ready":
                state.frames.pop()
            why = ", the only kind of drained Troop there" if only else ""
            name = card_name(state, troop.card)
            text = f"{player.name} recharges {name} in their War Zone{why}."
            return [_ev("recharge", text, seat)]
    name = troop_def(state, troop_id).name
    raise IllegalAction("not-drained", f"You have no drained {name} in your War Zone.")


def end_turn(state: State, seat: int, forced: bool = False) -> Events:
    """The Alpha player returns unused Action Points; the next player becomes Alpha.
    `forced`: the turn ends because nothing is left that the player could do."""
    player = state.players[seat]
    returning = f", returning {player.ap} unused AP" if player.ap else ""
    why = " with nothing left to do" if forced else ""
    events = [_ev("end", f"{player.name} ends their turn{why}{returning}.", seat)]
    player.ap = 0
    if not player.eliminated:
        player.turns_taken += 1
    return events + advance_turn(state)


def advance_turn(state: State) -> Events:
    """Pass the turn clockwise, skipping players who are out for good."""
    state.queue.clear()
    state.frames.clear()
    order = state.turn_order
    i = order.index(state.alpha) if state.alpha is not None else -1
    for step in range(1, len(order) + 1):
        seat = order[(i + step) % len(order)]
        if takes_turns(state.players[seat]):
            state.alpha = seat
            state.turn += 1
            return begin_turn(state)
    return []


def begin_revenge(state: State) -> Events:
    """3 players: on what would be their next turn, an eliminated player deals 1 damage
    per card in hand to the player of their choice."""
    seat = state.alpha
    assert seat is not None
    player = state.players[seat]
    state.phase = "revenge"
    if not player.hand or not state.opponents(seat):
        player.revenge_done = True
        events = [_ev("revenge", f"{player.name} has no cards in hand: no revenge.", seat)]
        return events + advance_turn(state)
    state.frames = [
        Frame(kind="revenge", deciders=[seat], prompt=f"choose who takes {len(player.hand)} damage")
    ]
    return []


def take_revenge(state: State, seat: int, target: int) -> Events:
    """Deal the revenge damage to the chosen opponent's deck; the turn passes on."""
    if target not in state.opponents(seat):
        raise IllegalAction("target", "Choose a player who is still in the game.")
    player = state.players[seat]
    player.revenge_done = True
    state.frames.clear()
    amount = len(player.hand)
    events = [
        _ev(
            "revenge",
            f"{player.name} takes revenge on {_name(state, target)} "
            f"with {amount} card{'s' if amount != 1 else ''} in hand.",
            seat,
        )
    ]
    events += deal_damage(state, target, amount)
    if state.phase != "over":
        events += advance_turn(state)
    return events


# --------------------------------------------------------------------------- card movement


def draw(state: State, seat: int, n: int) -> Events:
    """Draw from the top of the player's (team's) deck."""
    team = state.team_of(seat)
    forget_left_hand(state.players[seat])
    drawn = [team.deck.pop() for _ in range(min(n, len(team.deck)))]
    state.players[seat].hand.extend(drawn)
    if not drawn:
        return []
    who = _name(state, seat)
    count = f"{len(drawn)} card{'s' if len(drawn) != 1 else ''}"
    events = [
        _ev(
            "draw", f"{who} draws {count}.", seat, **{str(seat): f"You draw {names(state, drawn)}."}
        )
    ]
    return events + check_decks(state)


def forget_left_hand(player: Player) -> None:
    """Before a card goes into a hand unseen: a card once seen going in is known there
    only while it stayed."""
    player.shown_in_hand = [c for c in player.shown_in_hand if c in player.hand]


def gain_ap(state: State, seat: int, n: int) -> Events:
    """Gain Action Point cards; a player never holds more than 5."""
    player = state.players[seat]
    gained = min(n, MAX_AP - player.ap)
    player.ap += gained
    text = (
        f"{player.name} gains {gained} AP."
        if gained
        else f"{player.name} already holds 5 AP and gains none."
    )
    return [_ev("ap", text, seat)]


def deal_damage(state: State, seat: int, amount: int) -> Events:
    """Move cards from the top of a deck to its discard pile, one per damage."""
    team = state.team_of(seat)
    hit = [team.deck.pop() for _ in range(min(amount, len(team.deck)))]
    team.discard.extend(hit)
    owner = " & ".join(_name(state, s) for s in team.seats)
    events = [
        _ev(
            "damage",
            f"{owner}'s deck takes {amount} damage ({names(state, hit)} to the discard pile).",
            seat,
            reveals=bool(hit),  # the top cards of the deck, face up
        )
    ]
    return events + check_decks(state)


def destroy(state: State, seat: int, zone: str, index: int) -> Events:
    """A destroyed Troop goes to the top of its owner's discard pile."""
    troop = _zone(state.players[seat], zone).pop(index)
    state.team_of(seat).discard.append(troop.card)
    return [
        _ev("destroy", f"{_name(state, seat)}'s {card_name(state, troop.card)} is destroyed.", seat)
    ]


def remove_from_game(state: State, seat: int, card: int) -> None:
    state.team_of(seat).removed.append(card)


def discard_from_hand(state: State, seat: int, card: int) -> None:
    state.players[seat].hand.remove(card)
    state.team_of(seat).discard.append(card)


def hand_card(state: State, seat: int, troop_id: str) -> int | None:
    return next((c for c in state.players[seat].hand if state.cards[c] == troop_id), None)


def put_into_play(state: State, seat: int, troop_id: str, zone: str, cost: int) -> Events:
    """A Troop enters play non-drained."""
    card = hand_card(state, seat, troop_id)
    assert card is not None
    player = state.players[seat]
    player.hand.remove(card)
    player.ap -= cost
    _zone(player, zone).append(Troop(card=card))
    how = "" if cost else " at no cost"
    return [
        _ev(
            "play",
            f"{player.name} plays {card_name(state, card)} into their {ZONE_NAMES[zone]}{how}.",
            seat,
        )
    ]


def _zone(player: Player, zone: str) -> list[Troop]:
    return player.command_zone if zone == "command" else player.war_zone


def check_decks(state: State) -> Events:
    """The game ends at once when a deck is empty (3 players: that player is
    eliminated, and the game ends when two decks are empty)."""
    if state.phase == "over":
        return []
    events: Events = []
    for team in state.teams:
        if team.deck:
            continue
        if state.variant == "3p":
            seat = team.seats[0]
            if not state.players[seat].eliminated:
                state.players[seat].eliminated = True
                events.append(
                    _ev(
                        "eliminated",
                        f"{_name(state, seat)}'s deck is empty: they are eliminated.",
                        seat,
                    )
                )
        elif not state.losers:
            owners = seat_names(state, team.seats)
            empty = (
                f"The shared deck of {owners} is empty"
                if len(team.seats) > 1
                else f"{possessive(owners)} deck is empty"
            )
            winners = [p.seat for p in state.players if p.team != team.team]
            text = f"{empty}: {_win(state, winners)}."
            return events + end_game(state, losing_team=team.team, reason="deck empty", text=text)
    if state.variant == "3p":
        living = state.living()
        if len(living) <= 1:
            out = [e.seat for e in events if e.kind == "eliminated" and e.seat is not None]
            out = out or [p.seat for p in state.players if p.eliminated]
            empty = (
                f"{possessive(_name(state, out[0]))} deck is empty"
                if len(out) == 1
                else f"The decks of {seat_names(state, out)} are empty"
            )
            text = f"{empty}: {_last_standing(state, living)}."
            return events + end_game(state, winners=living, reason="last deck standing", text=text)
        _forget_eliminated(state)
    return events


def _win(state: State, winners: list[int]) -> str:
    """ "Basil wins", "Basil and Dev win"."""
    return f"{seat_names(state, winners)} win{'s' if len(winners) == 1 else ''}"


def _last_standing(state: State, living: list[int]) -> str:
    return f"{_win(state, living)}, the last player standing" if living else "nobody is left"


def _forget_eliminated(state: State) -> None:
    """Decisions and steps of an eliminated player lapse, and so do choices aimed only at
    eliminated players (effects no longer reach them); an Alpha player who is
    eliminated ends their turn at once."""
    out = {p.seat for p in state.players if p.eliminated}
    for frame in state.frames:
        frame.deciders = [s for s in frame.deciders if s not in out]
        for s in out:
            frame.remaining.pop(str(s), None)
    state.frames = [
        f for f in state.frames if f.deciders and not (f.step and _aimed_only_at(f.step, out))
    ]
    state.queue = [s for s in state.queue if s.actor not in out]
    for step in state.queue:
        step.victims = [v for v in step.victims if v not in out]


def _aimed_only_at(step: Step, seats: set[int]) -> bool:
    return bool(step.victims) and set(step.victims) <= seats


def end_game(
    state: State,
    *,
    losing_team: int | None = None,
    winners: list[int] | None = None,
    reason: str,
    text: str,
) -> Events:
    """The game is over: who won and lost, why in a word (`reason`) and in a sentence
    (`text`, the last public line)."""
    if losing_team is not None:
        state.losers = list(state.teams[losing_team].seats)
        state.winners = [p.seat for p in state.players if p.team != losing_team]
    else:
        state.winners = list(winners or [])
        state.losers = [p.seat for p in state.players if p.seat not in state.winners]
    state.phase = "over"
    state.end_reason = reason
    state.end_text = text
    state.queue.clear()
    state.frames.clear()
    return [_ev("over", text)]


def concede(state: State, seat: int, rng: random.Random) -> Events:
    """A player leaves the battle. In 3 players they are eliminated (no revenge) and the
    others play on: the draft goes on without them, and the turn passes on if it was
    theirs. Otherwise their side loses. A player already out has nothing to concede."""
    if state.phase == "over":
        raise IllegalAction("over", "This game is already over.")
    player = state.players[seat]
    if not takes_turns(player):
        raise IllegalAction("out", "You are already out of this game.")
    if state.variant != "3p":
        winners = [p.seat for p in state.players if p.team != player.team]
        whose = " for their team" if len(state.team_of(seat).seats) > 1 else ""
        text = f"{player.name} concedes{whose}: {_win(state, winners)}."
        return end_game(state, losing_team=player.team, reason="concession", text=text)
    player.eliminated = True
    player.revenge_done = True
    player.ap = 0
    living = state.living()
    if len(living) <= 1:
        text = f"{player.name} concedes: {_last_standing(state, living)}."
        return end_game(state, winners=living, reason="concession", text=text)
    text = f"{player.name} concedes: {seat_names(state, living)} play on."
    events = [_ev("concede", text, seat)]
    _forget_eliminated(state)
    if state.phase == "faction_choice":
        return events + leave_the_draft(state, seat, rng)
    if state.alpha == seat:
        events += advance_turn(state)
    return events
