"""How much of a standard-AI duel is the engine and how much the AI: the bench mix's
standard games played again with every choice scripted (no AI computation at all), against
the same games played by the standard AI.

    python tests/bench/engine_floor.py capture OUT.npz [GAMES_PER_PAIR]   # compiled, seconds
    python tests/bench/engine_floor.py time OUT.npz [REPEATS]             # compiled

``capture`` plays the bench mix (every ordered hero pair, battlefields in turn, seeds
``game_seed(BENCH_SEED, matchup, i)``) with the standard AI and records, per game, every
choice the AI made as a ``(domain, value)`` script entry (``policy.with_record``). ``time`` plays each game twice, compiled and in turn:
with the standard AI, and with both seats scripted (``MODE_SCRIPT``, no fallback), checks
that the two give the same result row, and prints CPU microseconds per duel of each: the
scripted figure is the engine's floor for exactly these games, what a standard AI that cost
nothing would reach. Games with more choices than a script holds (``MAX_SCRIPT``) are left
out of both figures (counted). Not a test.
"""
from __future__ import annotations

import sys
import time


def _games(per_pair: int):
    """``[(match, matchup index, seed)]`` of the bench mix."""
    from sim.engine.core import game_seed
    from sim.runs import bench
    out = []
    for k, m in enumerate(bench._matches(())):
        for i in range(per_pair):
            out.append((m, k, int(game_seed(bench.BENCH_SEED, k, i)) & 0xFFFFFFFF))
    return out


def capture(out: str, per_pair: int = 1) -> None:
    import numpy as np
    from sim.engine.codes import RES_FIELDS
    from sim.engine.game import play_duel
    from sim.engine.layout import EV_FIELDS
    from sim.engine.policy import recorded, with_record
    from sim.play.match import _control
    from sim.runs import bench

    prof = bench.get_profile("standard")
    log = np.zeros((0, EV_FIELDS), np.int64)
    rows, keys = [], []
    for m, k, seed in _games(per_pair):
        ctl = with_record(_control((prof, prof), heroes=m.keys), 4096)
        play_duel(m.new_state(), m.tables, ctl, log, m.rows, seed, np.zeros(RES_FIELDS, np.int64))
        rows.append(np.array(recorded(ctl), np.int64).reshape(-1, 2))
        keys.append((k, seed))
    lens = np.array([len(r) for r in rows])
    flat = np.concatenate(rows) if rows else np.zeros((0, 2), np.int64)
    np.savez(out, keys=np.array(keys, np.int64), lens=lens, script=flat, per_pair=per_pair)
    print(f"{len(rows)} games, {lens.sum()} choices (mean {lens.mean():.0f}, max {lens.max()}) -> {out}")


def time_games(path: str, repeats: int = 5) -> None:
    import numpy as np
    from sim.engine.codes import MODE_SCRIPT
    from sim.engine.control import MAX_SCRIPT
    from sim.engine.codes import RES_FIELDS
    from sim.engine.game import play_games
    from sim.engine.layout import MAX_HERO_CARDS, MAX_SPACES
    from sim.engine.policy import new_control
    from sim.play.match import _control
    from sim.runs import bench

    z = np.load(path)
    keys, lens, flat = z["keys"], z["lens"], z["script"]
    starts = np.concatenate([[0], np.cumsum(lens)])
    games = _games(int(z["per_pair"]))
    prof = bench.get_profile("standard")

    played = np.zeros((0, 2, MAX_HERO_CARDS), np.int64)
    spaces = np.zeros((2, MAX_SPACES), np.int64)
    one = np.zeros((1, RES_FIELDS), np.int64)

    def play(m, k, i, ctl):
        """One game through the engine's own loop (``play_games``: one call, as bench's)."""
        play_games(m.tables, ctl, m.rows, bench.BENCH_SEED, k, i, 1, one, played, spaces)
        return one[0].copy()

    jobs, skipped, bad = [], 0, 0
    per = int(z["per_pair"])
    for j, (m, k, seed) in enumerate(games):
        assert (keys[j] == (k, seed)).all(), "the capture is of another bench mix"
        if lens[j] > MAX_SCRIPT:
            skipped += 1
            continue
        sc = [tuple(x) for x in flat[starts[j]:starts[j + 1]]]
        ai_ctl = _control((prof, prof), heroes=m.keys)
        sc_ctl = new_control((MODE_SCRIPT,) * 4, sc, 0)
        i = j % per
        a, b = play(m, k, i, ai_ctl), play(m, k, i, sc_ctl)   # (play_games copies the template)
        if not (a == b).all():
            bad += 1
            continue
        jobs.append((m, k, i, ai_ctl, sc_ctl))
    t_ai = t_sc = 0.0
    for r in range(repeats):
        order = (0, 1) if r % 2 == 0 else (1, 0)   # in turn, so that the machine's drift cancels
        for which in order:
            t0 = time.process_time()
            for m, k, i, ai_ctl, sc_ctl in jobs:
                play(m, k, i, ai_ctl if which == 0 else sc_ctl)
            dt = time.process_time() - t0
            if which == 0:
                t_ai += dt
            else:
                t_sc += dt
    n = len(jobs) * repeats
    # the cost of one play_games call that plays no game (dispatch, work arrays), taken off both
    m0, _, _, ai0, _ = jobs[0]
    t0 = time.process_time()
    for _ in range(n):
        play_games(m0.tables, ai0, m0.rows, bench.BENCH_SEED, 0, 0, 0, one, played, spaces)
    call_us = 1e6 * (time.process_time() - t0) / n
    ai_us, sc_us = 1e6 * t_ai / n - call_us, 1e6 * t_sc / n - call_us
    print(f"{len(jobs)} standard-AI games of the bench mix ({skipped} left out: more than {MAX_SCRIPT} choices; "
          f"{bad} whose scripted replay differed), {repeats} repeats, CPU time:")
    print(f"  (a call of the engine's game loop costs {call_us:.1f} us here, taken off both figures)")
    print(f"  standard AI         {ai_us:7.1f} us per duel  ({1e6 / ai_us:,.0f} duels per CPU second)")
    print(f"  scripted, no AI     {sc_us:7.1f} us per duel  ({1e6 / sc_us:,.0f} duels per CPU second)  <- the engine's floor")
    print(f"  the AI's share      {ai_us - sc_us:7.1f} us per duel  ({(ai_us - sc_us) / ai_us:.0%})")


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "capture" and len(sys.argv) >= 3:
        capture(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    elif cmd == "time" and len(sys.argv) >= 3:
        time_games(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 5)
    else:
        print(__doc__)
        sys.exit(2)
