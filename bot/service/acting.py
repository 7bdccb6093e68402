"""A player at the table (`Acting`): an action taken, standing answers played for them,
a concession, and what a seat sees (its private view, its choices, the cards' texts)."""

from __future__ import annotations

import random
from collections.abc import (
    Sequence,
)
from dataclasses import replace

from pydantic import BaseModel

from bot.service import errors, outbox
from bot.service.match_core import MatchCore
from bot.service.outbox import Notice
from bot.service.store import (
    PICTURE_MODES,
    MatchRow,
    SeatRow,
)
from bot.service.tables import (
    AI_NAME,
    CONCEDE,
    LATELY,
    MAX_STANDING,
    RECENT_ACTIONS,
    SINCE_MINE,
    ActResult,
    Choice,
    PrivateView,
    Table,
    saved_events,
    words_fit,
)
from league.ratings import CONCEDED
from rules.core import (
    Action,
    Event,
    Game,
    IllegalAction,
    Outcome,
    PreferenceInfo,
    rng_for,
)


class Acting(MatchCore):
    """Actions, concessions and views."""

    async def act(
        self,
        match_id: int,
        user_id: int,
        key: str,
        *,
        decisions: int | None = None,
        typed: bool = False,
        kind: str | None = None,
        by_ai: bool = False,
    ) -> ActResult:
        """Apply one of the caller's legal actions, committed before this returns.

        `decisions` is the caller's decision count when their menu was built; when
        they have decided since (the same menu used twice), nothing is applied and
        StaleChoice is raised. Other seats' decisions never make a menu stale.
        `typed` text may also name an action by its label (see `_match_typed`); with
        `kind`, only an action of that kind (a game command's own shortcut).

        A key of one of the game's `open_kinds` is the player's own words: `apply` checks
        it, whoever is seated. At such a table a seat the game doesn't wait for may act
        too, so a refusal gives the rules' reason rather than "not your decision".

        `by_ai`: the AI acts for the seat (StaleChoice once it no longer plays it). A
        player who acts in a seat the AI was playing for them takes it back first.
        A refusal is counted (`Metrics.refused`) by the match's game and variant.
        """
        try:
            async with self._change(match_id):
                result, told = await self._act(
                    match_id, user_id, key, decisions, typed, kind, by_ai
                )
        except (errors.UserError, IllegalAction) as refused:
            # Read only when refused: an accepted move reads its match once, in `_act`.
            try:
                match = await self.get(match_id)
                where = (match.game, match.variant)
            except errors.UserError:
                where = ("", "")
            self.metrics.refused(*where, refused)
            raise
        return replace(result, told=told)

    async def _act(
        self,
        match_id: int,
        user_id: int,
        key: str,
        decisions: int | None,
        typed: bool,
        kind: str | None,
        by_ai: bool,
    ) -> tuple[ActResult, str]:
        """`act`'s work, under the match's lock: the result and what the game tells the
        actor of it."""
        match, seats, seat, state = await self._seated(match_id, user_id)
        lead: list[str] = []
        if by_ai and not seat.by_ai:
            raise errors.StaleChoice()
        if by_ai and seat.person:
            lead = [f"🤖 {AI_NAME} plays for {seat.name}:"]
        if seat.by_ai and not by_ai:
            match, seats, seat = await self._take_back(match, seat)
        elif decisions is not None and decisions != seat.decisions:
            raise errors.StaleChoice()
        game = self.game(match.game)
        rng = rng_for(match.seed, match.version + 1)
        applied = _applied_as_is(game, state, seat.seat, key, rng)
        if applied is not None:
            action, (new_state, events) = applied
        else:
            action = await self._resolve(game, match, seats, seat, state, key, typed, kind)
            rng = rng_for(match.seed, match.version + 1)  # the refused try may have drawn
            new_state, events = game.apply(state, seat.seat, action, rng)
        label = game.describe(action, state)
        told = game.acknowledge(action, state, seat.seat)
        before = self._before(match, seats)
        answers = await self._standing(game, new_state, seats)
        result = await self._commit(
            match,
            seats,
            seat,
            action,
            label,
            new_state,
            events,
            before=before,
            lead=lead,
            quiet=answers,
            by_ai=by_ai,
        )
        await self._answer_standing(result, answers)
        return result, told

    async def _standing(
        self, game: Game, state: BaseModel, seats: list[SeatRow]
    ) -> dict[int, Action]:
        """The deciders of `state` whose players set a standing answer that applies now
        (see `Game.standing_answer`), with the action each takes."""
        if not game.preferences or game.outcome(state) is not None:
            return {}
        found = {}
        for seat in sorted(game.to_act(state)):
            row = next(s for s in seats if s.seat == seat)
            chosen = frozenset(
                p for g, p in await self.settings.standing_answers(row.user_id) if g == game.id
            )
            action = game.standing_answer(state, seat, chosen) if chosen else None
            if action is not None:
                found[seat] = action
        return found

    async def standing_answers_of(self, user_id: int) -> list[tuple[Game, PreferenceInfo, bool]]:
        """Every standing answer a player may set, game by game, and whether they set it."""
        chosen = await self.settings.standing_answers(user_id)
        return [
            (game, info, (game.id, info.id) in chosen)
            for game in self.games.values()
            for info in game.preferences.values()
        ]

    async def set_standing_answer(
        self, user_id: int, spec: str, on: bool
    ) -> tuple[Game, PreferenceInfo]:
        """Set or clear one of a player's standing answers, named "<game id>:<id>"."""
        game_id, _, preference = spec.partition(":")
        game = self.games.get(game_id)
        info = game.preferences.get(preference) if game is not None else None
        if game is None or info is None:
            known = ", ".join(
                f"`{g.id}:{i.id}`" for g in self.games.values() for i in g.preferences.values()
            )
            raise errors.UserError(f"There is no standing answer `{spec}`. There are: {known}.")
        await self.settings.set_standing_answer(user_id, game.id, info.id, on)
        return game, info

    async def pictures_of(self, user_id: int) -> str:
        """How a player sees their private views (a key of `PICTURE_MODES`)."""
        return await self.settings.player_pictures(user_id)

    async def set_pictures(self, user_id: int, mode: str) -> None:
        """Set how a player sees their private views."""
        if mode not in PICTURE_MODES:
            raise errors.UserError(f"Pictures are one of {', '.join(PICTURE_MODES)}.")
        await self.settings.set_player_pictures(user_id, mode)

    async def _answer_standing(self, result: ActResult, answers: dict[int, Action]) -> None:
        """Take the standing answers a change left due, one logged action each (told as
        such), and those each of them leaves due in turn. The caller holds the lock."""
        for _ in range(MAX_STANDING):
            table = result.table
            if not answers or table.outcome is not None:
                return
            seat, action = next(iter(answers.items()))
            match, seats, game = table.match, table.seats, table.game
            state = self._state(game, match)
            rng = rng_for(match.seed, match.version + 1)
            new_state, events = game.apply(state, seat, action, rng)
            row = table.user_of(seat)
            answers = await self._standing(game, new_state, seats)
            result = await self._commit(
                match,
                seats,
                row,
                action,
                game.describe(action, state),
                new_state,
                events,
                before=self._before(match, seats),
                lead=[f"⚙️ {row.name}'s standing answer:"],
                quiet=answers,
            )

    async def _resolve(
        self,
        game: Game,
        match: MatchRow,
        seats: list[SeatRow],
        seat: SeatRow,
        state: BaseModel,
        key: str,
        typed: bool,
        kind: str | None,
    ) -> Action:
        """The action a key `apply` refused as it is stands for (typed words matched to
        a label, see `act`), or the refusal saying why it can't be taken."""
        to_act = game.to_act(state)
        legal = game.legal_actions(state, seat.seat)
        action = next((a for a in legal if a.key == key), None)
        if action is None and Action.from_key(key).kind in game.open_kinds:
            action = Action.from_key(key)  # the player's own words: `apply` checks them
        elif seat.seat not in to_act and not legal:
            gone = await self._forfeited(match, seat.seat)
            if gone is not None:
                raise gone
            if not game.open_kinds:
                raise errors.NotYourTurn(self._waiting_for(seats, to_act))
        if action is None and typed:
            offered = [a for a in legal if kind is None or a.kind == kind]
            action = self._match_typed(game, state, seat.seat, offered, key, match, kind)
        elif action is None:
            self._refuse(game, state, seat.seat, key, match)
        return action

    async def concede(
        self,
        match_id: int,
        user_id: int,
        *,
        first: Sequence[Notice] = (),
        ending: str = CONCEDED,
    ) -> ActResult:
        """Give up at any moment of an active match (logged like any action); `first`
        tells the table something before the concession's lines, and `ending` says how
        the match ended if it ends it (a moderator's kick: REMOVED)."""
        async with self._change(match_id):
            match, seats, seat, state = await self._seated(match_id, user_id)
            game = self.game(match.game)
            action = Action(kind=CONCEDE)
            rng = rng_for(match.seed, match.version + 1)
            before = self._before(match, seats)
            new_state, events = game.concede(state, seat.seat, rng)
            label = f"{seat.name} concedes"
            result = await self._commit(
                match,
                seats,
                seat,
                action,
                label,
                new_state,
                events,
                before=before,
                first=first,
                ending=ending,
            )
        return result

    async def concession(
        self, match_id: int, user_id: int
    ) -> tuple[Table, SeatRow, Outcome | None]:
        """What `concede` would do, without doing it: the match, the seat given up and
        the outcome (None when the others play on). Refused as `concede` would be."""
        match, seats, seat, state = await self._seated(match_id, user_id)
        game = self.game(match.game)
        after, _ = game.concede(state, seat.seat, rng_for(match.seed, match.version + 1))
        return self._table(match, seats, state), seat, game.outcome(after)

    async def view(self, match_id: int, user_id: int) -> PrivateView:
        """The caller's private view, their legal actions and their recent private lines."""
        match = await self.get(match_id)
        seats = await self.records.seats(match_id)
        seat = next((s for s in seats if s.user_id == user_id), None)
        if seat is None:
            raise errors.NotInMatch()
        if match.snapshot is None:
            raise errors.NotActive("The match hasn't started yet.")
        game = self.game(match.game)
        state = self._state(game, match)
        table = self._table(match, seats)
        active = match.status == "active"
        choices = self._choices(game, match, seat.seat) if active else []
        question = game.question(state, seat.seat) if active else None
        rows = await self.records.latest_actions(match_id, last=SINCE_MINE)
        recent = [
            e.text_for(seat.seat)
            for row in rows[-RECENT_ACTIONS:]
            for e in saved_events(row.events)
        ]
        mine = max((i for i, row in enumerate(rows) if row.seat == seat.seat), default=None)
        # From the seat's own last action on, its lines included: they hold what the game
        # did by itself after the decision (the turn passed, the next player's draw).
        since = [
            text
            for row in rows[mine or 0 :]
            for e in saved_events(row.events)
            if (text := e.text_for(seat.seat))
        ]
        return PrivateView(
            table,
            seat.seat,
            game.view(state, seat.seat),
            choices,
            recent,
            seat.decisions,
            question=question,
            since_mine=since,
            more_before=mine is None and len(rows) == SINCE_MINE,
        )

    def _choices(self, game: Game, match: MatchRow, seat: int) -> list[Choice]:
        """A seat's legal actions in the match as saved, with their labels (worked out
        once per version: a menu, its autocomplete and a redraw ask the same)."""
        worked = self._worked_from(game, match)
        choices = worked.choices.get(seat)
        if choices is None:
            state = worked.state
            assert state is not None, "a match in play has a state"
            choices = worked.choices[seat] = [
                Choice(a.key, game.describe(a, state), game.explain(a, state, seat))
                for a in game.legal_actions(state, seat)
            ]
        return list(choices)

    async def choices(self, channel_id: int, user_id: int, typed: str = "") -> list[Choice]:
        """The caller's legal actions in a channel's match that typed text fits (every
        word in the label, in any order; or the text within the key); empty when none
        is theirs. The ones the game puts under its call (its `quick` choices: the way
        to pass, to end a turn) come first, so Discord's 25 suggestions never hide them."""
        await self.db.sync()
        match = await self.records.open_in(channel_id)
        if match is None or match.status != "active":
            return []
        seats = await self.records.seats(match.id)
        seat = next((s for s in seats if s.user_id == user_id), None)
        if seat is None:
            return []
        wanted = typed.strip().casefold()
        view = self._table(match, seats).view or {}  # worked out once per version
        quick = [e.get("key") for e in view.get("quick") or []]
        fitting = [
            c
            for c in self._choices(self.game(match.game), match, seat.seat)
            if words_fit(wanted, c.label) or wanted in c.key.casefold()
        ]
        return sorted(fitting, key=lambda c: quick.index(c.key) if c.key in quick else len(quick))

    async def card_texts(self, channel_id: int) -> list[tuple[Game, dict[str, str]]]:
        """The cards `/card` looks up from a channel: its match's pack (its latest match
        in the channel), else every game's bundled pack."""
        match = await self.records.latest_in(channel_id)
        if match is not None and match.game in self.games:
            game = self.game(match.game)
            return [(game, game.card_texts(match.pack))]
        return [(game, game.card_texts(None)) for game in self.games.values()]

    async def lately(self, match_id: int, *, lines: int = LATELY) -> list[str]:
        """The last public lines of a match, oldest first (undone actions left out)."""
        shown: list[str] = []
        for events in await self.records.recent_events(match_id, last=lines):
            shown.extend(e.text for e in saved_events(events) if e.text)
        return shown[-lines:]

    async def repost(self, match_id: int) -> None:
        """Have the match's message (its lobby or board) posted, or brought up to date."""
        await self.outbox.enqueue([outbox.board(match_id)])

    async def set_board_message(self, match_id: int, message_id: int | None) -> None:
        """Remember the message that shows the match."""
        self.records.set_board_message(match_id, message_id)


def _applied_as_is(
    game: Game, state: BaseModel, seat: int, key: str, rng: random.Random
) -> tuple[Action, tuple[BaseModel, list[Event]]] | None:
    """The action a key names, applied, when `apply` accepts it as it is; None when it
    refuses. By the contract `apply` accepts exactly the legal actions (and those of the
    game's `open_kinds` it finds right), so an accepted key needs no legal list worked
    out: that list is for the keys it refuses (typed words, and the refusal's reason)."""
    action = Action.from_key(key)
    try:
        return action, game.apply(state, seat, action, rng)
    except IllegalAction:
        return None
