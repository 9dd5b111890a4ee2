"""Where the standard AI's action choice and the expert's differ, for one hero.

    python tests/bench/disagree.py HERO [STATES] [OPPONENTS]

Builds ``STATES`` positions (default 200): HERO against each opponent in turn (OPPONENTS,
comma-separated; default every installed hero), the battlefields in turn, seats swapped,
each after 1-15 turns of ``standard`` self-play (seeds 9000, 9001, ...), with HERO to act
(one or two actions left). At each it asks the standard AI's action (``decide``) and the
expert's (``search.search_action``, the expert profile's budget) and prints how often they
agree and the commonest disagreements by action kind and card ("attack Regroup -> maneuver":
standard attacked with Regroup where search maneuvered). Issue 32 used it to find the
misprices of Pure Evil and Claws That Catch; issue 34 reads it as how far the fast policy is
from search. Not a test: a measurement for the issues' notes (about a second per position).
"""
from __future__ import annotations

import collections
import sys


def disagreements(hero: str, n_states: int = 200, opponents=None):
    """(decisions compared, agreements, Counter of (standard's, expert's) action labels)."""
    import numpy as np
    from sim.content.battlefields import list_battlefields
    from sim.content.heroes import hero_files
    from sim.engine import layout as L
    from sim.engine.control import CTL_SIZE
    from sim.engine.game import setup_game
    from sim.engine.policy import decide
    from sim.engine.rules import action_due, legal_actions, take_turn, unpack_action
    from sim.engine.search import search_action
    from sim.play.match import Match, _control

    opponents = list(opponents or [f.stem for f in hero_files()])
    bfs = list_battlefields()
    rng = np.random.default_rng(7)
    kinds = {L.A_MANEUVER: "maneuver", L.A_SCHEME: "scheme", L.A_ATTACK: "attack"}
    wst, w2 = np.zeros(L.STATE_SIZE, np.int64), np.zeros(L.STATE_SIZE, np.int64)
    wctl, nolog = np.zeros(CTL_SIZE, np.int64), np.zeros((0, 6), np.int64)
    total = agree = 0
    pairs: collections.Counter = collections.Counter()
    for k in range(n_states):
        opp, bf, seat = opponents[k % len(opponents)], bfs[(k // len(opponents)) % len(bfs)], k % 2
        m = Match([hero, opp] if seat == 0 else [opp, hero], bf)
        st, log = m.new_state(), np.zeros((0, L.EV_FIELDS), np.int64)
        ctl = _control(("standard", "standard"))
        setup_game(st, m.tables, ctl, log, m.rows, 2, 9000 + k)
        for _ in range(int(rng.integers(1, 16))):
            take_turn(st, m.tables, ctl, log)
            if st[L.G_OVER]:
                break
        if not st[L.G_OVER] and st[L.G_ACTIVE] != seat:
            take_turn(st, m.tables, ctl, log)
        if st[L.G_OVER] or st[L.G_ACTIVE] != seat:
            continue
        two = rng.random() < 0.5
        st[L.G_ACTIONS], st[L.G_ACTION_NO] = (2, 1) if two else (1, 2)
        action_due(st, seat)
        opts = np.zeros(L.ACTION_OPTS, np.int64)
        n = legal_actions(st, m.tables, seat, opts)
        if n < 2:
            continue
        label = []
        for a in (int(opts[decide(st.copy(), m.tables, _control(("standard", "standard")), L.D_ACTION, seat, opts, n)]),
                  int(opts[search_action(st.copy(), m.tables, _control(("expert", "expert")), seat, opts, n,
                                         wst, w2, wctl, nolog)])):
            kind, _g, _t, card = unpack_action(a)
            label.append(kinds[kind] + ("" if card < 0 else " " + m.content.card_names[card]))
        total += 1
        agree += label[0] == label[1]
        if label[0] != label[1]:
            pairs[tuple(label)] += 1
    return total, agree, pairs


if __name__ == "__main__":
    hero = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    opps = sys.argv[3].split(",") if len(sys.argv) > 3 else None
    total, agree, pairs = disagreements(hero, n, opps)
    print(f"{hero}: {total} action decisions, standard = expert in {agree / max(total, 1):.2f}")
    for (a, b), c in pairs.most_common(15):
        print(f"  {c:4d}  {a}  ->  {b}")
