"""Benchmarks of the engine's hot steps: one action, one combat, one AI turn, one game.

Positions come from a seeded game (Medusa vs Sinbad on Marmoreal, the benchmarked
profile in both seats), taken at the first turn from the 6th on where the active player
can attack (or the last such turn of a shorter game).
The figures are printed at the end of the run; no test asserts a time.
"""
import numpy as np
import pytest

from bench import bench_harness as H
from bench.bench_harness import record
from sim.content.profiles import get_profile
from sim.engine import layout as L
from sim.engine.game import RES_FIELDS, play_games, setup_game
from sim.engine.rules import legal_actions, start_of_turn, take_turn, unpack_action
from sim.play.match import Match, _control

pytestmark = pytest.mark.bench

PROFILES = ("standard", "greedy", "random")


@pytest.fixture(scope="module")
def match():
    return Match(["medusa", "sinbad"], "marmoreal")


def position(m, profile):
    """(state, first, control, attack) at the start of the first turn >= 6 whose active player
    can attack (else the last such turn): ``state`` before the turn begins (for a whole turn),
    ``first`` after the start of the turn with the first of two actions under way (for one
    action or combat), ``attack`` the first legal attack (packed)."""
    ctl = _control((get_profile(profile),) * 2)
    st = np.zeros(L.STATE_SIZE, np.int64)
    log = np.zeros((0, L.EV_FIELDS), np.int64)
    setup_game(st, m.tables, ctl, log, m.rows, 2, 12345)
    opts = np.empty(1024, np.int64)
    found = None
    while st[L.G_OVER] == 0:
        p = int(st[L.G_ACTIVE])
        n = legal_actions(st, m.tables, p, opts)
        attacks = [int(a) for a in opts[:n] if unpack_action(int(a))[0] == L.A_ATTACK]
        if attacks and (found is None or found[0][L.G_TURN] < 6):
            first = st.copy()
            start_of_turn(first, m.tables, ctl.copy(), log, p)
            first[L.G_ACTIONS] = 1
            first[L.G_ACTION_NO] = 1
            found = (st.copy(), first, ctl.copy(), attacks[0])
            if st[L.G_TURN] >= 6:
                break
        take_turn(st, m.tables, ctl, log)
    assert found is not None, "no position with an attack in the game"
    return found


def test_restore_position(benchmark, match):
    st, _, ctl, _ = position(match, "random")
    reps = 20000
    benchmark.pedantic(H.copy_only, args=(st, ctl, reps), rounds=7, iterations=1, warmup_rounds=1)
    record("restore position (2 copies)", benchmark.stats.stats, reps)


@pytest.mark.parametrize("profile", PROFILES)
def test_one_action(benchmark, match, profile):
    _, st, ctl, _ = position(match, profile)
    log = np.zeros((0, L.EV_FIELDS), np.int64)
    reps = 2000
    over = H.one_action(st, match.tables, ctl, log, 1)
    assert over in (0, 1)
    benchmark.pedantic(H.one_action, args=(st, match.tables, ctl, log, reps), rounds=7, iterations=1,
                       warmup_rounds=1)
    record(f"one action ({profile})", benchmark.stats.stats, reps)


@pytest.mark.parametrize("profile", PROFILES)
def test_one_combat(benchmark, match, profile):
    _, st, ctl, attack = position(match, profile)
    kind, a, t, card = unpack_action(attack)
    assert kind == L.A_ATTACK
    p = int(st[L.G_ACTIVE])
    log = np.zeros((0, L.EV_FIELDS), np.int64)
    reps = 2000
    benchmark.pedantic(H.one_combat, args=(st, match.tables, ctl, log, reps, p, a, t, card), rounds=7,
                       iterations=1, warmup_rounds=1)
    record(f"one combat ({profile} defends)", benchmark.stats.stats, reps)


@pytest.mark.parametrize("profile", PROFILES)
def test_one_turn(benchmark, match, profile):
    st, _, ctl, _ = position(match, profile)
    log = np.zeros((0, L.EV_FIELDS), np.int64)
    reps = 1000
    benchmark.pedantic(H.one_turn, args=(st, match.tables, ctl, log, reps), rounds=7, iterations=1,
                       warmup_rounds=1)
    record(f"one turn ({profile})", benchmark.stats.stats, reps)


@pytest.mark.parametrize("profile", PROFILES)
def test_one_game(benchmark, match, profile):
    ctl = _control((get_profile(profile),) * 2)
    reps = 100
    res = np.zeros((reps, RES_FIELDS), np.int64)
    played = np.zeros((0, 2, L.MAX_HERO_CARDS), np.int64)
    spaces = np.zeros((2, L.MAX_SPACES), np.int64)
    benchmark.pedantic(play_games, args=(match.tables, ctl, match.rows, 1, 0, 0, reps, res, played, spaces),
                       rounds=5, iterations=1, warmup_rounds=1)
    assert (res[:, 1] > 0).all()
    record(f"one game ({profile})", benchmark.stats.stats, reps)
