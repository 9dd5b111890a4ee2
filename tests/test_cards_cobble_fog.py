"""Card tests for the Cobble & Fog heroes: Dracula, Dr. Jekyll & Mr. Hyde, the Invisible
Man and Sherlock Holmes. Every card and every ability, and the Cobble & Fog rules cases of
docs/rules.md (R02, R08, R17, R21, R22, R37, R38, R40, R42-R46, R48, R49, R51, R52,
R55 (c)); the test name carries the case id.

Each test builds an exact position with the scenario API (Soho unless stated), resolves one
step (or a few steps on one Scenario) with scripted choices and asserts the numbers the card
changes: health, piles by name, spaces, fog token spaces, combat values and winner, actions
left.

Map facts used below (sim/battlefields/soho.toml; checked by test_map_facts_used_by_these_tests):
  lines SH01-SH02-SH03-SH04-SH05-SH06-SH07-SH08-SH14-SH17-SH24-SH29-SH28-SH23-SH16-SH13-SH06,
  SH04-SH11-SH10-SH09-SH01, SH09-SH21-SH25-SH26-SH22-SH12-SH11, SH21-SH18-SH19-SH15-SH20-SH24,
  SH12-SH13, SH14-SH16, SH22-SH27-SH28, SH26-SH27.
  zones: navy = SH04 SH05 SH06 SH07 SH08 SH13 SH15 SH16; lightblue = SH01 SH02 SH03 SH04 SH10
  SH11; pink = SH07 SH08 SH14 SH16 SH17 SH20 SH24; red = SH21 SH22 SH25 SH26 SH27 SH28.
Baskerville Manor (R21): passage spaces BM04, BM09, BM15, BM26; BM04-BM01-BM05 is a line.
Card texts: shared/reference/heroes/{dracula,jekyll_hyde,invisible_man,sherlock_holmes}.json.
Rules: the Cobble & Fog rules; project decisions in docs/rules.md (Jekyll/Hyde cards of
the other form cannot be played, rules option off_form_cards; passages are for movement only;
the game ends as soon as a hero is defeated).
"""
import json
from collections import Counter
from functools import partial

import numpy as np
import pytest
from helpers import cards
from helpers.cards import at, hero, hp, pl, run, space, status

from sim.content.battlefields import load_battlefield
from sim.content.heroes import load_all
from sim.engine import layout as L
from sim.engine.game import setup_game
from sim.engine.policy import MODE_RANDOM, new_control
from sim.play.match import Match
from sim.play.scenario import Scenario, ScenarioError, resolve

pytestmark = pytest.mark.nojit

SH = load_battlefield("soho")
BM = load_battlefield("baskerville_manor")

DRACULA = "Dracula"
JH = "Dr. Jekyll & Mr. Hyde"
IM = "Invisible Man"
HOLMES = "Sherlock Holmes"
WATSON = "Dr. Watson"
S1, S2, S3 = "Sister 1", "Sister 2", "Sister 3"

# Dracula's cards
BEASTFORM = "Beastform"
FRENZY = "Feeding Frenzy"
THIRST = "Thirst for Sustenance"
AMBUSH = "Ambush"
DASH = "Dash"
FEINT = "Feint"
EXPLOIT = "Exploit"
BIDDING = "Do My Bidding"
EYES = "Look Into My Eyes"
MISTFORM = "Mistform"
PREY = "Prey Upon"
BAPTISM = "Baptism of Blood"
SEDUCTION = "Ravening Seduction"
# Jekyll & Hyde's cards
RECOIL = "Recoiling Blow"
FOREVER = "Forever Hyde"
DUALITY = "Duality of Man"
TRIAGE = "Distracted Triage"
SUCCUMB = "Succumb to Compulsion"
RELENTS = "Madness Relents"
SKIRMISH = "Skirmish"
HASTE = "With Haste!"
METHOD = "Scientific Method"
CALMING = "Calming Research"
EVIL = "Pure Evil"
STRANGE = "Strange Case"
# the Invisible Man's cards
SURPRISE = "Surprise Attack"
SLIP = "Slip Away"
EMERGE = "Emerge From Mist"
COVERT = "Covert Preparation"
REVENGE = "Dreaming of Revenge"
CONFOUND = "Confound"
UNSEEN = "Impossible to See"
LURKING = "Lurking"
THIN_AIR = "Into Thin Air"
CODED = "Coded Notes"
TERROR = "Reign of Terror"
VANISH = "Vanish"
STEP = "Step Lightly"
ROLLING = "Rolling Fog"
# Sherlock Holmes's cards
AFOOT = "The Game is Afoot"
REVOLVER = "Service Revolver"
DEDUCE = "Deduce Strategy"
COUNTER = "Counterpunch"
FIXED = "Fixed Point in a Changing Age"
EDUCATION = "Education Never Ends"
STUDY = "Study Methods"
ELEMENTARY = "Elementary"
CONFIRM = "Confirm Suspicion"
ELIMINATE = "Eliminate the Impossible"
DISGUISE = "Master of Disguise"
AID = "Administer Aid"
# other heroes' cards used
EXCALIBUR = "Excalibur"          # King Arthur: attack 6, BOOST 3, no effect
GAZE = "Gaze of Stone"           # Medusa: attack 2, BOOST 4
HISS = "Hiss and Slither"        # Medusa: versatile 4, BOOST 2... after: opponent discards 1
SNIPE = "Snipe"
APES = "Voyage to the City of the Man-Eating Apes"

game = partial(cards.game, battlefield="soho")      # a position on Soho unless stated


def adj(a, b, bf=SH):
    return bool(bf.adj[bf.index(a), bf.index(b)])


def zone_of(s, bf=SH):
    return {bf.space_ids[i] for i in range(bf.n_spaces) if bf.zone_mask[i] & bf.zone_mask[bf.index(s)]}


def test_map_facts_used_by_these_tests():
    line = ["SH01", "SH02", "SH03", "SH04", "SH05", "SH06", "SH07", "SH08", "SH14", "SH17", "SH24", "SH29",
            "SH28", "SH23", "SH16", "SH13", "SH06"]
    assert all(adj(a, b) for a, b in zip(line, line[1:]))
    for a, b in (("SH04", "SH11"), ("SH11", "SH10"), ("SH10", "SH09"), ("SH09", "SH01"), ("SH09", "SH21"),
                 ("SH21", "SH25"), ("SH25", "SH26"), ("SH26", "SH22"), ("SH22", "SH12"), ("SH12", "SH11"),
                 ("SH21", "SH18"), ("SH18", "SH19"), ("SH19", "SH15"), ("SH15", "SH20"), ("SH20", "SH24"),
                 ("SH12", "SH13"), ("SH14", "SH16"), ("SH22", "SH27"), ("SH27", "SH28"), ("SH26", "SH27")):
        assert adj(a, b)
    assert not adj("SH05", "SH07") and not adj("SH04", "SH06")
    navy = SH.zone_names.index("navy")
    assert [s for i, s in enumerate(SH.space_ids) if SH.zone_mask[i] >> navy & 1] == [
        "SH04", "SH05", "SH06", "SH07", "SH08", "SH13", "SH15", "SH16"]
    assert zone_of("SH01") == {"SH01", "SH02", "SH03", "SH04", "SH10", "SH11"}
    assert zone_of("SH21") == {"SH21", "SH22", "SH25", "SH26", "SH27", "SH28"}
    assert [BM.space_ids[i] for i in np.flatnonzero(BM.passage)] == ["BM04", "BM09", "BM15", "BM26"]
    assert adj("BM04", "BM01", BM) and adj("BM01", "BM05", BM) and not adj("BM04", "BM26", BM)


# ---------------------------------------------------------------- hero files vs reference data
# (name, type, value, BOOST, copies, banner), copied from shared/reference/heroes/*.json
# (Jekyll & Hyde: the banner is the form, "any" for ANY cards)
REFERENCE_CARDS = {
    "dracula": [
        (BEASTFORM, "attack", 6, 4, 2, DRACULA), (FRENZY, "attack", 2, 3, 2, DRACULA),
        (THIRST, "attack", 3, 3, 3, "Sister"), (AMBUSH, "attack", 2, 3, 2, "any"), (DASH, "versatile", 3, 1, 3, "any"),
        (FEINT, "versatile", 2, 2, 3, "any"), (EXPLOIT, "versatile", 4, 1, 2, "any"),
        (BIDDING, "defense", 3, 3, 2, DRACULA), (EYES, "defense", 1, 2, 2, DRACULA),
        (MISTFORM, "scheme", None, 2, 2, DRACULA), (PREY, "scheme", None, 4, 2, DRACULA),
        (BAPTISM, "scheme", None, 2, 2, DRACULA), (SEDUCTION, "scheme", None, 2, 3, "Sister")],
    "jekyll_hyde": [
        (RECOIL, "attack", 5, 2, 2, "Mr. Hyde"), (FOREVER, "attack", 5, 2, 2, "Mr. Hyde"),
        (DUALITY, "versatile", 3, 1, 2, "any"), (TRIAGE, "versatile", 3, 3, 2, "Dr. Jekyll"),
        (SUCCUMB, "versatile", 2, 2, 3, "Dr. Jekyll"), (RELENTS, "versatile", 4, 2, 2, "Mr. Hyde"),
        (SKIRMISH, "versatile", 4, 1, 3, "any"), (FEINT, "versatile", 2, 2, 3, "any"),
        (HASTE, "defense", 4, 3, 2, "Dr. Jekyll"), (METHOD, "defense", 2, 2, 2, "Dr. Jekyll"),
        (CALMING, "scheme", None, 3, 2, "Dr. Jekyll"), (EVIL, "scheme", None, 3, 3, "Mr. Hyde"),
        (STRANGE, "scheme", None, 2, 2, "Mr. Hyde")],
    "invisible_man": [
        (SURPRISE, "attack", 5, 1, 2, IM), (SLIP, "attack", 3, 2, 3, IM), (EMERGE, "attack", 3, 2, 2, IM),
        (COVERT, "versatile", 2, 1, 3, IM), (REVENGE, "versatile", 3, 1, 2, IM), (CONFOUND, "versatile", 3, 2, 2, IM),
        (UNSEEN, "versatile", 2, 2, 2, IM), (LURKING, "defense", 2, 2, 2, IM), (THIN_AIR, "defense", 4, 1, 2, IM),
        (CODED, "defense", 3, 2, 2, IM), (TERROR, "scheme", None, 1, 2, IM), (VANISH, "scheme", None, 3, 2, IM),
        (STEP, "scheme", None, 1, 2, IM), (ROLLING, "scheme", None, 1, 2, IM)],
    "sherlock_holmes": [
        (AFOOT, "attack", 5, 2, 2, HOLMES), (REVOLVER, "attack", 5, 3, 2, WATSON), (DEDUCE, "versatile", 3, 1, 3, HOLMES),
        (COUNTER, "versatile", 3, 1, 3, HOLMES), (FIXED, "versatile", 3, 1, 2, WATSON),
        (EDUCATION, "versatile", 3, 1, 2, "any"), (STUDY, "versatile", 3, 2, 2, "any"), (FEINT, "versatile", 2, 1, 3, "any"),
        (ELEMENTARY, "defense", 3, 3, 2, HOLMES), (CONFIRM, "scheme", None, 1, 3, HOLMES),
        (ELIMINATE, "scheme", None, 2, 2, HOLMES), (DISGUISE, "scheme", None, 2, 2, HOLMES),
        (AID, "scheme", None, 2, 2, WATSON)],
}
# (name, health, move, ranged, count) of each fighter
REFERENCE_FIGHTERS = {
    "dracula": [(DRACULA, 13, 2, False, 1), ("Sister", 1, 2, False, 3)],
    "jekyll_hyde": [(JH, 16, 2, False, 1)],
    "invisible_man": [(IM, 15, 2, False, 1)],
    "sherlock_holmes": [(HOLMES, 16, 2, False, 1), (WATSON, 8, 2, True, 1)],
}


def _banner(key, c):
    if key == "jekyll_hyde":
        return "any" if c.form == 0 else ("Dr. Jekyll", "Mr. Hyde")[c.form - 1]
    return c.fighters[0]


@pytest.mark.parametrize("key", sorted(REFERENCE_CARDS))
def test_cobble_fog_hero_files_match_the_reference_numbers(key):
    spec = load_all()[key]
    assert [(c.name, c.type, c.value, c.boost, c.copies, _banner(key, c)) for c in spec.cards] == REFERENCE_CARDS[key]
    assert all(len(c.fighters) == 1 for c in spec.cards)
    assert [(f.name, f.health, f.move, bool(f.ranged), f.count) for f in spec.fighters] == REFERENCE_FIGHTERS[key]
    assert spec.deck_size() == 30


def test_holmes_and_watson_cards_are_uncancelable_any_cards_are_not():
    spec = load_all()["sherlock_holmes"]
    tagged = {c.name for c in spec.cards if "uncancelable" in c.tags}
    assert tagged == {c.name for c in spec.cards if c.fighters[0] in (HOLMES, WATSON)}
    assert {c.name for c in spec.cards if c.fighters[0] == "any"} == {EDUCATION, STUDY, FEINT}
    assert not tagged & {EDUCATION, STUDY, FEINT}


def test_heroes_command_shows_the_character_cards():
    from click.testing import CliRunner

    from sim.cli import main
    r = CliRunner().invoke(main, ["heroes", "--json"])
    assert r.exit_code == 0, r.output
    rows = {h["key"]: h for h in json.loads(r.output)}
    assert (rows["dracula"]["health"], rows["dracula"]["move"], rows["dracula"]["attack"]) == (13, 2, "melee")
    assert rows["dracula"]["sidekicks"] == [{"name": "Sister", "count": 3, "health": 1, "move": 2, "attack": "melee"}]
    assert (rows["jekyll_hyde"]["name"], rows["jekyll_hyde"]["health"], rows["jekyll_hyde"]["sidekicks"]) == (JH, 16, [])
    assert (rows["invisible_man"]["health"], rows["invisible_man"]["sidekicks"]) == (15, [])
    assert rows["sherlock_holmes"]["sidekicks"] == [{"name": WATSON, "count": 1, "health": 8, "move": 2,
                                                     "attack": "ranged"}]
    for k in REFERENCE_CARDS:
        assert rows[k]["deck_size"] == {"default": 30} and rows[k]["set"] == "Cobble & Fog" and rows[k]["ability"]
    assert rows["jekyll_hyde"]["forms"] == ["Dr. Jekyll", "Mr. Hyde"] and rows["dracula"]["forms"] == []
    assert rows["invisible_man"]["fog_tokens"] == 3 and rows["sherlock_holmes"]["fog_tokens"] == 0
    text = CliRunner().invoke(main, ["heroes"]).output
    assert "forms: Dr. Jekyll, Mr. Hyde (starts as Dr. Jekyll)" in text and "fog tokens: 3" in text
    assert "sherlock_holmes: Sherlock Holmes (Cobble & Fog)" in text
    assert "1x Dr. Watson (8 health, move 2, ranged)" in text and "3x Sister (1 health, move 2, melee)" in text


# =========================================================================== Dracula

def dracula(**kw):
    return hero("dracula", **kw)


def holmes(**kw):
    return hero("sherlock_holmes", **kw)


def jekyll(form="Dr. Jekyll", **kw):
    return hero("jekyll_hyde", counters={"form": form}, **kw)


def invisible(fog=(), **kw):
    return hero("invisible_man", fog=list(fog), **kw)


BITE = game(dracula(fighters={DRACULA: at("SH05"), S1: at("SH06"), S2: at("SH13")}, deck=[EXPLOIT, DASH]),
            holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH10")}))


def test_R37_dracula_bites_his_own_sister_and_draws():
    out = resolve(BITE, {"start_of_turn": True}, [True])
    assert status(out, S1) == "defeated" and hp(out, S2) == 1       # S2 (SH13) is not next to him
    assert pl(out, 0)["hand"] == [EXPLOIT] and pl(out, 0)["deck"] == [DASH]


def test_R37_the_bite_is_optional():
    out = resolve(BITE, {"start_of_turn": True}, [False])
    assert hp(out, S1) == 1 and pl(out, 0)["hand"] == []


def test_R37_dracula_bites_an_opposing_fighter_of_his_choice():
    pos = game(dracula(fighters={DRACULA: at("SH05"), S1: at("SH06")}, deck=[EXPLOIT]),
               holmes(fighters={HOLMES: at("SH04", 10), WATSON: at("SH10")}))
    out = resolve(pos, {"start_of_turn": True}, [True, HOLMES])
    assert hp(out, HOLMES) == 9 and hp(out, S1) == 1 and pl(out, 0)["hand"] == [EXPLOIT]


def test_R37_no_fighter_next_to_him_no_bite_no_draw():
    pos = game(dracula(fighters={DRACULA: at("SH05")}, deck=[EXPLOIT]),
               holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH10")}))
    out = resolve(pos, {"start_of_turn": True})
    assert out["choices_used"] == 0 and pl(out, 0)["hand"] == [] and hp(out, DRACULA) == 13


DRAC_VS_HOLMES = dict(holmes=holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH10")}))


def _dh(dhand, hhand=(), **d):
    return game(dracula(fighters={DRACULA: at("SH05"), **d.pop("sisters", {})}, hand=list(dhand), **d),
                holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH10")}, hand=list(hhand)))


def test_beastform_plus_1_per_card_discarded():
    out = resolve(_dh([BEASTFORM, FEINT, DASH, EXPLOIT]),
                  {"attack": BEASTFORM, "by": DRACULA, "target": HOLMES, "defense": None}, [FEINT, DASH, None])
    assert out["combat"]["attack_value"] == 8 and hp(out, HOLMES) == 8
    assert pl(out, 0)["hand"] == [EXPLOIT] and Counter(pl(out, 0)["discard"]) == Counter([FEINT, DASH, BEASTFORM])


def test_beastform_may_discard_nothing():
    out = resolve(_dh([BEASTFORM, FEINT]), {"attack": BEASTFORM, "by": DRACULA, "target": HOLMES, "defense": None},
                  [None])
    assert out["combat"]["attack_value"] == 6 and pl(out, 0)["hand"] == [FEINT]


def test_feeding_frenzy_plus_1_per_sister_in_the_opposing_fighters_zone():
    # Holmes on SH04 (lightblue and navy): Sisters on SH03 (lightblue) and SH06 (navy) count, SH09 (gray) not
    pos = _dh([FRENZY], sisters={S1: at("SH03"), S2: at("SH06"), S3: at("SH09")})
    out = resolve(pos, {"attack": FRENZY, "by": DRACULA, "target": HOLMES, "defense": None})
    assert out["combat"]["attack_value"] == 4 and hp(out, HOLMES) == 12


THIRST_POS = game(dracula(fighters={DRACULA: at("SH08"), S1: at("SH03")}, hand=[THIRST]),
                  holmes(fighters={HOLMES: at("SH02"), WATSON: at("SH10")}, hand=[COUNTER]))


def test_thirst_for_sustenance_won_places_dracula_next_to_the_opposing_fighter():
    out = resolve(THIRST_POS, {"attack": THIRST, "by": S1, "target": HOLMES, "defense": None})
    assert hp(out, HOLMES) == 13 and space(out, DRACULA) == "SH01"     # SH01: the empty space next to SH02


def test_thirst_for_sustenance_lost_dracula_stays():
    out = resolve(THIRST_POS, {"attack": THIRST, "by": S1, "target": HOLMES, "defense": COUNTER})
    assert out["combat"]["winner"] == "defender"
    assert space(out, DRACULA) == "SH08" and status(out, S1) == "defeated"   # Counterpunch: 2 damage


def test_ambush_adds_the_boost_of_the_randomly_discarded_card():
    out = resolve(_dh([AMBUSH], [ELEMENTARY]), {"attack": AMBUSH, "by": DRACULA, "target": HOLMES, "defense": None})
    assert out["combat"]["attack_value"] == 2 + 3 and hp(out, HOLMES) == 11
    assert pl(out, 1)["hand"] == [] and pl(out, 1)["discard"] == [ELEMENTARY]


def test_ambush_against_an_empty_hand_adds_nothing():
    out = resolve(_dh([AMBUSH]), {"attack": AMBUSH, "by": DRACULA, "target": HOLMES, "defense": None})
    assert out["combat"]["attack_value"] == 2 and hp(out, HOLMES) == 14


def test_dash_moves_up_to_3_after_combat():
    out = resolve(_dh([DASH]), {"attack": DASH, "by": DRACULA, "target": HOLMES, "defense": None}, ["SH08"])
    assert hp(out, HOLMES) == 13 and space(out, DRACULA) == "SH08"


def test_exploit_draws_1():
    pos = _dh([EXPLOIT], deck=[DASH])
    out = resolve(pos, {"attack": EXPLOIT, "by": DRACULA, "target": HOLMES, "defense": None})
    assert hp(out, HOLMES) == 12 and pl(out, 0)["hand"] == [DASH]


def test_dracula_feint_cancels_the_effects_of_jekylls_card():
    pos = game(jekyll(fighters={JH: at("SH04")}, hand=[SUCCUMB]), dracula(fighters={DRACULA: at("SH05")}, hand=[FEINT]))
    out = resolve(pos, {"attack": SUCCUMB, "by": JH, "target": DRACULA, "defense": FEINT})
    assert out["combat"] == {"attack_value": 2, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert space(out, JH) == "SH04" and pl(out, 0)["counters"] == {"form": "Dr. Jekyll"}   # no move, no Hyde


BIDDING_POS = game(holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH10")}, hand=[AFOOT, COUNTER, STUDY, AID]),
                   dracula(fighters={DRACULA: at("SH05")}, hand=[BIDDING]))


def test_do_my_bidding_dracula_picks_the_attack_card():
    out = resolve(BIDDING_POS, {"attack": AFOOT, "by": HOLMES, "target": DRACULA, "defense": BIDDING}, [STUDY])
    # Study Methods (3) against Do My Bidding (3): no damage, Dracula wins, Study's "if you won" fails
    assert out["combat"] == {"attack_value": 3, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, DRACULA) == 13 and pl(out, 0)["hand_seen"] is True      # Dracula saw Holmes's hand
    assert pl(out, 0)["hand"] == [COUNTER, AID, AFOOT] and pl(out, 0)["discard"] == [STUDY]
    assert pl(out, 1)["discard"] == [BIDDING]
    assert any("goes back to Sherlock Holmes's hand" in line for line in out["log"])


def test_do_my_bidding_offers_only_attack_cards_and_may_pick_the_same_one():
    sc = Scenario(BIDDING_POS)
    with pytest.raises(ScenarioError, match="legal options: Counterpunch, Study Methods, The Game is Afoot$"):
        run(sc, {"attack": AFOOT, "by": HOLMES, "target": DRACULA, "defense": BIDDING}, [AID])
    out = resolve(BIDDING_POS, {"attack": AFOOT, "by": HOLMES, "target": DRACULA, "defense": BIDDING},
                  [AFOOT, "SH01"])
    assert out["combat"]["damage"] == 2 and hp(out, DRACULA) == 11 and space(out, HOLMES) == "SH01"
    assert pl(out, 0)["discard"] == [AFOOT] and pl(out, 0)["hand"] == [COUNTER, STUDY, AID]


def test_R38_look_into_my_eyes_adds_the_attack_cards_boost():
    pos = game(hero("king_arthur", fighters={"King Arthur": at("SH04")}, hand=[EXCALIBUR]),
               dracula(fighters={DRACULA: at("SH05")}, hand=[EYES]))
    out = resolve(pos, {"attack": EXCALIBUR, "by": "King Arthur", "target": DRACULA, "defense": EYES, "boost": None})
    assert out["combat"] == {"attack_value": 6, "defense_value": 4, "damage": 2, "winner": "attacker"}
    assert hp(out, DRACULA) == 11


def test_R17_mistform_places_dracula_anywhere_and_gains_an_action():
    pos = game(dracula(fighters={DRACULA: at("SH02")}, hand=[MISTFORM]),
               holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH03")}), actions=1)
    out = resolve(pos, {"scheme": MISTFORM, "by": DRACULA}, ["SH20"])
    assert space(out, DRACULA) == "SH20" and out["actions_left"] == 2
    assert "Dracula is placed on SH20" in "\n".join(out["log"])
    with pytest.raises(ScenarioError, match="not legal"):        # only empty spaces
        resolve(pos, {"scheme": MISTFORM, "by": DRACULA}, ["SH03"])


@pytest.mark.parametrize("start, after", [(10, 12), (12, 13)])
def test_prey_upon_1_damage_to_each_adjacent_opponent_and_1_health_per_damage(start, after):
    pos = game(dracula(fighters={DRACULA: at("SH05", start), S1: at("SH13")}, hand=[PREY]),
               holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH06")}))
    out = resolve(pos, {"scheme": PREY, "by": DRACULA})
    assert (hp(out, HOLMES), hp(out, WATSON), hp(out, DRACULA), hp(out, S1)) == (15, 7, after, 1)


def test_R40_baptism_of_blood_recovery_is_capped_and_one_sister_returns():
    pos = game(dracula(fighters={DRACULA: at("SH05", 12), S1: at("SH06")}, hand=[BAPTISM]),
               holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH10")}))
    with pytest.raises(ScenarioError, match="legal options: SH04, SH07, SH08, SH13, SH15, SH16$"):
        resolve(pos, {"scheme": BAPTISM, "by": DRACULA}, ["SH20"])       # only Dracula's zone (navy)
    out = resolve(pos, {"scheme": BAPTISM, "by": DRACULA}, ["SH16"])
    assert hp(out, DRACULA) == 13
    assert (space(out, S2), hp(out, S2), status(out, S3)) == ("SH16", 1, "defeated")


def test_ravening_seduction_damage_per_sister_next_to_the_moved_fighter():
    pos = game(dracula(fighters={DRACULA: at("SH20"), S1: at("SH05"), S2: at("SH07")}, hand=[SEDUCTION]),
               holmes(fighters={HOLMES: at("SH13"), WATSON: at("SH10")}))
    out = resolve(pos, {"scheme": SEDUCTION, "by": S1}, [HOLMES, "SH06"])
    assert space(out, HOLMES) == "SH06" and hp(out, HOLMES) == 14       # Sisters on SH05 and SH07
    out = resolve(pos, {"scheme": SEDUCTION, "by": S1}, [WATSON, "SH11"])
    assert space(out, WATSON) == "SH11" and hp(out, WATSON) == 8         # no Sister next to SH11


# =========================================================================== Dr. Jekyll & Mr. Hyde

def _jd(form, jhand=(), dhand=(), jdeck=(), ddeck=(), jhp=None, rules=None, **kw):
    pos = game(jekyll(form, fighters={JH: at("SH05", jhp)}, hand=list(jhand), deck=list(jdeck)),
               dracula(fighters={DRACULA: at("SH04"), S1: at("SH20")}, hand=list(dhand), deck=list(ddeck)), **kw)
    if rules:
        pos["rules"] = rules
    return pos


def test_R42_jekyll_starts_as_jekyll():
    m = Match(["jekyll_hyde", "medusa"])
    st = m.new_state()
    setup_game(st, m.tables, new_control((MODE_RANDOM,) * 4), np.zeros((500, L.EV_FIELDS), np.int64), m.rows, 2, 3)
    assert st[L.pslot(0, L.P_COUNTER0 + L.FORM_COUNTER)] == 0              # "Dr. Jekyll" is form 0


def test_R42_transform_at_the_start_of_the_turn_then_hyde_takes_1_after_each_maneuver():
    sc = Scenario(_jd("Dr. Jekyll", jdeck=[SKIRMISH, FEINT]))
    out = run(sc, {"start_of_turn": True}, [True])
    assert pl(out, 0)["counters"] == {"form": "Mr. Hyde"} and hp(out, JH) == 16
    out = run(sc, {"maneuver": True}, [None, "SH05"])        # no BOOST, stay
    assert hp(out, JH) == 15
    out = run(sc, {"maneuver": True}, [None, "SH05"])
    assert hp(out, JH) == 14 and pl(out, 0)["hand"] == [SKIRMISH, FEINT]


def test_R42_transforming_is_optional_and_jekyll_takes_no_maneuver_damage():
    sc = Scenario(_jd("Dr. Jekyll", jdeck=[SKIRMISH]))
    out = run(sc, {"start_of_turn": True}, [False])
    assert pl(out, 0)["counters"] == {"form": "Dr. Jekyll"}
    out = run(sc, {"maneuver": True}, [None, "SH06"])
    assert hp(out, JH) == 16 and space(out, JH) == "SH06"


def test_R42_hyde_may_transform_back_at_the_start_of_the_turn():
    out = resolve(_jd("Mr. Hyde"), {"start_of_turn": True}, [True])
    assert pl(out, 0)["counters"] == {"form": "Dr. Jekyll"}


def test_R42_succumb_to_compulsion_then_a_maneuver_costs_1():
    sc = Scenario(_jd("Dr. Jekyll", [SUCCUMB], jdeck=[FEINT]))
    out = run(sc, {"attack": SUCCUMB, "by": JH, "target": DRACULA, "defense": None}, ["SH07"])
    assert hp(out, DRACULA) == 11 and space(out, JH) == "SH07" and pl(out, 0)["counters"] == {"form": "Mr. Hyde"}
    out = run(sc, {"maneuver": True}, [None, "SH07"])
    assert hp(out, JH) == 15


def test_R42_madness_relents_then_a_maneuver_costs_nothing():
    sc = Scenario(_jd("Mr. Hyde", [RELENTS], jdeck=[FEINT]))
    out = run(sc, {"attack": RELENTS, "by": JH, "target": DRACULA, "defense": None})
    assert hp(out, DRACULA) == 9 and pl(out, 0)["counters"] == {"form": "Dr. Jekyll"}
    out = run(sc, {"maneuver": True}, [None, "SH05"])
    assert hp(out, JH) == 16


@pytest.mark.parametrize("form, role, value", [("Dr. Jekyll", "defend", 6), ("Mr. Hyde", "attack", 6),
                                               ("Mr. Hyde", "defend", 3), ("Dr. Jekyll", "attack", 3)])
def test_R43_duality_of_man_depends_on_form_and_role(form, role, value):
    if role == "attack":
        out = resolve(_jd(form, [DUALITY]), {"attack": DUALITY, "by": JH, "target": DRACULA, "defense": None})
        assert out["combat"]["attack_value"] == value and hp(out, DRACULA) == 13 - value
    else:
        out = resolve(_jd(form, [DUALITY], [EXPLOIT], active=1, ddeck=[FEINT]),
                      {"attack": EXPLOIT, "by": DRACULA, "target": JH, "defense": DUALITY})
        assert out["combat"]["defense_value"] == value and hp(out, JH) == 16 - max(0, 4 - value)


def test_R44_default_a_card_of_the_other_form_cannot_be_played():
    pos = game(holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH07")}, hand=[REVOLVER]),
               jekyll("Mr. Hyde", fighters={JH: at("SH05")}, hand=[HASTE]))
    with pytest.raises(ScenarioError, match="is not legal for Dr. Jekyll & Mr. Hyde's defense card; legal options: no card"):
        resolve(pos, {"attack": REVOLVER, "by": WATSON, "target": JH, "defense": HASTE})
    with pytest.raises(ScenarioError, match="cannot play the scheme"):
        resolve(_jd("Dr. Jekyll", [EVIL]), {"scheme": EVIL, "by": JH})
    with pytest.raises(ScenarioError, match="cannot attack"):
        resolve(_jd("Dr. Jekyll", [RECOIL]), {"attack": RECOIL, "by": JH, "target": DRACULA})
    with pytest.raises(ScenarioError, match="cannot attack"):
        resolve(_jd("Mr. Hyde", [TRIAGE]), {"attack": TRIAGE, "by": JH, "target": DRACULA})


def test_R44_rules_option_off_form_cards_legal_but_the_effect_needs_the_form():
    pos = game(holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH07")}, hand=[REVOLVER]),
               jekyll("Mr. Hyde", fighters={JH: at("SH05")}, hand=[HASTE]), rules={"off_form_cards": 1})
    out = resolve(pos, {"attack": REVOLVER, "by": WATSON, "target": JH, "defense": HASTE})
    assert out["combat"] == {"attack_value": 5, "defense_value": 4, "damage": 1, "winner": "attacker"}
    assert hp(out, JH) == 15 and space(out, JH) == "SH05" and out["choices_used"] == 0    # no move
    pos["players"][1]["counters"] = {"form": "Dr. Jekyll"}
    out = resolve(pos, {"attack": REVOLVER, "by": WATSON, "target": JH, "defense": HASTE}, ["SH03"])
    assert space(out, JH) == "SH03"                    # in its own form the move happens


def test_recoiling_blow_placed_in_his_zone_then_jekyll():
    out = resolve(_jd("Mr. Hyde", [RECOIL]), {"attack": RECOIL, "by": JH, "target": DRACULA, "defense": None}, ["SH16"])
    assert hp(out, DRACULA) == 8 and space(out, JH) == "SH16" and pl(out, 0)["counters"] == {"form": "Dr. Jekyll"}
    with pytest.raises(ScenarioError, match="not legal"):
        resolve(_jd("Mr. Hyde", [RECOIL]), {"attack": RECOIL, "by": JH, "target": DRACULA, "defense": None}, ["SH20"])


def test_forever_hyde_plus_2_per_jekyll_card_discarded():
    pos = _jd("Mr. Hyde", [FOREVER, TRIAGE, HASTE, SKIRMISH])
    out = resolve(pos, {"attack": FOREVER, "by": JH, "target": DRACULA, "defense": None}, [TRIAGE, HASTE])
    assert out["combat"]["attack_value"] == 9 and hp(out, DRACULA) == 4 and pl(out, 0)["hand"] == [SKIRMISH]
    with pytest.raises(ScenarioError, match="legal options: Distracted Triage, With Haste!, no card$"):
        resolve(pos, {"attack": FOREVER, "by": JH, "target": DRACULA, "defense": None}, [SKIRMISH])


@pytest.mark.parametrize("defense, health", [(None, 12), (EXPLOIT, 10)])
def test_distracted_triage_recovers_2_if_won(defense, health):
    out = resolve(_jd("Dr. Jekyll", [TRIAGE], [EXPLOIT], jhp=10, ddeck=[FEINT]),
                  {"attack": TRIAGE, "by": JH, "target": DRACULA, "defense": defense})
    assert hp(out, JH) == health


def test_jekyll_skirmish_moves_a_combatant_if_won():
    out = resolve(_jd("Dr. Jekyll", [SKIRMISH]), {"attack": SKIRMISH, "by": JH, "target": DRACULA, "defense": None},
                  [DRACULA, "SH02"])
    assert hp(out, DRACULA) == 9 and space(out, DRACULA) == "SH02"


def test_jekyll_feint_cancels_ambush():
    out = resolve(_jd("Dr. Jekyll", [FEINT, HASTE], [AMBUSH], active=1),
                  {"attack": AMBUSH, "by": DRACULA, "target": JH, "defense": FEINT})
    assert out["combat"] == {"attack_value": 2, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert pl(out, 0)["hand"] == [HASTE]                # no random discard


def test_with_haste_jekyll_moves_up_to_4():
    out = resolve(_jd("Dr. Jekyll", [HASTE], [EXPLOIT], active=1, ddeck=[FEINT]),
                  {"attack": EXPLOIT, "by": DRACULA, "target": JH, "defense": HASTE}, ["SH08"])
    assert hp(out, JH) == 16 and space(out, JH) == "SH08"


def test_scientific_method_draws_1_per_combat_damage_taken():
    out = resolve(_jd("Dr. Jekyll", [METHOD], [EXPLOIT], active=1, jdeck=[FEINT, SKIRMISH, DUALITY], ddeck=[DASH]),
                  {"attack": EXPLOIT, "by": DRACULA, "target": JH, "defense": METHOD})
    assert hp(out, JH) == 14 and pl(out, 0)["hand"] == [FEINT, SKIRMISH] and pl(out, 0)["deck"] == [DUALITY]


def test_calming_research_recovers_2_keeps_1_of_3_rest_to_the_bottom():
    pos = _jd("Dr. Jekyll", [CALMING], jdeck=[FEINT, SKIRMISH, DUALITY, HASTE], jhp=12)
    out = resolve(pos, {"scheme": CALMING, "by": JH}, [SKIRMISH, DUALITY])     # the last one is forced
    assert hp(out, JH) == 14 and pl(out, 0)["hand"] == [SKIRMISH]
    assert pl(out, 0)["deck"] == [HASTE, DUALITY, FEINT]       # top first: the two put back went to the bottom


def test_pure_evil_placed_in_his_zone_then_2_damage_to_every_adjacent_fighter():
    pos = game(jekyll("Mr. Hyde", fighters={JH: at("SH05")}, hand=[EVIL]),
               dracula(fighters={DRACULA: at("SH14"), S1: at("SH13"), S2: at("SH06")}))
    out = resolve(pos, {"scheme": EVIL, "by": JH}, ["SH16"])
    assert space(out, JH) == "SH16" and hp(out, DRACULA) == 11
    assert status(out, S1) == "defeated" and hp(out, S2) == 1       # SH06 is not next to SH16


def test_strange_case_damage_equal_to_the_revealed_cards_boost():
    pos = game(jekyll("Mr. Hyde", fighters={JH: at("SH05")}, hand=[STRANGE], deck=[TRIAGE, FEINT]),
               dracula(fighters={DRACULA: at("SH04"), S1: at("SH06")}))
    out = resolve(pos, {"scheme": STRANGE, "by": JH}, [DRACULA])
    assert hp(out, DRACULA) == 10 and pl(out, 0)["hand"] == [TRIAGE] and pl(out, 0)["deck"] == [FEINT]
    assert hp(out, JH) == 16                                          # revealing is not drawing
    pos["players"][0]["deck"] = []
    out = resolve(pos, {"scheme": STRANGE, "by": JH}, [DRACULA])    # an empty deck: BOOST 0, no exhaustion
    assert hp(out, DRACULA) == 13 and hp(out, JH) == 16 and pl(out, 0)["hand"] == []


# =========================================================================== the Invisible Man

FOG3 = ["SH05", "SH16", "SH20"]


def _ih(fog=FOG3, ihand=(), hhand=(), ideck=(), hdeck=(), ihp=None, im="SH05", hs="SH04", ws="SH10", **kw):
    return game(invisible(fog, fighters={IM: at(im, ihp)}, hand=list(ihand), deck=list(ideck)),
                holmes(fighters={HOLMES: at(hs), WATSON: at(ws)}, hand=list(hhand), deck=list(hdeck)), **kw)


@pytest.mark.parametrize("seat", [0, 1])
def test_R22_setup_three_fog_tokens_on_separate_empty_spaces_of_his_zone(seat):
    heroes = ["invisible_man", "medusa"] if seat == 0 else ["medusa", "invisible_man"]
    m = Match(heroes, battlefield="soho")
    for seed in range(20):
        st = m.new_state()
        log = np.zeros((500, L.EV_FIELDS), np.int64)
        setup_game(st, m.tables, new_control((MODE_RANDOM,) * 4), log, m.rows, 2, seed)
        fog = [int(st[L.pslot(seat, L.P_FOG0 + i)]) for i in range(3)]
        start = int(SH.starts[seat])
        assert len(set(fog)) == 3 and all(SH.zone_mask[s] & SH.zone_mask[start] for s in fog)
        occupied = {int(st[L.fslot(f, L.F_SPACE)]) for f in range(L.MAX_FIGHTERS)
                    if st[L.fslot(f, L.F_STATUS)] == L.FS_IN_PLAY}
        if seat == 0:
            assert not set(fog) & occupied - {int(st[L.fslot(f, L.F_SPACE)]) for f in range(4, 8)}
        else:
            assert not set(fog) & occupied
        assert int(st[L.pslot(1 - seat, L.P_FOG0)]) == -1          # Medusa has no fog
        assert sum(1 for row in log if row[0] == L.EV_FOG) == 3


@pytest.mark.parametrize("fog, defense_value, health", [(FOG3, 5, 14), (["SH16", "SH20"], 4, 13)])
def test_R45_plus_1_defense_on_fog_and_into_thin_air(fog, defense_value, health):
    pos = game(hero("king_arthur", fighters={"King Arthur": at("SH04")}, hand=[EXCALIBUR]),
               invisible(fog, fighters={IM: at("SH05")}, hand=[THIN_AIR]))
    out = resolve(pos, {"attack": EXCALIBUR, "by": "King Arthur", "target": IM, "defense": THIN_AIR, "boost": None},
                  ["SH06", "SH16", "SH08"])
    assert out["combat"] == {"attack_value": 6, "defense_value": defense_value, "damage": 6 - defense_value,
                             "winner": "attacker"}
    assert hp(out, IM) == health and space(out, IM) == "SH06"
    assert pl(out, 1)["fog"] == [s if s != "SH16" else "SH08" for s in fog]     # Arthur moved a token 2 spaces
    assert "fog token moves SH16 -> SH08 (King Arthur moves it)" in "\n".join(out["log"])


def test_R45_the_opponent_moves_fog_at_most_3_spaces():
    pos = game(hero("king_arthur", fighters={"King Arthur": at("SH04")}, hand=[EXCALIBUR]),
               invisible(FOG3, fighters={IM: at("SH05")}, hand=[THIN_AIR]))
    with pytest.raises(ScenarioError, match="not legal for King Arthur's space for the fog token"):
        resolve(pos, {"attack": EXCALIBUR, "by": "King Arthur", "target": IM, "defense": THIN_AIR, "boost": None},
                ["SH06", "SH16", "SH03"])           # SH16 -> SH03 is 5 spaces along lines


def test_R46_fog_spaces_are_one_step_apart_for_his_movement():
    pos = _ih(["SH05", "SH20"], ideck=[CODED], hs="SH01", ws="SH10")
    out = resolve(pos, {"maneuver": True}, [None, "SH24"])        # SH05 -fog-> SH20 -> SH24: 2 spaces
    assert space(out, IM) == "SH24"
    with pytest.raises(ScenarioError, match="not legal"):
        resolve(pos, {"maneuver": True}, [None, "SH29"])          # 3 spaces even with the fog


def test_R46_fog_does_not_make_spaces_adjacent_for_attacks_effects_or_other_fighters():
    pos = _ih(["SH05", "SH20"], ihand=[SURPRISE, STEP], hs="SH20", ws="SH10")
    with pytest.raises(ScenarioError, match="cannot attack"):
        resolve(pos, {"attack": SURPRISE, "by": IM, "target": HOLMES})
    out = resolve(pos, {"scheme": STEP, "by": IM}, ["SH05", "SH06"])   # Step Lightly: no adjacent fighter
    assert hp(out, HOLMES) == 16 and pl(out, 0)["fog"] == ["SH06", "SH20"]
    other = _ih(["SH16", "SH05"], hs="SH16", ws="SH10", im="SH01", active=1, hdeck=[FEINT])
    with pytest.raises(ScenarioError, match="not legal"):
        resolve(other, {"maneuver": True}, [None, HOLMES, "SH05"])    # Holmes cannot use IM's fog


def test_R48_vanish_first_action_recover_leave_the_board_end_the_turn_dormant():
    sc = Scenario(_ih(ihand=[VANISH, CODED], ihp=10, hhand=[ELIMINATE, DISGUISE], hs="SH01"))
    out = run(sc, {"scheme": VANISH, "by": IM})
    assert hp(out, IM) == 11 and status(out, IM) == "removed" and space(out, IM) is None
    assert out["turn_ended"] is True and "    the turn ends" in out["log"]
    assert "    Invisible Man leaves the board" in out["log"]
    run(sc, {"end_of_turn": True})
    out = run(sc, {"scheme": ELIMINATE, "by": HOLMES})       # a dormant player cannot be made to discard
    assert pl(out, 0)["hand"] == [CODED] and pl(out, 0)["discard"] == [VANISH]
    out = run(sc, {"scheme": DISGUISE, "by": HOLMES})        # nor swapped with, nor damaged off the board
    assert space(out, HOLMES) == "SH01" and hp(out, IM) == 11
    run(sc, {"end_of_turn": True})
    out = run(sc, {"start_of_turn": True}, ["SH29"])
    assert space(out, IM) == "SH29" and status(out, IM) == "in play" and hp(out, IM) == 11


def test_R48_vanish_ends_only_a_first_action():
    sc = Scenario(_ih(ihand=[VANISH]))
    sc.st[L.G_ACTION_NO] = 2
    out = run(sc, {"scheme": VANISH, "by": IM})
    assert status(out, IM) == "removed" and out["turn_ended"] is False and "    the turn ends" not in out["log"]


@pytest.mark.parametrize("started, fog, value", [("SH05", ["SH05", "SH20"], 5), ("SH03", ["SH07", "SH20"], 3)])
def test_R49_emerge_from_mist_checks_where_he_started_the_turn(started, fog, value):
    pos = game(invisible(fog, fighters={IM: at("SH07")}, hand=[EMERGE], started_on={IM: started}),
               holmes(fighters={HOLMES: at("SH08"), WATSON: at("SH10")}))
    out = resolve(pos, {"attack": EMERGE, "by": IM, "target": HOLMES, "defense": None})
    assert out["combat"]["attack_value"] == value and hp(out, HOLMES) == 16 - value


def test_R49_emerge_from_mist_uses_the_fog_at_the_start_of_the_turn():
    sc = Scenario(_ih(["SH06", "SH20"], ihand=[EMERGE], im="SH06", hs="SH07", active=1))
    run(sc, {"end_of_turn": True})
    out = run(sc, {"start_of_turn": True})              # he starts his turn on fog (SH06)
    sc.st[L.pslot(0, L.P_FOG0)] = sc.space("SH01")       # the token leaves his space during the turn
    out = run(sc, {"attack": EMERGE, "by": IM, "target": HOLMES, "defense": None})
    assert out["combat"]["attack_value"] == 5


def test_surprise_attack_cancels_and_moves_the_fog_token_he_stands_on():
    out = resolve(_ih(ihand=[SURPRISE], hhand=[STUDY]), {"attack": SURPRISE, "by": IM, "target": HOLMES,
                                                         "defense": STUDY}, ["SH29"])
    assert out["combat"] == {"attack_value": 5, "defense_value": 3, "damage": 2, "winner": "attacker"}
    assert pl(out, 0)["fog"] == ["SH29", "SH16", "SH20"] and pl(out, 0)["hand_seen"] is False


def test_surprise_attack_cannot_cancel_holmes_deduce_strategy():
    out = resolve(_ih(ihand=[SURPRISE], hhand=[DEDUCE]), {"attack": SURPRISE, "by": IM, "target": HOLMES,
                                                          "defense": DEDUCE}, [True, "SH29"])
    # Deduce: Surprise Attack's printed value becomes its BOOST (1); 1 against 3
    assert out["combat"] == {"attack_value": 1, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert "cannot be cancelled" in "\n".join(out["log"]) and pl(out, 0)["fog"][0] == "SH29"


def test_surprise_attack_off_fog_moves_no_token():
    out = resolve(_ih(["SH16", "SH20"], ihand=[SURPRISE]), {"attack": SURPRISE, "by": IM, "target": HOLMES,
                                                           "defense": None})
    assert hp(out, HOLMES) == 11 and pl(out, 0)["fog"] == ["SH16", "SH20"] and out["choices_used"] == 0


def test_slip_away_fog_to_an_empty_space_then_he_is_placed_there():
    pos = _ih(ihand=[SLIP])
    out = resolve(pos, {"attack": SLIP, "by": IM, "target": HOLMES, "defense": None}, ["SH20", "SH29"])
    assert hp(out, HOLMES) == 13 and space(out, IM) == "SH29" and pl(out, 0)["fog"] == ["SH05", "SH16", "SH29"]
    with pytest.raises(ScenarioError, match="not legal"):        # not onto Watson
        resolve(pos, {"attack": SLIP, "by": IM, "target": HOLMES, "defense": None}, ["SH20", "SH10"])


def test_covert_preparation_you_move_a_token_then_the_opponent_moves_another():
    pos = _ih(ihand=[COVERT], ideck=[CODED])
    out = resolve(pos, {"attack": COVERT, "by": IM, "target": HOLMES, "defense": None},
                  ["SH16", "SH14", "SH20", "SH15"])
    assert hp(out, HOLMES) == 14 and pl(out, 0)["hand"] == [CODED]
    assert pl(out, 0)["fog"] == ["SH05", "SH14", "SH15"]
    with pytest.raises(ScenarioError, match="legal options: SH05, SH20$"):     # not the token just moved
        resolve(pos, {"attack": COVERT, "by": IM, "target": HOLMES, "defense": None}, ["SH16", "SH14", "SH14"])


@pytest.mark.parametrize("fog, holmes_hp, watson_hp", [(["SH05", "SH04", "SH10"], 12, 7), (["SH06", "SH04", "SH10"], 13, 8)])
def test_dreaming_of_revenge_1_damage_to_opponents_on_fog_if_he_is_on_fog(fog, holmes_hp, watson_hp):
    out = resolve(_ih(fog, ihand=[REVENGE]), {"attack": REVENGE, "by": IM, "target": HOLMES, "defense": None})
    assert (hp(out, HOLMES), hp(out, WATSON)) == (holmes_hp, watson_hp)


def test_confound_the_opponent_discards_and_no_fog_moves():
    out = resolve(_ih(ihand=[CONFOUND], hhand=[FEINT, STUDY]),
                  {"attack": CONFOUND, "by": IM, "target": HOLMES, "defense": None}, [True, STUDY])
    assert pl(out, 1)["hand"] == [FEINT] and pl(out, 1)["discard"] == [STUDY] and pl(out, 0)["fog"] == FOG3


def test_confound_the_opponent_declines_and_each_fog_token_may_move_anywhere():
    out = resolve(_ih(ihand=[CONFOUND], hhand=[FEINT]),
                  {"attack": CONFOUND, "by": IM, "target": HOLMES, "defense": None}, [False, "SH29", "SH16", "SH01"])
    assert pl(out, 1)["hand"] == [FEINT] and pl(out, 0)["fog"] == ["SH29", "SH16", "SH01"]
    out = resolve(_ih(ihand=[CONFOUND]), {"attack": CONFOUND, "by": IM, "target": HOLMES, "defense": None},
                  ["SH29", "SH28", "SH27"])            # an empty hand cannot discard
    assert pl(out, 0)["fog"] == ["SH29", "SH28", "SH27"]


def test_impossible_to_see_value_0_card_changes_ignored_abilities_still_count():
    pos = game(hero("alice", counters={"size": "big"}, fighters={"Alice": at("SH04")}, hand=["O Frabjous Day!"]),
               invisible(FOG3, fighters={IM: at("SH05")}, hand=[UNSEEN]))
    out = resolve(pos, {"attack": "O Frabjous Day!", "by": "Alice", "target": IM, "defense": UNSEEN})
    assert out["combat"] == {"attack_value": 2, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert pl(out, 0)["counters"] == {"size": "small"}        # its other effects still happen
    pos = game(hero("sinbad", fighters={"Sinbad": at("SH04")}, hand=[APES],
                    discard=["Voyage to the Island That Was a Whale", "Voyage Home"]),
               invisible(["SH16"], fighters={IM: at("SH05")}, hand=[UNSEEN]))
    out = resolve(pos, {"attack": APES, "by": "Sinbad", "target": IM, "defense": UNSEEN})
    assert out["combat"] == {"attack_value": 0, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert hp(out, IM) == 13                                   # Apes' 2 damage still happens


def test_impossible_to_see_attacking_makes_the_defense_0():
    out = resolve(_ih(ihand=[UNSEEN], hhand=[COUNTER]), {"attack": UNSEEN, "by": IM, "target": HOLMES,
                                                         "defense": COUNTER})
    assert out["combat"] == {"attack_value": 2, "defense_value": 0, "damage": 2, "winner": "attacker"}
    assert hp(out, HOLMES) == 14 and hp(out, IM) == 13          # Counterpunch still deals its 2


def test_lurking_draw_then_move_to_a_fog_space():
    pos = _ih(["SH16", "SH20", "SH29"], ihand=[LURKING], ideck=[CODED], hhand=[AFOOT], active=1)
    out = resolve(pos, {"attack": AFOOT, "by": HOLMES, "target": IM, "defense": LURKING}, [1, "SH20", "SH03"])
    assert hp(out, IM) == 12 and pl(out, 0)["hand"] == [CODED] and space(out, IM) == "SH20"
    assert space(out, HOLMES) == "SH03"
    with pytest.raises(ScenarioError, match="legal options: SH16, SH20, SH29$"):     # only fog spaces
        resolve(pos, {"attack": AFOOT, "by": HOLMES, "target": IM, "defense": LURKING}, [1, "SH06"])


def test_lurking_draw_then_move_a_fog_token_up_to_3():
    pos = _ih(["SH16", "SH20", "SH29"], ihand=[LURKING], ideck=[CODED], hhand=[AFOOT], active=1)
    out = resolve(pos, {"attack": AFOOT, "by": HOLMES, "target": IM, "defense": LURKING},
                  [2, "SH16", "SH07", "SH04"])
    assert pl(out, 0)["fog"] == ["SH07", "SH20", "SH29"] and space(out, IM) == "SH05"


def test_coded_notes_draw_3_then_2_cards_back_on_top():
    pos = _ih(ihand=[CODED, TERROR], ideck=[SLIP, EMERGE, VANISH, STEP], hhand=[AFOOT], active=1)
    out = resolve(pos, {"attack": AFOOT, "by": HOLMES, "target": IM, "defense": CODED}, [EMERGE, TERROR, "SH04"])
    assert out["combat"]["defense_value"] == 4 and hp(out, IM) == 14          # 3 + 1 on fog
    assert pl(out, 0)["hand"] == [SLIP, VANISH] and pl(out, 0)["deck"] == [TERROR, EMERGE, STEP]


@pytest.mark.parametrize("fog, watson_hp", [(FOG3, 6), (["SH16"], 8)])
def test_reign_of_terror_2_damage_to_any_opposing_fighter_from_fog(fog, watson_hp):
    out = resolve(_ih(fog, ihand=[TERROR], ws="SH29"), {"scheme": TERROR, "by": IM}, [WATSON] if len(fog) == 3 else [])
    assert hp(out, WATSON) == watson_hp and hp(out, HOLMES) == 16


@pytest.mark.parametrize("fog, damage", [(FOG3, 3), (["SH16", "SH20"], 1)])
def test_step_lightly_1_or_3_damage_then_the_opponent_moves_fog_up_to_2(fog, damage):
    out = resolve(_ih(fog, ihand=[STEP]), {"scheme": STEP, "by": IM}, ["SH20", "SH24"])
    assert hp(out, HOLMES) == 16 - damage and "SH24" in pl(out, 0)["fog"] and "SH20" not in pl(out, 0)["fog"]


def test_rolling_fog_moves_a_token_anywhere_and_gains_an_action():
    out = resolve(_ih(ihand=[ROLLING], actions=1), {"scheme": ROLLING, "by": IM}, ["SH20", "SH01"])
    assert pl(out, 0)["fog"] == ["SH05", "SH16", "SH01"] and out["actions_left"] == 2


def test_R55c_sword_of_silver_reads_the_printed_value_not_the_fog_bonus():
    pos = game(hero("geralt_of_rivia@silver+medallion+owl", fighters={"Geralt of Rivia": at("SH04")},
                    hand=["Sword of Silver"]),
               invisible(FOG3, fighters={IM: at("SH05")}, hand=[CODED], deck=[SLIP, EMERGE, VANISH]))
    out = resolve(pos, {"attack": "Sword of Silver", "by": "Geralt of Rivia", "target": IM, "defense": CODED},
                  [SLIP, EMERGE])
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert hp(out, IM) == 15 and pl(out, 1)["hand"] == [VANISH]


# =========================================================================== Sherlock Holmes

def _hd(hhand=(), dhand=(), hdeck=(), ddeck=(), ddisc=(), hs="SH05", ws="SH10", active=0, hhp=None, whp=None,
        ds="SH04", sisters=None, **kw):
    return game(holmes(fighters={HOLMES: at(hs, hhp), WATSON: at(ws, whp)}, hand=list(hhand), deck=list(hdeck)),
                dracula(fighters={DRACULA: at(ds), **(sisters or {})}, hand=list(dhand), deck=list(ddeck),
                        discard=list(ddisc)), active=active, **kw)


def test_R08_holmes_card_effects_cannot_be_cancelled():
    pos = game(holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH10")}, hand=[AFOOT]),
               hero("alice", counters={"size": "small"}, fighters={"Alice": at("SH05")}, hand=[FEINT]))
    out = resolve(pos, {"attack": AFOOT, "by": HOLMES, "target": "Alice", "defense": FEINT}, ["SH01"])
    assert out["combat"] == {"attack_value": 5, "defense_value": 3, "damage": 2, "winner": "attacker"}
    assert hp(out, "Alice") == 11 and space(out, HOLMES) == "SH01"       # Afoot's move still happens
    assert "Alice tries to cancel the attack card's effects, but they cannot be cancelled" in "\n".join(out["log"])


def test_R51_holmes_any_card_feint_cancels_and_can_be_cancelled():
    pos = game(hero("alice", counters={"size": "big"}, fighters={"Alice": at("SH05")}, hand=[FEINT]),
               holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH10")}, hand=[FEINT]))
    out = resolve(pos, {"attack": FEINT, "by": "Alice", "target": HOLMES, "defense": FEINT})
    log = "\n".join(out["log"])
    assert "Sherlock Holmes cancels the effects on the attack card" in log and "Alice cancels" not in log
    # Holmes attacks with an ANY card (Study Methods): Alice's Feint cancels it, he does not see her hand
    pos = game(holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH10")}, hand=[STUDY]),
               hero("alice", counters={"size": "big"}, fighters={"Alice": at("SH05")}, hand=[FEINT, "Regroup"]))
    out = resolve(pos, {"attack": STUDY, "by": HOLMES, "target": "Alice", "defense": FEINT})
    assert out["combat"] == {"attack_value": 3, "defense_value": 2, "damage": 1, "winner": "attacker"}
    assert "Alice cancels the effects on the attack card" in "\n".join(out["log"])
    assert pl(out, 1)["hand_seen"] is False


def test_service_revolver_watson_shoots_across_the_zone():
    pos = game(holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH07")}, hand=[REVOLVER]),
               jekyll(fighters={JH: at("SH05")}, hand=[FEINT]))
    out = resolve(pos, {"attack": REVOLVER, "by": WATSON, "target": JH, "defense": FEINT})
    assert out["combat"] == {"attack_value": 5, "defense_value": 2, "damage": 3, "winner": "attacker"}
    assert hp(out, JH) == 13 and "cannot be cancelled" in "\n".join(out["log"])


def test_R52_deduce_strategy_printed_value_becomes_the_boost():
    pos = game(hero("king_arthur", fighters={"King Arthur": at("SH04")}, hand=[EXCALIBUR, "Noble Sacrifice"]),
               holmes(fighters={HOLMES: at("SH05"), WATSON: at("SH10")}, hand=[DEDUCE]))
    step = {"attack": EXCALIBUR, "by": "King Arthur", "target": HOLMES, "defense": DEDUCE, "boost": None}
    out = resolve(pos, step, [True])
    assert out["combat"] == {"attack_value": 3, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, HOLMES) == 16 and "sets the printed value of the attack card to 3" in "\n".join(out["log"])
    out = resolve(pos, step, [False])                                  # "you may"
    assert out["combat"]["attack_value"] == 6 and hp(out, HOLMES) == 13
    out = resolve(pos, {**step, "boost": "Noble Sacrifice"}, [True])  # variant: Arthur's face-down BOOST adds 3
    assert out["combat"] == {"attack_value": 6, "defense_value": 3, "damage": 3, "winner": "attacker"}


def test_R52_deduce_strategy_against_a_voyage_then_its_own_bonus_applies():
    pos = game(hero("sinbad", fighters={"Sinbad": at("SH04")}, hand=[APES],
                    discard=["Voyage to the Island That Was a Whale", "Voyage Home"]),
               holmes(fighters={HOLMES: at("SH05"), WATSON: at("SH10")}, hand=[DEDUCE]))
    out = resolve(pos, {"attack": APES, "by": "Sinbad", "target": HOLMES, "defense": DEDUCE}, [True])
    assert out["combat"] == {"attack_value": 0 + 2, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, HOLMES) == 14                                     # Apes' own 2 damage still happens


def test_counterpunch_2_damage_only_if_holmes_is_next_to_the_opposing_fighter():
    out = resolve(_hd([COUNTER], [DASH], active=1), {"attack": DASH, "by": DRACULA, "target": HOLMES,
                                                     "defense": COUNTER}, ["SH03"])
    assert out["combat"]["winner"] == "defender" and hp(out, DRACULA) == 11 and space(out, DRACULA) == "SH03"
    pos = game(hero("medusa", fighters={"Medusa": at("SH07")}, hand=[GAZE]),
               holmes(fighters={HOLMES: at("SH05"), WATSON: at("SH10")}, hand=[COUNTER]))
    out = resolve(pos, {"attack": GAZE, "by": "Medusa", "target": HOLMES, "defense": COUNTER})
    assert out["combat"]["winner"] == "defender" and hp(out, "Medusa") == 16     # same zone, not adjacent


def test_R02_fixed_point_watson_defeated_no_recovery():
    pos = game(hero("alice", counters={"size": "big"}, fighters={"Alice": at("SH06")}, hand=["Snicker-Snack"]),
               holmes(fighters={HOLMES: at("SH04", 10), WATSON: at("SH05", 2)}, hand=[FIXED, FEINT, STUDY]))
    out = resolve(pos, {"attack": "Snicker-Snack", "by": "Alice", "target": WATSON, "defense": FIXED}, [STUDY])
    assert out["combat"] == {"attack_value": 5, "defense_value": 3, "damage": 2, "winner": "attacker"}
    assert status(out, WATSON) == "defeated" and hp(out, HOLMES) == 10 and out["winner"] is None
    assert pl(out, 1)["hand"] == [FEINT] and pl(out, 1)["discard"] == [STUDY, FIXED]   # Snicker-Snack's pick


def test_fixed_point_both_recover_1_when_watson_is_next_to_holmes():
    pos = game(hero("medusa", fighters={"Medusa": at("SH07")}, hand=[GAZE]),
               holmes(fighters={HOLMES: at("SH04", 10), WATSON: at("SH05", 5)}, hand=[FIXED]))
    out = resolve(pos, {"attack": GAZE, "by": "Medusa", "target": WATSON, "defense": FIXED})
    assert out["combat"]["winner"] == "defender" and (hp(out, HOLMES), hp(out, WATSON)) == (11, 6)
    pos["players"][1]["fighters"][HOLMES] = at("SH01", 10)
    out = resolve(pos, {"attack": GAZE, "by": "Medusa", "target": WATSON, "defense": FIXED})
    assert (hp(out, HOLMES), hp(out, WATSON)) == (10, 5)


@pytest.mark.parametrize("defense, holmes_hand, dracula_hand", [(None, [], [FEINT]), (EXPLOIT, [AID, ELIMINATE], [FEINT])])
def test_education_never_ends(defense, holmes_hand, dracula_hand):
    pos = _hd([EDUCATION], [EXPLOIT], hdeck=[AID, ELIMINATE], ddeck=[FEINT], hs="SH05", ds="SH04")
    out = resolve(pos, {"attack": EDUCATION, "by": HOLMES, "target": DRACULA, "defense": defense})
    assert pl(out, 0)["hand"] == holmes_hand
    assert pl(out, 1)["hand"] == ([EXPLOIT] if defense is None else []) + dracula_hand


@pytest.mark.parametrize("defense, seen", [(None, True), (EXPLOIT, False)])
def test_study_methods_look_at_the_hand_if_won(defense, seen):
    out = resolve(_hd([STUDY], [EXPLOIT, MISTFORM], ddeck=[FEINT]),
                  {"attack": STUDY, "by": HOLMES, "target": DRACULA, "defense": defense})
    assert pl(out, 1)["hand_seen"] is seen


def test_elementary_right_prediction_cancels_and_ignores_the_attack():
    pos = _hd([ELEMENTARY], [DASH], active=1)
    out = resolve(pos, {"attack": DASH, "by": DRACULA, "target": HOLMES, "defense": ELEMENTARY}, [3])
    assert out["combat"] == {"attack_value": 0, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert space(out, DRACULA) == "SH04"                       # Dash's move cancelled
    assert "Sherlock Holmes names the value 3" in "\n".join(out["log"])


def test_elementary_wrong_prediction_changes_nothing():
    pos = _hd([ELEMENTARY], [BEASTFORM], active=1)
    out = resolve(pos, {"attack": BEASTFORM, "by": DRACULA, "target": HOLMES, "defense": ELEMENTARY}, [4])
    assert out["combat"] == {"attack_value": 6, "defense_value": 3, "damage": 3, "winner": "attacker"}
    assert hp(out, HOLMES) == 13


def test_elementary_guesses_from_public_information_only():
    # Dracula's attack cards: Beastform 6, Feeding Frenzy 2, Ambush 2, Dash 3, Feint 2, Exploit 4 (Thirst for
    # Sustenance is a Sister's). Both Exploits are in his discard pile, so 4 is not offered; his hand and
    # the order of his deck make no difference.
    step = {"attack": DASH, "by": DRACULA, "target": HOLMES, "defense": ELEMENTARY}
    for dhand, ddeck in (([DASH], []), ([DASH, BEASTFORM, AMBUSH], [FEINT, FRENZY]), ([DASH, MISTFORM], [DASH])):
        pos = _hd([ELEMENTARY], dhand, ddeck=ddeck, ddisc=[EXPLOIT, EXPLOIT], active=1)
        with pytest.raises(ScenarioError, match="Sherlock Holmes's value to name; legal options: 2, 3, 6$"):
            resolve(pos, step, [5])
    # a Sister attacks: only the cards a Sister may play (Thirst 3, Ambush 2, Dash 3, Feint 2, Exploit 4)
    pos = _hd([ELEMENTARY], [THIRST], active=1, sisters={S1: at("SH06")})
    with pytest.raises(ScenarioError, match="legal options: 2, 3, 4$"):
        resolve(pos, {"attack": THIRST, "by": S1, "target": HOLMES, "defense": ELEMENTARY}, [6])


def test_elementary_the_random_policy_guesses_uniformly():
    pos = _hd([ELEMENTARY], [DASH], active=1)
    step = {"attack": DASH, "by": DRACULA, "target": HOLMES, "defense": ELEMENTARY}
    named = Counter()
    for seed in range(200):
        out = resolve(pos, step, [], seed=seed, fallback="random")
        line = next(x for x in out["log"] if "names the value" in x)
        named[int(line.split()[-1])] += 1
    assert set(named) == {2, 3, 4, 6} and min(named.values()) >= 30     # 50 each expected


@pytest.mark.parametrize("value, dhand, choices, dracula_hp, discarded", [
    (4, [EXPLOIT, FEINT, MISTFORM], [], 12, [EXPLOIT]),         # Exploit: BOOST 1
    (2, [FEINT, AMBUSH, MISTFORM], [AMBUSH], 10, [AMBUSH]),      # his choice among the 2s: Ambush, BOOST 3
])
def test_confirm_suspicion_matching_card_discarded_and_its_boost_as_damage(value, dhand, choices, dracula_hp, discarded):
    out = resolve(_hd([CONFIRM], dhand), {"scheme": CONFIRM, "by": HOLMES}, [value] + choices)
    assert hp(out, DRACULA) == dracula_hp and pl(out, 1)["discard"] == discarded
    assert pl(out, 1)["hand_seen"] is False


def test_confirm_suspicion_no_matching_card_the_hand_is_revealed():
    out = resolve(_hd([CONFIRM], [EXPLOIT, FEINT, MISTFORM]), {"scheme": CONFIRM, "by": HOLMES}, [6])
    assert hp(out, DRACULA) == 13 and pl(out, 1)["hand"] == [EXPLOIT, FEINT, MISTFORM]
    assert pl(out, 1)["hand_seen"] is True


def test_confirm_suspicion_names_only_values_his_cards_not_discarded_may_have():
    pos = _hd([CONFIRM], [EXPLOIT], ddisc=[EYES, EYES])       # Look Into My Eyes is the only value 1
    with pytest.raises(ScenarioError, match="legal options: 2, 3, 4, 6$"):
        resolve(pos, {"scheme": CONFIRM, "by": HOLMES}, [1])


def test_eliminate_the_impossible_holmes_picks_the_discard():
    out = resolve(_hd([ELIMINATE], [EXPLOIT, MISTFORM]), {"scheme": ELIMINATE, "by": HOLMES}, [MISTFORM])
    assert pl(out, 1)["hand"] == [EXPLOIT] and pl(out, 1)["discard"] == [MISTFORM] and pl(out, 1)["hand_seen"]


def test_master_of_disguise_swaps_with_the_opposing_hero_then_1_damage():
    out = resolve(_hd([DISGUISE], hs="SH01", ds="SH20", sisters={S1: at("SH05")}), {"scheme": DISGUISE, "by": HOLMES})
    assert (space(out, HOLMES), space(out, DRACULA), hp(out, DRACULA), hp(out, S1)) == ("SH20", "SH01", 12, 1)


def test_administer_aid_watson_next_to_holmes_holmes_recovers_1_draw_1():
    out = resolve(_hd([AID], hhp=10, hdeck=[FEINT], ds="SH20"), {"scheme": AID, "by": WATSON}, ["SH06"])
    assert space(out, WATSON) == "SH06" and hp(out, HOLMES) == 11 and pl(out, 0)["hand"] == [FEINT]
    with pytest.raises(ScenarioError, match="legal options: SH04, SH06$"):
        resolve(_hd([AID], hhp=10, hdeck=[FEINT], ds="SH20"), {"scheme": AID, "by": WATSON}, ["SH07"])


# =========================================================================== battlefields

def test_R21_baskerville_passages_one_step_for_movement_not_adjacent_for_attacks():
    pos = game(holmes(fighters={HOLMES: at("BM04"), WATSON: at("BM32")}, hand=[AFOOT], deck=[FEINT]),
               invisible(["BM27"], fighters={IM: at("BM26")}), battlefield="baskerville_manor")
    with pytest.raises(ScenarioError, match="cannot attack"):
        resolve(pos, {"attack": AFOOT, "by": HOLMES, "target": IM})           # BM04 and BM26: not adjacent
    pos["players"][1]["fighters"][IM] = at("BM29")
    out = resolve(pos, {"maneuver": True}, [None, HOLMES, "BM27", "BM32"])    # BM04 -> BM26 (passage) -> BM27
    assert space(out, HOLMES) == "BM27"
    assert "    Sherlock Holmes moves BM04 -> BM27 (secret passage)" in out["log"]
    out = resolve(pos, {"maneuver": True}, [None, HOLMES, "BM15", "BM32"])    # BM04 -> BM15: one step
    assert space(out, HOLMES) == "BM15"
    with pytest.raises(ScenarioError, match="not legal"):
        resolve(pos, {"maneuver": True}, [None, HOLMES, "BM28", "BM32"])      # 3 steps


def test_R21_passage_spaces_are_not_adjacent_for_effects():
    pos = game(invisible([], fighters={IM: at("BM26")}, hand=[STEP]),
               holmes(fighters={HOLMES: at("BM04"), WATSON: at("BM27")}), battlefield="baskerville_manor")
    out = resolve(pos, {"scheme": STEP, "by": IM})            # only Watson (BM27) is next to him
    assert hp(out, WATSON) == 7 and hp(out, HOLMES) == 16


# =========================================================================== other cases with these heroes

def test_R13_education_never_ends_the_forced_draw_is_not_discarded_on_holmes_turn():
    alice7 = ["Regroup", "Regroup", "Regroup", FEINT, FEINT, FEINT, "Skirmish"]
    pos = game(holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH10")}, hand=[EDUCATION]),
               hero("alice", counters={"size": "big"}, fighters={"Alice": at("SH05")}, hand=alice7,
                    deck=["Looking Glass"]))
    sc = Scenario(pos)
    out = run(sc, {"attack": EDUCATION, "by": HOLMES, "target": "Alice", "defense": None})
    assert len(pl(out, 1)["hand"]) == 8
    out = run(sc, {"end_of_turn": True})
    assert len(pl(out, 1)["hand"]) == 8 and pl(out, 1)["discard"] == []


def test_R15_alice_cannot_pass_dracula_but_passes_her_jabberwock():
    pos = game(hero("alice", counters={"size": "big"}, fighters={"Alice": at("SH01"), "The Jabberwock": at("SH02")},
                    deck=["Regroup"]),
               dracula(fighters={DRACULA: at("SH03")}))
    for dest in ("SH03", "SH04", "SH02"):
        with pytest.raises(ScenarioError, match="not legal"):
            resolve(pos, {"maneuver": True}, [None, "Alice", dest])
    out = resolve(pos, {"maneuver": True}, [None, "The Jabberwock", "SH02", "SH10"])
    assert space(out, "Alice") == "SH10"


def test_R30_feint_does_not_cancel_alices_size_bonus_against_dracula():
    pos = game(hero("alice", counters={"size": "big"}, fighters={"Alice": at("SH04")}, hand=["Snicker-Snack"]),
               dracula(fighters={DRACULA: at("SH05")}, hand=[FEINT, MISTFORM]))
    out = resolve(pos, {"attack": "Snicker-Snack", "by": "Alice", "target": DRACULA, "defense": FEINT})
    assert out["combat"] == {"attack_value": 5, "defense_value": 2, "damage": 3, "winner": "attacker"}
    assert hp(out, DRACULA) == 10 and pl(out, 1)["hand"] == [MISTFORM] and pl(out, 1)["hand_seen"] is False


# =========================================================================== hero-file errors of the new vocabulary

_TESTER = '''
name = "Tester"
[hero]
health = 10
move = 2
{hero_extra}
[ability]
text = "none"
{ability_extra}
[[cards]]
name = "Poke"
type = "{ctype}"
{value}
boost = 1
copies = 30
fighter = "any"
{card_extra}
'''


def _load(tmp_path, card_extra="", ctype="attack", hero_extra="", ability_extra=""):
    from sim.content.heroes import load_hero
    value = "" if ctype == "scheme" else "value = 3"
    p = tmp_path / "tester.toml"
    p.write_text(_TESTER.format(card_extra=card_extra, ctype=ctype, value=value, hero_extra=hero_extra,
                                ability_extra=ability_extra))
    return load_hero(p)


@pytest.mark.parametrize("extra, ctype, hero_extra, message", [
    ('after = [{ op = "move_fog", up_to = 2, to = "anywhere" }]', "attack", "",
     "card 'Poke'.after[0]: op 'move_fog' needs exactly one of 'up_to'"),
    ('after = [{ op = "move_fog", to = "far" }]', "attack", "", "after[0].to: unknown 'far'; valid: anywhere, empty"),
    ('after = [{ op = "move_fog", up_to = 1, token = "mine" }]', "attack", "",
     "after[0].token: unknown 'mine'; valid: any, under_hero, each"),
    ('after = [{ op = "move_fog", up_to = 1, who = "both" }]', "attack", "", "after[0].who: unknown 'both'; valid: you, opponent"),
    ('during = [{ op = "set_printed", card = "theirs" }]', "attack", "", "during[0].card: unknown 'theirs'; valid: yours, opponent"),
    ('after = [{ op = "set_printed" }]', "attack", "", "op 'set_printed' only works in: during, immediately"),
    ('during = [{ op = "predict" }]', "attack", "", "op 'predict' only works in: on_play"),
    ('during = [{ op = "replace_opponent_card" }]', "attack", "", "op 'replace_opponent_card' only works in: immediately"),
    ('after = [{ op = "discard", matching = "name" }]', "attack", "", "after[0].matching: unknown 'name'; valid: 'named_value'"),
    ('after = [{ op = "move", target = "self", onto = "smoke" }]', "attack", "",
     "after[0].onto: unknown 'smoke'; valid: 'fog'"),
    ('after = [{ op = "move", target = "self" }]', "attack", "", "op 'move' needs 'up_to' (spaces)"),
    ('after = [{ op = "damage", target = { each = "on_fog", of = "self" } }]', "attack", "", None),
    ('after = [{ op = "place", target = "self", to = "fog" }]', "attack", "", "after[0].to: must be 'any', 'last_fog'"),
    ('during = [{ op = "set_value", amount = 6, if = { counter = "form", is = "Hyde", role = "attacking" } }]', "attack",
     'forms = ["Jekyll", "Hyde"]', None),
    ('during = [{ op = "set_value", amount = 6, if = { counter = "form", is = "Hyde", role = "charging" } }]',
     "attack", 'forms = ["Jekyll", "Hyde"]', "if.role: unknown 'charging'; valid: any, attacking, defending"),
    ('during = [{ op = "discard_for_value", form = "Hulk" }]', "attack", 'forms = ["Jekyll", "Hyde"]',
     "during[0].form: unknown form 'Hulk'; valid: Jekyll, Hyde"),
    ('form = "Hulk"', "attack", 'forms = ["Jekyll", "Hyde"]', "card 'Poke'.form: unknown 'Hulk'; valid: Jekyll, Hyde"),
    ('on_play = [{ op = "predict" }]', "scheme", "", "card 'Poke'.on_play: a scheme's effect goes in 'effect'"),
])
def test_new_vocabulary_errors_name_the_file_card_field_and_choices(tmp_path, extra, ctype, hero_extra, message):
    if message is None:
        _load(tmp_path, extra, ctype, hero_extra)        # valid
        return
    with pytest.raises(Exception) as e:
        _load(tmp_path, extra, ctype, hero_extra)
    assert "tester.toml" in str(e.value) and message in str(e.value), str(e.value)


def test_place_fog_needs_a_zone_and_an_amount_within_3(tmp_path):
    with pytest.raises(Exception, match=r"tester.toml: ability.setup\[0\].amount: must be a whole number from 1 to 3"):
        _load(tmp_path, ability_extra='setup = [{ op = "place_fog", amount = 4 }]\nfog_walk = true')
    spec = _load(tmp_path, ability_extra='setup = [{ op = "place_fog", amount = 3 }]\nfog_walk = true')
    assert spec.ability_flags & L.HF_FOG_WALK


def test_duel_holmes_invisible_man_on_baskerville_seed_5_shows_fog_and_passages():
    """The issue's showcase game (random policy): fog placed and moved, the Invisible Man
    walking through his fog, fighters using secret passages; a full game to a winner."""
    from click.testing import CliRunner

    from sim.cli import main
    r = CliRunner().invoke(main, ["duel", "sherlock_holmes", "invisible_man", "--battlefield", "baskerville_manor",
                                  "--seed", "5", "--ai", "random"])
    assert r.exit_code == 0, r.output
    text = r.output
    assert text.count("Invisible Man puts a fog token on") == 3
    assert "fog token moves" in text and "(through the fog)" in text and "(secret passage)" in text
    assert "Game over:" in text and "wins on turn" in text
