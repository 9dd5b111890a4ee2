"""Witcher set tests shared by its heroes: the map facts, the hero files against the
reference numbers, Kaer Morhen's one-way paths (R20) and who may play what (banners).
"""
import pytest
from helpers.cards import at, dist, game, hp, medusa, sinbad, space
from helpers.witcher import (ABOUNDS, ARMOR, BANE, BF, BLINK, BLIZZARD, CHANNEL, CHILD, CIRI, COMMAND, CUB, DANDELION,
    DUELIST, FLOCK, GEAR_OPTION, GERALT, GUARDIAN, HARRY, HOWLS, IGNI, IHU, LADY, LESHEN, MEDALLION, OWL, PACK, PARRY,
    PLANTED, PLOT, PUSHED, REND, RIPOSTE, SEARCHING, SENSES, SILVER, SLAM, STEEL, TUNE, UGLY, UNICORN, VANISH, WILY,
    YRDEN, ZIREAEL, ciri, geralt, leshen)

from sim.content.battlefields import load_battlefield
from sim.content.heroes import load_all
from sim.play.scenario import ScenarioError, resolve

pytestmark = pytest.mark.nojit

KM = load_battlefield("kaer_morhen")


def test_map_facts_used_by_these_tests():
    red = BF.zone_names.index("red")
    assert [s for i, s in enumerate(BF.space_ids) if BF.zone_mask[i] >> red & 1] == ["M07", "M13", "M20", "M21"]
    def adj(a, b, bf=BF):
        return bool(bf.adj[bf.index(a), bf.index(b)])

    assert adj("M20", "M13") and adj("M20", "M21") and adj("M20", "M27") and not adj("M13", "M21")
    assert not BF.zone_mask[BF.index("M27")] & BF.zone_mask[BF.index("M20")]
    assert (dist("M20", "M26"), dist("M20", "M23"), dist("M21", "M24"), dist("M13", "M02")) == (3, 4, 4, 3)
    # Kaer Morhen: the rampart arrow KM04 -> KM12 is a line (adjacent), movement goes down only
    assert adj("KM04", "KM12", KM) and adj("KM12", "KM04", KM)
    assert (dist("KM04", "KM12", KM), dist("KM12", "KM04", KM)) == (1, 7)


# ---------------------------------------------------------------- hero files vs reference data
# (name, type, value, BOOST, copies, fighter), as printed on the cards
REFERENCE_CARDS = {
    "geralt_of_rivia": [
        (IGNI, "attack", 0, 3, 2, GERALT), (STEEL, "attack", 4, 3, 2, GERALT), (SILVER, "attack", 4, 3, 2, GERALT),
        (RIPOSTE, "versatile", 2, 2, 2, GERALT), (YRDEN, "versatile", 2, 2, 3, GERALT),
        (REND, "versatile", 3, 2, 3, GERALT), (DUELIST, "versatile", 4, 2, 3, GERALT),
        (UGLY, "versatile", 5, 4, 3, GERALT), (TUNE, "versatile", 3, 3, 3, DANDELION),
        (PLOT, "versatile", 2, 2, 3, DANDELION), (MEDALLION, "defense", 3, 3, 2, GERALT),
        (ARMOR, "defense", 2, 3, 2, GERALT), (SENSES, "scheme", None, 3, 2, GERALT),
        (BLIZZARD, "scheme", None, 3, 2, GERALT), (OWL, "scheme", None, 3, 2, GERALT)],
    "ciri": [
        (CUB, "attack", 2, 2, 3, CIRI), (CHANNEL, "attack", 2, 3, 3, CIRI), (BANE, "attack", 4, 4, 3, IHU),
        (PUSHED, "versatile", 3, 2, 3, CIRI), (ZIREAEL, "versatile", 2, 2, 3, CIRI),
        (LADY, "versatile", 2, 2, 2, CIRI), (BLINK, "versatile", 4, 1, 3, CIRI),
        (SEARCHING, "versatile", 3, 3, 3, IHU), (PARRY, "defense", 3, 1, 3, "any"),
        (CHILD, "scheme", None, 2, 2, CIRI), (UNICORN, "scheme", None, 2, 2, "any")],
    "ancient_leshen": [
        (SLAM, "attack", 4, 3, 3, LESHEN), (FLOCK, "attack", 5, 1, 2, LESHEN), (HOWLS, "attack", 1, 1, 3, "Wolf"),
        (ABOUNDS, "attack", 2, 2, 3, "any"), (COMMAND, "attack", 4, 2, 2, "any"),
        (PLANTED, "versatile", 4, 3, 3, "any"), (HARRY, "versatile", 2, 2, 3, "Wolf"),
        (WILY, "versatile", 3, 1, 3, "any"), (GUARDIAN, "defense", 5, 2, 3, LESHEN),
        (PACK, "scheme", None, 1, 3, LESHEN), (VANISH, "scheme", None, 3, 2, LESHEN)],
}
# (name, health, move, ranged, count) of each fighter
REFERENCE_FIGHTERS = {
    "geralt_of_rivia": [(GERALT, 16, 2, False, 1), (DANDELION, 5, 2, True, 1)],
    "ciri": [(CIRI, 15, 2, False, 1), (IHU, 7, 2, False, 1)],
    "ancient_leshen": [(LESHEN, 13, 1, True, 1), ("Wolf", 1, 3, False, 2)],
}


@pytest.mark.parametrize("key", sorted(REFERENCE_CARDS))
def test_witcher_hero_files_match_the_reference_numbers(key):
    spec = load_all()[key]
    assert [(c.name, c.type, c.value, c.boost, c.copies, c.fighters[0]) for c in spec.cards] == REFERENCE_CARDS[key]
    assert all(len(c.fighters) == 1 for c in spec.cards)
    assert [(f.name, f.health, f.move, bool(f.ranged), f.count) for f in spec.fighters] == REFERENCE_FIGHTERS[key]
    assert spec.deck_size(spec.loadouts()[0]) == 30


def test_witcher_tags_source_gear_and_ongoing():
    specs = load_all()
    tags = {k: {c.name: set(c.tags) for c in specs[k].cards} for k in REFERENCE_CARDS}
    source_cards = {c for c, t in tags["ciri"].items() if "source" in t}
    assert source_cards == {CUB, PUSHED, ZIREAEL, LADY, CHILD}
    assert sum(c.copies for c in specs["ciri"].cards if c.name in source_cards) == 13
    assert {c for c, t in tags["geralt_of_rivia"].items() if "gear" in t} == set(GEAR_OPTION)
    ongoing = {(k, c) for k in tags for c, t in tags[k].items() if "ongoing" in t}
    assert ongoing == {("geralt_of_rivia", BLIZZARD), ("geralt_of_rivia", OWL), ("ciri", UNICORN),
                       ("ancient_leshen", PACK)}


# ---------------------------------------------------------------- R20 (Kaer Morhen one-way paths)
def km(p0_, p1_, active=0):
    return {"battlefield": "kaer_morhen", "active": active, "players": [p0_, p1_]}


def test_R20_one_way_spaces_are_adjacent_for_melee_attacks_and_effects():
    # Geralt below the arrow (KM12) attacks Sinbad above it (KM04) in melee; Igni's
    # adjacency also reaches across the arrow.
    out = resolve(km(geralt(fighters={GERALT: at("KM12")}, hand=[UGLY]),
                     sinbad(fighters={"Sinbad": at("KM04")})),
                  {"attack": UGLY, "by": GERALT, "target": "Sinbad", "defense": None})
    assert hp(out, "Sinbad") == 10


def test_R20_movement_goes_down_the_arrow_only():
    pos = km(geralt(fighters={GERALT: at("KM12")}, hand=[YRDEN]),
             sinbad(fighters={"Sinbad": at("KM08")}))
    with pytest.raises(ScenarioError) as e:
        resolve(pos, {"attack": YRDEN, "by": GERALT, "target": "Sinbad", "defense": None}, ["KM04"])
    legal = str(e.value).split("legal options: ")[1].split(", ")
    assert "KM04" not in legal and "KM13" in legal and "KM18" in legal
    out = resolve(km(geralt(fighters={GERALT: at("KM04")}, hand=[YRDEN]),
                     sinbad(fighters={"Sinbad": at("KM05")})),
                  {"attack": YRDEN, "by": GERALT, "target": "Sinbad", "defense": None}, ["KM12"])
    assert space(out, GERALT) == "KM12"


def test_R20_placing_ignores_the_arrows():
    out = resolve(km(leshen(fighters={LESHEN: at("KM12")}, hand=[FLOCK]),
                     geralt(fighters={GERALT: at("KM08")})),
                  {"attack": FLOCK, "by": LESHEN, "target": GERALT, "defense": None}, [True, "KM04"])
    assert space(out, LESHEN) == "KM04" and hp(out, GERALT) == 11


# ---------------------------------------------------------------- banners (who may play what)
@pytest.mark.parametrize("hero,fighters,card,by,kind", [
    ("geralt_of_rivia", {GERALT: "M06", DANDELION: "M20"}, STEEL, DANDELION, "attack"),
    ("geralt_of_rivia", {GERALT: "M06", DANDELION: "M20"}, RIPOSTE, DANDELION, "attack"),
    ("geralt_of_rivia", {GERALT: "M20", DANDELION: "M13"}, PLOT, GERALT, "attack"),
    ("geralt_of_rivia", {GERALT: "M20", DANDELION: "M13"}, SENSES, DANDELION, "scheme"),
    ("geralt_of_rivia", {GERALT: "M20", DANDELION: "M13"}, OWL, DANDELION, "scheme"),
    ("ciri", {CIRI: "M06", IHU: "M20"}, CUB, IHU, "attack"),
    ("ciri", {CIRI: "M06", IHU: "M20"}, BLINK, IHU, "attack"),
    ("ciri", {CIRI: "M20", IHU: "M13"}, SEARCHING, CIRI, "attack"),
    ("ciri", {CIRI: "M20", IHU: "M13"}, CHILD, IHU, "scheme"),
    ("ancient_leshen", {LESHEN: "M06", "Wolf 1": "M20"}, SLAM, "Wolf 1", "attack"),
    ("ancient_leshen", {LESHEN: "M06", "Wolf 1": "M20"}, FLOCK, "Wolf 1", "attack"),
    ("ancient_leshen", {LESHEN: "M13", "Wolf 1": "M20"}, HOWLS, LESHEN, "attack"),
    ("ancient_leshen", {LESHEN: "M13", "Wolf 1": "M20"}, PACK, "Wolf 1", "scheme"),
    ("ancient_leshen", {LESHEN: "M13", "Wolf 1": "M20"}, VANISH, "Wolf 1", "scheme"),
])
def test_banner_restricted_cards(hero, fighters, card, by, kind):
    pos = game({"hero": hero if hero != "geralt_of_rivia" else "geralt_of_rivia@steel+medallion+owl",
                "fighters": {n: at(sp) for n, sp in fighters.items()}, "hand": [card]},
               medusa(fighters={"Medusa": at("M21")}))
    step = ({"attack": card, "by": by, "target": "Medusa", "defense": None} if kind == "attack"
            else {"scheme": card, "by": by})
    with pytest.raises(ScenarioError, match=f"{by} cannot (attack Medusa with|play the scheme) '{card}'"):
        resolve(pos, step)


@pytest.mark.parametrize("hero,fighters,card,defender", [
    ("geralt_of_rivia@steel+medallion+owl", {GERALT: "M06", DANDELION: "M20"}, MEDALLION, DANDELION),
    ("geralt_of_rivia@steel+wolf-armor+owl", {GERALT: "M06", DANDELION: "M20"}, ARMOR, DANDELION),
    ("ancient_leshen", {LESHEN: "M06", "Wolf 1": "M20"}, GUARDIAN, "Wolf 1"),
])
def test_banner_restricted_defense_cards(hero, fighters, card, defender):
    pos = game({"hero": hero, "fighters": {n: at(sp) for n, sp in fighters.items()}, "hand": [card]},
               medusa(fighters={"Medusa": at("M21")}, hand=["Snipe"]), active=1)
    with pytest.raises(ScenarioError, match=r"defense card.*legal options: no card$"):
        resolve(pos, {"attack": "Snipe", "by": "Medusa", "target": defender, "defense": card})


def test_parry_is_an_any_card_both_ciri_and_ihuarraquax_defend_with_it():
    for target in (CIRI, IHU):
        out = resolve(game(ciri(fighters={CIRI: at("M21"), IHU: at("M13")}, hand=[PARRY]),
                           medusa(fighters={"Medusa": at("M20")}, hand=["Snipe"]), active=1),
                      {"attack": "Snipe", "by": "Medusa", "target": target, "defense": PARRY})
        assert out["combat"]["defense_value"] == 3
