"""What the table reports to Arbiter: civilizations named, tokens' symbols, territories
held, levels, cubes moved, turns passed. Each report is checked, applied and kept
with the action that would take it back, so that it can be disputed."""

from __future__ import annotations

from rules.core import Action, Event, IllegalAction
from rules.core.text import plural
from rules.historia_command.powers import (
    PLACE_NAMES,
    can_revoke,
    counted,
    event,
    level_lines,
    place_phrase,
    plain,
)
from rules.historia_command.standings import (
    CATEGORY_NAMES,
    civ_name,
    does,
    level,
    names,
    possessive,
    their,
)
from rules.historia_command.state import (
    CUBES,
    MAX_LEVEL,
    PLACES,
    TRACKS,
    TURNS,
    Category,
    Civilization,
    Place,
    Report,
    State,
    Track,
)

DONT = "don't"
NAME_LIMIT = 32  # a civilization's or a territory's name
ROMANS = ("romans", "rome", "roman empire", "the romans")
ROMAN_SYMBOLS: tuple[Category, Category] = ("territory", "military")
# The default spread of the other tokens: each pair of categories in turn, by seat.
PAIRS: tuple[tuple[Category, Category], ...] = (
    ("territory", "military"),
    ("military", "technology"),
    ("technology", "territory"),
)


def pair_key(pair: tuple[Category, Category]) -> str:
    return "-".join(pair)


def pair_name(pair: tuple[Category, Category]) -> str:
    return " & ".join(CATEGORY_NAMES[c] for c in pair)


def parse_pair(text: str) -> tuple[Category, Category]:
    for pair in PAIRS:
        if text in (pair_key(pair), pair_key((pair[1], pair[0]))):
            return pair
    raise IllegalAction("bad-symbols", "A token shows two of Territory, Military and Technology.")


def is_roman(name: str) -> bool:
    return name.strip().casefold() in ROMANS


def clean_name(text: str, what: str) -> str:
    """A name as the table typed it, trimmed; refused when empty, too long or made of
    characters a name doesn't hold."""
    name = " ".join(text.split())
    if not name:
        raise IllegalAction("bad-name", f"Give the {what} a name.")
    if len(name) > NAME_LIMIT:
        raise IllegalAction("bad-name", f"A {what}'s name is at most {NAME_LIMIT} characters long.")
    if "|" in name or not name.isprintable() or any(c in name for c in "`*_~<>@#"):
        raise IllegalAction(
            "bad-name", f"A {what}'s name holds letters, digits, spaces and simple punctuation."
        )
    return name


def number(text: str, low: int, high: int, what: str) -> int:
    if not (text.isascii() and text.isdigit()) or (len(text) > 1 and text[0] == "0"):
        raise IllegalAction("bad-number", f"{what} is a whole number from {low} to {high}.")
    value = int(text)
    if not low <= value <= high:
        raise IllegalAction("bad-number", f"{what} is a whole number from {low} to {high}.")
    return value


def place(text: str) -> Place:
    if text not in PLACES:
        listed = ", ".join(PLACE_NAMES[p] for p in PLACES)
        raise IllegalAction("bad-place", f"Cubes are in one of: {listed}.")
    return text  # type: ignore[return-value]


def _reporting(state: State) -> None:
    if state.phase not in ("setup", "era"):
        raise IllegalAction("not-now", "Reports are made during the set-up and the Eras.")


# ------------------------------------------------------------------ set-up


def name_civilization(state: State, seat: int, text: str, check: bool) -> list[Event]:
    if state.phase != "setup":
        raise IllegalAction("not-setup", "Civilizations are named during the set-up.")
    name = clean_name(text, "civilization")
    for other in state.civs:
        if other.seat != seat and other.name.casefold() == name.casefold():
            raise IllegalAction("name-taken", f"{other.player} plays {other.name} already.")
        if other.seat != seat and is_roman(name) and is_roman(other.name):
            raise IllegalAction(
                "name-taken", f"{other.player} plays the Romans already ({other.name})."
            )
    civ = state.civ(seat)
    if check:
        return []
    was = civ.name
    civ.name = name
    line = f"🏛️ {civ.player} plays **{name}**"
    if is_roman(name):
        civ.token.symbols = ROMAN_SYMBOLS
        line += f" (their Command token shows {pair_name(ROMAN_SYMBOLS)}, as the rulebook's)"
    elif is_roman(was):
        civ.token.symbols = PAIRS[seat % len(PAIRS)]
    return [event(line + ".", seat, "setup")]


def set_token(state: State, seat: int, whose: str, text: str, check: bool) -> list[Event]:
    if state.phase != "setup":
        raise IllegalAction("not-setup", "Tokens' symbols are set during the set-up.")
    target = number(whose, 0, len(state.civs) - 1, "A seat")
    civ = state.civ(target)
    if target != seat and seat != host(state):
        raise IllegalAction("not-host", "Only the host sets another civilization's token.")
    if is_roman(civ.name):
        raise IllegalAction(
            "roman-token", f"The Romans' token shows {pair_name(ROMAN_SYMBOLS)}, as printed."
        )
    pair = parse_pair(text)
    if pair == civ.token.symbols:
        raise IllegalAction("same", f"{possessive(civ)} token shows {pair_name(pair)} already.")
    if check:
        return []
    civ.token.symbols = pair
    return [event(f"🪙 {possessive(civ)} Command token: {pair_name(pair)}.", seat, "setup")]


def host(state: State) -> int:
    """The seat that begins the first Era: the first player seated still in the game."""
    return next(c.seat for c in state.civs if not c.conceded)


# ------------------------------------------------------------------ reports


def territory(
    state: State, seat: int, how: str, text: str, check: bool
) -> tuple[list[Event], str | None]:
    """A territory added to or removed from the reporter's civilization."""
    _reporting(state)
    civ = state.civ(seat)
    name = clean_name(text, "territory")
    known = next(
        (t for c in state.civs for t in c.territories if t.casefold() == name.casefold()), name
    )
    held = next((t for t in civ.territories if t.casefold() == name.casefold()), None)
    if how == "add":
        if held is not None:
            raise IllegalAction("held", f"{does(civ, 'hold')} {held} already.")
        if check:
            return [], None
        civ.territories.append(known)
        shared = [c for c in state.in_play() if c.seat != seat and known in c.territories]
        with_ = f"; shared with {names(shared)}" if shared else ""
        count = plural(len(civ.territories), "territory", "territories")
        line = f"🗺️ {does(civ, 'add')} {known} ({count}{with_})."
        return [event(line, seat)], f"territory|remove|{known}"
    if how == "remove":
        if held is None:
            raise IllegalAction("not-held", f"{does(civ, DONT)} hold {name}.")
        if check:
            return [], None
        civ.territories.remove(held)
        count = plural(len(civ.territories), "territory", "territories")
        line = f"🗺️ {does(civ, 'lose')} {held} ({count})."
        return [event(line, seat)], f"territory|add|{held}"
    raise IllegalAction("bad-report", "A territory is added or removed.")


def set_level(
    state: State, seat: int, which: str, text: str, check: bool, quiet: bool = False
) -> tuple[list[Event], str | None]:
    """A track's level as the table shows it (Command's +2 comes on top); `quiet`: no
    bonus announced (a report taken back)."""
    _reporting(state)
    if which not in TRACKS:
        raise IllegalAction("bad-track", "Levels are reported for Military or Technology.")
    track: Track = which  # type: ignore[assignment]
    civ = state.civ(seat)
    shown = CATEGORY_NAMES[track]
    value = number(text, 0, MAX_LEVEL, f"A {shown} level")
    old = civ.levels[track]
    if value == old:
        raise IllegalAction("same", f"{possessive(civ)} {shown} level is {old} already.")
    if check:
        return [], None
    before = level(civ, track)
    civ.levels[track] = value
    bonus = level(civ, track) - value
    plus = f" (+{bonus} by Command: {level(civ, track)})" if bonus else ""
    events = [event(f"📈 {civ_name(civ)}: {shown} {old} → {value}{plus}.", seat)]
    quiet = quiet or state.phase == "setup"  # the starting levels earn no bonus
    return events + level_lines(civ, track, before, quiet), f"level|{track}|{old}"


def move_cubes(
    state: State, seat: int, count: str, source: str, to: str, check: bool
) -> tuple[list[Event], str | None]:
    """Cubes moved from one place to another (a civilization always has CUBES)."""
    _reporting(state)
    civ = state.civ(seat)
    n = number(count, 1, CUBES, "A number of cubes")
    a, b = place(source), place(to)
    if a == b:
        raise IllegalAction("same", "Cubes move from one place to another.")
    if civ.cubes[a] < n:  # never below 0: a move the table didn't report comes first
        raise IllegalAction(
            "no-cubes",
            f"Arbiter counts {counted(civ.cubes[a])} of yours in {place_phrase(a, 'your')}: "
            "if your table has more there, first report the move that put them there.",
        )
    if check:
        return [], None
    civ.cubes[a] -= n
    civ.cubes[b] += n
    line = (
        f"🧊 {does(civ, 'move')} {plural(n, 'cube')} from {place_phrase(a, their(civ))} to "
        f"{place_phrase(b, their(civ))} ({cube_line(civ)})."
    )
    return [event(line, seat)], f"cubes|{n}|{b}|{a}"


def cube_line(civ: Civilization) -> str:
    """Where the civilization's cubes are, the one on its activated token included."""
    on_token = ", Command token 1" if civ.token.status == "active" else ""
    return ", ".join(f"{PLACE_NAMES[p]} {civ.cubes[p]}" for p in PLACES) + on_token


def next_turn(state: State, seat: int, check: bool) -> tuple[list[Event], str | None]:
    if state.phase != "era":
        raise IllegalAction("not-now", "Turns are counted during the Eras.")
    if state.turn >= TURNS:
        raise IllegalAction(
            "last-turn",
            f"This is turn {TURNS} of {TURNS}: the Era ends next (`/historia era-end`).",
        )
    if check:
        return [], None
    state.turn += 1
    line = f"🔄 Turn {state.turn} of {TURNS} begins ({does(state.civ(seat), 'report')})."
    return [event(line, seat)], "unturn"


def unturn(state: State) -> list[Event]:
    state.turn -= 1
    return [event(f"🔄 Back to turn {state.turn} of {TURNS}.")]


def check_era_end(state: State) -> None:
    if state.phase != "era":
        raise IllegalAction("not-now", "Only an Era under way can end.")
    if state.turn < TURNS:
        raise IllegalAction(
            "not-last-turn",
            f"An Era has {TURNS} turns and this is turn {state.turn}: report each new turn "
            "first (`/historia turn`).",
        )


def record(
    state: State,
    seat: int,
    events: list[Event],
    inverse: str | None,
    reached: dict[Track, int] | None = None,
) -> list[Event]:
    """Keep a report (its first line) for disputes, with what it set that must still
    stand to take it back (a level, the turn) and the reporter's highest levels before
    it (`reached`). The events, their first line numbered as the board and the Dispute
    button name the report: the number is part of the line from the moment it is made.
    Reports are numbered once for the whole game."""
    number = state.reported = state.reported + 1
    text = plain(events[0].text) if events else ""
    after = None
    if inverse is not None and inverse.startswith("level|"):
        after = state.civ(seat).levels[_track_of(inverse)]
    elif inverse == "unturn":
        after = state.turn
    report = Report(
        number=number,
        seat=seat,
        text=text,
        inverse=inverse,
        after=after,
        reached=reached,
        setup=state.phase == "setup",
    )
    state.reports.append(report)
    del state.reports[:-KEPT]
    if not events:
        return events
    first = events[0].model_copy(update={"text": f"`#{number}` {events[0].text}"})
    return [first, *events[1:]]


def _track_of(inverse: str) -> Track:
    return inverse.split("|")[1]  # type: ignore[return-value]


def touched_track(state: State, report: Report) -> Track | None:
    """The level track a report moved, if any (a level report, or a +2 activation)."""
    if report.inverse is not None and report.inverse.startswith("level|"):
        return _track_of(report.inverse)
    power = state.civ(report.seat).token.power
    if report.inverse == "revoke" and power in TRACKS:
        return power  # type: ignore[return-value]
    return None


def restore_reached(state: State, report: Report, track: Track | None) -> None:
    """After a report is taken back: the highest level shown on the track it moved is
    what it was before the report (or what the track shows now, if higher), so a bonus
    reached only by the mistaken report is not called "earned again"."""
    if track is None or report.reached is None:
        return
    civ = state.civ(report.seat)
    civ.reached[track] = max(report.reached[track], level(civ, track))


KEPT = 20  # reports kept in the state: the recent ones, that can still be disputed
DISPUTABLE = 5  # how many of the latest reports can be disputed


def disputable(state: State, seat: int) -> list[Report]:
    """The recent reports `seat` may dispute: another seat's, not settled yet."""
    if state.phase not in ("setup", "era"):
        return []
    recent = state.reports[-DISPUTABLE:]
    return [
        r for r in recent if r.seat != seat and r.status == "" and not state.civ(r.seat).conceded
    ]


def inverse_ok(state: State, report: Report) -> bool:
    """Whether a report can still be taken back as it was made."""
    if report.inverse is None:
        return False
    if report.inverse == "revoke":
        return can_revoke(state, report.seat)
    if report.inverse == "unturn":
        return state.turn > 1 and report.after in (None, state.turn)
    if report.inverse.startswith("level|") and report.after is not None:
        track = _track_of(report.inverse)
        if state.civ(report.seat).levels.get(track) != report.after:
            return False  # a later report set this level again
    try:
        apply_report(state, report.seat, Action.from_key(report.inverse), check=True)
    except IllegalAction:
        return False
    return True


def apply_report(
    state: State, seat: int, action: Action, check: bool = False, quiet: bool = False
) -> tuple[list[Event], str | None]:
    """A report's events and its inverse; with `check`, only whether it is legal;
    `quiet`: no level's bonus announced (a report taken back)."""
    args = action.args
    if action.kind == "territory" and len(args) >= 2:  # a name typed with "|" is refused by name
        return territory(state, seat, args[0], "|".join(args[1:]), check)
    if action.kind == "level" and len(args) == 2:
        return set_level(state, seat, args[0], args[1], check, quiet)
    if action.kind == "cubes" and len(args) == 3:
        return move_cubes(state, seat, args[0], args[1], args[2], check)
    raise IllegalAction("unknown", "That isn't a report Arbiter knows.")
