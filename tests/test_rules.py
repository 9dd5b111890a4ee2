"""Core rules in built positions, named after the cases of docs/rules.md.

Sources: Battle of Legends Vol. 1 rules; Cobble & Fog rules (combat order,
secret passages); Witcher rules (one-way paths); docs/rules.md project decisions.
"""
import numpy as np
import pytest

from sim.engine import layout as L
from sim.engine.core import check_end, deal_damage
from sim.play.scenario import Scenario, ScenarioError, resolve

pytestmark = pytest.mark.nojit


def pos(medusa=None, sinbad=None, first="medusa", battlefield="marmoreal", **extra):
    """A Medusa-vs-Sinbad position; ``first`` is the active player's hero."""
    m = {"hero": "medusa", "fighters": {"Medusa": {"space": "M13"}}}
    s = {"hero": "sinbad", "fighters": {"Sinbad": {"space": "M20"}}}
    m.update(medusa or {})
    s.update(sinbad or {})
    players = [m, s] if first == "medusa" else [s, m]
    return {"battlefield": battlefield, "players": players, **extra}


# ------------------------------------------------------------------ combat

def test_R01_feint_against_feint_defender_resolves_first():
    out = resolve(pos(medusa={"hand": ["Feint"]}, sinbad={"hand": ["Feint"]}, first="sinbad"),
                  {"attack": "Feint", "by": "Sinbad", "target": "Medusa", "defense": "Feint"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert out["fighters"]["Medusa"]["health"] == 16
    assert out["fighters"]["Sinbad"]["health"] == 15
    # only the defender's Feint cancels: the attacker's was cancelled before it resolved
    assert [line for line in out["log"] if "cancels" in line] == \
        ["    Medusa cancels the effects on the attack card"]
    assert out["players"][0]["discard"] == ["Feint"] and out["players"][1]["discard"] == ["Feint"]


def test_defender_effects_resolve_first_in_each_window():
    # Sinbad's Feint (attack) would cancel Regroup, but Medusa defends with Feint too
    # in the IMMEDIATELY window first; Regroup vs Feint: the defender's Feint cancels
    # Regroup's draw before anything else happens.
    out = resolve(pos(medusa={"hand": ["Feint"]}, sinbad={"hand": ["Regroup"], "deck": ["Exploit"]},
                      first="sinbad"),
                  {"attack": "Regroup", "by": "Sinbad", "target": "Medusa", "defense": "Feint"})
    assert out["combat"]["winner"] == "defender"            # 1 - 2 < 1
    assert out["players"][0]["hand"] == []                  # Regroup's draw was cancelled
    assert out["players"][0]["deck"] == ["Exploit"]


def test_R05_tie_means_defender_wins_and_if_won_effects_fail():
    out = resolve(pos(medusa={"hand": ["Gaze of Stone"]}, sinbad={"hand": ["Momentous Shift"]}),
                  {"attack": "Gaze of Stone", "by": "Medusa", "target": "Sinbad", "defense": "Momentous Shift"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert out["fighters"]["Sinbad"]["health"] == 15      # no 8 damage: Medusa did not win


def test_R05_regroup_draws_two_for_the_defender_on_a_tie():
    out = resolve(pos(medusa={"hand": ["Regroup"], "deck": ["Snipe", "Dash", "Feint"]},
                      sinbad={"hand": ["Regroup"], "deck": ["Exploit", "Feint", "Leap Away"]}, first="sinbad"),
                  {"attack": "Regroup", "by": "Sinbad", "target": "Medusa", "defense": "Regroup"})
    assert out["combat"]["winner"] == "defender"
    assert out["players"][1]["hand"] == ["Snipe", "Dash"]       # defender won: draw 2
    assert out["players"][0]["hand"] == ["Exploit"]             # attacker lost: draw 1


def test_R08_cancelling_effects_does_not_change_the_value():
    out = resolve(pos(medusa={"hand": ["Feint"]}, sinbad={"hand": ["Commanding Impact"], "deck": ["Exploit"]},
                      first="sinbad"),
                  {"attack": "Commanding Impact", "by": "Sinbad", "target": "Medusa", "defense": "Feint"})
    assert out["combat"] == {"attack_value": 5, "defense_value": 2, "damage": 3, "winner": "attacker"}
    assert out["fighters"]["Medusa"]["health"] == 13
    assert out["players"][0]["hand"] == []        # Commanding Impact's draw 1 was cancelled


def test_attack_without_defense_card_deals_full_value():
    out = resolve(pos(medusa={"hand": ["Snipe"], "deck": ["Dash"]}, sinbad={"hand": ["Exploit"]}),
                  {"attack": "Snipe", "by": "Medusa", "target": "Sinbad", "defense": None})
    assert out["combat"] == {"attack_value": 3, "defense_value": 0, "damage": 3, "winner": "attacker"}
    assert out["fighters"]["Sinbad"]["health"] == 12
    assert out["players"][1]["hand"] == ["Exploit"]


def test_game_ends_as_soon_as_a_hero_is_defeated_after_combat_effects_skipped():
    # project decision "End of game": Snipe's After Combat draw does not happen
    out = resolve(pos(medusa={"hand": ["Snipe"], "deck": ["Dash"]}, sinbad={"fighters": {"Sinbad": {"space": "M20", "health": 2}}}),
                  {"attack": "Snipe", "by": "Medusa", "target": "Sinbad", "defense": None})
    assert out["winner"] == "Medusa"
    assert out["fighters"]["Sinbad"] == {"space": None, "health": 0, "status": "defeated"}
    assert out["players"][0]["hand"] == [] and out["players"][0]["deck"] == ["Dash"]
    assert out["players"][0]["discard"] == ["Snipe"]


def test_rules_option_end_at_action_lets_after_combat_effects_resolve():
    out = resolve(pos(medusa={"hand": ["Snipe"], "deck": ["Dash"]},
                      sinbad={"fighters": {"Sinbad": {"space": "M20", "health": 2}}},
                      rules={"end_at_action": 1}),
                  {"attack": "Snipe", "by": "Medusa", "target": "Sinbad", "defense": None})
    assert out["winner"] == "Medusa"
    assert out["players"][0]["hand"] == ["Dash"]


def test_R07_both_heroes_defeated_at_once_the_active_player_wins():
    for active in (0, 1):
        sc = Scenario(pos(active=active))
        st, tb = sc.st, sc.match.tables
        log = np.zeros((10, 6), np.int64)
        deal_damage(st, tb, log, 0, 99)
        deal_damage(st, tb, log, L.FIGHTERS_PER_PLAYER, 99)
        assert check_end(st, tb, log)
        assert st[L.G_WINNER] == active


def test_sidekick_defeat_removes_it_and_the_game_goes_on():
    out = resolve(pos(medusa={"fighters": {"Medusa": {"space": "M13"}, "Harpy 1": {"space": "M21"}},
                              "hand": ["Clutching Claws"]},
                      sinbad={"fighters": {"Sinbad": {"space": "M26"}, "The Porter": {"space": "M25", "health": 2}},
                              "hand": ["Feint"]}),
                  {"attack": "Clutching Claws", "by": "Harpy 1", "target": "The Porter", "defense": None})
    assert out["fighters"]["The Porter"] == {"space": None, "health": 0, "status": "defeated"}
    assert out["winner"] is None
    assert out["players"][1]["discard"] == ["Feint"]      # Clutching Claws: the opponent discards 1


# ------------------------------------------------------------------ exhaustion, hand limit

def test_R10_empty_deck_maneuver_deals_2_to_each_fighter():
    out = resolve(pos(medusa={"fighters": {"Medusa": {"space": "M13", "health": 5},
                                           "Harpy 1": {"space": "M07"}, "Harpy 2": {"space": "M01"}}}),
                  {"maneuver": True}, choices=["M13"])
    assert out["fighters"]["Medusa"]["health"] == 3
    assert out["fighters"]["Harpy 1"]["status"] == "defeated"
    assert out["fighters"]["Harpy 2"]["status"] == "defeated"
    assert out["players"][0]["discard"] == []           # nothing reshuffled or lost


def test_R10_exhaustion_can_defeat_the_maneuvering_hero():
    out = resolve(pos(medusa={"fighters": {"Medusa": {"space": "M13", "health": 2}}}), {"maneuver": True})
    assert out["winner"] == "Sinbad"


def test_R11_multi_card_draw_with_too_few_cards():
    out = resolve(pos(sinbad={"fighters": {"Sinbad": {"space": "M20", "health": 10},
                                           "The Porter": {"space": "M21", "health": 3}},
                              "hand": ["Riches Beyond Compare"], "deck": ["Exploit"]}, first="sinbad"),
                  {"scheme": "Riches Beyond Compare", "by": "Sinbad"})
    assert out["fighters"]["Sinbad"]["health"] == 6
    assert out["fighters"]["The Porter"]["status"] == "defeated"
    assert out["players"][0]["hand"] == ["Exploit"]
    assert out["players"][0]["discard"] == ["Riches Beyond Compare"]


def test_R13_hand_limit_only_at_the_end_of_your_own_turn():
    hand9 = ["Snipe", "Dash", "Feint", "Regroup", "Snipe", "Dash", "Feint", "Regroup", "Snipe"]
    hand8 = ["Exploit", "Feint", "Regroup", "Exploit", "Feint", "Regroup", "Toil and Danger", "Leap Away"]
    out = resolve(pos(medusa={"hand": hand9}, sinbad={"hand": hand8}),
                  {"end_of_turn": True}, choices=["Regroup", "Regroup"])
    assert len(out["players"][0]["hand"]) == 7
    assert "Regroup" not in out["players"][0]["hand"]
    assert out["players"][0]["discard"] == ["Regroup", "Regroup"]
    assert len(out["players"][1]["hand"]) == 8           # not Sinbad's turn: he keeps 8


# ------------------------------------------------------------------ maneuver and movement

def test_R14_maneuver_draw_then_boost_then_each_fighter_moves_up_to_move_plus_boost():
    out = resolve(pos(medusa={"fighters": {"Medusa": {"space": "M13"}, "Harpy 1": {"space": "M07"},
                                           "Harpy 2": {"space": "M01"}},
                              "hand": ["Gaze of Stone", "Snipe"], "deck": ["Dash", "Feint"]},
                      sinbad={"fighters": {"Sinbad": {"space": "M31"}}}),
                  {"maneuver": True},
                  choices=["Gaze of Stone",          # boost +4: move 3 + 4 = 7
                           "Medusa", "M06",          # Medusa moves 7 spaces
                           "Harpy 1", "M09",         # 2 spaces
                           "M01"])                   # Harpy 2 stays (0 is allowed)
    assert out["fighters"]["Medusa"]["space"] == "M06"
    assert out["fighters"]["Harpy 1"]["space"] == "M09"
    assert out["fighters"]["Harpy 2"]["space"] == "M01"
    assert out["players"][0]["hand"] == ["Snipe", "Dash"]    # +1 drawn, -1 boost
    assert out["players"][0]["discard"] == ["Gaze of Stone"]


def test_R14_move_beyond_move_plus_boost_is_illegal():
    with pytest.raises(ScenarioError, match="not legal.*destination space"):
        resolve(pos(medusa={"hand": ["Snipe"], "deck": ["Dash"]}, sinbad={"fighters": {"Sinbad": {"space": "M31"}}}),
                {"maneuver": True}, choices=["Snipe", "M06"])   # 3 + 1 = 4 < 7


def test_R15_move_through_friends_not_enemies_and_not_ending_on_occupied():
    base = {"hand": [], "deck": ["Exploit"]}
    p = pos(medusa={"fighters": {"Medusa": {"space": "M03"}}},
            sinbad={"fighters": {"Sinbad": {"space": "M01"}, "The Porter": {"space": "M02"}}, **base},
            first="sinbad")
    with pytest.raises(ScenarioError) as e:
        resolve(p, {"maneuver": True}, choices=[None, "Sinbad", "M03"])
    legal = e.value.args[0].split("legal options: ")[1].split(", ")
    assert sorted(legal) == ["M01", "M07", "M08", "M13"]   # not M02 (friend), M03/M04 (enemy)
    # without the enemy in the way, Sinbad passes through the Porter to M03
    p["players"][1]["fighters"]["Medusa"] = {"space": "M31"}
    out = resolve(p, {"maneuver": True}, choices=[None, "Sinbad", "M03", "M02"])
    assert out["fighters"]["Sinbad"]["space"] == "M03"


def test_R18_melee_needs_adjacency_ranged_needs_adjacency_or_zone():
    # Medusa (ranged, M13 red/yellow) and Sinbad (melee, M21 red): same zone, not adjacent
    p = pos(medusa={"hand": ["Snipe"], "deck": ["Dash"]}, sinbad={"fighters": {"Sinbad": {"space": "M21"}}, "hand": ["Exploit"]})
    out = resolve(p, {"attack": "Snipe", "by": "Medusa", "target": "Sinbad", "defense": None})
    assert out["fighters"]["Sinbad"]["health"] == 12
    p2 = pos(medusa={"hand": ["Snipe"]}, sinbad={"fighters": {"Sinbad": {"space": "M21"}}, "hand": ["Exploit"]}, first="sinbad")
    with pytest.raises(ScenarioError, match="cannot attack"):
        resolve(p2, {"attack": "Exploit", "by": "Sinbad", "target": "Medusa"})


def test_R18_adjacent_across_a_zone_border_melee_may_attack():
    # M20 (red/yellow) and M27 (brown) are adjacent and share no zone
    p = pos(medusa={"fighters": {"Medusa": {"space": "M20"}}, "hand": ["Feint"]},
            sinbad={"fighters": {"Sinbad": {"space": "M31"}, "The Porter": {"space": "M27"}},
                    "hand": ["By Fortune and Fate"], "deck": ["Exploit", "Feint"]}, first="sinbad")
    out = resolve(p, {"attack": "By Fortune and Fate", "by": "The Porter", "target": "Medusa", "defense": None})
    assert out["fighters"]["Medusa"]["health"] == 13
    assert out["players"][0]["hand"] == ["Exploit", "Feint"]


def test_R20_kaer_morhen_one_way_path_moves_one_way_but_stays_adjacent():
    p = pos(medusa={"fighters": {"Medusa": {"space": "KM04"}}, "hand": ["Feint"]},
            sinbad={"fighters": {"Sinbad": {"space": "KM12"}}, "hand": ["Exploit"], "deck": ["Feint"]},
            first="sinbad", battlefield="kaer_morhen")
    out = resolve(p, {"attack": "Exploit", "by": "Sinbad", "target": "Medusa", "defense": None})
    assert out["fighters"]["Medusa"]["health"] == 12        # adjacent across the arrow
    p["players"][1]["fighters"]["Medusa"] = {"space": "KM32"}
    with pytest.raises(ScenarioError) as e:                 # KM12 -> KM04 is against the arrow
        resolve(p, {"maneuver": True}, choices=["Exploit", "KM04"])
    assert "KM04" not in e.value.args[0].split("legal options: ")[1]
    p["players"][0]["fighters"]["Sinbad"] = {"space": "KM04"}
    out = resolve(p, {"maneuver": True}, choices=[None, "KM12"])   # with the arrow: 1 step
    assert out["fighters"]["Sinbad"]["space"] == "KM12"


def test_R21_baskerville_passages_cost_one_move_and_are_not_adjacent():
    p = pos(medusa={"fighters": {"Medusa": {"space": "BM26"}}, "hand": ["Feint"]},
            sinbad={"fighters": {"Sinbad": {"space": "BM09"}}, "hand": ["Exploit"], "deck": ["Feint"]},
            first="sinbad", battlefield="baskerville_manor")
    with pytest.raises(ScenarioError, match="cannot attack"):
        resolve(p, {"attack": "Exploit", "by": "Sinbad", "target": "Medusa"})
    p["players"][1]["fighters"]["Medusa"] = {"space": "BM20"}
    out = resolve(p, {"maneuver": True}, choices=[None, "BM15"])
    assert out["fighters"]["Sinbad"]["space"] == "BM15"     # passage to passage: 1 of 2 moves


def test_scheme_card_of_a_defeated_sidekick_cannot_be_played():
    # By Fortune and Fate is an attack, so use a Porter-only situation via legal actions:
    p = pos(sinbad={"hand": ["By Fortune and Fate"]}, first="sinbad")
    with pytest.raises(ScenarioError, match="cannot attack"):
        resolve(p, {"attack": "By Fortune and Fate", "by": "Sinbad", "target": "Medusa"})


# ------------------------------------------------------------------ turn structure

def test_turn_cap_is_a_draw():
    from sim.play.match import Match
    m = Match(["medusa", "sinbad"], rules={"turn_cap": 3})
    g = m.play(5)
    assert g.winner == -1 and g.turns == 3 and int(g.result[2]) == L.END_TURN_CAP


def test_R22_setup_places_heroes_on_starts_and_sidekicks_in_the_heros_zone():
    from sim.play.match import Match
    for bf in ("marmoreal", "sarpedon", "soho"):
        m = Match(["medusa", "sinbad"], battlefield=bf)
        g = m.play(11, log_size=200)
        setup = [(a, b) for ev, a, b, *_ in g.log.tolist() if ev == L.EV_SETUP]
        spaces = [s for _, s in setup]
        assert len(spaces) == len(set(spaces)) == 6
        assert setup[0] == (0, int(m.battlefield.starts[0]))
        fp = L.FIGHTERS_PER_PLAYER
        assert setup[4] == (fp, int(m.battlefield.starts[1]))
        for f, s in setup:
            hero_space = m.battlefield.starts[f // fp]
            assert m.battlefield.zone_mask[s] & m.battlefield.zone_mask[hero_space]
        draws = [a for ev, a, *_ in g.log.tolist()[:20] if ev == L.EV_DRAW]
        assert draws[:10] == [0] * 5 + [1] * 5


def test_two_actions_per_turn_and_maneuver_always_draws():
    from sim.play.match import Match
    m = Match(["medusa", "sinbad"], battlefield="sarpedon")
    for seed in range(5):
        g = m.play(seed)
        log = g.log.tolist()
        turns = [i for i, e in enumerate(log) if e[0] == L.EV_TURN] + [len(log)]
        for t0, t1 in zip(turns, turns[1:]):
            acts = [e for e in log[t0:t1] if e[0] == L.EV_ACTION]
            over = any(e[0] == L.EV_GAME_OVER for e in log[t0:t1])
            assert len(acts) == 2 or (over and len(acts) <= 2)
        for i, e in enumerate(log):
            if e[0] == L.EV_ACTION and e[2] == L.A_MANEUVER:
                assert log[i + 1][0] in (L.EV_DRAW, L.EV_EXHAUST)


def test_scenario_refuses_typos_extra_copies_and_wrong_types():
    with pytest.raises(ScenarioError, match=r"unknown position key\(s\) \['battlefeild'\]"):
        resolve({**pos(), "battlefeild": "soho"}, {"maneuver": True})
    with pytest.raises(ScenarioError, match=r"player 0: unknown key\(s\) \['hnad'\]"):
        resolve(pos(medusa={"hnad": []}), {"maneuver": True})
    with pytest.raises(ScenarioError, match=r"4 copies of 'Feint'.*deck has 3"):
        resolve(pos(medusa={"hand": ["Feint"] * 4}), {"maneuver": True})
    with pytest.raises(ScenarioError, match="position must be a dict"):
        resolve("marmoreal", {"maneuver": True})
    with pytest.raises(ScenarioError, match=r"step 'attack' does not take \['targt'\]"):
        resolve(pos(medusa={"hand": ["Snipe"]}), {"attack": "Snipe", "by": "Medusa", "targt": "Sinbad"})
    with pytest.raises(ScenarioError, match=r"target 'Medusa' is not a fighter of Sinbad"):
        resolve(pos(medusa={"hand": ["Snipe"]}), {"attack": "Snipe", "by": "Medusa", "target": "Medusa"})


def test_mirror_match_positions_name_fighters_by_seat():
    p = {"players": [{"hero": "medusa", "fighters": {"Medusa (P1)": {"space": "M13"}}, "hand": ["Snipe"], "deck": ["Dash"]},
                     {"hero": "medusa", "fighters": {"Medusa (P2)": {"space": "M20"}}}]}
    out = resolve(p, {"attack": "Snipe", "by": "Medusa (P1)", "target": "Medusa (P2)", "defense": None})
    assert out["fighters"]["Medusa (P2)"]["health"] == 13
    assert out["fighters"]["Medusa (P1)"]["health"] == 16


LOOPER = '''name = "Looper"
set = "Homebrew"

[hero]
health = 15
move = 2
attack = "melee"

[ability]
name = "None"
text = "No ability."

[[cards]]
name = "Again"
type = "scheme"
boost = 1
copies = 25
fighter = "any"
text = "Gain an action; shuffle this card into your deck; draw 1."
effect = [{ op = "gain_action", amount = 1 }, { op = "shuffle_into_deck" }, { op = "draw", amount = 1 }]

[[cards]]
name = "Jab"
type = "versatile"
value = 2
boost = 1
copies = 5
fighter = "any"
text = "No effect."
'''


def test_a_turn_ends_after_max_turn_actions(tmp_path):
    """A homebrew scheme that gains an action and gives itself back (shuffled into the deck,
    drawn again) would let the standard AI play it for ever: a turn ends after
    ``MAX_TURN_ACTIONS`` actions (docs/rules.md, project decisions), and the game finishes.
    No shipped hero comes near the limit (484 standard games, every ordered pair of heroes:
    at most 6 actions in a turn)."""
    from sim.engine.rules import MAX_TURN_ACTIONS
    from sim.play.match import Match, installed_content
    (tmp_path / "looper.toml").write_text(LOOPER, encoding="utf-8")
    m = Match(["looper", "sinbad"], content=installed_content((str(tmp_path),)), rules={"turn_cap": 20})
    g = m.play(3, modes=("standard", "standard"))
    assert g.turns >= 1 and int(g.result[2]) in (L.END_HERO_DEFEATED, L.END_TURN_CAP)
    per_turn, most = 0, 0
    for ev, *_ in g.log.tolist():
        if ev == L.EV_TURN:
            per_turn = 0
        elif ev == L.EV_ACTION:
            per_turn += 1
            most = max(most, per_turn)
    assert most == MAX_TURN_ACTIONS
