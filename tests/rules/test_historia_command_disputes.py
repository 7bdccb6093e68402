"""Historia's Ways of Command, rule by rule: disputes, the result, concession and the
words players read (the set-up, activation, the powers, the Era's end and bonuses are
`test_historia_command_rules.py`'s, whose helpers these use).

Ada is seat 0 and the host; she plays the Romans (Territory & Military).
"""

from __future__ import annotations

import json

from rules.core import Action, rng_for
from rules.historia_command import GAME, State
from rules.historia_command.state import CUBES

# --------------------------------------------------------------------------- disputes
from tests.rules.test_historia_command_rules import (
    ADA,
    BASIL,
    CLEO,
    DOV,
    act,
    cubes_whole,
    end_era,
    go,
    keys,
    last_report,
    named,
    new_table,
    refused,
    roman_table,
    said,
    table,
    three_powers,
    to_final,
    turns,
)


def test_a_dispute_pauses_the_match_until_it_is_settled() -> None:
    """Anyone may dispute another's report: the match waits (nothing else is reported)
    for the disputer, until the reporter takes it back or the disputer withdraws."""
    state = go(roman_table(), (BASIL, "territory|add|Crete"))
    number = last_report(state)
    state, text = said(state, CLEO, f"dispute|{number}")
    assert state.phase == "dispute" and GAME.to_act(state) == {CLEO}
    assert f"Cleo disputes report #{number}" in text
    assert "Paused by Cleo's dispute" in refused(state, ADA, "territory|add|Gaul")
    assert "Paused by Cleo's dispute" in refused(state, ADA, "command|military|bank")
    assert "Paused by Cleo's dispute" in refused(state, BASIL, "turn")
    assert keys(state, CLEO) == ["withdraw"] and keys(state, BASIL) == ["retract"]
    assert keys(state, ADA) == []
    assert f"Paused by Cleo's dispute of #{number}" in GAME.view(state, None)["prompt"]


def test_withdrawing_a_dispute_lets_the_report_stand() -> None:
    """The disputer withdraws: the report stands, settled (it can't be disputed again)."""
    state = go(roman_table(), (BASIL, "territory|add|Crete"))
    number = last_report(state)
    state = go(state, (CLEO, f"dispute|{number}"))
    state, text = said(state, CLEO, "withdraw")
    assert state.phase == "era" and "stands" in text
    assert "Crete" in state.civs[BASIL].territories
    assert "it was settled: it stands" in refused(state, ADA, f"dispute|{number}")


def test_retracting_a_report_undoes_it() -> None:
    """The reporter takes a disputed report back: what it changed is undone (a
    territory, a level, cubes, a turn, an activation), and the match goes on."""
    base = roman_table()
    cases = {
        "territory|add|Crete": lambda s: "Crete" not in s.civs[BASIL].territories,
        "level|military|6": lambda s: s.civs[BASIL].levels["military"] == 3,
        "cubes|2|used|map": lambda s: (
            s.civs[BASIL].cubes["used"] == 2 and s.civs[BASIL].cubes["map"] == 0
        ),
        "turn": lambda s: s.turn == 1,
    }
    for key, undone in cases.items():
        state = go(base, (BASIL, key))
        state = go(state, (ADA, f"dispute|{last_report(state)}"))
        state, text = said(state, BASIL, "retract")
        assert undone(state), key
        assert state.phase == "era" and "Basil takes report" in text
        assert state.reports[-1].status == "retracted"
    state = go(base, (ADA, "command|cubes|used|2"))
    state = go(state, (BASIL, f"dispute|{last_report(state)}"), (ADA, "retract"))
    civ = state.civs[ADA]
    assert civ.token.status == "available" and civ.cubes == {
        "supply": 4,
        "bank": 2,
        "used": 2,
        "reserve": 2,
        "map": 0,
    }
    assert state.history[-1].activations == []


def test_an_activation_taken_back_takes_back_what_the_players_word_corrected() -> None:
    """An activation on the player's word is one report: taken back (disputed, or by its
    reporter), the cubes its word counted go back to where Arbiter counted them, and the
    ones it added to the civilization's count are taken off it, said in the line; no
    cube is left behind, made out of nothing."""
    base = table(territories={ADA: 3, BASIL: 2, CLEO: 1}, military={ADA: 2, BASIL: 3}, cubes=False)
    state = go(base, (ADA, "vouch|cubes|reserve|2"))
    assert state.civs[ADA].cubes["supply"] == 11 and state.civs[ADA].added_cubes == 2
    state = go(state, (BASIL, f"dispute|{last_report(state)}"))
    state, text = said(state, ADA, "retract")
    civ = state.civs[ADA]
    assert civ.token.status == "available" and civ.added_cubes == 0
    assert civ.cubes == {"supply": CUBES, "bank": 0, "used": 0, "reserve": 0, "map": 0}
    assert (
        "Romans' Command token is face up again; the cube counted in their reserve on their "
        "word is counted in their personal supply again; the 2 cubes their word added are "
        "off their count."
    ) in text
    cubes_whole(state)
    state = go(base, (ADA, "vouch|military|used"))
    state, text = said(state, ADA, f"retract|{last_report(state)}")
    assert state.civs[ADA].cubes == {"supply": CUBES, "bank": 0, "used": 0, "reserve": 0, "map": 0}
    assert "counted in their personal supply again" in text


def test_a_report_cannot_be_retracted_after_a_later_change_to_the_same_thing() -> None:
    """A report is taken back only while what it set still stands: not a territory lost
    since, a level reported again since, a turn followed by another, nor an activation
    whose cubes have been spent; the disputer may still withdraw."""
    base = roman_table()
    cases = [
        ("territory|add|Crete", "territory|remove|Crete"),
        ("level|military|6", "level|military|7"),
        ("turn", "turn"),
        ("cubes|2|used|map", "cubes|2|map|bank"),
    ]
    for key, later in cases:
        state = go(base, (BASIL, key))
        number = last_report(state)
        state = go(state, (BASIL, later), (ADA, f"dispute|{number}"))
        assert "a later report changed the same thing" in refused(state, BASIL, "retract"), key
        assert GAME.view(state, BASIL)["can_retract"] is False
        state = go(state, (ADA, "withdraw"))
        assert state.phase == "era"
    state = go(base, (ADA, "command|cubes|used|2"))
    number = last_report(state)
    state = go(state, (ADA, "cubes|6|supply|map"), (BASIL, f"dispute|{number}"))
    assert "can't be taken back" in refused(state, ADA, "retract")


def test_a_reporter_takes_back_their_own_report_without_a_dispute() -> None:
    """A reporter who got a report wrong takes it back themselves: what it changed is
    undone and it reads as taken back; only their own recent reports not yet settled,
    and only while what it set still stands."""
    state = go(roman_table(), (BASIL, "territory|add|Crete"))
    number = last_report(state)
    assert f"retract|{number}" in keys(state, BASIL)
    assert f"retract|{number}" not in keys(state, ADA)
    assert f"Report #{number} is Basil's" in refused(state, ADA, f"retract|{number}")
    state, text = said(state, BASIL, f"retract|{number}")
    assert "Crete" not in state.civs[BASIL].territories and state.phase == "era"
    assert state.report(number).status == "retracted"  # type: ignore[union-attr]
    assert f"Basil takes report #{number} back." in text
    assert "taken back already" in refused(state, BASIL, f"retract|{number}")
    assert "no recent report #99" in refused(state, BASIL, "retract|99")
    state = go(state, (BASIL, "level|military|6"), (BASIL, "level|military|7"))
    assert "a later report changed the same thing" in refused(
        state, BASIL, f"retract|{last_report(state) - 1}"
    )
    state = go(state, (ADA, f"dispute|{last_report(state)}"))
    assert "Paused by " in refused(state, CLEO, f"retract|{last_report(state) - 3}")


def test_an_activation_that_rested_on_a_report_taken_back_is_undone() -> None:
    """Taking back a report checks again every activation made after it: the Romans,
    alone first in Territory only by the territory taken back, are tied for first
    without it, so their activation is taken back too (its cube returned) and the line
    says why; an activation that still stands on its own is said to stand."""
    base = table(territories={ADA: 2, BASIL: 2, CLEO: 1}, military={ADA: 2, BASIL: 3, CLEO: 1})
    state = go(base, (ADA, "territory|add|Gaul"))
    number = last_report(state)
    state = go(state, (ADA, "command|military|bank"))
    activation = last_report(state)
    state = go(state, (BASIL, f"dispute|{number}"))
    state, text = said(state, ADA, "retract")
    civ = state.civs[ADA]
    assert civ.token.status == "available" and civ.cubes["bank"] == 2
    assert state.report(activation).status == "retracted"  # type: ignore[union-attr]
    assert (
        f"Romans' activation (#{activation}) is checked again without report #{number}: "
        "it is taken back (tied for first in Territory with Greeks (2)"
    ) in text
    assert "Romans' Military is back to 2" in text and "face up again" in text
    cubes_whole(state)
    # Taken back by its reporter, the same, judged as the activation was made: a later
    # report that would make the Romans first today doesn't save it.
    state = go(base, (ADA, "territory|add|Iberia"))
    number = last_report(state)
    state = go(state, (ADA, "command|military|bank"), (BASIL, "territory|remove|Greeks 2"))
    state, text = said(state, ADA, f"retract|{number}")
    assert state.civs[ADA].token.status == "available"
    assert "is checked again without report" in text and "it is taken back (tied" in text


def test_an_activation_is_judged_as_it_was_made_not_on_later_standings() -> None:
    """Taking back an earlier report checks an activation made after it at the moment it
    was made, without that report: the Romans, first in Territory (3 to 2) when they
    activated, keep their activation when Carthage's unrelated earlier report is taken
    back, though a later legitimate report has tied the Greeks with them since."""
    state = go(roman_table(), (CLEO, "territory|add|Sicily"))
    number = last_report(state)
    state = go(
        state,
        (ADA, "command|military|bank"),
        (BASIL, "territory|add|Thrace"),  # the Greeks tie the Romans (3 each) after it
    )
    state, text = said(state, CLEO, f"retract|{number}")
    assert state.civs[ADA].token.status == "active"
    assert "is checked again without report" in text and "it stands (first in Territory)" in text
    cubes_whole(state)


def test_only_the_disputer_withdraws_and_only_the_reporter_retracts() -> None:
    """The one who raised the dispute withdraws it; the one who made the report takes
    it back; nobody else settles it."""
    state = go(roman_table(), (BASIL, "territory|add|Crete"))
    state = go(state, (ADA, f"dispute|{last_report(state)}"))
    assert "Only Ada, who raised the dispute" in refused(state, CLEO, "withdraw")
    assert "Only Ada, who raised the dispute" in refused(state, BASIL, "withdraw")
    assert "Only Basil, who made the report" in refused(state, ADA, "retract")
    assert "Only Basil, who made the report" in refused(state, CLEO, "retract")
    assert "No dispute is open" in refused(roman_table(), ADA, "withdraw")


def test_reports_are_numbered_once_for_the_whole_game() -> None:
    """One numbering for the whole game: the first report of an Era follows the last of
    the Era before (the Era's reports themselves can no longer be disputed)."""
    state = go(roman_table(), (ADA, "territory|add|Gaul"))
    last = last_report(state)
    state, _ = end_era(state)
    assert state.era == 2 and state.reports == []
    state, text = said(state, BASIL, "level|military|4")
    assert text.startswith(f"`#{last + 4}` ")  # after the 3 turns reported
    assert last_report(state) == state.reported == last + 4


def test_a_match_saved_before_one_numbering_numbers_on_from_its_latest_report() -> None:
    """A match saved before reports were numbered once for the game (its state has no
    count of reports) loads with its latest report's number, so its next report
    follows it and its log replays to the same state."""
    state = go(roman_table(), (ADA, "territory|add|Gaul"))
    saved = json.loads(state.model_dump_json())
    del saved["reported"]
    old = State.model_validate_json(json.dumps(saved))
    assert old == state and old.reported == last_report(state)
    old, text = said(old, BASIL, "level|military|4")
    assert text.startswith(f"`#{last_report(state) + 1}` ")


def test_only_another_players_recent_unsettled_report_is_disputed() -> None:
    """Your own report is corrected by another report, not disputed; only the latest
    five can be; the end of the Era closes the Era's reports."""
    state = go(roman_table(), (BASIL, "territory|add|Crete"))
    number = last_report(state)
    assert f"Report #{number} is yours: if it is wrong, take it back" in refused(
        state, BASIL, f"dispute|{number}"
    )
    assert "no recent report #99" in refused(state, ADA, "dispute|99")
    for n in range(1, 6):
        state = go(state, (CLEO, f"territory|add|Babylon {n}"))
    assert "only the latest few reports" in refused(state, ADA, f"dispute|{number}")
    assert f"dispute|{number + 5}" in keys(state, ADA)
    state, _ = end_era(state)
    assert state.reports == [] and not any(k.startswith("dispute|") for k in keys(state, ADA))
    assert "no recent report" in refused(state, ADA, f"dispute|{number + 5}")


# --------------------------------------------------------------------------- the result


def test_after_the_last_era_the_table_reports_the_winner_and_everyone_agrees() -> None:
    """After Era III the table scores Historia itself: a player reports the winner, each
    other player agrees, and then the match is over."""
    state = to_final(roman_table())
    assert "report who won" in GAME.view(state, None)["prompt"]
    assert GAME.to_act(state) == set()
    assert "No result has been reported yet" in refused(state, BASIL, "agree")
    state, text = said(state, ADA, "result|1")
    assert "Ada reports that Greeks (Basil) won" in text
    assert GAME.to_act(state) == {BASIL, CLEO}
    assert "has reported a result already" in refused(state, CLEO, "result|2")
    assert "agreed to this result already" in refused(state, ADA, "agree")
    state = go(state, (BASIL, "agree"))
    assert GAME.outcome(state) is None and GAME.to_act(state) == {CLEO}
    state, text = said(state, CLEO, "agree")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == [BASIL] and outcome.losers == [ADA, CLEO]
    assert outcome.text == "The table agrees: Greeks won (Basil)." and outcome.reason == "reported"
    assert "This game is over" in refused(state, ADA, "agree")


def test_a_shared_win_is_reported_and_agreed() -> None:
    """The table's score may end level: the winners reported together share the win once
    every other player agrees; each winner is named once."""
    state = to_final(roman_table())
    assert "result|0|2" in keys(state, BASIL) and "result|0|1|2" in keys(state, BASIL)
    state, text = said(state, BASIL, "result|0|2")
    assert "Basil reports that Romans and Persians (Ada, Cleo) share the win" in text
    state = go(state, (ADA, "agree"), (CLEO, "agree"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == [ADA, CLEO] and outcome.losers == [BASIL]
    assert outcome.text == "The table agrees: Romans and Persians won (Ada, Cleo)."
    final = to_final(roman_table())
    assert "each winner once, in seat order" in refused(final, ADA, "result|2|0")
    assert "each winner once, in seat order" in refused(final, ADA, "result|0|0")


def test_an_objection_drops_the_result_reported() -> None:
    """One objection and the result is reported again."""
    state = go(to_final(roman_table()), (ADA, "result|0"))
    state, text = said(state, CLEO, "object")
    assert state.proposal is None and state.phase == "final" and "Cleo objects" in text
    state = go(state, (CLEO, "result|2"), (ADA, "agree"), (BASIL, "agree"))
    assert GAME.outcome(state).winners == [CLEO]  # type: ignore[union-attr]


def test_the_result_is_reported_only_after_the_last_era() -> None:
    """Before Era III ends there is no result to report; a conceded player can't be
    reported the winner."""
    assert "once the last Era has ended" in refused(roman_table(), ADA, "result|0")
    state, _ = GAME.concede(to_final(roman_table()), CLEO, rng_for(0, 1))
    assert "Cleo has conceded" in refused(state, ADA, "result|2")


# --------------------------------------------------------------------------- concession


def test_a_concession_of_one_of_two_leaves_the_other_the_winner() -> None:
    """A player may concede at any moment: the last player left wins."""
    for state in (new_table(2), table(2), to_final(table(2))):
        state, events = GAME.concede(state, ADA, rng_for(0, 1))
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome.winners == [BASIL] and outcome.losers == [ADA]
        assert outcome.reason == "concession" and "Basil wins" in outcome.text
        assert any("Ada concedes" in e.text for e in events)


def test_with_three_the_others_play_on_without_the_conceded_civilization() -> None:
    """With more players the others play on; the conceded player does nothing more and
    their active token leaves the game with its cube returned."""
    state = go(roman_table(), (ADA, "command|military|bank"))
    state, _ = GAME.concede(state, ADA, rng_for(0, 1))
    assert GAME.outcome(state) is None and state.phase == "era"
    assert keys(state, ADA) == [] and GAME.question(state, ADA) is None
    assert "You have conceded" in refused(state, ADA, "turn")
    assert state.civs[ADA].token.status == "removed"
    cubes_whole(state)
    state, events = GAME.concede(state, ADA, rng_for(0, 2))
    assert events == [], "conceding twice changes nothing"


def test_a_dispute_ends_when_its_disputer_or_reporter_concedes() -> None:
    """A dispute lapses with the player who raised it or made the report: the report
    stands and the match goes on; another player's concession leaves it open."""
    for who in (BASIL, CLEO):
        state = go(table(4, military={BASIL: 2}), (BASIL, "territory|add|Crete"))
        state = go(state, (CLEO, f"dispute|{last_report(state)}"))
        state, events = GAME.concede(state, who, rng_for(0, 1))
        assert state.phase == "era" and state.dispute is None
        assert state.reports[-1].status == "stands"
        assert any("ends with it" in e.text for e in events)
    state = go(table(4), (BASIL, "territory|add|Crete"))
    state = go(state, (CLEO, f"dispute|{last_report(state)}"))
    state, _ = GAME.concede(state, DOV, rng_for(0, 1))
    assert state.phase == "dispute"


def test_a_concession_completes_the_agreement_or_drops_the_winner() -> None:
    """In the final phase, a concession by the last player to agree closes the match;
    by the player reported the winner, drops the result."""
    state = go(to_final(table(4)), (ADA, "result|1"), (BASIL, "agree"), (CLEO, "agree"))
    state, _ = GAME.concede(state, DOV, rng_for(0, 1))
    assert GAME.outcome(state).winners == [BASIL]  # type: ignore[union-attr]
    state = go(to_final(table(4)), (ADA, "result|1"))
    state, _ = GAME.concede(state, BASIL, rng_for(0, 1))
    assert state.proposal is None and state.phase == "final"


# --------------------------------------------------------------------------- words


def positions() -> list[State]:
    """A position of every kind: set-up (partly and fully named), an Era with tokens
    to activate, one active, a dispute, the final phase with and without a result, a
    concession, the end, an Era's end waiting for the table."""
    out = [new_table(3), go(new_table(3), (ADA, "civ|Romans")), named(3), roman_table()]
    out.append(three_powers())
    disputed = go(roman_table(), (BASIL, "level|military|6"))
    out.append(go(disputed, (ADA, f"dispute|{last_report(disputed)}")))
    final = to_final(roman_table())
    out += [final, go(final, (ADA, "result|2"))]
    out.append(GAME.concede(roman_table(), CLEO, rng_for(0, 1))[0])
    out.append(go(final, (ADA, "result|2"), (BASIL, "agree"), (CLEO, "agree")))
    out.append(GAME.concede(table(2), BASIL, rng_for(0, 1))[0])
    out.append(table(6, territories={ADA: 2, BASIL: 2}, military={CLEO: 3}))
    out.append(go(turns(three_powers()), (BASIL, "era"), (CLEO, "agree")))  # the Era ending
    return out


def test_a_refused_action_changes_nothing_and_says_why() -> None:
    """Everything a seat might try (`candidates`) that isn't legal is refused with a
    sentence, and the position is left as it was; what is legal is accepted."""
    for state in positions():
        for seat in range(len(state.civs)):
            legal = set(keys(state, seat))
            for action in GAME.candidates(state, seat):
                if action.key in legal:
                    act(state, seat, action.key)
                else:
                    refused(state, seat, action.key)


def test_labels_are_unique_among_a_seats_legal_actions() -> None:
    """No two of a seat's choices read alike."""
    for state in positions():
        for seat in range(len(state.civs)):
            labels = [GAME.describe(a, state) for a in GAME.legal_actions(state, seat)]
            assert len(set(labels)) == len(labels), labels
            assert all(0 < len(label) <= 100 for label in labels)
            for action in GAME.legal_actions(state, seat):
                GAME.explain(action, state, seat)


def test_a_seat_waited_for_is_asked_in_the_second_person_and_has_a_timeout() -> None:
    """Each seat the table waits for is asked what to do, addressed to them, and has a
    timeout action it may take; the others are asked nothing."""
    for state in positions():
        waiting = GAME.to_act(state)
        for seat in range(len(state.civs)):
            asked = GAME.question(state, seat)
            assert (asked is not None) == (seat in waiting), (state.phase, seat, asked)
            if asked is None:
                continue
            assert " you" in f" {asked}" or "your" in asked, asked
            assert GAME.timeout_action(state, seat) in GAME.legal_actions(state, seat) or (
                GAME.timeout_action(state, seat).kind in GAME.open_kinds
            )
            act(state, seat, GAME.timeout_action(state, seat).key)  # accepted


def test_the_prompt_says_where_the_table_is() -> None:
    """The board's headline: the set-up waiting for names or for the host, the Era and
    turn, a dispute, the result awaited, the end."""
    prompts = [GAME.view(state, None)["prompt"] for state in positions()]
    assert prompts[0] == "Set-up — waiting for Ada, Basil, Cleo to name a civilization"
    assert prompts[2] == "Set-up — Ada begins Era I"
    assert prompts[3] == "Era I, turn 1 of 4 — report changes as you play"
    assert prompts[5].startswith("Paused by Ada's dispute of #19: ")
    assert prompts[7] == "Result reported — waiting for Basil, Cleo to agree"
    assert prompts[9] == "The table agrees: Persians won (Cleo)."
    assert prompts[-1] == (
        "The end of Era I waits for Ada to agree or object (`/historia agree`, `/historia object`)."
    )


def test_the_view_never_fails_and_is_json() -> None:
    """Every position's view, public and each seat's, serialises to JSON."""
    for state in positions():
        for seat in (None, *range(len(state.civs))):
            json.dumps(GAME.view(state, seat))


def test_the_view_says_who_may_activate_and_why_not() -> None:
    """Each civilization's token shows whether it may be activated, through which
    category, or why not."""
    civs = GAME.view(roman_table(), BASIL)["civs"]
    assert civs[ADA]["token"]["eligible"] and civs[ADA]["token"]["by"] == "Territory"
    assert not civs[CLEO]["token"]["eligible"]
    why = civs[CLEO]["token"]["why_not"]
    assert why == (
        "tied for first in Technology with Romans and Greeks (0); not first in Territory "
        "(1; Romans 3)"
    )


def test_any_open_key_is_labelled_without_failing() -> None:
    """A player's own words are labelled before they are checked: words that don't read
    as a report are labelled by their key."""
    state = roman_table()
    for key in (
        "level|speed|3",
        "cubes|x|supply|bank",
        "cubes|0|supply|bank",
        "territory|add",
        "civ",
    ):
        assert GAME.describe(Action.from_key(key), state) == key
    assert GAME.describe(Action.from_key("cubes|2|supply|bank"), state) == (
        "Move 2 cubes from your personal supply to the Bank"
    )
    assert GAME.describe(Action.from_key("level|military|4"), state) == "Military level 4"


def test_a_seat_not_at_the_table_is_refused() -> None:
    """Only the table's seats act (a negative seat is not the last one)."""
    state = roman_table()
    for seat in (-1, 3, 99):
        assert "don't have a seat at this table" in refused(state, seat, "turn")
        assert GAME.legal_actions(state, seat) == []


def test_reports_check_their_words() -> None:
    """A report names a known track and place, a whole number in range, and changes
    something."""
    state = roman_table()
    assert "Military or Technology" in refused(state, ADA, "level|gold|3")
    assert "from 0 to 30" in refused(state, ADA, "level|military|31")
    assert "from 0 to 30" in refused(state, ADA, "level|military|-1")
    assert "from 0 to 30" in refused(state, ADA, "level|military|02")
    assert "level is 2 already" in refused(state, ADA, "level|military|2")
    assert "Cubes are in one of" in refused(state, ADA, "cubes|1|supply|pocket")
    assert "from one place to another" in refused(state, ADA, "cubes|1|bank|bank")
    assert refused(state, ADA, "cubes|3|bank|map") == (
        "Arbiter counts 2 cubes of yours in the Bank: if your table has more there, first "
        "report the move that put them there."
    )
    assert "from 1 to 10" in refused(state, ADA, "cubes|0|bank|map")
    assert "hold Romans 1 already" in refused(state, ADA, "territory|add|romans 1")
    assert "don't hold Gaul" in refused(state, ADA, "territory|remove|Gaul")
    assert "added or removed" in refused(state, ADA, "territory|swap|Gaul")
    state = go(state, (BASIL, "territory|add|romans 1"))
    assert state.civs[BASIL].territories[-1] == "Romans 1", "a known territory keeps its name"


def test_the_result_is_acknowledged_as_what_the_player_did() -> None:
    """What a player reads after reporting, agreeing with or objecting to the result: what
    they did, not the menu's label ("Romans (Ada) won")."""
    final = to_final(roman_table())
    assert GAME.acknowledge(Action.from_key("result|0"), final, BASIL) == (
        "You reported that Romans won: the others are asked to agree."
    )
    assert GAME.acknowledge(Action.from_key("result|0|2"), final, BASIL) == (
        "You reported a shared win for Romans and Persians: the others are asked to agree."
    )
    reported = go(final, (ADA, "result|0"))
    assert GAME.acknowledge(Action.from_key("agree"), reported, BASIL) == (
        "You agreed with the result."
    )
    assert GAME.acknowledge(Action.from_key("object"), reported, BASIL) == (
        "You objected to the result: it is reported again."
    )
