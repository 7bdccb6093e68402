"""The board and private view of Historia: The Ways of Command.

The board: where the table is (the headline: the Era and the turn, or what it waits
for), a banner when a dispute pauses the match, the result reported after the last
Era; then the standings of each category, Territory, Military and Technology, from
first to last, with ties shown as ties (a tie for first blocks a token, a tie for last
doesn't); one field per civilization: its Command token (its two categories, whether it
can be activated now and why not, or the power it gave), its territories (shared ones
marked ⇄), its levels (what the track shows, and Command's +2 on top), its cubes by
place; the powers in force; the shared territories and who scores them (two claims on
one territory cancel out); the recent reports, numbered as the Dispute button and
`/historia dispute` name them, with their status; and the Eras already played.

The private view adds, for the player: their own civilization, what their token allows
now, and the commands that report what the table plays.

Views are read defensively (a missing key shows as a dash). Six civilizations with long
names and many territories fit in one embed: past a budget, the territories are
counted (shared ones still named) instead of listed.
"""

from __future__ import annotations

from typing import Any

from bot.render.generic import FIELD_LIMIT, Field, Renderer, chunked_fields, clip
from bot.service.tables import Choice, words_fit
from rules.core.text import plural
from rules.historia_command.actions import VOUCH

NAME_LIMIT = 256
SUGGESTIONS = 25  # an autocomplete offers at most this many
CATEGORIES = ("territory", "military", "technology")
CATEGORY_NAMES = {"territory": "Territory", "military": "Military", "technology": "Technology"}
TRACKS = ("military", "technology")
TRACK_ICONS = {"military": "⚔️", "technology": "🔬"}
PLACES = ("supply", "bank", "used", "reserve", "map")
PLACE_NAMES = {
    "supply": "personal supply",
    "bank": "Bank",
    "used": "Used Pool",
    "reserve": "reserve",
    "map": "map",
}
ON_TOKEN = "Command token"  # where an activated token's cube sits
SOURCE_PHRASES = {"bank": "the Bank", "used": "the Used Pool", "reserve": "your reserve"}
ACTIVATING = ("command", VOUCH)  # an activation's kinds: as Arbiter counts, on one's word
WHERE_FROM = "🧊 **Where do the cubes come from?**"
FIRST, LAST, SHARED = "🥇", "🔻", "⇄"
READY, BLOCKED, ACTIVE, USED = "✅", "🔒", "⚡", "▪️"
STATUS_MARKS = {"disputed": "⚠️ disputed", "stands": "✅ stands", "retracted": "↩️ taken back"}
ROMANS = ("I", "II", "III", "IV", "V")
# The board's own fields stay within this, so that the embed (6000 characters at most)
# keeps room for its title, headline, footer, the last lines and the clock.
BOARD_BUDGET = 4200
COMPACT_SHARED = 3  # shared territories named in a civilization's field past the budget
SHORT_SHARED = 6  # territories the shared field lists at most when even that is too long
SHORT_TOKEN = 220  # a token's line at most, then
REPORTS_TITLE = "Recent reports (Dispute one that is wrong)"
LEGEND = (
    f"{FIRST} first · {LAST} last (a tie for first blocks a token, a tie for last doesn't) · "
    f"{SHARED} shared territory · {READY} token can be activated now · {BLOCKED} not now · "
    f"{ACTIVE} power in force · #5 a report's number"
)

REPORTING = (
    "`/historia territory add` · `territory remove` — a territory gained or lost (shared ones too)",
    "`/historia level` — a Military or Technology level as its track shows it (Command's +2 "
    "is added for you)",
    "`/historia cubes` — cubes moved between your personal supply, the Bank, the Used Pool, "
    "your reserve and the map",
    "`/historia turn` — the table starts its next turn · `/historia era-end` — after turn 4 "
    "(the others confirm it)",
    "`/historia command` — activate your token, when it can be",
    "**Dispute** (under the latest report) or `/historia dispute` — another player's report "
    "is wrong: the match pauses until it is settled",
    "`/historia retract report:` — take back a recent report of yours that was wrong",
)
SETTING_UP = (
    "`/historia civilization` — name the civilization you play",
    "`/historia token` — the two categories your token shows (the host may set anyone's)",
    "`/historia level` — your starting levels, if they aren't 0",
    "`/historia begin` — the host begins Era I once every civilization is named",
)


def roman(number: Any) -> str:
    return ROMANS[number - 1] if isinstance(number, int) and 0 < number <= len(ROMANS) else "?"


ERA_PHASES = ("era", "dispute", "ending")


def civ_label(civ: dict[str, Any]) -> str:
    """A civilization's name, or its player's while it has none."""
    if civ.get("named") is False or not civ.get("name"):
        return str(civ.get("player") or f"Seat {civ.get('seat', '?')}")
    return str(civ["name"])


def token_word(view: dict[str, Any], civ: dict[str, Any]) -> str:
    """A civilization's Command token in a word: ready, unused, used or out."""
    token = civ.get("token") if isinstance(civ.get("token"), dict) else {}
    status = token.get("status")
    if civ.get("conceded"):
        return "out"
    if status in ("active", "removed"):
        return "used"
    if view.get("phase") == "era" and token.get("eligible"):
        return "ready"
    return "unused" if status == "available" else "—"


def scores(view: dict[str, Any]) -> list[str]:
    """Each civilization's Command token in a word ("Romans: ready")."""
    return [f"{civ_label(c)}: {token_word(view, c)}" for c in _civs(view)]


def when(view: dict[str, Any]) -> str:
    """Where the table is in the game: the set-up, an Era and its turn, or after."""
    phase = view.get("phase")
    era = f"Era {view.get('era_name') or roman(view.get('era'))}"
    if phase == "setup":
        return "Set-up"
    if phase in ERA_PHASES:
        return f"{era} · turn {view.get('turn', '?')} of {view.get('turns', '?')}"
    if phase == "final":
        return f"After {era}"
    if phase == "over":
        return "Game over"
    return era


def _civs(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in view.get("civs") or [] if isinstance(c, dict)]


def _civ(view: dict[str, Any], seat: Any) -> dict[str, Any]:
    return next((c for c in _civs(view) if c.get("seat") == seat), {})


def civ_name(view: dict[str, Any], seat: Any) -> str:
    """A civilization by its name (its player's while it has none)."""
    civ = _civ(view, seat)
    return str(civ.get("name") or civ.get("player") or f"Seat {seat}")


def _names(view: dict[str, Any], seats: list[Any]) -> str:
    shown = [civ_name(view, s) for s in seats]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} & {shown[-1]}"


def territory_suggestions(view: dict[str, Any], seat: Any, typed: str) -> list[tuple[str, str]]:
    """What `territory add` suggests to `seat` as `typed` is typed, (name, value): first
    the territories other civilizations hold that the typed words fit (adding one shares
    it), then the typed name as a new territory, marked so, unless a civilization holds a
    territory of that name (a typo would otherwise make a new one unnoticed). Nothing the
    seat holds already."""
    mine = {str(t).casefold() for t in _civ(view, seat).get("territories") or []}
    held: dict[str, tuple[str, list[Any]]] = {}  # folded name -> (name, holders' seats)
    for civ in _civs(view):
        if civ.get("conceded"):
            continue
        for territory in civ.get("territories") or []:
            name = str(territory)
            held.setdefault(name.casefold(), (name, []))[1].append(civ.get("seat"))
    offered = [
        (f"{name} — shared with {_names(view, seats)}", name)
        for folded, (name, seats) in held.items()
        if folded not in mine and words_fit(typed, name)
    ]
    name = " ".join(typed.split())
    if name and name.casefold() not in held and name.casefold() not in mine:
        offered = offered[: SUGGESTIONS - 1]
        offered.append((f"{name} — a new territory (nobody holds it)", name))
    return offered[:SUGGESTIONS]


def where_from(view: dict[str, Any], refused: str, choices: list[Choice]) -> list[Choice]:
    """When an activation (the key `refused`) takes a cube where Arbiter counts none, the
    same activation (its power and cubes) with its cube from each place, among the
    player's `choices`: as Arbiter counts the cubes, or on the player's word that their
    table has them; each labelled, for a button, by where its cube comes from and
    Arbiter's count there."""
    kind, _, rest = refused.partition("|")
    power, _, taken = rest.partition("|")
    taken = taken.partition("|")[2]  # the cubes taken, after the place
    if kind not in ACTIVATING or not power:
        return []
    cubes = (_civ(view, view.get("me")).get("cubes") or {}) if view else {}
    offered = []
    for choice in choices:
        parts = choice.key.split("|")
        if parts[0] not in ACTIVATING or len(parts) < 3:
            continue
        if parts[1] != power or "|".join(parts[3:]) != taken or parts[2] not in SOURCE_PHRASES:
            continue
        place = parts[2]
        label = f"Its cube from {SOURCE_PHRASES[place]}"
        if parts[0] == VOUCH:
            label += f": my table has {'them' if taken not in ('', '0') else 'it'}"
        label += f" (Arbiter counts {cubes.get(place, '?')})"
        offered.append(Choice(choice.key, label, choice.detail))
    return offered


def whole_label(label: str, name: str) -> str:
    """An activation as `/historia command` suggests it: its suggestion `name` (the label
    and what it does) while the label is whole in it, else the label alone, whose end
    says where the cube comes from and whether the player's word is taken."""
    return name if name.startswith(label) else clip(label, 100)


def standing_line(view: dict[str, Any], category: str) -> str:
    """One category from first to last: "**Military**: 🥇 Greeks 5 · Persians 3 · 🔻
    Romans 0"; a tie shares a place ("Greeks & Romans 5 (tied for first: no leader)")."""
    row = (view.get("standings") or {}).get(category) or {}
    values = {int(s): v for s, v in (row.get("values") or {}).items() if str(s).isdigit()}
    name = f"**{row.get('name') or CATEGORY_NAMES.get(category, category)}**"
    if not values:
        return f"{name}: —"
    first, last = list(row.get("first") or []), list(row.get("last") or [])
    if len(set(values.values())) == 1:
        return f"{name}: all tied at {next(iter(values.values()))} — no leader"
    groups: dict[Any, list[int]] = {}
    for seat, value in sorted(values.items(), key=lambda sv: (-sv[1], sv[0])):
        groups.setdefault(value, []).append(seat)
    parts = []
    for value, seats in groups.items():
        text = f"{_names(view, seats)} {value}"
        if set(seats) == set(first):
            text = f"{FIRST} {text}" if len(seats) == 1 else f"{text} (tied for first: no leader)"
        elif set(seats) == set(last):
            text = f"{LAST} {text}" if len(seats) == 1 else f"{LAST} {text} (tied for last)"
        parts.append(text)
    return f"{name}: {' · '.join(parts)}"


def ready_now(view: dict[str, Any]) -> list[tuple[dict[str, Any], str, str]] | None:
    """During an Era, each civilization that can activate its token now, with why: the
    category it is first in and the other one, which it is not last in. None outside an
    Era. (The text board and the picture both say this.)"""
    if view.get("phase") != "era":
        return None
    ready = []
    for civ in _civs(view):
        token = civ.get("token") or {}
        if civ.get("conceded") or not token.get("eligible"):
            continue
        by = str(token.get("by") or "?")
        names = [CATEGORY_NAMES.get(str(c), "?") for c in token.get("symbols") or []]
        ready.append((civ, by, next((n for n in names if n != by), "?")))
    return ready


def ready_line(view: dict[str, Any]) -> str | None:
    """During an Era, who can activate their token now and why (first in one of its
    categories, not last in the other), or that nobody can."""
    ready = ready_now(view)
    if ready is None:
        return None
    if not ready:
        return f"{BLOCKED} **No token can be activated now** (each civilization's field says why)"
    return f"{READY} **Can activate now**: " + " · ".join(
        f"{civ_name(view, civ.get('seat'))} (first in {by}, not last in {other})"
        for civ, by, other in ready
    )


def token_line(view: dict[str, Any], civ: dict[str, Any], *, you: bool = False) -> str:
    """A civilization's Command token: its categories, and whether it can be activated now
    (and why not), or the power it gave, or that it is used."""
    token = civ.get("token") or {}
    head = f"🪙 **Token {token.get('label') or '—'}**"
    status = token.get("status")
    phase = view.get("phase")
    if civ.get("conceded"):
        return f"{head} — out of the game"
    if status == "active":
        source = PLACE_NAMES.get(str(token.get("cube_from")), "?")
        taken = token.get("cubes_taken") or 0
        extra = f", {plural(taken, 'cube')} taken from the general supply" if taken else ""
        return (
            f"{head} — {ACTIVE} **{token.get('power') or '?'}** until the end of the Era "
            f"(its cube from the {source}{extra})"
        )
    if status == "removed":
        return f"{head} — {USED} used in an earlier Era: out of the game"
    if phase == "setup":
        who = "you (or the host)" if you else "its player or the host"
        return f"{head} — {who} may change it until Era I begins"
    if phase == "dispute":
        return f"{head} — waits while the match is paused"
    if phase == "ending":
        return f"{head} — the Era is ending"
    if phase != "era":
        return head
    if token.get("eligible"):
        by = token.get("by") or "?"
        if you:
            return (
                f"{head} — {READY} **you may activate it now** (first in {by}): `/historia command`"
            )
        return f"{head} — {READY} can be activated now (first in {by})"
    return f"{head} — {BLOCKED} not now: {token.get('why_not') or 'not first in either category'}"


def territories_line(civ: dict[str, Any], *, compact: bool = False) -> str:
    """The territories held, shared ones marked ⇄; `compact`: counted, shared ones named."""
    held = [str(t) for t in civ.get("territories") or []]
    shared = {str(t) for t in civ.get("shared") or []}
    count = plural(len(held), "territory", "territories")
    if not held:
        return "🗺️ no territory"
    if compact:
        named = [t for t in held if t in shared]
        if not named:
            return f"🗺️ {count}"
        more = f" and {len(named) - COMPACT_SHARED} more" if len(named) > COMPACT_SHARED else ""
        return f"🗺️ {count} ({SHARED} shared: {', '.join(named[:COMPACT_SHARED])}{more})"
    return f"🗺️ {count}: " + ", ".join(f"{t} {SHARED}" if t in shared else t for t in held)


def levels_line(civ: dict[str, Any]) -> str:
    """Each track's level as the table shows it, and Command's bonus on top."""
    levels = civ.get("levels") or {}
    effective = civ.get("effective") or {}
    parts = []
    for track in TRACKS:
        base = levels.get(track, 0)
        now = effective.get(track, base)
        text = f"{TRACK_ICONS[track]} {CATEGORY_NAMES[track]} {base}"
        if isinstance(now, int) and isinstance(base, int) and now != base:
            text += f" {now - base:+d} Command = **{now}**"
        parts.append(text)
    return " · ".join(parts)


def cubes_line(civ: dict[str, Any]) -> str:
    """Where the civilization's cubes are (the places holding none left out), the one on
    its activated token included."""
    cubes = civ.get("cubes") or {}
    held = [f"{PLACE_NAMES[p]} {cubes[p]}" for p in PLACES if cubes.get(p)]
    if (civ.get("token") or {}).get("status") == "active":
        held.append(f"{ON_TOKEN} 1")
    return "🧊 Cubes: " + (" · ".join(held) or "none")


def civ_title(view: dict[str, Any], civ: dict[str, Any], *, you: bool = False) -> str:
    """ "🏛️ Greeks — alice", with the token's state in a word."""
    name = str(civ.get("name") or "")
    player = str(civ.get("player") or "?")
    if civ.get("named") is False or not name:
        title = f"{'You — ' if you else ''}{player} — no civilization named yet"
    else:
        title = f"🏛️ {'You — ' if you else ''}{name} ({player})"
    token = civ.get("token") or {}
    if civ.get("conceded"):
        title += " — left the table"
    elif token.get("status") == "active":
        title += f" · {ACTIVE} {token.get('power') or 'power'}"
    elif view.get("phase") == "era" and token.get("status") == "available":
        ready = token.get("eligible")
        title += f" · {READY} token ready" if ready else f" · {BLOCKED} token not now"
    return clip(title, NAME_LIMIT)


class HistoriaCommandRenderer(Renderer):
    """Board and private view for Historia: The Ways of Command."""

    legend = LEGEND

    def scores(self, view: dict[str, Any]) -> list[str]:
        return scores(view)

    def when(self, view: dict[str, Any]) -> str:
        return when(view)

    # A turn of a Historia table can hold many reports: its public lines are split into
    # messages of this many lines, so that the latest report and its Dispute button
    # stay at the bottom of the channel.
    turn_lines = 8
    lately = False  # the board lists the recent reports, numbered, itself
    numbers_lines = True  # a report's line starts with its number, as committed

    # ------------------------------------------------------------------ the board

    def board_fields(self, view: dict[str, Any], to_act: tuple[int, ...]) -> list[Field]:
        """The board's fields, made more compact step by step while they exceed the
        budget: the territories counted, then the shared ones and the reasons shortened
        and the recent reports fewer (each still whole), to the room left."""
        fields: list[Field] = []
        for step in range(3):
            head = [f for f in (self.dispute_field(view), self.proposal_field(view)) if f]
            head.append(self.standings_field(view))
            civs = [self.civ_field(view, c, compact=step > 0, short=step > 1) for c in _civs(view)]
            rest = [self.powers_field(view), self.shared_field(view, short=step > 1)]
            fields = [*head, *civs, *(f for f in rest if f)]
            eras = self.eras_field(view)
            room = FIELD_LIMIT
            if step > 1:  # what the other fields leave
                room = BOARD_BUDGET - _size([*fields, *(f for f in [eras] if f)])
            reports = self.reports_field(view, limit=min(FIELD_LIMIT, room))
            fields += [f for f in (reports, eras) if f]
            if _size(fields) <= BOARD_BUDGET:
                break
        return fields

    def standings_field(self, view: dict[str, Any]) -> Field:
        """Each category from first to last."""
        phase = view.get("phase")
        era = f"Era {view.get('era_name') or roman(view.get('era'))}"
        if phase in ("era", "dispute", "ending"):
            where = f"{era}, turn {view.get('turn', '?')}"
        elif phase == "setup":
            where = "set-up"
        else:
            where = "after the last Era"
        lines = [standing_line(view, c) for c in CATEGORIES]
        ready = ready_line(view)
        if ready:
            lines.append(ready)
        lines.append(
            "A token can be activated by a civilization *alone* in first place in one of its "
            "two categories and not *alone* in last place in the other."
        )
        return Field(
            f"Standings — {where} ({FIRST} first · {LAST} last)",
            clip("\n".join(lines), FIELD_LIMIT),
        )

    def civ_field(
        self,
        view: dict[str, Any],
        civ: dict[str, Any],
        *,
        you: bool = False,
        compact: bool = False,
        short: bool = False,
    ) -> Field:
        """One civilization: its token, levels, cubes and territories (`compact`: counted;
        `short`: the token's reason cut short too)."""
        token = token_line(view, civ, you=you)
        lines = [clip(token, SHORT_TOKEN) if short else token, levels_line(civ), cubes_line(civ)]
        value = "\n".join([*lines, territories_line(civ, compact=compact)])
        if len(value) > FIELD_LIMIT:  # the territories last, counted if need be
            value = "\n".join([*lines, territories_line(civ, compact=True)])
        return Field(civ_title(view, civ, you=you), clip(value, FIELD_LIMIT))

    def dispute_field(self, view: dict[str, Any]) -> Field | None:
        """The banner of a dispute: the match is paused until it is settled."""
        dispute = view.get("dispute")
        if not isinstance(dispute, dict):
            return None
        number = dispute.get("report")
        report = next((r for r in view.get("reports") or [] if r.get("number") == number), {})
        reporter = _civ(view, report.get("seat")).get("player", "the reporter")
        by = _civ(view, dispute.get("by")).get("player", "?")
        lines = [
            f"**#{number}** {report.get('text', '')} (reported by {reporter})",
            f"Disputed by {by}. Until it is settled at the table, no report is taken:",
            f"• {reporter} takes it back — `/historia retract`",
            f"• {by} lets it stand — `/historia withdraw`",
        ]
        return Field(
            f"⚠️ Paused — report #{number} is disputed", clip("\n".join(lines), FIELD_LIMIT)
        )

    def proposal_field(self, view: dict[str, Any]) -> Field | None:
        """What the table must confirm, who agreed, who is still to answer: the end of
        the Era reported, or after the last Era the result."""
        phase = view.get("phase")
        if phase not in ("ending", "final"):
            return None
        proposal = view.get("proposal")
        if phase == "ending" and isinstance(proposal, dict):
            return self.agreement_field(
                view,
                proposal,
                f"⏳ End of Era {view.get('era_name') or roman(view.get('era'))} reported",
                "the end of the Era; once all agree, the Command powers end (an objection "
                "keeps the Era going).",
            )
        if not isinstance(proposal, dict):
            return Field(
                "🏆 Who won?",
                "Score the game at the table, then one of you reports the winner "
                "(`/historia result`); the others agree or object.",
            )
        winners = [civ_name(view, s) for s in proposal.get("winners") or []]
        return self.agreement_field(
            view, proposal, "🏆 Result reported", f"**{' & '.join(winners)}** won."
        )

    def agreement_field(
        self, view: dict[str, Any], proposal: dict[str, Any], title: str, what: str
    ) -> Field:
        """A report the others confirm: who made it, `what` it says, who agreed, who is
        still to answer."""
        agreed = set(proposal.get("agreed") or [])
        players = [c for c in _civs(view) if not c.get("conceded")]
        yes = [str(c.get("player")) for c in players if c.get("seat") in agreed]
        waiting = [str(c.get("player")) for c in players if c.get("seat") not in agreed]
        lines = [
            f"{_civ(view, proposal.get('by')).get('player', '?')} reports: {what}",
            f"Agreed: {', '.join(yes) or '—'}",
            f"Waiting for: {', '.join(waiting) or '—'} (`/historia agree` or `/historia object`)",
        ]
        return Field(title, clip("\n".join(lines), FIELD_LIMIT))

    def powers_field(self, view: dict[str, Any]) -> Field | None:
        """The Command powers in force, until the end of the Era."""
        active = [c for c in _civs(view) if (c.get("token") or {}).get("status") == "active"]
        if not active:
            return None
        lines = [
            f"{ACTIVE} {civ_name(view, c.get('seat'))}: {c['token'].get('power')}" for c in active
        ]
        era = view.get("era_name") or roman(view.get("era"))
        return Field(
            f"Command powers in force (until the end of Era {era})",
            clip("\n".join(lines), FIELD_LIMIT),
        )

    def shared_field(self, view: dict[str, Any], *, short: bool = False) -> Field | None:
        """Each shared territory with its holders, and who scores it by the shared-territory
        power (two or more claims cancel out); `short`: the holders counted, and at most a
        few territories."""
        holders: dict[str, list[Any]] = {}
        for civ in _civs(view):
            if civ.get("conceded"):
                continue
            for territory in civ.get("shared") or []:
                holders.setdefault(str(territory), []).append(civ.get("seat"))
        if not holders:
            return None
        claims = view.get("claims") or {}
        lines = []
        shown = list(holders.items())
        if short:  # the claimed ones first
            shown.sort(key=lambda item: not claims.get(item[0]))
            shown = shown[:SHORT_SHARED]
        for territory, seats in shown:
            held = plural(len(seats), "civilization") if short else _names(view, seats)
            line = f"{SHARED} **{territory}** — {held}"
            claiming = claims.get(territory) or []
            if len(claiming) == 1:
                line += f": scored by {civ_name(view, claiming[0])} (Command), not by the others"
            elif len(claiming) > 1:
                every = "both" if len(claiming) == 2 else "all"
                line += f": {_names(view, claiming)} {every} claim it — they cancel out"
            lines.append(line)
        if len(shown) < len(holders):
            lines.append(f"… and {len(holders) - len(shown)} more")
        if not short:
            lines.append(
                "*With the power Score shared territories, a holder scores its shared ones; "
                "two claims on one territory cancel out.*"
            )
        return Field("Shared territories", clip("\n".join(lines), FIELD_LIMIT))

    def reports_field(self, view: dict[str, Any], limit: int = FIELD_LIMIT) -> Field | None:
        """The recent reports, numbered, with who made them and their status, each line
        whole: as many of the latest as fit in `limit` characters (the latest always),
        the earlier ones pointed to in `/match log`."""
        reports = [r for r in view.get("reports") or [] if isinstance(r, dict)]
        if not reports:
            return None
        lines = []
        for report in reports:
            player = _civ(view, report.get("seat")).get("player", "?")
            text = str(report.get("text", ""))
            status = str(report.get("status") or "")
            if status == "retracted":
                text = f"~~{text}~~"
            mark = f" — {STATUS_MARKS[status]}" if status in STATUS_MARKS else ""
            lines.append(f"`#{report.get('number')}` {text} · by {player}{mark}")

        def kept(shown: int) -> list[str]:
            latest = lines[len(lines) - shown :]
            return latest if shown == len(lines) else [_earlier(reports, shown), *latest]

        shown = len(lines)
        while shown > 1 and len(REPORTS_TITLE) + len("\n".join(kept(shown))) > limit:
            shown -= 1
        return Field(REPORTS_TITLE, clip("\n".join(kept(shown)), FIELD_LIMIT))

    def eras_field(self, view: dict[str, Any]) -> Field | None:
        """The tokens used in the Eras played so far."""
        history = [h for h in view.get("history") or [] if isinstance(h, dict)]
        past = [
            h
            for h in history
            if h.get("era") != view.get("era") or view.get("phase") in ("final", "over")
        ]
        if not past:
            return None
        lines = []
        for record in past:
            used = "; ".join(map(str, record.get("activations") or [])) or "no token activated"
            lines.append(f"Era {roman(record.get('era'))}: {used}")
        return Field("Command tokens used in past Eras", clip("\n".join(lines), FIELD_LIMIT))

    # ------------------------------------------------------------------ the private view

    def private_headline(self, view: dict[str, Any]) -> str | None:
        """The reporter of a disputed report is told what they can do about it."""
        dispute = view.get("dispute")
        if view.get("phase") != "dispute" or not isinstance(dispute, dict):
            return None
        by = _civ(view, dispute.get("by")).get("player", "the disputer")
        number = dispute.get("report")
        if view.get("can_retract"):
            return (
                f"**Your report #{number} is disputed by {by}.** If it was wrong, take it "
                f"back with `/historia retract`; if it stands, {by} withdraws the dispute."
            )
        if view.get("can_retract") is False:
            return (
                f"**Your report #{number} is disputed by {by}**, and later reports changed the "
                f"same thing, so it can't be taken back as it was made: settle it at the "
                f"table ({by} withdraws the dispute) and report the correction, or ask a "
                "moderator to undo."
            )
        return None

    def private_fields(self, view: dict[str, Any]) -> list[Field]:
        me = _civ(view, view.get("me"))
        if not me:
            return super().private_fields(view)
        fields = [self.civ_field(view, me, you=True)]
        fields.append(self.standings_field(view))
        lines = self.what_you_can_do(view, me)
        if lines:
            title = {
                "setup": "Setting up",
                "dispute": "The dispute",
                "ending": "The end of the Era",
                "final": "The result",
            }.get(str(view.get("phase")), "What you can report")
            fields += chunked_fields(title, lines)
        return fields

    def what_you_can_do(self, view: dict[str, Any], me: dict[str, Any]) -> list[str]:
        """The commands open to the player now, in the table's words."""
        phase = view.get("phase")
        if me.get("conceded") or phase == "over":
            return []
        if phase == "setup":
            lines = list(SETTING_UP)
            if not me.get("named"):
                lines.insert(0, "**First, name your civilization**: `/historia civilization`")
            return lines
        if phase == "dispute":
            dispute = view.get("dispute") or {}
            lines = [f"The match is paused: report #{dispute.get('report')} is disputed."]
            if view.get("can_retract"):
                lines.append("It is your report: take it back with `/historia retract`.")
            elif view.get("can_retract") is False:
                lines.append(
                    "It is your report, but later reports changed the same thing: report the "
                    "correction once the dispute is settled, or ask a moderator to undo."
                )
            if dispute.get("by") == view.get("me"):
                lines.append("You raised it: `/historia withdraw` lets the report stand.")
            return lines
        if phase in ("ending", "final"):
            proposal = view.get("proposal")
            if not isinstance(proposal, dict):
                return ["Report who won, once the table has scored: `/historia result`."]
            what = "the end of the Era" if phase == "ending" else "the result"
            if view.get("me") in (proposal.get("agreed") or []):
                return [f"You agreed to {what}: waiting for the others."]
            if phase == "ending":
                return ["`/historia agree` — the Era is over · `/historia object` — it goes on"]
            return ["`/historia agree` — the result stands · `/historia object` — drop it"]
        lines = list(REPORTING)
        disputable = view.get("disputable") or []
        if disputable:
            numbers = ", ".join(f"#{n}" for n in disputable)
            lines.append(f"Reports you may dispute now: {numbers}")
        retractable = view.get("retractable") or []
        if retractable:
            numbers = ", ".join(f"#{n}" for n in retractable)
            lines.append(f"Your reports you may take back: {numbers} (`/historia retract report:`)")
        return lines


def _earlier(reports: list[dict[str, Any]], shown: int) -> str:
    """The line pointing to the recent reports left off the board (all but the last
    `shown`)."""
    numbers = ", ".join(f"#{r.get('number')}" for r in reports[: len(reports) - shown])
    return f"*Earlier: {numbers} — in `/match log`*"


def _size(fields: list[Field]) -> int:
    return sum(len(f.name) + len(f.value) for f in fields)
