"""Time the scripted AI decision by decision, by kind, and A/B two AI modes on the same decisions.

    python tests/bench/ai_decisions.py capture OUT.npz [GAMES_PER_PAIR]   # plain Python, ~1 min per game per pair
    python tests/bench/ai_decisions.py time OUT.npz [MODE_A [MODE_B]]     # compiled; modes as codes.MODE_* numbers

``capture`` plays the bench mix (one game per ordered hero pair by default) with the
standard AI as plain Python (``NUMBA_DISABLE_JIT=1`` is set for it) and records the inputs
of every AI decision: the state, the part of the control array a decision may read
(``ctl[CTL_CTX_OP:CTL_SCRATCH]``; the rest is the match's template), the kind, the player,
the options. ``time`` replays each decision through the compiled ``ai_decide`` (ten times,
the inputs restored before each call, minus the same loop without the call; CPU time of
this process, so a busy machine slows it less) and prints
microseconds per game by decision kind; with two modes it times both on every decision, in
turn (A then B, then B then A), so the machine's drift cancels. The replay includes the
call's own overhead (about 0.2 us a decision, the unscored kinds show it). Not a test.

Session 7 measured (standard, 121 games): about 190 us of AI per game, of which action
decisions 120 (the maneuver plan about 40 of them), move destinations 27, BOOST for a
maneuver 14, defense 12; a bench duel took 250 us.
"""
from __future__ import annotations

import os
import sys
import time


def capture(out: str, per_pair: int = 1) -> None:
    os.environ["NUMBA_DISABLE_JIT"] = "1"
    import numpy as np
    import sim.engine.policy as P
    from sim.engine.control import CTL_CTX_OP, CTL_SCRATCH
    from sim.runs import bench

    orig = P.ai_decide
    rows = []

    def record(st, tb, ctl, kind, p, opts, n):
        rows.append((st.copy(), ctl[CTL_CTX_OP:CTL_SCRATCH].copy(), kind, p, opts[:n].copy()))
        return orig(st, tb, ctl, kind, p, opts, n)

    P.ai_decide = record
    prof = bench.get_profile("standard")
    mids = []
    for k, m in enumerate(bench._matches(())):
        a = len(rows)
        m.play_many(per_pair, bench.BENCH_SEED, k, 0, modes=(prof, prof))
        mids += [k] * (len(rows) - a)
    nmax = max(len(r[4]) for r in rows)
    opts = np.zeros((len(rows), nmax), np.int64)
    for i, r in enumerate(rows):
        opts[i, :len(r[4])] = r[4]
    np.savez_compressed(out, st=np.stack([r[0] for r in rows]), ctx=np.stack([r[1] for r in rows]),
                        kind=np.array([r[2] for r in rows]), player=np.array([r[3] for r in rows]),
                        n=np.array([len(r[4]) for r in rows]), opts=opts, match=np.array(mids),
                        games=np.array([len(bench._matches(())) * per_pair]))
    print(f"{len(rows)} decisions of {len(bench._matches(())) * per_pair} games -> {out}")


def replay(path: str, modes: list[int]) -> None:
    import numpy as np
    from numba import njit
    from sim.engine import codes
    from sim.engine.ai.decide import ai_decide
    from sim.engine.control import CTL_CTX_OP, CTL_MODE0, CTL_SCRATCH, CTL_SIZE
    from sim.play.match import _control
    from sim.runs import bench

    d = np.load(path)
    st_all, ctx, kind, pl, nn, opts, mid = (d[k] for k in ("st", "ctx", "kind", "player", "n", "opts", "match"))
    games = int(d["games"][0])
    ms = bench._matches(())
    template = _control((bench.get_profile("standard"),) * 2)

    @njit
    def drive(tb, st, st2, ctl, head, mode, kind, p, opts, n, reps, call):
        tot = 0
        for _ in range(reps):
            st2[:] = st
            ctl[CTL_CTX_OP:CTL_SCRATCH] = head
            ctl[CTL_MODE0] = mode
            ctl[CTL_MODE0 + 1] = mode
            if call:
                tot += ai_decide(st2, tb, ctl, kind, p, opts, n)
        return tot

    reps = 10
    ctl = np.zeros(CTL_SIZE, np.int64)
    ctl[:CTL_SCRATCH] = template[:CTL_SCRATCH]
    st2 = np.zeros(st_all.shape[1], np.int64)
    for call in (True, False):
        drive(ms[0].tables, st_all[0], st2, ctl, ctx[0], modes[0], kind[0], pl[0], opts[0].copy(), nn[0], 1, call)
    tot = {m: np.zeros(len(kind)) for m in modes}
    for sweep in range(2):
        for i in range(len(kind)):
            tb, o = ms[mid[i]].tables, opts[i].copy()
            for mode in (modes if sweep == 0 else modes[::-1]):
                t0 = time.process_time_ns()
                drive(tb, st_all[i], st2, ctl, ctx[i], mode, kind[i], pl[i], o, nn[i], reps, True)
                t1 = time.process_time_ns()
                drive(tb, st_all[i], st2, ctl, ctx[i], mode, kind[i], pl[i], o, nn[i], reps, False)
                tot[mode][i] += ((t1 - t0) - (time.process_time_ns() - t1)) / reps / 2
    names = {getattr(codes, k): k for k in dir(codes) if k.startswith("D_")}
    print(f"{len(kind)} decisions of {games} games; us of AI per game by decision kind")
    print("kind".ljust(20) + "".join(f"mode {m}".rjust(12) for m in modes))
    for k in sorted(set(kind.tolist())):
        sel = kind == k
        print(names.get(k, str(k)).ljust(20) + "".join(f"{tot[m][sel].sum() / 1e3 / games:12.1f}" for m in modes))
    print("total".ljust(20) + "".join(f"{tot[m].sum() / 1e3 / games:12.1f}" for m in modes))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "capture":
        capture(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    elif len(sys.argv) >= 3 and sys.argv[1] == "time":
        replay(sys.argv[2], [int(x) for x in sys.argv[3:]] or [3])
    else:
        sys.exit(__doc__)
