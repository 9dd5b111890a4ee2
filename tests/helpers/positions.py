"""Mid-game positions for tests of the AI: states between two actions, reached by random turns."""
import numpy as np

from sim.engine import layout as L
from sim.engine.game import setup_game
from sim.engine.policy import new_control
from sim.engine.rules import take_turn
from sim.play.match import Match


def midgame_states(heroes, bf, n_states, seed, first_seed=1000, turns=(2, 12)):
    """(match, states): up to ``n_states`` int64 states of ``Match(heroes, bf)`` at the start of
    an action (one action left), each after ``turns[0]..turns[1]-1`` random turns from the game
    seeded ``first_seed + k``; games that ended are left out."""
    m = Match(heroes, bf)
    rng = np.random.default_rng(seed)
    out = []
    for g in range(n_states):
        st = m.new_state()
        log = np.zeros((0, L.EV_FIELDS), np.int64)
        ctl = new_control()
        setup_game(st, m.tables, ctl, log, m.rows, 2, first_seed + g)
        for _ in range(int(rng.integers(*turns))):
            take_turn(st, m.tables, ctl, log)
            if st[L.G_OVER]:
                break
        if not st[L.G_OVER]:
            st[L.G_ACTIONS] = 1
            st[L.G_ACTION_NO] = 1
            out.append(st)
    return m, out
