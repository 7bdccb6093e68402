"""Refusals a player caused. Each carries the sentence the player reads.

The rules' own refusals arrive as `rules.core.IllegalAction`; `bot.replies`
turns both kinds into ephemeral replies in one place.
"""

from __future__ import annotations


class UserError(Exception):
    """Base of every refusal meant for the player; `message` is shown as is."""

    default = "That can't be done right now."

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default
        super().__init__(self.message)


class NoMatchHere(UserError):
    default = "There is no open match in this channel. Start one with `/match new`."


class MatchNotFound(UserError):
    default = "That match no longer exists."


class ChannelHasMatch(UserError):
    default = (
        "This channel already has an open match. Finish or cancel it first, "
        "or start a new one in another channel or thread."
    )


class UnknownGame(UserError):
    default = "I don't know that game."


class UnknownVariant(UserError):
    default = "That game has no such variant."


class BadOption(UserError):
    default = "That game has no such option or value."


class NotFromHere(UserError):
    """A component whose id names no match of the server (or the DMs) it was used in:
    forged, or copied from elsewhere. Nothing about that match is read or changed."""

    default = "That button isn't from a match here, so nothing happened."


class NotInMatch(UserError):
    default = "You are not playing in this match."


class AlreadyJoined(UserError):
    default = "You are already in this lobby."


class LobbyFull(UserError):
    default = "This lobby is full."


class NotLobby(UserError):
    default = "This match has already started."


class NotActive(UserError):
    default = "This match is not in play."


class MatchAbandoned(NotActive):
    """The clock abandoned the match (its timeout policy) before the player's action."""

    default = "The match was abandoned at its deadline, with no winner, so nothing happened."


class Forfeited(NotInMatch):
    """The clock made the player's seat forfeit (its timeout policy) before their action."""

    default = "You forfeited at your deadline (you ran out of time), so nothing happened."


class NotHost(UserError):
    default = "Only the host (the first player seated) can do that."


class WrongPlayerCount(UserError):
    default = "This variant can't start with that many players."


class NotYourTurn(UserError):
    default = "It is not your decision right now."


class UnknownAction(UserError):
    default = "That isn't one of your options right now. Pick one from `/hand` or `/play`."


class StaleChoice(UserError):
    default = (
        "This menu is out of date (you have decided since it was shown), so nothing happened. "
        "Here is a fresh one."
    )


OUTDATED_MENU = (
    "This menu is out of date (it comes from an older version of the bot), so nothing "
    "happened. Here is a fresh one."
)


class StateChanged(UserError):
    default = "The match changed while your action was being saved, so nothing happened. Try again."


class DMsClosed(UserError):
    default = (
        "I can't send you direct messages (your DMs are closed for this server). "
        "Nothing changed; use `/hand` here instead."
    )


class NotModerator(UserError):
    default = (
        "Only moderators can do that: members with Manage Server, or the role set with "
        "`/settings mod-role`."
    )


class ChannelNotAllowed(UserError):
    default = "Matches can't be opened in this channel on this server."


class NothingToUndo(UserError):
    default = "There is no game action left to undo in this match."


class UndoRefused(UserError):
    default = "That action can't be taken back without `force:true`."


class AlreadySeated(UserError):
    default = "That member already plays in this match."


class ExportRefused(UserError):
    default = (
        "While a match is open only a moderator may export it: its seed predicts every "
        "shuffle. Anyone may export it once it is over."
    )


class BadSetting(UserError):
    default = "That setting value isn't valid."


class NoTournament(UserError):
    default = "There is no open tournament in this channel."


class NoSuchSeason(UserError):
    default = "That season doesn't exist on this server."


class BadDuration(UserError):
    default = "That isn't a duration I understand: write it like `30m`, `24h` or `3d`."


class ClockRefused(UserError):
    """A clock request (nudge, pause, resume, vacation, extension) that can't be granted now."""

    default = "The match clock can't do that right now."


class NoAI(UserError):
    default = "Arbiter doesn't play this game: it referees it."
