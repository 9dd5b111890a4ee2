"""Who an effect step acts on: the opponent, "per" counts, target selectors and the
checks and choices shared by the effect steps (may, a card from a hand, passives).

Used by the effect interpreter (:mod:`sim.engine.effects`) and the rules.
"""
import numpy as np
from numba import types

from .sigs import A1, B, CTL, I, INS, jit, ST, stack_i64, TB
from .codes import (
    D_MAY, D_OPPONENT, D_TARGET, FS_IN_PLAY, IF_EXCLUDE_OPP, IF_EXCLUDE_REF, IF_MAY, OP_MOVE,
    PER_ADJ_TO_SELF, PER_DAMAGE_TAKEN,
    PER_DISCARD_TAG, PER_KIND_ADJ_MOVED, PER_KIND_IN_ZONE_OF_OPPOSING, PER_LAST_BOOST, PER_LAST_DAMAGE,
    PER_ONE, PER_OPP_BOOST, PER_OWN_ADJ_OPPOSING, PILE_DISC, PILE_HAND, PV_NO_OPPONENT_ACTIONS,
    REF_OPPOSING, S_ANY, S_OWN, SEL_EACH_ADJ, SEL_EACH_FOG, SEL_EACH_KIND, SEL_EACH_OWN, SEL_EACH_PASSED,
    SEL_EACH_ZONE, SEL_MOVED, SEL_ONE_ADJ, SEL_ONE_ANY, SEL_ONE_COMBATANT, SEL_ONE_PASSED, SEL_ONE_WITHIN, SEL_ONE_ZONE,
    SEL_OPP_HERO, SEL_REF, TAG_UNCANCELABLE, PER_COMBAT_DAMAGE, PER_OPP_PRINTED, PER_ZONES,
)
from .ops import OPS
from .core import add_unique, adjacent, count_tag_in_pile, fog_space, hero_of, n_slots, pile_base, same_zone, team_of
from .layout import (
    C_BOOST, C_PASSIVE, C_TAGS, CARD_OPTS, CB_ATT_F, CB_ATT_P, CB_CARD0, CB_DEF_F, CB_DMG, CB_PRINTED0, F_KIND,
    F_OWNER, F_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, fslot, G_LAST_BOOST, G_LAST_DMG, G_MOVED, G_NPLAYERS,
    G_OPPONENT, G_PASSED, H_PROTECT_N, H_PROTECT_TAG, I_FLAGS, I_OP, I_RANGE, I_REF, I_SEL, I_SIDE,
    MAX_FIGHTERS, MAX_PLAYERS, OFF_CB, P_HANDN, P_HERO, P_ONGOING, pslot,
)
from .policy import CTL_CTX_F, CTL_CTX_OWNER, decide
from .conditions import resolve_ref


@jit(I(ST, I, I))
def opponent_player(st, p, side):
    """The opponent of player ``p``: in combat the opposing fighter's owner; outside a
    combat, in a team game, the opposing player chosen for the card being resolved
    (:func:`choose_opponent`), else the first opposing player who is not dormant."""
    if side >= 0:
        g = st[OFF_CB + (CB_DEF_F if side == 0 else CB_ATT_F)]
        return st[fslot(g, F_OWNER)]
    if st[G_NPLAYERS] > 2 and st[G_OPPONENT] >= 0 and team_of(st, st[G_OPPONENT]) != team_of(st, p):
        return st[G_OPPONENT]
    t = team_of(st, p)
    for q in range(st[G_NPLAYERS]):
        if team_of(st, q) != t:
            for k in range(FIGHTERS_PER_PLAYER):   # a dormant player is not "an opponent" (R48)
                if st[fslot(q * FIGHTERS_PER_PLAYER + k, F_STATUS)] == FS_IN_PLAY:
                    return q
    return -1


@jit(I(ST, TB, CTL, I, I))
def choose_opponent(st, tb, ctl, p, side):
    """The player "your opponent" / "the opponent" means for player ``p``'s effect step.

    In a combat (``side`` >= 0) it is the owner of the opposing fighter. Outside a combat in
    a duel it is the other player. Outside a combat in a team game (project decision, the
    rules documents are silent): ``p`` chooses one opposing player who is not dormant
    (case R48: a dormant player cannot be chosen as an opponent), asked as a ``D_OPPONENT``
    decision only when there are two to choose from; the choice holds for the rest of the
    card or ability being resolved (``G_OPPONENT``), so "your opponent names ..., then
    discards ..." is one player. Returns -1 if no opposing player can be chosen.
    """
    if side >= 0 or st[G_NPLAYERS] <= 2:
        return opponent_player(st, p, side)
    t = team_of(st, p)
    if st[G_OPPONENT] >= 0 and team_of(st, st[G_OPPONENT]) != t:
        return st[G_OPPONENT]
    opts = stack_i64(MAX_PLAYERS)
    n = 0
    for q in range(st[G_NPLAYERS]):
        if team_of(st, q) == t:
            continue
        for k in range(FIGHTERS_PER_PLAYER):
            if st[fslot(q * FIGHTERS_PER_PLAYER + k, F_STATUS)] == FS_IN_PLAY:
                opts[n] = q
                n += 1
                break
    if n == 0:
        return -1
    q = opts[decide(st, tb, ctl, D_OPPONENT, p, opts, n)] if n > 1 else opts[0]
    st[G_OPPONENT] = q
    return q


@jit(I(ST, TB, I))
def zones_of(st, tb, g):
    """How many zones fighter ``g``'s space belongs to (0 for -1 or a fighter off the board)."""
    if g < 0 or st[fslot(g, F_STATUS)] != FS_IN_PLAY:
        return 0
    z = tb.zmask[st[fslot(g, F_SPACE)]]
    n = 0
    for b in range(64):     # (a bounded loop: a mask with bit 63 set is negative)
        n += (z >> b) & 1
    return n


@jit(I(ST, TB, I, I, I, I, I))
def per_count(st, tb, p, f, side, per, parg):
    """The multiplier of a "+N for each ..." step."""
    if per == PER_ONE:
        return 1
    if per == PER_DISCARD_TAG:
        return count_tag_in_pile(st, tb, PILE_DISC, p, parg)
    if per == PER_LAST_BOOST:
        return st[G_LAST_BOOST]
    if per == PER_LAST_DAMAGE:
        return st[G_LAST_DMG]
    if per == PER_OPP_BOOST:
        oc = -1 if side < 0 else st[OFF_CB + CB_CARD0 + 1 - side]
        return tb.cards[oc, C_BOOST] if oc >= 0 else 0
    if per == PER_DAMAGE_TAKEN:
        return st[OFF_CB + CB_DMG] if side == 1 else 0
    if per == PER_KIND_ADJ_MOVED:
        m = st[G_MOVED]
        if m < 0 or st[fslot(m, F_STATUS)] != FS_IN_PLAY:
            return 0
        c = 0
        for k in range(FIGHTERS_PER_PLAYER):
            g = p * FIGHTERS_PER_PLAYER + k
            if (g != m and st[fslot(g, F_STATUS)] == FS_IN_PLAY and st[fslot(g, F_KIND)] == parg
                    and adjacent(tb, st[fslot(g, F_SPACE)], st[fslot(m, F_SPACE)])):
                c += 1
        return c
    if per == PER_COMBAT_DAMAGE:
        return st[OFF_CB + CB_DMG] if side == 0 else 0
    if per == PER_OPP_PRINTED:
        oc = -1 if side < 0 else st[OFF_CB + CB_CARD0 + 1 - side]
        return st[OFF_CB + CB_PRINTED0 + 1 - side] if oc >= 0 else 0
    if per == PER_ZONES:
        return zones_of(st, tb, resolve_ref(st, p, f, side, parg))
    opp = resolve_ref(st, p, f, side, REF_OPPOSING)
    c = 0
    if per == PER_OWN_ADJ_OPPOSING:
        if opp < 0:
            return 0
        for k in range(FIGHTERS_PER_PLAYER):
            g = p * FIGHTERS_PER_PLAYER + k
            if st[fslot(g, F_STATUS)] == FS_IN_PLAY and adjacent(tb, st[fslot(g, F_SPACE)], st[fslot(opp, F_SPACE)]):
                c += 1
        return c
    if per == PER_KIND_IN_ZONE_OF_OPPOSING:
        if opp < 0:
            return 0
        for k in range(FIGHTERS_PER_PLAYER):
            g = p * FIGHTERS_PER_PLAYER + k
            if (st[fslot(g, F_STATUS)] == FS_IN_PLAY and st[fslot(g, F_KIND)] == parg
                    and same_zone(tb, st[fslot(g, F_SPACE)], st[fslot(opp, F_SPACE)])):
                c += 1
        return c
    if per == PER_ADJ_TO_SELF:
        for g in range(MAX_FIGHTERS):
            if g != f and st[fslot(g, F_STATUS)] == FS_IN_PLAY and adjacent(tb, st[fslot(g, F_SPACE)], st[fslot(f, F_SPACE)]):
                c += 1
        return c
    return 0


@jit(B(ST, I, I, I))
def side_ok(st, p, g, sidef):
    if sidef == S_ANY:
        return True
    mine = team_of(st, st[fslot(g, F_OWNER)]) == team_of(st, p)
    return mine if sidef == S_OWN else not mine


@jit(types.Tuple((I, B))(ST, TB, INS, I, I, I, A1))
def collect_targets(st, tb, ins, p, f, side, out):
    """Candidate fighters of a step's selector into ``out``; return (n, pick_one)."""
    sel = ins[I_SEL]
    ref = ins[I_REF]
    sidef = ins[I_SIDE]
    n = 0
    if sel == SEL_REF:
        g = resolve_ref(st, p, f, side, ref)
        if g >= 0 and st[fslot(g, F_STATUS)] == FS_IN_PLAY:
            out[0] = g
            n = 1
        return n, False
    if sel == SEL_EACH_KIND or sel == SEL_EACH_OWN:
        for k in range(FIGHTERS_PER_PLAYER):
            g = p * FIGHTERS_PER_PLAYER + k
            if st[fslot(g, F_STATUS)] == FS_IN_PLAY and (sel == SEL_EACH_OWN or st[fslot(g, F_KIND)] == ref):
                out[n] = g
                n += 1
        return n, False
    if sel == SEL_OPP_HERO or sel == SEL_MOVED:
        if sel == SEL_MOVED:
            g = st[G_MOVED]
        else:
            q = opponent_player(st, p, side)
            g = hero_of(q) if q >= 0 else -1
        if g >= 0 and st[fslot(g, F_STATUS)] == FS_IN_PLAY:
            out[0] = g
            n = 1
        return n, False
    if sel == SEL_ONE_COMBATANT:
        if side >= 0:
            for j in range(2):
                g = st[OFF_CB + CB_ATT_F + j]
                if st[fslot(g, F_STATUS)] == FS_IN_PLAY:
                    out[n] = g
                    n += 1
        return n, True
    center = -1
    if sel == SEL_ONE_ZONE or sel == SEL_EACH_ZONE or sel == SEL_ONE_ADJ or sel == SEL_EACH_ADJ or sel == SEL_ONE_WITHIN:
        r = resolve_ref(st, p, f, side, ref)
        if r < 0 or st[fslot(r, F_STATUS)] != FS_IN_PLAY:
            return 0, False
        center = st[fslot(r, F_SPACE)]
    excl = -1
    if ins[I_FLAGS] & IF_EXCLUDE_REF:
        excl = resolve_ref(st, p, f, side, ref)
    excl2 = -1
    if ins[I_FLAGS] & IF_EXCLUDE_OPP:
        excl2 = resolve_ref(st, p, f, side, REF_OPPOSING)
    for g in range(n_slots(st)):
        if st[fslot(g, F_STATUS)] != FS_IN_PLAY or g == excl or g == excl2 or not side_ok(st, p, g, sidef):
            continue
        s = st[fslot(g, F_SPACE)]
        if sel == SEL_ONE_PASSED or sel == SEL_EACH_PASSED:
            if (st[G_PASSED] >> g) & 1 == 0:
                continue
        if sel == SEL_EACH_FOG:
            if not fog_space(st, p, s):
                continue
        if sel == SEL_ONE_WITHIN:
            if tb.adist[center, s] > ins[I_RANGE]:
                continue
        if sel == SEL_ONE_ZONE or sel == SEL_EACH_ZONE:
            if not same_zone(tb, s, center):
                continue
        elif sel == SEL_ONE_ADJ or sel == SEL_EACH_ADJ:
            if not adjacent(tb, s, center):
                continue
        out[n] = g
        n += 1
    pick = (sel == SEL_ONE_ZONE or sel == SEL_ONE_ADJ or sel == SEL_ONE_ANY or sel == SEL_ONE_WITHIN
            or sel == SEL_ONE_PASSED)
    return n, pick


# opcode -> 1 for the ops with a target field (the op registry: damage, move, place, recover, ...)
_USES_TARGETS = np.array([int(op.field("target") is not None) for op in OPS], np.int64)


@jit(B(I), inline=True)
def uses_targets(op):
    """Ops whose "may" is asked once their targets are known (none: nothing asked): those
    with a ``target`` field in the op registry (:mod:`sim.engine.ops`)."""
    return _USES_TARGETS[op] != 0


@jit(B(ST, TB, CTL, I))
def ask_may(st, tb, ctl, p):
    opts = stack_i64(2)
    opts[0] = 1
    opts[1] = 0
    return decide(st, tb, ctl, D_MAY, p, opts, 2) == 0


@jit(I(ST, TB, CTL, INS, I, I, I, A1))
def targets(st, tb, ctl, ins, p, f, side, out):
    """Resolve a step's targets (asking choices and "may"); return how many."""
    if ins[I_SEL] == SEL_OPP_HERO and st[G_NPLAYERS] > 2:
        choose_opponent(st, tb, ctl, p, side)   # team game: which opponent's hero
    n, pick = collect_targets(st, tb, ins, p, f, side, out)
    if n == 0:
        return 0
    ctl[CTL_CTX_F] = out[0]
    if ins[I_FLAGS] & IF_MAY and ins[I_OP] != OP_MOVE and uses_targets(ins[I_OP]):
        if not ask_may(st, tb, ctl, p):
            return 0
    if pick and n > 1:
        i = decide(st, tb, ctl, D_TARGET, p, out, n)
        out[0] = out[i]
        n = 1
    elif pick:
        n = 1
    return n


@jit(I(ST, TB, CTL, I, I, I, B))
def choose_hand_card(st, tb, ctl, kind, chooser, owner, allow_none):
    """``chooser`` picks a card (id) from ``owner``'s hand; -1 for none."""
    hn = st[pslot(owner, P_HANDN)]
    if hn == 0 and not allow_none:
        return -1
    opts = stack_i64(CARD_OPTS)
    b = pile_base(PILE_HAND, owner)
    n = 0
    for i in range(hn):
        n = add_unique(opts, n, st[b + i])
    if allow_none:
        opts[n] = -1
        n += 1
    if n == 0:
        return -1
    ctl[CTL_CTX_OWNER] = owner
    return opts[decide(st, tb, ctl, kind, chooser, opts, n)]


@jit(B(ST, TB, I))
def cancel_protected(st, tb, side):
    """True if the opponent cannot cancel the effects on the card of ``side``.

    The card's tag (Holmes, Watson), or its owner's hero ability: with at least
    H_PROTECT_N cards of tag H_PROTECT_TAG in the discard pile, all of that
    player's card effects (Ciri at 7+ Source, docs/rules.md project decision).
    """
    c = st[OFF_CB + CB_CARD0 + side]
    if c < 0:
        return False
    if tb.cards[c, C_TAGS] & TAG_UNCANCELABLE:
        return True
    owner = st[OFF_CB + CB_ATT_P + side]
    h = st[pslot(owner, P_HERO)]
    need = tb.heroes[h, H_PROTECT_N]
    return need > 0 and count_tag_in_pile(st, tb, PILE_DISC, owner, tb.heroes[h, H_PROTECT_TAG]) >= need


@jit(B(ST, TB, I, I), inline=True)
def has_passive(st, tb, q, bit):
    """True if player ``q``'s ongoing scheme in play has passive effect ``bit`` (PV_*)."""
    c = st[pslot(q, P_ONGOING)]
    return c >= 0 and (tb.cards[c, C_PASSIVE] & bit) != 0


@jit(B(ST, TB, I))
def actions_blocked(st, tb, p):
    """True if an opponent's ongoing scheme stops ``p`` from gaining actions (Blizzard)."""
    for q in range(st[G_NPLAYERS]):
        if team_of(st, q) != team_of(st, p) and has_passive(st, tb, q, PV_NO_OPPONENT_ACTIONS):
            return True
    return False
