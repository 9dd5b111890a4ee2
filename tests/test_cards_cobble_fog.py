"""Cobble & Fog tests shared by its heroes: the map facts, the hero files against the reference
numbers, the battlefields, cross-hero cases and the hero-file errors of the new vocabulary.
"""
import json

import numpy as np
import pytest
from helpers.cards import at, hero, hp, pl, run, space
from helpers.cobble_fog import (AFOOT, AID, AMBUSH, BAPTISM, BEASTFORM, BIDDING, CALMING, CODED, CONFIRM, CONFOUND,
    COUNTER, COVERT, DASH, DEDUCE, DISGUISE, DRACULA, DUALITY, EDUCATION, ELEMENTARY, ELIMINATE, EMERGE, EVIL, EXPLOIT,
    EYES, FEINT, FIXED, FOREVER, FRENZY, HASTE, HOLMES, IM, JH, LURKING, METHOD, MISTFORM, PREY, RECOIL, RELENTS,
    REVENGE, REVOLVER, ROLLING, SEDUCTION, SH, SKIRMISH, SLIP, STEP, STRANGE, STUDY, SUCCUMB, SURPRISE, TERROR,
    THIN_AIR, THIRST, TRIAGE, UNSEEN, VANISH, WATSON, dracula, game, holmes, invisible)

from sim.content.battlefields import load_battlefield
from sim.content.heroes import load_all
from sim.engine import layout as L
from sim.play.scenario import Scenario, ScenarioError, resolve

pytestmark = pytest.mark.nojit

BM = load_battlefield("baskerville_manor")


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
# (name, type, value, BOOST, copies, banner), as printed on the cards
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
    rows = {h["key"]: h for h in json.loads(r.stdout)}
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
    ('during = [{ op = "set_printed", card = "theirs", to = "boost" }]', "attack", "",
     "during[0].card: unknown 'theirs'; valid: yours, opponent"),
    ('during = [{ op = "set_printed", card = "opponent" }]', "attack", "",
     "during[0].to: missing required field 'to' of op 'set_printed' (where to)"),
    ('after = [{ op = "set_printed" }]', "attack", "", "op 'set_printed' only works in: during, immediately"),
    ('during = [{ op = "predict" }]', "attack", "", "op 'predict' only works in: on_play"),
    ('during = [{ op = "replace_opponent_card" }]', "attack", "", "op 'replace_opponent_card' only works in: immediately"),
    ('after = [{ op = "discard", matching = "name" }]', "attack", "", "after[0].matching: unknown 'name'; valid: 'named_value'"),
    ('after = [{ op = "move", target = "self", onto = "smoke" }]', "attack", "",
     "after[0].onto: unknown 'smoke'; valid: 'fog'"),
    ('after = [{ op = "move", target = "self" }]', "attack", "",
     "after[0].up_to: missing required field 'up_to' of op 'move' (how many spaces; only a move with onto = 'fog' "
     "may leave it out)"),
    ('after = [{ op = "damage", target = { each = "on_fog", of = "self" } }]', "attack", "", None),
    ('after = [{ op = "place", target = "self", to = "fog" }]', "attack", "", "after[0].to: must be 'any', 'any_other', 'last_fog'"),
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
        _load(tmp_path, ability_extra='setup = [{ op = "place_fog", amount = 4, to = { in_zone_of = "self" } }]\n'
                                      'fog_walk = true')
    with pytest.raises(Exception, match=r"tester.toml: ability.setup\[0\].to: missing required field 'to' of op "
                                        r"'place_fog' \(where to\)"):
        _load(tmp_path, ability_extra='setup = [{ op = "place_fog", amount = 3 }]\nfog_walk = true')
    spec = _load(tmp_path, ability_extra='setup = [{ op = "place_fog", amount = 3, to = { in_zone_of = "self" } }]\n'
                                         'fog_walk = true')
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
