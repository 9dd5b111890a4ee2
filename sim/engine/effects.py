"""The effect interpreter: runs the integer programs card effects compile to.

A program is a slice of ``tb.code`` (rows of ``I_FIELDS`` int64, see
``layout.I_*``). Each row is one step: an opcode (``OP_*``), a condition
(``CN_*``) with its own arguments, an amount, a target selector (``SEL_*``, a
reference fighter ``REF_*`` and a side filter ``S_*``), a "per" count
(``PER_*``), flags (``layout.IF_*``) and two op arguments (X, Y). The vocabulary that compiles to
these rows is documented in ``heroes/README.md``.

The context of a program is: the player ``p`` whose card or ability it is,
that player's fighter ``f`` (the fighter who played the card, or the hero for
abilities), the combat side ``side`` (0 attacker, 1 defender, -1 outside
combat) and the card id (-1 for abilities). Choices are asked of
:func:`sim.engine.policy.decide`.
"""
import numpy as np
from numba import njit, types  # noqa: F401

from .sigs import A1, A2, B, CTL, I, LOG, ST, TB, V, jit, stack_i64  # noqa: F401

from .codes import (  # noqa: F401  (re-exported: callers outside the engine import them from here)
    CN_ADJACENT, CN_ALWAYS, CN_ATTACKED, CN_ATTACKING, CN_COUNTER_EQ, CN_COUNTER_NE, CN_DEALT_DAMAGE,
    CN_DEFEATED_ANY, CN_DEFENDING, CN_DISCARDED, CN_FIRST_ACTION, CN_HAND_AT_LEAST, CN_HERO_ATTACKED,
    CN_HERO_HP_AT_MOST, CN_KIND_IN_ZONE_OF, CN_LEFT_SPACE, CN_NOT_WON, CN_ON_FOG, CN_OPP_HP_AT_LEAST,
    CN_OPP_PRINTED_AT_LEAST, CN_OPP_PRINTED_EQ, CN_OPPOSING_IS_HERO, CN_PREDICTED, CN_STARTED_ELSEWHERE,
    CN_STARTED_ON_FOG, CN_TAG_TIER, CN_TOOK_FROM_DECK, CN_WON, CT_ATTACK, CT_DEFENSE, CT_SCHEME, CT_VERSATILE,
    D_BOOST_CARD, D_DISCARD_EFFECT, D_FOG_DEST, D_FOG_TOKEN, D_FORCE_CARD, D_GUESS, D_MAY, D_MOVE_DEST,
    D_MOVE_WHICH, D_OPPONENT, D_OPTION, D_PLACE, D_TAKE_CARD, D_TARGET, EV_BOOST, EV_CANCEL, EV_CHOOSE,
    EV_COUNTER, EV_DISCARD, EV_END_TURN, EV_FOG, EV_GAIN_ACTION, EV_GUESS, EV_IGNORE, EV_LOOK_HAND,
    EV_LOOK_TOP, EV_PIN, EV_REMOVE, EV_REPLACE, EV_RETURN, EV_SEARCH, EV_SET_PRINTED, EV_SWAP, EV_TAKE,
    FS_DEFEATED, FS_IN_PLAY, FS_REMOVED, FT_ANY, FT_EACH, FT_UNDER_HERO, GF_SELF_TO_DECK, GF_TOOK_FROM_DECK,
    IF_BOTTOM, IF_DIFFERENT, IF_EMPTY, IF_EXCLUDE_OPP, IF_EXCLUDE_REF, IF_MAY, IF_ONTO_FOG, IF_OPTIONAL,
    IF_RANDOM, IF_THROUGH, IF_TO_OPPONENT, IF_TRACK, IF_YOU_CHOOSE, N_OPS, OP_ADD_MOVE, OP_ADD_VALUE,
    OP_BOOST_THIS, OP_BRANCH, OP_CANCEL, OP_CHOOSE, OP_CHOOSE_COUNTER, OP_DAMAGE, OP_DAMAGE_SPACES,
    OP_DISCARD, OP_DISCARD_FOR_VALUE, OP_DISCARD_TOP, OP_DRAW, OP_END_TURN, OP_FLIP_COUNTER, OP_GAIN_ACTION,
    OP_HAND_TO_DECK, OP_IGNORE_VALUE, OP_LOOK_AT_HAND, OP_LOOK_TOP, OP_MOVE, OP_MOVE_FOG, OP_NAME_VALUE,
    OP_NOP, OP_PIN, OP_PLACE, OP_PLACE_FOG, OP_PREDICT, OP_PREVENT_DAMAGE, OP_RECLAIM, OP_RECOVER, OP_REMOVE,
    OP_REPLACE_CARD, OP_RETURN_DEFEATED, OP_REVEAL_TOP, OP_SEARCH, OP_SELF_TO_DECK, OP_SET_COUNTER,
    OP_SET_HEALTH, OP_SET_PRINTED, OP_SET_VALUE, OP_SUMMON, OP_SWAP, OP_TAKE_FROM_DISCARD, OP_ZERO_VALUE,
    PER_ADJ_TO_SELF, PER_DAMAGE_TAKEN, PER_DISCARD_TAG, PER_KIND_ADJ_MOVED, PER_KIND_IN_ZONE_OF_OPPOSING,
    PER_LAST_BOOST, PER_LAST_DAMAGE, PER_ONE, PER_OPP_BOOST, PER_OWN_ADJ_OPPOSING, PILE_DECK, PILE_DISC,
    PILE_HAND, PL_ADJ, PL_ANY, PL_IN_ZONE, PL_LAST_FOG, PV_MAY_IGNORE_DISCARD, PV_NO_OPPONENT_ACTIONS,
    R_END_AT_ACTION, R_OFF_FORM, REF_OPPOSING, REF_SELF, S_ANY, S_OPPOSING, S_OWN, SEL_ALL, SEL_EACH_ADJ,
    SEL_EACH_FOG, SEL_EACH_KIND, SEL_EACH_OWN, SEL_EACH_ZONE, SEL_MOVED, SEL_ONE_ADJ, SEL_ONE_ANY,
    SEL_ONE_COMBATANT, SEL_ONE_PASSED, SEL_ONE_WITHIN, SEL_ONE_ZONE, SEL_OPP_HERO, SEL_REF, SR_DECK,
    SR_DECK_OR_DISCARD, SR_DISCARD, SR_DISCARD_THEN_DECK, TAG_UNCANCELABLE,
)
from .core import (
    add_unique, adjacent, can_play, check_end, count_play, count_tag_in_pile, deal_damage, discard_from_hand,
    draw_cards, fill_occupancy, fog_space, hero_of, log_ev, move_fighter, opposed, pile_base, pile_push,
    pile_remove_at, pile_take, place_fighter, rand_below, reachable, recover, same_zone, set_health,
    shuffle_deck, take_to_hand, team_of,
)
from .layout import (
    C_BOOST, C_FORM, C_PASSIVE, C_PROG, C_TAGS, C_TYPE, C_VALUE, CARD_OPTS, CB_ATT_F, CB_ATT_P, CB_CANCEL0,
    CB_CARD0, CB_DEF_F, CB_DMG, CB_GUESS0, CB_IGN0, CB_LOCK0, CB_MOD0, CB_OVR0, CB_PREVENT, CB_PRINTED0, F_HP,
    F_KIND, F_LEFT, F_MAXHP, F_NOLEAVE, F_OWNER, F_SPACE, F_START_SPACE, F_STATUS, FIGHTERS_PER_PLAYER,
    FORM_COUNTER, fslot, G_ACTIONS, G_ACTIVE, G_ENDTURN, G_FLAGS, G_FOG_SPACE, G_FOG_TOKEN, G_GUESS,
    G_LAST_BOOST, G_LAST_DISC, G_LAST_DMG, G_LAST_KO, G_MOVED, G_NPLAYERS, G_OPPONENT, G_OVER, G_PASSED,
    H_DECK_LEN, H_DECK_START, H_HOOKS, H_PROTECT_N, H_PROTECT_TAG, I_FLAGS, I_N, I_OP, I_PARG, I_PER, I_RANGE,
    I_REF, I_SEL, I_SIDE, I_X, I_Y, MAX_CARDS, MAX_FIGHTERS, MAX_OPTIONS, MAX_PLAYERS, MAX_SPACES, N_FOG,
    N_VALUES, OFF_CB, P_COUNTER0, P_DECKN, P_DISCN, P_FOG0, P_HAND_SEEN, P_HANDN, P_HERO, P_ONGOING, P_RETURN,
    pslot, SPACE_OPTS, TWO_PILES,
)
from .policy import CTL_CTX_F, CTL_CTX_N, CTL_CTX_OP, CTL_CTX_OWNER, CTL_CTX_P, decide
from .conditions import (  # noqa: F401  (re-exported: the compiler and the rules read them from here)
    cond_ok, opp_card, resolve_ref,
)


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


@jit(types.Tuple((I, B))(ST, TB, A1, I, I, I, A1))
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
    for g in range(MAX_FIGHTERS):
        if st[fslot(g, F_STATUS)] != FS_IN_PLAY or g == excl or g == excl2 or not side_ok(st, p, g, sidef):
            continue
        s = st[fslot(g, F_SPACE)]
        if sel == SEL_ONE_PASSED:
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


@jit(B(I), inline=True)
def uses_targets(op):
    """Ops whose "may" is asked once their targets are known (none: nothing asked)."""
    return (op == OP_DAMAGE or op == OP_MOVE or op == OP_PLACE or op == OP_RECOVER
            or op == OP_SET_HEALTH or op == OP_PIN or op == OP_SWAP)


@jit(B(ST, TB, CTL, I))
def ask_may(st, tb, ctl, p):
    opts = stack_i64(2)
    opts[0] = 1
    opts[1] = 0
    return decide(st, tb, ctl, D_MAY, p, opts, 2) == 0


@jit(I(ST, TB, CTL, A1, I, I, I, A1))
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


@jit(V(ST, TB, CTL, LOG, I, A1, A1, I, B, B, B))
def move_group(st, tb, ctl, log, mover, fighters, budgets, n, through, track, onto_fog):
    """Move fighters one at a time, each up to its own budget (spaces).

    ``mover`` chooses the order (``D_MOVE_WHICH``) and each destination
    (``D_MOVE_DEST``). ``fighters``/``budgets``: int64 arrays, first ``n``
    used. With ``track``, ``G_PASSED`` collects the opposing fighters each
    move could have passed through (Bane of the Aen Elle: the player routes
    the move through the fighter they then damage). With ``onto_fog`` a move
    must end on a space with one of the mover's fog tokens (staying is allowed
    only on one; Lurking); a fighter with no such destination does not move.
    Source: Battle of Legends Vol. 1 rules, "Maneuver and movement".
    """
    S = tb.adj.shape[0]
    dests = stack_i64(SPACE_OPTS)
    left = stack_i64(MAX_FIGHTERS)
    left_b = stack_i64(MAX_FIGHTERS)
    for i in range(n):
        left[i] = fighters[i]
        left_b[i] = budgets[i]
    m = n
    while m > 0 and st[G_OVER] == 0:
        i = 0
        if m > 1:
            i = decide(st, tb, ctl, D_MOVE_WHICH, mover, left, m)
        g = left[i]
        b = left_b[i]
        left[i] = left[m - 1]
        left_b[i] = left_b[m - 1]
        m -= 1
        if st[fslot(g, F_STATUS)] != FS_IN_PLAY:
            continue
        k = reachable(st, tb, g, b, through, dests)
        ctl[CTL_CTX_F] = g
        if onto_fog:
            kk = 0
            for x in range(k):
                if fog_space(st, mover, dests[x]):
                    dests[kk] = dests[x]
                    kk += 1
            k = kk
            if k == 0:
                continue
        j = decide(st, tb, ctl, D_MOVE_DEST, mover, dests, k)
        src = st[fslot(g, F_SPACE)]
        move_fighter(st, log, g, dests[j], b, through)
        if track and dests[j] != src:
            # opposing fighters the move can have gone through: src -> their space -> dest fits
            d = dests[j]
            for o in range(MAX_FIGHTERS):
                if o != g and st[fslot(o, F_STATUS)] == FS_IN_PLAY and opposed(st, g, o):
                    so = st[fslot(o, F_SPACE)]
                    if so != src and tb.dist[src, so] + tb.dist[so, d] <= b:
                        st[G_PASSED] |= 1 << o


@jit(I(ST, TB, I, I, A1))
def empty_spaces(st, tb, where, center, out):
    """Empty spaces (any / in the zone of ``center`` / adjacent to it / ``center`` itself
    for PL_LAST_FOG) written to ``out``; return how many."""
    S = tb.adj.shape[0]
    occ = stack_i64(MAX_SPACES)
    fill_occupancy(st, S, occ)
    n = 0
    for s in range(S):
        if occ[s] >= 0:
            continue
        if where == PL_LAST_FOG and s != center:
            continue
        if where == PL_IN_ZONE and not same_zone(tb, s, center):
            continue
        if where == PL_ADJ and not adjacent(tb, s, center):
            continue
        out[n] = s
        n += 1
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
    player's card effects (Ciri at 7+ Source, cases.md project decision).
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


@jit(V(ST, TB, LOG, I, I))
def damage_and_count(st, tb, log, g, n):
    """Deal ``n`` damage to ``g``; add to the last-step registers (dealt, defeated)."""
    d = deal_damage(st, tb, log, g, n)
    st[G_LAST_DMG] += d
    if d > 0 and st[fslot(g, F_STATUS)] == FS_DEFEATED:
        st[G_LAST_KO] += 1


@jit(I(TB, I))
def skip_branches(tb, i):
    """Row after the OP_CHOOSE at row ``i`` and all of its branches."""
    j = i + 1
    for _ in range(tb.code[i, I_X]):
        j += 1 + tb.code[j, I_X]
    return j


@jit(V(ST, TB, CTL, LOG, I, I, I, I))
def search(st, tb, ctl, log, p, where, card, tagbits):
    """Search your deck and/or discard pile for ``card`` (or a card with ``tagbits``).

    The player takes one match into hand; a searched deck is shuffled (case
    R61). ``where``: SR_DISCARD_THEN_DECK (the deck is searched only if the
    discard pile has no match: The Lady of the Lake), SR_DECK, SR_DISCARD.
    """
    opts = stack_i64(TWO_PILES)
    searched_deck = False
    n = 0
    st[G_FLAGS] &= ~GF_TOOK_FROM_DECK
    pile = PILE_DISC if where != SR_DECK else PILE_DECK
    if where == SR_DECK_OR_DISCARD:
        # the player picks the pile first (1 deck, 2 discard pile) among those with a match
        piles = stack_i64(2)
        m = 0
        for pl in range(2):
            pi = PILE_DECK if pl == 0 else PILE_DISC
            base = pile_base(pi, p)
            for k in range(st[pslot(p, P_DECKN if pi == PILE_DECK else P_DISCN)]):
                c = st[base + k]
                if c == card or (card < 0 and (tb.cards[c, C_TAGS] & tagbits) != 0):
                    piles[m] = pl + 1
                    m += 1
                    break
        if m == 0:
            log_ev(st, log, EV_SEARCH, p, -1, 0, 0, 0)
            return
        pile = PILE_DECK if piles[decide(st, tb, ctl, D_OPTION, p, piles, m)] == 1 else PILE_DISC
    for attempt in range(2):
        base = pile_base(pile, p)
        for k in range(st[pslot(p, P_DISCN if pile == PILE_DISC else P_DECKN)]):
            c = st[base + k]
            if c == card or (card < 0 and (tb.cards[c, C_TAGS] & tagbits) != 0):
                n = add_unique(opts, n, c)
        if pile == PILE_DECK:
            searched_deck = True
        if n > 0 or where != SR_DISCARD_THEN_DECK or pile == PILE_DECK:
            break
        pile = PILE_DECK
    if n > 0 and pile == PILE_DECK:
        st[G_FLAGS] |= GF_TOOK_FROM_DECK
    found = -1
    if n > 0:
        found = opts[decide(st, tb, ctl, D_TAKE_CARD, p, opts, n)]
        take_to_hand(st, log, pile, p, found)
    if searched_deck:
        shuffle_deck(st, p)
    log_ev(st, log, EV_SEARCH, p, found, 1 if searched_deck else 0, 0, 0)


@jit(V(ST, TB, CTL, LOG, I, I, I, B))
def look_top(st, tb, ctl, log, p, n, keep, bottom):
    """Look at the top ``n`` cards of your deck, keep ``keep`` in hand, put the rest back.

    Looking is not drawing (no exhaustion). The rest go back on top (or to the
    bottom) one at a time in the order the player chooses (Prophecy).
    """
    dn = st[pslot(p, P_DECKN)]
    m = n if n < dn else dn
    seen = stack_i64(MAX_CARDS)
    for k in range(m):
        seen[k] = pile_remove_at(st, PILE_DECK, p, st[pslot(p, P_DECKN)] - 1)
    log_ev(st, log, EV_LOOK_TOP, p, m, 0, 0, 0)
    left = m
    for _ in range(keep if keep < m else m):
        j = decide(st, tb, ctl, D_TAKE_CARD, p, seen, left)
        c = seen[j]
        seen[j] = seen[left - 1]
        left -= 1
        pile_push(st, PILE_HAND, p, c)
        log_ev(st, log, EV_TAKE, p, c, PILE_DECK, 0, 0)
    while left > 0:
        j = decide(st, tb, ctl, D_TAKE_CARD, p, seen, left)
        c = seen[j]
        seen[j] = seen[left - 1]
        left -= 1
        if bottom:
            pile_push(st, PILE_DECK, p, c)
            b = pile_base(PILE_DECK, p)
            for k in range(st[pslot(p, P_DECKN)] - 1, 0, -1):
                st[b + k] = st[b + k - 1]
            st[b] = c
        else:
            pile_push(st, PILE_DECK, p, c)


@jit(V(ST, TB, CTL, LOG, I, I, I, I, I, A1))
def summon(st, tb, ctl, log, p, f, side, kind, ref, spaces):
    """Summon a fighter of ``kind``: one off the board comes back at full health,
    else the player moves one already on the board; either is put on an empty
    space in the zone of fighter ``ref``. Source: Witcher rules, "Heart of the
    Forest" (summon a Wolf); case R63.
    """
    r = resolve_ref(st, p, f, side, ref)
    if r < 0 or st[fslot(r, F_STATUS)] != FS_IN_PLAY:
        return
    g = -1
    for k in range(FIGHTERS_PER_PLAYER):
        h = p * FIGHTERS_PER_PLAYER + k
        if st[fslot(h, F_KIND)] == kind and k > 0 and (st[fslot(h, F_STATUS)] == FS_DEFEATED
                                                        or st[fslot(h, F_STATUS)] == FS_REMOVED):
            g = h
            break
    back = g >= 0
    if not back:
        opts = stack_i64(FIGHTERS_PER_PLAYER)
        m = 0
        for k in range(1, FIGHTERS_PER_PLAYER):
            h = p * FIGHTERS_PER_PLAYER + k
            if st[fslot(h, F_KIND)] == kind and st[fslot(h, F_STATUS)] == FS_IN_PLAY and st[fslot(h, F_NOLEAVE)] == 0:
                opts[m] = h
                m += 1
        if m == 0:
            return
        g = opts[decide(st, tb, ctl, D_TARGET, p, opts, m)]
    k = empty_spaces(st, tb, PL_IN_ZONE, st[fslot(r, F_SPACE)], spaces)
    if k == 0:
        return
    ctl[CTL_CTX_F] = g
    sp = spaces[decide(st, tb, ctl, D_PLACE, p, spaces, k)]
    if back:
        st[fslot(g, F_HP)] = st[fslot(g, F_MAXHP)]
        st[fslot(g, F_STATUS)] = FS_IN_PLAY
        st[fslot(g, F_SPACE)] = sp
        st[fslot(g, F_START_SPACE)] = sp
        log_ev(st, log, EV_RETURN, g, sp, 0, 0, 0)
    else:
        place_fighter(st, log, g, sp)


@jit(I(ST, TB, I, I, I, A1))
def possible_values(st, tb, q, g, kinds, out):
    """Distinct printed values (ascending) the cards of player ``q`` may have, from
    public information only: ``q``'s deck list minus its discard pile and ongoing
    scheme (card counting). Never reads ``q``'s hand or deck order.

    ``kinds``: 0 attack cards (attack and versatile), 1 defense cards (defense and
    versatile), 2 every card with a value. With ``g >= 0`` only cards fighter ``g``
    may play (banner and form, both public). Writes the values to ``out`` (int64,
    length >= 21) and returns how many. Used by Elementary and Confirm Suspicion.
    """
    h = st[pslot(q, P_HERO)]
    s0 = tb.heroes[h, H_DECK_START]
    nd = tb.heroes[h, H_DECK_LEN]
    left = np.zeros(tb.cards.shape[0], np.int64)
    for i in range(nd):
        left[tb.decks[s0 + i]] += 1
    db = pile_base(PILE_DISC, q)
    for i in range(st[pslot(q, P_DISCN)]):
        left[st[db + i]] -= 1
    og = st[pslot(q, P_ONGOING)]
    if og >= 0:
        left[og] -= 1
    seen = np.zeros(21, np.int64)
    for c in range(tb.cards.shape[0]):
        if left[c] <= 0:
            continue
        t = tb.cards[c, C_TYPE]
        if t == CT_SCHEME:
            continue
        if kinds == 0 and t == CT_DEFENSE:
            continue
        if kinds == 1 and t == CT_ATTACK:
            continue
        if g >= 0 and not can_play(st, tb, c, g):
            continue
        v = tb.cards[c, C_VALUE]
        if 0 <= v <= 20:
            seen[v] = 1
    n = 0
    for v in range(21):
        if seen[v]:
            out[n] = v
            n += 1
    return n


@jit(V(ST, TB, CTL, LOG, I, I, I))
def place_fog(st, tb, ctl, log, p, n, center):
    """Player ``p`` places ``n`` of its fog tokens, one at a time, on separate spaces
    in the zone of space ``center`` that hold no fighter and no fog token (Invisible
    Man's setup; case R22). Tokens already on the board stay."""
    S = tb.adj.shape[0]
    occ = stack_i64(MAX_SPACES)
    fill_occupancy(st, S, occ)
    spaces = stack_i64(MAX_SPACES)
    for _ in range(n):
        i = -1
        for t in range(N_FOG):
            if st[pslot(p, P_FOG0 + t)] < 0:
                i = t
                break
        if i < 0:
            return
        k = 0
        for s in range(S):
            if occ[s] < 0 and not fog_space(st, p, s) and same_zone(tb, s, center):
                spaces[k] = s
                k += 1
        if k == 0:
            return
        s = spaces[decide(st, tb, ctl, D_FOG_DEST, p, spaces, k)]
        st[pslot(p, P_FOG0 + i)] = s
        log_ev(st, log, EV_FOG, p, i, -1, s, p)


@jit(V(ST, TB, CTL, LOG, I, I, I, I, I, B, B, B))
def move_fog(st, tb, ctl, log, p, mover, n, mode, hero_space, empty, different, may_stay):
    """``mover`` moves fog tokens of player ``p`` (Invisible Man's cards).

    ``mode``: FT_ANY (one token of the mover's choice; with ``different`` not the
    one the last move_fog step moved), FT_UNDER_HERO (the token on ``hero_space``),
    FT_EACH (every token in turn). ``n`` > 0: up to ``n`` spaces along lines (0
    allowed); ``n`` = 0: to any other space (``may_stay``: or not at all). With
    ``empty`` only to a space without a fighter. Nothing blocks a token and tokens
    may share a space (rules "Fog Tokens"; case R22). Passages and one-way arrows
    are for fighters only: tokens move along lines in either direction.
    Sets G_FOG_TOKEN / G_FOG_SPACE to the last token moved and its space.
    """
    S = tb.adj.shape[0]
    occ = stack_i64(MAX_SPACES)
    fill_occupancy(st, S, occ)
    toks = stack_i64(N_FOG)
    tsp = stack_i64(N_FOG)
    dests = stack_i64(MAX_SPACES)
    last = st[G_FOG_TOKEN]
    st[G_FOG_SPACE] = -1
    m = 0
    for t in range(N_FOG):
        sp = st[pslot(p, P_FOG0 + t)]
        if sp < 0:
            continue
        if mode == FT_UNDER_HERO and sp != hero_space:
            continue
        if mode == FT_ANY and different and t == last:
            continue
        toks[m] = t
        tsp[m] = sp
        m += 1
    if m == 0:
        return
    rounds = m if mode == FT_EACH else 1
    for r in range(rounds):
        if mode == FT_EACH:
            t = toks[r]
        else:
            t = toks[decide(st, tb, ctl, D_FOG_TOKEN, mover, tsp, m)] if m > 1 else toks[0]
        src = st[pslot(p, P_FOG0 + t)]
        k = 0
        for s in range(S):
            if empty and (occ[s] >= 0 or s == src):
                continue
            if n > 0:
                if tb.adist[src, s] > n:
                    continue
            elif s == src and not may_stay:
                continue
            dests[k] = s
            k += 1
        st[G_FOG_TOKEN] = t
        if k == 0:
            continue
        d = dests[decide(st, tb, ctl, D_FOG_DEST, mover, dests, k)]
        st[G_FOG_SPACE] = d
        if d != src:
            st[pslot(p, P_FOG0 + t)] = d
            log_ev(st, log, EV_FOG, p, t, src, d, mover)


@jit(V(ST, TB, CTL, LOG, I, I))
def replace_card(st, tb, ctl, log, p, o):
    """Player ``p`` sends the combat card of side ``o`` back to its owner's hand, looks
    at that hand and chooses the card they play instead (it may be the same card):
    one their fighter may play for that side (attack or versatile for the attacker).
    The new card starts fresh: printed value, no changes, effects not cancelled.
    Source: Do My Bidding (Dracula); Cobble & Fog rules, "Resolve Combat".
    """
    old = st[OFF_CB + CB_CARD0 + o]
    if old < 0:
        return
    q = st[OFF_CB + CB_ATT_P + o]
    g = st[OFF_CB + CB_ATT_F + o]
    pile_push(st, PILE_HAND, q, old)
    st[pslot(q, P_HAND_SEEN)] = 1
    log_ev(st, log, EV_LOOK_HAND, p, q, 0, 0, 0)
    hn = st[pslot(q, P_HANDN)]
    hb = pile_base(PILE_HAND, q)
    opts = stack_i64(MAX_CARDS)
    m = 0
    for i in range(hn):
        c = st[hb + i]
        t = tb.cards[c, C_TYPE]
        if t == CT_VERSATILE or t == (CT_ATTACK if o == 0 else CT_DEFENSE):
            if can_play(st, tb, c, g):
                m = add_unique(opts, m, c)
    new = opts[decide(st, tb, ctl, D_FORCE_CARD, p, opts, m)] if m > 0 else old
    pile_take(st, PILE_HAND, q, new)
    b = OFF_CB
    st[b + CB_CARD0 + o] = new
    st[b + CB_PRINTED0 + o] = tb.cards[new, C_VALUE]
    st[b + CB_OVR0 + o] = -1
    st[b + CB_MOD0 + o] = 0
    st[b + CB_IGN0 + o] = 0
    st[b + CB_LOCK0 + o] = 0
    st[b + CB_CANCEL0 + o] = 0
    st[b + CB_GUESS0 + o] = 0
    if new != old:
        count_play(st, tb, q, new)
    log_ev(st, log, EV_REPLACE, q, old, new, p, 0)


@jit(I(ST, TB, CTL, LOG, I, I, I, I, I, I))
def run_program(st, tb, ctl, log, start, length, p, f, side, card):
    """Run ``length`` instruction rows from ``start``; return the ``add_move`` total.

    Stops early when the game ends or an effect ends the turn.
    """
    acc = 0
    tg = stack_i64(MAX_FIGHTERS)
    bud = stack_i64(MAX_FIGHTERS)
    S = tb.adj.shape[0]
    spaces = stack_i64(MAX_SPACES)
    opts = stack_i64(CARD_OPTS)
    vals = stack_i64(N_VALUES)
    bstart = stack_i64(MAX_OPTIONS)
    blen = stack_i64(MAX_OPTIONS)
    left = stack_i64(MAX_OPTIONS)
    immediate_end = tb.rules[R_END_AT_ACTION] == 0
    i = start
    end = start + length
    while i < end:
        if st[G_OVER] != 0 or st[G_ENDTURN] != 0:
            break
        row = i
        ins = tb.code[row]
        op = ins[I_OP]
        i = skip_branches(tb, row) if op == OP_CHOOSE else row + 1
        if not cond_ok(st, tb, ins, p, f, side):
            continue
        ctl[CTL_CTX_OP] = op          # what the policy is being asked about
        ctl[CTL_CTX_N] = ins[I_N]
        ctl[CTL_CTX_P] = p
        ctl[CTL_CTX_F] = -1
        if (ins[I_FLAGS] & IF_MAY) != 0 and op != OP_DRAW and op != OP_MOVE_FOG and not uses_targets(op):
            if not ask_may(st, tb, ctl, p):
                continue
        amt = ins[I_N]
        if op == OP_CANCEL:
            if side >= 0 and opp_card(st, side) >= 0:
                o = 1 - side
                if not cancel_protected(st, tb, o):
                    st[OFF_CB + CB_CANCEL0 + o] = 1
                    log_ev(st, log, EV_CANCEL, p, o, 1, 0, 0)
                else:
                    log_ev(st, log, EV_CANCEL, p, o, 0, 0, 0)
        elif op == OP_DAMAGE:
            n = targets(st, tb, ctl, ins, p, f, side, tg)
            dmg = amt * per_count(st, tb, p, f, side, ins[I_PER], ins[I_PARG])
            st[G_LAST_DMG] = 0
            st[G_LAST_KO] = 0
            for j in range(n):
                damage_and_count(st, tb, log, tg[j], dmg)
        elif op == OP_DRAW:
            q = p if ins[I_SIDE] != S_OPPOSING else choose_opponent(st, tb, ctl, p, side)
            if q >= 0:
                if ins[I_FLAGS] & IF_MAY and not ask_may(st, tb, ctl, p):
                    continue
                draw_cards(st, tb, log, q, amt * per_count(st, tb, p, f, side, ins[I_PER], ins[I_PARG]))
        elif op == OP_DISCARD:
            q = p if ins[I_SIDE] == S_OWN else choose_opponent(st, tb, ctl, p, side)
            st[G_LAST_DISC] = 0
            st[G_LAST_BOOST] = 0
            if q < 0:
                continue
            if has_passive(st, tb, q, PV_MAY_IGNORE_DISCARD) and st[pslot(q, P_HANDN)] > 0:
                if ask_may(st, tb, ctl, q):
                    log_ev(st, log, EV_IGNORE, q, 0, 0, 0, 0)
                    continue
            if ins[I_FLAGS] & IF_OPTIONAL:
                # the discarding player chooses whether to discard (Confound)
                if st[pslot(q, P_HANDN)] == 0 or not ask_may(st, tb, ctl, q):
                    continue
            for _ in range(amt):
                hn = st[pslot(q, P_HANDN)]
                if hn == 0:
                    break
                if ins[I_X] == 1:
                    # a card whose printed value is the named value (Confirm Suspicion)
                    hb = pile_base(PILE_HAND, q)
                    m = 0
                    for k in range(hn):
                        c = st[hb + k]
                        if tb.cards[c, C_TYPE] != CT_SCHEME and tb.cards[c, C_VALUE] == st[G_GUESS]:
                            m = add_unique(opts, m, c)
                    if m == 0:
                        break
                    c = opts[decide(st, tb, ctl, D_DISCARD_EFFECT, q, opts, m)]
                elif ins[I_FLAGS] & IF_RANDOM:
                    c = st[pile_base(PILE_HAND, q) + rand_below(st, hn)]
                elif ins[I_FLAGS] & IF_YOU_CHOOSE:
                    c = choose_hand_card(st, tb, ctl, D_DISCARD_EFFECT, p, q, False)
                else:
                    c = choose_hand_card(st, tb, ctl, D_DISCARD_EFFECT, q, q, False)
                discard_from_hand(st, log, q, c, 0)
                st[G_LAST_DISC] += 1
                st[G_LAST_BOOST] = tb.cards[c, C_BOOST]
            if ins[I_FLAGS] & IF_YOU_CHOOSE:
                st[pslot(q, P_HAND_SEEN)] = 1
        elif op == OP_MOVE:
            n = targets(st, tb, ctl, ins, p, f, side, tg)
            for j in range(n):
                bud[j] = amt
            st[G_PASSED] = 0
            st[G_MOVED] = tg[0] if n > 0 else -1
            move_group(st, tb, ctl, log, p, tg, bud, n, (ins[I_FLAGS] & IF_THROUGH) != 0,
                       (ins[I_FLAGS] & IF_TRACK) != 0, (ins[I_FLAGS] & IF_ONTO_FOG) != 0)
        elif op == OP_PLACE:
            n = targets(st, tb, ctl, ins, p, f, side, tg)
            if n == 0:
                continue
            center = -1
            if ins[I_X] == PL_LAST_FOG:
                center = st[G_FOG_SPACE]
                if center < 0:
                    continue
            elif ins[I_X] != PL_ANY:
                r = resolve_ref(st, p, f, side, ins[I_Y])
                if r < 0:
                    continue
                center = st[fslot(r, F_SPACE)]
            k = empty_spaces(st, tb, ins[I_X], center, spaces)
            if k > 0 and st[fslot(tg[0], F_NOLEAVE)] == 0:   # a pinned fighter cannot leave its space
                ctl[CTL_CTX_F] = tg[0]
                j = decide(st, tb, ctl, D_PLACE, p, spaces, k)
                place_fighter(st, log, tg[0], spaces[j])
        elif op == OP_RECOVER:
            n = targets(st, tb, ctl, ins, p, f, side, tg)
            amt = amt * per_count(st, tb, p, f, side, ins[I_PER], ins[I_PARG])
            for j in range(n):
                recover(st, log, tg[j], amt)
        elif op == OP_SET_HEALTH:
            n = targets(st, tb, ctl, ins, p, f, side, tg)
            for j in range(n):
                set_health(st, log, tg[j], amt)
        elif op == OP_RETURN_DEFEATED:
            g = -1
            for k in range(FIGHTERS_PER_PLAYER):
                h = p * FIGHTERS_PER_PLAYER + k
                if st[fslot(h, F_STATUS)] == FS_DEFEATED and st[fslot(h, F_KIND)] == ins[I_REF]:
                    g = h
                    break
            if g < 0:
                continue
            r = resolve_ref(st, p, f, side, ins[I_Y])
            if r < 0:
                continue
            k = empty_spaces(st, tb, PL_IN_ZONE, st[fslot(r, F_SPACE)], spaces)
            if k == 0:
                continue
            ctl[CTL_CTX_F] = g
            j = decide(st, tb, ctl, D_PLACE, p, spaces, k)
            st[fslot(g, F_HP)] = st[fslot(g, F_MAXHP)]
            st[fslot(g, F_STATUS)] = FS_IN_PLAY
            st[fslot(g, F_SPACE)] = spaces[j]
            st[fslot(g, F_START_SPACE)] = spaces[j]
            log_ev(st, log, EV_RETURN, g, spaces[j], 0, 0, 0)
        elif op == OP_GAIN_ACTION:
            if p == st[G_ACTIVE] and not actions_blocked(st, tb, p):
                st[G_ACTIONS] += amt
                log_ev(st, log, EV_GAIN_ACTION, p, amt, 0, 0, 0)
        elif op == OP_ADD_VALUE:
            if side >= 0:
                to = (1 - side) if (ins[I_FLAGS] & IF_TO_OPPONENT) != 0 else side
                st[OFF_CB + CB_MOD0 + to] += amt * per_count(st, tb, p, f, side, ins[I_PER], ins[I_PARG])
        elif op == OP_SET_VALUE:
            if side >= 0:
                st[OFF_CB + CB_OVR0 + side] = amt
        elif op == OP_BOOST_THIS:
            if side >= 0:
                c = choose_hand_card(st, tb, ctl, D_BOOST_CARD, p, p, True)
                if c >= 0:
                    discard_from_hand(st, log, p, c, 2)
                    st[OFF_CB + CB_MOD0 + side] += tb.cards[c, C_BOOST]
                    log_ev(st, log, EV_BOOST, p, c, 2, tb.cards[c, C_BOOST], 0)
        elif op == OP_TAKE_FROM_DISCARD:
            b = pile_base(PILE_DISC, p)
            j = 0
            while j < st[pslot(p, P_DISCN)]:
                c = st[b + j]
                if tb.cards[c, C_TAGS] & ins[I_PARG]:
                    take_to_hand(st, log, PILE_DISC, p, c)
                else:
                    j += 1
        elif op == OP_LOOK_AT_HAND:
            q = choose_opponent(st, tb, ctl, p, side)
            if q >= 0:
                st[pslot(q, P_HAND_SEEN)] = 1
                log_ev(st, log, EV_LOOK_HAND, p, q, 0, 0, 0)
        elif op == OP_END_TURN:
            st[G_ENDTURN] = 1
            log_ev(st, log, EV_END_TURN, p, 0, 0, 0, 0)
        elif op == OP_ADD_MOVE:
            acc += amt * per_count(st, tb, p, f, side, ins[I_PER], ins[I_PARG])
        elif op == OP_FLIP_COUNTER:
            s = pslot(p, P_COUNTER0 + ins[I_X])
            st[s] = 1 - st[s]
            log_ev(st, log, EV_COUNTER, p, ins[I_X], st[s], 0, 0)
        elif op == OP_SET_COUNTER:
            st[pslot(p, P_COUNTER0 + ins[I_X])] = amt
            log_ev(st, log, EV_COUNTER, p, ins[I_X], amt, 0, 0)
        elif op == OP_CHOOSE_COUNTER:
            for k in range(amt):
                opts[k] = k
            v = decide(st, tb, ctl, D_OPTION, p, opts, amt)
            st[pslot(p, P_COUNTER0 + ins[I_X])] = v
            log_ev(st, log, EV_COUNTER, p, ins[I_X], v, 0, 0)
        elif op == OP_PREVENT_DAMAGE:
            st[OFF_CB + CB_PREVENT] = 1
        elif op == OP_IGNORE_VALUE:
            if side >= 0:
                st[OFF_CB + CB_IGN0 + (1 - side)] = 1
        elif op == OP_SEARCH:
            search(st, tb, ctl, log, p, ins[I_X], ins[I_Y] - 1, ins[I_PARG])
        elif op == OP_LOOK_TOP:
            look_top(st, tb, ctl, log, p, amt, ins[I_X], (ins[I_FLAGS] & IF_BOTTOM) != 0)
        elif op == OP_DAMAGE_SPACES:
            r = resolve_ref(st, p, f, side, ins[I_REF])
            if r < 0:
                continue
            k = 0
            for sp in range(S):
                if same_zone(tb, sp, st[fslot(r, F_SPACE)]):
                    spaces[k] = sp
                    k += 1
            a = spaces[decide(st, tb, ctl, D_PLACE, p, spaces, k)]
            k = 0
            for sp in range(S):
                if adjacent(tb, a, sp):
                    spaces[k] = sp
                    k += 1
            b2 = spaces[decide(st, tb, ctl, D_PLACE, p, spaces, k)] if k > 0 else -1
            st[G_LAST_DMG] = 0
            st[G_LAST_KO] = 0
            for g in range(MAX_FIGHTERS):
                if st[fslot(g, F_STATUS)] == FS_IN_PLAY and side_ok(st, p, g, ins[I_SIDE]):
                    gs = st[fslot(g, F_SPACE)]
                    if gs == a or gs == b2:
                        damage_and_count(st, tb, log, g, amt)
        elif op == OP_DISCARD_TOP:
            q = p if ins[I_SIDE] != S_OPPOSING else choose_opponent(st, tb, ctl, p, side)
            st[G_LAST_BOOST] = 0
            if q >= 0:
                dn = st[pslot(q, P_DECKN)]
                if dn > 0:
                    c = pile_remove_at(st, PILE_DECK, q, dn - 1)
                    pile_push(st, PILE_DISC, q, c)
                    st[G_LAST_BOOST] = tb.cards[c, C_BOOST]
                    log_ev(st, log, EV_DISCARD, q, c, 3, 0, 0)
        elif op == OP_PIN:
            n = targets(st, tb, ctl, ins, p, f, side, tg)
            for j in range(n):
                st[fslot(tg[j], F_NOLEAVE)] = 1
                log_ev(st, log, EV_PIN, tg[j], 0, 0, 0, 0)
        elif op == OP_SWAP:
            n = targets(st, tb, ctl, ins, p, f, side, tg)
            if (n > 0 and f >= 0 and st[fslot(f, F_STATUS)] == FS_IN_PLAY and tg[0] != f
                    and st[fslot(f, F_NOLEAVE)] == 0 and st[fslot(tg[0], F_NOLEAVE)] == 0):
                a = st[fslot(f, F_SPACE)]
                st[fslot(f, F_SPACE)] = st[fslot(tg[0], F_SPACE)]
                st[fslot(tg[0], F_SPACE)] = a
                st[fslot(f, F_LEFT)] = 1
                st[fslot(tg[0], F_LEFT)] = 1
                log_ev(st, log, EV_SWAP, f, tg[0], 0, 0, 0)
        elif op == OP_SUMMON:
            summon(st, tb, ctl, log, p, f, side, ins[I_REF], ins[I_Y], spaces)
        elif op == OP_REMOVE:
            h = hero_of(p)
            if st[fslot(h, F_STATUS)] == FS_IN_PLAY:
                st[fslot(h, F_STATUS)] = FS_REMOVED
                st[fslot(h, F_SPACE)] = -1
                st[pslot(p, P_RETURN)] = card + 2
                log_ev(st, log, EV_REMOVE, h, 0, 0, 0, 0)
        elif op == OP_DISCARD_FOR_VALUE:
            if side >= 0:
                while True:
                    hn = st[pslot(p, P_HANDN)]
                    m = 0
                    hb = pile_base(PILE_HAND, p)
                    for k in range(hn):
                        c = st[hb + k]
                        if ((ins[I_PARG] == 0 or (tb.cards[c, C_TAGS] & ins[I_PARG]) != 0)
                                and (ins[I_X] == 0 or tb.cards[c, C_FORM] == ins[I_X])):
                            m = add_unique(opts, m, c)
                    if m == 0:
                        break
                    opts[m] = -1
                    c = opts[decide(st, tb, ctl, D_BOOST_CARD, p, opts, m + 1)]
                    if c < 0:
                        break
                    discard_from_hand(st, log, p, c, 0)
                    st[OFF_CB + CB_MOD0 + side] += amt
        elif op == OP_RECLAIM:
            dn = st[pslot(p, P_DISCN)]
            if dn > 0:
                m = 0
                db = pile_base(PILE_DISC, p)
                for k in range(dn):
                    m = add_unique(opts, m, st[db + k])
                c = opts[decide(st, tb, ctl, D_TAKE_CARD, p, opts, m)]
                if ins[I_X] == 1:
                    take_to_hand(st, log, PILE_DISC, p, c)
                else:
                    pile_take(st, PILE_DISC, p, c)
                    pile_push(st, PILE_DECK, p, c)
                    log_ev(st, log, EV_TAKE, p, c, PILE_DISC, 1, 0)
        elif op == OP_SELF_TO_DECK:
            st[G_FLAGS] |= GF_SELF_TO_DECK
        elif op == OP_PLACE_FOG:
            r = resolve_ref(st, p, f, side, ins[I_Y])
            if r >= 0 and st[fslot(r, F_STATUS)] == FS_IN_PLAY:
                place_fog(st, tb, ctl, log, p, amt, st[fslot(r, F_SPACE)])
        elif op == OP_MOVE_FOG:
            q = p if ins[I_SIDE] != S_OPPOSING else choose_opponent(st, tb, ctl, p, side)
            if q < 0:
                continue
            h = hero_of(p)
            hs = st[fslot(h, F_SPACE)] if st[fslot(h, F_STATUS)] == FS_IN_PLAY else -1
            if ins[I_X] == FT_UNDER_HERO and hs < 0:
                continue
            move_fog(st, tb, ctl, log, p, q, amt, ins[I_X], hs, (ins[I_FLAGS] & IF_EMPTY) != 0,
                     (ins[I_FLAGS] & IF_DIFFERENT) != 0, (ins[I_FLAGS] & IF_MAY) != 0)
        elif op == OP_REPLACE_CARD:
            if side >= 0:
                replace_card(st, tb, ctl, log, p, 1 - side)
        elif op == OP_SET_PRINTED:
            if side >= 0:
                o = side if ins[I_X] == 0 else 1 - side
                c = st[OFF_CB + CB_CARD0 + o]
                if c >= 0:
                    v = tb.cards[c, C_BOOST] if ins[I_Y] == 0 else amt
                    st[OFF_CB + CB_PRINTED0 + o] = v
                    log_ev(st, log, EV_SET_PRINTED, p, o, v, 0, 0)
        elif op == OP_ZERO_VALUE:
            if side >= 0:
                st[OFF_CB + CB_LOCK0 + 1 - side] = 1
        elif op == OP_PREDICT:
            if side >= 0 and opp_card(st, side) >= 0:
                o = 1 - side
                m = possible_values(st, tb, st[OFF_CB + CB_ATT_P + o], st[OFF_CB + CB_ATT_F + o], o, vals)
                if m > 0:
                    v = vals[decide(st, tb, ctl, D_GUESS, p, vals, m)]
                    st[OFF_CB + CB_GUESS0 + side] = v + 1
                    log_ev(st, log, EV_GUESS, p, v, -1, 0, 0)
        elif op == OP_NAME_VALUE:
            st[G_GUESS] = -1
            q = choose_opponent(st, tb, ctl, p, side)
            if q >= 0:
                m = possible_values(st, tb, q, -1, 2, vals)
                if m > 0:
                    v = vals[decide(st, tb, ctl, D_GUESS, p, vals, m)]
                    st[G_GUESS] = v
                    log_ev(st, log, EV_GUESS, p, v, -1, 0, 0)
        elif op == OP_REVEAL_TOP:
            st[G_LAST_BOOST] = 0
            dn = st[pslot(p, P_DECKN)]
            if dn > 0:
                c = pile_remove_at(st, PILE_DECK, p, dn - 1)
                pile_push(st, PILE_HAND, p, c)
                st[G_LAST_BOOST] = tb.cards[c, C_BOOST]
                log_ev(st, log, EV_TAKE, p, c, PILE_DECK, 3, 0)
        elif op == OP_HAND_TO_DECK:
            for _ in range(amt):
                c = choose_hand_card(st, tb, ctl, D_TAKE_CARD, p, p, False)
                if c < 0:
                    break
                pile_take(st, PILE_HAND, p, c)
                pile_push(st, PILE_DECK, p, c)
                log_ev(st, log, EV_TAKE, p, c, PILE_HAND, 1, 0)
        elif op == OP_CHOOSE:
            nb = ins[I_X]
            j = row + 1
            for k in range(nb):
                bstart[k] = j + 1
                blen[k] = tb.code[j, I_X]
                j += 1 + blen[k]
            for k in range(nb):
                left[k] = k + 1
            m = nb
            for _ in range(amt if amt < nb else nb):
                if st[G_OVER] != 0 or st[G_ENDTURN] != 0:
                    break
                k = decide(st, tb, ctl, D_OPTION, p, left, m)
                opt = left[k] - 1
                left[k] = left[m - 1]
                m -= 1
                log_ev(st, log, EV_CHOOSE, p, opt + 1, 0, 0, 0)
                run_program(st, tb, ctl, log, bstart[opt], blen[opt], p, f, side, card)
        if immediate_end:
            check_end(st, tb, log)
    return acc


@jit(V(ST, TB, CTL, LOG, I, I, I, I, I))
def run_card_window(st, tb, ctl, log, card, window, p, f, side):
    """Run the program of ``card`` for timing window ``window`` (``W_*``)."""
    s = tb.cards[card, C_PROG + 2 * window]
    n = tb.cards[card, C_PROG + 2 * window + 1]
    if st[G_NPLAYERS] > 2:
        st[G_OPPONENT] = -1   # a new card: "your opponent" is chosen afresh (choose_opponent)
    if n > 0:
        form = tb.cards[card, C_FORM]
        if form != 0 and tb.rules[R_OFF_FORM] != 0 and st[pslot(p, P_COUNTER0 + FORM_COUNTER)] != form - 1:
            return      # rules option off_form_cards: a form card's effects need its form (R44)
        run_program(st, tb, ctl, log, s, n, p, f, side, card)


@jit(I(ST, TB, CTL, LOG, I, I, I, I))
def run_hook(st, tb, ctl, log, hook, p, f, side):
    """Run player ``p``'s hero ability hook ``hook`` (``HK_*``); return its total."""
    h = st[pslot(p, P_HERO)]
    s = tb.heroes[h, H_HOOKS + 2 * hook]
    n = tb.heroes[h, H_HOOKS + 2 * hook + 1]
    if n == 0:
        return 0
    if st[G_NPLAYERS] > 2:
        st[G_OPPONENT] = -1   # an ability: "your opponent" is chosen afresh (choose_opponent)
    return run_program(st, tb, ctl, log, s, n, p, f, side, -1)
