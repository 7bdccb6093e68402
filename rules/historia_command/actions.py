"""Every action of a Ways of Command table: what each seat may do now, and doing it.

Reports whose words are the table's own (a civilization's or a territory's name, a
level, a number of cubes) are `OPEN_KINDS`: `legal_actions` can't list every name or
number, so it lists the ones that change a known thing (a territory held), and `apply`
checks any other."""

from __future__ import annotations

from itertools import combinations

from rules.core import Action, Event, IllegalAction, fresh_copy
from rules.historia_command import powers, reports
from rules.historia_command.powers import POWER_CUBES_MAX, event, roman
from rules.historia_command.reports import PAIRS, host, pair_key
from rules.historia_command.standings import (
    CATEGORY_NAMES,
    civ_name,
    does,
    eligible_by,
    level,
    names,
    possessive,
    why_not,
)
from rules.historia_command.state import (
    POWERS,
    SOURCES,
    TRACKS,
    Dispute,
    Place,
    Power,
    Proposal,
    Report,
    State,
)

OPEN_KINDS = frozenset({"civ", "territory", "level", "cubes"})
# An activation taken on the player's word that their table has the cubes it takes where
# Arbiter counts too few ("vouch|military|bank"): its own kind, so that typed words
# naming an activation never give that word for the player.
VOUCH = "vouch"
ACTIVATING = ("command", VOUCH)
REPORTS = ("territory", "level", "cubes")


def to_act(state: State) -> set[int]:
    """Whose decision the table waits for: in the set-up, each player still to name a
    civilization, then the host to begin; in a dispute, the one who raised it; once the
    end of an Era is reported, or after the last Era the result, whoever hasn't
    confirmed it. During an Era nobody is waited for: reports come as the table
    plays."""
    if state.phase == "setup":
        unnamed = {c.seat for c in state.in_play() if not c.name}
        return unnamed or {host(state)}
    if state.phase == "dispute" and state.dispute is not None:
        return {state.dispute.by}
    if state.phase in ("ending", "final") and state.proposal is not None:
        agreed = set(state.proposal.agreed)
        return {c.seat for c in state.in_play() if c.seat not in agreed}
    return set()


def _activations() -> tuple[Action, ...]:
    actions = []
    for power in POWERS:
        for source in SOURCES:
            counts = range(POWER_CUBES_MAX, -1, -1) if power == "cubes" else (0,)
            for n in counts:
                args = (power, source) + ((str(n),) if power == "cubes" else ())
                actions += [Action(kind=kind, args=args) for kind in ACTIVATING]
    return tuple(actions)


# Every power with every source (and count of cubes), each as it is taken where Arbiter
# counts the cubes it takes, and on the player's word that their table has them.
ACTIVATIONS = _activations()


def candidates(state: State, seat: int) -> list[Action]:
    """Everything `seat` might try now (each refused by `apply` when it isn't legal)."""
    if not seated(state, seat) or state.civ(seat).conceded or state.phase == "over":
        return []
    civ = state.civ(seat)
    found: list[Action] = []
    if state.phase == "setup":
        for target in state.civs:
            for pair in PAIRS:
                found.append(Action(kind="token", args=(str(target.seat), pair_key(pair))))
        found.append(Action(kind="begin"))
    if state.phase in ("setup", "era"):
        found += [Action(kind="territory", args=("remove", t)) for t in civ.territories]
        recent = state.reports[-reports.DISPUTABLE :]
        found += [Action(kind="dispute", args=(str(r.number),)) for r in recent]
        found += [Action(kind="retract", args=(str(r.number),)) for r in recent]
    if state.phase == "era":
        found += ACTIVATIONS
        found += [Action(kind="turn"), Action(kind="era")]
    if state.phase == "dispute":
        found += [Action(kind="withdraw"), Action(kind="retract")]
    if state.phase == "final":  # who won: one civilization, or several sharing the win
        seats = [str(c.seat) for c in state.in_play()]
        for size in range(1, len(seats) + 1):
            found += [Action(kind="result", args=won) for won in combinations(seats, size)]
    if state.phase in ("ending", "final"):
        found += [Action(kind="agree"), Action(kind="object")]
    return found


def seated(state: State, seat: int) -> bool:
    """Whether `seat` is one of the table's seats."""
    return 0 <= seat < len(state.civs)


def legal_actions(state: State, seat: int) -> list[Action]:
    legal = []
    may_command = powers.may_activate(state, seat)
    for action in candidates(state, seat):
        if action.kind in ACTIVATING:
            # The candidates are well formed: once the token may be activated at all,
            # each is legal taken as Arbiter counts the cubes (on the player's word
            # exactly where it counts too few).
            if may_command and needs_word(state, seat, action) == (action.kind == VOUCH):
                legal.append(action)
            continue
        try:
            check(state, seat, action)
        except IllegalAction:
            continue
        legal.append(action)
    return legal


def check(state: State, seat: int, action: Action) -> None:
    """Raise IllegalAction unless `seat` may take `action` now (changes nothing)."""
    apply_action(state, seat, action, only_check=True)


def timeout_action(state: State, seat: int) -> Action:
    """When a clock runs out: a civilization named after its player, the first Era
    begun, a dispute dropped (the report stands), the result reported agreed to."""
    if state.phase == "setup":
        civ = state.civ(seat)
        if not civ.name:
            return Action(kind="civ", args=(default_name(state, seat),))
        return Action(kind="begin")
    if state.phase == "dispute":
        return Action(kind="withdraw")
    return Action(kind="agree")


def default_name(state: State, seat: int) -> str:
    """A civilization's name when its player gives none: "<player>'s people", with only
    the characters a name holds, free among the others' (and never the Romans)."""
    player = "".join(c for c in state.civ(seat).player if c.isprintable() and c not in "|`*_~<>@#")
    player = " ".join(player.split())[:20] or f"Seat {seat + 1}"
    taken = {c.name.casefold() for c in state.civs if c.seat != seat}
    name, n = f"{player}'s people", 1
    while name.casefold() in taken:
        n += 1
        name = f"{player}'s people {n}"
    return name


# ------------------------------------------------------------------ applying


def _number(text: str, high: int, what: str) -> int:
    return reports.number(text, 0, high, what)


def apply_action(state: State, seat: int, action: Action, only_check: bool = False) -> list[Event]:
    """Take `action` for `seat` (with `only_check`, just check it). The state passed is
    changed in place, so the caller passes a copy."""
    if not seated(state, seat):
        raise IllegalAction("not-seated", "You don't have a seat at this table.")
    civ = state.civ(seat)
    if state.phase == "over":
        raise IllegalAction("over", "This game is over.")
    if civ.conceded:
        raise IllegalAction("conceded", "You have conceded: your civilization is out.")
    kind, args = action.kind, action.args
    if state.phase == "dispute" and kind not in ("withdraw", "retract"):
        raise IllegalAction("paused", paused_text(state))
    if state.phase == "ending" and kind not in ("agree", "object"):
        raise IllegalAction("ending", ending_text(state))
    if kind == "civ" and args:  # a name typed with "|" is refused by the name's rule
        return reports.name_civilization(state, seat, "|".join(args), only_check)
    if kind == "token" and len(args) == 2:
        return reports.set_token(state, seat, args[0], args[1], only_check)
    if kind == "begin" and not args:
        return _begin(state, seat, only_check)
    if kind in REPORTS:
        reached = dict(civ.reached)
        events, inverse = reports.apply_report(state, seat, action, only_check)
        return events if only_check else reports.record(state, seat, events, inverse, reached)
    if kind == "turn" and not args:
        events, inverse = reports.next_turn(state, seat, only_check)
        return events if only_check else reports.record(state, seat, events, inverse)
    if kind == "era" and not args:
        return _report_era_end(state, seat, only_check)
    if kind == "command" and len(args) in (0, 2, 3):
        return _command(state, seat, args, only_check)
    if kind == VOUCH and len(args) in (2, 3):
        return _command(state, seat, args, only_check, word=True)
    if kind == "dispute" and len(args) == 1:
        return _dispute(state, seat, args[0], only_check)
    if kind == "withdraw" and not args:
        return _withdraw(state, seat, only_check)
    if kind == "retract" and not args:
        return _retract(state, seat, only_check)
    if kind == "retract" and len(args) == 1:
        return _retract_own(state, seat, args[0], only_check)
    if kind == "result" and args:
        return _propose(state, seat, args, only_check)
    if kind in ("agree", "object") and not args:
        return _answer(state, seat, kind == "agree", only_check)
    raise IllegalAction("unknown", "That isn't something you can do at this table.")


def _begin(state: State, seat: int, only_check: bool) -> list[Event]:
    if state.phase != "setup":
        raise IllegalAction("not-setup", "The first Era has begun already.")
    unnamed = [c for c in state.in_play() if not c.name]
    if unnamed:
        waiting = ", ".join(c.player for c in unnamed)
        raise IllegalAction(
            "unnamed", f"Every civilization needs a name first (waiting for {waiting})."
        )
    if seat != host(state):
        raise IllegalAction(
            "not-host", f"The host, {state.civ(host(state)).player}, begins the first Era."
        )
    if only_check:
        return []
    state.phase, state.era, state.turn = "era", 1, 1
    tokens = "; ".join(
        f"{civ_name(c)} {reports.pair_name(c.token.symbols)}" for c in state.in_play()
    )
    return [event(f"⏳ **Era I begins**, turn 1. Command tokens: {tokens}.", seat, "era")]


def _report_era_end(state: State, seat: int, only_check: bool) -> list[Event]:
    """The end of the Era reported: it takes effect once every other player agrees (an
    objection keeps the Era going), as it can't be taken back like a report."""
    reports.check_era_end(state)
    if only_check:
        return []
    state.phase = "ending"
    state.proposal = Proposal(by=seat, winners=[], agreed=[seat])
    line = (
        f"⏳ {does(state.civ(seat), 'report')} the end of Era {roman(state.era)}: it takes "
        "effect once every other player agrees (`/historia agree`); an objection keeps the "
        "Era going (`/historia object`)."
    )
    return [event(line, seat, "era"), *_close_if_agreed(state)]


def _era_end(state: State) -> list[Event]:
    """The end of the Era, agreed by the table."""
    state.phase, state.proposal = "era", None
    state.reports = []  # the Era's reports can no longer be disputed
    return powers.end_of_era(state)


def needs_word(state: State, seat: int, action: Action) -> bool:
    """Whether a well-formed activation takes a cube where Arbiter counts none (so that
    the player's word is needed)."""
    args = action.args
    cubes = int(args[2]) if len(args) == 3 else 0
    token_short, missing = powers.shortfall(state.civ(seat), args[1], cubes)  # type: ignore[arg-type]
    return token_short or bool(missing)


def _command(
    state: State, seat: int, args: tuple[str, ...], only_check: bool, word: bool = False
) -> list[Event]:
    if not args:  # the token, no power named: why it can't be activated, never an activation
        powers.check_token(state, seat)
        raise IllegalAction(
            "no-power", "Your token can be activated now: pick a power in `/historia command`."
        )
    power, source = args[0], args[1]
    if power not in POWERS:
        raise IllegalAction(
            "bad-power", "The token's powers are cubes, shared, technology, military."
        )
    if (power == "cubes") != (len(args) == 3):
        raise IllegalAction("bad-power", "Only the cubes power says how many cubes it takes.")
    cubes = _number(args[2], POWER_CUBES_MAX, "The cubes taken") if len(args) == 3 else 0
    if source not in SOURCES:
        raise IllegalAction(
            "bad-source", "The token's cube comes from the Bank, the Used Pool or your reserve."
        )
    chosen: Power = power  # type: ignore[assignment]
    where: Place = source  # type: ignore[assignment]
    powers.check_activation(state, seat, chosen, where, cubes, word)
    if only_check:
        return []
    reached = dict(state.civ(seat).reached)
    events = powers.activate(state, seat, chosen, where, cubes, word)
    return reports.record(state, seat, events, "revoke", reached)


def ending_text(state: State) -> str:
    """Why nothing but an answer is taken while the end of an Era awaits the table."""
    proposal = state.proposal
    assert proposal is not None
    waiting = [c.player for c in state.in_play() if c.seat not in proposal.agreed]
    return (
        f"The end of Era {roman(state.era)} waits for {', '.join(waiting)} to agree or "
        "object (`/historia agree`, `/historia object`)."
    )


def paused_text(state: State) -> str:
    dispute = state.dispute
    assert dispute is not None
    report = state.report(dispute.report)
    reporter = state.civ(report.seat).player if report else "the reporter"
    by = state.civ(dispute.by).player
    return (
        f"Paused by {by}'s dispute of #{dispute.report}: {reporter} takes it back "
        f"(`/historia retract`) or {by} withdraws it (`/historia withdraw`)."
    )


def _dispute(state: State, seat: int, which: str, only_check: bool) -> list[Event]:
    if state.phase not in ("setup", "era"):
        raise IllegalAction("not-now", "Reports are disputed during the set-up and the Eras.")
    number = _number(which, 10**6, "A report number")
    report = state.report(number)
    if report is None:
        raise IllegalAction("no-report", f"There is no recent report #{number} to dispute.")
    if report.seat == seat:
        raise IllegalAction(
            "own",
            f"Report #{number} is yours: if it is wrong, take it back with "
            f"`/historia retract report:{number}`.",
        )
    if report not in reports.disputable(state, seat):
        settled = {"stands": "it was settled: it stands", "retracted": "it was taken back"}
        why = settled.get(report.status, "only the latest few reports can be")
        raise IllegalAction("not-disputable", f"Report #{number} can't be disputed: {why}.")
    if only_check:
        return []
    report.status = "disputed"
    state.dispute = Dispute(report=number, by=seat, resume=state.phase)
    state.phase = "dispute"
    reporter = state.civ(report.seat).player
    return [
        event(
            f"⚠️ {state.civ(seat).player} disputes report #{number} — {report.text} The match "
            f"is paused until the table settles it: {reporter} can take it back, or "
            f"{state.civ(seat).player} withdraws the dispute.",
            seat,
            "dispute",
        )
    ]


def _withdraw(state: State, seat: int, only_check: bool) -> list[Event]:
    dispute = state.dispute
    if state.phase != "dispute" or dispute is None:
        raise IllegalAction("no-dispute", "No dispute is open.")
    if seat != dispute.by:
        raise IllegalAction(
            "not-yours",
            f"Only {state.civ(dispute.by).player}, who raised the dispute, withdraws it.",
        )
    if only_check:
        return []
    _settle(state, "stands")
    return [event(f"✅ Report #{dispute.report} stands; the match goes on.", seat, "dispute")]


CANNOT_RETRACT = (
    "Report #{n} can't be taken back: a later report changed the same thing. Report the correction."
)


def _retract(state: State, seat: int, only_check: bool) -> list[Event]:
    """The reporter of the disputed report takes it back."""
    dispute = state.dispute
    if state.phase != "dispute" or dispute is None:
        raise IllegalAction("no-dispute", "No dispute is open.")
    report = state.report(dispute.report)
    assert report is not None
    if seat != report.seat:
        raise IllegalAction(
            "not-yours",
            f"Only {state.civ(report.seat).player}, who made the report, takes it back.",
        )
    # The report is undone as in the phase it was made in (checked on a copy, so that
    # checking changes nothing).
    probe = fresh_copy(state)
    probe.phase = dispute.resume
    if not reports.inverse_ok(probe, report):
        raise IllegalAction("cannot-retract", CANNOT_RETRACT.format(n=report.number))
    if only_check:
        return []
    state.phase = dispute.resume
    events = _take_back(state, report)
    state.phase = "dispute"
    _settle(state, "retracted")
    return events


def _retract_own(state: State, seat: int, which: str, only_check: bool) -> list[Event]:
    """A reporter takes back one of their own recent reports, no dispute needed."""
    if state.phase == "dispute":
        raise IllegalAction("paused", paused_text(state))
    if state.phase not in ("setup", "era"):
        raise IllegalAction("not-now", "Reports are taken back during the set-up and the Eras.")
    number = _number(which, 10**6, "A report number")
    report = state.report(number)
    if report is None or report not in state.reports[-reports.DISPUTABLE :]:
        raise IllegalAction("no-report", f"There is no recent report #{number} to take back.")
    if report.seat != seat:
        raise IllegalAction(
            "not-yours",
            f"Report #{number} is {state.civ(report.seat).player}'s: dispute it if it is wrong.",
        )
    if report.status:
        settled = "it was settled: it stands" if report.status == "stands" else "taken back already"
        raise IllegalAction("settled", f"Report #{number} can't be taken back: {settled}.")
    if not reports.inverse_ok(state, report):
        raise IllegalAction("cannot-retract", CANNOT_RETRACT.format(n=number))
    if only_check:
        return []
    return _take_back(state, report)


def retractable(state: State, seat: int) -> list[int]:
    """The numbers of the recent reports `seat` may take back now, no dispute needed."""
    found = []
    for report in state.reports[-reports.DISPUTABLE :]:
        try:
            check(state, seat, Action(kind="retract", args=(str(report.number),)))
        except IllegalAction:
            continue
        found.append(report.number)
    return found


def _take_back(state: State, report: Report) -> list[Event]:
    """Undo `report` as it was made (checked already), marked taken back, with the lines
    the table reads; then every activation it may have allowed is checked again."""
    seat = report.seat
    civ = state.civ(seat)
    before = {t: level(civ, t) for t in TRACKS}
    events = _undo(state, report)
    events += powers.undone_lines(civ, before, announced=not report.setup)
    report.status = "retracted"
    head = event(f"↩️ {civ.player} takes report #{report.number} back.", seat)
    inverse = report.inverse or ""
    if inverse == "revoke" or inverse.startswith(("territory|", "level|")):
        events += _recheck(state, report.number)  # it moved the standings
    return [head, *events]


def _undo(state: State, report: Report) -> list[Event]:
    """What `report` changed, changed back (its highest levels restored too)."""
    inverse = report.inverse or ""
    track = reports.touched_track(state, report)
    if inverse == "revoke":
        events = powers.revoke(state, report.seat)
    elif inverse == "unturn":
        events = reports.unturn(state)
    else:
        events, _ = reports.apply_report(state, report.seat, Action.from_key(inverse), quiet=True)
    reports.restore_reached(state, report, track)
    return events


def _as_made(state: State, made: Report) -> State:
    """A copy of the match as it stood when report `made` was made, the reports taken
    back left out: each report in force made after it undone on the copy, latest first
    (one that can't be undone there stays)."""
    probe = fresh_copy(state)
    for later in reversed(probe.reports):
        if later.number <= made.number:
            break
        if later.status == "retracted" or not later.inverse:
            continue
        try:
            _undo(probe, later)
        except IllegalAction:
            continue
    return probe


def _recheck(state: State, number: int) -> list[Event]:
    """After report #`number` is taken back, each activation reported after it and still
    in force is checked again as it was made, without that report (the reports made
    since set aside), its own power set aside: one its civilization could not have made
    then is taken back too (its cube back where it came from), one it could stands; a
    line says which."""
    events: list[Event] = []
    for later in state.reports:
        civ = state.civ(later.seat)
        if later.number <= number or later.inverse != "revoke" or later.status == "retracted":
            continue
        if civ.token.status != "active":
            continue
        probe = _as_made(state, later)
        probe.civ(civ.seat).token.status = "available"
        by = eligible_by(probe, civ.seat)
        head = (
            f"{possessive(civ)} activation (#{later.number}) is checked again without report "
            f"#{number}: "
        )
        if by is not None:
            events.append(event(f"{head}it stands (first in {CATEGORY_NAMES[by]}).", civ.seat))
            continue
        events.append(event(f"{head}it is taken back ({why_not(probe, civ.seat)}).", civ.seat))
        before = {t: level(civ, t) for t in TRACKS}
        events += _undo(state, later)
        events += powers.undone_lines(civ, before, announced=True)
        later.status = "retracted"
    return events


def _settle(state: State, status: str) -> None:
    dispute = state.dispute
    assert dispute is not None
    report = state.report(dispute.report)
    if report is not None:
        report.status = status  # type: ignore[assignment]
    state.phase, state.dispute = dispute.resume, None


def _propose(state: State, seat: int, whom: tuple[str, ...], only_check: bool) -> list[Event]:
    """Who won, as the table scored it: one seat, or several sharing the win."""
    if state.phase != "final":
        raise IllegalAction("not-final", "The result is reported once the last Era has ended.")
    if state.proposal is not None:
        by = state.civ(state.proposal.by).player
        raise IllegalAction("proposed", f"{by} has reported a result already: agree or object.")
    winners = [_number(w, len(state.civs) - 1, "A seat") for w in whom]
    if winners != sorted(set(winners)):
        raise IllegalAction("bad-winners", "Name each winner once, in seat order.")
    for winner in winners:
        if state.civ(winner).conceded:
            raise IllegalAction("conceded", f"{state.civ(winner).player} has conceded.")
    if only_check:
        return []
    state.proposal = Proposal(by=seat, winners=winners, agreed=[seat])
    civs = [state.civ(w) for w in winners]
    players = ", ".join(c.player for c in civs)
    won = "won" if len(civs) == 1 else "share the win"
    line = (
        f"🏆 {state.civ(seat).player} reports that {names(civs)} ({players}) {won}. Each "
        "other player agrees or objects."
    )
    return [event(line, seat, "result"), *_close_if_agreed(state)]


def _answer(state: State, seat: int, agree: bool, only_check: bool) -> list[Event]:
    """An answer to what the table must confirm: the end of the Era, or the result."""
    proposal = state.proposal
    if state.phase not in ("ending", "final") or proposal is None:
        raise IllegalAction("no-result", "No result has been reported yet.")
    ending = state.phase == "ending"
    if seat in proposal.agreed:
        what = "the end of the Era" if ending else "this result"
        raise IllegalAction("agreed", f"You have agreed to {what} already.")
    if only_check:
        return []
    player = state.civ(seat).player
    if not agree:
        state.proposal = None
        if ending:
            state.phase = "era"
            return [event(f"✋ {player} objects: Era {roman(state.era)} goes on.", seat, "era")]
        return [event(f"✋ {player} objects: the result is reported again.", seat, "result")]
    proposal.agreed.append(seat)
    return [event(f"👍 {player} agrees.", seat, "result"), *_close_if_agreed(state)]


def _close_if_agreed(state: State) -> list[Event]:
    proposal = state.proposal
    assert proposal is not None
    if any(c.seat not in proposal.agreed for c in state.in_play()):
        return []
    if state.phase == "ending":
        return _era_end(state)
    state.winners = list(proposal.winners)
    state.phase = "over"
    winners = names([state.civ(s) for s in state.winners])
    players = ", ".join(state.civ(s).player for s in state.winners)
    state.end_text = f"The table agrees: {winners} won ({players})."
    return [event(f"🏁 {state.end_text}", None, "end")]


def concede(state: State, seat: int) -> list[Event]:
    """`seat` leaves the table: its civilization no longer counts in the standings; a
    dispute it is part of ends (the report stands); the last player left wins. An
    active token leaves the game with them (and the winner's, as the match ends), its
    cube back where it came from, so the civilization's cubes stay whole. Conceding
    again, or after the end, changes nothing."""
    if not seated(state, seat) or state.phase == "over" or state.civ(seat).conceded:
        return []
    civ = state.civ(seat)
    civ.conceded = True
    powers.lapse(civ)
    events = [event(f"🏳️ {civ.player} concedes: {does(civ, 'leave')} the table.", seat, "concede")]
    dispute = state.dispute
    if dispute is not None:
        report = state.report(dispute.report)
        if seat == dispute.by or (report is not None and report.seat == seat):
            _settle(state, "stands")
            events.append(event(f"The dispute of report #{dispute.report} ends with it."))
    if state.proposal is not None:
        if seat in state.proposal.winners:
            state.proposal = None
        else:
            events += _close_if_agreed(state)
    left = state.in_play()
    if len(left) == 1 and state.phase != "over":
        powers.lapse(left[0])  # the match is over: no power stays in force
        state.winners, state.phase = [left[0].seat], "over"
        state.end_text = f"Everyone else conceded: {left[0].player} wins."
        events.append(event(f"🏁 {state.end_text}", None, "end"))
    return events
