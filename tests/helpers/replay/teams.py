"""The plain-Python check of team games (2 vs 2): the numba replay models two seats, so
these games are replayed here with sets and a breadth-first search."""
from __future__ import annotations

import numpy as np

from sim.content.battlefields import list_battlefields
from sim.engine.core import game_seed
from sim.engine.game import setup_game
from sim.engine.layout import (END_HERO_DEFEATED, EV_ACTION, EV_ATTACK, EV_CHOOSE, EV_DAMAGE, EV_DEFEATED, EV_FIELDS,
    EV_FOG, EV_GAME_OVER, EV_MOVE, EV_ONGOING, EV_PLACE, EV_RECOVER, EV_REMOVE, EV_RETURN, EV_SET_HP, EV_SETUP,
    EV_SWAP, F_HP, F_MAXHP, F_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, FS_DEFEATED, FS_IN_PLAY, FS_UNUSED, G_LOGN, G_OVER,
    G_REASON, G_WINNER, MAX_CARDS, MAX_FIGHTERS, N_FOG, OFF_DECK, OFF_DISC, OFF_HAND, P_DECKN, P_DISCN, P_HANDN,
    P_ONGOING, STATE_SIZE, fslot, pslot)
from sim.engine.policy import new_control
from sim.engine.rules import take_turn

from .constants import HAND_LIMIT, LOG_ROWS, RUN_SEED, TURN_CAP

# The same kind of check for team games (sim/play/teams.py): random-policy games with four seats on
# all six battlefields, every hero playing, checked after every turn and at every event by a
# plain-Python replay of the log (the numba replay, ``events.replay``, models two seats).
# Expectations from the rules text ("Defeat and ending the game", "Exhaustion and team play",
# "Maneuver and movement"), the hero files (deck lists via the compiled content), and the
# battlefield graphs (``bf.move``, ``bf.adj``, zones), searched by our own breadth-first search.

TEAM_LINEUPS = (    # (team 1, team 2) per battlefield; every hero appears
    (("king_arthur", "alice"), ("medusa", "sinbad")),
    (("dracula", "invisible_man"), ("sherlock_holmes", "jekyll_hyde")),
    (("geralt_of_rivia", "ciri"), ("ancient_leshen", "medusa")),
    (("sinbad", "ancient_leshen"), ("invisible_man", "king_arthur")),
    (("medusa", "dracula"), ("ciri", "alice")),
    (("sherlock_holmes", "geralt_of_rivia"), ("jekyll_hyde", "sinbad")),
)
GAMES_TEAM = 12        # per battlefield (and per lineup rotation)


def _team_of(f):
    return (f // FIGHTERS_PER_PLAYER) % 2


def _team_move_ok(bf, pos, f, src, dst, budget, through, fog, extra_block=()):
    """A path src -> dst of at most ``budget`` steps over ``bf.move`` that never enters a
    space held by a fighter opposing ``f`` (teammates and own fighters may be passed), unless
    ``through``; ``fog``: spaces ``f`` may step between as if adjacent (the Invisible Man)."""
    S = bf.n_spaces
    opp = {pos[g] for g in range(MAX_FIGHTERS) if pos[g] >= 0 and g != f and _team_of(g) != _team_of(f)}
    opp |= set(extra_block)
    seen = {src}
    frontier = [src]
    for _ in range(budget):
        nxt = []
        for u in frontier:
            cand = [v for v in range(S) if bf.move[u, v]]
            if u in fog:
                cand += [v for v in fog if v != u]
            for v in cand:
                if v in seen or (v in opp and not through):
                    continue
                if v == dst:
                    return True
                seen.add(v)
                nxt.append(v)
        frontier = nxt
    return False


def _check_team_game(m, seed, stats, ctl=None):
    """Play one team game turn by turn and check it; returns a list of problems. ``ctl``: the
    control array of the players' policies (default: random for every seat)."""
    from sim.engine.core import eliminated
    from sim.engine.layout import F_RANGED, G_ACTIVE, H_DECK_LEN, H_DECK_START, HF_FOG_WALK
    tb = m.tables
    bf = m.battlefield
    st = np.zeros(STATE_SIZE, np.int64)
    log = np.zeros((4 * LOG_ROWS, EV_FIELDS), np.int64)
    ctl = new_control() if ctl is None else ctl.copy()
    setup_game(st, tb, ctl, log, m.rows, 4, seed)
    bad = []
    pos = [-1] * MAX_FIGHTERS
    hp = [int(st[fslot(f, F_HP)]) for f in range(MAX_FIGHTERS)]
    fog = {p: [-1] * N_FOG for p in range(4)}
    decks = []
    for p in range(4):
        h = int(m.rows[p])
        s0, n = int(tb.heroes[h, H_DECK_START]), int(tb.heroes[h, H_DECK_LEN])
        decks.append(sorted(int(c) for c in tb.decks[s0:s0 + n]))
    zm = bf.zone_mask
    i_done = 0
    turns = 0
    last_player = None
    defeated_hero_turns = 0

    def replay(i0, i1, active):
        nonlocal defeated_hero_turns
        for i in range(i0, i1):
            ev, a, b, c, d, e = (int(x) for x in log[i])
            if ev == EV_SETUP:
                if b in pos:
                    bad.append(f"setup of {a} on occupied space {b}")
                if a % FIGHTERS_PER_PLAYER == 0 and b != bf.starts[a // FIGHTERS_PER_PLAYER]:
                    bad.append(f"hero of seat {a // FIGHTERS_PER_PLAYER} not on its start space")
                pos[a] = b
            elif ev == EV_MOVE:
                if pos[a] != b or c in pos:
                    bad.append(f"move {a} {b}->{c}: from a wrong or to an occupied space")
                walk = a % FIGHTERS_PER_PLAYER == 0 and any(s >= 0 for s in fog[a // FIGHTERS_PER_PLAYER]) \
                    and m.specs[a // FIGHTERS_PER_PLAYER].ability_flags & HF_FOG_WALK
                fs = {s for s in fog[a // FIGHTERS_PER_PLAYER] if s >= 0} if walk else set()
                if not _team_move_ok(bf, pos, a, b, c, d, bool(e), fs):
                    bad.append(f"move {a} {b}->{c} budget {d}: no path avoiding opposing fighters")
                elif not e:    # did it need to pass a teammate's fighter? (teammates as blockers)
                    mates = {pos[g] for g in range(MAX_FIGHTERS) if pos[g] >= 0 and _team_of(g) == _team_of(a)
                             and g // FIGHTERS_PER_PLAYER != a // FIGHTERS_PER_PLAYER}
                    if mates and not _team_move_ok(bf, pos, a, b, c, d, False, fs, extra_block=mates):
                        stats["through_teammate"] += 1
                pos[a] = c
                stats["moves"] += 1
            elif ev == EV_PLACE:
                if c in pos and pos.index(c) != a:
                    bad.append(f"place {a} on occupied {c}")
                pos[a] = c
            elif ev == EV_RETURN:
                if b in pos:
                    bad.append(f"return {a} on occupied {b}")
                pos[a] = b
                hp[a] = int(st[fslot(a, F_MAXHP)]) if hp[a] == 0 else hp[a]
            elif ev == EV_SWAP:
                pos[a], pos[b] = pos[b], pos[a]
            elif ev in (EV_REMOVE, EV_DEFEATED):
                pos[a] = -1
                if ev == EV_DEFEATED:
                    if hp[a] != 0:
                        bad.append(f"fighter {a} defeated with health {hp[a]}")
                    if a % FIGHTERS_PER_PLAYER == 0:
                        stats["heroes_defeated"] += 1
            elif ev == EV_DAMAGE:
                if pos[a] < 0 or hp[a] - b != c or b < 0:
                    bad.append(f"damage to {a}: {hp[a]} - {b} != {c} or off the board")
                hp[a] = c
            elif ev in (EV_RECOVER, EV_SET_HP):
                hp[a] = c if ev == EV_RECOVER else b
            elif ev == EV_ATTACK:
                att, dfn = a, b
                stats["attacks"] += 1
                if _team_of(att) == _team_of(dfn):
                    bad.append(f"fighter {att} attacked its teammate {dfn}")
                if att // FIGHTERS_PER_PLAYER != active:
                    bad.append(f"fighter {att} attacked on seat {active}'s turn")
                sa, sd = pos[att], pos[dfn]
                ranged = int(st[fslot(att, F_RANGED)]) != 0
                if not (bf.adj[sa, sd] or (ranged and int(zm[sa]) & int(zm[sd]))):
                    bad.append(f"attack {att}->{dfn} out of range")
            elif ev == EV_FOG:
                fog[a][b] = d
            elif ev == EV_ACTION:
                if a != active:
                    bad.append(f"seat {a} acted on seat {active}'s turn")
                hero = a * FIGHTERS_PER_PLAYER
                if hp[hero] == 0:
                    defeated_hero_turns += 1
            elif ev == EV_GAME_OVER:
                if i != i1 - 1 and any(int(log[k, 0]) not in (EV_CHOOSE, EV_ONGOING) for k in range(i + 1, i1)):
                    bad.append("events after the game ended")

    def check_state(active):
        occupied = {}
        for f in range(MAX_FIGHTERS):
            s, status = int(st[fslot(f, F_SPACE)]), int(st[fslot(f, F_STATUS)])
            if status == FS_IN_PLAY:
                if s < 0 or s in occupied or not 1 <= st[fslot(f, F_HP)] <= st[fslot(f, F_MAXHP)]:
                    bad.append(f"fighter {f}: space {s} / health {int(st[fslot(f, F_HP)])} wrong")
                occupied[s] = f
            elif status == FS_DEFEATED and (s != -1 or st[fslot(f, F_HP)] != 0):
                bad.append(f"defeated fighter {f} on the board or with health")
            if status != FS_UNUSED and (pos[f] != (s if status == FS_IN_PLAY else -1) or hp[f] != st[fslot(f, F_HP)]):
                bad.append(f"fighter {f}: replayed space/health {pos[f]}/{hp[f]} != state {s}/{int(st[fslot(f, F_HP)])}")
        for p in range(4):
            cards = []
            for off, slot in ((OFF_DECK, P_DECKN), (OFF_HAND, P_HANDN), (OFF_DISC, P_DISCN)):
                n = int(st[pslot(p, slot)])
                cards += [int(x) for x in st[off + p * MAX_CARDS: off + p * MAX_CARDS + n]]
            og = int(st[pslot(p, P_ONGOING)])
            if og >= 0:
                cards.append(og)
            if sorted(cards) != decks[p]:
                bad.append(f"seat {p}: cards not conserved")
        if active is not None and st[G_OVER] == 0 and st[pslot(active, P_HANDN)] > HAND_LIMIT:
            bad.append(f"seat {active} ends its turn with {int(st[pslot(active, P_HANDN)])} cards")
        lost = [all(st[fslot(p * FIGHTERS_PER_PLAYER, F_STATUS)] == FS_DEFEATED for p in (t, t + 2)) for t in (0, 1)]
        if st[G_OVER] == 0 and any(lost):
            bad.append("a team lost both heroes but the game goes on")
        if st[G_OVER] and st[G_REASON] == END_HERO_DEFEATED:
            w = int(st[G_WINNER])
            if not lost[1 - w] or (lost[w] and w != _team_of(int(st[G_ACTIVE]) * FIGHTERS_PER_PLAYER)):
                bad.append(f"winner {w} but lost {lost}")

    replay(0, int(st[G_LOGN]), None)
    check_state(None)
    i_done = int(st[G_LOGN])
    while st[G_OVER] == 0 and not bad:
        p = int(st[G_ACTIVE])
        if last_player is not None:    # the next seat in turn order that has a fighter left
            q = (last_player + 1) % 4
            while eliminated(st, q) and q != last_player:
                stats["skipped"] += 1
                q = (q + 1) % 4
            if p != q:
                bad.append(f"seat {p} plays after seat {last_player}; expected seat {q}")
        take_turn(st, tb, ctl, log)
        turns += 1
        replay(i_done, int(st[G_LOGN]), p)
        i_done = int(st[G_LOGN])
        check_state(p)
        last_player = p
        if turns > 2 * TURN_CAP + 1:
            bad.append("no end")
    stats["games"] += 1
    stats["turns"] += turns
    stats["defeated_hero_turns"] += defeated_hero_turns
    stats["decisive"] += int(st[G_REASON] == END_HERO_DEFEATED)
    return bad


def team_run(games_per_bf):
    from sim.play.teams import TeamMatch
    stats = dict.fromkeys(("games", "turns", "moves", "attacks", "heroes_defeated", "skipped",
                           "defeated_hero_turns", "decisive", "through_teammate"), 0)
    problems = []
    for i, bf in enumerate(list_battlefields()):
        t1, t2 = TEAM_LINEUPS[i % len(TEAM_LINEUPS)]
        m = TeamMatch(list(t1), list(t2), bf)
        for gi in range(games_per_bf):
            seed = game_seed(RUN_SEED, 9000 + i, gi)
            for b in _check_team_game(m, seed, stats)[:3]:
                problems.append(f"{bf} {t1} vs {t2} seed {seed}: {b}")
    return problems, stats
