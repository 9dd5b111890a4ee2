"""Steps priced on the board for the choices made inside a card's effects: damage to one
fighter next to / in the zone of X at its best target, recovery at the health its fighter is
missing, and the one-currency AI's worth of each option of a "choose" (its steps summed), so
that an option is picked by what it does now and not by its place in the list.
"""
from ..codes import (
    FS_IN_PLAY, IF_OTHER_SPACE, OP_BRANCH, OP_CHOOSE, OP_DAMAGE, OP_PLACE, OP_RECOVER, PL_ANY, S_ANY, S_OWN,
    SEL_ONE_ADJ, SEL_ONE_ZONE, SEL_REF,
)
from ..control import SCR_DESTS, SCR_SPACES, SCR_SPACES_EF
from ..core import allowed_spaces, n_slots, team_of
from ..layout import (
    AI_DMG, F_HP, F_KIND, F_MAXHP, F_OWNER, F_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, fslot, G_ACTIONS, G_ACTIVE,
    G_NPLAYERS, I_AI0, I_COND, I_FLAGS, I_N, I_OP, I_REF, I_SEL, I_SIDE, I_X, MAX_FIGHTERS, MAX_SPACES,
)
from ..sigs import CTL, F, I, jit, ST, TB
from .estimate import dmg_value, team_pos_bonus
from .position import cached_follow_up, enemy_facts, pos_score
from .weights import (
    board_ref, fx_row, NEG, scratch_f2, scratch_i1, W_DMG_HERO, W_HP_LOW, W_HP_OWN, W_HP_SK, wv,
)


@jit(F(ST, TB, CTL, I, I, I))
def damage_row_worth(st, tb, ctl, p, g, r):
    """For step ``r`` of player ``p``'s program played by ``p``'s fighter ``g`` (-1: not
    known), "N damage to one fighter next to / in the zone of X": the worth (:func:`.estimate.dmg_value`) of its best target now, the one
    ``choices.score_targets`` picks (negative when only ``p``'s own fighters are there);
    NEG for other steps, when X is not in play (or is ``g`` not known), or when no fighter
    is there."""
    if r < 0 or r >= tb.code.shape[0] or tb.code[r, I_OP] != OP_DAMAGE:
        return NEG
    sel = tb.code[r, I_SEL]
    if sel != SEL_ONE_ADJ and sel != SEL_ONE_ZONE:
        return NEG
    x = board_ref(st, p, g, -1, tb.code[r, I_REF])
    if x < 0:
        return NEG
    xs = st[fslot(x, F_SPACE)]
    side = tb.code[r, I_SIDE]
    best = NEG
    for t in range(n_slots(st)):
        if t == x or st[fslot(t, F_STATUS)] != FS_IN_PLAY:
            continue
        ts = st[fslot(t, F_SPACE)]
        near = (tb.zmask[xs] & tb.zmask[ts]) != 0 if sel == SEL_ONE_ZONE else tb.adj[xs, ts] != 0
        mine = team_of(st, st[fslot(t, F_OWNER)]) == team_of(st, p)
        if near and (side == S_ANY or (side == S_OWN) == mine):
            best = max(best, dmg_value(st, ctl, p, t, float(tb.code[r, I_N])))
    return best


@jit(F(ST, TB, CTL, I, I, I))
def recover_row_worth(st, tb, ctl, p, g, r):
    """Worth to player ``p`` of step ``r`` played by ``p``'s fighter ``g`` (-1: not known),
    "recover N" for one of ``p``'s fighters (the one the step names; otherwise ``p``'s hero): N capped at the health that fighter is missing
    now, at the health price of ``.estimate.dmg_value`` (``hp_own`` and ``hp_own_low`` for
    the hero, ``hp_sidekick`` for a sidekick). 0 when nothing is missing."""
    t = board_ref(st, p, g, -1, tb.code[r, I_REF]) if tb.code[r, I_SEL] == SEL_REF else -1
    if t < 0:
        t = p * FIGHTERS_PER_PLAYER
    if st[fslot(t, F_STATUS)] != FS_IN_PLAY:
        return 0.0
    hp = st[fslot(t, F_HP)]
    mx = st[fslot(t, F_MAXHP)]
    k = min(tb.code[r, I_N], mx - hp)
    if k <= 0:
        return 0.0
    if st[fslot(t, F_KIND)] != 0:
        return k * wv(ctl, p, W_HP_SK)
    low = 1.0 - hp / mx if mx > 0 else 0.0
    return k * (wv(ctl, p, W_HP_OWN) + wv(ctl, p, W_HP_LOW) * low)


@jit(F(ST, TB, CTL, I, I, I))
def place_row_worth(st, tb, ctl, p, f, r):
    """For step ``r`` played by ``p``'s fighter ``f`` (-1: not known), "place one of ``p``'s fighters on any (other) empty space": the best
    position score (:func:`.position.pos_score`) it can be placed at, minus the score where it
    stands now (Looking Glass: away from the attacker when that is worth it); NEG for other
    steps (a placement in a zone or next to a fighter keeps its static features)."""
    if tb.code[r, I_OP] != OP_PLACE or tb.code[r, I_X] != PL_ANY or tb.code[r, I_SEL] != SEL_REF:
        return NEG
    g = board_ref(st, p, f, -1, tb.code[r, I_REF])
    if g < 0 or team_of(st, st[fslot(g, F_OWNER)]) != team_of(st, p):
        return NEG
    cur = st[fslot(g, F_SPACE)]
    out = scratch_i1(ctl, SCR_DESTS, MAX_SPACES)
    k = allowed_spaces(st, tb, PL_ANY, cur, -1 if (tb.code[r, I_FLAGS] & IF_OTHER_SPACE) != 0 else cur, out)
    if k == 0:
        return 0.0
    now = st[G_ACTIONS] > 0 and st[G_ACTIVE] == p
    fu = scratch_f2(ctl, SCR_SPACES, MAX_FIGHTERS, MAX_FIGHTERS)
    if now:
        cached_follow_up(st, tb, ctl, p, fu)
    ef = scratch_f2(ctl, SCR_SPACES_EF, MAX_FIGHTERS, 6)
    ne = enemy_facts(st, ctl, p, team_of(st, p), ef)
    team = st[G_NPLAYERS] > 2
    best = NEG
    base = 0.0
    for i in range(-1, k):
        s = cur if i < 0 else out[i]
        v = pos_score(st, tb, ctl, p, g, s, now, fu, ef, ne)
        if team:
            v += team_pos_bonus(st, tb, ctl, p, g, s)
        if i < 0:
            base = v
        elif v > best:
            best = v
    return best - base


@jit(F(ST, TB, CTL, I, I, I, I))
def branch_worth(st, tb, ctl, p, g, s, n):
    """What the steps ``s .. s + n - 1`` of player ``p``'s program played by ``p``'s fighter
    ``g`` (-1: not known; "self" in a step is ``g``), one option of a "choose", are worth to ``p`` now, in points: damage to one fighter near X at its best target
    (:func:`damage_row_worth`; 0 when none is there), recovery at the missing health
    (:func:`recover_row_worth`), a placement on any space at its best space
    (:func:`place_row_worth`; both unconditional steps), and any other step at its static
    features (``weights.fx_row``; damage at ``dmg_hero`` a point). A "choose" nested inside
    counts none of its options."""
    v = 0.0
    r = s
    while r < s + n:
        op = tb.code[r, I_OP]
        if op == OP_CHOOSE:      # skip the nested choice's branches
            j = r + 1
            for _ in range(tb.code[r, I_X]):
                j += 1 + tb.code[j, I_X]
            r = j
            continue
        if op == OP_BRANCH:
            r += 1
            continue
        sel = tb.code[r, I_SEL]
        if op == OP_DAMAGE and (sel == SEL_ONE_ADJ or sel == SEL_ONE_ZONE):
            w = damage_row_worth(st, tb, ctl, p, g, r)
            if w > NEG:
                v += w
        elif op == OP_RECOVER and tb.code[r, I_COND] == 0:
            v += recover_row_worth(st, tb, ctl, p, g, r)
        else:
            w = place_row_worth(st, tb, ctl, p, g, r) if op == OP_PLACE and tb.code[r, I_COND] == 0 else NEG
            if w > NEG:
                v += w
            else:
                v += fx_row(tb, ctl, p, r) + 0.01 * tb.code[r, I_AI0 + AI_DMG] * wv(ctl, p, W_DMG_HERO)
        r += 1
    return v


@jit(F(ST, TB, CTL, I, I, I, I))
def option_worth(st, tb, ctl, p, g, row, k):
    """:func:`branch_worth` of option ``k`` (0-based) of the "choose" step at ``row`` played by
    ``p``'s fighter ``g``; 0 when
    ``row`` is not a "choose" or has no option ``k``."""
    if row < 0 or row >= tb.code.shape[0] or tb.code[row, I_OP] != OP_CHOOSE or k >= tb.code[row, I_X]:
        return 0.0
    j = row + 1
    for _ in range(k):
        j += 1 + tb.code[j, I_X]
    return branch_worth(st, tb, ctl, p, g, j + 1, tb.code[j, I_X])
