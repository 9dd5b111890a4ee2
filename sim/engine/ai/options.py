"""Steps priced on the board for the choices made inside a card's effects: damage to one
fighter next to / in the zone of X at its best target, recovery at the health its fighter is
missing, damage to your own fighters at what that health costs, a discard from your own hand at
the keep worth of the cards it takes, and the one-currency AI's worth of each option of a
"choose" (its steps summed), so that an option is picked by what it does now and not by its
place in the list; and what the steps that hang on a step's result ("discarded",
"dealt_damage") are worth, for a "may" on that step.
"""
from ..codes import (
    FS_IN_PLAY, IF_NEGATE, IF_OTHER_SPACE, IF_RANDOM, IF_YOU_CHOOSE, OP_BRANCH, OP_CHOOSE, OP_DAMAGE, OP_DISCARD,
    OP_NOP, OP_PLACE, OP_RECOVER, PER_ONE, PILE_HAND, PL_ANY, S_ANY, S_OWN, SEL_EACH_KIND, SEL_EACH_OWN, SEL_ONE_ADJ,
    SEL_ONE_ZONE, SEL_OPP_HERO, SEL_REF,
)
from ..control import SCR_DESTS, SCR_SPACES, SCR_SPACES_EF
from ..core import allowed_spaces, n_slots, pile_base, team_of
from ..layout import (
    AI_DMG, F_HP, F_KIND, F_MAXHP, F_OWNER, F_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, fslot, G_ACTIONS, G_ACTIVE,
    G_NPLAYERS, I_AI0, I_COND, I_FLAGS, I_N, I_OP, I_PER, I_REF, I_SEL, I_SIDE, I_X, MAX_FIGHTERS, MAX_SPACES,
    P_HANDN, pslot,
)
from ..sigs import CTL, F, I, jit, ST, TB
from .estimate import dmg_value, team_pos_bonus
from .position import cached_follow_up, enemy_facts, pos_score
from .weights import (
    board_ref, fx_row, keep_worth, NEG, scratch_f2, scratch_i1, W_DMG_HERO, W_HP_LOW, W_HP_OWN, W_HP_SK, wv,
)


@jit(I(TB, I, I))
def past_options(tb, row, k):
    """The row of option ``k`` (0-based) of the "choose" at ``row`` (its ``OP_BRANCH`` header);
    with ``k`` its number of options, the row after the whole step."""
    j = row + 1
    for _ in range(k):
        j += 1 + tb.code[j, I_X]
    return j


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


@jit(F(ST, TB, CTL, I, I, I))
def known_damage_worth(st, tb, ctl, p, g, r):
    """For step ``r`` of player ``p``'s program played by ``p``'s fighter ``g`` (-1: not
    known), N damage (no ``per``) to fighters known now: ``p``'s own (``"self"``, a fighter of
    ours by name, each of ours or of a kind) at what that health costs
    (:func:`.estimate.dmg_value`, negative; the hero's last health at ``win``), or the opponent's
    hero in a duel (``"opponent_hero"``) at what it is worth; NEG for other steps and when the
    target is not known."""
    if tb.code[r, I_OP] != OP_DAMAGE or tb.code[r, I_PER] != PER_ONE:
        return NEG
    sel = tb.code[r, I_SEL]
    n = float(tb.code[r, I_N])
    if sel == SEL_OPP_HERO:
        t = (1 - p) * FIGHTERS_PER_PLAYER
        if st[G_NPLAYERS] > 2 or st[fslot(t, F_STATUS)] != FS_IN_PLAY:
            return NEG
        return dmg_value(st, ctl, p, t, n)
    if sel == SEL_REF:
        t = board_ref(st, p, g, -1, tb.code[r, I_REF])
        if t < 0 or team_of(st, st[fslot(t, F_OWNER)]) != team_of(st, p):
            return NEG
        return dmg_value(st, ctl, p, t, n)
    if sel != SEL_EACH_OWN and sel != SEL_EACH_KIND:
        return NEG
    v = 0.0
    for k in range(FIGHTERS_PER_PLAYER):
        t = p * FIGHTERS_PER_PLAYER + k
        if st[fslot(t, F_STATUS)] == FS_IN_PLAY and (sel == SEL_EACH_OWN or st[fslot(t, F_KIND)] == tb.code[r, I_REF]):
            v += dmg_value(st, ctl, p, t, n)
    return v


@jit(F(ST, TB, CTL, I, I))
def discard_cost(st, tb, ctl, q, r):
    """What discarding step ``r`` costs player ``q`` when the cards come from ``q``'s own hand:
    the keep worth (:func:`.weights.keep_worth`) of the cards it takes, N times the cheapest
    card in hand (``q`` picks: ``choices.score_hand_cards`` discards the least worth), the
    dearest (the other player picks), or the mean (at random); 0 with an empty hand."""
    hn = st[pslot(q, P_HANDN)]
    if hn == 0:
        return 0.0
    hb = pile_base(PILE_HAND, q)
    lo = keep_worth(tb, ctl, q, st[hb])
    hi = lo
    tot = 0.0
    for i in range(hn):
        w = keep_worth(tb, ctl, q, st[hb + i])
        lo = min(lo, w)
        hi = max(hi, w)
        tot += w
    fl = tb.code[r, I_FLAGS]
    one = tot / hn if (fl & IF_RANDOM) != 0 else (hi if (fl & IF_YOU_CHOOSE) != 0 else lo)
    return min(tb.code[r, I_N], hn) * one


@jit(F(ST, TB, CTL, I, I, I, I, I))
def hanging_worth(st, tb, ctl, p, g, r, end, cond):
    """What the steps after step ``r`` (up to row ``end``, exclusive: its window) that hang on
    condition ``cond`` (``CN_DISCARDED``, ``CN_DEALT_DAMAGE``: what step ``r`` did) are worth
    to player ``p`` (the program's, fighter ``g``) now: a step with ``if = cond`` (on its row or
    a guard) adds its :func:`branch_worth`, one with ``unless = cond`` takes it off (doing step
    ``r`` spares it). Steps inside a later "choose" are not counted."""
    v = 0.0
    j = r + 1
    while j < end:
        op = tb.code[j, I_OP]
        if op == OP_CHOOSE:
            j = past_options(tb, j, tb.code[j, I_X])
            continue
        n = tb.code[j, I_X] if op == OP_NOP else 0   # (a guard: the step's further rows)
        if tb.code[j, I_COND] == cond:
            w = branch_worth(st, tb, ctl, p, g, j + 1, n) if op == OP_NOP else branch_worth(st, tb, ctl, p, g, j, 1)
            v += -w if (tb.code[j, I_FLAGS] & IF_NEGATE) != 0 else w
        j += 1 + n
    return v


@jit(F(ST, TB, CTL, I, I, I, I))
def branch_worth(st, tb, ctl, p, g, s, n):
    """What the steps ``s .. s + n - 1`` of player ``p``'s program played by ``p``'s fighter
    ``g`` (-1: not known; "self" in a step is ``g``), one option of a "choose", are worth to ``p`` now, in points: damage to one fighter near X at its best target
    (:func:`damage_row_worth`; 0 when none is there), recovery at the missing health
    (:func:`recover_row_worth`), a placement on any space at its best space
    (:func:`place_row_worth`; both unconditional steps), damage to our own fighters at what
    that health costs and to the opponent's hero at what it is worth
    (:func:`known_damage_worth`), a discard from our own hand at the keep worth of the cards
    it takes (:func:`discard_cost`), and any other step at its static
    features (``weights.fx_row``; damage at ``dmg_hero`` a point). A "choose" nested inside
    counts none of its options."""
    v = 0.0
    r = s
    while r < s + n:
        op = tb.code[r, I_OP]
        if op == OP_CHOOSE:      # skip the nested choice's branches
            r = past_options(tb, r, tb.code[r, I_X])
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
        elif op == OP_DAMAGE and known_damage_worth(st, tb, ctl, p, g, r) > NEG:
            v += known_damage_worth(st, tb, ctl, p, g, r)
        elif op == OP_DISCARD and tb.code[r, I_SIDE] == S_OWN:
            v -= discard_cost(st, tb, ctl, p, r)
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
    j = past_options(tb, row, k)
    return branch_worth(st, tb, ctl, p, g, j + 1, tb.code[j, I_X])
