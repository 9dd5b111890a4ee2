"""The soak run: the independent replay checker over every hero pair, battlefield and loadout,
with the random policy and with the standard AI, plus team games (issue 24).

:func:`soak` plays and checks the games and returns (and prints as it goes) the games
checked per policy, the violations, the time, and for every failing game its seed with a
line that replays it, so that a failure becomes a regression test. ``tests/soak.py`` is its
command line (the full run: a million random-policy games and a hundred thousand standard
ones); ``tests/test_soak.py`` runs a small slice in the test suite.

Matchups: every ordered pair of the installed heroes (mirrors included) on every battlefield,
Geralt of Rivia's loadouts cycling over his seats so that every loadout plays on every
battlefield. Each (policy, matchup) has its own matchup id, so its games have seeds of their
own (``game_seed(run seed, matchup id, game index)``). Team games: 2 vs 2 lineups of four
different heroes drawn from the soak's own random stream, on every battlefield, checked by
the plain-Python team replay (random policy, and the standard AI for every seat).
"""
from __future__ import annotations

import itertools
import json
import math
import random
import time

import numpy as np

from sim.content.battlefields import list_battlefields
from sim.content.profiles import get_profile
from sim.engine.control import MODE_STANDARD
from sim.engine.core import game_seed
from sim.engine.policy import new_control
from sim.play.match import Match, installed_content

from .checks import run_checked
from .constants import MESSAGES, OK, R_CODE, R_DETAIL, R_EVENT, R_FIELDS, R_SEED, R_TURN, SX_FIELDS, SX_GAMES
from .expect import Expect
from .runs import geralt_loadouts, with_loadouts

POLICIES = ("random", "standard")
#: matchup ids: policy base + battlefield * 1000 + index of the ordered pair
POLICY_BASE = {"random": 7_000_000, "standard": 8_000_000}
TEAM_BASE = 9_500_000


def soak_matchups() -> list[tuple[int, list[str], str]]:
    """``[(index, [hero, hero], battlefield)]``: every ordered pair of the installed heroes
    (mirrors included) on every battlefield; Geralt's seats cycle through his loadouts
    (``key@loadout``), continuing across battlefields so that each one sees all of them."""
    heroes = sorted(installed_content().specs)
    loadouts = geralt_loadouts()
    out, k = [], 0
    for bi, bf in enumerate(list_battlefields()):
        for pi, (h0, h1) in enumerate(itertools.product(heroes, heroes)):
            names, k = with_loadouts((h0, h1), loadouts, k)
            out.append((1000 * bi + pi, names, bf))
    return out


def _control(policy: str):
    if policy == "random":
        return new_control()
    w = get_profile("standard").weights
    return new_control((MODE_STANDARD, MODE_STANDARD, 0, 0), weights=(w, w))


def _failures(policy, mu, names, bf, out) -> list[dict]:
    rows = []
    for row in out[out[:, R_CODE] != OK]:
        code = int(row[R_CODE])
        seed = int(row[R_SEED])
        rows.append({"policy": policy, "matchup": mu, "heroes": names, "battlefield": bf, "seed": seed,
                     "code": code, "message": MESSAGES.get(code, "?"), "turn": int(row[R_TURN]),
                     "log_row": int(row[R_EVENT]), "detail": [int(x) for x in row[R_DETAIL:R_DETAIL + 3]],
                     "replay": f"Match({names}, battlefield={bf!r}).play({seed}"
                               + ("" if policy == "random" else f", modes=('{policy}', '{policy}')") + ")"})
    return rows


def soak(random_games: int, standard_games: int, team_games: int = 0, seed: int = 24, say=print,
         matchups=None) -> dict:
    """Play and check ``random_games`` random-policy and ``standard_games`` standard-AI duels
    (spread evenly over :func:`soak_matchups`, rounded up to whole games per matchup) and
    ``team_games`` team games per policy, with run seed ``seed``; ``say(line)`` reports
    progress; ``matchups``: a subset of :func:`soak_matchups` (default all).

    Returns a dict: per policy ``games``, ``violations``, ``seconds`` and ``matchups``; ``teams``
    (games, problems, seconds); ``failures``: one dict per failing game (policy, heroes,
    battlefield, seed, code, message, and ``replay``: a line that plays it again); ``seed``."""
    ms = soak_matchups() if matchups is None else list(matchups)
    result = {"seed": seed, "failures": []}
    plan = [(p, max(1, math.ceil(n / len(ms)))) for p, n in (("random", random_games), ("standard", standard_games))
            if n > 0]
    ctls = {p: _control(p) for p, _ in plan}
    stats = {p: np.zeros(SX_FIELDS, np.int64) for p, _ in plan}
    tally = {p: {"games": 0, "violations": 0, "seconds": 0.0, "matchups": len(ms), "games_per_matchup": per}
             for p, per in plan}
    t0 = time.perf_counter()
    for j, (idx, names, bf) in enumerate(ms):
        m = Match(names, battlefield=bf)
        ex = Expect(m)
        for policy, per in plan:
            t = time.perf_counter()
            out = np.zeros((per, R_FIELDS), np.int64)
            mu = POLICY_BASE[policy] + idx
            run_checked(m.tables, m.rows, ctls[policy], seed, mu, 0, per, *ex.args(), out, stats[policy])
            fails = _failures(policy, mu, names, bf, out)
            tally[policy]["games"] += per
            tally[policy]["violations"] += len(fails)
            tally[policy]["seconds"] += time.perf_counter() - t
            result["failures"] += fails
            for f in fails[:3]:
                say(f"FAIL {policy} seed {f['seed']} {f['heroes']} {bf}: code {f['code']} {f['message']} "
                    f"(turn {f['turn']}); {f['replay']}")
        if (j + 1) % max(1, len(ms) // 12) == 0 or j + 1 == len(ms):
            say(f"{j + 1} of {len(ms)} matchups, {time.perf_counter() - t0:.0f} s: " + "; ".join(
                f"{p} {v['games']:,} games checked, {v['violations']} violations" for p, v in tally.items()))
    for policy, v in tally.items():
        assert int(stats[policy][SX_GAMES]) == v["games"]
        v["seconds"] = round(v["seconds"], 1)       # time inside the checked games (setup excluded)
        result[policy] = v
    result["setup_seconds"] = round(time.perf_counter() - t0 - sum(v["seconds"] for v in tally.values()), 1)
    if team_games > 0:
        result["teams"] = team_soak(team_games, seed, say)
        result["failures"] += result["teams"].pop("failures")
    return result


def team_soak(games: int, seed: int, say=print) -> dict:
    """``games`` team games per policy (random; the standard AI in every seat), lineups of four
    different heroes drawn with ``random.Random(seed)``, the battlefields in turn; each
    checked by the plain-Python team replay. Returns games, problems, seconds, failures."""
    from sim.play.teams import TeamMatch

    from .teams import _check_team_game
    heroes = sorted(installed_content().specs)
    bfs = list_battlefields()
    rng = random.Random(seed)
    stats = dict.fromkeys(("games", "turns", "moves", "attacks", "heroes_defeated", "skipped",
                           "defeated_hero_turns", "decisive", "through_teammate"), 0)
    out = {"games": 0, "problems": 0, "failures": []}
    t0 = time.perf_counter()
    w = get_profile("standard").weights
    controls = {"random": None, "standard": new_control((MODE_STANDARD,) * 4, weights=(w,) * 4)}
    for policy, ctl in controls.items():
        for gi in range(games):
            four = rng.sample(heroes, 4)
            t1, t2 = four[:2], four[2:]
            bf = bfs[gi % len(bfs)]
            m = TeamMatch(list(t1), list(t2), bf)
            s = game_seed(seed, TEAM_BASE + (0 if policy == "random" else 100_000), gi)
            problems = _check_team_game(m, s, stats, ctl)
            out["games"] += 1
            if problems:
                out["problems"] += 1
                out["failures"].append({"policy": f"teams-{policy}", "heroes": [t1, t2], "battlefield": bf, "seed": s,
                                        "message": problems[0],
                                        "replay": f"TeamMatch({t1}, {t2}, {bf!r}).play({s}"
                                                  + ("" if policy == "random" else ", modes=('standard', 'standard')")
                                                  + ")"})
                say(f"FAIL teams-{policy} seed {s} {t1} vs {t2} {bf}: {problems[0]}")
        say(f"teams-{policy}: {games} games checked, {out['problems']} with problems, "
            f"{time.perf_counter() - t0:.0f} s")
    out["seconds"] = round(time.perf_counter() - t0, 1)
    out["stats"] = stats
    return out


def report_lines(result: dict) -> list[str]:
    """The soak's figures as text: games checked per policy, violations, time, failing seeds."""
    lines = [f"soak run, seed {result['seed']}:"]
    for policy in POLICIES:
        if policy in result:
            r = result[policy]
            lines.append(f"  {policy:<9} {r['games']:>10,} games checked ({r['matchups']} matchups x "
                         f"{r['games_per_matchup']}), {r['violations']} violations, {r['seconds']:.0f} s")
    if "teams" in result:
        t = result["teams"]
        lines.append(f"  teams     {t['games']:>10,} games checked (random and standard), {t['problems']} with "
                     f"problems, {t['seconds']:.0f} s")
    if result["failures"]:
        lines.append(f"  {len(result['failures'])} failing game(s); replay each as a regression test:")
        lines += [f"    seed {f['seed']} {f['policy']} {f['heroes']} {f['battlefield']}: {f['message']}; {f['replay']}"
                  for f in result["failures"][:50]]
    else:
        lines.append("  no failing game")
    return lines


def dump(result: dict, path) -> None:
    """Write ``result`` as JSON (the failing seeds included) to ``path``."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1, default=int)
