"""The standard AI prices a card discarded for value (``discard_for_value``: Dracula's
Beastform, +1 a card) by the step's amount, not by the card's BOOST."""
import numpy as np

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
