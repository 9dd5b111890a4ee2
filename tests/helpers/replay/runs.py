"""The matchups of the invariant runs, running them through the checker, and reporting
failures."""
from __future__ import annotations

import itertools

import numpy as np

from sim.content.battlefields import list_battlefields
from sim.engine.layout import END_HERO_DEFEATED, END_TURN_CAP, R_ACTIONS, R_TURN_CAP
from sim.engine.policy import new_control
from sim.play.match import Match

from .checks import run_checked
from .constants import (ACTIONS, ALL_ELEVEN, ALL_HEROES, ALL_SEVEN, COBBLE, COBBLE_BATTLEFIELDS, GAMES_CLASSIC,
    GAMES_COBBLE, GAMES_WITCHER, GERALT, HEROES, MESSAGES, OK, PAIR_BATTLEFIELDS, R_CODE, R_DETAIL, R_EVENT, R_FIELDS,
    R_REASON, R_SEED, R_TURN, RUN_SEED, SX_ATTACKS, SX_FIELDS, SX_GAMES, SX_MOVES, SX_STATE_CHECKS, SX_TURNS, TURN_CAP,
    WITCHER, WITCHER_BATTLEFIELDS)
from .expect import Expect, hero_toml


def hero_arg(m, seat):
    """The hero string of a seat, with its loadout ('geralt_of_rivia@silver+wolf-armor+blizzard')."""
    lo = m.loadouts[seat]
    return f"{m.keys[seat]}@{lo}" if lo else m.keys[seat]


def geralt_loadouts():
    """Geralt's loadouts from his hero file: one option per choice group, in file order."""
    raw = hero_toml(GERALT)
    return ["+".join(c) for c in itertools.product(*(g["options"] for g in raw["choice_groups"]))]


def with_loadouts(pair, loadouts, k):
    """The hero names of ``pair`` with each Geralt seat given the next loadout of the cycle
    ``loadouts`` from position ``k``; returns (names, the next position)."""
    names = []
    for h in pair:
        if h == GERALT:
            h = f"{h}@{loadouts[k % len(loadouts)]}"
            k += 1
        names.append(h)
    return names, k


def all_matches():
    """(matchup id, Match, games): every ordered pair of the four Battle of Legends heroes on
    Marmoreal and Sarpedon, Medusa vs Sinbad in both seat orders on every battlefield; on
    Kaer Morhen and Fayrlund Forest every ordered pair with a Witcher hero among all seven,
    Geralt's seats cycling through his loadouts (each battlefield starts elsewhere in the
    cycle, every loadout is played on both); on Soho and Baskerville Manor every ordered pair
    with a Cobble & Fog hero among all eleven (``GAMES_COBBLE`` games each)."""
    out = []
    loadouts = geralt_loadouts()
    kc = 0
    for i, bf in enumerate(list_battlefields()):
        if bf in PAIR_BATTLEFIELDS:
            pairs = [(h0, h1) for h0 in ALL_HEROES for h1 in ALL_HEROES]
        else:
            pairs = [HEROES, HEROES[::-1]]
        for pair in pairs:
            mu = 100 * i + 10 * ALL_SEVEN.index(pair[0]) + ALL_SEVEN.index(pair[1])
            out.append((mu, Match(list(pair), battlefield=bf), GAMES_CLASSIC))
        if bf in WITCHER_BATTLEFIELDS:
            k = 3 * WITCHER_BATTLEFIELDS.index(bf)
            for h0 in ALL_SEVEN:
                for h1 in ALL_SEVEN:
                    if h0 not in WITCHER and h1 not in WITCHER:
                        continue
                    names, k = with_loadouts((h0, h1), loadouts, k)
                    mu = 100 * i + 10 * ALL_SEVEN.index(h0) + ALL_SEVEN.index(h1)
                    out.append((mu, Match(names, battlefield=bf), GAMES_WITCHER))
        if bf in COBBLE_BATTLEFIELDS:
            for h0 in ALL_ELEVEN:
                for h1 in ALL_ELEVEN:
                    if h0 not in COBBLE and h1 not in COBBLE:
                        continue
                    names, kc = with_loadouts((h0, h1), loadouts, kc)
                    mu = 5000 + 200 * i + 12 * ALL_ELEVEN.index(h0) + ALL_ELEVEN.index(h1)
                    out.append((mu, Match(names, battlefield=bf), GAMES_COBBLE))
    return out


def run_match(matchup, match, n, first=0, ctl=None):
    """Run ``n`` checked games of one match (random policy unless ``ctl`` is given);
    return (per-game rows, stats)."""
    m = match
    assert int(m.tables.rules[R_TURN_CAP]) == TURN_CAP and int(m.tables.rules[R_ACTIONS]) == ACTIONS
    ex = Expect(m)
    out = np.zeros((n, R_FIELDS), np.int64)
    stats = np.zeros(SX_FIELDS, np.int64)
    run_checked(m.tables, m.rows, new_control() if ctl is None else ctl, RUN_SEED, matchup, first, n,
                *ex.args(), out, stats)
    return out, stats


def run_all(per_matchup=None):
    """All matchups, each with its own number of games (or ``per_matchup`` each)."""
    results = []
    stats = np.zeros(SX_FIELDS, np.int64)
    for mu, m, n in all_matches():
        out, s = run_match(mu, m, per_matchup or n)
        results.append((mu, m, out))
        stats += s
    return results, stats


def describe_failures(results, limit=8):
    lines = []
    for mu, m, out in results:
        names = [hero_arg(m, 0), hero_arg(m, 1)]
        for row in out[out[:, R_CODE] != OK]:
            code = int(row[R_CODE])
            lines.append(
                f"seed {int(row[R_SEED])} (matchup {mu}, {names[0]} first vs {names[1]}, {m.battlefield.key}): "
                f"code {code} {MESSAGES.get(code, '?')} at turn {int(row[R_TURN])}, "
                f"log row {int(row[R_EVENT])}, detail {[int(x) for x in row[R_DETAIL:R_DETAIL + 3]]}; "
                f"narrate: Match({names}, battlefield={m.battlefield.key!r}).play({int(row[R_SEED])})")
    n = len(lines)
    return n, "\n".join(lines[:limit]) + (f"\n... {n - limit} more" if n > limit else "")


def assert_clean(results, stats, n_min):
    n_fail, text = describe_failures(results)
    assert n_fail == 0, f"{n_fail} games broke an invariant:\n{text}"
    games = sum(len(out) for _, _, out in results)
    assert games >= n_min and stats[SX_GAMES] == games
    # every required pairing was played, and the games really ended
    played = {(m.battlefield.key, tuple(m.keys)) for _, m, _ in results}
    for bf in PAIR_BATTLEFIELDS:
        for h0 in ALL_HEROES:
            for h1 in ALL_HEROES:
                assert (bf, (h0, h1)) in played
    for bf in list_battlefields():
        assert (bf, HEROES) in played and (bf, HEROES[::-1]) in played
    for bf in WITCHER_BATTLEFIELDS:
        for w in WITCHER:
            for h in ALL_SEVEN:
                assert (bf, (w, h)) in played and (bf, (h, w)) in played, (bf, w, h)
        lo = {m.loadouts[s] for _, m, _ in results if m.battlefield.key == bf for s in (0, 1) if m.keys[s] == GERALT}
        assert lo == set(geralt_loadouts()) and len(lo) == 8, (bf, lo)
    for bf in COBBLE_BATTLEFIELDS:
        for c in COBBLE:
            for h in ALL_ELEVEN:
                assert (bf, (c, h)) in played and (bf, (h, c)) in played, (bf, c, h)
    assert len({mu for mu, _, _ in results}) == len(results)          # distinct seeds per matchup
    for _mu, _m, out in results:
        assert len(out) > 0
        assert set(np.unique(out[:, R_REASON])) <= {END_HERO_DEFEATED, END_TURN_CAP}
    assert stats[SX_STATE_CHECKS] >= stats[SX_TURNS]
    assert stats[SX_MOVES] > 0 and stats[SX_ATTACKS] > 0
