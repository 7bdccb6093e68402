"""How a Ways of Command table reads: each action's label and what it leads to, and
what the table asks of a seat."""

from __future__ import annotations

from rules.core import Action, IllegalAction
from rules.core.contract import NAME_LIMIT
from rules.core.text import chose, plural, shorten
from rules.historia_command import reports
from rules.historia_command.actions import (
    OPEN_KINDS,
    VOUCH,
    ending_text,
    paused_text,
    to_act,
)
from rules.historia_command.powers import (
    POWER_NAMES,
    POWER_TEXTS,
    place_phrase,
    roman,
    shortfall,
)
from rules.historia_command.standings import (
    CATEGORY_NAMES,
    a_people,
    civ_name,
    does,
    eligible_by,
    names,
    possessive,
)
from rules.historia_command.state import CUBES, TURNS, Place, Power, State


def describe(state: State, action: Action) -> str:
    """The label of an action, unique among a seat's legal actions. A player's own
    words (an action of an open kind) are labelled before `apply` checks them, so an
    open action that doesn't read as one is labelled by its key."""
    try:
        return _describe(state, action)
    except (KeyError, IndexError, ValueError, IllegalAction):
        if action.kind in OPEN_KINDS:
            return action.key
        raise


def _describe(state: State, action: Action) -> str:
    kind, args = action.kind, action.args
    if kind == "civ":
        return f"Play {args[0]}"
    if kind == "token":
        civ = state.civ(int(args[0]))
        return f"{possessive(civ)} token: {reports.pair_name(reports.parse_pair(args[1]))}"
    if kind == "begin":
        return "Begin Era I"
    if kind == "territory":
        return f"{'Add' if args[0] == 'add' else 'Lose'} the territory {args[1]}"
    if kind == "level":
        return f"{CATEGORY_NAMES[args[0]]} level {args[1]}"  # type: ignore[index]
    if kind == "cubes":
        a, b = place_phrase(args[1], "your"), place_phrase(args[2], "your")  # type: ignore[arg-type]
        count = reports.number(args[0], 1, CUBES, "A number of cubes")
        return f"Move {plural(count, 'cube')} from {a} to {b}"
    if kind == "turn":
        return f"Turn {state.turn + 1} of {TURNS} begins"
    if kind == "era":
        return f"End Era {roman(state.era)}"
    if kind in ("command", VOUCH):
        return f"Command: {_activation(args, kind == VOUCH)}"
    if kind == "dispute":
        report = state.report(int(args[0]))
        what = report.text if report else ""
        return shorten(f"Dispute #{args[0]}: {what}")
    if kind == "withdraw":
        return "Withdraw your dispute: the report stands"
    if kind == "retract" and args:
        report = state.report(int(args[0]))
        return shorten(f"Take back your report #{args[0]}: {report.text if report else ''}")
    if kind == "retract":
        return "Take your report back"
    if kind == "result" and len(args) == 1:
        civ = state.civ(int(args[0]))
        return f"{civ_name(civ)} ({civ.player}) won"
    if kind == "result":
        civs = [state.civ(int(a)) for a in args]
        label = f"Shared win: {names(civs)} ({', '.join(c.player for c in civs)})"
        if len(label) > NAME_LIMIT:  # named by seat, so that no two read alike
            seats = ", ".join(str(c.seat + 1) for c in civs)
            label = shorten(f"Shared win of seats {seats}: {names(civs)}")
        return label
    if kind == "agree" and state.phase == "ending":
        return f"Agree: Era {roman(state.era)} is over"
    if kind == "object" and state.phase == "ending":
        return f"Object: Era {roman(state.era)} isn't over"
    if kind == "agree":
        return "Agree with the result"
    if kind == "object":
        return "Object to the result"
    return action.key


def _activation(args: tuple[str, ...], word: bool = False) -> str:
    """An activation in words: its power and where its cube comes from; with the
    player's word, that their table has the cubes it takes ("+2 Military (its cube from
    the Bank) — my table has it"). A label names no count: it reads the same for
    every seat (see `explain` for what Arbiter counts)."""
    power: Power = args[0]  # type: ignore[assignment]
    source: Place = args[1]  # type: ignore[assignment]
    name = POWER_NAMES[power]
    cubes = int(args[2]) if power == "cubes" else 0
    if power == "cubes":
        taken = plural(cubes, "cube") if cubes else "no cube"
        name = f"Take {taken} from the general supply"
    text = f"{name} (its cube from {place_phrase(source, 'your')})"
    if word:
        text += f" — my table has {'them' if cubes else 'it'}"
    return text


def acknowledge(state: State, action: Action, seat: int) -> str:
    """What `seat` reads once its action is taken in `state`: what happened, addressed to
    them ("Your civilization is the Romans."), where the label reads as a button."""
    try:
        return _acknowledge(state, action, seat)
    except (KeyError, IndexError, ValueError, IllegalAction):
        return chose(describe(state, action))


def _acknowledge(state: State, action: Action, seat: int) -> str:
    kind, args = action.kind, action.args
    if kind == "civ":
        name = reports.clean_name("|".join(args), "civilization")
        return f"Your civilization is {'the ' if a_people(name) else ''}{name}."
    if kind == "token":
        civ = state.civ(int(args[0]))
        whose = "Your" if civ.seat == seat else possessive(civ)
        return f"{whose} Command token shows {reports.pair_name(reports.parse_pair(args[1]))}."
    if kind == "begin":
        return "Era I has begun: report what changes as you play."
    if kind == "territory":
        name = reports.clean_name("|".join(args[1:]), "territory")
        return f"You hold {name} now." if args[0] == "add" else f"You no longer hold {name}."
    if kind == "level":
        return f"Your {CATEGORY_NAMES[args[0]]} level is {args[1]} now."  # type: ignore[index]
    if kind == "cubes":
        a, b = place_phrase(args[1], "your"), place_phrase(args[2], "your")  # type: ignore[arg-type]
        count = reports.number(args[0], 1, CUBES, "A number of cubes")
        return f"You moved {plural(count, 'cube')} from {a} to {b}."
    if kind == "turn":
        return f"Turn {state.turn + 1} of {TURNS} has begun."
    if kind == "era":
        return f"You reported the end of Era {roman(state.era)}: the others are asked to agree."
    if kind == VOUCH:
        used = _activation(args)
        cubes = int(args[2]) if len(args) == 3 else 0
        missing = uncounted(state, seat, args[1], cubes)  # type: ignore[arg-type]
        return (
            f"You activated your Command token: {used}. Arbiter counted {missing}: its "
            "count follows your word."
        )
    if kind == "command":
        used = _describe(state, action).removeprefix("Command: ")
        return f"You activated your Command token: {used}."
    if kind == "dispute":
        return f"You disputed report #{args[0]}: the match is paused until it is settled."
    if kind == "withdraw":
        return "You withdrew your dispute: the report stands."
    if kind == "retract":
        number = args[0] if args else state.dispute.report if state.dispute else ""
        return f"You took report #{number} back." if number else "You took your report back."
    if kind == "result":
        won = names([state.civ(int(a)) for a in args])
        shared = "a shared win for " if len(args) > 1 else "that "
        verb = "" if len(args) > 1 else " won"
        return f"You reported {shared}{won}{verb}: the others are asked to agree."
    if kind == "agree" and state.phase == "ending":
        return f"You agreed that Era {roman(state.era)} is over."
    if kind == "object" and state.phase == "ending":
        return f"You objected: Era {roman(state.era)} goes on."
    if kind == "agree":
        return "You agreed with the result."
    if kind == "object":
        return "You objected to the result: it is reported again."
    return chose(describe(state, action))


def explain(state: State, action: Action, seat: int | None) -> str:
    """What an action leads to, for a menu option's description."""
    kind, args = action.kind, action.args
    if kind in ("command", VOUCH) and seat is not None:
        by = eligible_by(state, seat)
        cubes = int(args[2]) if len(args) == 3 else 0
        parts = [power_text(args[0], cubes)]  # type: ignore[arg-type]
        if kind == VOUCH:  # first, so that it shows where the label is cut short
            missing = uncounted(state, seat, args[1], cubes, short=True)  # type: ignore[arg-type]
            parts.insert(0, f"Arbiter counts {missing}")
        parts.append(f"you are first in {CATEGORY_NAMES[by]}" if by else "")
        return shorten(" · ".join(parts))
    if kind == "territory" and seat is not None and args[0] == "remove":
        left = len(state.civ(seat).territories) - 1
        return f"you hold {left} territor{'y' if left == 1 else 'ies'} after it"
    if kind == "token":
        return "the two categories its holder must lead (and not trail) to activate it"
    if kind == "begin":
        return "every civilization is named: the Command tokens can be activated from now on"
    if kind == "turn":
        return "the table has started its next turn"
    if kind == "era":
        return "once the others agree: the Command cubes go back, the +2 lapse, used tokens leave"
    if kind == "dispute":
        return "pauses the match until the table settles it"
    if kind == "withdraw":
        return "the match goes on"
    if kind == "retract" and args:
        return "undoes what it changed (and an activation it allowed, if it no longer can be)"
    if kind == "retract":
        return "undoes what the report changed; the match goes on"
    if kind == "result":
        return "each other player confirms it; the match then ends"
    if kind == "agree" and state.phase == "ending":
        return "the Era ends once everyone agrees"
    if kind == "object" and state.phase == "ending":
        return "the Era goes on"
    if kind == "agree":
        return "the match ends once everyone agrees"
    if kind == "object":
        return "the result is dropped: someone reports it again"
    return ""


def uncounted(state: State, seat: int, source: Place, cubes: int, short: bool = False) -> str:
    """What Arbiter doesn't count of what an activation takes, which the player's word
    says their table has, after "Arbiter counts": "no cube of yours in the Bank";
    `short`: "0 in the Bank"."""
    token_short, missing = shortfall(state.civ(seat), source, cubes)
    where = place_phrase(source, "your")
    where = f"0 in {where}" if short else f"no cube of yours in {where}"
    have = cubes - missing
    of = f"{have} of {cubes}" if short else f"{have or 'none'} of the {cubes}"
    supply = f"{of} in the general supply"
    if token_short and missing:
        return f"{where}, {supply}" if short else f"{where}, and {supply}"
    return supply if missing else where


def power_text(power: Power, cubes: int = 0) -> str:
    """What a power does; the cubes power's with the number of cubes it takes, as its
    label says it (0 allowed: the token is used all the same)."""
    if power != "cubes":
        return POWER_TEXTS[power]
    if not cubes:
        return "no cube moves; the token is used all the same"
    return f"{plural(cubes, 'cube')} from your reserve into your personal supply until the Era ends"


def question(state: State, seat: int) -> str | None:
    """What the table asks of `seat` now, in the second person."""
    civ = state.civ(seat)
    if state.phase == "over" or civ.conceded:
        return None
    if state.phase == "setup":
        if not civ.name:
            return "name your civilization — `/historia civilization`"
        if seat in to_act(state):
            return "every civilization is named — you host: check the tokens, then begin Era I"
        return None
    if state.phase == "dispute" and state.dispute is not None and state.dispute.by == seat:
        number = state.dispute.report
        return f"you dispute report #{number}: once the table settles it, withdraw the dispute"
    proposal = state.proposal
    if state.phase == "ending" and proposal is not None and seat not in proposal.agreed:
        reporter = does(state.civ(proposal.by), "report")
        return (
            f"{reporter} the end of Era {roman(state.era)} — do you agree, or object and the "
            "Era goes on?"
        )
    if state.phase == "final" and proposal is not None and seat not in proposal.agreed:
        winners = ", ".join(civ_name(state.civ(s)) for s in state.proposal.winners)
        return f"the table reports that {winners} won — do you agree or object?"
    return None


def prompt(state: State) -> str:
    """The board's headline: where the table is and what it waits for."""
    if state.phase == "setup":
        unnamed = [c.player for c in state.in_play() if not c.name]
        if unnamed:
            return f"Set-up — waiting for {', '.join(unnamed)} to name a civilization"
        return f"Set-up — {state.civ(reports.host(state)).player} begins Era I"
    if state.phase == "dispute":
        return paused_text(state)
    if state.phase == "ending":
        return ending_text(state)
    if state.phase == "final":
        if state.proposal is None:
            return "The last Era is over — report who won (`/historia result`)"
        waiting = [c.player for c in state.in_play() if c.seat not in state.proposal.agreed]
        return f"Result reported — waiting for {', '.join(waiting)} to agree"
    if state.phase == "over":
        return state.end_text
    return f"Era {roman(state.era)}, turn {state.turn} of {TURNS} — report changes as you play"
