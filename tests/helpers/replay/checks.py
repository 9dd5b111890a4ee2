"""State and end-of-game checks, the log hash, and the numba loop that plays and checks
games turn by turn (``run_checked``)."""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.engine.core import game_seed
from sim.engine.game import setup_game
from sim.engine.layout import (END_HERO_DEFEATED, END_TURN_CAP, EV_CHOOSE, EV_FIELDS, EV_GAME_OVER, EV_ONGOING, F_HP,
    F_MAXHP, F_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, FS_DEFEATED, FS_IN_PLAY, FS_REMOVED, FS_UNUSED, G_LOGN, G_OVER,
    G_REASON, G_TURN, G_WINNER, MAX_CARDS, MAX_FIGHTERS, N_COUNTERS, N_FOG, OFF_DECK, OFF_DISC, OFF_HAND, P_COUNTER0,
    P_DECKN, P_DISCN, P_FOG0, P_HANDN, P_ONGOING, STATE_SIZE, fslot, pslot)
from sim.engine.rules import take_turn

from .board import close_step, flush_pending, new_context
from .constants import (CX_CNT0, CX_FOG0, CX_OUT0, CX_PLAYER, DECK_SIZE, E_AFTER_END, E_CARD_COUNT, E_CARD_FOREIGN,
    E_COUNTER, E_DEFEATED_ON_BOARD, E_END_CAP, E_END_LOG, E_END_REASON, E_END_WINNER, E_FOG, E_HAND_LIMIT,
    E_HEALTH_RANGE, E_HERO_DOWN_GAME_ON, E_HP_MISMATCH, E_IN_PLAY, E_LOG_FULL, E_MAXHP, E_NO_END, E_PILE_SIZE,
    E_PILES_MISMATCH, E_POS_MISMATCH, E_SHARE_SPACE, E_STATUS, FL_FOG_WALK, HAND_LIMIT, K_DISC, K_HAND, K_ONG, K_PEND,
    LOG_ROWS, N_PILES, OK, R_CODE, R_DETAIL, R_EVENT, R_HP0, R_HP1, R_LOGHASH, R_REASON, R_SEED, R_STHASH, R_TURN,
    R_TURNS, R_WINNER, SX_CAP_END, SX_DEFEATED_END, SX_GAMES, SX_KNOWN_AFTER_END_BUG, SX_STATE_CHECKS, SX_TURNS,
    SX_WIN0, SX_WIN1, TOLERATE_KNOWN_BUGS, TURN_CAP, XF_FLAGS, XF_MAXHP, XF_USED)
from .events import replay


@njit(cache=True)
def check_state(st, S, xf, deck_counts, pos, hp, ctx, cards, info):
    """Check the state between turns against the expectations; return a code (0 = fine)."""
    nc = deck_counts.shape[1]
    info[0] = -1
    for p in range(2):
        cnt = np.zeros((3, nc), np.int64)
        total = 0
        for pile in range(3):
            base = OFF_DECK if pile == 0 else (OFF_HAND if pile == 1 else OFF_DISC)
            nslot = P_DECKN if pile == 0 else (P_HANDN if pile == 1 else P_DISCN)
            n = st[pslot(p, nslot)]
            if n < 0 or n > MAX_CARDS:
                info[1] = p
                info[2] = nslot
                info[3] = n
                return E_PILE_SIZE
            for k in range(n):
                cid = st[base + p * MAX_CARDS + k]
                if cid < 0 or cid >= nc or deck_counts[p, cid] == 0:
                    info[1] = p
                    info[2] = cid
                    info[3] = nslot
                    return E_CARD_FOREIGN
                cnt[pile, cid] += 1
                total += 1
        og = st[pslot(p, P_ONGOING)]
        if og >= 0:
            if og >= nc or deck_counts[p, og] == 0:
                info[1] = p
                info[2] = og
                info[3] = P_ONGOING
                return E_CARD_FOREIGN
            total += 1
        if total != DECK_SIZE:
            info[1] = p
            info[2] = total
            info[3] = -1
            return E_CARD_COUNT
        for cid in range(nc):
            have = cnt[0, cid] + cnt[1, cid] + cnt[2, cid] + (1 if og == cid else 0)
            if have != deck_counts[p, cid]:
                info[1] = p
                info[2] = cid
                info[3] = have
                return E_CARD_COUNT
        # the piles the log says
        for cid in range(nc):
            if (cnt[1, cid] != cards[p, K_HAND, cid] or cnt[2, cid] != cards[p, K_DISC, cid]
                    or cards[p, K_PEND, cid] != 0 or cards[p, K_ONG, cid] != (1 if og == cid else 0)):
                info[1] = p
                info[2] = cid
                info[3] = 100 * cnt[1, cid] + cnt[2, cid]
                return E_PILES_MISMATCH
        if st[pslot(p, P_DECKN)] != DECK_SIZE - ctx[CX_OUT0 + p]:
            info[1] = p
            info[2] = st[pslot(p, P_DECKN)]
            info[3] = DECK_SIZE - ctx[CX_OUT0 + p]
            return E_PILES_MISMATCH
        for k in range(N_COUNTERS):
            if st[pslot(p, P_COUNTER0 + k)] != ctx[CX_CNT0 + p * N_COUNTERS + k]:
                info[1] = p
                info[2] = k
                info[3] = st[pslot(p, P_COUNTER0 + k)]
                return E_COUNTER
    occ = np.full(S, -1, np.int64)
    for f in range(MAX_FIGHTERS):
        status = st[fslot(f, F_STATUS)]
        sp = st[fslot(f, F_SPACE)]
        h = st[fslot(f, F_HP)]
        info[1] = f
        info[2] = sp
        info[3] = h
        if xf[f, XF_USED] == 0:
            if status != FS_UNUSED:
                return E_STATUS
            continue
        if status != FS_IN_PLAY and status != FS_DEFEATED and status != FS_REMOVED:
            return E_STATUS
        if st[fslot(f, F_MAXHP)] != xf[f, XF_MAXHP]:
            return E_MAXHP
        if h < 0 or h > xf[f, XF_MAXHP]:
            return E_HEALTH_RANGE
        if status == FS_IN_PLAY:
            if h < 1 or sp < 0 or sp >= S:
                return E_IN_PLAY
            if occ[sp] >= 0:
                info[3] = occ[sp]
                return E_SHARE_SPACE
            occ[sp] = f
        else:
            if sp != -1 or (status == FS_DEFEATED and h != 0):
                return E_DEFEATED_ON_BOARD
            if status == FS_REMOVED and hp[f] == 0:
                return E_STATUS     # off the board with health: removed (Vanish into Murder), not defeated
        expect = sp if status == FS_IN_PLAY else -1
        if pos[f] != expect:
            info[3] = pos[f]
            return E_POS_MISMATCH
        if hp[f] != h:
            info[3] = hp[f]
            return E_HP_MISMATCH
    for p in range(2):
        # the fog replayed from the log is the state's; only a hero with fog has any; at most 3 spaces
        seen = np.zeros(S, np.bool_)
        spaces = 0
        for t in range(N_FOG):
            sv = st[pslot(p, P_FOG0 + t)]
            info[1] = p
            info[2] = t
            info[3] = sv
            if sv != ctx[CX_FOG0 + p * N_FOG + t] or sv < -1 or sv >= S:
                return E_FOG
            if sv >= 0:
                if (xf[p * FIGHTERS_PER_PLAYER, XF_FLAGS] & FL_FOG_WALK) == 0:
                    return E_FOG
                if not seen[sv]:
                    seen[sv] = True
                    spaces += 1
        if spaces > 3:
            return E_FOG
    if st[G_OVER] == 0:
        for p in range(2):
            f = p * FIGHTERS_PER_PLAYER
            if st[fslot(f, F_STATUS)] == FS_DEFEATED or st[fslot(f, F_HP)] == 0:
                info[1] = f
                return E_HERO_DOWN_GAME_ON
    return OK


@njit(cache=True)
def check_final(st, log, turns, info):
    """The game is over for a valid reason, with a consistent winner and health."""
    info[0] = -1
    reason = st[G_REASON]
    w = st[G_WINNER]
    info[1] = reason
    info[2] = w
    info[3] = st[G_TURN]
    if st[G_OVER] != 1:
        return E_NO_END
    hp0 = st[fslot(0, F_HP)]
    hp1 = st[fslot(FIGHTERS_PER_PLAYER, F_HP)]
    s0 = st[fslot(0, F_STATUS)]
    s1 = st[fslot(FIGHTERS_PER_PLAYER, F_STATUS)]
    if reason == END_TURN_CAP:
        if w != -2 or turns != TURN_CAP or st[G_TURN] != TURN_CAP:
            return E_END_CAP
        if hp0 < 1 or hp1 < 1 or s0 == FS_DEFEATED or s1 == FS_DEFEATED:
            return E_END_CAP
    elif reason == END_HERO_DEFEATED:
        if w != 0 and w != 1:
            return E_END_WINNER
        if turns > TURN_CAP or st[G_TURN] != turns - 1:
            return E_END_WINNER
        wf = w * FIGHTERS_PER_PLAYER
        lf = (1 - w) * FIGHTERS_PER_PLAYER
        if st[fslot(wf, F_HP)] <= 0 or st[fslot(wf, F_STATUS)] == FS_DEFEATED:
            return E_END_WINNER
        if st[fslot(lf, F_HP)] != 0 or st[fslot(lf, F_STATUS)] != FS_DEFEATED:
            return E_END_WINNER
    else:
        return E_END_REASON
    n = st[G_LOGN]
    k = -1
    for i in range(n):
        if log[i, 0] == EV_GAME_OVER:
            if k >= 0:
                info[0] = i
                return E_END_LOG          # the game ended twice
            k = i
    if k < 0 or log[k, 1] != w or log[k, 2] != reason:
        info[0] = k
        return E_END_LOG
    if k != n - 1:
        # the game ends at once: nothing may happen after EV_GAME_OVER (docs/rules.md "End of game")
        only_choose = 1
        only_ongoing = 2
        for i in range(k + 1, n):
            if log[i, 0] != EV_CHOOSE:
                only_choose = 0
            if log[i, 0] != EV_ONGOING:
                only_ongoing = 0
        info[0] = k + 1
        info[1] = log[k + 1, 0]
        info[2] = n - 1 - k
        info[3] = only_choose + only_ongoing
        return E_AFTER_END
    return OK


@njit(cache=True)
def hash_rows(a):
    """32-bit FNV-1a style hash of a 2-D int64 array (wrap-safe in and out of numba)."""
    h = 2166136261
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            v = a[i, j]
            h = ((h ^ (v & 0xFFFFFFFF)) * 16777619) & 0xFFFFFFFF
            h = ((h ^ ((v >> 32) & 0xFFFFFFFF)) * 16777619) & 0xFFFFFFFF
    return h


@njit(cache=True)
def run_checked(tb, rows, ctl0, run_seed, matchup, first, n, succ, adj, zmask, xf, card_info, eff, eidx,
                deck_counts, bonus_pc, ldist, succ2, succ3, out, stats):
    """Play ``n`` games turn by turn, checking after every turn and at every event."""
    S = succ.shape[0]
    nc = card_info.shape[0]
    st = np.zeros(STATE_SIZE, np.int64)
    log = np.zeros((LOG_ROWS, EV_FIELDS), np.int64)
    info = np.zeros(4, np.int64)
    used = np.zeros((3, MAX_FIGHTERS), np.int64)
    cards = np.zeros((2, N_PILES, nc), np.int64)
    for gi in range(n):
        seed = game_seed(run_seed, matchup, first + gi)
        ctl = ctl0.copy()
        setup_game(st, tb, ctl, log, rows, 2, seed)
        pos = np.full(MAX_FIGHTERS, -1, np.int64)
        hp = np.zeros(MAX_FIGHTERS, np.int64)
        ctx = new_context(nc)
        used[:, :] = 0
        cards[:, :, :] = 0
        info[:] = 0
        turns = 0
        code = replay(log, 0, st[G_LOGN], succ, adj, zmask, xf, card_info, eff, eidx, deck_counts, bonus_pc,
                      ldist, succ2, succ3, pos, hp, ctx, used, cards, stats, info)
        if code == OK:
            code = close_step(ctx, cards, card_info)
        if code == OK:
            code = check_state(st, S, xf, deck_counts, pos, hp, ctx, cards, info)
            stats[SX_STATE_CHECKS] += 1
        while code == OK and st[G_OVER] == 0:
            if turns >= TURN_CAP:
                code = E_NO_END
                break
            i0 = st[G_LOGN]
            take_turn(st, tb, ctl, log)
            turns += 1
            if st[G_LOGN] >= log.shape[0]:
                code = E_LOG_FULL
                break
            code = replay(log, i0, st[G_LOGN], succ, adj, zmask, xf, card_info, eff, eidx, deck_counts,
                          bonus_pc, ldist, succ2, succ3, pos, hp, ctx, used, cards, stats, info)
            if code == OK:
                code = close_step(ctx, cards, card_info)
            if code == OK:
                flush_pending(ctx, cards, bonus_pc)
                code = check_state(st, S, xf, deck_counts, pos, hp, ctx, cards, info)
                stats[SX_STATE_CHECKS] += 1
            if code == OK and st[G_OVER] == 0:
                p = ctx[CX_PLAYER]
                if st[pslot(p, P_HANDN)] > HAND_LIMIT:
                    info[0] = -1
                    info[1] = p
                    info[2] = st[pslot(p, P_HANDN)]
                    code = E_HAND_LIMIT
        if code == OK:
            code = check_final(st, log, turns, info)
            if code == E_AFTER_END and info[3] == 2 and TOLERATE_KNOWN_BUGS != 0:
                stats[SX_KNOWN_AFTER_END_BUG] += 1      # KNOWN_BUGS: only EV_ONGOING after the end
                code = OK
        out[gi, R_CODE] = code
        out[gi, R_TURN] = turns
        out[gi, R_EVENT] = info[0] if code != OK else -1
        for k in range(3):
            out[gi, R_DETAIL + k] = info[1 + k]
        out[gi, R_WINNER] = st[G_WINNER]
        out[gi, R_REASON] = st[G_REASON]
        out[gi, R_TURNS] = turns
        out[gi, R_HP0] = st[fslot(0, F_HP)]
        out[gi, R_HP1] = st[fslot(FIGHTERS_PER_PLAYER, F_HP)]
        out[gi, R_LOGHASH] = hash_rows(log[: st[G_LOGN]])
        out[gi, R_STHASH] = hash_rows(st.reshape(1, STATE_SIZE))
        out[gi, R_SEED] = seed
        stats[SX_GAMES] += 1
        stats[SX_TURNS] += turns
        if st[G_REASON] == END_HERO_DEFEATED:
            stats[SX_DEFEATED_END] += 1
            if st[G_WINNER] == 0:
                stats[SX_WIN0] += 1
            elif st[G_WINNER] == 1:
                stats[SX_WIN1] += 1
        elif st[G_REASON] == END_TURN_CAP:
            stats[SX_CAP_END] += 1
