"""Card tests for the Witcher heroes (Steel and Silver): Geralt of Rivia, Ciri and
the Ancient Leshen. Every card and every ability, the loadout rules, the ongoing
schemes, and the Witcher rules cases of docs/rules.md (R20, R54, R55,
R57, R58, R60, R61, R63, R64, R65; R07 with Geralt's Riposte).

Each test builds an exact position with the scenario API (Marmoreal unless
stated), resolves one step (or a few steps on one Scenario, same turn unless an
end_of_turn step is run) with scripted choices and asserts the numbers the card
changes: health, piles by name, spaces, combat values and winner, actions left,
the ongoing scheme in result["players"][i]["ongoing"].

Map facts used below (sim/battlefields/marmoreal.toml):
  red zone = M07 M13 M20 M21; M20 is adjacent to M13, M21 and M27 (M27 brown only).
  Lines: M13-M07-M01-M02, M07-M08, M20-M21-M25-M26-M23-M24, M20-M27-M28-M29-M30-M31.
  M13 and M21 are both red but not adjacent.
Kaer Morhen (R20): one-way path KM04 -> KM12 (adjacent both ways, movement down only).
Card texts: shared/reference/heroes/{geralt_of_rivia,ciri,ancient_leshen}.json.
Rules: the Steel & Silver set rules; project decisions in docs/rules.md
(one ongoing scheme per hero, discard conditions only at the end of the owner's
turn; Ciri at 7+ Source protects every card her player plays; Wolves start on the
battlefield, rules option summon_start_off_board; the game ends as soon as a hero
is defeated).

The tests of Pushed to the Brink, The Lady of Space and Time, Yrden against placing,
swapping and summoning, and the scenario's loadout and started_on checks first ran as
strict xfails: they found those engine bugs, which are fixed.
"""
from collections import Counter

import numpy as np
import pytest
from helpers.cards import alice, arthur, at, dist, game, hp, log_text, medusa, p0, p1, run, sinbad, space, status

from sim.content.battlefields import load_battlefield
from sim.content.heroes import load_all
from sim.engine import layout as L
from sim.engine.effects import opponent_player
from sim.engine.game import setup_game
from sim.engine.policy import MODE_RANDOM, new_control
from sim.engine.rules import pack_action
from sim.play.match import Match, MatchError
from sim.play.narrate import narrate
from sim.play.scenario import Scenario, ScenarioError, resolve

pytestmark = pytest.mark.nojit

BF = load_battlefield("marmoreal")
KM = load_battlefield("kaer_morhen")

GERALT = "Geralt of Rivia"
DANDELION = "Dandelion"
CIRI = "Ciri"
IHU = "Ihuarraquax"
LESHEN = "Ancient Leshen"

# Geralt's cards
IGNI = "Igni"
STEEL = "Sword of Steel"
SILVER = "Sword of Silver"
RIPOSTE = "Riposte"
YRDEN = "Yrden"
REND = "Rend"
DUELIST = "Disciplined Duelist"
UGLY = "Damn, You're Ugly"
TUNE = "Annoying Tune"
PLOT = "Plot Twist"
MEDALLION = "Wolf Medallion"
ARMOR = "Armor of the Forgotten Wolf"
SENSES = "Witcher Senses"
BLIZZARD = "Blizzard"
OWL = "Tawny Owl"
GEAR_OPTION = {STEEL: "steel", SILVER: "silver", MEDALLION: "medallion", ARMOR: "wolf-armor",
               BLIZZARD: "blizzard", OWL: "owl"}
GERALT_BASE = {IGNI: 2, RIPOSTE: 2, YRDEN: 3, REND: 3, DUELIST: 3, UGLY: 3, TUNE: 3, PLOT: 3, SENSES: 2}

# Ciri's cards
CUB = "Lion Cub of Cintra"
CHANNEL = "Channel the Source"
BANE = "Bane of the Aen Elle"
PUSHED = "Pushed to the Brink"
ZIREAEL = "Zireael"
LADY = "The Lady of Space and Time"
BLINK = "Blink"
SEARCHING = "Searching Strike"
PARRY = "Parry"
CHILD = "Child of the Elder Blood"
UNICORN = "Unicorn Ally"
# the 13 Source cards of Ciri's deck, in the order source(n) takes them
SOURCES = [ZIREAEL] * 3 + [LADY] * 2 + [CHILD] * 2 + [CUB] * 3 + [PUSHED] * 3

# the Leshen's cards
SLAM = "Primeval Slam"
FLOCK = "Flock of Birds"
HOWLS = "Disturbing Howls"
ABOUNDS = "Nature Abounds"
COMMAND = "Command the Forest"
PLANTED = "Planted Feet"
HARRY = "Harrying Strike"
WILY = "Wily Fighting"
GUARDIAN = "Primeval Guardian"
PACK = "Strength of the Pack"
VANISH = "Vanish into Murder"

# other heroes' cards used
CLAWS = "Clutching Claws"
HISS = "Hiss and Slither"
HOUNDS = "The Hounds of Mighty Zeus"
APES = "Voyage to the City of the Man-Eating Apes"
WHALE = "Voyage to the Island That Was a Whale"
SERENDIB = "Voyage to the City of the King of Serendib"


def geralt(loadout="steel+medallion+owl", **kw):
    return {"hero": f"geralt_of_rivia@{loadout}", **kw}


def ciri(**kw):
    return {"hero": "ciri", **kw}


def leshen(**kw):
    return {"hero": "ancient_leshen", **kw}


def source(n, filler=(), without=None):
    """A discard pile holding ``n`` Source cards other than ``without`` (plus non-Source ``filler``)."""
    cards = [c for c in SOURCES if c != without][:n]
    assert len(cards) == n
    return cards + list(filler)


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
# (name, type, value, BOOST, copies, fighter), copied from shared/reference/heroes/*.json
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


# =========================================================================== Geralt of Rivia

# ---------------------------------------------------------------- R54: loadouts
LOADOUTS = ["steel+medallion+blizzard", "steel+medallion+owl", "steel+wolf-armor+blizzard",
            "steel+wolf-armor+owl", "silver+medallion+blizzard", "silver+medallion+owl",
            "silver+wolf-armor+blizzard", "silver+wolf-armor+owl"]


def test_R54_geralt_has_exactly_the_8_loadouts():
    spec = load_all()["geralt_of_rivia"]
    assert sorted(spec.loadouts()) == sorted(LOADOUTS)
    assert [g for g, _ in spec.groups] == ["sword", "armor", "potion"]


@pytest.mark.parametrize("loadout", LOADOUTS)
def test_R54_each_loadout_is_24_base_cards_plus_both_copies_of_3_gear(loadout):
    spec = load_all()["geralt_of_rivia"]
    deck = {spec.cards[i].name: n for i, n in spec.deck(loadout)}
    chosen = set(loadout.split("+"))
    gear_in = {c: 2 for c, opt in GEAR_OPTION.items() if opt in chosen}
    assert len(gear_in) == 3
    assert deck == {**GERALT_BASE, **gear_in}
    assert sum(deck.values()) == spec.deck_size(loadout) == 30
    for c, opt in GEAR_OPTION.items():
        assert (c in deck) == (opt in chosen)


@pytest.mark.parametrize("loadout", ["steel+medallion+owl", "silver+wolf-armor+blizzard"])
def test_R54_a_set_up_game_holds_the_loadouts_30_cards(loadout):
    m = Match([f"geralt_of_rivia@{loadout}", "medusa"])
    st = m.new_state()
    log = np.zeros((500, L.EV_FIELDS), np.int64)
    setup_game(st, m.tables, new_control((MODE_RANDOM,) * 4), log, m.rows, 2, 11)
    names = m.content.card_names
    cards = []
    for base, nslot in ((L.OFF_HAND, L.P_HANDN), (L.OFF_DECK, L.P_DECKN)):
        n = int(st[L.pslot(0, nslot)])
        cards += [names[i] for i in st[base: base + n]]
    assert int(st[L.pslot(0, L.P_HANDN)]) == 5 and len(cards) == 30
    chosen = set(loadout.split("+"))
    assert Counter(cards) == Counter({**GERALT_BASE, **{c: 2 for c, o in GEAR_OPTION.items() if o in chosen}})


def test_R54_bad_loadouts_are_refused():
    with pytest.raises(MatchError, match="loadout"):
        Match(["geralt_of_rivia@steel+silver+owl", "medusa"])
    with pytest.raises(MatchError, match="loadout"):
        Match(["geralt_of_rivia@steel+medallion", "medusa"])


def test_R54_scenario_refuses_gear_outside_the_loadout():
    with pytest.raises(ScenarioError):
        Scenario(game(geralt("steel+medallion+owl", fighters={GERALT: at("M20")}, hand=[BLIZZARD]),
                      medusa(fighters={"Medusa": at("M21")})))


# ---------------------------------------------------------------- Igni
IGNI_POS = game(
    geralt(fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[IGNI]),
    medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M27"), "Harpy 2": at("M07")}),
)


def test_igni_2_to_the_opposing_fighter_1_to_every_other_adjacent_fighter():
    out = resolve(IGNI_POS, {"attack": IGNI, "by": GERALT, "target": "Medusa", "defense": None})
    assert out["combat"] == {"attack_value": 0, "defense_value": 0, "damage": 0, "winner": "defender"}
    assert hp(out, "Medusa") == 14                        # 2, not 2 + 1
    assert status(out, "Harpy 1") == "defeated"           # adjacent (M27)
    assert hp(out, DANDELION) == 4                        # Geralt's own Dandelion is hit too
    assert hp(out, "Harpy 2") == 1                        # M07: not adjacent to Geralt
    assert hp(out, GERALT) == 16
    assert p0(out)["discard"] == [IGNI]


def test_igni_defeating_medusa_ends_the_game_before_the_1_damage():
    pos = game(geralt(fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[IGNI]),
               medusa(fighters={"Medusa": at("M21", 2), "Harpy 1": at("M27")}))
    out = resolve(pos, {"attack": IGNI, "by": GERALT, "target": "Medusa", "defense": None})
    assert out["winner"] == GERALT
    assert hp(out, DANDELION) == 5 and hp(out, "Harpy 1") == 1


def test_igni_is_geralts_only():
    with pytest.raises(ScenarioError, match="Dandelion cannot attack Medusa with 'Igni'"):
        resolve(IGNI_POS, {"attack": IGNI, "by": DANDELION, "target": "Medusa", "defense": None})


# ---------------------------------------------------------------- Sword of Steel
@pytest.mark.parametrize("start,after,gained", [(15, 11, 2), (12, 8, 2), (11, 7, 1), (5, 1, 1)])
def test_sword_of_steel_gains_2_actions_if_opposing_fighter_has_8_or_more_health_else_1(start, after, gained):
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[STEEL]),
                       sinbad(fighters={"Sinbad": at("M21", start)})),
                  {"attack": STEEL, "by": GERALT, "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == 4 and hp(out, "Sinbad") == after
    assert out["actions_left"] == 1 + gained
    assert f"gains {gained} action(s)" in log_text(out)


def test_sword_of_steel_counts_health_after_combat_damage():
    # Exploit 4 vs 4: no combat damage, Sinbad keeps 9 >= 8: 2 actions.
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[STEEL]),
                       sinbad(fighters={"Sinbad": at("M21", 9)}, hand=["Exploit"], deck=["Feint"])),
                  {"attack": STEEL, "by": GERALT, "target": "Sinbad", "defense": "Exploit"})
    assert out["combat"]["winner"] == "defender" and hp(out, "Sinbad") == 9
    assert out["actions_left"] == 3


def test_sword_of_steel_own_blizzard_does_not_block_geralts_gain():
    out = resolve(game(geralt("steel+medallion+blizzard", fighters={GERALT: at("M20")}, hand=[STEEL],
                              ongoing=BLIZZARD),
                       sinbad(fighters={"Sinbad": at("M21")})),
                  {"attack": STEEL, "by": GERALT, "target": "Sinbad", "defense": None})
    assert out["actions_left"] == 3 and p0(out)["ongoing"] == BLIZZARD


def test_sword_of_steel_gains_nothing_against_an_opposing_geralts_blizzard():
    # Mirror match: the opposing Geralt's Blizzard stops this Geralt from gaining actions.
    g1, g2 = f"{GERALT} (P1)", f"{GERALT} (P2)"
    out = resolve(game(geralt("steel+medallion+owl", fighters={g1: at("M20")}, hand=[STEEL]),
                       geralt("silver+medallion+blizzard", fighters={g2: at("M21")}, ongoing=BLIZZARD)),
                  {"attack": STEEL, "by": g1, "target": g2, "defense": None})
    assert hp(out, g2) == 12
    assert out["actions_left"] == 1
    assert "gains" not in log_text(out)


# ---------------------------------------------------------------- Sword of Silver (R55)
def test_R55a_sword_of_silver_ignores_printed_4_skirmish():
    out = resolve(game(geralt("silver+medallion+owl", fighters={GERALT: at("M20")}, hand=[SILVER]),
                       arthur(fighters={"King Arthur": at("M21")}, hand=["Skirmish"])),
                  {"attack": SILVER, "by": GERALT, "target": "King Arthur", "defense": "Skirmish"})
    assert out["combat"] == {"attack_value": 4, "defense_value": 0, "damage": 4, "winner": "attacker"}
    assert hp(out, "King Arthur") == 14
    assert p1(out)["discard"] == ["Skirmish"]


def test_R55b_sword_of_silver_keeps_printed_3_divine_intervention():
    out = resolve(game(geralt("silver+medallion+owl", fighters={GERALT: at("M20")}, hand=[SILVER]),
                       arthur(fighters={"King Arthur": at("M21")}, hand=["Divine Intervention"])),
                  {"attack": SILVER, "by": GERALT, "target": "King Arthur", "defense": "Divine Intervention"},
                  ["M25"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert hp(out, "King Arthur") == 17 and space(out, "King Arthur") == "M25"


def test_R55c_sword_of_silver_reads_printed_3_not_the_current_4():
    # SMALL Alice: Momentous Shift printed 3, +1 SMALL = 4. Printed 3 < 4: not ignored, tie.
    out = resolve(game(geralt("silver+medallion+owl", fighters={GERALT: at("M20")}, hand=[SILVER]),
                       alice("small", fighters={"Alice": at("M21")}, hand=["Momentous Shift"])),
                  {"attack": SILVER, "by": GERALT, "target": "Alice", "defense": "Momentous Shift"})
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert hp(out, "Alice") == 13


def test_sword_of_silver_without_a_defense_card_is_a_plain_4():
    out = resolve(game(geralt("silver+medallion+owl", fighters={GERALT: at("M20")}, hand=[SILVER]),
                       sinbad(fighters={"Sinbad": at("M21")}, hand=["Exploit"])),
                  {"attack": SILVER, "by": GERALT, "target": "Sinbad", "defense": None})
    assert out["combat"] == {"attack_value": 4, "defense_value": 0, "damage": 4, "winner": "attacker"}
    assert out["actions_left"] == 1                       # no Sword of Steel effect


def test_sword_of_silver_ignores_printed_5_primeval_guardian_but_its_boost_still_adds():
    # Guardian (printed 5) is ignored; its During still discards Geralt's top card
    # (Rend, BOOST 2) and adds that BOOST to Geralt's card: 4 + 2 = 6.
    out = resolve(game(geralt("silver+medallion+owl", fighters={GERALT: at("M20")}, hand=[SILVER],
                              deck=[REND, IGNI]),
                       leshen(fighters={LESHEN: at("M21")}, hand=[GUARDIAN])),
                  {"attack": SILVER, "by": GERALT, "target": LESHEN, "defense": GUARDIAN})
    assert out["combat"] == {"attack_value": 6, "defense_value": 0, "damage": 6, "winner": "attacker"}
    assert hp(out, LESHEN) == 7
    assert p0(out)["deck"] == [IGNI] and p0(out)["discard"] == [REND, SILVER]


def test_sword_of_silver_ignores_blinks_printed_4_but_not_its_effect():
    out = resolve(game(geralt("silver+medallion+owl", fighters={GERALT: at("M20")}, hand=[SILVER]),
                       ciri(fighters={CIRI: at("M21")}, hand=[BLINK])),
                  {"attack": SILVER, "by": GERALT, "target": CIRI, "defense": BLINK}, ["M26"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 0, "damage": 4, "winner": "attacker"}
    assert hp(out, CIRI) == 11 and space(out, CIRI) == "M26"


# ---------------------------------------------------------------- Riposte
RIPOSTE_POS = game(
    geralt(fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[RIPOSTE]),
    medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M27")}),
)


def test_riposte_option_1_one_damage_to_a_chosen_adjacent_fighter():
    out = resolve(RIPOSTE_POS, {"attack": RIPOSTE, "by": GERALT, "target": "Medusa", "defense": None},
                  [1, "Medusa"])
    assert out["combat"]["attack_value"] == 2
    assert hp(out, "Medusa") == 13 and hp(out, "Harpy 1") == 1
    assert space(out, GERALT) == "M20"


def test_riposte_option_1_may_hit_geralts_own_adjacent_dandelion():
    out = resolve(RIPOSTE_POS, {"attack": RIPOSTE, "by": GERALT, "target": "Medusa", "defense": None},
                  [1, DANDELION])
    assert hp(out, DANDELION) == 4 and hp(out, "Medusa") == 14


def test_riposte_option_2_geralt_swaps_with_an_adjacent_fighter():
    out = resolve(RIPOSTE_POS, {"attack": RIPOSTE, "by": GERALT, "target": "Medusa", "defense": None},
                  [2, "Harpy 1"])
    assert space(out, GERALT) == "M27" and space(out, "Harpy 1") == "M20"
    assert hp(out, "Medusa") == 14 and hp(out, "Harpy 1") == 1


def test_riposte_targets_only_adjacent_fighters():
    with pytest.raises(ScenarioError) as e:
        resolve(game(geralt(fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[RIPOSTE]),
                     medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M27"), "Harpy 2": at("M07")})),
                {"attack": RIPOSTE, "by": GERALT, "target": "Medusa", "defense": None}, [1, "Harpy 2"])
    assert "target fighter" in str(e.value)
    assert str(e.value).endswith("legal options: Dandelion, Medusa, Harpy 1")


def test_R07_riposte_defeats_sinbad_game_ends_before_apes_damage():
    # Project decision: the game ends as soon as a hero is defeated, so the Apes' 2 damage
    # never resolves and Geralt (2 health) wins even on Sinbad's turn.
    pos = game(geralt(fighters={GERALT: at("M20", 4)}, hand=[RIPOSTE]),
               sinbad(fighters={"Sinbad": at("M21", 1)}, hand=[APES], discard=[WHALE, SERENDIB]),
               active=1)
    out = resolve(pos, {"attack": APES, "by": "Sinbad", "target": GERALT, "defense": RIPOSTE}, [1])
    assert out["combat"] == {"attack_value": 4, "defense_value": 2, "damage": 2, "winner": "attacker"}
    assert hp(out, GERALT) == 2 and status(out, "Sinbad") == "defeated"
    assert out["winner"] == GERALT


def test_R07_with_end_at_action_both_heroes_fall_and_the_active_sinbad_wins():
    pos = game(geralt(fighters={GERALT: at("M20", 4)}, hand=[RIPOSTE]),
               sinbad(fighters={"Sinbad": at("M21", 1)}, hand=[APES], discard=[WHALE, SERENDIB]),
               active=1, rules={"end_at_action": 1})
    out = resolve(pos, {"attack": APES, "by": "Sinbad", "target": GERALT, "defense": RIPOSTE}, [1])
    assert status(out, GERALT) == "defeated" and status(out, "Sinbad") == "defeated"
    assert out["winner"] == "Sinbad"


# ---------------------------------------------------------------- Yrden
YRDEN_POS = game(
    geralt(fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[YRDEN, TUNE]),
    sinbad(fighters={"Sinbad": at("M21")}),
)


def test_yrden_then_geralt_moves_up_to_2():
    out = resolve(YRDEN_POS, {"attack": YRDEN, "by": GERALT, "target": "Sinbad", "defense": None}, ["M28"])
    assert out["combat"]["attack_value"] == 2 and hp(out, "Sinbad") == 13
    assert space(out, GERALT) == "M28" and dist("M20", "M28") == 2


def test_yrden_geralt_cannot_move_3():
    with pytest.raises(ScenarioError, match=r"'M29'.*destination space"):
        resolve(YRDEN_POS, {"attack": YRDEN, "by": GERALT, "target": "Sinbad", "defense": None}, ["M29"])


def test_yrden_pins_the_opposing_fighter_for_the_rest_of_the_turn():
    sc = Scenario(YRDEN_POS)
    run(sc, {"attack": YRDEN, "by": GERALT, "target": "Sinbad", "defense": None}, ["M20"])
    # Annoying Tune would move Sinbad up to 4; pinned, his only destination is his own space.
    out = run(sc, {"attack": TUNE, "by": DANDELION, "target": "Sinbad", "defense": None})
    assert out["choices_used"] == 0
    assert space(out, "Sinbad") == "M21" and hp(out, "Sinbad") == 15 - 2 - 3


def test_yrden_pin_ends_with_the_turn():
    pos = game(geralt(fighters={GERALT: at("M20")}, hand=[YRDEN]),
               sinbad(fighters={"Sinbad": at("M21")}, deck=["Feint"]))
    sc = Scenario(pos)
    run(sc, {"attack": YRDEN, "by": GERALT, "target": "Sinbad", "defense": None}, ["M20"])
    run(sc, {"end_of_turn": True})
    out = run(sc, {"maneuver": True}, [None, "M26"])      # Sinbad's own turn: free to move
    assert space(out, "Sinbad") == "M26"


def test_yrden_on_defense_pins_the_attacker_on_his_own_turn():
    sc = Scenario(game(
        geralt(fighters={GERALT: at("M20")}, hand=[YRDEN]),
        sinbad(fighters={"Sinbad": at("M21")}, hand=["Exploit"], deck=["Feint", "Regroup"]),
        active=1))
    out = run(sc, {"attack": "Exploit", "by": "Sinbad", "target": GERALT, "defense": YRDEN}, ["M20"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 2, "damage": 2, "winner": "attacker"}
    out = run(sc, {"maneuver": True}, [None])             # boost asked; no move can be asked
    assert space(out, "Sinbad") == "M21"
    assert p1(out)["hand"] == ["Feint", "Regroup"]        # Exploit's draw, the maneuver's draw


def test_annoying_tune_without_yrden_moves_sinbad():
    out = resolve(YRDEN_POS, {"attack": TUNE, "by": DANDELION, "target": "Sinbad", "defense": None}, ["M23"])
    assert space(out, "Sinbad") == "M23" and dist("M21", "M23") == 3


def test_yrden_pinned_fighter_cannot_be_swapped_by_riposte():
    sc = Scenario(game(
        geralt(fighters={GERALT: at("M20")}, hand=[YRDEN, RIPOSTE]),
        sinbad(fighters={"Sinbad": at("M21")}, hand=[], deck=[]),
    ))
    run(sc, {"attack": YRDEN, "by": GERALT, "target": "Sinbad", "defense": None}, ["M20"])
    out = sc.run({"attack": RIPOSTE, "by": GERALT, "target": "Sinbad", "defense": None}, [2], "first")
    assert space(out, "Sinbad") == "M21" and space(out, GERALT) == "M20"


def test_yrden_on_defense_stops_flock_of_birds_placing_the_leshen():
    out = resolve(game(
        leshen(fighters={LESHEN: at("M13")}, hand=[FLOCK]),
        geralt(fighters={GERALT: at("M21")}, hand=[YRDEN]),
    ), {"attack": FLOCK, "by": LESHEN, "target": GERALT, "defense": YRDEN}, ["M21", True, "M06"], fallback="first")
    assert hp(out, GERALT) == 13
    assert space(out, LESHEN) == "M13"


def test_yrden_pinned_wolf_is_not_the_one_primeval_slam_re_places():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13"), "Wolf 1": at("M21"), "Wolf 2": at("M27")},
                              hand=[WILY, SLAM]),
                       geralt(fighters={GERALT: at("M20")}, hand=[YRDEN])))
    out = run(sc, {"attack": WILY, "by": "Wolf 1", "target": GERALT, "defense": YRDEN})   # pins Wolf 1
    assert hp(out, GERALT) == 14
    out = sc.run({"attack": SLAM, "by": LESHEN, "target": GERALT, "defense": None}, [], "first")
    assert hp(out, GERALT) == 10
    assert space(out, "Wolf 1") == "M21"


# ---------------------------------------------------------------- Rend
def test_rend_may_boost_itself():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[REND, UGLY, IGNI]),
                       sinbad(fighters={"Sinbad": at("M21")})),
                  {"attack": REND, "by": GERALT, "target": "Sinbad", "defense": None}, [UGLY])
    assert out["combat"]["attack_value"] == 3 + 4
    assert hp(out, "Sinbad") == 8
    assert p0(out)["hand"] == [IGNI] and p0(out)["discard"] == [UGLY, REND]


def test_rend_boost_declined_on_defense():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[REND, IGNI]),
                       sinbad(fighters={"Sinbad": at("M21")}, hand=["Exploit"], deck=["Feint"]), active=1),
                  {"attack": "Exploit", "by": "Sinbad", "target": GERALT, "defense": REND}, [None])
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert p0(out)["hand"] == [IGNI] and hp(out, GERALT) == 15


# ---------------------------------------------------------------- Disciplined Duelist
def test_disciplined_duelist_vs_printed_2_may_draw():
    pos = game(geralt(fighters={GERALT: at("M20")}, hand=[DUELIST], deck=[IGNI, REND]),
               medusa(fighters={"Medusa": at("M21")}, hand=["Gaze of Stone"]), active=1)
    out = resolve(pos, {"attack": "Gaze of Stone", "by": "Medusa", "target": GERALT, "defense": DUELIST}, [True])
    assert out["combat"] == {"attack_value": 2, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert p0(out)["hand"] == [IGNI] and p0(out)["deck"] == [REND]
    out = resolve(pos, {"attack": "Gaze of Stone", "by": "Medusa", "target": GERALT, "defense": DUELIST}, [False])
    assert p0(out)["hand"] == [] and p0(out)["deck"] == [IGNI, REND]


def test_disciplined_duelist_vs_printed_3_one_damage():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[DUELIST]),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe"], deck=["Dash"]), active=1),
                  {"attack": "Snipe", "by": "Medusa", "target": GERALT, "defense": DUELIST})
    assert out["combat"]["winner"] == "defender"
    assert hp(out, "Medusa") == 15 and hp(out, GERALT) == 16
    assert p1(out)["hand"] == ["Dash"]                    # Snipe still draws


def test_disciplined_duelist_vs_printed_4_opponent_discards():
    # Duelist 4 vs Hiss and Slither 4: tie. Defender first: Geralt discards (Hiss), then Medusa.
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[DUELIST, IGNI, REND]),
                       medusa(fighters={"Medusa": at("M21")}, hand=[HISS, "Snipe", "Dash"])),
                  {"attack": DUELIST, "by": GERALT, "target": "Medusa", "defense": HISS}, [IGNI, "Dash"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert p0(out)["hand"] == [REND] and p0(out)["discard"] == [IGNI, DUELIST]
    assert p1(out)["hand"] == ["Snipe"] and p1(out)["discard"] == ["Dash", HISS]


def test_disciplined_duelist_without_opposing_card_does_nothing():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[DUELIST], deck=[IGNI]),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe"])),
                  {"attack": DUELIST, "by": GERALT, "target": "Medusa", "defense": None})
    assert hp(out, "Medusa") == 12
    assert p0(out)["hand"] == [] and p1(out)["hand"] == ["Snipe"]


def test_disciplined_duelist_reads_the_printed_value_not_the_current_one():
    # Lion Cub at 5 Source is worth 7, but its printed value is 2: Geralt may draw (not 1 damage).
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[CUB], discard=source(5, without=CUB)),
                       geralt(fighters={GERALT: at("M21")}, hand=[DUELIST], deck=[IGNI])),
                  {"attack": CUB, "by": CIRI, "target": GERALT, "defense": DUELIST}, [True])
    assert out["combat"] == {"attack_value": 7, "defense_value": 4, "damage": 3, "winner": "attacker"}
    assert hp(out, GERALT) == 13 and hp(out, CIRI) == 15
    assert p1(out)["hand"] == [IGNI]


# ---------------------------------------------------------------- Damn, You're Ugly
def test_damn_youre_ugly_is_a_plain_5():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[UGLY], deck=[IGNI]),
                       sinbad(fighters={"Sinbad": at("M21")}, hand=["Exploit"], deck=["Feint"])),
                  {"attack": UGLY, "by": GERALT, "target": "Sinbad", "defense": "Exploit"})
    assert out["combat"] == {"attack_value": 5, "defense_value": 4, "damage": 1, "winner": "attacker"}
    assert hp(out, "Sinbad") == 14 and p0(out)["hand"] == [] and p0(out)["deck"] == [IGNI]
    assert out["actions_left"] == 1


# ---------------------------------------------------------------- Annoying Tune / Plot Twist (Dandelion)
def test_annoying_tune_moves_the_opposing_fighter_up_to_4():
    out = resolve(game(geralt(fighters={GERALT: at("M06"), DANDELION: at("M13")}, hand=[TUNE]),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": TUNE, "by": DANDELION, "target": "Medusa", "defense": None}, ["M24"])
    assert out["combat"]["attack_value"] == 3 and hp(out, "Medusa") == 13
    assert space(out, "Medusa") == "M24" and dist("M21", "M24") == 4


def test_annoying_tune_cannot_move_5_and_is_dandelions_only():
    pos = game(geralt(fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[TUNE]),
               medusa(fighters={"Medusa": at("M21")}))
    with pytest.raises(ScenarioError, match=r"'M16'.*destination space"):
        resolve(pos, {"attack": TUNE, "by": DANDELION, "target": "Medusa", "defense": None}, ["M16"])
    with pytest.raises(ScenarioError, match="Geralt of Rivia cannot attack Medusa with 'Annoying Tune'"):
        resolve(pos, {"attack": TUNE, "by": GERALT, "target": "Medusa", "defense": None}, ["M21"])


def test_plot_twist_geralt_picks_the_discard_then_draws():
    out = resolve(game(geralt(fighters={GERALT: at("M06"), DANDELION: at("M13")}, hand=[PLOT], deck=[IGNI, REND]),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe", "Dash", "Feint"])),
                  {"attack": PLOT, "by": DANDELION, "target": "Medusa", "defense": None}, ["Dash"])
    assert out["combat"]["attack_value"] == 2 and hp(out, "Medusa") == 14
    assert p1(out)["hand"] == ["Snipe", "Feint"] and p1(out)["discard"] == ["Dash"]
    assert p1(out)["hand_seen"] is True
    assert p0(out)["hand"] == [IGNI] and p0(out)["deck"] == [REND]


# ---------------------------------------------------------------- Wolf Medallion
def test_wolf_medallion_ranged_attacker_not_adjacent_value_ignored_and_effects_cancelled():
    # Medusa (ranged) on M13 attacks Geralt on M21: same red zone, not adjacent.
    out = resolve(game(geralt(fighters={GERALT: at("M21")}, hand=[MEDALLION, IGNI]),
                       medusa(fighters={"Medusa": at("M13")}, hand=["Second Shot", "Gaze of Stone"]), active=1),
                  {"attack": "Second Shot", "by": "Medusa", "target": GERALT, "defense": MEDALLION})
    assert out["combat"] == {"attack_value": 0, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, GERALT) == 16
    assert p1(out)["hand"] == ["Gaze of Stone"]           # Second Shot's BOOST was cancelled (not asked)
    assert "Geralt of Rivia cancels the effects on the attack card" in log_text(out)


def test_wolf_medallion_ranged_leshen_in_the_zone():
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[FLOCK]),
                       geralt(fighters={GERALT: at("M21")}, hand=[MEDALLION])),
                  {"attack": FLOCK, "by": LESHEN, "target": GERALT, "defense": MEDALLION})
    assert out["combat"] == {"attack_value": 0, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert space(out, LESHEN) == "M13" and out["choices_used"] == 0   # no "may place" asked


def test_wolf_medallion_adjacent_attacker_keeps_its_value_effects_cancelled():
    # Hounds of Mighty Zeus 4 vs Medallion 3: 1 damage; the Hounds' Harpy moves are cancelled.
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[MEDALLION]),
                       medusa(fighters={"Medusa": at("M06"), "Harpy 1": at("M21"), "Harpy 2": at("M28")},
                              hand=[HOUNDS]), active=1),
                  {"attack": HOUNDS, "by": "Harpy 1", "target": GERALT, "defense": MEDALLION})
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert hp(out, GERALT) == 15
    assert space(out, "Harpy 1") == "M21" and space(out, "Harpy 2") == "M28"


@pytest.mark.parametrize("n,cancelled", [(7, False), (6, True)])
def test_wolf_medallion_cannot_cancel_ciri_at_7_source(n, cancelled):
    # Blink 4 vs Medallion 3 (adjacent, so not ignored): 1 damage. At 7 Source the cancel
    # fails and Blink's move (through Geralt) happens; at 6 it is cancelled.
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[BLINK], discard=source(n)),
                       geralt(fighters={GERALT: at("M21")}, hand=[MEDALLION])),
                  {"attack": BLINK, "by": CIRI, "target": GERALT, "defense": MEDALLION},
                  [] if cancelled else ["M26"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert hp(out, GERALT) == 15
    assert space(out, CIRI) == ("M20" if cancelled else "M26")
    assert ("cannot be cancelled" in log_text(out)) is not cancelled


# ---------------------------------------------------------------- Armor of the Forgotten Wolf (R57)
def r57_position(**extra):
    return game(
        geralt("steel+wolf-armor+owl", fighters={GERALT: at("M20"), DANDELION: at("M13")},
               hand=[ARMOR, IGNI, REND]),
        medusa(fighters={"Medusa": at("M06"), "Harpy 1": at("M21")}, hand=[CLAWS, "Snipe"]),
        active=1, **extra)


def test_R57_armor_plus_1_per_adjacent_fighter_wins_and_ends_the_attackers_turn():
    out = resolve(r57_position(), {"attack": CLAWS, "by": "Harpy 1", "target": GERALT, "defense": ARMOR})
    assert out["combat"] == {"attack_value": 3, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert hp(out, GERALT) == 16
    assert out["turn_ended"] is True
    # Clutching Claws' "your opponent discards 1" does not happen
    assert p0(out)["hand"] == [IGNI, REND]
    assert p0(out)["discard"] == [ARMOR] and p1(out)["discard"] == [CLAWS]
    assert "the turn ends" in log_text(out)


def test_armor_counts_every_adjacent_fighter_of_both_sides():
    out = resolve(game(
        geralt("steel+wolf-armor+owl", fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[ARMOR]),
        medusa(fighters={"Medusa": at("M06"), "Harpy 1": at("M21"), "Harpy 2": at("M27")}, hand=[HOUNDS]),
        active=1), {"attack": HOUNDS, "by": "Harpy 1", "target": GERALT, "defense": ARMOR})
    assert out["combat"] == {"attack_value": 4, "defense_value": 5, "damage": 0, "winner": "defender"}
    # the Hounds' After (each Harpy moves) is stopped by the turn ending (defender's After first)
    assert space(out, "Harpy 1") == "M21" and space(out, "Harpy 2") == "M27"
    assert out["turn_ended"] is True


def test_armor_alone_is_2_plus_the_attacker():
    out = resolve(game(
        geralt("steel+wolf-armor+owl", fighters={GERALT: at("M20")}, hand=[ARMOR]),
        sinbad(fighters={"Sinbad": at("M21")}, hand=["Exploit"], deck=["Feint"]),
        active=1), {"attack": "Exploit", "by": "Sinbad", "target": GERALT, "defense": ARMOR})
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert hp(out, GERALT) == 15
    assert p1(out)["hand"] == [] and p1(out)["deck"] == ["Feint"]     # Exploit's draw stopped
    assert out["turn_ended"] is True


def test_R57_whole_turn_medusa_loses_her_second_action_hand_limit_still_runs():
    pos = r57_position()
    pos["players"][1]["hand"] = [CLAWS, "Snipe", "Dash", "Feint", "Regroup", "Gaze of Stone",
                                 "Second Shot", HISS, "Snipe"]
    sc = Scenario(pos)
    attack = pack_action(L.A_ATTACK, sc.fighter("Harpy 1"), sc.fighter(GERALT), sc.card(1, CLAWS))
    out = run(sc, {"turn": True}, [attack, ARMOR, "Regroup"])
    text = log_text(out)
    assert "action 1: ATTACK" in text and "action 2" not in text
    assert hp(out, GERALT) == 16 and p0(out)["hand"] == [IGNI, REND]
    assert len(p1(out)["hand"]) == 7                      # 8 after the attack, 1 discarded to the limit
    assert p1(out)["discard"] == [CLAWS, "Regroup"]


# ---------------------------------------------------------------- Tawny Owl (R58)
def test_R58_tawny_owl_draws_2_gains_1_action_and_stays_in_play():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[OWL, IGNI], deck=[REND, YRDEN, UGLY]),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": OWL, "by": GERALT})
    assert p0(out)["hand"] == [IGNI, REND, YRDEN] and p0(out)["deck"] == [UGLY]
    assert out["actions_left"] == 2
    assert p0(out)["ongoing"] == OWL and p0(out)["discard"] == []


def test_tawny_owl_is_geralts_only():
    with pytest.raises(ScenarioError, match="Dandelion cannot play the scheme 'Tawny Owl'"):
        resolve(game(geralt(fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[OWL], deck=[IGNI, REND]),
                     medusa(fighters={"Medusa": at("M06")})), {"scheme": OWL, "by": DANDELION})


OWL_DEFENSE_POS = game(
    geralt(fighters={GERALT: at("M20")}, hand=[IGNI, REND], ongoing=OWL),
    medusa(fighters={"Medusa": at("M06"), "Harpy 1": at("M21")}, hand=[CLAWS]),
    active=1)


def test_R58_tawny_owl_geralt_may_ignore_an_opponents_discard_effect():
    out = resolve(OWL_DEFENSE_POS, {"attack": CLAWS, "by": "Harpy 1", "target": GERALT, "defense": None}, [True])
    assert hp(out, GERALT) == 13
    assert p0(out)["hand"] == [IGNI, REND] and p0(out)["discard"] == []
    assert p0(out)["ongoing"] == OWL


def test_R58_tawny_owl_geralt_may_also_accept_the_discard():
    out = resolve(OWL_DEFENSE_POS, {"attack": CLAWS, "by": "Harpy 1", "target": GERALT, "defense": None},
                  [False, REND])
    assert p0(out)["hand"] == [IGNI] and p0(out)["discard"] == [REND]


def test_tawny_owl_also_covers_random_discards():
    # Zireael at 5 Source: the opponent discards a random card; with the Owl Geralt may ignore it.
    out = resolve(game(ciri(fighters={CIRI: at("M21")}, hand=[ZIREAEL], discard=source(5, without=ZIREAEL)),
                       geralt(fighters={GERALT: at("M20")}, hand=[IGNI, REND, YRDEN], ongoing=OWL)),
                  {"attack": ZIREAEL, "by": CIRI, "target": GERALT, "defense": None}, [True])
    assert out["combat"]["attack_value"] == 4
    assert p1(out)["hand"] == [IGNI, REND, YRDEN]


def test_without_tawny_owl_no_question_is_asked():
    pos = game(geralt(fighters={GERALT: at("M20")}, hand=[IGNI, REND]),
               medusa(fighters={"Medusa": at("M06"), "Harpy 1": at("M21")}, hand=[CLAWS]), active=1)
    out = resolve(pos, {"attack": CLAWS, "by": "Harpy 1", "target": GERALT, "defense": None}, [IGNI])
    assert p0(out)["hand"] == [REND] and p0(out)["discard"] == [IGNI]


@pytest.mark.parametrize("potion,loadout", [(OWL, "steel+medallion+owl"), (BLIZZARD, "steel+medallion+blizzard")])
def test_R58_potion_discarded_at_end_of_geralts_turn_without_an_attack(potion, loadout):
    sc = Scenario(game(geralt(loadout, fighters={GERALT: at("M20")}, hand=[IGNI], ongoing=potion),
                       medusa(fighters={"Medusa": at("M06")})))
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] is None and p0(out)["discard"] == [potion]
    assert f"ongoing {potion} is discarded" in log_text(out)


@pytest.mark.parametrize("potion,loadout", [(OWL, "steel+medallion+owl"), (BLIZZARD, "steel+medallion+blizzard")])
def test_R58_potion_stays_after_a_turn_with_an_attack(potion, loadout):
    sc = Scenario(game(geralt(loadout, fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[PLOT],
                              deck=[IGNI], ongoing=potion),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe"])))
    run(sc, {"attack": PLOT, "by": DANDELION, "target": "Medusa", "defense": None})   # a Dandelion attack counts
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] == potion and p0(out)["discard"] == [PLOT]


def test_R58_potion_is_not_discarded_at_the_end_of_the_opponents_turn():
    sc = Scenario(game(geralt(fighters={GERALT: at("M20")}, hand=[IGNI], ongoing=OWL),
                       medusa(fighters={"Medusa": at("M06")}), active=1))
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] == OWL and p0(out)["discard"] == []


def test_R58_tawny_owl_played_then_attack_it_stays():
    sc = Scenario(game(geralt(fighters={GERALT: at("M20")}, hand=[OWL], deck=[UGLY, IGNI, REND]),
                       sinbad(fighters={"Sinbad": at("M21")})))
    out = run(sc, {"scheme": OWL, "by": GERALT})
    assert out["actions_left"] == 2
    run(sc, {"attack": UGLY, "by": GERALT, "target": "Sinbad", "defense": None})
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] == OWL and p0(out)["hand"] == [IGNI]


def test_R13_tawny_owl_nine_cards_mid_turn_then_down_to_7_and_owl_discarded():
    hand = [OWL, IGNI, REND, REND, YRDEN, YRDEN, UGLY, UGLY]
    sc = Scenario(game(geralt(fighters={GERALT: at("M20")}, hand=hand, deck=[DUELIST, PLOT, TUNE]),
                       medusa(fighters={"Medusa": at("M06")})))
    out = run(sc, {"scheme": OWL, "by": GERALT})
    assert len(p0(out)["hand"]) == 9
    out = run(sc, {"end_of_turn": True}, [UGLY, UGLY])
    assert len(p0(out)["hand"]) == 7
    assert p0(out)["ongoing"] is None
    assert Counter(p0(out)["discard"]) == Counter({OWL: 1, UGLY: 2})


def test_second_ongoing_scheme_discards_the_first():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[OWL], deck=[IGNI, REND], ongoing=OWL),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": OWL, "by": GERALT})
    assert p0(out)["ongoing"] == OWL and p0(out)["discard"] == [OWL]
    assert p0(out)["hand"] == [IGNI, REND] and out["actions_left"] == 2


@pytest.mark.parametrize("hero,card,choices", [
    ("ciri", UNICORN, []),
    ("ancient_leshen", PACK, ["M20"]),
])
def test_one_ongoing_scheme_per_hero_ciri_and_leshen(hero, card, choices):
    name = {"ciri": CIRI, "ancient_leshen": LESHEN}[hero]
    out = resolve(game({"hero": hero, "fighters": {name: at("M13")}, "hand": [card], "ongoing": card},
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": card, "by": name}, choices)
    assert p0(out)["ongoing"] == card and p0(out)["discard"] == [card]


# ---------------------------------------------------------------- Blizzard (R58)
def test_blizzard_draws_1_geralt_moves_up_to_3_stays_in_play_no_action():
    out = resolve(game(geralt("steel+medallion+blizzard", fighters={GERALT: at("M20")}, hand=[BLIZZARD],
                              deck=[IGNI, REND]),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": BLIZZARD, "by": GERALT}, ["M26"])
    assert p0(out)["hand"] == [IGNI] and p0(out)["deck"] == [REND]
    assert space(out, GERALT) == "M26" and dist("M20", "M26") == 3
    assert p0(out)["ongoing"] == BLIZZARD and out["actions_left"] == 1


def test_blizzard_geralt_cannot_move_4():
    with pytest.raises(ScenarioError, match=r"'M23'.*destination space"):
        resolve(game(geralt("steel+medallion+blizzard", fighters={GERALT: at("M20")}, hand=[BLIZZARD],
                            deck=[IGNI]),
                     medusa(fighters={"Medusa": at("M06")})),
                {"scheme": BLIZZARD, "by": GERALT}, ["M23"])


HOWLS_POS = {"fighters": {LESHEN: at("M06"), "Wolf 1": at("M21")}, "hand": [HOWLS]}


def test_disturbing_howls_moves_the_opposing_fighter_up_to_2_and_gains_an_action():
    out = resolve(game(leshen(**HOWLS_POS), geralt(fighters={GERALT: at("M20")})),
                  {"attack": HOWLS, "by": "Wolf 1", "target": GERALT, "defense": None}, ["M07"])
    assert out["combat"]["attack_value"] == 1 and hp(out, GERALT) == 15
    assert space(out, GERALT) == "M07" and dist("M20", "M07") == 2
    assert out["actions_left"] == 2


def test_R58_blizzard_stops_the_opponent_gaining_actions():
    out = resolve(game(leshen(**HOWLS_POS),
                       geralt("steel+medallion+blizzard", fighters={GERALT: at("M20")}, ongoing=BLIZZARD)),
                  {"attack": HOWLS, "by": "Wolf 1", "target": GERALT, "defense": None}, ["M07"])
    assert space(out, GERALT) == "M07"                    # the rest of the card still works
    assert out["actions_left"] == 1
    assert "gains" not in log_text(out)


def test_tawny_owl_does_not_stop_the_opponent_gaining_actions():
    out = resolve(game(leshen(**HOWLS_POS), geralt(fighters={GERALT: at("M20")}, ongoing=OWL)),
                  {"attack": HOWLS, "by": "Wolf 1", "target": GERALT, "defense": None}, ["M20"])
    assert out["actions_left"] == 2


def test_tawny_owls_action_is_blocked_by_an_opposing_geralts_blizzard():
    g1, g2 = f"{GERALT} (P1)", f"{GERALT} (P2)"
    out = resolve(game(geralt("steel+medallion+owl", fighters={g1: at("M20")}, hand=[OWL], deck=[IGNI, REND]),
                       geralt("silver+medallion+blizzard", fighters={g2: at("M06")}, ongoing=BLIZZARD)),
                  {"scheme": OWL, "by": g1})
    assert p0(out)["hand"] == [IGNI, REND]                # the draw still happens
    assert out["actions_left"] == 1
    assert p0(out)["ongoing"] == OWL and p1(out)["ongoing"] == BLIZZARD


# ---------------------------------------------------------------- Witcher Senses
def test_witcher_senses_gear_from_discard_senses_goes_to_discard():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[SENSES], deck=[IGNI, REND], discard=[STEEL]),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": SENSES, "by": GERALT})
    assert p0(out)["hand"] == [STEEL]
    assert p0(out)["discard"] == [SENSES]
    assert p0(out)["deck"] == [IGNI, REND]                # the deck was not searched, not shuffled


def test_witcher_senses_gear_from_deck_senses_is_shuffled_into_the_deck():
    deck = [IGNI, MEDALLION, REND, YRDEN, UGLY, PLOT]
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[SENSES], deck=deck),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": SENSES, "by": GERALT})
    assert p0(out)["hand"] == [MEDALLION]
    assert p0(out)["discard"] == []
    assert len(p0(out)["deck"]) == 6                      # 6 - Medallion + Senses
    assert Counter(p0(out)["deck"]) == Counter([IGNI, REND, YRDEN, UGLY, PLOT, SENSES])


@pytest.mark.parametrize("pile,card,deck_after,discard_after", [
    (1, OWL, [IGNI, REND, SENSES], [STEEL]),
    (2, STEEL, [IGNI, OWL, REND], [SENSES]),
])
def test_witcher_senses_player_picks_deck_or_discard(pile, card, deck_after, discard_after):
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[SENSES], deck=[IGNI, OWL, REND], discard=[STEEL]),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": SENSES, "by": GERALT}, [pile])
    assert p0(out)["hand"] == [card]
    assert Counter(p0(out)["deck"]) == Counter(deck_after)
    assert p0(out)["discard"] == discard_after


def test_witcher_senses_chooses_among_gear_cards_blizzard_and_owl_count_as_gear():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[SENSES], deck=[IGNI],
                              discard=[STEEL, MEDALLION, OWL]),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": SENSES, "by": GERALT}, [OWL])
    assert p0(out)["hand"] == [OWL]
    assert p0(out)["discard"] == [STEEL, MEDALLION, SENSES]


def test_witcher_senses_without_gear_finds_nothing():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[SENSES], deck=[IGNI, REND], discard=[YRDEN]),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": SENSES, "by": GERALT})
    assert p0(out)["hand"] == [] and p0(out)["deck"] == [IGNI, REND]
    assert p0(out)["discard"] == [YRDEN, SENSES]


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


# =========================================================================== Ciri

# ---------------------------------------------------------------- Source tiers: Lion Cub of Cintra
@pytest.mark.parametrize("n,value", [(0, 2), (1, 4), (4, 4), (5, 7), (9, 7)])
def test_lion_cub_only_the_highest_source_tier_applies(n, value):
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[CUB], discard=source(n, [PARRY, BLINK, CHANNEL], without=CUB)),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": CUB, "by": CIRI, "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == value
    assert hp(out, "Medusa") == 16 - value


def test_source_counts_only_the_discard_pile():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[CUB, PUSHED, ZIREAEL], deck=[PUSHED, ZIREAEL],
                            discard=[PARRY, BLINK]),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": CUB, "by": CIRI, "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 2


# ---------------------------------------------------------------- R60: Pushed to the Brink

def test_R60_feint_cannot_cancel_pushed_to_the_brink_at_7_source():
    # the cancel part of R60 (the damage part is the test below)
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[PUSHED], discard=source(7, without=PUSHED)),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Feint"])),
                  {"attack": PUSHED, "by": CIRI, "target": "Medusa", "defense": "Feint"})
    assert out["combat"] == {"attack_value": 3, "defense_value": 2, "damage": 1, "winner": "attacker"}
    assert "Medusa tries to cancel the attack card's effects, but they cannot be cancelled" in log_text(out)
    assert p1(out)["discard"] == ["Feint"] and p0(out)["discard"][-1] == PUSHED


def test_R60_feint_cannot_cancel_at_7_source_only_the_top_tier():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[PUSHED], discard=source(7, without=PUSHED)),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Feint"])),
                  {"attack": PUSHED, "by": CIRI, "target": "Medusa", "defense": "Feint"})
    assert out["combat"] == {"attack_value": 3, "defense_value": 2, "damage": 1, "winner": "attacker"}
    assert hp(out, "Medusa") == 13                        # 16 - 1, then 2 (not 1 + 2)
    assert "cannot be cancelled" in log_text(out)


def test_R60_at_6_source_feint_cancels():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[PUSHED], discard=source(6, without=PUSHED)),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Feint"])),
                  {"attack": PUSHED, "by": CIRI, "target": "Medusa", "defense": "Feint"})
    assert hp(out, "Medusa") == 15
    assert "Medusa cancels the effects on the attack card" in log_text(out)


@pytest.mark.parametrize("n,after", [(0, 13), (1, 13), (2, 12), (6, 12)])
def test_pushed_to_the_brink_source_2_tier_one_damage(n, after):
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[PUSHED], discard=source(n, without=PUSHED)),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": PUSHED, "by": CIRI, "target": "Medusa", "defense": None})
    assert hp(out, "Medusa") == after


PUSHED7_POS = game(
    ciri(fighters={CIRI: at("M20")}, hand=[PUSHED], discard=source(7, without=PUSHED)),
    medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M26"), "Harpy 2": at("M23")}),
)


def test_pushed_to_the_brink_source_7_any_opponent_within_3_spaces_along_lines():
    # M26 is 3 from Ciri along M20-M21-M25-M26, although Medusa stands on M21.
    out = resolve(PUSHED7_POS, {"attack": PUSHED, "by": CIRI, "target": "Medusa", "defense": None}, ["Harpy 1"])
    assert status(out, "Harpy 1") == "defeated" and hp(out, "Medusa") == 13


def test_pushed_to_the_brink_source_7_not_4_spaces_away():
    with pytest.raises(ScenarioError, match=r"'Harpy 2'.*legal options: Medusa, Harpy 1$"):
        resolve(PUSHED7_POS, {"attack": PUSHED, "by": CIRI, "target": "Medusa", "defense": None}, ["Harpy 2"])


# ---------------------------------------------------------------- Ciri's protection (7+ Source)
def test_7_source_protects_ihuarraquax_cards_too():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M20")}, hand=[SEARCHING],
                            deck=[PARRY, CUB, BLINK], discard=source(7, without=CUB)),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Feint"])),
                  {"attack": SEARCHING, "by": IHU, "target": "Medusa", "defense": "Feint"}, [True])
    assert out["combat"]["winner"] == "attacker"
    assert p0(out)["hand"] == [CUB]                       # the search happened
    assert "cannot be cancelled" in log_text(out)


@pytest.mark.parametrize("n,cancelled", [(7, False), (6, True)])
def test_7_source_protects_ciris_defense_card_against_an_attacking_feint(n, cancelled):
    # Medusa's attacking Feint cancels Blink's After (Ciri moves up to 3) below 7 Source only.
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[BLINK], discard=source(n)),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Feint"]), active=1),
                  {"attack": "Feint", "by": "Medusa", "target": CIRI, "defense": BLINK},
                  [] if cancelled else ["M07"])
    assert out["combat"] == {"attack_value": 2, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert space(out, CIRI) == ("M20" if cancelled else "M07")


def test_7_source_pushed_to_the_brink_on_defense_still_deals_its_2():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[PUSHED], discard=source(7, without=PUSHED)),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Feint"]), active=1),
                  {"attack": "Feint", "by": "Medusa", "target": CIRI, "defense": PUSHED})
    assert out["combat"] == {"attack_value": 2, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, "Medusa") == 14 and hp(out, CIRI) == 15


# ---------------------------------------------------------------- Channel the Source
CHANNEL_POS = game(
    ciri(fighters={CIRI: at("M20")}, hand=[CHANNEL, ZIREAEL, PUSHED, BLINK, CUB]),
    medusa(fighters={"Medusa": at("M21")}),
)


def test_channel_the_source_plus_2_per_discarded_source_card():
    out = resolve(CHANNEL_POS, {"attack": CHANNEL, "by": CIRI, "target": "Medusa", "defense": None},
                  [ZIREAEL, PUSHED, None])
    assert out["combat"]["attack_value"] == 2 + 4
    assert hp(out, "Medusa") == 10
    assert p0(out)["hand"] == [BLINK, CUB]
    assert p0(out)["discard"] == [ZIREAEL, PUSHED, CHANNEL]


def test_channel_the_source_all_three_then_nothing_left_to_ask():
    out = resolve(CHANNEL_POS, {"attack": CHANNEL, "by": CIRI, "target": "Medusa", "defense": None},
                  [ZIREAEL, PUSHED, CUB])
    assert out["combat"]["attack_value"] == 8 and p0(out)["hand"] == [BLINK]


def test_channel_the_source_none_discarded():
    out = resolve(CHANNEL_POS, {"attack": CHANNEL, "by": CIRI, "target": "Medusa", "defense": None}, [None])
    assert out["combat"]["attack_value"] == 2 and len(p0(out)["hand"]) == 4


def test_channel_the_source_only_source_cards():
    with pytest.raises(ScenarioError, match=r"'Blink'.*legal options: Zireael, Pushed to the Brink, Lion Cub of Cintra, no card"):
        resolve(CHANNEL_POS, {"attack": CHANNEL, "by": CIRI, "target": "Medusa", "defense": None}, [BLINK])


# ---------------------------------------------------------------- Bane of the Aen Elle
def test_bane_of_the_aen_elle_moves_through_opponents_then_1_damage_to_one_moved_through():
    # M20 -> M21 (Medusa) -> M25 (Harpy 1) -> M26 -> M23
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M20")}, hand=[BANE]),
                       medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M25")})),
                  {"attack": BANE, "by": IHU, "target": "Medusa", "defense": None}, ["M23", "Harpy 1"])
    assert out["combat"]["attack_value"] == 4 and hp(out, "Medusa") == 12
    assert space(out, IHU) == "M23"
    assert status(out, "Harpy 1") == "defeated"


def test_bane_of_the_aen_elle_damage_to_the_other_passed_fighter():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M20")}, hand=[BANE]),
                       medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M25")})),
                  {"attack": BANE, "by": IHU, "target": "Medusa", "defense": None}, ["M23", "Medusa"])
    assert hp(out, "Medusa") == 11 and hp(out, "Harpy 1") == 1


def test_bane_of_the_aen_elle_no_damage_without_passing_an_opponent():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M20")}, hand=[BANE]),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": BANE, "by": IHU, "target": "Medusa", "defense": None}, ["M01"])
    assert space(out, IHU) == "M01" and hp(out, "Medusa") == 12


def test_bane_of_the_aen_elle_is_ihuarraquax_only():
    with pytest.raises(ScenarioError, match="Ciri cannot attack Medusa with 'Bane of the Aen Elle'"):
        resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[BANE]), medusa(fighters={"Medusa": at("M21")})),
                {"attack": BANE, "by": CIRI, "target": "Medusa", "defense": None}, ["M20"])


# ---------------------------------------------------------------- Zireael
@pytest.mark.parametrize("n,value,discards", [(2, 2, 0), (3, 4, 0), (4, 4, 0), (5, 4, 1), (8, 4, 1)])
def test_zireael_source_tiers(n, value, discards):
    hand = ["Snipe", "Dash", "Feint"]
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[ZIREAEL], discard=source(n, without=ZIREAEL)),
                       medusa(fighters={"Medusa": at("M21")}, hand=hand)),
                  {"attack": ZIREAEL, "by": CIRI, "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == value
    assert len(p1(out)["hand"]) == 3 - discards and len(p1(out)["discard"]) == discards
    assert sorted(p1(out)["hand"] + p1(out)["discard"]) == sorted(hand)


# ---------------------------------------------------------------- The Lady of Space and Time
def test_lady_of_space_and_time_source_3_a_discard_card_onto_the_deck():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[LADY], deck=[PARRY], discard=source(3, [BLINK], without=LADY)),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": LADY, "by": CIRI, "target": "Medusa", "defense": None}, [BLINK])
    assert p0(out)["deck"] == [BLINK, PARRY]
    assert p0(out)["hand"] == []
    assert p0(out)["discard"] == [ZIREAEL] * 3 + [LADY]


def test_lady_of_space_and_time_source_8_a_discard_card_to_hand_then_draw():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[LADY], deck=[PARRY, CHANNEL],
                            discard=source(8, [BLINK], without=LADY)),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": LADY, "by": CIRI, "target": "Medusa", "defense": None}, [BLINK])
    assert p0(out)["hand"] == [BLINK, PARRY] and p0(out)["deck"] == [CHANNEL]


def test_lady_of_space_and_time_below_3_source_nothing():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[LADY], deck=[PARRY], discard=source(2, [BLINK], without=LADY)),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": LADY, "by": CIRI, "target": "Medusa", "defense": None})
    assert p0(out)["deck"] == [PARRY] and p0(out)["hand"] == []


# ---------------------------------------------------------------- Blink
def test_blink_ciri_moves_up_to_3_through_opponents():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[BLINK]),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": BLINK, "by": CIRI, "target": "Medusa", "defense": None}, ["M26"])
    assert out["combat"]["attack_value"] == 4 and hp(out, "Medusa") == 12
    assert space(out, CIRI) == "M26"                      # only reachable through Medusa on M21


def test_blink_cannot_move_4():
    with pytest.raises(ScenarioError, match=r"'M23'.*destination space"):
        resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[BLINK]), medusa(fighters={"Medusa": at("M21")})),
                {"attack": BLINK, "by": CIRI, "target": "Medusa", "defense": None}, ["M23"])


# ---------------------------------------------------------------- Searching Strike (R61)
SEARCH_DECK = [PARRY, ZIREAEL, BLINK, CHANNEL, PUSHED, BANE, UNICORN, SEARCHING]


def test_R61_searching_strike_takes_a_source_card_and_shuffles_the_deck():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M20")}, hand=[SEARCHING], deck=SEARCH_DECK),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": SEARCHING, "by": IHU, "target": "Medusa", "defense": None}, [True, PUSHED])
    assert hp(out, "Medusa") == 13
    assert p0(out)["hand"] == [PUSHED]
    assert Counter(p0(out)["deck"]) == Counter(c for c in SEARCH_DECK if c != PUSHED)
    assert "(deck shuffled)" in log_text(out)


def test_R61_searching_strike_may_decline_deck_untouched():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M20")}, hand=[SEARCHING], deck=SEARCH_DECK),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": SEARCHING, "by": IHU, "target": "Medusa", "defense": None}, [False])
    assert p0(out)["hand"] == [] and p0(out)["deck"] == SEARCH_DECK


def test_searching_strike_not_won_no_search():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M20")}, hand=[SEARCHING], deck=SEARCH_DECK),
                       medusa(fighters={"Medusa": at("M21")}, hand=[HISS])),
                  {"attack": SEARCHING, "by": IHU, "target": "Medusa", "defense": HISS})
    assert out["combat"]["winner"] == "defender"
    assert p0(out)["deck"] == SEARCH_DECK and p0(out)["hand"] == []


# ---------------------------------------------------------------- Parry
def test_parry_cancels_the_attack_cards_effects():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M21")}, hand=[PARRY]),
                       medusa(fighters={"Medusa": at("M20")}, hand=["Snipe"], deck=["Dash"]), active=1),
                  {"attack": "Snipe", "by": "Medusa", "target": IHU, "defense": PARRY})
    assert out["combat"] == {"attack_value": 3, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert p1(out)["hand"] == [] and p1(out)["deck"] == ["Dash"]      # no Snipe draw
    assert hp(out, IHU) == 7


# ---------------------------------------------------------------- Child of the Elder Blood
CHILD_FIGHTERS = ({CIRI: at("M20"), IHU: at("M13")},
                  {"Medusa": at("M21"), "Harpy 1": at("M07"), "Harpy 2": at("M27")})


@pytest.mark.parametrize("n,dmg", [(3, 0), (4, 1), (8, 1), (9, 3)])
def test_child_of_the_elder_blood_damages_every_other_fighter_in_ciris_zone(n, dmg):
    discard = [PUSHED] * 3 + [ZIREAEL] * 3 + [CUB] * 3
    out = resolve(game(ciri(fighters=CHILD_FIGHTERS[0], hand=[CHILD], discard=discard[:n]),
                       medusa(fighters=CHILD_FIGHTERS[1])),
                  {"scheme": CHILD, "by": CIRI})
    assert hp(out, "Medusa") == 16 - dmg
    assert hp(out, IHU) == 7 - dmg                        # her own Ihuarraquax too
    assert hp(out, CIRI) == 15                            # not Ciri herself
    assert hp(out, "Harpy 1") == (0 if dmg else 1)
    assert hp(out, "Harpy 2") == 1                        # M27: adjacent, not in her zone
    assert p0(out)["discard"][-1] == CHILD


# ---------------------------------------------------------------- Unicorn Ally
def test_unicorn_ally_ciri_recovers_2_and_it_stays_in_play():
    out = resolve(game(ciri(fighters={CIRI: at("M20", 10), IHU: at("M13")}, hand=[UNICORN]),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": UNICORN, "by": IHU})
    assert hp(out, CIRI) == 12 and hp(out, IHU) == 7
    assert p0(out)["ongoing"] == UNICORN and p0(out)["discard"] == []


def test_unicorn_ally_recovery_capped_at_15():
    out = resolve(game(ciri(fighters={CIRI: at("M20", 14)}, hand=[UNICORN]), medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": UNICORN, "by": CIRI})
    assert hp(out, CIRI) == 15


def test_unicorn_ally_draw_1_after_a_combat_on_her_turn():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[BLINK], deck=[PARRY, CUB], ongoing=UNICORN),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": BLINK, "by": CIRI, "target": "Medusa", "defense": None}, ["M20"])
    assert p0(out)["hand"] == [PARRY] and p0(out)["deck"] == [CUB]


def test_unicorn_ally_draw_1_after_a_combat_on_the_opponents_turn():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M21")}, hand=[PARRY], deck=[CUB], ongoing=UNICORN),
                       medusa(fighters={"Medusa": at("M20")}, hand=["Snipe"]), active=1),
                  {"attack": "Snipe", "by": "Medusa", "target": IHU, "defense": PARRY})
    assert p0(out)["hand"] == [CUB]


@pytest.mark.parametrize("hand_size,discarded", [(4, False), (5, True)])
def test_unicorn_ally_discarded_at_end_of_her_turn_with_5_or_more_cards(hand_size, discarded):
    hand = [PARRY, PARRY, BLINK, BLINK, CUB][:hand_size]
    sc = Scenario(game(ciri(fighters={CIRI: at("M20")}, hand=hand, ongoing=UNICORN),
                       medusa(fighters={"Medusa": at("M06")})))
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] == (None if discarded else UNICORN)
    assert p0(out)["discard"] == ([UNICORN] if discarded else [])


def test_unicorn_ally_not_discarded_at_the_end_of_the_opponents_turn():
    sc = Scenario(game(ciri(fighters={CIRI: at("M20")}, hand=[PARRY, PARRY, BLINK, BLINK, CUB], ongoing=UNICORN),
                       medusa(fighters={"Medusa": at("M06")}), active=1))
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] == UNICORN


# =========================================================================== Ancient Leshen

# ---------------------------------------------------------------- Heart of the Forest
HEART_POS = game(
    leshen(fighters={LESHEN: at("M13"), "Wolf 1": at("M20")}, hand=[PLANTED, WILY, COMMAND], deck=[SLAM, FLOCK]),
    medusa(fighters={"Medusa": at("M21")}),
)


def test_heart_of_the_forest_plus_3_on_the_leshens_second_attack():
    sc = Scenario(HEART_POS)
    out = run(sc, {"attack": PLANTED, "by": LESHEN, "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 4 and hp(out, "Medusa") == 12
    out = run(sc, {"attack": COMMAND, "by": LESHEN, "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 4 + 3 and hp(out, "Medusa") == 5


def test_heart_of_the_forest_not_after_a_wolf_attack():
    sc = Scenario(HEART_POS)
    run(sc, {"attack": WILY, "by": "Wolf 1", "target": "Medusa", "defense": None})
    out = run(sc, {"attack": COMMAND, "by": LESHEN, "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 4


def test_heart_of_the_forest_gives_the_wolves_nothing():
    sc = Scenario(HEART_POS)
    run(sc, {"attack": PLANTED, "by": LESHEN, "target": "Medusa", "defense": None})
    out = run(sc, {"attack": WILY, "by": "Wolf 1", "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 3


def test_heart_of_the_forest_resets_at_the_start_of_the_next_turn():
    sc = Scenario(HEART_POS)
    run(sc, {"attack": PLANTED, "by": LESHEN, "target": "Medusa", "defense": None})
    run(sc, {"end_of_turn": True})
    run(sc, {"start_of_turn": True}, [False])             # Medusa's gaze: declined
    run(sc, {"end_of_turn": True})
    run(sc, {"start_of_turn": True})
    out = run(sc, {"attack": COMMAND, "by": LESHEN, "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 4


def test_wolves_move_3_the_leshen_1():
    pos = game(leshen(fighters={LESHEN: at("M20"), "Wolf 1": at("M13")}, hand=[WILY], deck=[FLOCK]),
               medusa(fighters={"Medusa": at("M06")}))
    out = resolve(pos, {"maneuver": True}, [None, "Wolf 1", "M02", "M21"])
    assert space(out, "Wolf 1") == "M02" and dist("M13", "M02") == 3
    assert space(out, LESHEN) == "M21"
    with pytest.raises(ScenarioError, match=r"'M25'.*destination space"):
        resolve(pos, {"maneuver": True}, [None, LESHEN, "M25"])


def test_leshen_boosted_maneuver_adds_to_each_move_value():
    # Witcher rules: a BOOST adds to each fighter's own move (Flock of Birds, BOOST 1:
    # the Leshen up to 2, a Wolf up to 4).
    pos = game(leshen(fighters={LESHEN: at("M20"), "Wolf 1": at("M13")}, hand=[FLOCK], deck=[SLAM]),
               medusa(fighters={"Medusa": at("M06")}))
    out = resolve(pos, {"maneuver": True}, [FLOCK, "Wolf 1", "M03", "M25"])
    assert space(out, "Wolf 1") == "M03" and dist("M13", "M03") == 4
    assert space(out, LESHEN) == "M25" and dist("M20", "M25") == 2
    assert p0(out)["discard"] == [FLOCK] and p0(out)["hand"] == [SLAM]
    with pytest.raises(ScenarioError, match=r"'M26'.*destination space"):
        resolve(pos, {"maneuver": True}, [FLOCK, LESHEN, "M26"])


# ---------------------------------------------------------------- Primeval Slam (R63)
def test_R63_primeval_slam_summons_the_defeated_wolf_then_each_wolf_moves_up_to_3():
    out = resolve(game(leshen(fighters={LESHEN: at("M20"), "Wolf 1": at("M27")}, hand=[SLAM]),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": SLAM, "by": LESHEN, "target": "Medusa", "defense": None},
                  ["M07", "Wolf 1", "M30", "M02"])
    assert out["combat"]["attack_value"] == 4 and hp(out, "Medusa") == 12
    assert out["fighters"]["Wolf 2"] == {"space": "M02", "health": 1, "status": "in play"}
    assert space(out, "Wolf 1") == "M30" and dist("M27", "M30") == 3
    assert dist("M07", "M02") == 2


def test_R63_summoned_wolf_must_arrive_in_the_leshens_zone():
    with pytest.raises(ScenarioError) as e:
        resolve(game(leshen(fighters={LESHEN: at("M20"), "Wolf 1": at("M27")}, hand=[SLAM]),
                     medusa(fighters={"Medusa": at("M21")})),
                {"attack": SLAM, "by": LESHEN, "target": "Medusa", "defense": None}, ["M28"])
    assert "space to place on" in str(e.value)
    assert str(e.value).endswith("legal options: M01, M07, M08, M13")   # empty red/yellow spaces


def test_R63_with_both_wolves_on_the_board_one_is_placed_in_the_leshens_zone():
    out = resolve(game(leshen(fighters={LESHEN: at("M20"), "Wolf 1": at("M27"), "Wolf 2": at("M31")}, hand=[SLAM]),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": SLAM, "by": LESHEN, "target": "Medusa", "defense": None},
                  ["Wolf 2", "M13", "Wolf 1", "M27", "M13"])
    assert space(out, "Wolf 2") == "M13" and space(out, "Wolf 1") == "M27"


def test_primeval_slam_brings_back_a_wolf_that_started_off_the_board():
    out = resolve(game(leshen(fighters={LESHEN: at("M20"), "Wolf 1": "removed", "Wolf 2": "removed"}, hand=[SLAM]),
                       medusa(fighters={"Medusa": at("M21")}), rules={"summon_start_off_board": 1}),
                  {"attack": SLAM, "by": LESHEN, "target": "Medusa", "defense": None}, ["M13", "M13"])
    assert out["fighters"]["Wolf 1"] == {"space": "M13", "health": 1, "status": "in play"}
    assert status(out, "Wolf 2") == "removed"


# ---------------------------------------------------------------- Flock of Birds
def test_flock_of_birds_leshen_may_be_placed_on_any_space():
    pos = game(leshen(fighters={LESHEN: at("M13")}, hand=[FLOCK]), medusa(fighters={"Medusa": at("M21")}))
    out = resolve(pos, {"attack": FLOCK, "by": LESHEN, "target": "Medusa", "defense": None}, [True, "M06"])
    assert out["combat"]["attack_value"] == 5 and hp(out, "Medusa") == 11
    assert space(out, LESHEN) == "M06"
    out = resolve(pos, {"attack": FLOCK, "by": LESHEN, "target": "Medusa", "defense": None}, [False])
    assert space(out, LESHEN) == "M13"


# ---------------------------------------------------------------- Nature Abounds
@pytest.mark.parametrize("leshen_space,draws", [("M13", 3), ("M07", 2)])
def test_nature_abounds_draws_1_per_own_fighter_adjacent_to_the_opposing_fighter(leshen_space, draws):
    deck = [SLAM, FLOCK, WILY, COMMAND]
    out = resolve(game(leshen(fighters={LESHEN: at(leshen_space), "Wolf 1": at("M21"), "Wolf 2": at("M27")},
                              hand=[ABOUNDS], deck=deck),
                       medusa(fighters={"Medusa": at("M20")})),
                  {"attack": ABOUNDS, "by": "Wolf 1", "target": "Medusa", "defense": None})
    assert hp(out, "Medusa") == 14
    assert p0(out)["hand"] == deck[:draws] and p0(out)["deck"] == deck[draws:]


# ---------------------------------------------------------------- Command the Forest
def test_command_the_forest_won_opponent_discards():
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[COMMAND]),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe", "Dash", "Regroup"])),
                  {"attack": COMMAND, "by": LESHEN, "target": "Medusa", "defense": None}, ["Dash"])
    assert out["combat"]["winner"] == "attacker" and hp(out, "Medusa") == 12
    assert p1(out)["hand"] == ["Snipe", "Regroup"] and p1(out)["discard"] == ["Dash"]


def test_command_the_forest_not_won_no_discard():
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[COMMAND]),
                       medusa(fighters={"Medusa": at("M21")}, hand=[HISS, "Snipe"])),
                  {"attack": COMMAND, "by": LESHEN, "target": "Medusa", "defense": HISS})
    assert out["combat"]["winner"] == "defender"
    assert p1(out)["hand"] == ["Snipe"]


# ---------------------------------------------------------------- Planted Feet
def test_planted_feet_draws_if_the_fighter_has_not_left_its_space():
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[PLANTED], deck=[SLAM]),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": PLANTED, "by": LESHEN, "target": "Medusa", "defense": None})
    assert hp(out, "Medusa") == 12 and p0(out)["hand"] == [SLAM]


def test_planted_feet_no_draw_after_a_maneuver_moved_the_fighter():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M07")}, hand=[PLANTED], deck=[SLAM, FLOCK]),
                       medusa(fighters={"Medusa": at("M21")})))
    run(sc, {"maneuver": True}, [None, "M13"])
    out = run(sc, {"attack": PLANTED, "by": LESHEN, "target": "Medusa", "defense": None})
    assert p0(out)["hand"] == [SLAM] and p0(out)["deck"] == [FLOCK]


def test_planted_feet_no_draw_after_leaving_and_coming_back():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13"), "Wolf 1": at("M20")}, hand=[PLANTED],
                              deck=[SLAM, FLOCK, WILY]),
                       medusa(fighters={"Medusa": at("M21")})))
    run(sc, {"maneuver": True}, [None, "Wolf 1", "M27", "M13"])
    out = run(sc, {"maneuver": True}, [None, "Wolf 1", "M20", "M13"])
    assert space(out, "Wolf 1") == "M20"                  # back on its space, but it left it
    out = run(sc, {"attack": PLANTED, "by": "Wolf 1", "target": "Medusa", "defense": None})
    assert p0(out)["hand"] == [SLAM, FLOCK] and p0(out)["deck"] == [WILY]


def test_planted_feet_wolf_that_did_not_move_draws_while_the_leshen_moved():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M07"), "Wolf 1": at("M20")}, hand=[PLANTED], deck=[SLAM, FLOCK]),
                       medusa(fighters={"Medusa": at("M21")})))
    run(sc, {"maneuver": True}, [None, LESHEN, "M13", "M20"])
    out = run(sc, {"attack": PLANTED, "by": "Wolf 1", "target": "Medusa", "defense": None})
    assert p0(out)["hand"] == [SLAM, FLOCK]


def test_planted_feet_no_draw_when_the_position_says_it_started_elsewhere():
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[PLANTED], deck=[SLAM], started_on={LESHEN: "M07"}),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": PLANTED, "by": LESHEN, "target": "Medusa", "defense": None})
    assert p0(out)["hand"] == []


# ---------------------------------------------------------------- Harrying Strike
def test_harrying_strike_plus_2_per_own_fighter_adjacent_to_the_opposing_fighter():
    out = resolve(game(leshen(fighters={LESHEN: at("M13"), "Wolf 1": at("M21"), "Wolf 2": at("M27")}, hand=[HARRY]),
                       medusa(fighters={"Medusa": at("M20")})),
                  {"attack": HARRY, "by": "Wolf 1", "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 2 + 2 * 3
    assert hp(out, "Medusa") == 8


def test_harrying_strike_on_defense_counts_the_wolf_itself():
    out = resolve(game(leshen(fighters={LESHEN: at("M06"), "Wolf 1": at("M21")}, hand=[HARRY]),
                       medusa(fighters={"Medusa": at("M20")}, hand=["Snipe"], deck=["Dash"]), active=1),
                  {"attack": "Snipe", "by": "Medusa", "target": "Wolf 1", "defense": HARRY})
    assert out["combat"] == {"attack_value": 3, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert hp(out, "Wolf 1") == 1


def test_harrying_strike_is_wolf_only():
    with pytest.raises(ScenarioError, match="Ancient Leshen cannot attack Medusa with 'Harrying Strike'"):
        resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[HARRY]), medusa(fighters={"Medusa": at("M20")})),
                {"attack": HARRY, "by": LESHEN, "target": "Medusa", "defense": None})


# ---------------------------------------------------------------- Wily Fighting
def test_wily_fighting_1_damage_to_each_opposing_fighter_adjacent_to_your_fighter():
    out = resolve(game(leshen(fighters={LESHEN: at("M06"), "Wolf 1": at("M20"), "Wolf 2": at("M27")}, hand=[WILY]),
                       medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M13"), "Harpy 2": at("M07")})),
                  {"attack": WILY, "by": "Wolf 1", "target": "Medusa", "defense": None})
    assert hp(out, "Medusa") == 16 - 3 - 1
    assert status(out, "Harpy 1") == "defeated"
    assert hp(out, "Harpy 2") == 1 and hp(out, "Wolf 2") == 1


# ---------------------------------------------------------------- Primeval Guardian
def test_primeval_guardian_opponents_top_card_boost_added_to_their_attack_then_wolves_move():
    out = resolve(game(leshen(fighters={LESHEN: at("M13"), "Wolf 1": at("M07")}, hand=[GUARDIAN]),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe"], deck=["Gaze of Stone", "Dash"]),
                       active=1),
                  {"attack": "Snipe", "by": "Medusa", "target": LESHEN, "defense": GUARDIAN}, ["M02"])
    assert out["combat"] == {"attack_value": 3 + 4, "defense_value": 5, "damage": 2, "winner": "attacker"}
    assert hp(out, LESHEN) == 11
    assert p1(out)["discard"] == ["Gaze of Stone", "Snipe"]
    assert p1(out)["hand"] == ["Dash"] and p1(out)["deck"] == []      # Snipe's draw: the next card
    assert space(out, "Wolf 1") == "M02"
    assert "discards the top card of the deck: Gaze of Stone (BOOST 4)" in log_text(out)


def test_primeval_guardian_with_an_empty_opposing_deck_adds_nothing():
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[GUARDIAN]),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe"], deck=[]), active=1),
                  {"attack": "Snipe", "by": "Medusa", "target": LESHEN, "defense": GUARDIAN})
    assert out["combat"]["attack_value"] == 3 and out["combat"]["winner"] == "defender"


# ---------------------------------------------------------------- Strength of the Pack
def test_strength_of_the_pack_summons_a_wolf_and_stays_in_play():
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[PACK]), medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": PACK, "by": LESHEN}, ["M20"])
    assert out["fighters"]["Wolf 1"] == {"space": "M20", "health": 1, "status": "in play"}
    assert status(out, "Wolf 2") == "defeated"
    assert p0(out)["ongoing"] == PACK and p0(out)["discard"] == []


def test_strength_of_the_pack_leshen_recovers_1_at_the_start_of_his_turn():
    out = resolve(game(leshen(fighters={LESHEN: at("M13", 10), "Wolf 1": at("M20")}, ongoing=PACK),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"start_of_turn": True})
    assert hp(out, LESHEN) == 11
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, ongoing=PACK), medusa(fighters={"Medusa": at("M06")})),
                  {"start_of_turn": True})
    assert hp(out, LESHEN) == 13


@pytest.mark.parametrize("wolf,kept", [("M20", True), ("M27", False)])
def test_strength_of_the_pack_discarded_at_end_of_turn_without_a_wolf_in_the_leshens_zone(wolf, kept):
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13"), "Wolf 1": at(wolf)}, ongoing=PACK),
                       medusa(fighters={"Medusa": at("M06")})))
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] == (PACK if kept else None)
    assert p0(out)["discard"] == ([] if kept else [PACK])


def test_strength_of_the_pack_checked_only_at_the_end_of_the_owners_turn():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13")}, ongoing=PACK),
                       medusa(fighters={"Medusa": at("M06")}), active=1))
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] == PACK


# ---------------------------------------------------------------- Vanish into Murder (R64, R65)
def test_R64_vanish_damage_then_the_leshen_is_removed_not_defeated():
    out = resolve(game(leshen(fighters={LESHEN: at("M13", 6), "Wolf 1": at("M27")}, hand=[VANISH]),
                       medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M07"), "Harpy 2": at("M25")})),
                  {"scheme": VANISH, "by": LESHEN})
    assert hp(out, "Medusa") == 15 and status(out, "Harpy 1") == "defeated"
    assert hp(out, "Harpy 2") == 1                        # M25 is not in the red zone
    assert out["fighters"][LESHEN] == {"space": None, "health": 6, "status": "removed"}
    assert out["winner"] is None
    assert p0(out)["discard"] == [VANISH]


def test_R64_leshen_returns_at_the_start_of_his_next_turn_then_draws_1():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13", 6)}, hand=[VANISH], deck=[SLAM, FLOCK]),
                       medusa(fighters={"Medusa": at("M21")})))
    run(sc, {"scheme": VANISH, "by": LESHEN})
    run(sc, {"end_of_turn": True})
    out = run(sc, {"start_of_turn": True})                # Medusa's gaze: no target, nothing asked
    assert out["choices_used"] == 0
    assert out["fighters"][LESHEN]["status"] == "removed" and hp(out, LESHEN) == 6
    run(sc, {"end_of_turn": True})
    out = run(sc, {"start_of_turn": True}, ["M31"])
    assert out["fighters"][LESHEN] == {"space": "M31", "health": 6, "status": "in play"}
    assert p0(out)["hand"] == [SLAM] and p0(out)["deck"] == [FLOCK]


def test_R64_dormant_player_is_no_opponent_with_a_wolf_on_the_board_he_is():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13", 6)}, hand=[VANISH]),
                       medusa(fighters={"Medusa": at("M21")})))
    run(sc, {"scheme": VANISH, "by": LESHEN})
    assert opponent_player(sc.st, 1, -1) == -1            # "your opponent discards" finds nobody
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13", 6), "Wolf 1": at("M27")}, hand=[VANISH]),
                       medusa(fighters={"Medusa": at("M21")})))
    run(sc, {"scheme": VANISH, "by": LESHEN})
    assert opponent_player(sc.st, 1, -1) == 0


def test_R64_vanish_as_first_action_with_no_wolves_the_turn_stops():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13", 6)}, hand=[VANISH, SLAM], deck=[FLOCK, WILY]),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe"])))
    vanish = pack_action(L.A_SCHEME, sc.fighter(LESHEN), -1, sc.card(0, VANISH))
    out = run(sc, {"turn": True}, [vanish])
    text = log_text(out)
    assert "action 1: SCHEME" in text and "action 2" not in text
    assert p0(out)["hand"] == [SLAM]


def test_R64_vanish_with_a_wolf_on_the_board_the_player_keeps_acting():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13", 6), "Wolf 1": at("M27")}, hand=[VANISH], deck=[FLOCK]),
                       medusa(fighters={"Medusa": at("M06")})))
    vanish = pack_action(L.A_SCHEME, sc.fighter(LESHEN), -1, sc.card(0, VANISH))
    # the second action is forced (a maneuver: no card left to play), so it is not asked
    out = run(sc, {"turn": True}, [vanish, None, "M30"])
    text = log_text(out)
    assert "action 1: SCHEME" in text and "action 2: MANEUVER" in text
    assert space(out, "Wolf 1") == "M30" and status(out, LESHEN) == "removed"
    assert p0(out)["hand"] == [FLOCK]


def test_R65_strength_of_the_pack_discarded_when_the_leshen_vanished():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13"), "Wolf 1": at("M20")}, hand=[VANISH], ongoing=PACK),
                       medusa(fighters={"Medusa": at("M06")})))
    out = run(sc, {"scheme": VANISH, "by": LESHEN})
    assert p0(out)["ongoing"] == PACK                     # Vanish is not an ongoing scheme
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] is None
    assert p0(out)["discard"] == [VANISH, PACK]


# ---------------------------------------------------------------- setup of the Wolves
def _setup_lines(rules, seed=3):
    g = Match(["ancient_leshen", "medusa"], rules=rules).play(seed)
    return [ln for ln in narrate(g) if ln.startswith("  setup:")]


def test_wolves_start_on_the_battlefield_in_the_leshens_zone_by_default():
    lines = _setup_lines(None)
    wolves = [ln for ln in lines if "Wolf" in ln]
    assert len(wolves) == 2
    leshen_space = next(ln for ln in lines if LESHEN in ln).split(" on ")[1]
    for ln in wolves:
        s = ln.split(" on ")[1]
        assert BF.zone_mask[BF.index(s)] & BF.zone_mask[BF.index(leshen_space)]


def test_rules_option_summon_start_off_board_no_wolves_at_setup():
    lines = _setup_lines({"summon_start_off_board": 1})
    assert [ln for ln in lines if "Wolf" in ln] == []
    assert any(LESHEN in ln for ln in lines) and any("Harpy" in ln for ln in lines)
