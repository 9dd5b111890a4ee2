"""Issue 35, ops and targets for heroes of other boxes: ``gain_action`` with ``who`` (the
opponent gains actions, on a card played on the opponent's turn), ``reclaim`` at random, of a
named card and into the deck (shuffled), ``return_to_hand``, ``arrange_top`` and the target
``{ each = "passed" }``.

Each is shown by a card of the homebrew Exemplar (``docs/op_examples/exemplar.toml``, whose
cards are the README's examples), played from a built position against Medusa on Marmoreal;
then the validator's refusals, the standard AI's reading of each, and random games of the
Exemplar through the independent replay checker.
"""
from pathlib import Path

import numpy as np
import pytest

from sim.content.heroes import HeroFileError, hero_from_data, read_hero_data
from sim.engine import codes as C
from sim.engine import layout as L
from sim.play.scenario import resolve

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "op_examples"
EXEMPLAR = EXAMPLES / "exemplar.toml"


@pytest.fixture(scope="module", autouse=True)
def homebrew():
    """The Exemplar installed as homebrew (key ``exemplar``) for every test of this module."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("UNMATCHED_SIM_HEROES", str(EXAMPLES))
        yield


def pos(me, medusa, hand=(), deck=("Jab", "Jab", "Guard"), discard=(), medusa_hand=(), active=0, actions=1,
        medusa_deck=("Dash", "Dash")):
    """The Exemplar (seat 0) against Medusa (seat 1); ``me`` / ``medusa``: fighters by name."""
    return {"battlefield": "marmoreal", "active": active, "actions": actions, "players": [
        {"hero": "exemplar", "fighters": me, "hand": list(hand), "deck": list(deck), "discard": list(discard)},
        {"hero": "medusa", "fighters": medusa, "hand": list(medusa_hand), "deck": list(medusa_deck)}]}


# ------------------------------------------------------------------ gain_action, who = "opponent"

def _medusa_attacks(defense, rules=None):
    p = pos({"Exemplar": {"space": "M20"}}, {"Medusa": {"space": "M13"}}, hand=[defense],
            medusa_hand=["Gaze of Stone"], active=1, actions=1)
    if rules:
        p["rules"] = rules
    return resolve(p, {"attack": "Gaze of Stone", "by": "Medusa", "target": "Exemplar", "defense": defense})


def test_a_defense_gives_the_attacker_an_action():
    """Overreach defends (value 4 against Gaze of Stone's 2): the attacker, the player taking the
    turn, gains 1 action; a plain defense gives none."""
    over = _medusa_attacks("Overreach")
    plain = _medusa_attacks("Feint Step")
    assert over["combat"]["defense_value"] == 4 and plain["combat"]["defense_value"] == 2
    assert over["actions_left"] == plain["actions_left"] + 1
    assert any("Medusa gains 1 action" in line for line in over["log"]), over["log"]


def test_the_same_card_attacking_gains_nobody_an_action():
    """Overreach as an attack: its step needs "defending"; with the condition left out the
    opponent is not taking the turn, so nobody gains (only the active player can)."""
    p = pos({"Exemplar": {"space": "M13"}}, {"Medusa": {"space": "M20"}}, hand=["Overreach"])
    out = resolve(p, {"attack": "Overreach", "by": "Exemplar", "target": "Medusa", "defense": None})
    assert out["actions_left"] == 1 and not any("gains" in line for line in out["log"])


# ------------------------------------------------------------------ reclaim: random, named, into the deck

def test_rummage_takes_a_random_card_of_the_discard_pile():
    """Each card of the pile can come back, about as often as its copies there (seeds 0..59)."""
    got = {}
    for seed in range(60):
        p = pos({"Exemplar": {"space": "M13"}}, {"Medusa": {"space": "M31"}}, hand=["Rummage"],
                discard=["Jab", "Guard", "Guard"])
        out = resolve(p, {"scheme": "Rummage", "by": "Exemplar"}, seed=seed)
        me = out["players"][0]
        assert len(me["hand"]) == 1 and sorted(me["hand"] + me["discard"]) == ["Guard", "Guard", "Jab", "Rummage"]
        got[me["hand"][0]] = got.get(me["hand"][0], 0) + 1
    assert set(got) == {"Jab", "Guard"} and got["Guard"] > got["Jab"]    # 2 of 3 cards are Guards


def test_rummage_with_an_empty_discard_pile_does_nothing():
    out = resolve(pos({"Exemplar": {"space": "M13"}}, {"Medusa": {"space": "M31"}}, hand=["Rummage"]),
                  {"scheme": "Rummage", "by": "Exemplar"})
    assert out["players"][0]["hand"] == [] and out["players"][0]["discard"] == ["Rummage"]


def test_recycle_shuffles_the_named_card_into_the_deck():
    """Recycle puts a Rummage (only that card) from the discard pile into the deck, shuffles it,
    then draws 1: the deck keeps its size, Jab stays in the pile."""
    p = pos({"Exemplar": {"space": "M13"}}, {"Medusa": {"space": "M31"}}, hand=["Recycle"],
            deck=["Guard"] * 3 + ["Feint Step"] * 3, discard=["Jab", "Rummage", "Jab"])
    out = resolve(p, {"scheme": "Recycle", "by": "Exemplar"})
    me = out["players"][0]
    assert sorted(me["discard"]) == ["Jab", "Jab", "Recycle"]
    assert len(me["deck"]) == 6 and sorted(me["deck"] + me["hand"]) == ["Feint Step"] * 3 + ["Guard"] * 3 + ["Rummage"]
    assert any("shuffles Rummage from the discard pile into the deck" in line for line in out["log"]), out["log"]
    # shuffled: over seeds the Rummage ends at different depths of the deck
    depths = set()
    for seed in range(12):
        me = resolve(p, {"scheme": "Recycle", "by": "Exemplar"}, seed=seed)["players"][0]
        depths.add(me["deck"].index("Rummage") if "Rummage" in me["deck"] else -1)
    assert len(depths) >= 3


def test_recycle_without_the_named_card_only_draws():
    p = pos({"Exemplar": {"space": "M13"}}, {"Medusa": {"space": "M31"}}, hand=["Recycle"], discard=["Jab"])
    me = resolve(p, {"scheme": "Recycle", "by": "Exemplar"})["players"][0]
    assert me["discard"] == ["Jab", "Recycle"] and me["hand"] == ["Jab"]    # drew the deck's top Jab


# ------------------------------------------------------------------ return_to_hand

def test_boomerang_goes_back_to_the_hand_when_it_won():
    p = pos({"Exemplar": {"space": "M13"}}, {"Medusa": {"space": "M20"}}, hand=["Boomerang"])
    out = resolve(p, {"attack": "Boomerang", "by": "Exemplar", "target": "Medusa", "defense": None})
    me = out["players"][0]
    assert out["combat"]["winner"] == "attacker" and out["fighters"]["Medusa"]["health"] == 14
    assert me["hand"] == ["Boomerang"] and me["discard"] == []
    assert any("Boomerang goes back to Exemplar's hand" in line for line in out["log"]), out["log"]


def test_boomerang_is_discarded_when_it_lost():
    p = pos({"Exemplar": {"space": "M13"}}, {"Medusa": {"space": "M20"}}, hand=["Boomerang"], medusa_hand=["Snipe"])
    out = resolve(p, {"attack": "Boomerang", "by": "Exemplar", "target": "Medusa", "defense": "Snipe"})
    me = out["players"][0]
    assert out["combat"]["winner"] == "defender" and me["hand"] == [] and me["discard"] == ["Boomerang"]


@pytest.fixture
def changed_exemplar(tmp_path, monkeypatch):
    """Install a copy of the Exemplar with ``change(data)`` applied (key ``exemplar``)."""
    from helpers.fuzz import to_toml

    def install(change):
        data = read_hero_data(EXEMPLAR)
        change({c["name"]: c for c in data["cards"]})
        (tmp_path / "exemplar.toml").write_text(to_toml(data), encoding="utf-8")
        monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(tmp_path))
    return install


def test_a_defense_card_and_a_scheme_go_back_to_the_hand(changed_exemplar):
    """return_to_hand on a defense card (Guard) and on a scheme (Rummage); with the scheme also
    shuffled into the deck, the deck wins."""
    def change(cards):
        cards["Guard"]["after"] = [{"op": "return_to_hand"}]
        cards["Rummage"]["effect"] = [{"op": "return_to_hand"}]
        cards["Recycle"]["effect"] = [{"op": "return_to_hand"}, {"op": "shuffle_into_deck"}]
    changed_exemplar(change)
    p = pos({"Exemplar": {"space": "M20"}}, {"Medusa": {"space": "M13"}}, hand=["Guard"],
            medusa_hand=["Gaze of Stone"], active=1)
    out = resolve(p, {"attack": "Gaze of Stone", "by": "Medusa", "target": "Exemplar", "defense": "Guard"})
    assert out["players"][0]["hand"] == ["Guard"] and out["players"][1]["discard"] == ["Gaze of Stone"]
    p = pos({"Exemplar": {"space": "M13"}}, {"Medusa": {"space": "M31"}}, hand=["Rummage"])
    me = resolve(p, {"scheme": "Rummage", "by": "Exemplar"})["players"][0]
    assert me["hand"] == ["Rummage"] and me["discard"] == []
    p = pos({"Exemplar": {"space": "M13"}}, {"Medusa": {"space": "M31"}}, hand=["Recycle"])
    me = resolve(p, {"scheme": "Recycle", "by": "Exemplar"})["players"][0]
    assert me["hand"] == [] and me["discard"] == [] and sorted(me["deck"]) == ["Guard", "Jab", "Jab", "Recycle"]


def test_return_to_hand_only_in_a_card():
    data = read_hero_data(EXEMPLAR)
    data["ability"]["start_of_turn"] = [{"op": "return_to_hand"}]
    with pytest.raises(HeroFileError, match=r"start_of_turn\[0\]\.op: op 'return_to_hand' only works in: after, "
                       r"during, effect, immediately"):
        hero_from_data(data, EXEMPLAR)


# ------------------------------------------------------------------ arrange_top

MEDUSA_DECK = ["The Hounds of Mighty Zeus", "Regroup", "Feint", "Dash", "Snipe", "Dash"]


def test_foresight_arranges_the_top_of_the_opponents_deck():
    """Foresight looks at Medusa's top 3: Regroup to the bottom, Feint back on top first (it ends
    on top), then the Hounds under it; the cards below are untouched."""
    p = pos({"Exemplar": {"space": "M13"}}, {"Medusa": {"space": "M31"}}, hand=["Foresight"],
            medusa_deck=MEDUSA_DECK)
    out = resolve(p, {"scheme": "Foresight", "by": "Exemplar"},
                  ["Regroup", 2, "Feint", 1, 1])       # (the last card is not asked for: one option)
    assert out["players"][1]["deck"] == ["Feint", "The Hounds of Mighty Zeus", "Dash", "Snipe", "Dash", "Regroup"]
    assert out["players"][1]["hand"] == [] and out["players"][0]["discard"] == ["Foresight"]
    assert any("looks at the top 3 card(s) of Medusa's deck and puts them back, 1 at the bottom" in line
               for line in out["log"]), out["log"]
    # two at the bottom: the first put there ends lowest
    out = resolve(p, {"scheme": "Foresight", "by": "Exemplar"},
                  ["Regroup", 2, "Feint", 2, 1])
    assert out["players"][1]["deck"] == ["The Hounds of Mighty Zeus", "Dash", "Snipe", "Dash", "Feint", "Regroup"]


def test_foresight_on_a_short_deck_looks_at_what_it_holds():
    p = pos({"Exemplar": {"space": "M13"}}, {"Medusa": {"space": "M31"}}, hand=["Foresight"],
            medusa_deck=["Dash", "Snipe"])
    out = resolve(p, {"scheme": "Foresight", "by": "Exemplar"}, ["Dash", 1, 1])
    assert out["players"][1]["deck"] == ["Dash", "Snipe"] and out["fighters"]["Medusa"]["health"] == 16


def test_arranging_your_own_deck_without_the_bottom(changed_exemplar):
    """who = "you", bottom left out: every card back on top, in the order picked; no option asked."""
    def change(cards):
        cards["Foresight"]["effect"] = [{"op": "arrange_top", "amount": 2}]
    changed_exemplar(change)
    p = pos({"Exemplar": {"space": "M13"}}, {"Medusa": {"space": "M31"}}, hand=["Foresight"],
            deck=["Jab", "Guard", "Boomerang"])
    out = resolve(p, {"scheme": "Foresight", "by": "Exemplar"}, ["Guard"])
    assert out["players"][0]["deck"] == ["Guard", "Jab", "Boomerang"]


def test_the_ai_buries_the_opponents_best_cards_and_tops_their_worst():
    """The standard AI arranging Medusa's deck rates each card by its value, BOOST and effects (from
    the public deck list; a card that draws is priced as the game goes): it puts her worst card,
    Feint (2, BOOST 2), on top and sends The Hounds of Mighty Zeus (4, BOOST 3), above her deck's
    average, to the bottom; its first pick is the card it rates lowest, each rated as
    ``deck_card_worth`` says."""
    from sim.content.profiles import get_profile
    from sim.engine.ai.choices import deck_card_worth
    from sim.engine.control import MODE_STANDARD
    from sim.engine.policy import new_control
    from sim.play.scenario import Scenario
    p = pos({"Exemplar": {"space": "M13"}}, {"Medusa": {"space": "M31"}}, hand=["Foresight"],
            medusa_deck=MEDUSA_DECK)
    out = resolve(p, {"scheme": "Foresight", "by": "Exemplar"}, ai="standard")
    deck = out["players"][1]["deck"]
    assert deck[0] == "Feint" and "The Hounds of Mighty Zeus" in deck[-2:] and deck[1:4] == ["Dash", "Snipe", "Dash"]
    first = next(d for d in out["decisions"] if d["kind"] == "card to take")
    scores = dict(first["candidates"])
    assert first["chosen"] == "Feint" and max(scores, key=scores.get) == "Feint"
    sc = Scenario(p)
    prof = get_profile("standard")
    ctl = new_control((MODE_STANDARD,) * 4, weights=(prof.weights,) * 4)
    for name in ("Feint", "The Hounds of Mighty Zeus"):      # (no draw: no price in their rating)
        assert scores[name] == pytest.approx(-deck_card_worth(sc.match.tables, ctl, 0, sc.card(1, name)), abs=1e-3)


# ------------------------------------------------------------------ target { each = "passed" }

def test_trample_damages_each_opposing_fighter_it_passed():
    """The Exemplar attacks Medusa (M02) from M01, then moves through Medusa and a Harpy (M03) to
    M04: 1 damage to each of them; the Harpy on M06 was not passed."""
    p = pos({"Exemplar": {"space": "M01"}},
            {"Medusa": {"space": "M02"}, "Harpy 1": {"space": "M03"}, "Harpy 2": {"space": "M06"}},
            hand=["Trample"])
    out = resolve(p, {"attack": "Trample", "by": "Exemplar", "target": "Medusa", "defense": None}, ["M04"])
    f = out["fighters"]
    assert f["Exemplar"]["space"] == "M04"
    assert f["Medusa"]["health"] == 16 - 3 - 1
    assert f["Harpy 1"]["status"] == "defeated" and f["Harpy 2"]["health"] == 1


def test_trample_that_passes_nobody_damages_nobody():
    """From M07 to M14 (2 spaces) no route of 3 goes through Medusa on M01 (1 + 3 spaces)."""
    p = pos({"Exemplar": {"space": "M07"}}, {"Medusa": {"space": "M01"}}, hand=["Trample"])
    out = resolve(p, {"attack": "Trample", "by": "Exemplar", "target": "Medusa", "defense": None}, ["M14"])
    assert out["fighters"]["Exemplar"]["space"] == "M14" and out["fighters"]["Medusa"]["health"] == 13


def test_each_passed_is_the_fighters_of_one_route():
    """From M02 to M03 in 3 spaces the move could go through Medusa (M01: 1 + 2) or through the
    Harpy (M04: 2 + 1), not both (5 spaces): one route, so one of them takes the damage (the
    first in fighter order: Medusa), where `one = "passed"` would have offered either."""
    p = pos({"Exemplar": {"space": "M02"}}, {"Medusa": {"space": "M01"}, "Harpy 1": {"space": "M04"}},
            hand=["Trample"])
    out = resolve(p, {"attack": "Trample", "by": "Exemplar", "target": "Medusa", "defense": None}, ["M03"])
    f = out["fighters"]
    assert f["Exemplar"]["space"] == "M03"
    assert f["Medusa"]["health"] == 16 - 3 - 1 and f["Harpy 1"]["health"] == 1


def test_route_passes_finds_the_largest_set_one_route_can_pass():
    """The engine's route search on its own: fighters on M03 and M05 are both on the way from M02
    to M06 (4 spaces along the top row); with 3 spaces to M05 only M03 fits with M05's own."""
    from sim.engine.effect_ops import route_passes
    from sim.play.scenario import Scenario
    sc = Scenario(pos({"Exemplar": {"space": "M02"}},
                      {"Medusa": {"space": "M03"}, "Harpy 1": {"space": "M05"}, "Harpy 2": {"space": "M31"}}))
    tb, st = sc.match.tables, sc.st
    sid = {s: i for i, s in enumerate(sc.bf.space_ids)}
    medusa, h1, h2 = L.FIGHTERS_PER_PLAYER, L.FIGHTERS_PER_PLAYER + 1, L.FIGHTERS_PER_PLAYER + 2
    st[L.G_PASSED] = (1 << medusa) | (1 << h1) | (1 << h2)
    assert route_passes(st, tb, sid["M02"], sid["M06"], 4) == (1 << medusa) | (1 << h1)
    assert route_passes(st, tb, sid["M02"], sid["M01"], 3) == 1 << medusa     # M03 and back: 1 + 2
    assert route_passes(st, tb, sid["M02"], sid["M01"], 1) == 0


# ------------------------------------------------------------------ become_defender

@pytest.mark.parametrize("understudy, exemplar_hp, understudy_hp", [(True, 14, 3), (False, 13, None)])
def test_stand_in_the_understudy_defends_and_takes_the_combat_damage(understudy, exemplar_hp, understudy_hp):
    """Medusa's Snipe (3) against the Exemplar's Stand-In (2): the Understudy, on the board,
    defends instead and takes the 1 combat damage (the attack won against it); off the board,
    the Exemplar defends and takes it (docs/rules.md, "Another fighter defends")."""
    me = {"Exemplar": {"space": "M20"}}
    if understudy:
        me["Understudy"] = {"space": "M06"}
    p = pos(me, {"Medusa": {"space": "M13"}}, hand=["Stand-In"], medusa_hand=["Snipe"], active=1)
    out = resolve(p, {"attack": "Snipe", "by": "Medusa", "target": "Exemplar", "defense": "Stand-In"})
    assert out["combat"]["defense_value"] == 2 and out["combat"]["winner"] == "attacker"
    assert out["fighters"]["Exemplar"]["health"] == exemplar_hp
    lines = [line for line in out["log"] if "defends instead" in line]
    if understudy:
        assert out["fighters"]["Understudy"]["health"] == understudy_hp
        assert lines == ["    Understudy defends instead of Exemplar"], out["log"]
    else:
        assert lines == []


def test_become_defender_is_refused_where_it_cannot_work():
    """Only on a defense or versatile card's Immediately window, and naming one of your fighters:
    one line each, naming the field and the choices."""
    step = {"op": "become_defender", "target": "Understudy"}
    with pytest.raises(HeroFileError, match=r"Jab.*\.immediately\[0\]\.op: op 'become_defender' works only on a "
                                            r"defense or versatile card \(the defender's card\), not on an attack card$"):
        _with_step("Jab", "immediately", step)
    with pytest.raises(HeroFileError, match=r"Guard.*\.after\[0\]\.op: op 'become_defender' only works in"):
        _with_step("Guard", "after", step)
    with pytest.raises(HeroFileError, match=r"Guard.*\.immediately\[0\]\.target: must be one of your fighters by "
                                            r'name \(who defends instead\), got "Medusa"; valid: \'Exemplar\', \'Understudy\'$'):
        _with_step("Guard", "immediately", {"op": "become_defender", "target": "Medusa"})
    with pytest.raises(HeroFileError, match=r"Guard.*\.immediately\[0\]\.target: missing required field 'target' of "
                                            r"op 'become_defender' \(.*; valid: 'Exemplar', 'Understudy'\)$"):
        _with_step("Guard", "immediately", {"op": "become_defender"})   # (not the targets other ops take)
    spec = _with_step("Feint Step", "immediately", step)        # a versatile card: accepted
    assert spec.cards


# ------------------------------------------------------------------ the validator

def _with_step(card, window, step, ctype=None):
    data = read_hero_data(EXEMPLAR)
    c = next(c for c in data["cards"] if c["name"] == card)
    c[window] = [step]
    if ctype:
        c["type"] = ctype
    return hero_from_data(data, EXEMPLAR)


@pytest.mark.parametrize("card, window, ctype, who, word", [
    ("Guard", "after", None, "you", "defense card"),
    ("Jab", "after", None, "opponent", "attack card"),
    ("Rummage", "effect", None, "opponent", "scheme card"),
])
def test_a_gain_that_can_never_happen_is_refused_in_one_line(card, window, ctype, who, word):
    with pytest.raises(HeroFileError) as e:
        _with_step(card, window, {"op": "gain_action", "who": who}, ctype)
    msg = str(e.value)
    assert "\n" not in msg and "exemplar.toml" in msg and f".{window}[0].who:" in msg and word in msg, msg
    assert "only the player taking the turn gains actions" in msg


def test_a_gain_for_the_opponent_in_an_ability_hook_of_your_turn_is_refused():
    data = read_hero_data(EXEMPLAR)
    data["ability"]["start_of_turn"] = [{"op": "gain_action", "who": "opponent"}]
    with pytest.raises(HeroFileError, match=r"ability\.start_of_turn\[0\]\.who: .*the start_of_turn hook"):
        hero_from_data(data, EXEMPLAR)
    data["ability"] = {"name": "x", "text": "x", "fighter_defeated": [{"op": "gain_action", "who": "opponent"}]}
    hero_from_data(data, EXEMPLAR)      # may be the opponent's turn: accepted


@pytest.mark.parametrize("card, window, step", [
    ("Overreach", "after", {"op": "gain_action", "who": "opponent", "amount": 0}),
    ("Foresight", "effect", {"op": "arrange_top", "amount": 0}),
])
def test_an_amount_of_0_that_would_do_nothing_is_refused(card, window, step):
    """Gaining 0 actions or arranging 0 cards does nothing: the validator says the range."""
    with pytest.raises(HeroFileError, match=rf"{card}.*\.{window}\[0\]\.amount: must be a whole number from 1 to 99, got 0"):
        _with_step(card, window, step)


def test_each_passed_needs_a_tracked_move_before_it():
    with pytest.raises(HeroFileError, match=r"Trample.*\.after: a target \{ each = 'passed' \} needs a move with "
                       r"track = true before it"):
        _with_step("Trample", "after", {"op": "damage", "target": {"each": "passed", "side": "opposing"}})


def test_reclaim_fields_are_checked():
    with pytest.raises(HeroFileError, match=r"Recycle.*\.card: unknown card 'Nope'; cards of this hero: Overreach"):
        _with_step("Recycle", "effect", {"op": "reclaim", "to": "deck", "card": "Nope"})
    with pytest.raises(HeroFileError, match=r"\.random: must be true or false"):
        _with_step("Recycle", "effect", {"op": "reclaim", "to": "deck", "random": "yes"})
    with pytest.raises(HeroFileError, match=r"\.to: unknown 'bottom'; valid: deck_top, hand, deck"):
        _with_step("Recycle", "effect", {"op": "reclaim", "to": "bottom"})


def test_the_rows_the_new_fields_compile_to():
    spec = hero_from_data(read_hero_data(EXEMPLAR), EXEMPLAR)
    prog = {c.name: c.programs for c in spec.cards}
    over = prog["Overreach"][L.W_AFTER][0]
    assert (over[L.I_OP], over[L.I_SIDE], over[L.I_N]) == (C.OP_GAIN_ACTION, C.S_OPPOSING, 1)
    rum = prog["Rummage"][L.W_SCHEME][0]
    assert (rum[L.I_OP], rum[L.I_X], rum[L.I_FLAGS] & L.IF_RANDOM, rum[L.I_Y]) == (C.OP_RECLAIM, 1, L.IF_RANDOM, 0)
    rec = prog["Recycle"][L.W_SCHEME][0]
    names = [c.name for c in spec.cards]
    assert (rec[L.I_X], rec[L.I_Y]) == (2, names.index("Rummage") + 1)
    assert prog["Trample"][L.W_AFTER][1][L.I_SEL] == C.SEL_EACH_PASSED


# ------------------------------------------------------------------ the standard AI

def test_the_ai_reads_an_action_for_the_opponent_as_a_loss():
    """The AI's card features (public: read from the card's program, never from a hero's name):
    Overreach's gain counts against its player (the opponent gains; its condition "defending" is
    a role, counted in full), Rummage is a card into the hand, Recycle a card drawn plus one kept
    for later (not in hand), Trample's each-passed damage one opposing fighter's worth, Boomerang a card kept; the
    standard profile's worth of the effects follows: Overreach below a plain card, Recycle above
    Rummage."""
    from sim.content.profiles import get_profile
    from sim.engine.ai.weights import fx_worth
    from sim.engine.control import MODE_STANDARD
    from sim.engine.policy import new_control
    from sim.play.match import Match
    m = Match(["exemplar", "medusa"], "marmoreal")
    tb, cid = m.tables, m.content.card_ids
    names = ("Overreach", "Rummage", "Recycle", "Trample", "Boomerang", "Foresight", "Feint Step")
    feat = {n: tb.cards[cid[("exemplar", n)], L.C_AI0:L.C_AI0 + L.N_AI_FEAT].tolist() for n in names}
    assert feat["Overreach"][L.AI_ACTION] == -100
    assert feat["Rummage"][L.AI_DRAW] == 100
    assert feat["Recycle"][L.AI_DRAW] == 100 and feat["Recycle"][L.AI_OTHER] == 30
    assert feat["Trample"][L.AI_DMG] == 100 and feat["Trample"][L.AI_MOVE] == 300
    assert feat["Boomerang"][L.AI_DRAW] == 50             # the card kept, half: under "won"
    assert feat["Foresight"][L.AI_OTHER] == 50            # looking at and arranging a deck top
    prof = get_profile("standard")
    ctl = new_control((MODE_STANDARD,) * 4, weights=(prof.weights,) * 4)
    worth = {n: fx_worth(tb, ctl, 0, cid[("exemplar", n)]) for n in names}
    assert worth["Feint Step"] == 0 and worth["Overreach"] < 0
    assert worth["Recycle"] > worth["Rummage"]      # (a card in hand is priced as the game goes: 0 here)


# ------------------------------------------------------------------ the independent replay checker

def test_random_games_of_the_exemplar_pass_the_replay_checker():
    """Games of the Exemplar from both seats pass the checker, which reads the new fields from the
    hero file itself; with its reading of gain_action's who turned round, the same games fail
    (it checks who gains, not only that someone did)."""
    from helpers.replay.checks import run_checked
    from helpers.replay.constants import (EF_OP, EF_WHO, OK, OX_GAIN, R_CODE, R_FIELDS, RUN_SEED, SD_OPP, SD_OWN,
                                          SX_FIELDS, SX_GAINS, SX_PASSED_DAMAGE, SX_RECLAIM_HAND, SX_RECLAIM_TOP,
                                          SX_ARRANGES, SX_DEFENDERS, SX_TO_HAND)
    from helpers.replay.expect import Expect
    from helpers.replay.runs import describe_failures, run_match
    from sim.engine.policy import new_control
    from sim.play.match import Match
    m = Match(["exemplar", "medusa"], "marmoreal")
    m2 = Match(["medusa", "exemplar"], "marmoreal")
    (out1, st1), (out2, st2) = run_match(1, m, 200), run_match(2, m2, 200)
    n_fail, text = describe_failures([(1, m, out1), (2, m2, out2)])
    assert n_fail == 0, text
    # the games reached the new steps: an attacker's gain from Overreach (the Exemplar's only gain;
    # Medusa has none), Rummage's random reclaim, Recycle's reclaim into the deck (counted with
    # the deck-top ones), Trample's damage to the fighters passed, Boomerang back in the hand and
    # Stand-In's change of defender
    stats = st1 + st2
    assert stats[SX_DEFENDERS] > 0          # Stand-In's Understudy defended in some games
    assert stats[SX_GAINS] > 0 and stats[SX_RECLAIM_HAND] > 0
    assert stats[SX_RECLAIM_TOP] > 0 and stats[SX_PASSED_DAMAGE] > 0 and stats[SX_TO_HAND] > 0
    assert stats[SX_ARRANGES] > 0
    ex = Expect(m)
    gains = ex.eff[:, EF_OP] == OX_GAIN
    assert gains.any()
    ex.eff[gains, EF_WHO] = np.where(ex.eff[gains, EF_WHO] == SD_OPP, SD_OWN, SD_OPP)
    out = np.zeros((200, R_FIELDS), np.int64)
    run_checked(m.tables, m.rows, new_control(), RUN_SEED, 1, 0, 200, *ex.args(), out, np.zeros(SX_FIELDS, np.int64))
    assert int((out[:, R_CODE] != OK).sum()) > 0


def test_the_checker_refuses_a_change_of_defender_the_card_does_not_make():
    """A real game's EV_DEFENDER line (Stand-In) passes; made to name an opposing fighter, or
    dropped (the combat damage then goes to a fighter the checker does not see defending), it
    is refused."""
    from helpers.replay.constants import E_DEFENDER, OK
    from helpers.replay.synth import log_code, real_game_with
    from sim.play.match import Match
    m = Match(["exemplar", "medusa"], "marmoreal")
    g = real_game_with(m, lambda lg: any(e[0] == L.EV_DEFENDER for e in lg.tolist()))
    log = g.log.copy()
    assert log_code(m, log) == OK
    i = next(i for i, e in enumerate(log.tolist()) if e[0] == L.EV_DEFENDER)
    wrong = log.copy()
    wrong[i, 1] = L.FIGHTERS_PER_PLAYER          # Medusa, the attacker's player's hero
    assert log_code(m, wrong) == E_DEFENDER
    assert log_code(m, np.delete(log, i, axis=0)) != OK


# ------------------------------------------------------------------ the replay viewer

def test_the_replay_viewer_follows_the_new_card_moves():
    """The viewer's board, followed from the events, matches the engine at every turn end in games
    where cards are shuffled from the discard pile into the deck and go back to the hand."""
    from sim.play.match import Match
    from sim.play.replay import record
    seen = set()
    for seed in range(40):
        rep = record(Match(["exemplar", "medusa"], "marmoreal"), seed, ("random", "random"))
        assert rep.mismatches == [], (seed, rep.mismatches[:1])
        take = rep.log[rep.log[:, 0] == L.EV_TAKE]
        seen |= {int(d) for d in take[:, 4]}
        if {4, 5} <= seen and seed >= 7:
            break
    assert {4, 5} <= seen


def test_a_misspelt_op_is_named_with_the_op_it_resembles():
    with pytest.raises(HeroFileError, match=r"Guard.*\.immediately\[0\]\.op: unknown op 'become_defendr' \(did you "
                                            r"mean 'become_defender'\?\); valid: "):
        _with_step("Guard", "immediately", {"op": "become_defendr", "target": "Understudy"})
