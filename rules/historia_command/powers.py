"""The Command token: activating it, its four powers, and the end of the Era that takes
them back."""

from __future__ import annotations

from rules.core import Event, IllegalAction
from rules.core.text import plural
from rules.historia_command.standings import (
    CATEGORY_NAMES,
    civ_name,
    does,
    eligible_by,
    level,
    names,
    possessive,
    standings,
    their,
    why_not,
)
from rules.historia_command.state import (
    ERAS,
    SOURCES,
    TRACKS,
    Civilization,
    EraRecord,
    Place,
    Power,
    State,
    Track,
)

POWER_CUBES_MAX = 2  # the cubes power takes up to 2 from the general supply
# The general supply the cubes power takes from and returns to: where a civilization's
# cubes wait beside the board, its reserve (a place the module names apart from the
# Bank; see README).
GENERAL: Place = "reserve"
# Where cubes counted in the wrong place are found, in turn, when the player says their
# table has a cube in a place Arbiter counts none in; and where the cubes power's cubes
# come back from.
COUNTED: tuple[Place, ...] = ("supply", "used", "bank", "reserve", "map")
POWER_NAMES: dict[Power, str] = {
    "cubes": "Cubes from the general supply",
    "shared": "Score shared territories",
    "technology": "+2 Technology",
    "military": "+2 Military",
}
# What each power does (the cubes power's, which says how many, is `labels.power_text`).
POWER_TEXTS: dict[Power, str] = {
    "shared": "score the territories you share in this Era's Territory Bonus steps; the "
    "others can't count them for the Leader bonus or cube recovery (two civilizations "
    "with this power on one territory cancel out)",
    "technology": "+2 Technology levels until the end of the Era",
    "military": "+2 Military levels until the end of the Era",
}
PLACE_NAMES: dict[Place, str] = {
    "supply": "personal supply",
    "bank": "Bank",
    "used": "Used Pool",
    "reserve": "reserve",
    "map": "map",
}
SHARED_PLACES = ("bank", "used", "map")  # places on the table, not a player's own
# The refusal of an activation taking a cube from where Arbiter counts none, without the
# player's word: the bot answers it with the places to choose from.
NO_CUBE = "no-cube"


def place_phrase(place: Place, owner: str = "their") -> str:
    """A place in a sentence: "their personal supply", "the Bank"."""
    return f"{'the' if place in SHARED_PLACES else owner} {PLACE_NAMES[place]}"


def plain(line: str) -> str:
    """A public line without its leading emoji and bold marks, for a label."""
    words = line.replace("**", "").split(" ", 1)
    return words[1] if len(words) == 2 and not words[0].isalnum() else line.replace("**", "")


def event(text: str, seat: int | None = None, kind: str = "report") -> Event:
    return Event(kind=kind, text=text, seat=seat)


# ------------------------------------------------------------------ levels


def _levels(levels: list[int]) -> str:
    """ "level 3", "levels 4 and 5", "levels 1, 2 and 3"."""
    shown = [str(n) for n in levels]
    if len(shown) == 1:
        return f"level {shown[0]}"
    return f"levels {', '.join(shown[:-1])} and {shown[-1]}"


def level_lines(civ: Civilization, track: Track, before: int, quiet: bool = False) -> list[Event]:
    """What the table should hear when a track's level moves from `before` to what it
    shows now: each level reached earns its printed bonus (again, if it was reached
    before); a level lost keeps the bonuses it gave. `quiet` (the set-up's starting
    levels) only remembers the level reached."""
    after = level(civ, track)
    if quiet:
        civ.reached[track] = max(civ.reached[track], after)
        return []
    shown = CATEGORY_NAMES[track]
    if after > before:
        gained = list(range(before + 1, after + 1))
        again = [n for n in gained if n <= civ.reached[track]]
        civ.reached[track] = max(civ.reached[track], after)
        line = (
            f"🎖️ {does(civ, 'reach')} {shown} {after}: take the bonus printed at "
            f"{_levels(gained)}, if there is one"
        )
        if again:
            line += f" ({_levels(again)} reached before: its bonus is earned again)"
        return [event(line + ".", civ.seat, "bonus")]
    if after < before:
        lost = list(range(after + 1, before + 1))
        return [
            event(
                f"{does(civ, 'fall')} to {shown} {after}: the bonuses of {_levels(lost)} stay "
                "earned, and are earned again when the level is reached again.",
                civ.seat,
                "bonus",
            )
        ]
    return []


def undone_lines(civ: Civilization, before: dict[Track, int], announced: bool) -> list[Event]:
    """What the table should hear of the levels when a report is taken back (`before`:
    each track's level until then): a level it reached was not reached, so the bonus
    it announced was not earned (`announced`: it announced one, unlike the set-up's
    starting levels); a fall it reported did not happen, so nothing is earned again."""
    events = []
    for track in TRACKS:
        after = level(civ, track)
        if announced and after < before[track]:
            lost = list(range(after + 1, before[track] + 1))
            events.append(
                event(
                    f"{possessive(civ)} {CATEGORY_NAMES[track]} is back to {after}: the bonus "
                    f"printed at {_levels(lost)} was not earned (if it was taken, it goes back).",
                    civ.seat,
                    "bonus",
                )
            )
    return events


# ------------------------------------------------------------------ activation


def may_activate(state: State, seat: int) -> bool:
    """Whether `seat`'s token may be activated now with some power and cube (the
    quick test `legal_actions` runs before checking each activation)."""
    if not 0 <= seat < len(state.civs):
        return False
    civ = state.civ(seat)
    return (
        state.phase == "era"
        and not civ.conceded
        and civ.token.status == "available"
        and eligible_by(state, seat) is not None
    )


def check_activation(
    state: State, seat: int, power: Power, source: Place, cubes: int, word: bool = False
) -> None:
    """Raise IllegalAction unless `seat` may activate its token now with this power,
    its cube from `source`, taking `cubes` from the general supply (the cubes power);
    `word`: the player says their table has there what Arbiter doesn't count."""
    check_token(state, seat)
    check_payment(state.civ(seat), power, source, cubes, word)


def check_token(state: State, seat: int) -> None:
    """Raise IllegalAction unless `seat`'s token may be activated now (with some power
    and cube: the rest of `check_activation` checks those)."""
    token = state.civ(seat).token
    if state.phase != "era":
        raise IllegalAction("not-now", "A Command token is activated during an Era.")
    if token.status == "active" and token.power is not None:
        raise IllegalAction(
            "token-used", f"Your token is already active this Era ({POWER_NAMES[token.power]})."
        )
    if token.status == "removed":
        raise IllegalAction(
            "token-removed", "Your token was used in an earlier Era and is out of the game."
        )
    if eligible_by(state, seat) is None:
        raise IllegalAction("not-eligible", f"Your token is blocked: {why_not(state, seat)}.")


def check_payment(civ: Civilization, power: Power, source: Place, cubes: int, word: bool) -> None:
    """Raise IllegalAction unless the token's cube comes from one of its places, and the
    cubes power takes 0 to 2 cubes (the rest of `check_activation`); and unless Arbiter
    counts every cube the activation takes where it takes it, or else the player says
    their table has them (`word`), never both: a cube is never taken from where
    Arbiter counts none without the player's word."""
    if source not in SOURCES:
        raise IllegalAction(
            "bad-source", "The token's cube comes from the Bank, the Used Pool or your reserve."
        )
    if power == "cubes":
        if not 0 <= cubes <= POWER_CUBES_MAX:
            raise IllegalAction(
                "cubes", f"You may take up to {POWER_CUBES_MAX} cubes from the general supply."
            )
    elif cubes:
        raise IllegalAction("cubes", "Only the cubes power takes cubes from the supply.")
    token_short, missing = shortfall(civ, source, cubes)
    if word and not (token_short or missing):
        what = f"a cube of yours in {place_phrase(source, 'your')}"
        what += " and the cubes you take" if cubes else ""
        them = "them" if cubes else "one"
        raise IllegalAction(
            "counted",
            f"Arbiter counts {what} already: activate without saying your table has {them}.",
        )
    if word:
        return
    if token_short:
        others = ", ".join(f"{PLACE_NAMES[p]} {civ.cubes[p]}" for p in SOURCES if p != source)
        raise IllegalAction(
            NO_CUBE,
            f"Arbiter counts no cube of yours in {place_phrase(source, 'your')} ({others}): "
            "take the token's cube from another place, or say your table has one there.",
        )
    if missing:
        have = available(civ, source)
        raise IllegalAction(
            NO_CUBE,
            f"Arbiter counts {counted(have)} of yours in the general supply (your reserve) "
            f"for the {cubes} you take: take fewer, or say your table has them there.",
        )


def available(civ: Civilization, source: Place) -> int:
    """The cubes Arbiter counts in the general supply for the cubes power, once the
    token's cube is taken from `source`."""
    held = civ.cubes[GENERAL]
    return held - 1 if source == GENERAL and held else held


def shortfall(civ: Civilization, source: Place, cubes: int) -> tuple[bool, int]:
    """What an activation takes that Arbiter doesn't count: whether it counts no cube in
    `source` for the token, and how many of the `cubes` the cubes power takes it counts
    no cube for in the general supply."""
    return civ.cubes[source] == 0, max(0, cubes - available(civ, source))


def counted(n: int) -> str:
    """ "no cube", "1 cube", "2 cubes"."""
    return plural(n, "cube") if n else "no cube"


def recount(civ: Civilization, place: Place) -> Place:
    """Count in `place` one of the civilization's cubes counted elsewhere (the personal
    supply first), its player saying their table has it there: a cube moved that the
    table didn't report. The place it was counted in."""
    other = next(p for p in COUNTED if p != place and civ.cubes[p])
    civ.cubes[other] -= 1
    civ.cubes[place] += 1
    return other


def activate(
    state: State, seat: int, power: Power, source: Place, cubes: int, word: bool = False
) -> list[Event]:
    """Turn the token face down with a cube from `source` on it, and apply the power.
    With the player's `word`, what Arbiter doesn't count is where their table has it,
    and the line says what was corrected."""
    civ = state.civ(seat)
    by = eligible_by(state, seat)
    assert by is not None
    before = {t: level(civ, t) for t in TRACKS}
    token_short, missing = shortfall(civ, source, cubes)
    assert word == bool(token_short or missing), "checked by check_payment"
    fixed = []
    was: Place | None = None
    if token_short:
        was = recount(civ, source)
        fixed.append(
            f"Arbiter counted none of {possessive(civ)} cubes in "
            f"{place_phrase(source, their(civ))}: on {their(civ)} word, one counted in "
            f"{place_phrase(was, their(civ))} is there"
        )
    civ.cubes[source] -= 1
    token = civ.token
    token.status, token.power, token.cube_from, token.era = "active", power, source, state.era
    token.recounted = was if token_short else None
    token.cubes_added = missing
    name = civ_name(civ)
    why = f"first in {CATEGORY_NAMES[by]}"
    text = (
        f"🪖 {does(civ, 'activate')} {their(civ)} Command token ({why}), a cube from "
        f"{place_phrase(source, their(civ))} on it: **{POWER_NAMES[power]}**"
    )
    if power == "cubes":
        text += take_from_general_supply(civ, cubes)
        if missing:
            fixed.append(
                f"On {their(civ)} word, the general supply had {missing} of {possessive(civ)} "
                f"cubes that Arbiter didn't count (added to {their(civ)} count)"
            )
    elif power == "shared":
        shared = shared_of(state, seat)
        text += f" ({', '.join(shared)} shared now)" if shared else " (no territory shared yet)"
    if fixed:  # the player's word of where the cubes are, said in the open
        text += ". " + ". ".join(fixed)
    events = [event(text + ".", seat, "command")]
    _record(state).activations.append(f"{name}: {POWER_NAMES[power]}")
    for track in TRACKS:
        events += level_lines(civ, track, before[track])
    return events


def take_from_general_supply(civ: Civilization, cubes: int) -> str:
    """The cubes power: `cubes` from the general supply into the personal supply. Those
    beyond what Arbiter counts there are the general supply's cubes of the
    civilization's colour that Arbiter never counted, taken on the player's word
    (checked by `check_payment`): the personal supply never pays for them. The words for
    the activation's line."""
    civ.token.cubes_taken = cubes
    counted_there = min(cubes, civ.cubes[GENERAL])
    civ.cubes[GENERAL] -= counted_there
    civ.added_cubes += cubes - counted_there
    civ.cubes["supply"] += cubes
    return (
        f": {plural(cubes, 'cube')} from the general supply into {their(civ)} personal "
        f"supply (now {civ.cubes['supply']})"
    )


def revoke(state: State, seat: int) -> list[Event]:
    """Take an activation back (its report retracted): the token face up again, its cube
    back where it came from, what the power gave returned (the levels' lines are the
    caller's: see `undone_lines`), and what the player's word corrected as it was made
    back as Arbiter counted it before, said in the line: a word taken back with its
    report leaves no cube behind."""
    civ = state.civ(seat)
    token = civ.token
    power = token.power
    assert power is not None and token.cube_from is not None
    civ.cubes[token.cube_from] += 1
    undone = []
    if token.recounted is not None:
        civ.cubes[token.cube_from] -= 1
        civ.cubes[token.recounted] += 1
        undone.append(
            f"the cube counted in {place_phrase(token.cube_from, their(civ))} on "
            f"{their(civ)} word is counted in {place_phrase(token.recounted, their(civ))} again"
        )
    if power == "cubes":  # spent since (an activation checked again): from elsewhere too
        _take_back(civ, token.cubes_taken)
    if token.cubes_added:
        _take_off(civ, token.cubes_added)
        undone.append(
            f"the {plural(token.cubes_added, 'cube')} {their(civ)} word added "
            f"{'are' if token.cubes_added > 1 else 'is'} off {their(civ)} count"
        )
    record = _record(state)
    entry = f"{civ_name(civ)}: {POWER_NAMES[power]}"
    if entry in record.activations:
        record.activations.remove(entry)
    token.status, token.power, token.cube_from, token.cubes_taken = "available", None, None, 0
    token.recounted, token.cubes_added = None, 0
    line = f"{possessive(civ)} Command token is face up again"
    line += f"; {'; '.join(undone)}." if undone else "."
    return [event(line, seat, "command")]


def _take_off(civ: Civilization, count: int) -> None:
    """Take `count` cubes the player's word added off the civilization's count: from the
    general supply, where they went back, first."""
    left = count
    for place in (GENERAL, *COUNTED):
        take = min(left, civ.cubes[place])
        civ.cubes[place] -= take
        civ.added_cubes -= take
        left -= take


def can_revoke(state: State, seat: int) -> bool:
    token = state.civ(seat).token
    if token.status != "active" or token.era != state.era:
        return False
    return token.power != "cubes" or state.civ(seat).cubes["supply"] >= token.cubes_taken


def lapse(civ: Civilization) -> None:
    """An active token leaves the game outside the end of an Era (its player concedes,
    or the match ends): its cube goes back where it came from."""
    token = civ.token
    if token.status != "active":
        return
    token.status = "removed"
    if token.cube_from is not None:
        civ.cubes[token.cube_from] += 1


def _record(state: State) -> EraRecord:
    if not state.history or state.history[-1].era != state.era:
        state.history.append(EraRecord(era=state.era))
    return state.history[-1]


# ------------------------------------------------------------------ shared territories


def holders(state: State) -> dict[str, list[int]]:
    """Each territory held by a civilization in play, with the seats that hold it."""
    held: dict[str, list[int]] = {}
    for civ in state.in_play():
        for territory in civ.territories:
            held.setdefault(territory, []).append(civ.seat)
    return held


def shared_of(state: State, seat: int, held: dict[str, list[int]] | None = None) -> list[str]:
    """The territories `seat` shares with another civilization (`held`: the holders,
    when the caller has them already)."""
    held = holders(state) if held is None else held
    return [t for t, seats in held.items() if seat in seats and len(seats) > 1]


def claims(state: State) -> dict[str, list[int]]:
    """Each shared territory some civilization's "score shared territories" power
    reaches, with those civilizations: one of them scores it; two or more cancel out."""
    active = {
        c.seat for c in state.in_play() if c.token.status == "active" and c.token.power == "shared"
    }
    out = {}
    for territory, seats in holders(state).items():
        claiming = [s for s in seats if s in active]
        if len(seats) > 1 and claiming:
            out[territory] = claiming
    return out


# ------------------------------------------------------------------ the end of the Era


def _take_back(civ: Civilization, count: int) -> int:
    """Return `count` cubes to the general supply: from the personal supply first, then
    the Used Pool, the Bank and the map, as far as the civilization has them. How many
    went."""
    moved = 0
    for place in COUNTED:
        take = 0 if place == GENERAL else min(count - moved, civ.cubes[place])
        civ.cubes[place] -= take
        moved += take
    civ.cubes[GENERAL] += moved
    return moved


def standings_line(state: State) -> str:
    """Each category's leader and last, in a line."""
    parts = []
    for category, row in standings(state).items():
        first = names([state.civ(s) for s in row.first])
        tie = " (tied)" if len(row.first) > 1 else ""
        parts.append(f"{CATEGORY_NAMES[category]}: {first}{tie} {row.values[row.first[0]]}")
    return " · ".join(parts)


def end_of_era(state: State) -> list[Event]:
    """The Era ends, in the rulebook's order: the cubes of the cubes power go back to
    the general supply (before the Turn End procedure); the +2 levels lapse; every
    activated token leaves the game, its cube back where it came from. Then the
    summary, and the next Era (or, after the last, the result)."""
    era = state.era
    before = standings_line(state)
    events: list[Event] = [event(f"⏳ **End of Era {roman(era)}.**", None, "era")]
    active = [c for c in state.in_play() if c.token.status == "active"]
    for civ in active:
        if civ.token.power == "cubes" and civ.token.cubes_taken:
            moved = _take_back(civ, civ.token.cubes_taken)
            events.append(
                event(
                    f"{does(civ, 'return')} {plural(moved, 'cube')} to the general supply "
                    f"({their(civ)} Command power ends).",
                    civ.seat,
                    "era",
                )
            )
    for civ in active:
        if civ.token.power in TRACKS:
            track: Track = civ.token.power  # type: ignore[assignment]
            was = level(civ, track)
            civ.token.status = "removed"  # the +2 lapses with the token
            events += level_lines(civ, track, was)
    for civ in active:
        token = civ.token
        token.status = "removed"
        if token.cube_from is not None:
            civ.cubes[token.cube_from] += 1
        events.append(
            event(
                f"{possessive(civ)} Command token leaves the game; its cube goes back to "
                f"{place_phrase(token.cube_from or 'bank')}.",
                civ.seat,
                "era",
            )
        )
    for civ in state.civs:  # a conceded civilization's token lapses too
        if civ.token.status == "active":
            civ.token.status = "removed"
    record = _record(state)
    used = "; ".join(record.activations) if record.activations else "no token was activated"
    after = standings_line(state)
    events.append(
        event(
            f"Era {roman(era)} summary — Command: {used}. Standings before the end: {before}. "
            f"After: {after}.",
            None,
            "era",
        )
    )
    if era >= ERAS:
        state.phase = "final"
        events.append(
            event(
                "That was the last Era: once the table has scored the game, report who won "
                "(`/historia result`), and the others confirm.",
                None,
                "era",
            )
        )
    else:
        state.era, state.turn = era + 1, 1
        events.append(
            event(
                f"Play the Turn End procedure at the table. Era {roman(era + 1)} begins, turn 1.",
                None,
                "era",
            )
        )
    return events


def roman(number: int) -> str:
    return {1: "I", 2: "II", 3: "III"}.get(number, str(number))
