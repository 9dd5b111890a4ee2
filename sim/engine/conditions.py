"""Conditions of effect steps: whether a step's condition (``CN_*``) holds now.

Shared by the effect interpreter (:mod:`sim.engine.effects`), which checks a
step's condition before running it, and the scripted AI (:mod:`sim.engine.ai`),
which checks the conditions that do not depend on a combat in progress (see
:data:`LIVE_CONDITIONS`) to score a card as it would play now. The condition
vocabulary is documented in ``heroes/README.md``.
"""
from .sigs import B, I, INS, ST, TB, jit

from .codes import (  # noqa: F401  (re-exported: callers outside the engine import them from here)
    CN_ADJACENT, CN_ALWAYS, CN_ATTACKED, CN_ATTACKING, CN_COUNTER_EQ, CN_COUNTER_NE, CN_DEALT_DAMAGE,
    CN_DEFEATED_ANY, CN_DEFENDING, CN_DISCARDED, CN_FIRST_ACTION, CN_HAND_AT_LEAST, CN_HERO_ATTACKED,
    CN_HERO_HP_AT_MOST, CN_KIND_IN_ZONE_OF, CN_LEFT_SPACE, CN_NOT_WON, CN_NOTHING_TO_DISCARD, CN_ON_FOG,
    CN_OPP_HP_AT_LEAST, CN_OPP_PRINTED_AT_LEAST, CN_OPP_PRINTED_EQ, CN_OPPOSING_IS_HERO, CN_PREDICTED,
    CN_STARTED_ELSEWHERE, CN_STARTED_ON_FOG, CN_TAG_TIER, CN_TOOK_FROM_DECK, CN_WON, FS_IN_PLAY,
    GF_TOOK_FROM_DECK, IF_NEGATE, PILE_DISC, REF_OPPOSING, REF_SELF,
    CN_AWAY_FROM_START, CN_DISC_TOP_AT_LEAST, CN_DISC_TOP_TYPE, CN_KIND_DEFEATED, CN_KIND_ON_BOARD,
    CN_NO_OPP_IN_ZONE, CT_SCHEME, FS_DEFEATED,
)
from .core import adjacent, count_tag_in_pile, fog_space, hero_of, n_slots, pile_base, same_zone, team_of
from .layout import (
    C_TYPE, C_VALUE, CB_ATT_F, CB_CARD0, CB_DEF_F, CB_GUESS0, CB_PRINTED0, CB_WON, F_HP, F_KIND, F_LEFT,
    F_OWNER, F_SPACE, F_START_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, fslot, G_ACTION_NO, G_FLAGS, G_LAST_DISC,
    G_LAST_DMG, G_LAST_KO, I_CA, I_CB, I_COND, I_CREF, I_CTAG, I_FLAGS, OFF_CB, P_ATTACKED, P_COUNTER0,
    P_DISCN, P_HANDN, P_HERO_ATTACKED, P_START_FOG, pslot,
)


# REF >= 0: your fighter of kind REF (0 = hero)


LIVE_CONDITIONS = (CN_COUNTER_EQ, CN_COUNTER_NE, CN_HERO_HP_AT_MOST, CN_TAG_TIER, CN_ON_FOG, CN_STARTED_ON_FOG,
                   CN_HAND_AT_LEAST, CN_FIRST_ACTION, CN_ATTACKED, CN_HERO_ATTACKED, CN_STARTED_ELSEWHERE,
                   CN_LEFT_SPACE, CN_KIND_DEFEATED, CN_KIND_ON_BOARD, CN_NO_OPP_IN_ZONE, CN_DISC_TOP_AT_LEAST,
                   CN_DISC_TOP_TYPE, CN_AWAY_FROM_START)
"""Conditions that read only the board, piles and turn state, not a combat in progress:
the AI checks them when it scores a card (``sim.engine.ai.live_cond``, a call-free copy
of :func:`cond_ok` for these; a test keeps the two in agreement)."""


@jit(I(ST, I, I, I, I))
def resolve_ref(st, p, f, side, ref):
    """Fighter slot a reference code points at, or -1 if none is in play."""
    if ref == REF_SELF:
        return f
    if ref == REF_OPPOSING:
        if side < 0:
            return -1
        g = st[OFF_CB + (CB_DEF_F if side == 0 else CB_ATT_F)]
        return g
    for k in range(FIGHTERS_PER_PLAYER):
        g = p * FIGHTERS_PER_PLAYER + k
        if st[fslot(g, F_STATUS)] == FS_IN_PLAY and st[fslot(g, F_KIND)] == ref:
            return g
    return -1


@jit(I(ST, I))
def opp_card(st, side):
    if side < 0:
        return -1
    return st[OFF_CB + CB_CARD0 + (1 - side)]


@jit(B(ST, TB, INS, I, I, I))
def cond_base(st, tb, ins, p, f, side):
    c = ins[I_COND]
    if c == CN_ALWAYS:
        return True
    if c == CN_WON or c == CN_NOT_WON:
        w = st[OFF_CB + CB_WON]
        won = (w == 1 and side == 0) or (w == 0 and side == 1)
        return won if c == CN_WON else not won
    if c == CN_COUNTER_EQ or c == CN_COUNTER_NE:
        role = ins[I_CREF]          # 0 any, 1 only when attacking, 2 only when defending
        if (role == 1 and side != 0) or (role == 2 and side != 1):
            return False
        eq = st[pslot(p, P_COUNTER0 + ins[I_CA])] == ins[I_CB]
        return eq if c == CN_COUNTER_EQ else not eq
    if c == CN_OPPOSING_IS_HERO:
        o = resolve_ref(st, p, f, side, REF_OPPOSING)
        return o >= 0 and st[fslot(o, F_KIND)] == 0
    if c == CN_STARTED_ELSEWHERE:
        return f >= 0 and st[fslot(f, F_START_SPACE)] != st[fslot(f, F_SPACE)]
    if c == CN_HERO_HP_AT_MOST:
        h = hero_of(p)
        return st[fslot(h, F_STATUS)] == FS_IN_PLAY and st[fslot(h, F_HP)] <= ins[I_CA]
    if c == CN_ATTACKING:
        return side == 0
    if c == CN_DEFENDING:
        return side == 1
    if c == CN_OPP_PRINTED_AT_LEAST or c == CN_OPP_PRINTED_EQ:
        oc = opp_card(st, side)
        if oc < 0:
            return False
        v = st[OFF_CB + CB_PRINTED0 + (1 - side)]
        return v >= ins[I_CA] if c == CN_OPP_PRINTED_AT_LEAST else v == ins[I_CA]
    if c == CN_OPP_HP_AT_LEAST:
        o = resolve_ref(st, p, f, side, REF_OPPOSING)
        return o >= 0 and st[fslot(o, F_HP)] >= ins[I_CA]
    if c == CN_TAG_TIER:
        n = count_tag_in_pile(st, tb, PILE_DISC, p, ins[I_CTAG])
        return n >= ins[I_CA] and (ins[I_CB] == 0 or n < ins[I_CB])
    if c == CN_ADJACENT:
        a = resolve_ref(st, p, f, side, ins[I_CREF])
        b = resolve_ref(st, p, f, side, ins[I_CA])
        return a >= 0 and b >= 0 and adjacent(tb, st[fslot(a, F_SPACE)], st[fslot(b, F_SPACE)])
    if c == CN_ATTACKED:
        return st[pslot(p, P_ATTACKED)] != 0
    if c == CN_HERO_ATTACKED:
        return st[pslot(p, P_HERO_ATTACKED)] != 0
    if c == CN_LEFT_SPACE:
        return f >= 0 and st[fslot(f, F_LEFT)] != 0
    if c == CN_HAND_AT_LEAST:
        return st[pslot(p, P_HANDN)] >= ins[I_CA]
    if c == CN_KIND_IN_ZONE_OF:
        r = resolve_ref(st, p, f, side, ins[I_CA])
        if r < 0 or st[fslot(r, F_STATUS)] != FS_IN_PLAY:
            return False
        for k in range(FIGHTERS_PER_PLAYER):
            g = p * FIGHTERS_PER_PLAYER + k
            if (g != r and st[fslot(g, F_STATUS)] == FS_IN_PLAY and st[fslot(g, F_KIND)] == ins[I_CREF]
                    and same_zone(tb, st[fslot(g, F_SPACE)], st[fslot(r, F_SPACE)])):
                return True
        return False
    if c == CN_TOOK_FROM_DECK:
        return (st[G_FLAGS] & GF_TOOK_FROM_DECK) != 0
    if c == CN_DEFEATED_ANY:
        return st[G_LAST_KO] > 0
    if c == CN_DEALT_DAMAGE:
        return st[G_LAST_DMG] > 0
    if c == CN_ON_FOG:
        h = hero_of(p)
        return st[fslot(h, F_STATUS)] == FS_IN_PLAY and fog_space(st, p, st[fslot(h, F_SPACE)])
    if c == CN_STARTED_ON_FOG:
        return st[pslot(p, P_START_FOG)] != 0
    if c == CN_PREDICTED:
        if side < 0 or opp_card(st, side) < 0:
            return False
        g = st[OFF_CB + CB_GUESS0 + side]
        return g > 0 and g - 1 == st[OFF_CB + CB_PRINTED0 + 1 - side]
    if c == CN_DISCARDED:
        return st[G_LAST_DISC] > 0
    if c == CN_NOTHING_TO_DISCARD:
        # no card the last discard step could take (none of the named value); a discard refused
        # with Tawny Owl (-1) is not this (case R68)
        return st[G_LAST_DISC] == 0
    if c == CN_FIRST_ACTION:
        return st[G_ACTION_NO] == 1
    if c == CN_KIND_DEFEATED or c == CN_KIND_ON_BOARD:
        # any one of your fighters of that kind (a sidekick group: at least one of them)
        want = FS_DEFEATED if c == CN_KIND_DEFEATED else FS_IN_PLAY
        for k in range(FIGHTERS_PER_PLAYER):
            g = p * FIGHTERS_PER_PLAYER + k
            if st[fslot(g, F_STATUS)] == want and st[fslot(g, F_KIND)] == ins[I_CREF]:
                return True
        return False
    if c == CN_NO_OPP_IN_ZONE:
        r = resolve_ref(st, p, f, side, ins[I_CREF])
        if r < 0 or st[fslot(r, F_STATUS)] != FS_IN_PLAY:
            return False        # no fighter, no zone: the condition does not hold
        for g in range(n_slots(st)):
            if (st[fslot(g, F_STATUS)] == FS_IN_PLAY and team_of(st, st[fslot(g, F_OWNER)]) != team_of(st, p)
                    and same_zone(tb, st[fslot(g, F_SPACE)], st[fslot(r, F_SPACE)])):
                return False
        return True
    if c == CN_DISC_TOP_AT_LEAST or c == CN_DISC_TOP_TYPE:
        n = st[pslot(p, P_DISCN)]
        if n == 0:
            return False        # an empty discard pile has no top card
        top = st[pile_base(PILE_DISC, p) + n - 1]
        if c == CN_DISC_TOP_TYPE:
            return tb.cards[top, C_TYPE] == ins[I_CA]
        return tb.cards[top, C_TYPE] != CT_SCHEME and tb.cards[top, C_VALUE] >= ins[I_CA]
    if c == CN_AWAY_FROM_START:
        r = resolve_ref(st, p, f, side, ins[I_CREF])
        return (r >= 0 and st[fslot(r, F_STATUS)] == FS_IN_PLAY
                and not same_zone(tb, st[fslot(r, F_SPACE)], tb.starts[p]))
    return False


@jit(B(ST, TB, INS, I, I, I))
def cond_ok(st, tb, ins, p, f, side):
    """True if the condition of instruction row ``ins`` holds (negated by IF_NEGATE)."""
    r = cond_base(st, tb, ins, p, f, side)
    return (not r) if (ins[I_FLAGS] & IF_NEGATE) != 0 else r
