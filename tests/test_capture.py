"""Imitation records (sim.engine.capture, sim.runs.imitate): capturing the expert's searched
decisions changes no game, and the standard AI's scores computed again from a record give
the choice it made in the game."""
import numpy as np
import pytest

from sim.engine.capture import REC_CAND, REC_MEAN, REC_SIZE
from sim.engine.codes import D_ACTION, D_DEFENSE
from sim.engine.control import CTL_CAP, CTL_CAP_EVERY, CTL_CAP_MAX, CTL_CAP_N, CTL_SIZE
from sim.engine.core import game_seed
from sim.engine.game import RES_FIELDS, play_duel
from sim.engine import layout as L
from sim.play.match import Match, _control
from sim.runs.imitate import collect, pick_values, picks, weight_vector

HEROES = ["ciri", "dracula"]


def _play(m, seed, cap_records):
    ctl0 = _control(("expert", "expert"), heroes=m.keys)
    start = CTL_SIZE + 1
    ctl = np.zeros(start + cap_records * REC_SIZE, np.int64)
    ctl[:ctl0.shape[0]] = ctl0
    if cap_records:
        ctl[CTL_CAP] = start
        ctl[CTL_CAP_MAX] = cap_records
        ctl[CTL_CAP_EVERY] = 1
    st = m.new_state()
    log = np.zeros((50000, L.EV_FIELDS), np.int64)
    res = np.zeros(RES_FIELDS, np.int64)
    play_duel(st, m.tables, ctl, log, m.rows, seed, res)
    return res, log[:st[L.G_LOGN]].copy(), int(ctl[CTL_CAP_N])


def test_capturing_changes_no_game():
    m = Match(HEROES, "soho")
    seed = game_seed(3, 0, 0)
    res0, log0, n0 = _play(m, seed, 0)
    res1, log1, n1 = _play(m, seed, 400)
    assert n0 == 0 and n1 > 20
    assert np.array_equal(res0, res1)
    assert np.array_equal(log0, log1)


@pytest.fixture(scope="module")
def records():
    return collect(HEROES, "soho", 2, every=1, per_game=300, run_seed=5)


def test_rescoring_a_record_gives_the_standard_ai_choice(records):
    """Actions and defense cards are scored from the position the record keeps: the standard
    AI's first candidate, every time. Decisions inside an action (BOOSTs of maneuvers, move
    destinations) reuse the plan the standard AI made at the action's start, which the record
    does not keep: there the score is made again and differs now and then."""
    m = Match(HEROES, "soho")
    pk = picks(m, records, weight_vector("standard"))
    first = np.array([records[i, 8 + pk[i]] == records[i, REC_CAND] for i in range(len(records))])
    kinds = records[:, 0]
    outer = (kinds == D_ACTION) | (kinds == D_DEFENSE)
    assert outer.sum() >= 20
    assert first[outer].all()
    assert first.mean() >= 0.95
    regret, agree = pick_values(records, pk)
    assert (regret >= 0).all()
    # where the standard AI's first candidate is the expert's choice, nothing is given up
    same = records[:, 5] == 0
    assert (regret[same & first] == 0).all() and agree[same & first].all()
    # and where the expert took another candidate, its mean is the best of those it kept
    other = np.nonzero(~same & outer)[0]
    assert other.size > 0
    for i in other:
        nc = records[i, 3]
        means = records[i, REC_MEAN:REC_MEAN + nc]
        assert means[records[i, 5]] == means.max()


def test_other_weights_change_the_choices(records):
    m = Match(HEROES, "soho")
    pk0 = picks(m, records, weight_vector("standard"))
    pk1 = picks(m, records, weight_vector("standard", {"scheme": 5.0, "card": 0.0}))
    assert (pk0 != pk1).any()


def test_play_standard_goes_on_with_the_standard_choice():
    """With ``play_standard`` the game follows the standard AI's first candidate after each
    search: the games differ from the expert's, and records where the search preferred
    another candidate are still kept."""
    a = collect(HEROES, "soho", 1, every=1, per_game=300, run_seed=9)
    b = collect(HEROES, "soho", 1, every=1, per_game=300, run_seed=9, play_standard=True)
    assert (b[:, 5] != 0).any()
    n = min(len(a), len(b))
    assert len(a) != len(b) or not np.array_equal(a[:n, :8], b[:n, :8])
