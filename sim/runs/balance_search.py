"""The search of ``unmatched-sim balance``: baseline, screen, curves, proposals, verification
(:class:`BalanceSearch`; the folder, the settings and the games are ``sim.runs.balance``, the
statistics ``sim.runs.balance_stats``).

Every decision is taken from stored games only, in a fixed order, so a resumed search
reads the blocks stored before the interruption, takes the same decisions and plays only
the blocks that are missing."""
from __future__ import annotations

import math

import numpy as np

from sim.runs import balance_plan as B
from sim.runs import balance_stats as S


class BalanceSearch:
    """One balance search over a resolved run (``sim.runs.balance.Resolved``) in folder
    ``out``. Set ``pool`` (``sim.runs.backend.Pool``) before :meth:`run`. ``progress(done,
    total, info)`` after every finished block (games). ``played``: games played by this
    process (not read from the folder)."""

    def __init__(self, r: B.Resolved, out, progress=None):
        self.r, self.out, self.progress = r, out, progress
        self.s = r.settings
        self.slots = r.slots
        self.bs, self.G = r.block_size, r.block_total
        self.shape = (len(self.slots), self.bs)
        self.budget_blocks = self.s.budget // self.G
        self.cache: dict = {}
        self.played = 0
        self.pool = None
        self.run_seed = B.search_seed(self.s.seed)
        self.expect = self.s.budget + self._verify_games()
        self.verify_done = 0
        self.base_blocks = max(1, min(2 * B.LOOKS[-1], self.budget_blocks // 10))
        self._variants: dict = {}
        self.notes: list[str] = []     # what the search left out and why (the summary prints them)

    # ---------------------------------------------------------------- games
    def _verify_games(self) -> int:
        per = sum(c.games for cells in self.r.verify_cells().values() for c in cells)
        return per * (1 + self.s.proposals) * (2 if self.r.check_profile is not None else 1)

    def _variant(self, setting: dict) -> str:
        sid = B.setting_id(setting)
        if sid not in self._variants:
            self._variants[sid] = B.variant_for(self.r, setting).to_json() if setting else ""
        return self._variants[sid]

    def _tick(self, info: str) -> None:
        if self.progress:
            done = len(self.cache) * self.G + self.verify_done
            self.progress(done, max(self.expect, done), info)

    def _missing(self, requests) -> list:
        """(sid, setting, k) of the blocks ``requests`` ([(setting, blocks)]) need that are
        neither loaded nor stored (stored ones are loaded)."""
        need, seen = [], set()
        for setting, m in requests:
            sid = B.setting_id(setting)
            for k in range(m):
                if (sid, k) in self.cache or (sid, k) in seen:
                    continue
                a = B.stored_block(self.out, sid, k, self.shape)
                if a is not None:
                    self.cache[(sid, k)] = a
                    continue
                seen.add((sid, k))
                need.append((sid, setting, k))
        return need

    def _with_base(self, requests) -> list:
        m = max([self.base_blocks] + [m for _, m in requests])
        return [({}, m)] + list(requests)

    def cost(self, requests) -> int:
        """Blocks ``requests`` would add to the search (the baseline's extension included)."""
        need, seen = 0, set()
        for setting, m in self._with_base(requests):
            sid = B.setting_id(setting)
            for k in range(m):
                if (sid, k) not in self.cache and (sid, k) not in seen:
                    seen.add((sid, k))
                    need += 1
        return need

    def play(self, requests, info: str) -> None:
        """Play every block ``requests`` ([(setting, blocks)]) and the baseline need."""
        need = self._missing(self._with_base(requests))
        self._tick(info)
        tasks = [((sid, k), self.s.hero, self.slots, self._variant(setting), self.r.profile, self.run_seed,
                  k * self.bs, self.bs, self.s.extra) for sid, setting, k in need]
        settings = {sid: setting for sid, setting, _ in need}
        for (sid, k), arr in self.pool.imap_unordered(B.play_block, tasks):
            B.save_block(self.out, sid, k, arr, settings[sid])
            self.cache[(sid, k)] = arr
            self.played += arr.size
            self._tick(info)

    def blocks(self, setting: dict) -> int:
        """Blocks of ``setting`` loaded, counted from block 0 without a gap."""
        sid, m = B.setting_id(setting), 0
        while (sid, m) in self.cache:
            m += 1
        return m

    def scores(self, setting: dict, m: int) -> np.ndarray:
        """The hero's per-game scores (float64, (m * block games,): 1, 0.5, 0) in the first
        ``m`` blocks of ``setting``, in the order every setting shares."""
        sid = B.setting_id(setting)
        return np.concatenate([self.cache[(sid, k)].ravel() for k in range(m)]).astype(float) / 2

    def estimate(self, setting: dict) -> S.Paired:
        """:func:`sim.runs.balance_stats.paired` of ``setting`` on all its loaded blocks."""
        m = self.blocks(setting)
        return S.paired(self.scores(setting, m), self.scores({}, m), self.scores({}, self.blocks({})))

    @property
    def used(self) -> int:
        return len(self.cache)

    # ---------------------------------------------------------------- stages
    def ends(self, k) -> list[int]:
        return [v for v in (k.levels[0], k.levels[-1]) if v != k.base]

    def screen(self) -> tuple[dict, list]:
        """The screen: knob name -> {status, p, p_holm, looks}, and one history row per look."""
        knobs = self.r.knobs
        active = list(knobs)
        status: dict = {}
        history = []
        last_p: dict = {}
        for i, m in enumerate(B.LOOKS):
            req = [({k: v}, m) for k in active for v in self.ends(knobs[k])]
            cap = self.budget_blocks // 2 - self.used
            halved = []
            while i and self.cost(req) > cap and len(active) > 1:
                keep = sorted(active, key=lambda k: last_p[k])[: math.ceil(len(active) / 2)]
                halved += [k for k in active if k not in keep]
                active = [k for k in active if k in keep]
                req = [({k: v}, m) for k in active for v in self.ends(knobs[k])]
            for k in halved:
                status[k] = {"status": "dropped (budget)", "p": last_p[k], "p_holm": None, "looks": i}
            if i and self.cost(req) > cap:
                for k in active:
                    status[k] = {"status": "dropped (budget)", "p": last_p[k], "p_holm": None, "looks": i}
                active = []
                break
            self.play(req, f"screen {i + 1}/{len(B.LOOKS)}: {len(active)} knobs")
            est = {k: [self.estimate({k: v}) for v in self.ends(knobs[k])] for k in active}
            last = i == len(B.LOOKS) - 1 or self.cost([({k: v}, B.LOOKS[i + 1]) for k in active
                                                      for v in self.ends(knobs[k])]) > self.budget_blocks - self.used
            dec = S.screen_look(est, i, len(B.LOOKS), min_effect=B.MIN_EFFECT, last=last)
            row = {"look": i + 1, "blocks": m, "games_per_end": m * self.G, "screened": len(active),
                   "dropped_budget": len(halved)}
            for k, (st, p, ph) in dec.items():
                last_p[k] = p
                row[st] = row.get(st, 0) + 1
                if st != "continue":
                    status[k] = {"status": st, "p": p, "p_holm": ph, "looks": i + 1}
            history.append(row)
            active = [k for k in active if dec[k][0] == "continue"]
            if not active or last:
                break
        for k in active:
            status[k] = {"status": "not detectable", "p": last_p.get(k), "p_holm": None, "looks": len(history)}
        return status, history

    def curves(self, status: dict) -> tuple[list, int]:
        """Play the curves of the knobs with an effect; returns (their names, strongest
        first; blocks per level)."""
        knobs = self.r.knobs
        chosen = sorted((k for k, v in status.items() if v["status"] == "effect"), key=lambda k: status[k]["p"])
        while chosen:
            rest = self.budget_blocks - self.used
            room = int(B.CURVE_SHARE * rest)
            for m in range(B.CURVE_MAX_BLOCKS, 0, -1):
                req = [({k: v}, m) for k in chosen for v in knobs[k].levels if v != knobs[k].base]
                if self.cost(req) <= room:
                    self.expect = (self.used + self.cost(req) + rest - room) * self.G + self._verify_games()
                    self.play(req, f"curves: {len(chosen)} knobs")
                    return chosen, m
            status[chosen[-1]]["status"] = "effect (no budget for its curve)"
            chosen = chosen[:-1]
        return [], 0

    def refine(self, curves: dict) -> int:
        """Play more games of the levels that may reach the target (their score interval meets
        the target's band) and have fewer than ``CURVE_MAX_BLOCKS`` blocks, smallest edits
        first, at most two per knob and ``2 * proposals`` knobs, up to ``CURVE_MAX_BLOCKS``
        each, in ``REFINE_SHARE`` of the budget left (one round; the search runs up to
        ``REFINE_ROUNDS``). Returns the number of levels played more."""
        s, knobs = self.s, self.r.knobs
        lo, hi = s.target - s.tolerance, s.target + s.tolerance
        per_knob = {}
        for name, pts in curves.items():
            k = knobs[name]
            near = [v for v, e in pts.items() if e.score_lo <= hi and e.score_hi >= lo
                    and self.blocks({name: v}) < B.CURVE_MAX_BLOCKS]
            near.sort(key=lambda v: (k.steps(v), abs(pts[v].score - s.target)))
            if near:
                per_knob[name] = (S.edit_key(1, k.designs, k.steps(near[0]), pts[near[0]].score - s.target), near[:2])
        order = sorted(per_knob, key=lambda n: per_knob[n][0])[: 2 * s.proposals]
        levels = [({n: v}) for n in order for v in per_knob[n][1]]
        if not levels:
            return 0
        room = int(B.REFINE_SHARE * (self.budget_blocks - self.used))
        for m in range(B.CURVE_MAX_BLOCKS, 0, -1):
            req = [(st, m) for st in levels]
            if self.cost(req) <= room:
                if not self.cost(req):
                    return 0
                self.play(req, f"refine: {len(levels)} levels")
                return len(levels)
        return 0

    def extend(self, names: list, curves: dict, m: int) -> int:
        """Extend toward the target the range of each knob with a curve that does not reach the
        target's band but heads to it (its end nearer the target is nearer than the hero
        file's value): its values beyond that end up to ``Knob.reach`` (twice the range), on
        ``m`` blocks each (fewer, or fewer knobs, strongest first, to fit in ``EXTEND_SHARE``
        of the budget left). Returns the number of values played."""
        s, knobs = self.s, self.r.knobs
        base = self.estimate_base()["score"]
        todo = []
        for name in names:
            k = knobs[name]
            sc = {v: e.score for v, e in curves[name].items()}
            sc[k.base] = base
            if any(abs(x - s.target) <= s.tolerance for v, x in sc.items() if v != k.base):
                continue
            lo_end, hi_end = k.levels[0], k.levels[-1]
            end = min((lo_end, hi_end), key=lambda v: abs(sc[v] - s.target))
            if abs(sc[end] - s.target) >= abs(base - s.target):
                continue
            beyond = [v for v in k.reach if (v < lo_end if end == lo_end else v > hi_end)]
            if beyond:
                todo.append([{name: v} for v in beyond])
        room = int(B.EXTEND_SHARE * (self.budget_blocks - self.used))
        left: list[str] = []          # knobs dropped from the extension, weakest first
        played = 0
        while todo and not played:
            flat = [st for group in todo for st in group]
            for mm in range(max(1, m), 0, -1):
                req = [(st, mm) for st in flat]
                if self.cost(req) <= room:
                    if self.cost(req):
                        self.play(req, f"extend: {len(todo)} knobs")
                    played = len(flat)
                    break
            else:
                left.append(next(iter(todo[-1][0])))
                todo = todo[:-1]
        if left:
            self.notes.append(f"not extended toward the target for want of budget: {', '.join(reversed(left))} "
                              "(a larger --budget extends them)")
        return played

    def curve_points(self, names) -> dict:
        """Knob name -> {value: :class:`sim.runs.balance_stats.Paired`} of every value played
        but the hero file's (its range, and the values it was extended to)."""
        knobs = self.r.knobs
        return {k: {v: self.estimate({k: v}) for v in knobs[k].reach if v != knobs[k].base and self.blocks({k: v})}
                for k in names}

    def pairs(self, curves: dict, singles: list, need: int, m: int) -> list[dict]:
        """Up to ``need`` pair proposals: the best additive candidates, played in the search."""
        base = self.estimate_base()
        cands = S.pair_candidates(curves, self.r.knobs, base["score"], self.s.target, self.s.tolerance,
                                  exclude={n for p in singles for n in p["setting"]}, limit=2 * need)
        room = self.budget_blocks - self.used
        m = min(m, room // max(1, len(cands))) if cands else 0
        if not cands:
            self.notes.append("pairs: no two knobs' curves add up to the target")
        elif m < 1:
            self.notes.append(f"pairs: {len(cands)} predicted by adding their curves, not played (no budget left; "
                              "the verification plays them)")
        out = []
        if m >= 1:
            self.play([(c["setting"], m) for c in cands], f"pairs: {len(cands)}")
        for c in cands:
            if m >= 1:
                e = self.estimate(c["setting"])
                how = "pair games"
            else:
                e = self._additive(curves, c["setting"])
                how = "additive (no budget to play it)"
            if abs(e.score - self.s.target) <= self.s.tolerance:
                ks = [self.r.knobs[n] for n in c["setting"]]
                key = S.edit_key(2, sum(k.designs for k in ks), sum(k.steps(c["setting"][k.name]) for k in ks),
                                 e.score - self.s.target)
                out.append({"setting": c["setting"], "predicted": e, "key": key, "predicted_from": how})
        return sorted(out, key=lambda d: d["key"])[:need]

    def _additive(self, curves, setting) -> S.Paired:
        es = [curves[k][v] for k, v in setting.items()]
        base = self.estimate_base()
        change = sum(e.change for e in es)
        se = math.sqrt(sum(e.se ** 2 for e in es))
        sc = base["score"] + change
        s_se = math.sqrt(se ** 2 + base["se"] ** 2)
        return S.Paired(min(e.games for e in es), change, se, change - 1.96 * se, change + 1.96 * se, float("nan"),
                        sc, max(0.0, sc - 1.96 * s_se), min(1.0, sc + 1.96 * s_se))

    def estimate_base(self) -> dict:
        x = self.scores({}, self.blocks({}))
        mean, lo, hi = S.wilson(x)
        return {"games": len(x), "score": mean, "lo": lo, "hi": hi, "se": float(x.std(ddof=1) / math.sqrt(len(x)))
                if len(x) > 1 else 0.0}

    # ---------------------------------------------------------------- verification
    def verify(self, proposals: list, tag: str, profile) -> dict:
        """Play the baseline and every proposal on the verification's cells and seed under
        ``profile``; returns setting id (``base`` for the hero as it is) -> the hero's per-game
        scores (float64, the same games in the same order for every setting)."""
        cells = self.r.verify_cells()
        vseed = B.verify_seed(self.s.seed)
        settings = [{}] + [p["setting"] for p in proposals]
        got, tasks = {}, []
        for setting in settings:
            sid = B.setting_id(setting)
            for o, cs in cells.items():
                n = sum(c.games for c in cs)
                a = B.stored_verify(self.out, tag, sid, o, n)
                if a is not None:
                    got[(sid, o)] = a
                    self.verify_done += n
                else:
                    tasks.append(((sid, o), self.s.hero, cs, self._variant(setting), profile, vseed, self.s.extra))
        self._tick(f"verify ({tag})")
        for (sid, o), arr in self.pool.imap_unordered(B.play_verify, tasks):
            B.save_verify(self.out, tag, sid, o, arr)
            got[(sid, o)] = arr
            self.played += arr.size
            self.verify_done += arr.size
            self._tick(f"verify ({tag})")
        return {B.setting_id(st): np.concatenate([got[(B.setting_id(st), o)] for o in cells]).astype(float) / 2
                for st in settings}

    def _verified(self, x: np.ndarray, base: np.ndarray) -> dict:
        mean, lo, hi = S.wilson(x)
        e = S.paired(x, base)
        return {"games": len(x), "score": mean, "lo": lo, "hi": hi, "change": e.change, "change_lo": e.lo,
                "change_hi": e.hi, "p": e.p, "reaches": bool(abs(mean - self.s.target) <= self.s.tolerance)}

    # ---------------------------------------------------------------- the run
    def run(self) -> dict:
        """The whole search; returns the result dict (module ``sim.runs.balance``)."""
        r, s = self.r, self.s
        self.play([], "baseline")
        status, history = self.screen()
        names, m_c = self.curves(status)
        curves = self.curve_points(names)
        if self.extend(names, curves, m_c):
            curves = self.curve_points(names)
        for _ in range(B.REFINE_ROUNDS):
            if not self.refine(curves):
                break
            curves = self.curve_points(names)
        base = self.estimate_base()
        singles = S.single_proposals(curves, r.knobs, s.target, s.tolerance)
        for p in singles:
            p["predicted_from"] = "curve"
        chosen = singles[: s.proposals]
        if len(chosen) < s.proposals and len(curves) >= 2:
            chosen += self.pairs(curves, singles, s.proposals - len(chosen), max(1, m_c))
        elif len(chosen) < s.proposals:
            self.notes.append(f"pairs: not tried, {len(curves)} knob(s) with a curve (a pair needs two)")
        self.expect = self.used * self.G + self._verify_games()
        base = self.estimate_base()            # (pairs never extend the baseline; read again all the same)
        curves = self.curve_points(names)
        props = []
        for i, p in enumerate(chosen, 1):
            ks = [r.knobs[n] for n in p["setting"]]
            label = "; ".join(k.label(p["setting"][k.name], r.names[s.hero]) for k in ks)
            prop = {"rank": i, "kind": "single" if len(ks) == 1 else "pair", "setting": p["setting"],
                    "label": label, "designs": sum(k.designs for k in ks),
                    "steps": sum(k.steps(p["setting"][k.name]) for k in ks),
                    "predicted": p["predicted"].to_dict(), "predicted_from": p["predicted_from"]}
            prop["file"] = str(B.write_proposal(r, self.out, i, prop, self._comments(prop)))
            props.append(prop)
        verification = {}
        for tag, prof in (("ai", r.profile), ("check", r.check_profile)):
            if prof is None or not props:       # nothing to verify: no games spent on the baseline alone
                continue
            xs = self.verify(props, tag, prof)
            b = xs["base"]
            mean, lo, hi = S.wilson(b)
            verification[tag] = {"profile": prof.name, "baseline": {"games": len(b), "score": mean, "lo": lo, "hi": hi}}
            for p in props:
                p["verified" if tag == "ai" else "check"] = self._verified(xs[B.setting_id(p["setting"])], b)
        for p in props:
            p["robust"] = bool(p["verified"]["reaches"] and (p.get("check") or {"reaches": True})["reaches"])
            p["command"] = self._command(p)
            B.write_proposal(r, self.out, p["rank"], p, self._comments(p))
        return self._result(status, history, curves, names, m_c, base, props, verification, len(singles))

    def _comments(self, p: dict) -> list[str]:
        s, r = self.s, self.r
        e = p["predicted"]
        where = f"against {r.names[s.field[0]]}" if len(r.field) == 1 else f"against the field ({len(r.field)} heroes)"
        lines = [f"written by `unmatched-sim balance {s.hero}` (target {s.target:.1%} +- {100 * s.tolerance:g} points {where}, "
                 f"AI {r.profile.name})",
                 f"predicted {e['score']:.1%} [{e['score_lo']:.1%}, {e['score_hi']:.1%}] ({p['predicted_from']}, "
                 f"{e['games']} paired games)"]
        if "verified" in p:
            v = p["verified"]
            lines.append(f"verified {v['score']:.1%} [{v['lo']:.1%}, {v['hi']:.1%}] on {v['games']} fresh paired games: "
                         + ("reaches the target" if v["reaches"] else "misses the target"))
            if p.get("check"):
                c = p["check"]
                lines.append(f"under {r.check_profile.name}: {c['score']:.1%} [{c['lo']:.1%}, {c['hi']:.1%}]: "
                             + ("reaches the target" if c["reaches"] else "misses the target (AI-sensitive)"))
            lines.append(f"replay the verification: {p['command']}")
        return lines

    def _command(self, p: dict) -> str:
        s, r = self.s, self.r
        opps = []
        for o, los in sorted(r.field.items()):
            opps += [o] if los == list(r.specs[o].loadouts()) else [f"{o}@{lo}" for lo in los]
        home = "".join(f" --homebrew {x}" for x in s.extra)
        return (f"unmatched-sim{home} compare --variant {p['file']} --hero {s.hero} --games "
                f"{r.verify_per_opponent()} --opponents {','.join(opps)} -b {','.join(r.battlefields)} "
                f"--ai {s.ai} --seed {B.verify_seed(s.seed)}")

    def _result(self, status, history, curves, names, m_c, base, props, verification, n_singles) -> dict:
        r, s = self.r, self.s
        knobs = []
        for name, k in r.knobs.items():
            st = status.get(name, {"status": "not screened", "p": None, "p_holm": None, "looks": 0})
            ends = [dict(self.estimate({name: v}).to_dict(), level=v) for v in self.ends(k)
                    if self.blocks({name: v})]
            played = [v for v in k.reach if self.blocks({name: v}) or v == k.base]
            knobs.append({"name": name, "kind": k.kind, "part": k.part, "field": k.field, "partner": k.partner,
                          "base": k.base, "levels": list(k.levels), "reach": list(k.reach),
                          "extended": [v for v in played if v not in k.levels], "designs": k.designs, **st,
                          "ends": ends})
        curve_rows = {}
        for name in names:
            k = r.knobs[name]
            pts = [{"level": k.base, "games": base["games"], "change": 0.0, "lo": 0.0, "hi": 0.0,
                    "score": base["score"], "score_lo": base["lo"], "score_hi": base["hi"], "p": 1.0, "se": 0.0}]
            pts += [dict(e.to_dict(), level=v) for v, e in curves[name].items()]
            curve_rows[name] = sorted(pts, key=lambda d: d["level"])
        search_games = self.used * self.G
        verify_games = sum(v["baseline"]["games"] * (1 + len(props)) for v in verification.values())
        return {
            "format": B.FORMAT, "hero": s.hero, "settings": s.to_dict(), "names": {k: r.names[k] for k in
                                                                                   [s.hero, *sorted(r.field)]},
            "ai": r.profile.name, "check_ai": r.check_profile.name if r.check_profile is not None else "",
            "slots": len(self.slots), "block_games": self.G, "search_seed": self.run_seed,
            "verify_seed": B.verify_seed(s.seed), "verify_per_opponent": r.verify_per_opponent(),
            "baseline": base, "knobs": knobs, "screen": history, "curves": curve_rows, "curve_blocks": m_c,
            "singles_reaching": n_singles, "proposals": props, "verification": verification, "notes": self.notes,
            "games": {"search": search_games, "verification": verify_games, "total": search_games + verify_games,
                      "budget": s.budget},
        }
