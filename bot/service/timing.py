"""Durations as players type and read them (`30m`, `24h`, `3d`, `1d 12h`), and the
terms of a match clock: its bounds, the shorter clock of out-of-turn decisions, the
timeout policies and reminder cadences. Shared by the clock service, the commands
and the lobby and board, so it depends on nothing but the errors.

- Clock: from 5 minutes to 14 days per decision (the server's default otherwise).
- Out of turn (a response window, a decision outside the seat's own turn): a quarter
  of the match clock, at least 5 minutes.
- Timeout policy: at every deadline the game's timeout action is taken for the seat
  (a window passes, a turn ends). After TIMEOUTS_IN_A_ROW timeouts of one seat with
  no action of its own between them, `skip` makes that seat forfeit (a game with
  elimination goes on without it), `abandon` ends the match as abandoned, no winner.
  `ai` hands the seat to the AI at its first timeout, until its player acts again (in a
  game the AI plays, at a table with another person; else it is `skip`).
- Reminder cadence (per server): `half-and-end` mentions the decider when half the
  clock is gone and when a tenth is left; `end-only` only the second; `off` none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from bot.service import errors

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR
WEEK = 7 * DAY

MIN_CLOCK = 5 * MINUTE  # the shortest clock per decision
MAX_CLOCK = 14 * DAY  # the longest clock per decision
OUT_OF_TURN_SHARE = 4  # an out-of-turn decision gets a quarter of the match clock...
MIN_OUT_OF_TURN = 5 * MINUTE  # ...but never less than this

TIMEOUT_POLICIES = ("skip", "abandon", "ai")
TIMEOUTS_IN_A_ROW = 3  # a seat's timeouts in a row before the policy ends its part
REMINDER_CADENCES = ("half-and-end", "end-only", "off")


@dataclass(frozen=True)
class ClockTerms:
    """A match's clock per decision and its timeout policy."""

    clock_seconds: int
    timeout_policy: str


_UNITS = {
    "s": 1,
    "sec": 1,
    "secs": 1,
    "second": 1,
    "seconds": 1,
    "m": MINUTE,
    "min": MINUTE,
    "mins": MINUTE,
    "minute": MINUTE,
    "minutes": MINUTE,
    "h": HOUR,
    "hr": HOUR,
    "hrs": HOUR,
    "hour": HOUR,
    "hours": HOUR,
    "d": DAY,
    "day": DAY,
    "days": DAY,
    "w": WEEK,
    "week": WEEK,
    "weeks": WEEK,
}
# Typed text is bounded before it is parsed: a duration is never longer than this, and
# none of its numbers has more digits (9,999,999 seconds is over 16 weeks, past any
# clock, vacation or extension Arbiter grants).
MAX_DURATION_TEXT = 40
MAX_DIGITS = 7
_PART = re.compile(r"(\d+)\s*([a-z]+)")
_WHOLE = re.compile(r"(?:\d+\s*[a-z]+\s*)+")
_NAMES = ((DAY, "day"), (HOUR, "hour"), (MINUTE, "minute"), (1, "second"))


def parse_duration(text: str) -> int:
    """Seconds in a typed duration: numbers with units (`s`, `m`, `h`, `d`, `w`, or the
    words), several parts allowed (`1d 12h`). Raises BadDuration with a sentence."""
    typed = text.strip().casefold().replace(",", " ")
    if len(typed) > MAX_DURATION_TEXT or any(
        len(n) > MAX_DIGITS for n in re.findall(r"\d+", typed)
    ):
        raise errors.BadDuration(
            f"“{text.strip()[:20]}…” is far longer than any duration Arbiter keeps: write it "
            "like `30m`, `24h`, `3d` or `1d 12h`."
        )
    if not typed or _WHOLE.fullmatch(typed) is None:
        raise errors.BadDuration(_not_a_duration(text))
    seconds = 0
    for number, unit in _PART.findall(typed):
        if unit not in _UNITS:
            raise errors.BadDuration(_not_a_duration(text))
        seconds += int(number) * _UNITS[unit]
    if seconds <= 0:
        raise errors.BadDuration(f"“{text.strip()[:40]}” is no time at all: give a duration.")
    return seconds


def _not_a_duration(text: str) -> str:
    return (
        f"“{text.strip()[:40]}” isn't a duration I understand: write it like `30m`, `24h`, "
        "`3d` or `1d 12h`."
    )


def parse_clock(text: str) -> int:
    """A match clock (per decision) in seconds: a duration from 5 minutes to 14 days."""
    seconds = parse_duration(text)
    if not MIN_CLOCK <= seconds <= MAX_CLOCK:
        raise errors.BadDuration(
            f"A clock must be from {format_duration(MIN_CLOCK)} to {format_duration(MAX_CLOCK)} "
            f"per decision (you asked for {format_duration(seconds)})."
        )
    return seconds


def out_of_turn_clock(clock_seconds: int) -> int:
    """The clock of an out-of-turn decision (a response window): a quarter of the match
    clock, at least 5 minutes (and never more than the match clock)."""
    return min(clock_seconds, max(clock_seconds // OUT_OF_TURN_SHARE, MIN_OUT_OF_TURN))


def format_duration(seconds: float) -> str:
    """A duration in words, its two largest units: `3 days`, `1 day 12 hours`, `5 minutes`."""
    left = max(0, round(seconds))
    if left == 0:
        return "0 seconds"
    parts = []
    for size, name in _NAMES:
        count, left = divmod(left, size)
        if count:
            parts.append(f"{count} {name}{'' if count == 1 else 's'}")
        if len(parts) == 2:
            break
        if parts and not count:
            break  # `1 day 12 hours`, but `1 day` rather than `1 day 0 hours 5 minutes`
    return " ".join(parts)


def terms_text(clock_seconds: int, timeout_policy: str) -> str:
    """A match's clock terms in a sentence, for its lobby."""
    if timeout_policy == "ai":
        return (
            f"{format_duration(clock_seconds)} per decision, "
            f"{format_duration(out_of_turn_clock(clock_seconds))} out of turn. When time runs "
            "out the AI plays for the player until they are back."
        )
    then = "the player forfeits" if timeout_policy == "skip" else "the match is abandoned"
    return (
        f"{format_duration(clock_seconds)} per decision, "
        f"{format_duration(out_of_turn_clock(clock_seconds))} out of turn. When time runs "
        f"out the game acts for the player; after {TIMEOUTS_IN_A_ROW} times in a row {then}."
    )


def clock_text(clock_seconds: int) -> str:
    """A match's clocks in a few words, for its board."""
    return (
        f"⏱️ {format_duration(clock_seconds)} a decision, "
        f"{format_duration(out_of_turn_clock(clock_seconds))} out of turn"
    )


def moment(when: datetime) -> str:
    """A moment as Discord shows it to each reader: their local date and time, then how
    far off it is ("in 3 hours")."""
    stamp = int(when.timestamp())
    return f"<t:{stamp}:f> (<t:{stamp}:R>)"
