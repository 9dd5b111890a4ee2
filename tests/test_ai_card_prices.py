"""Card prices of the standard AI read from the effect programs: a card discarded for value
(``discard_for_value``: Dracula's Beastform, +1 a card) by the step's amount, not by the
card's BOOST; "draw per combat damage you took" by the damage the defense expects."""
import numpy as np
import pytest

from sim.engine import layout as L
from sim.engine.codes import D_BOOST_CARD
from sim.engine.control import CTL_EXPLAIN, CTL_SIZE, EXPLAIN_REC
from sim.engine.rules import action_due, pack_action
from sim.engine.search import PIN_SIZE, play_action
from sim.play.match import _control
from sim.play.scenario import Scenario


def test_beastform_discards_are_worth_one_each_whatever_their_boost():
    """Dracula attacks Medusa (no card in hand) with Beastform, holding Prey Upon (BOOST 4)
    and Look Into My Eyes (BOOST 2). Each discarded card adds 1: the two scores differ by
    the cards' keep worths only (well under a point), not by 2 more damage (3.6 points
    before the fix). Both are worth discarding here: Medusa takes 6 + 1 + 1."""
    sc = Scenario({"battlefield": "marmoreal", "actions": 2, "players": [
        {"hero": "dracula",
         "fighters": {"Dracula": {"space": "M25", "health": 12}, "Sister 1": {"space": "M01", "health": 1},
                      "Sister 2": {"space": "M02", "health": 1}, "Sister 3": {"space": "M03", "health": 1}},
         "hand": ["Beastform", "Prey Upon", "Look Into My Eyes"], "deck": ["Feint", "Feint", "Dash", "Exploit"]},
        {"hero": "medusa", "fighters": {"Medusa": {"space": "M21", "health": 16}}, "hand": [],
         "deck": ["Dash", "Dash", "Feint"]}]})
    st = sc.st.copy()
    action_due(st, 0)
    ctl = _control(("standard", "standard"), explain=16)
    log = np.zeros((400, L.EV_FIELDS), np.int64)
    work = (np.zeros(L.STATE_SIZE, np.int64), np.zeros(L.STATE_SIZE, np.int64), np.zeros(CTL_SIZE, np.int64),
            np.zeros((0, 6), np.int64), np.zeros(L.STATE_SIZE, np.int64), np.zeros(PIN_SIZE, np.int64))
    play_action(st, sc.match.tables, ctl, log, 0, pack_action(L.A_ATTACK, sc.fighter("Dracula"), sc.fighter("Medusa"),
                                                              sc.card(0, "Beastform")), *work)
    first = None
    for i in range(int(ctl[CTL_EXPLAIN])):
        r = ctl[CTL_EXPLAIN + 1 + i * EXPLAIN_REC:CTL_EXPLAIN + 1 + (i + 1) * EXPLAIN_REC]
        if r[1] == D_BOOST_CARD:
            first = {int(r[6 + 3 * k]): r[7 + 3 * k] / 1000 for k in range(int(r[4]))}
            break
    prey, eyes = sc.card(0, "Prey Upon"), sc.card(0, "Look Into My Eyes")
    assert set(first) == {prey, eyes, -1}
    assert first[-1] == 0.0
    assert 0.0 < first[eyes] < first[prey] < first[eyes] + 1.0
    assert st[L.fslot(sc.fighter("Medusa"), L.F_HP)] == 16 - 8


def test_damage_taken_is_the_attack_beyond_the_defense():
    """The combat damage a defense expects to take: each attack value beyond the defense's,
    at its chance among the attacker's possible cards (held with chance ``norm``); none held:
    the unknown attack's value."""
    from sim.engine.ai.choices import damage_taken
    vals = np.array([2.0, 4.0, 6.0])
    probs = np.array([0.2, 0.3, 0.5])
    assert damage_taken(vals, probs, 3, 1.0, 3.0, 4.7) == pytest.approx(0.3 * 1 + 0.5 * 3)
    assert damage_taken(vals, probs * 0.5, 3, 0.5, 3.0, 4.7) == pytest.approx(0.3 * 1 + 0.5 * 3)
    assert damage_taken(vals, probs, 3, 1.0, 6.0, 4.7) == 0.0
    assert damage_taken(vals, probs, 3, 0.0, 2.0, 4.7) == pytest.approx(2.7)


def test_draw_per_damage_taken_is_read_from_the_position():
    """Scientific Method's "draw 1 per combat damage you took" is a step the standard AI
    counts from the position (the damage that defense expects), not at a fixed 1.5."""
    from sim.content.ai_features import is_board
    from sim.engine import codes as E
    from sim.play.match import Match
    m = Match(["jekyll_hyde", "medusa"], "soho")
    tb = m.tables
    c = m.content.card_names.index("Scientific Method")
    s0 = tb.cards[c, L.C_PROG + 2 * L.W_AFTER]
    rows = [tb.code[r] for r in range(s0, s0 + tb.cards[c, L.C_PROG + 2 * L.W_AFTER + 1])]
    draw = [r for r in rows if r[L.I_OP] == E.OP_DRAW]
    assert len(draw) == 1 and draw[0][L.I_PER] == E.PER_DAMAGE_TAKEN
    assert is_board(draw[0])
    assert tb.cards[c, L.C_AI_LIVE] & 2


def test_a_scheme_costs_its_cards_keep_worth(tmp_path):
    """Ciri to act with Unicorn Ally (a scheme) in hand: its score with the standard weights
    is its score with keep worths of zero (keep_value, keep_boost, keep_fx 0) less the card's
    keep worth, as an attack with a card costs its card."""
    from sim.content.profiles import load_profile
    from sim.engine.ai.decide import ai_scores
    from sim.engine.ai.weights import keep_worth
    from sim.engine.rules import legal_actions, unpack_action
    f = tmp_path / "nokeep.toml"
    f.write_text('name = "nokeep"\nmode = "standard"\nbase = "standard"\n[weights]\n'
                 'keep_value = 0.0\nkeep_boost = 0.0\nkeep_fx = 0.0\n')
    sc = Scenario({"battlefield": "marmoreal", "actions": 2, "players": [
        {"hero": "ciri", "fighters": {"Ciri": {"space": "M25", "health": 9}, "Ihuarraquax": {"space": "M24", "health": 7}},
         "hand": ["Unicorn Ally", "Blink", "Parry"], "deck": ["Zireael", "Blink", "Parry"]},
        {"hero": "medusa", "fighters": {"Medusa": {"space": "M01", "health": 16}}, "hand": ["Dash"],
         "deck": ["Dash", "Feint"]}]})
    st = sc.st.copy()
    action_due(st, 0)
    opts = np.zeros(L.ACTION_OPTS, np.int64)
    n = legal_actions(st, sc.match.tables, 0, opts)
    ally = sc.card(0, "Unicorn Ally")
    j = [i for i in range(n) if unpack_action(int(opts[i]))[0] == L.A_SCHEME and unpack_action(int(opts[i]))[3] == ally]
    assert len(j) == 2   # (either fighter may play it)
    got = {}
    for name, prof in (("standard", "standard"), ("nokeep", load_profile(f))):
        ctl = _control((prof, prof))
        scores = np.zeros(n)
        ai_scores(st.copy(), sc.match.tables, ctl, 0, 0, opts[:n].copy(), n, scores)
        got[name] = (scores[j[0]], keep_worth(sc.match.tables, ctl, 0, ally))
    assert got["nokeep"][1] == 0.0 and got["standard"][1] > 0.3
    assert got["standard"][0] == pytest.approx(got["nokeep"][0] - got["standard"][1])
