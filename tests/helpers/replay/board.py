"""Small numba steps of the replay: teams, paths over the movement graph, card piles,
fog, the replay context, and the conditions and targets of effect rows."""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.engine.layout import A_ATTACK, A_SCHEME, FIGHTERS_PER_PLAYER, MAX_FIGHTERS, N_COUNTERS, N_FOG

from .constants import (CD_AWAY_START, CD_KIND_DEFEATED, CD_KIND_ON_BOARD, CD_NO_OPP_IN_ZONE, CX_CDEALT,
    CX_START0, EF_C2_ARG, EF_C2_CARG2, EF_C2_COND, EF_C2_CREF, EF_C2_CTAG, EF_C2_NEG, PX_CDMG, PX_OPPPRINTED, PX_ZONES,
    CD_ALWAYS, CD_ATTACKED, CD_COUNTER, CD_DISCARDED, CD_FIRST_ACTION, CD_HAND_AT_LEAST,
    CD_HERO_HP_AT_MOST, CD_KIND_IN_ZONE, CD_NOT_WON, CD_ON_FOG, CD_OPP_HP_AT_LEAST, CD_OPP_PRINTED_AT_LEAST,
    CD_OPP_PRINTED_EQ, CD_TAG_TIER, CD_TOOK_FROM_DECK, CD_WON, CI_ONGOING, CI_PASSIVE, CI_TAGS, CI_VALUE, CX_ACTNO,
    CX_ATT, CX_ATTACKED0, CX_BONUS0, CX_BOOST, CX_CANCEL0, CX_CANCEL1, CX_CDMG, CX_CHOSEN0, CX_CNT0, CX_DEFF, CX_DOWN,
    CX_ENDED, CX_EXH_MASK, CX_EXH_P, CX_EXH_WANT, CX_FDBOOST, CX_FOG0, CX_GUESS, CX_KIND, CX_KOSAVE, CX_LAST_CARD, CX_LAST_TAKE,
    CX_LASTFOG, CX_LASTTOK, CX_LBOOST, CX_LOOK, CX_MOVED, CX_MUST_SHUFFLE, CX_MUSTPLACE, CX_NCHOSEN0, CX_NDISC0,
    CX_OVER, CX_PASSED, CX_PHASE, CX_PLAYER, CX_RD_F, CX_RD_G, CX_RETDRAW, CX_SF0, CX_SIZE, CX_SP0, CX_SRC0, CX_SRCDMG0, CX_TOOKDECK,
    CX_WON, E_ABILITY, E_CARD_FLOW, E_COMBAT, E_DEFEAT, E_EXHAUST, E_ONGOING, E_REMOVE, EF_CARG2, EF_COND, EF_CONDARG, EF_CREF,
    EF_CTAG, EF_EXCLOPP, EF_N, EF_NEG, EF_OPT, EF_OTHER, EF_PARG, EF_PER, EF_RANGE, EF_REF, EF_SEL, EF_SIDE, EF_WIN,
    FL_FOG_WALK, K_DISC, K_HAND, K_ONG, K_PEND, N_PILES, OK, PH_AFTER, PH_EARLY, PH_EOT, PH_NONE, PH_SETUP, PX_ADJMOVED,
    PX_LBOOST, PX_NONE, PX_SRCDMG, RF_OPP, RF_SELF, SD_OPP, SD_OWN, TS_ADJ, TS_ALL, TS_COMBATANT, TS_FOG, TS_KIND,
    TS_MOVED, TS_OPP, TS_OPPHERO, TS_OWN, TS_PASSED, TS_SELF, TS_SPACES, TS_WITHIN, TS_ZONE, WN_DUR, XF_FLAGS, XF_KIND,
    XF_USED)


@njit(cache=True)
def team(f):
    """Team of fighter slot ``f``: players 0 and 2 against 1 and 3 (rules, team play)."""
    return (f // FIGHTERS_PER_PLAYER) % 2


@njit(cache=True)
def move_dist(succ, pos, f, src, dst, avoid, ignore_friends, limit, fogm):
    """Fewest steps src -> dst over the movement graph, or -1 if more than ``limit``.

    ``fogm`` (S,) bool: spaces the moved fighter may step between as if adjacent (the
    Invisible Man's fog tokens; all False for everyone else; rules "Fog Tokens", R46).
    ``succ``: (S, D) successor lists of ``bf.move`` (-1 padded). Spaces held by fighters
    opposing ``f`` (the moved fighter) are never entered when ``avoid``; with
    ``ignore_friends`` spaces held by ``f``'s friends are not entered either (for
    statistics only). Frontier expansion one step at a time.
    """
    S = succ.shape[0]
    blocked = np.zeros(S, np.bool_)
    for g in range(MAX_FIGHTERS):
        if g == f or pos[g] < 0:
            continue
        if team(g) != team(f):
            if avoid:
                blocked[pos[g]] = True
        elif ignore_friends:
            blocked[pos[g]] = True
    if src == dst:
        return 0
    seen = np.zeros(S, np.bool_)
    seen[src] = True
    frontier = np.zeros(S, np.bool_)
    frontier[src] = True
    for step in range(1, limit + 1):
        nxt = np.zeros(S, np.bool_)
        grew = False
        for u in range(S):
            if not frontier[u]:
                continue
            for k in range(succ.shape[1]):
                v = succ[u, k]
                if v < 0:
                    break
                if seen[v] or blocked[v]:
                    continue
                seen[v] = True
                nxt[v] = True
                grew = True
            if fogm[u]:
                for v in range(S):
                    if fogm[v] and not seen[v] and not blocked[v]:
                        seen[v] = True
                        nxt[v] = True
                        grew = True
        if nxt[dst]:
            return step
        if not grew:
            return -1
        frontier = nxt
    return -1


@njit(cache=True)
def space_free(pos, s, except_f):
    for g in range(MAX_FIGHTERS):
        if g != except_f and pos[g] == s:
            return False
    return True


@njit(cache=True)
def near(adj, a, b):
    """Spaces a and b are adjacent (a line between them, either way)."""
    return a >= 0 and b >= 0 and (adj[a, b] != 0 or adj[b, a] != 0)


@njit(cache=True)
def deck_left(cards, deck_counts, ctx, p, c):
    """Copies of card ``c`` the replay has in player ``p``'s deck."""
    n = deck_counts[p, c]
    for k in range(N_PILES):
        n -= cards[p, k, c]
    return n


@njit(cache=True)
def pile_add(cards, ctx, bonus_pc, p, k, c, n):
    """Add ``n`` (may be negative) copies of ``c`` to pile ``k`` of ``p``; False if < 0."""
    cards[p, k, c] += n
    if k == K_DISC:
        ctx[CX_BONUS0 + p] += n * bonus_pc[p, c]
    return cards[p, k, c] >= 0


@njit(cache=True)
def flush_pending(ctx, cards, bonus_pc):
    """Cards played in the action reach the discard pile at its end."""
    for p in range(2):
        for c in range(cards.shape[2]):
            n = cards[p, K_PEND, c]
            if n > 0:
                cards[p, K_PEND, c] = 0
                pile_add(cards, ctx, bonus_pc, p, K_DISC, c, n)



@njit(cache=True)
def has_fighter(pos, p):
    """Player ``p`` has a fighter on the board (else it is dormant: cases R48, R64)."""
    for k in range(FIGHTERS_PER_PLAYER):
        if pos[p * FIGHTERS_PER_PLAYER + k] >= 0:
            return True
    return False


@njit(cache=True)
def fog_at(ctx, p, s):
    """Player ``p`` has a fog token on space ``s`` (replayed)."""
    if s < 0:
        return False
    for t in range(N_FOG):
        if ctx[CX_FOG0 + p * N_FOG + t] == s:
            return True
    return False


@njit(cache=True)
def fog_mask(ctx, xf, f, S):
    """(S,) bool: the fog spaces fighter ``f`` may move between as if adjacent (its player's
    fog, if ``f`` is a hero with fog_walk), else all False."""
    m = np.zeros(S, np.bool_)
    if f % FIGHTERS_PER_PLAYER == 0 and (xf[f, XF_FLAGS] & FL_FOG_WALK) != 0:
        p = f // FIGHTERS_PER_PLAYER
        for t in range(N_FOG):
            s = ctx[CX_FOG0 + p * N_FOG + t]
            if s >= 0:
                m[s] = True
    return m


@njit(cache=True)
def count_tagged(cards, card_info, p, k, tag):
    """Cards with any of the ``tag`` bits in pile ``k`` of player ``p`` (replayed)."""
    n = 0
    for c in range(card_info.shape[0]):
        if card_info[c, CI_TAGS] & tag:
            n += cards[p, k, c]
    return n


@njit(cache=True)
def ongoing_of(cards, p):
    """The ongoing scheme player ``p`` has in play (replayed), -1 none."""
    for c in range(cards.shape[2]):
        if cards[p, K_ONG, c] > 0:
            return c
    return -1


@njit(cache=True)
def passive_in_play(cards, card_info, p, bit):
    og = ongoing_of(cards, p)
    return og >= 0 and (card_info[og, CI_PASSIVE] & bit) != 0


@njit(cache=True)
def new_context(nc):
    """Replay context at the start of a game: the setup hooks of both seats are live."""
    ctx = np.zeros(CX_SIZE, np.int64)
    ctx[CX_KIND] = -1
    ctx[CX_PLAYER] = -1
    ctx[CX_DOWN] = -1
    ctx[CX_ATT] = -1
    ctx[CX_DEFF] = -1
    ctx[CX_WON] = -1
    ctx[CX_EXH_P] = -1
    ctx[CX_LAST_TAKE] = -1
    ctx[CX_LAST_CARD] = -1
    ctx[CX_MUSTPLACE] = -1
    ctx[CX_PHASE] = PH_SETUP
    ctx[CX_LASTTOK] = -1
    ctx[CX_LASTFOG] = -1
    ctx[CX_MOVED] = -1
    ctx[CX_GUESS] = -1
    ctx[CX_RD_F] = -1
    ctx[CX_RD_G] = -1
    for t in range(2 * N_FOG):
        ctx[CX_FOG0 + t] = -1
    for p in range(2):
        ctx[CX_SRC0 + p] = nc + 2 * p + 1
        ctx[CX_SP0 + p] = p
        ctx[CX_SF0 + p] = p * FIGHTERS_PER_PLAYER
    return ctx


@njit(cache=True)
def reset_action(ctx, used):
    ctx[CX_BOOST] = 0
    ctx[CX_PHASE] = PH_NONE
    ctx[CX_CANCEL0] = 0
    ctx[CX_CANCEL1] = 0
    ctx[CX_ATT] = -1
    ctx[CX_DEFF] = -1
    ctx[CX_WON] = -1
    ctx[CX_CDMG] = 0
    ctx[CX_LOOK] = 0
    ctx[CX_LAST_TAKE] = -1
    ctx[CX_LAST_CARD] = -1
    ctx[CX_FDBOOST] = 0
    ctx[CX_PASSED] = 0
    ctx[CX_TOOKDECK] = 0
    ctx[CX_MUST_SHUFFLE] = 0
    ctx[CX_LASTTOK] = -1
    ctx[CX_LASTFOG] = -1
    ctx[CX_LBOOST] = 0
    ctx[CX_MOVED] = -1
    ctx[CX_GUESS] = -1
    for s in range(2):
        ctx[CX_SRC0 + s] = -1
        ctx[CX_SRCDMG0 + s] = 0
        ctx[CX_NDISC0 + s] = 0
        ctx[CX_CHOSEN0 + s] = 0
        ctx[CX_NCHOSEN0 + s] = 0
    used[:, :] = 0


@njit(cache=True)
def close_step(ctx, cards, card_info):
    """Checks at the end of an action/turn: nothing left half-done. Returns a code."""
    if ctx[CX_DOWN] >= 0:
        return E_DEFEAT
    if ctx[CX_CDMG] > 0:
        return E_COMBAT
    if ctx[CX_EXH_P] >= 0:
        if ctx[CX_EXH_MASK] != ctx[CX_EXH_WANT]:
            return E_EXHAUST
        ctx[CX_EXH_P] = -1
    if ctx[CX_LOOK] > 0:
        return E_CARD_FLOW          # fewer cards kept than the look_top effect says
    if ctx[CX_MUST_SHUFFLE] != 0:
        return E_CARD_FLOW          # took from the deck, but the scheme was not shuffled in
    if ctx[CX_MUSTPLACE] >= 0 or ctx[CX_RETDRAW] > 0:
        return E_REMOVE
    if ctx[CX_KOSAVE] != 0 and ctx[CX_OVER] == 0:
        return E_ABILITY            # a fighter_defeated ability without its closing line
    if ctx[CX_KIND] == A_SCHEME and ctx[CX_OVER] == 0:
        src = ctx[CX_SRC0]
        if 0 <= src < card_info.shape[0] and card_info[src, CI_ONGOING] != 0 and cards[ctx[CX_SP0], K_PEND, src] > 0:
            return E_ONGOING        # an ongoing scheme stays in play (Witcher rules, "Ongoing Schemes")
    return OK


@njit(cache=True)
def ref_is(r, ref, pl, me, side, ctx, xf):
    """Fighter ``r`` is the reference ``ref`` of a source of player ``pl``."""
    if ref == RF_SELF:
        return r == me
    if ref == RF_OPP:
        return side >= 0 and r == (ctx[CX_DEFF] if side == 0 else ctx[CX_ATT])
    return r // FIGHTERS_PER_PLAYER == pl and xf[r, XF_USED] != 0 and xf[r, XF_KIND] == ref


@njit(cache=True)
def cond_one(c, arg, neg, carg2, ctag, cref, pl, me, side, ctx, pos, hp, xf, card_info, cards, zmask):
    """One condition (code ``c`` and its fields ``arg``, ``carg2``, ``ctag``, ``cref``, negated
    when ``neg``) of a source of player ``pl`` (fighter ``me``, combat side ``side``): 1 holds,
    0 does not, -1 not evaluated by this test."""
    r = -1
    if c == CD_ALWAYS:
        r = 1
    elif c == CD_WON or c == CD_NOT_WON:
        won = ctx[CX_WON]
        if won < 0:
            r = 0                   # neither before the combat is decided
        else:
            mine = (won == 1) == (side == 0)
            r = 1 if (mine if c == CD_WON else not mine) else 0
    elif c == CD_HERO_HP_AT_MOST:
        h = pl * FIGHTERS_PER_PLAYER
        r = 1 if pos[h] >= 0 and hp[h] <= arg else 0
    elif c == CD_TAG_TIER:
        n = count_tagged(cards, card_info, pl, K_DISC, ctag)
        r = 1 if n >= arg and (carg2 == 0 or n < carg2) else 0
    elif c == CD_OPP_HP_AT_LEAST:
        o = -1 if side < 0 else (ctx[CX_DEFF] if side == 0 else ctx[CX_ATT])
        r = 1 if o >= 0 and hp[o] >= arg else 0
    elif c == CD_OPP_PRINTED_EQ or c == CD_OPP_PRINTED_AT_LEAST:
        oc = -1 if side < 0 else ctx[CX_SRC0 + 1 - side]
        if oc < 0:
            r = 0
        else:
            v = card_info[oc, CI_VALUE]
            r = 1 if (v == arg if c == CD_OPP_PRINTED_EQ else v >= arg) else 0
    elif c == CD_ATTACKED:
        r = 1 if ctx[CX_ATTACKED0 + pl] != 0 else 0
    elif c == CD_HAND_AT_LEAST:
        r = 1 if cards[pl, K_HAND, :].sum() >= arg else 0
    elif c == CD_KIND_IN_ZONE:
        r = 0
        for q in range(MAX_FIGHTERS):
            if pos[q] < 0 or not ref_is(q, cref, pl, me, side, ctx, xf):
                continue
            for k in range(FIGHTERS_PER_PLAYER):
                g = pl * FIGHTERS_PER_PLAYER + k
                if (g != q and pos[g] >= 0 and xf[g, XF_USED] != 0 and xf[g, XF_KIND] == carg2
                        and (zmask[pos[g]] & zmask[pos[q]]) != 0):
                    r = 1
    elif c == CD_TOOK_FROM_DECK:
        r = 1 if ctx[CX_TOOKDECK] != 0 else 0
    elif c == CD_COUNTER:
        role = cref
        if (role == 1 and side != 0) or (role == 2 and side != 1):
            r = 0
        else:
            eq = ctx[CX_CNT0 + pl * N_COUNTERS + arg] == carg2
            r = 1 if eq != (ctag != 0) else 0
    elif c == CD_ON_FOG:
        r = 1 if fog_at(ctx, pl, pos[pl * FIGHTERS_PER_PLAYER]) else 0
    elif c == CD_DISCARDED:
        # the source's own discard step (not, say, the other card's "your opponent discards")
        r = 1 if ctx[CX_NDISC0 + (side if side >= 0 else 0)] > 0 else 0
    elif c == CD_FIRST_ACTION:
        r = 1 if ctx[CX_ACTNO] == 1 else 0
    elif c == CD_KIND_DEFEATED or c == CD_KIND_ON_BOARD:
        # defeated: off the board at 0 health (a removed hero or a sidekick not yet summoned keeps its health)
        r = 0
        for k in range(FIGHTERS_PER_PLAYER):
            g = pl * FIGHTERS_PER_PLAYER + k
            if xf[g, XF_USED] != 0 and xf[g, XF_KIND] == cref:
                if (pos[g] >= 0) if c == CD_KIND_ON_BOARD else (pos[g] < 0 and hp[g] <= 0):
                    r = 1
    elif c == CD_NO_OPP_IN_ZONE or c == CD_AWAY_START:
        q = -1              # the fighter: for a kind, the first of the player's on the board
        for g in range(MAX_FIGHTERS):
            if q < 0 and pos[g] >= 0 and ref_is(g, cref, pl, me, side, ctx, xf):
                q = g
        if q < 0:
            r = 0
        elif c == CD_AWAY_START:
            s0 = ctx[CX_START0 + pl]
            r = 0 if (zmask[pos[q]] & zmask[s0]) != 0 else 1
        else:
            r = 1
            for g in range(MAX_FIGHTERS):
                if pos[g] >= 0 and xf[g, XF_USED] != 0 and team(g) != pl % 2 and (zmask[pos[g]] & zmask[pos[q]]) != 0:
                    r = 0
    if r >= 0 and neg != 0:
        r = 1 - r
    return r


@njit(cache=True)
def cond_eval(row, pl, me, side, ctx, pos, hp, xf, card_info, cards, zmask):
    """The ``if``/``unless`` of effect row ``row`` of a source of player ``pl`` (fighter
    ``me``, combat side ``side``): 1 holds, 0 does not, -1 not evaluated by this test. A row
    with two conditions (``EF_C2``: ``if = [a, b]``, ``if`` with ``unless``) holds when both
    do: 0 if either fails, -1 if one is not evaluated."""
    r = cond_one(row[EF_COND], row[EF_CONDARG], row[EF_NEG], row[EF_CARG2], row[EF_CTAG], row[EF_CREF], pl, me,
                 side, ctx, pos, hp, xf, card_info, cards, zmask)
    if row[EF_C2_COND] == CD_ALWAYS or r == 0:
        return r
    r2 = cond_one(row[EF_C2_COND], row[EF_C2_ARG], row[EF_C2_NEG], row[EF_C2_CARG2], row[EF_C2_CTAG],
                  row[EF_C2_CREF], pl, me, side, ctx, pos, hp, xf, card_info, cards, zmask)
    return 0 if r2 == 0 else -1 if (r < 0 or r2 < 0) else 1


@njit(cache=True)
def target_ok(row, g, pl, me, side, ctx, pos, xf, adj, zmask, ldist):
    """Fighter ``g`` (on the board) is one the effect row may affect."""
    if g < 0 or pos[g] < 0:
        return False
    if row[EF_SEL] == TS_OPPHERO:
        return g == (1 - pl) * FIGHTERS_PER_PLAYER
    if row[EF_SEL] == TS_MOVED:
        return ctx[CX_MOVED] < 0 or g == ctx[CX_MOVED]
    if row[EF_EXCLOPP] != 0 and side >= 0 and g == (ctx[CX_DEFF] if side == 0 else ctx[CX_ATT]):
        return False
    sel = row[EF_SEL]
    if sel == TS_SELF:
        return g == me
    if sel == TS_OPP:
        return side >= 0 and g == (ctx[CX_DEFF] if side == 0 else ctx[CX_ATT])
    if sel == TS_COMBATANT:
        return side >= 0 and (g == ctx[CX_ATT] or g == ctx[CX_DEFF])
    if sel == TS_KIND:
        return g // FIGHTERS_PER_PLAYER == pl and xf[g, XF_KIND] == row[EF_REF]
    if sel == TS_OWN:
        return g // FIGHTERS_PER_PLAYER == pl
    sd = row[EF_SIDE]
    if sd == SD_OWN and team(g) != pl % 2:
        return False
    if sd == SD_OPP and team(g) == pl % 2:
        return False
    if sel == TS_ALL:
        return True
    if sel == TS_PASSED:
        return (ctx[CX_PASSED] >> g) & 1 != 0
    if sel == TS_FOG:
        return fog_at(ctx, pl, pos[g])
    S = adj.shape[0]
    for r in range(MAX_FIGHTERS):
        if pos[r] < 0 or not ref_is(r, row[EF_REF], pl, me, side, ctx, xf):
            continue
        if row[EF_OTHER] != 0 and g == r:
            continue
        if sel == TS_ZONE:
            if (zmask[pos[r]] & zmask[pos[g]]) != 0:
                return True
        elif sel == TS_ADJ:
            if near(adj, pos[r], pos[g]):
                return True
        elif sel == TS_WITHIN:
            if ldist[pos[r], pos[g]] <= row[EF_RANGE]:
                return True
        elif sel == TS_SPACES:
            for s in range(S):
                if (zmask[s] & zmask[pos[r]]) != 0 and (s == pos[g] or near(adj, s, pos[g])):
                    return True
    return False


@njit(cache=True)
def row_live(row, slot, ctx, pos, hp, xf, card_info, cards, zmask):
    """Window, chosen option and condition of an effect row hold now (and the turn goes on)."""
    ph = ctx[CX_PHASE]
    if ctx[CX_ENDED] != 0 and ph != PH_EOT:
        return False                 # "end the turn": remaining effects do not happen (R57), the end of turn does
    w = row[EF_WIN]
    if not ((ph == PH_EARLY and w <= WN_DUR) or (ph >= PH_AFTER and w == ph)):
        return False
    if row[EF_OPT] > 0 and (ctx[CX_CHOSEN0 + slot] >> row[EF_OPT]) & 1 == 0:
        return False
    side = slot if ctx[CX_KIND] == A_ATTACK else -1
    return cond_eval(row, ctx[CX_SP0 + slot], ctx[CX_SF0 + slot], side, ctx, pos, hp, xf, card_info, cards,
                     zmask) != 0


@njit(cache=True)
def row_amount(row, slot, pl, g, ctx, pos, xf, adj, card_info, zmask):
    """The amount of a damage / recover row against fighter ``g``: EF_N times its "per"
    count, or -1 when this test does not work the count out (any amount then fits)."""
    px = row[EF_PER]
    if px == PX_NONE:
        return row[EF_N]
    side = slot if ctx[CX_KIND] == A_ATTACK else -1
    if px == PX_CDMG:
        return row[EF_N] * (ctx[CX_CDEALT] if side == 0 else 0)
    if px == PX_OPPPRINTED:
        oc = -1 if side < 0 else ctx[CX_SRC0 + 1 - side]
        return row[EF_N] * (card_info[oc, CI_VALUE] if oc >= 0 else 0)
    if px == PX_ZONES:
        for q in range(MAX_FIGHTERS):
            if pos[q] >= 0 and ref_is(q, row[EF_PARG], pl, ctx[CX_SF0 + slot], side, ctx, xf):
                z = zmask[pos[q]]
                n = 0
                for b in range(64):
                    n += (z >> b) & 1
                return row[EF_N] * n
        return 0
    if px == PX_LBOOST:
        return row[EF_N] * ctx[CX_LBOOST]
    if px == PX_SRCDMG:
        return row[EF_N] * ctx[CX_SRCDMG0 + slot]
    if px == PX_ADJMOVED:
        c = 0
        for k in range(FIGHTERS_PER_PLAYER):
            q = pl * FIGHTERS_PER_PLAYER + k
            if q != g and pos[q] >= 0 and xf[q, XF_USED] != 0 and xf[q, XF_KIND] == row[EF_PARG] \
                    and near(adj, pos[q], pos[g]):
                c += 1
        return row[EF_N] * c
    return -1
