"""Damage a scheme deals around a fighter, priced on the board: "N damage to one fighter next
to / in the zone of X" at its best target now (both AIs), and the one-currency AI's "N damage
to each fighter next to / in the zone of X" at the fighters there (after the placement the
step before allows: Pure Evil), instead of the static features' rule of thumb.
"""
from ..codes import (
    FS_IN_PLAY, IF_EXCLUDE_REF, IF_OTHER_SPACE, OP_BRANCH, OP_CHOOSE, OP_DAMAGE, OP_PLACE, PER_ONE, PL_ADJ,
    PL_ANY, PL_IN_ZONE, S_OPPOSING, S_OWN, SEL_EACH_ADJ, SEL_EACH_ZONE, SEL_ONE_ADJ, SEL_ONE_ZONE, SEL_REF,
)
from ..codes import W_SCHEME as WINDOW_SCHEME   # the scheme's program window (W_SCHEME here is a weight)
from ..control import CTL_CTX_OP, CTL_CTX_ROW, SCR_DESTS
from ..core import adjacent, allowed_spaces, n_slots, same_zone, team_of
from ..layout import (
    C_PROG, F_KIND, F_NOLEAVE, F_OWNER, F_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, fslot, I_AI_LIVE, I_COND, I_FLAGS, I_N,
    I_OP, I_PER, I_REF, I_SEL, I_SIDE, I_X, I_Y, MAX_SPACES,
)
from ..sigs import A1, B, CTL, F, I, jit, ST, TB
from .estimate import dmg_value
from .weights import board_ref, frozen, live_cond, NEG, scratch_i1, W_FX_SELF_DMG, wv


@jit(F(ST, TB, CTL, I, I, F))
def near_target_correction(st, tb, ctl, p, c, price):
    """For scheme ``c``'s unconditional "N damage to one fighter in the zone of / adjacent to
    X" steps, the best real target now instead of the static damage worth: returns the
    worth of the best fighter there (an opposing one, or the least harm to one of ours when
    only ours are there; 0 if none) minus the static worth, ``price`` per damage (A Momentary Glance: never at
    her own fighters when no opponent is in her zone; lethal when one is)."""
    d = 0.0
    s0 = tb.cards[c, C_PROG + 2 * WINDOW_SCHEME]
    for r in range(s0, s0 + tb.cards[c, C_PROG + 2 * WINDOW_SCHEME + 1]):
        sel = tb.code[r, I_SEL]
        if (tb.code[r, I_OP] != OP_DAMAGE or tb.code[r, I_COND] != 0 or tb.code[r, I_SIDE] == S_OWN
                or (sel != SEL_ONE_ZONE and sel != SEL_ONE_ADJ)):
            continue
        ref = tb.code[r, I_REF]
        kind = 0 if ref < 0 else ref
        x = -1
        for k in range(FIGHTERS_PER_PLAYER):
            g = p * FIGHTERS_PER_PLAYER + k
            if st[fslot(g, F_STATUS)] == FS_IN_PLAY and st[fslot(g, F_KIND)] == kind:
                x = g
                break
        if x < 0:
            continue
        xs = st[fslot(x, F_SPACE)]
        n = float(tb.code[r, I_N])
        best = NEG
        for t in range(n_slots(st)):
            if st[fslot(t, F_STATUS)] != FS_IN_PLAY:
                continue
            ts = st[fslot(t, F_SPACE)]
            near = (tb.zmask[xs] & tb.zmask[ts]) != 0 if sel == SEL_ONE_ZONE else tb.adj[xs, ts] != 0
            if not near:
                continue
            if tb.code[r, I_SIDE] == 0 or team_of(st, st[fslot(t, F_OWNER)]) != team_of(st, p):
                v = dmg_value(st, ctl, p, t, n)
                if v > best:
                    best = v
        d += (best if best > NEG else 0.0) - price * n
    return d


@jit(B(TB, I))
def is_area_damage(tb, r):
    """Step ``r`` deals damage, N once, to each fighter next to or in the zone of a fighter
    (Pure Evil, Prey Upon, Vanish into Murder; Child of the Elder Blood's Source tiers), with
    no condition or a live one (``I_AI_LIVE`` 1: checked as the card is scored): what it deals
    depends on the board."""
    sel = tb.code[r, I_SEL]
    return (tb.code[r, I_OP] == OP_DAMAGE and (tb.code[r, I_COND] == 0 or tb.code[r, I_AI_LIVE] == 1)
            and tb.code[r, I_PER] == PER_ONE and (sel == SEL_EACH_ADJ or sel == SEL_EACH_ZONE))


@jit(F(ST, TB, CTL, I, I, I, I))
def area_worth_at(st, tb, ctl, p, r, x, s):
    """Worth to player ``p`` (:func:`.estimate.dmg_value` per fighter hit, negative for ours)
    of area damage step ``r`` (:func:`is_area_damage`) around fighter ``x`` when ``x`` stands on
    space ``s`` (the other fighters where they are): the fighters next to / in the zone of
    ``s`` that its side filter allows, ``x`` itself only for a zone step without "other"."""
    sel = tb.code[r, I_SEL]
    side = tb.code[r, I_SIDE]
    n = float(tb.code[r, I_N])
    other = (tb.code[r, I_FLAGS] & IF_EXCLUDE_REF) != 0
    w = 0.0
    for t in range(n_slots(st)):
        if st[fslot(t, F_STATUS)] != FS_IN_PLAY or (t == x and other):
            continue
        mine = team_of(st, st[fslot(t, F_OWNER)]) == team_of(st, p)
        if (side == S_OWN and not mine) or (side == S_OPPOSING and mine):
            continue
        ts = s if t == x else st[fslot(t, F_SPACE)]
        if same_zone(tb, ts, s) if sel == SEL_EACH_ZONE else adjacent(tb, ts, s):
            w += dmg_value(st, ctl, p, t, n)
    return w


@jit(I(ST, TB, I, I, I, A1))
def area_spaces(st, tb, r, p, x, out):
    """Where fighter ``x`` may stand when area damage step ``r`` applies: the spaces the step
    before lets ``p`` place it on (a place step of ``x`` itself: Pure Evil's "placed in his
    zone, then 2 damage to each fighter next to him"), else its own space; into ``out``
    (length >= MAX_SPACES), returns how many."""
    if r > 0:
        pr = r - 1
        if (tb.code[pr, I_OP] == OP_PLACE and tb.code[pr, I_SEL] == SEL_REF
                and tb.code[pr, I_REF] == tb.code[r, I_REF] and tb.code[pr, I_COND] == 0
                and st[fslot(x, F_NOLEAVE)] == 0):
            where = tb.code[pr, I_X]
            if where == PL_ANY or where == PL_IN_ZONE or where == PL_ADJ:
                center = -1
                if where != PL_ANY:
                    y = board_ref(st, p, x, -1, tb.code[pr, I_Y])
                    if y < 0:
                        out[0] = st[fslot(x, F_SPACE)]
                        return 1
                    center = st[fslot(y, F_SPACE)]
                own = -1 if (tb.code[pr, I_FLAGS] & IF_OTHER_SPACE) != 0 else st[fslot(x, F_SPACE)]
                k = allowed_spaces(st, tb, where, center, own, out)
                if k > 0:
                    return k
    out[0] = st[fslot(x, F_SPACE)]
    return 1


@jit(F(ST, TB, CTL, I, I, I, F))
def area_damage_correction(st, tb, ctl, p, c, g, price):
    """One currency: for scheme ``c`` played by ``p``'s fighter ``g``, its area damage steps
    (:func:`is_area_damage`, outside "choose one" branches; a live one when its condition
    holds, which then counts it in full) priced on the board, the best of
    the spaces the step before may place the centre fighter on (:func:`area_spaces`; the AI
    then places it there, :func:`score_spaces`), minus their static price (release 0.2's
    rule of thumb in the card's features: opposing-only damage to 1.5 fighters, "any side"
    to one opposing fighter and half of one of ours, ``price`` per opposing damage)."""
    d = 0.0
    s0 = tb.cards[c, C_PROG + 2 * WINDOW_SCHEME]
    spaces = scratch_i1(ctl, SCR_DESTS, MAX_SPACES + 1)
    for r in range(s0, s0 + tb.cards[c, C_PROG + 2 * WINDOW_SCHEME + 1]):
        op = tb.code[r, I_OP]
        if op == OP_CHOOSE or op == OP_BRANCH:
            break   # (steps inside branches: counted by the rule of thumb)
        if not is_area_damage(tb, r) or (tb.code[r, I_COND] != 0 and not live_cond(st, tb, r, p, g, -1)):
            continue   # (a live step whose condition fails is priced at nothing already)
        x = board_ref(st, p, g, -1, tb.code[r, I_REF])
        if x < 0 or st[fslot(x, F_STATUS)] != FS_IN_PLAY:
            continue
        k = area_spaces(st, tb, r, p, x, spaces)
        best = NEG
        for j in range(k):
            best = max(best, area_worth_at(st, tb, ctl, p, r, x, spaces[j]))
        n = float(tb.code[r, I_N])
        side = tb.code[r, I_SIDE]
        if side == S_OWN:
            static = wv(ctl, p, W_FX_SELF_DMG) * n
        elif side == S_OPPOSING:
            static = price * 1.5 * n
        else:
            static = price * n + wv(ctl, p, W_FX_SELF_DMG) * 0.5 * n
        d += best - static
    return d


@jit(F(ST, TB, CTL, I, I, A1, I))
def area_place_worth(st, tb, ctl, p, g, opts, j):
    """One currency: when ``p`` places its own fighter ``g`` for a place step (``CTL_CTX_ROW``)
    followed by an area damage step around ``g`` (Pure Evil), what that damage is worth with
    ``g`` on space ``opts[j]`` (:func:`area_worth_at`); 0 otherwise."""
    r = ctl[CTL_CTX_ROW]
    if (ctl[CTL_CTX_OP] != OP_PLACE or r < 0 or r + 1 >= tb.code.shape[0] or frozen(ctl, p)
            or not is_area_damage(tb, r + 1) or tb.code[r + 1, I_REF] != tb.code[r, I_REF]):
        return 0.0
    return area_worth_at(st, tb, ctl, p, r + 1, g, opts[j])
