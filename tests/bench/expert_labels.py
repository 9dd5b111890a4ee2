"""How far the standard AI is from the expert's search, decision by decision (expert iteration's
labels: sim.runs.imitate).

    python tests/bench/expert_labels.py collect FOLDER [GAMES] [EVERY] [PROFILE] [--standard]
    python tests/bench/expert_labels.py report FOLDER [FOLDER ...] [--weights PROFILE.toml]
    python tests/bench/expert_labels.py pairs FOLDER HERO KIND

``collect``: every hero pair (mirrors too) on every battlefield, ``GAMES`` duels each (default
3) with ``PROFILE`` (default ``expert``) on both seats; every ``EVERY``-th searched decision (default
2) is kept with its position, one ``.npz`` file a cell (a cell already written is skipped, so
an interrupted run resumes). ``--standard``: the games go on with the standard AI's choices
(the positions the standard AI reaches, labelled by the search).

``report``: the standard AI's choices computed again on those positions (with the weights of
``--weights``, default the ``standard`` profile) against the search's values: by decision
kind and by hero, the search value it gives up a decision (regret, in the evaluation's
points) and how often it takes the search's choice (agreement). Seconds for 80,000
decisions: a change to the standard AI's scoring code or weights is measured offline, before
any game is played. ``pairs``: the commonest (standard's choice, search's choice) pairs of one
hero at one decision kind (``D_*`` number), with the search value gained each.

Not a test: a measurement for the issues' notes (issue 34 used it to find that a scheme cost
nothing to play and that "draw per damage taken" was counted at a fixed 1.5).
"""
from __future__ import annotations

import collections
import sys
from pathlib import Path


def _cells():
    from sim.content.battlefields import list_battlefields
    from sim.content.heroes import hero_files
    heroes = sorted(p.stem for p in hero_files())
    out = []
    for i, a in enumerate(heroes):
        for b in heroes[i:]:
            for bf in list_battlefields():
                out.append((a, b, bf, len(out)))
    return out


def _collect_cell(folder, a, b, bf, k, games, every, profile, standard):
    import numpy as np
    from sim.runs.imitate import collect
    f = Path(folder) / f"{a}__{b}__{bf}.npz"
    if f.exists():
        return 0
    recs = collect([a, b], bf, games, profile=profile, every=every, per_game=40, run_seed=11, matchup=k,
                   play_standard=standard)
    tmp = f.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, recs=recs)
    tmp.replace(f)
    return len(recs)


def collect_all(folder, games=3, every=2, profile="expert", standard=False, jobs=2):
    from joblib import Parallel, delayed
    Path(folder).mkdir(parents=True, exist_ok=True)
    n = Parallel(n_jobs=jobs)(delayed(_collect_cell)(folder, a, b, bf, k, games, every, profile, standard)
                              for a, b, bf, k in _cells())
    return sum(n)


def _records(folders):
    import numpy as np
    for d in folders:
        for f in sorted(Path(d).glob("*.npz")):
            if f.name.endswith(".tmp.npz"):
                continue
            a, b, bf = f.stem.split("__")
            recs = np.load(f)["recs"]
            if len(recs):
                yield a, b, bf, recs


def report(folders, weights_file=None):
    from sim.content.profiles import load_profile
    from sim.engine.ai import WEIGHT_NAMES
    from sim.play.match import Match
    from sim.runs.imitate import pick_values, picks, weight_vector
    over = dict(zip(WEIGHT_NAMES, load_profile(weights_file).weights)) if weights_file else None
    w = weight_vector("standard", over)
    kind = collections.defaultdict(lambda: [0, 0.0, 0])
    hero = collections.defaultdict(lambda: [0, 0.0, 0])
    for a, b, bf, recs in _records(folders):
        r, ag = pick_values(recs, picks(Match([a, b], bf), recs, w))
        for i in range(len(recs)):
            for t in (kind[int(recs[i, 0])], kind["all"], hero[a if recs[i, 1] == 0 else b]):
                t[0] += 1
                t[1] += r[i]
                t[2] += int(ag[i])
    for name, tab in (("decision kind", kind), ("hero", hero)):
        print(f"{name:16s} decisions  regret  agreement")
        for k, (n, s, g) in sorted(tab.items(), key=lambda x: -x[1][1]):
            print(f"{k!s:16s} {n:9d}  {s / n:6.3f}  {g / n:9.3f}")
    return kind, hero


def pairs(folders, hero_key, kind_no, top=15):
    from sim.engine.capture import REC_CAND, REC_MEAN
    from sim.play.match import Match
    c = collections.Counter()
    gain = collections.defaultdict(float)
    n = 0
    for a, b, bf, recs in _records(folders):
        if hero_key not in (a, b):
            continue
        names = Match([a, b], bf).content.card_names

        def label(v, names=names):
            if kind_no == 0:
                return ("maneuver", "scheme", "attack", "?")[v & 3] + ("" if v & 3 == 0 else " " + names[(v >> 12) - 1])
            if kind_no in (1, 2, 3, 4, 5, 6, 14, 19):
                return names[v] if v >= 0 else "none"
            return str(v)
        for r in recs[recs[:, 0] == kind_no]:
            if (a if r[1] == 0 else b) != hero_key:
                continue
            n += 1
            ch = int(r[5])
            if ch == 0:
                continue
            key = (label(int(r[REC_CAND])), label(int(r[REC_CAND + ch])))
            c[key] += 1
            m = r[REC_MEAN:REC_MEAN + r[3]] * 1e-6
            gain[key] += m[ch] - m[0]
    print(f"{hero_key}, decision kind {kind_no}: {n} decisions, the search took another choice in {sum(c.values())}")
    for k, v in c.most_common(top):
        print(f"  standard {k[0]!r} -> search {k[1]!r}: {v}, gain {gain[k] / v:.2f} a decision")


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    if args[0] == "collect":
        std = "--standard" in args
        rest = [x for x in args[1:] if x != "--standard"]
        print("records:", collect_all(rest[0], int(rest[1]) if len(rest) > 1 else 3,
                                      int(rest[2]) if len(rest) > 2 else 2, rest[3] if len(rest) > 3 else "expert", std))
    elif args[0] == "report":
        wf = args[args.index("--weights") + 1] if "--weights" in args else None
        report([x for x in args[1:] if x != "--weights" and x != wf], wf)
    elif args[0] == "pairs":
        pairs([args[1]], args[2], int(args[3]))
    else:
        sys.exit(__doc__)
