"""Command of Nature: the bundled card pack.

The pack validates; its box matches the rulebook (four 17-card Sage packs, a
56-card Elemental Market, an 85-card Command Market, three faction actions per
Sage); every one of the 86 cards in ../shared/card-facts is present with its facts;
every card and faction action has generated text; malformed packs are rejected
with errors naming the card and field.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from rules.command_of_nature import GAME
from rules.command_of_nature.cards import (
    BUNDLED_PACK,
    OP_NAMES,
    ChooseOne,
    CommandCard,
    ElementalCard,
    bundled_pack,
    get_pack,
    parse_pack,
    walk_ops,
)
from rules.command_of_nature.text import card_text, faction_action_text, op_text
from rules.core.packs import PackError
from tests.rules.test_command_of_nature_turn import in_phase

FACTS = Path(__file__).resolve().parents[3] / "shared" / "card-facts"
CARDS_CSV = FACTS / "command-of-nature-cards.csv"
ACTIONS_CSV = FACTS / "command-of-nature-faction-actions.csv"


def _facts_rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        pytest.skip(f"card facts not found at {path}")
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _rows(text: str) -> tuple[int, ...]:
    return tuple(int(r) for r in text.split("|")) if text else ()


def test_bundled_pack_validates_and_is_registered():
    pack = bundled_pack()
    assert pack.name == "core"
    assert get_pack("core") is pack
    assert parse_pack(BUNDLED_PACK.read_text(encoding="utf-8")) == pack


def test_four_sage_packs_of_17_cards_with_the_rulebook_composition():
    pack = bundled_pack()
    sages = pack.sages()
    assert sorted(s.name for s in sages) == ["Cedar", "Gravel", "Porella", "Torrent"]
    for sage in sages:
        cards = pack.sage_pack(sage.name)
        assert len(cards) == 17
        kinds = Counter(c.kind for c in cards)
        assert kinds == {"sage": 1, "champion": 3, "basic": 4, "warrior": 3, "command": 6}
        assert sorted(c.champion_level for c in cards if c.kind == "champion") == [4, 6, 8]
        assert len({c.name for c in cards if c.kind == "basic"}) == 1  # 4 copies of one
        types = {c.type for c in cards if isinstance(c, CommandCard)}
        assert types == {"attack", "instant", "utility", "ritual"}
        for card in cards:
            assert card.in_sage_pack
            assert card.faction in (sage.faction, "neutral")


def test_market_decks_hold_56_and_85_cards_and_no_sage_pack_cards():
    pack = bundled_pack()
    elementals = pack.elemental_market()
    commands = pack.command_market()
    assert len(elementals) == 56
    assert len(commands) == 85
    assert all(isinstance(c, ElementalCard) and not c.in_sage_pack for c in elementals)
    assert all(isinstance(c, CommandCard) and not c.in_sage_pack for c in commands)
    assert not any(c.kind in ("sage", "champion") for c in elementals)
    assert "ritual" in {c.type for c in commands}
    assert Counter(c.faction for c in elementals) == {f: 14 for f in FACTIONS_4}


FACTIONS_4 = ("pebble", "droplet", "twig", "leaf")


def test_twelve_faction_actions_at_levels_4_6_8():
    pack = bundled_pack()
    assert len(pack.faction_actions) == 12
    for sage in pack.sages():
        assert [a.level for a in pack.faction_actions_of(sage.name)] == [4, 6, 8]
    facts = _facts_rows(ACTIONS_CSV)
    assert {(r["sage"], int(r["level"])) for r in facts} == {
        (a.sage, a.level) for a in pack.faction_actions
    }


def test_every_facts_card_is_present_with_its_facts():
    pack = bundled_pack()
    facts = _facts_rows(CARDS_CSV)
    assert len(facts) == 86
    for row in facts:
        card = pack.card(row["name"])
        where = row["name"]
        assert card.source == "facts", where
        assert card.faction == row["faction"], where
        assert card.kind == row["kind"], where
        assert card.cost == int(row["cost"]), where
        assert card.in_sage_pack == (row["in_sage_pack"] == "yes"), where
        assert card.rows == _rows(row["rows"]), where
        if isinstance(card, ElementalCard):
            assert card.strength == int(row["str"]), where
            assert card.hp == int(row["hp"]), where
            assert card.daybreak == (row["daybreak"] == "yes"), where
            level = int(row["champion_level"]) if row["champion_level"] else None
            assert card.champion_level == level, where
        else:
            assert card.type == row["subtype"], where
            assert row["str"] == row["hp"] == "", where
    assert sum(c.source == "facts" for c in pack.cards) == 86


def test_project_cards_are_marked_and_fill_the_gaps():
    pack = bundled_pack()
    facts_names = {r["name"] for r in _facts_rows(CARDS_CSV)}
    project = [c for c in pack.cards if c.name not in facts_names]
    assert project
    assert all(c.source == "project" for c in project)
    # the facts have no Rituals or Sage-pack Utilities: those are all ours
    for card in pack.commands():
        if card.type == "ritual" or (card.type == "utility" and card.in_sage_pack):
            assert card.source == "project", card.name
    assert any(c.type == "ritual" and not c.in_sage_pack for c in pack.commands())


def test_every_card_and_faction_action_gets_text():
    pack = bundled_pack()
    for card in pack.cards:
        text = card_text(card)
        assert text and card.name not in ("",), card.name
        assert "None" not in text, (card.name, text)
        if isinstance(card, ElementalCard) and card.kind != "basic":
            assert "No effect" not in text, card.name
    for action in pack.faction_actions:
        text = faction_action_text(action)
        assert text.startswith(f"{action.sage}, level {action.level}")
        assert len(text) > len(f"{action.sage}, level {action.level} (1 AP): ")


def test_every_op_of_the_vocabulary_is_used_and_has_text():
    pack = bundled_pack()
    used: set[str] = set()
    op_lists = [a.ops for a in pack.faction_actions]
    for card in pack.cards:
        if isinstance(card, ElementalCard):
            op_lists += [e.ops for e in card.effects]
        else:
            op_lists += [card.effect, card.after]
    for ops in op_lists:
        for op in walk_ops(ops):
            used.add(op.op)
            if not isinstance(op, ChooseOne):
                assert op_text(op).endswith(".")
    assert used == set(OP_NAMES)


def test_daybreak_flag_matches_effects():
    for card in bundled_pack().elementals():
        assert card.daybreak == any(e.trigger.on == "daybreak" for e in card.effects)


# ------------------------------------------------------------------ malformed packs


def _bundled_text() -> str:
    return BUNDLED_PACK.read_text(encoding="utf-8")


def _broken(old: str, new: str) -> str:
    text = _bundled_text()
    assert old in text, old
    return text.replace(old, new, 1)


def _error(text: str) -> str:
    with pytest.raises(PackError) as info:
        parse_pack(text, "test.toml")
    return str(info.value)


def _edit_card(name: str, old: str, new: str) -> str:
    """The bundled pack with one line changed inside the named card's entry."""
    text = _bundled_text()
    begin = text.index(f'[[cards]]\nname = "{name}"\n')
    end = text.find("\n[[", begin + 1)
    block = text[begin:end]
    assert old in block, (name, old)
    return text[:begin] + block.replace(old, new, 1) + text[end:]


def test_bad_field_value_names_the_card_and_field():
    msg = _error(_edit_card("Rocco", "hp = 3", "hp = 0"))
    assert "'Rocco'" in msg and "hp" in msg


def test_unknown_op_names_the_card_and_field():
    msg = _error(_broken('{ op = "gain_gold", amount = 3 }', '{ op = "gain_mana", amount = 3 }'))
    assert "'Cedar'" in msg and "effects" in msg and "ops" in msg


def test_unknown_field_names_the_card():
    msg = _error(_broken('name = "Wade"', 'name = "Wade"\nspeed = 3'))
    assert "'Wade'" in msg and "speed" in msg


def test_bad_target_names_the_card():
    msg = _error(
        _broken(
            'target = { pick = "up_to", count = 6, side = "enemy" }',
            'target = { pick = "up_to", side = "enemy" }',
        )
    )
    assert "'Elemental Incantation'" in msg and "target" in msg


def test_command_type_mismatch_is_rejected():
    msg = _error(_edit_card("Close Strike", 'type = "attack"', 'type = "utility"'))
    assert "'Close Strike'" in msg and "attack" in msg


def test_daybreak_flag_without_daybreak_effect_is_rejected():
    msg = _error(_broken('name = "Timber"', 'name = "Timber"\ndaybreak = true'))
    assert "'Timber'" in msg


def test_wrong_market_size_is_rejected():
    msg = _error(_edit_card("Wade", "copies = 2", "copies = 3"))
    assert "Elemental Market holds 57" in msg


def test_bad_op_field_names_the_card_and_op():
    msg = _error(_edit_card("Acorn Squire", 'per = "self_str"', 'per = "self_speed"'))
    assert "'Acorn Squire'" in msg and "effects" in msg and "amount" in msg


def test_missing_faction_action_is_rejected():
    text = _bundled_text()
    head, _, tail = text.partition('[[faction_actions]]\nsage = "Torrent"\nlevel = 8')
    assert tail
    msg = _error(head + "# dropped\n" + tail.split("\n", 4)[-1].replace("  {", "# {", 1))
    assert "Torrent" in msg and "faction actions" in msg


def test_duplicate_card_name_is_rejected():
    msg = _error(_broken('name = "Willow"', 'name = "Bruce"'))
    assert "'Bruce' appears twice" in msg


def test_not_toml_is_rejected():
    assert "not valid TOML" in _error("cards = [")


def test_project_cards_carry_the_mark_wherever_players_see_them():
    """Players tell the project's own cards from published ones: a ✦ after the name in
    hands, markets, formations and the discard pile; published cards carry none."""
    state, seat = in_phase("actions")
    pack = bundled_pack()
    by_name = {c.name: c for c in pack.cards}
    view = GAME.view(state, seat)
    shown = [c["name"] for cards in view["hands"].values() for c in cards]
    shown += [c["name"] for market in ("elementals", "commands") for c in view["markets"][market]]
    shown += [e["name"] for side in view["sides"] for row in side["formation"] for e in row if e]
    assert any(name.endswith(" ✦") for name in shown)  # Sage packs hold project cards
    for name in shown:
        card = by_name[name.removesuffix(" ✦")]
        assert name.endswith(" ✦") == (card.source == "project"), name
    assert all(c["text"] for cards in view["hands"].values() for c in cards)
