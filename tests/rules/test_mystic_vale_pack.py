"""Mystic Vale (Nemesis): the bundled card pack.

The pack validates and is registered; its box matches the rulebook's "Components"
(108 advancements 33/36/27/12, 36 vales 18/18, 8 leaders, all titans) plus the 18
Fertile Soils; every card the rulebook names ("Card Clarifications", "Rituals") is
present with its clarified ability; every card has generated text; every op and
special rule is used; project cards are marked; malformed packs are rejected with
errors naming the card and field.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from statistics import mean

import pytest

from rules.core.packs import PackError
from rules.mystic_vale.cards import (
    BUNDLED_PACK,
    NEMESIS_ADVANCEMENTS,
    NEMESIS_LEADERS,
    NEMESIS_VALES,
    OP_NAMES,
    SLOTS,
    SPECIALS,
    Ability,
    Advancement,
    Cost,
    Leader,
    NemesisCard,
    Pack,
    Per,
    Special,
    Symbols,
    Vale,
    bundled_pack,
    get_pack,
    parse_pack,
)
from rules.mystic_vale.text import (
    ability_text,
    card_text,
    cost_text,
    op_text,
    side_text,
    symbols_text,
)

# Every card the Nemesis rulebook names (Card Clarifications; Rituals; Leaders).
RULEBOOK_ADVANCEMENTS = {
    "Avatar of the Soulless God",
    "Bramble Tumbleworld",
    "Executioner",
    "Fairy Dance",
    "Gargoyle Summoner",
    "Life Warden Legate",
    "Murkwater Stalker",
    "Nightvale Agent",
    "Park Gardener",
    "Scout",
    "Tribal Warlord",
    "Vale Vanguard",
    "Beastbrother Ambassador",
    "Gaia's Avengers",
    "Dawnseeker Emissary",
    "Waveguard Envoy",
    "Radiant Plexus",
}
RULEBOOK_VALES = {
    "Celestial Observatory",
    "Corrupted World Tree",
    "Earthbound Titan Forge",
    "Hunter's Hall",
    "Sacrosanct Nests",
    "Sapling Sanctuary",
    "Three Sisters",
}
RULEBOOK_LEADERS = {
    "Hailburst Titan",
    "Magmaborn Titan",
    "Manablood Titan",
    "Oakenstride Titan",
    "Shardlord",
    "Stormbrew Titan",
    "Tidal Wave Titan",
}
# The nemesis cards ("Nemesis Victory Tracker"): names a project card must not take.
NEMESIS_CARDS = {
    "Plague Scarabs",
    "Soulbane",
    "Blight Troll",
    "Wicker Construct",
    "Tormented Berserker",
    "Fallen Druid",
    "Abomination",
    "Corrupted Centaur",
    "Scourge Satyr",
    "Blighted Dragon",
    "Brood Queen",
    "Curseborn Dryad",
    "Watcher in the Wood",
}
FERTILE_SOILS = {"Fertile Soil (top)", "Fertile Soil (middle)", "Fertile Soil (bottom)"}

Card = Advancement | Vale | Leader | NemesisCard


@cache
def _pack() -> Pack:
    return bundled_pack()


def _cards() -> list[Card]:
    pack = _pack()
    return [*pack.advancements, *pack.vales, *pack.leaders, *pack.nemeses]


def _abilities(card: Card) -> tuple[Ability, ...]:
    if isinstance(card, Leader):
        return (*card.start.abilities, *card.upgraded.abilities)
    return card.abilities


def _deck(level: int) -> list[Advancement]:
    """The level's advancements of the Nemesis box (Fertile Soils apart)."""
    return [a for a in _pack().advancements if a.level == level and not a.fertile_soil]


def _only(ability: Ability) -> dict:
    """An ability's single op, as data."""
    assert len(ability.ops) == 1
    return ability.ops[0].model_dump()


def _special(ability: Ability) -> str:
    op = _only(ability)
    assert op["op"] == "special"
    return op["name"]


# ------------------------------------------------------------------ the pack and its box


def test_bundled_pack_validates_and_is_registered():
    pack = bundled_pack()
    assert pack.name == "nemesis"
    assert get_pack("nemesis") == pack
    assert get_pack("nemesis") is get_pack("nemesis")
    assert parse_pack(BUNDLED_PACK.read_text(encoding="utf-8")) == pack


def test_nemesis_advancements_are_108_by_level():
    """Components: 108 advancements, 33 level 1, 36 level 2, 27 level 3, 12 level 4."""
    counts = {level: sum(a.copies for a in _deck(level)) for level in (1, 2, 3, 4)}
    assert counts == NEMESIS_ADVANCEMENTS == {1: 33, 2: 36, 3: 27, 4: 12}
    assert sum(counts.values()) == 108


def test_copies_are_one_to_three_and_level_4_cards_are_distinct():
    for level in (1, 2, 3, 4):
        for card in _deck(level):
            assert 1 <= card.copies <= 3, card.name
    assert all(a.copies == 1 for a in _deck(4))
    assert len(_deck(4)) == 12


def test_vales_are_36_by_level():
    """Components: 36 vale cards, 18 level 1 and 18 level 2."""
    counts = Counter()
    for vale in _pack().vales:
        counts[vale.level] += vale.copies
    assert counts == NEMESIS_VALES == {1: 18, 2: 18}


def test_eight_leaders_all_titans():
    """Components: 8 leader cards; Leaders: Nemesis's leaders are titans."""
    leaders = _pack().leaders
    assert len(leaders) == NEMESIS_LEADERS == 8
    assert all(leader.titan for leader in leaders)
    assert {leader.name for leader in leaders} >= RULEBOOK_LEADERS
    project = [leader for leader in leaders if leader.name not in RULEBOOK_LEADERS]
    assert len(project) == 1 and project[0].source == "project"


def test_eighteen_fertile_soils_six_per_slot():
    soils = [a for a in _pack().advancements if a.fertile_soil]
    assert {a.name for a in soils} == FERTILE_SOILS
    per_slot = Counter()
    for soil in soils:
        per_slot[soil.slot] += soil.copies
        assert soil.level == 1
        assert soil.cost == Cost(mana=2)
        assert soil.symbols == Symbols(mana=1)
        assert soil.source == "nemesis"  # used in Nemesis-alone games too
        assert not soil.abilities and soil.ritual is None and not soil.eclipse
    assert per_slot == {"top": 6, "middle": 6, "bottom": 6}


def test_the_pack_holds_no_base_game_cards_so_only_the_nemesis_mix():
    assert not any(c.source == "base" for c in _cards())
    assert _pack().mixes() == ["nemesis"]


def test_every_level_has_all_three_slots_well_represented():
    for level in (1, 2, 3, 4):
        cards = _deck(level)
        total = sum(a.copies for a in cards)
        per_slot = Counter()
        for card in cards:
            per_slot[card.slot] += card.copies
        assert set(per_slot) == set(SLOTS), level
        assert min(per_slot.values()) * 4 >= total, (level, per_slot)


def test_costs_rise_with_level_on_average():
    def weight(cost: Cost) -> int:
        return sum(cost.counts().values())

    averages = []
    for level in (1, 2, 3, 4):
        costs = [weight(a.cost) for a in _deck(level) for _ in range(a.copies)]
        averages.append(mean(costs))
    assert averages == sorted(averages) and len(set(averages)) == 4, averages
    assert 2 <= averages[0] <= 4  # level-1 costs around 2 to 4 mana
    vales = {lvl: mean(weight(v.cost) for v in _pack().vales if v.level == lvl) for lvl in (1, 2)}
    assert vales[1] < vales[2]
    for vale in _pack().vales:  # vales are bought with spirits
        assert any(vale.cost.counts().get(s) for s in ("sky", "animal", "water", "plant"))


def test_level_1_mana_costs_stay_small_and_level_4_is_the_priciest():
    assert all(a.cost.mana <= 4 for a in _deck(1))
    cheapest_4 = min(a.cost.mana + a.cost.counts().get("water", 0) for a in _deck(4))
    assert cheapest_4 > max(a.cost.mana for a in _deck(2))


def test_names_are_short_and_unique():
    names = [c.name for c in _cards()]
    assert len(names) == len(set(names))
    assert all(len(n) <= 40 for n in names)


def test_project_cards_are_marked_and_take_no_rulebook_name():
    named = RULEBOOK_ADVANCEMENTS | RULEBOOK_VALES | RULEBOOK_LEADERS | FERTILE_SOILS
    for card in _cards():
        if isinstance(card, NemesisCard):
            continue  # the thirteen nemeses: see the test below
        if card.name in named:
            assert card.source == "nemesis", card.name
        else:
            assert card.source == "project", card.name
            assert card.shown_name.endswith(" ✦")
            assert card.name not in NEMESIS_CARDS
            for name in named - FERTILE_SOILS:  # never a rulebook name, even inside
                assert name not in card.name, card.name
    present = {c.name for c in _cards()}
    assert named <= present


def test_the_thirteen_nemeses_are_the_rulebooks_the_five_clarified_as_clarified():
    """The rulebook names thirteen nemeses and clarifies five: those keep the rulebook's
    abilities (source "nemesis"); the other eight are the project's design (marked ✦)."""
    nemeses = {n.name: n for n in _pack().nemeses}
    assert set(nemeses) == set(NEMESIS_CARDS)
    clarified = {"Abomination", "Blight Troll", "Corrupted Centaur", "Curseborn Dryad"}
    clarified.add("Tormented Berserker")
    for name, nemesis in nemeses.items():
        assert nemesis.source == ("nemesis" if name in clarified else "project"), name
        assert nemesis.shown_name.endswith(" ✦") == (name not in clarified)


def test_specials_belong_to_rulebook_cards_only():
    """The specials are the rulebook cards' own rules; project cards use general ops."""
    for card in _cards():
        specials = [op for a in _abilities(card) for op in a.ops if op.op == "special"]
        if card.source == "project":
            assert not specials, card.name


def test_every_op_and_every_special_is_used_and_has_text():
    used_ops: set[str] = set()
    used_specials: set[str] = set()
    for card in _cards():
        for ability in _abilities(card):
            assert ability_text(ability).endswith(".")
            for op in ability.ops:
                used_ops.add(op.op)
                if op.op == "special":
                    used_specials.add(op.name)
                text = op_text(op)
                assert len(text) > 2 and text.endswith(".") and text[:1] == text[:1].upper()
    assert used_ops == set(OP_NAMES)
    assert used_specials == set(SPECIALS)


def test_the_vocabulary_is_exercised_across_the_pack():
    """The brief's mechanics all appear: curse symbols on advancements and leaders,
    eclipse at several levels, alternative costs, sacrifice costs, Reserve, negative end
    VP, rituals, growth and decay, every Per count."""
    advs = [a for a in _pack().advancements if not a.fertile_soil]
    assert any(a.symbols.curse for a in advs)
    assert any(leader.start.symbols.curse for leader in _pack().leaders)
    assert len({a.level for a in advs if a.eclipse}) >= 3
    assert any(a.cost.vp for a in advs) and any(a.cost.curse for a in advs)
    assert any(set(a.cost.counts()) - {"mana"} - {"vp", "curse"} for a in advs)  # spirits
    sacrifices = {a.sacrifice for c in _cards() for a in _abilities(c)}
    assert {"advancement", "vale", "self"} <= sacrifices
    assert any(a.symbols.end_vp < 0 for a in advs)
    assert any(v.symbols.end_vp < 0 for v in _pack().vales)
    assert sum(a.ritual is not None for a in advs) >= 6
    assert sum(a.symbols.growth > 0 for a in advs) >= 8
    assert sum(a.symbols.decay > 0 for a in advs) >= 8
    assert any(a.symbols.vp for a in advs) and any(a.symbols.guardian for a in advs)
    pers: set[tuple[str, str]] = set()
    for card in _cards():
        for ability in _abilities(card):
            for op in ability.ops:
                per = getattr(op, "per", None)
                if per is not None:
                    pers.add((per.count, per.where))
    assert {("vales", "field"), ("curses", "field")} <= pers
    assert {("symbol", "card"), ("symbol", "field")} <= pers
    spirits = {
        s for a in advs for s in ("sky", "animal", "water", "plant") if a.symbols.counts().get(s)
    }
    assert spirits == {"sky", "animal", "water", "plant"}


def test_strong_cards_carry_a_drawback():
    """Every level-4 card without a rulebook ability pays for its power: decay, curse
    symbols, negative end VP, a curse or spirit cost, or an eclipse that may be covered."""
    for card in _deck(4):
        if card.source != "project":
            continue
        s = card.symbols
        drawback = s.decay or s.curse or s.end_vp < 0 or card.eclipse
        drawback = drawback or set(card.cost.counts()) != {"mana"} or card.cost.mana >= 10
        assert drawback, card.name


# ------------------------------------------------------------------ text


def test_every_card_has_short_text():
    for card in _cards():
        text = card_text(card)
        assert text and "None" not in text, card.name
        assert "  " not in text and ".." not in text, (card.name, text)
        lines = text.split("\n")
        assert len(lines) == (2 if isinstance(card, Leader) else 1), card.name
        for line in lines:
            assert len(line) <= 250, (card.name, len(line), line)


def test_text_uses_one_notation():
    assert symbols_text(Symbols(mana=2, decay=1, sky=1)) == "2 mana · 1 decay · 1 sky"
    assert symbols_text(Symbols(guardian=2, curse=1, end_vp=-2)) == (
        "2 guardians · 1 curse · -2 end VP"
    )
    assert symbols_text(Symbols()) == ""
    assert cost_text(Cost(mana=4, vp=2)) == "4 mana · 2 VP"
    assert cost_text(Cost()) == "free"
    envoy = card_text(_pack().advancement("Waveguard Envoy"))
    assert envoy == (
        "Advancement, level 2, middle slot. Cost 5 mana. Shows 1 water. "
        "Harvest: gain 2 mana per guardian on this card."
    )


def test_ritual_eclipse_and_abilities_are_spelled_out():
    dawn = card_text(_pack().advancement("Dawnseeker Emissary"))
    assert "Ritual: if this card shows 1 guardian, then also 1 mana · 1 guardian." in dawn
    assert "Eclipse:" in card_text(_pack().advancement("Thornbriar Hedge"))
    fairy = card_text(_pack().advancement("Fairy Dance"))
    assert "When played: you may discard your rightmost or second-rightmost" in fairy
    hall = card_text(_pack().vale("Hunter's Hall"))
    assert "When you Spoil: you may sacrifice this card to take another turn" in hall
    confluence = card_text(_pack().advancement("Fourwinds Confluence"))
    assert "Harvest: you may pay 3 mana to gain 2 VP." in confluence
    gardener = card_text(_pack().advancement("Park Gardener"))
    assert "(not the turn you buy it)" in gardener


def test_specials_are_described_by_their_specials_text():
    warlord = card_text(_pack().advancement("Tribal Warlord"))
    assert SPECIALS["tribal_warlord"].split(": ", 1)[1] in warlord
    magma = _pack().leader("Magmaborn Titan")
    start = side_text(magma, upgraded=False)
    assert "you may spend 1 mana to put it at the bottom of your deck" in start
    assert "pay 1 mana" not in start  # the special names what it spends
    upgraded = side_text(magma, upgraded=True)
    assert "you may spend 1 VP to put a card of your field" in upgraded


def test_you_may_follows_the_condition_a_rule_opens_with():
    shardlord = side_text(_pack().leader("Shardlord"), upgraded=True)
    assert "Harvest: with a blank card in your field, you may sleeve it into" in shardlord
    optional = Ability(
        when="bought", optional=True, ops=(Special(op="special", name="titan_forge"),)
    )
    assert ability_text(optional).startswith("When bought: with 6+ curse tokens, you may spend 1")


def test_leader_text_shows_both_sides():
    oak = _pack().leader("Oakenstride Titan")
    first, second = card_text(oak).split("\n")
    assert first == side_text(oak, upgraded=False)
    assert second == side_text(oak, upgraded=True)
    assert first.startswith("Titan, starting side. Upgrade 5 sky (each VP spent stands")
    assert second.startswith("Titan, upgraded, beside your play area.")
    assert "Before you push: you may discard your on-deck card." in second


def test_card_text_is_cached_by_card_id_per_card_object():
    scout = _pack().advancement("Scout")
    assert card_text(scout) is card_text(scout)
    other = scout.model_copy(update={"symbols": Symbols(water=3)})
    assert other.id == scout.id
    assert "3 water" in card_text(other)  # a different card with the same id
    assert "3 water" not in card_text(scout)


# ------------------------------------------------------------------ the rulebook's cards


def test_avatar_of_the_soulless_god():
    card = _pack().advancement("Avatar of the Soulless God")
    assert card.level == 3 and card.min_players == 3
    (ability,) = card.abilities
    assert ability.when == "end" and _special(ability) == "avatar_shared_win"


def test_bramble_tumbleworld():
    (ability,) = _pack().advancement("Bramble Tumbleworld").abilities
    assert ability.when == "end" and _special(ability) == "worth_total"


def test_executioner():
    (ability,) = _pack().advancement("Executioner").abilities
    assert ability.when == "harvest" and _only(ability) == {"op": "extra_turn"}


def test_fairy_dance():
    (ability,) = _pack().advancement("Fairy Dance").abilities
    assert ability.when == "played" and ability.optional
    assert _only(ability) == {"op": "discard_field", "which": "rightmost_two"}


def test_gargoyle_summoner():
    (ability,) = _pack().advancement("Gargoyle Summoner").abilities
    assert ability.when == "bought" and _special(ability) == "gargoyle_summoner"


def test_life_warden_legate():
    (ability,) = _pack().advancement("Life Warden Legate").abilities
    assert ability.when == "discard" and ability.optional
    assert _only(ability) == {"op": "stay"}


def test_murkwater_stalker():
    (ability,) = _pack().advancement("Murkwater Stalker").abilities
    assert ability.when == "played" and _only(ability) == {"op": "search", "max_cost": 6}


def test_nightvale_agent():
    (ability,) = _pack().advancement("Nightvale Agent").abilities
    assert ability.when == "end" and _special(ability) == "final_harvest"


def test_park_gardener():
    """Unusable the turn it is bought (its only clarification); the ability is ours."""
    (ability,) = _pack().advancement("Park Gardener").abilities
    assert ability.when == "harvest" and ability.not_on_turn_bought


def test_scout():
    (ability,) = _pack().advancement("Scout").abilities
    assert ability.when == "harvest"
    assert _only(ability) == {
        "op": "free_buy",
        "kind": "vale",
        "level": 1,
        "source": "deck_top",
        "may_decline": False,  # the clarification: take it and buy it
    }
    assert "or leave it" not in card_text(_pack().advancement("Scout"))


def test_tribal_warlord():
    (ability,) = _pack().advancement("Tribal Warlord").abilities
    assert ability.when == "harvest" and _special(ability) == "tribal_warlord"


def test_vale_vanguard():
    (ability,) = _pack().advancement("Vale Vanguard").abilities
    assert ability.when == "field" and _only(ability) == {"op": "cannot_spoil"}


def test_beastbrother_ambassador_and_gaias_avengers():
    """Rituals example: Beastbrother's ritual needs 1 end VP; Gaia's Avengers has 2, so
    on one card the reward of 1 sky and 1 animal is gained."""
    ambassador = _pack().advancement("Beastbrother Ambassador")
    avengers = _pack().advancement("Gaia's Avengers")
    assert ambassador.ritual is not None
    assert ambassador.ritual.requires == Symbols(end_vp=1)
    assert ambassador.ritual.rewards == Symbols(sky=1, animal=1)
    assert avengers.symbols.end_vp == 2
    assert avengers.slot != ambassador.slot  # they can share a card


def test_dawnseeker_emissary_and_waveguard_envoy():
    """Rituals example: a sky above a ritual needing a guardian, rewarding 1 mana and 1
    guardian; Waveguard Envoy, on the same card, counts no guardian of the requirement."""
    dawn = _pack().advancement("Dawnseeker Emissary")
    envoy = _pack().advancement("Waveguard Envoy")
    assert dawn.symbols.sky == 1
    assert dawn.ritual is not None
    assert dawn.ritual.requires.guardian >= 1
    assert dawn.ritual.rewards == Symbols(mana=1, guardian=1)
    assert envoy.slot != dawn.slot
    assert envoy.symbols.guardian == 0  # else the example's Envoy would count one
    (ability,) = envoy.abilities
    assert ability.when == "harvest"
    (op,) = ability.ops
    assert op.op == "gain" and op.per == Per(count="symbol", symbol="guardian", where="card")


def test_radiant_plexus():
    """Rituals example: its end VP meets Beastbrother's requirement, but Beastbrother's
    sky + animal reward can't meet Plexus's spirit requirement."""
    plexus = _pack().advancement("Radiant Plexus")
    ambassador = _pack().advancement("Beastbrother Ambassador")
    assert plexus.symbols.end_vp >= 1
    assert plexus.ritual is not None
    needs = plexus.ritual.requires.counts()
    assert needs and set(needs) <= {"sky", "animal", "water", "plant"}
    assert ambassador.ritual is not None
    assert set(needs) & set(ambassador.ritual.rewards.counts())  # the example matters
    assert plexus.slot != ambassador.slot


def test_no_ritual_asks_for_its_own_cards_symbols():
    for card in _pack().advancements:
        if card.ritual is not None:
            assert not set(card.ritual.requires.counts()) & set(card.symbols.counts()), card.name


def test_celestial_observatory():
    (ability,) = _pack().vale("Celestial Observatory").abilities
    assert ability.when == "bought"
    assert _only(ability) == {
        "op": "free_buy",
        "kind": "vale",
        "level": 1,
        "source": "deck_top",
        "may_decline": True,  # not bought: back on top of the deck
    }
    assert "or leave it" in card_text(_pack().vale("Celestial Observatory"))


def test_corrupted_world_tree():
    (ability,) = _pack().vale("Corrupted World Tree").abilities
    assert ability.when == "harvest" and _special(ability) == "most_curses_vp"


def test_earthbound_titan_forge():
    (ability,) = _pack().vale("Earthbound Titan Forge").abilities
    assert ability.when == "bought" and _special(ability) == "titan_forge"


def test_hunters_hall():
    (ability,) = _pack().vale("Hunter's Hall").abilities
    assert ability.when == "spoiled" and ability.sacrifice == "self"
    assert _only(ability) == {"op": "extra_turn"}


def test_sacrosanct_nests():
    (ability,) = _pack().vale("Sacrosanct Nests").abilities
    assert ability.when == "bought"
    assert _only(ability) == {
        "op": "free_buy",
        "kind": "advancement",
        "level": 1,
        "source": "deck_top",
        "may_decline": True,
    }


def test_sapling_sanctuary():
    (ability,) = _pack().vale("Sapling Sanctuary").abilities
    assert ability.when == "bought" and _special(ability) == "place_top_card"


def test_three_sisters():
    (ability,) = _pack().vale("Three Sisters").abilities
    assert ability.when == "bought" and _only(ability) == {"op": "add_to_pool", "amount": 10}


def test_the_pool_grows_only_when_a_card_is_bought():
    """Game end (4.1): the game ends once the VP pool runs out. A card that put VP into
    the pool every Harvest would hand back what its own VP symbols take, and a field
    holding it every turn would keep the pool from ever running out."""
    adds = {
        card.name: ability.when
        for card in _cards()
        for ability in _abilities(card)
        if any(op.op == "add_to_pool" for op in ability.ops)
    }
    assert adds == {"Three Sisters": "bought", "Timeless Wellspring": "bought"}
    (ability,) = _pack().advancement("Timeless Wellspring").abilities
    assert _only(ability) == {"op": "add_to_pool", "amount": 4}


def test_hailburst_titan():
    titan = _pack().leader("Hailburst Titan")
    (start,) = titan.start.abilities
    assert start.when == "harvest" and not start.chosen
    assert _special(start) == "curse_the_commons"
    store, score = titan.upgraded.abilities
    assert store.when == "harvest" and store.optional and _special(store) == "store_curses"
    assert score.when == "end" and _special(score) == "most_curses_titan"


def test_magmaborn_titan():
    titan = _pack().leader("Magmaborn Titan")
    assert titan.start.symbols.vp and titan.start.symbols.curse  # its clarification
    discard, bottom = titan.start.abilities
    assert discard.when == "played" and discard.chosen and discard.cost == Cost(curse=1)
    assert _special(discard) == "discard_any_for_curse"
    assert bottom.when == "harvest" and bottom.cost == Cost(mana=1)
    assert _special(bottom) == "titan_to_bottom"
    card, seven = titan.upgraded.abilities
    assert card.when == "harvest" and card.cost == Cost(vp=1)
    assert _special(card) == "card_to_bottom"
    assert seven.when == "harvest" and _special(seven) == "field_of_seven"


def test_manablood_titan():
    titan = _pack().leader("Manablood Titan")
    (start,) = titan.start.abilities  # ours: it Reserves, for its upgraded side
    assert _only(start) == {"op": "reserve"}
    (upgraded,) = titan.upgraded.abilities
    assert upgraded.when == "harvest" and _special(upgraded) == "free_reserved"


def test_oakenstride_titan():
    titan = _pack().leader("Oakenstride Titan")
    assert titan.start.upgrade == Cost(sky=5) and titan.start.vp_replaces == "sky"
    (start,) = titan.start.abilities
    assert start.when == "harvest" and _special(start) == "cancel_card_curses"
    on_deck, shed = titan.upgraded.abilities
    assert on_deck.when == "planting" and on_deck.optional  # the start of Planting
    assert _special(on_deck) == "discard_on_deck"
    assert shed.when == "harvest" and _special(shed) == "shed_per_growth"


def test_shardlord():
    titan = _pack().leader("Shardlord")
    assert titan.start.symbols.curse == 1 and titan.start.symbols.sky == 2
    (start,) = titan.start.abilities
    assert start.when == "harvest" and _special(start) == "vale_then_upgrade"
    back, resleeve = titan.upgraded.abilities
    assert back.when == "harvest" and back.optional  # needs a blank card in the field
    assert _special(back) == "return_to_start"
    assert resleeve.when == "discard" and _special(resleeve) == "resleeve"


def test_stormbrew_titan():
    titan = _pack().leader("Stormbrew Titan")
    (start,) = titan.start.abilities
    assert start.when == "field" and _special(start) == "cover_cursed_land"
    (upgraded,) = titan.upgraded.abilities
    assert upgraded.when == "field" and _special(upgraded) == "sleeve_now"  # any time in Harvest


def test_tidal_wave_titan():
    titan = _pack().leader("Tidal Wave Titan")
    (start,) = titan.start.abilities
    assert start.when == "field" and _special(start) == "guardian_discount"  # on every buy
    (upgraded,) = titan.upgraded.abilities
    assert upgraded.when == "harvest" and _special(upgraded) == "shed_per_guardian"


def test_every_leader_names_an_upgrade_cost_and_upgraded_abilities():
    for leader in _pack().leaders:
        assert leader.start.upgrade is not None and leader.start.upgrade.counts()
        assert leader.start.abilities and leader.upgraded.abilities, leader.name


# ------------------------------------------------------------------ malformed packs


def _bundled_text() -> str:
    return BUNDLED_PACK.read_text(encoding="utf-8")


def _error(text: str) -> str:
    with pytest.raises(PackError) as info:
        parse_pack(text, "test.toml")
    return str(info.value)


def _edit_card(name: str, old: str, new: str) -> str:
    """The bundled pack with one line changed inside the named card's entry."""
    text = _bundled_text()
    begin = text.index(f'\nname = "{name}"\n')
    end = text.find("\n[[", begin + 1)
    block = text[begin:end]
    assert old in block, (name, old)
    return text[:begin] + block.replace(old, new, 1) + text[end:]


def test_bad_field_value_names_the_card_and_field():
    msg = _error(_edit_card("Skylark Lookout", "copies = 3", "copies = 0"))
    assert "'Skylark Lookout'" in msg and "copies" in msg


def test_bad_slot_names_the_card_and_field():
    msg = _error(_edit_card("Silt Runner", 'slot = "bottom"', 'slot = "side"'))
    assert "'Silt Runner'" in msg and "slot" in msg


def test_unknown_field_names_the_card():
    msg = _error(_edit_card("Coral Grotto", "level = 1", "level = 1\nspeed = 3"))
    assert "'Coral Grotto'" in msg and "speed" in msg


def test_unknown_op_names_the_card_and_field():
    msg = _error(_edit_card("Mistmarket Broker", '{ op = "reserve" }', '{ op = "steal" }'))
    assert "'Mistmarket Broker'" in msg and "abilities" in msg and "ops" in msg


def test_unknown_special_is_rejected():
    msg = _error(_edit_card("Tribal Warlord", '"tribal_warlord"', '"tribal_lord"'))
    assert "'Tribal Warlord'" in msg and "no special rule named 'tribal_lord'" in msg


def test_bad_count_in_a_per_names_the_card():
    msg = _error(_edit_card("Waveguard Envoy", 'symbol = "guardian", ', ""))
    assert "'Waveguard Envoy'" in msg and "per" in msg


def test_ritual_without_rewards_is_rejected():
    msg = _error(_edit_card("Howlstone Cairn", "rewards = { mana = 1 }", "rewards = {}"))
    assert "'Howlstone Cairn'" in msg and "ritual" in msg


def test_vale_level_3_is_rejected():
    msg = _error(_edit_card("Skyreach Citadel", "level = 2", "level = 3"))
    assert "'Skyreach Citadel'" in msg and "level" in msg


def test_leader_without_upgrade_cost_is_rejected():
    msg = _error(_edit_card("Shardlord", "upgrade = { sky = 4 }\n", ""))
    assert "'Shardlord'" in msg and "upgrade cost" in msg


def test_missing_fertile_soil_slot_is_rejected():
    msg = _error(_edit_card("Fertile Soil (middle)", "fertile_soil = true\n", ""))
    assert "Fertile Soil" in msg


def test_duplicate_card_name_is_rejected():
    msg = _error(_edit_card("Howling Den", 'name = "Howling Den"', 'name = "Coral Grotto"'))
    assert "'Coral Grotto' appears twice" in msg


def test_not_toml_is_rejected():
    assert "not valid TOML" in _error("advancements = [")
