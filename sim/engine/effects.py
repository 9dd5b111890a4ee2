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

:func:`run_program` walks the rows and checks each step's condition; the op runs in
the handler of its family (``run_value_op``, ``run_fighter_op``, ``run_move_op``,
``run_card_op``, ``run_turn_op``). Targets and the opponent are resolved by
:mod:`sim.engine.targets`; the longer operations (group moves, searches, fog,
replacing a card) are in :mod:`sim.engine.effect_ops`.
"""
import numpy as np

from .sigs import B, CTL, I, INS, jit, LOG, ST, stack_i64, TB, V
from .codes import (  # noqa: F401  (re-exported: callers outside the engine import them from here)
    CN_ADJACENT, CN_ALWAYS, CN_ATTACKED, CN_ATTACKING, CN_COUNTER_EQ, CN_COUNTER_NE, CN_DEALT_DAMAGE,
    CN_DEFEATED_ANY, CN_DEFENDING, CN_DISCARDED, CN_FIRST_ACTION, CN_HAND_AT_LEAST, CN_HERO_ATTACKED,
    CN_HERO_HP_AT_MOST, CN_KIND_IN_ZONE_OF, CN_LEFT_SPACE, CN_NOT_WON, CN_NOTHING_TO_DISCARD, CN_ON_FOG,
    CN_OPP_HP_AT_LEAST, CN_OPP_PRINTED_AT_LEAST, CN_OPP_PRINTED_EQ, CN_OPPOSING_IS_HERO, CN_PREDICTED,
    CN_STARTED_ELSEWHERE, CN_STARTED_ON_FOG, CN_TAG_TIER, CN_TOOK_FROM_DECK, CN_WON, CT_ATTACK, CT_DEFENSE,
    CT_SCHEME, CT_VERSATILE, D_BOOST_CARD, D_DISCARD_EFFECT, D_FOG_DEST, D_FOG_TOKEN, D_FORCE_CARD, D_GUESS,
    D_MAY, D_MOVE_DEST, D_MOVE_WHICH, D_OPPONENT, D_OPTION, D_PLACE, D_TAKE_CARD, D_TARGET, EV_ABILITY, EV_BOOST,
    EV_CANCEL,
    EV_CHOOSE, EV_COUNTER, EV_DEFENDER, EV_DISCARD, EV_END_TURN, EV_FOG, EV_GAIN_ACTION, EV_GUESS, EV_IGNORE, EV_LOOK_HAND,
    EV_LOOK_TOP, EV_PIN, EV_REMOVE, EV_REPLACE, EV_RETURN, EV_SEARCH, EV_SET_PRINTED, EV_SWAP, EV_TAKE,
    FS_DEFEATED, FS_IN_PLAY, FS_REMOVED, FT_ANY, FT_EACH, FT_UNDER_HERO, GF_SELF_TO_DECK, GF_TO_HAND0, GF_TO_HAND1,
    GF_TOOK_FROM_DECK,
    HK_FIGHTER_DEFEATED,
    IF_BOTTOM, IF_DIFFERENT, IF_EMPTY, IF_EXCLUDE_OPP, IF_EXCLUDE_REF, IF_MAY, IF_ONTO_FOG, IF_OPTIONAL,
    IF_OTHER_SPACE, IF_RANDOM, IF_ROUTE, IF_THROUGH, IF_TO_OPPONENT, IF_TRACK, IF_UP_TO, IF_YOU_CHOOSE, N_OPS,
    OP_ADD_MOVE, OP_ADD_VALUE, OP_ARRANGE_TOP, OP_BECOME_DEFENDER, OP_BOOST_THIS, OP_BRANCH, OP_CANCEL, OP_CHOOSE, OP_CHOOSE_COUNTER,
    OP_DAMAGE,
    OP_DAMAGE_SPACES, OP_DISCARD, OP_DISCARD_FOR_VALUE, OP_DISCARD_TOP, OP_DRAW, OP_END_TURN, OP_FLIP_COUNTER,
    OP_GAIN_ACTION, OP_HAND_TO_DECK, OP_IGNORE_VALUE, OP_LOOK_AT_HAND, OP_LOOK_TOP, OP_MOVE, OP_MOVE_FOG,
    OP_NAME_VALUE, OP_NOP, OP_PIN, OP_PLACE, OP_PLACE_FOG, OP_PREDICT, OP_PREVENT_DAMAGE, OP_RECLAIM,
    OP_RECOVER, OP_REMOVE, OP_REPLACE_CARD, OP_RETURN_DEFEATED, OP_REVEAL_TOP, OP_SEARCH, OP_SELF_TO_DECK,
    OP_SET_COUNTER, OP_SET_HEALTH, OP_SET_PRINTED, OP_SET_VALUE, OP_SUMMON, OP_SWAP, OP_TAKE_FROM_DISCARD, OP_TO_HAND,
    OP_ZERO_VALUE, PER_ADJ_TO_SELF, PER_DAMAGE_TAKEN, PER_DISCARD_TAG, PER_KIND_ADJ_MOVED,
    PER_KIND_IN_ZONE_OF_OPPOSING, PER_LAST_BOOST, PER_LAST_DAMAGE, PER_ONE, PER_OPP_BOOST, PER_OWN_ADJ_OPPOSING,
    PILE_DECK, PILE_DISC, PILE_HAND, PL_ADJ, PL_ANY, PL_IN_ZONE, PL_LAST_FOG, PV_MAY_IGNORE_DISCARD,
    PV_NO_OPPONENT_ACTIONS, R_END_AT_ACTION, R_FOG_MOVE_PLACES, R_OFF_FORM, REF_OPPOSING, REF_SELF, S_ANY,
    S_OPPOSING, S_OWN, SEL_ALL, SEL_EACH_ADJ, SEL_EACH_FOG, SEL_EACH_KIND, SEL_EACH_OWN, SEL_EACH_PASSED, SEL_EACH_ZONE,
    SEL_MOVED, SEL_ONE_ADJ, SEL_ONE_ANY, SEL_ONE_COMBATANT, SEL_ONE_PASSED, SEL_ONE_WITHIN, SEL_ONE_ZONE,
    SEL_OPP_HERO, SEL_REF, SR_DECK, SR_DECK_OR_DISCARD, SR_DISCARD, SR_DISCARD_THEN_DECK, TAG_UNCANCELABLE,
    CN_AWAY_FROM_START, CN_DISC_TOP_AT_LEAST, CN_DISC_TOP_TYPE, CN_KIND_DEFEATED, CN_KIND_ON_BOARD,
    CN_NO_OPP_IN_ZONE, PER_COMBAT_DAMAGE, PER_OPP_PRINTED, PER_ZONES,
)
from .core import (
    add_unique, adjacent, check_end, discard_from_hand, draw_cards, hero_of, log_ev, pile_base, pile_push,
    pile_remove_at, pile_take, place_fighter, rand_below, recover, same_zone, set_health, take_to_hand,
)
from .ops import FAM_CARD, FAM_FIGHTER, FAM_MOVE, FAM_TURN, FAM_VALUE, OPS
from .layout import (
    C_BOOST, C_FORM, C_PROG, C_TAGS, C_TYPE, C_VALUE, CARD_OPTS, CB_ACTIVE, CB_ATT_F, CB_ATT_P, CB_CANCEL0, CB_CARD0,
    CB_DEF_F, CB_DEF_P,
    CB_CAP, CB_GUESS0, CB_IGN0, CB_LOCK0, CB_MOD0, CB_OVR0, CB_PREVENT, CB_PRINTED0, F_HP, F_KIND, F_KO, F_LEFT,
    F_MAXHP, F_OWNER, F_NOLEAVE, F_SPACE, F_START_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, FORM_COUNTER, fslot,
    G_ACTIONS, G_ACTIVE, G_ENDTURN, G_FLAGS, G_FOG_SPACE, G_GUESS, G_LAST_BOOST, G_LAST_DISC, G_LAST_DMG,
    G_LAST_KO, G_LOGN, G_MOVED, G_NPLAYERS, G_OPPONENT, G_OVER, G_PASSED, H_HOOKS, I_FLAGS, I_N, I_OP, I_PARG,
    I_PER, I_REF, I_SIDE, I_X, I_Y, MAX_FIGHTERS, MAX_OPTIONS, MAX_SPACES, N_VALUES, OFF_CB, P_COUNTER0,
    P_DECKN, P_DISCN, P_HAND_SEEN, P_HANDN, P_HERO, P_RETURN, pslot,
)
from .control import CTL_CTX_END, CTL_CTX_ROW
from .policy import CTL_CTX_F, CTL_CTX_N, CTL_CTX_OP, CTL_CTX_P, decide
from .conditions import cond_ok, opp_card, resolve_ref
from .damage import take_damage
from .targets import (  # noqa: F401  (opponent_player, choose_opponent: re-exported for callers outside the engine)
    actions_blocked, ask_may, cancel_protected, choose_hand_card, choose_opponent, has_passive, opponent_player,
    per_count, side_ok, targets, uses_targets,
)
from .effect_ops import (
    add_unheld_value, arrange_top, empty_spaces, look_top, move_fog, move_group, place_fog, place_on_fog,
    place_spaces, possible_values, reclaim, replace_card, route_passes, search, summon,
)


@jit(I(TB, I))
def skip_branches(tb, i):
    """Row after the OP_CHOOSE at row ``i`` and all of its branches."""
    j = i + 1
    for _ in range(tb.code[i, I_X]):
        j += 1 + tb.code[j, I_X]
    return j


# opcode -> FAM_* of the handler that runs it, from the op registry (an op missing there has no code)
_OP_FAMILY = np.zeros(N_OPS, np.int64)
for _op in OPS:
    _OP_FAMILY[_op.code] = _op.family
del _op


@jit(B(ST, TB, CTL, LOG, INS, I, I, I, I, I))
def run_value_op(st, tb, ctl, log, ins, op, p, f, side, card):
    """Steps that change the combat cards and their values (cancel, +value, value instead,
    BOOST, prevent, ignore, replace, printed value, zero value, predict).

    Arguments and return value: the handler contract of :func:`run_program`."""
    amt = ins[I_N]
    opts = stack_i64(CARD_OPTS)
    vals = stack_i64(N_VALUES)
    if op == OP_CANCEL:
        if side >= 0 and opp_card(st, side) >= 0:
            o = 1 - side
            if not cancel_protected(st, tb, o):
                st[OFF_CB + CB_CANCEL0 + o] = 1
                log_ev(st, log, EV_CANCEL, p, o, 1, 0, 0)
            else:
                log_ev(st, log, EV_CANCEL, p, o, 0, 0, 0)
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
    elif op == OP_PREVENT_DAMAGE:
        if f >= 0:
            st[OFF_CB + CB_PREVENT] = f + 1   # all damage to the card's fighter, for the rest of the combat (R70)
            st[OFF_CB + CB_CAP] = ins[I_X]    # ... or, with at_most, all above the cap (CB_CAP - 1) of each damage
    elif op == OP_IGNORE_VALUE:
        if side >= 0:
            st[OFF_CB + CB_IGN0 + (1 - side)] = 1
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
    return True


@jit(B(ST, TB, CTL, LOG, INS, I, I, I, I, I))
def run_fighter_op(st, tb, ctl, log, ins, op, p, f, side, card):
    """Steps that change fighters where they stand: damage, recovery, health, return of a
    defeated fighter, damage to spaces, pin, swap, remove, another fighter defends.

    Arguments and return value: the handler contract of :func:`run_program`."""
    amt = ins[I_N]
    tg = stack_i64(MAX_FIGHTERS)
    spaces = stack_i64(MAX_SPACES)
    S = tb.adj.shape[0]
    if op == OP_DAMAGE:
        n = targets(st, tb, ctl, ins, p, f, side, tg)
        dmg = amt * per_count(st, tb, p, f, side, ins[I_PER], ins[I_PARG])
        st[G_LAST_DMG] = 0
        st[G_LAST_KO] = 0
        for j in range(n):
            take_damage(st, tb, ctl, log, tg[j], dmg)
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
            return False
        r = resolve_ref(st, p, f, side, ins[I_Y])
        if r < 0:
            return False
        k = empty_spaces(st, tb, PL_IN_ZONE, st[fslot(r, F_SPACE)], spaces)
        if k == 0:
            return False
        ctl[CTL_CTX_F] = g
        j = decide(st, tb, ctl, D_PLACE, p, spaces, k)
        st[fslot(g, F_HP)] = st[fslot(g, F_MAXHP)]
        st[fslot(g, F_STATUS)] = FS_IN_PLAY
        st[fslot(g, F_SPACE)] = spaces[j]
        st[fslot(g, F_START_SPACE)] = spaces[j]
        log_ev(st, log, EV_RETURN, g, spaces[j], 0, 0, 0)
    elif op == OP_DAMAGE_SPACES:
        r = resolve_ref(st, p, f, side, ins[I_REF])
        if r < 0:
            return False
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
                    take_damage(st, tb, ctl, log, g, amt)
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
    elif op == OP_BECOME_DEFENDER:
        # Under Achilles' Helm: one of the defender's player's other fighters defends from now on
        # (docs/rules.md, "Another fighter defends")
        n = targets(st, tb, ctl, ins, p, f, side, tg)
        o = OFF_CB
        if (side == 1 and n > 0 and st[o + CB_ACTIVE] != 0 and st[o + CB_DEF_P] == p
                and tg[0] != st[o + CB_DEF_F] and st[fslot(tg[0], F_STATUS)] == FS_IN_PLAY):
            log_ev(st, log, EV_DEFENDER, tg[0], st[o + CB_DEF_F], 0, 0, 0)
            st[o + CB_DEF_F] = tg[0]
    elif op == OP_REMOVE:
        h = hero_of(p)
        if st[fslot(h, F_STATUS)] == FS_IN_PLAY:
            st[fslot(h, F_STATUS)] = FS_REMOVED
            st[fslot(h, F_SPACE)] = -1
            st[pslot(p, P_RETURN)] = card + 2
            log_ev(st, log, EV_REMOVE, h, 0, 0, 0, 0)
    return True


@jit(B(ST, TB, CTL, LOG, INS, I, I, I, I, I))
def run_move_op(st, tb, ctl, log, ins, op, p, f, side, card):
    """Steps that move or place fighters and fog tokens: move, place, summon, place fog, move fog.

    Arguments and return value: the handler contract of :func:`run_program`."""
    amt = ins[I_N]
    tg = stack_i64(MAX_FIGHTERS)
    bud = stack_i64(MAX_FIGHTERS)
    spaces = stack_i64(MAX_SPACES)
    if op == OP_MOVE:
        n = targets(st, tb, ctl, ins, p, f, side, tg)
        for j in range(n):
            bud[j] = amt
        st[G_PASSED] = 0
        st[G_MOVED] = tg[0] if n > 0 else -1
        if (ins[I_FLAGS] & IF_ONTO_FOG) != 0 and tb.rules[R_FOG_MOVE_PLACES] != 0:
            for j in range(n):      # rules option: Lurking's move to a fog space is a place (R72)
                place_on_fog(st, tb, ctl, log, p, tg[j])
            return True
        src = st[fslot(tg[0], F_SPACE)] if n > 0 else -1
        move_group(st, tb, ctl, log, p, tg, bud, n, (ins[I_FLAGS] & IF_THROUGH) != 0,
                   (ins[I_FLAGS] & IF_TRACK) != 0, (ins[I_FLAGS] & IF_ONTO_FOG) != 0)
        if (ins[I_FLAGS] & IF_ROUTE) != 0 and n == 1 and src >= 0:   # an each = "passed" target follows
            st[G_PASSED] = route_passes(st, tb, src, st[fslot(tg[0], F_SPACE)], amt)
    elif op == OP_PLACE:
        n = targets(st, tb, ctl, ins, p, f, side, tg)
        if n == 0:
            return False
        center = -1
        if ins[I_X] == PL_LAST_FOG:
            center = st[G_FOG_SPACE]
            if center < 0:
                return False
        elif ins[I_X] != PL_ANY:
            r = resolve_ref(st, p, f, side, ins[I_Y])
            if r < 0:
                return False
            center = st[fslot(r, F_SPACE)]
        # the empty spaces the wording allows, and the fighter's own one unless it says "other" (R69)
        k = place_spaces(st, tb, ins[I_X], center, tg[0], (ins[I_FLAGS] & IF_OTHER_SPACE) != 0, spaces)
        if k > 0 and st[fslot(tg[0], F_NOLEAVE)] == 0:   # a pinned fighter cannot leave its space
            ctl[CTL_CTX_F] = tg[0]
            j = decide(st, tb, ctl, D_PLACE, p, spaces, k)
            if spaces[j] != st[fslot(tg[0], F_SPACE)]:
                place_fighter(st, log, tg[0], spaces[j])
    elif op == OP_SUMMON:
        summon(st, tb, ctl, log, p, f, side, ins[I_REF], ins[I_Y], spaces)
    elif op == OP_PLACE_FOG:
        r = resolve_ref(st, p, f, side, ins[I_Y])
        if r >= 0 and st[fslot(r, F_STATUS)] == FS_IN_PLAY:
            place_fog(st, tb, ctl, log, p, amt, st[fslot(r, F_SPACE)])
    elif op == OP_MOVE_FOG:
        q = p if ins[I_SIDE] != S_OPPOSING else choose_opponent(st, tb, ctl, p, side)
        if q < 0:
            return False
        h = hero_of(p)
        hs = st[fslot(h, F_SPACE)] if st[fslot(h, F_STATUS)] == FS_IN_PLAY else -1
        if ins[I_X] == FT_UNDER_HERO and hs < 0:
            return False
        move_fog(st, tb, ctl, log, p, q, amt, ins[I_X], hs, (ins[I_FLAGS] & IF_EMPTY) != 0,
                 (ins[I_FLAGS] & IF_DIFFERENT) != 0, (ins[I_FLAGS] & IF_MAY) != 0)
    return True


@jit(B(ST, TB, CTL, LOG, INS, I, I, I, I, I))
def run_card_op(st, tb, ctl, log, ins, op, p, f, side, card):
    """Steps on decks, hands and discard piles: draw, discard, take, look, search, reclaim,
    reveal, name a value, hand to deck.

    Arguments and return value: the handler contract of :func:`run_program`."""
    amt = ins[I_N]
    opts = stack_i64(CARD_OPTS)
    vals = stack_i64(N_VALUES)
    if op == OP_DRAW:
        q = p if ins[I_SIDE] != S_OPPOSING else choose_opponent(st, tb, ctl, p, side)
        if q >= 0:
            if ins[I_FLAGS] & IF_MAY and not ask_may(st, tb, ctl, p):
                return False
            draw_cards(st, tb, log, q, amt * per_count(st, tb, p, f, side, ins[I_PER], ins[I_PARG]))
    elif op == OP_DISCARD:
        q = p if ins[I_SIDE] == S_OWN else choose_opponent(st, tb, ctl, p, side)
        st[G_LAST_DISC] = 0
        st[G_LAST_BOOST] = 0
        if q < 0:
            return False
        hn = st[pslot(q, P_HANDN)]
        if ins[I_X] == 1 and hn > 0:
            # only a card of the named printed value can be discarded (Confirm Suspicion)
            hb = pile_base(PILE_HAND, q)
            hn = 0
            for k in range(st[pslot(q, P_HANDN)]):
                c = st[hb + k]
                if tb.cards[c, C_TYPE] != CT_SCHEME and tb.cards[c, C_VALUE] == st[G_GUESS]:
                    hn += 1
        if hn == 0:
            return False       # nothing to discard (G_LAST_DISC 0: "nothing_to_discard", R68)
        if has_passive(st, tb, q, PV_MAY_IGNORE_DISCARD):
            ctl[CTL_CTX_OP] = -1   # (asked "ignore it?": not the discard's own "may", which the AI prices)
            ignore = ask_may(st, tb, ctl, q)
            ctl[CTL_CTX_OP] = op
            if ignore:
                # Tawny Owl: the effect is ignored; it did not find the hand without a card (R68)
                st[G_LAST_DISC] = -1
                log_ev(st, log, EV_IGNORE, q, 0, 0, 0, 0)
                return False
        if ins[I_FLAGS] & IF_OPTIONAL:
            # the discarding player chooses whether to discard (Confound)
            if not ask_may(st, tb, ctl, q):
                st[G_LAST_DISC] = -1
                return False
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
    elif op == OP_SEARCH:
        search(st, tb, ctl, log, p, ins[I_X], ins[I_Y] - 1, ins[I_PARG])
    elif op == OP_LOOK_TOP:
        look_top(st, tb, ctl, log, p, amt, ins[I_X], (ins[I_FLAGS] & IF_BOTTOM) != 0, (ins[I_FLAGS] & IF_UP_TO) != 0)
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
    elif op == OP_RECLAIM:
        reclaim(st, tb, ctl, log, p, ins[I_X], (ins[I_FLAGS] & IF_RANDOM) != 0, ins[I_Y] - 1, opts)
    elif op == OP_SELF_TO_DECK:
        st[G_FLAGS] |= GF_SELF_TO_DECK
    elif op == OP_ARRANGE_TOP:
        q = p if ins[I_SIDE] != S_OPPOSING else choose_opponent(st, tb, ctl, p, side)
        if q >= 0:
            arrange_top(st, tb, ctl, log, p, q, amt, (ins[I_FLAGS] & IF_BOTTOM) != 0)
    elif op == OP_TO_HAND:
        st[G_FLAGS] |= GF_TO_HAND1 if side == 1 else GF_TO_HAND0   # read where the card is put away (rules)
    elif op == OP_NAME_VALUE:
        st[G_GUESS] = -1
        q = choose_opponent(st, tb, ctl, p, side)
        if q >= 0:
            m = possible_values(st, tb, q, -1, 2, vals)
            m = add_unheld_value(vals, m)     # any value may be named, also one no card has (R67)
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
    return True


@jit(B(ST, TB, CTL, LOG, INS, I, I, I, I, I))
def run_turn_op(st, tb, ctl, log, ins, op, p, f, side, card):
    """Steps on the turn and the hero counters: gain actions, end the turn, flip / set / choose a counter.

    Arguments and return value: the handler contract of :func:`run_program`."""
    amt = ins[I_N]
    opts = stack_i64(CARD_OPTS)
    if op == OP_GAIN_ACTION:
        # only the player taking the turn gains actions (who = "opponent": on a defense card)
        q = p if ins[I_SIDE] != S_OPPOSING else choose_opponent(st, tb, ctl, p, side)
        if q >= 0 and q == st[G_ACTIVE] and not actions_blocked(st, tb, q):
            st[G_ACTIONS] += amt
            log_ev(st, log, EV_GAIN_ACTION, q, amt, 0, 0, 0)
    elif op == OP_END_TURN:
        st[G_ENDTURN] = 1
        log_ev(st, log, EV_END_TURN, p, 0, 0, 0, 0)
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
    return True


@jit(I(ST, TB, CTL, LOG, I, I, I, I, I, I))
def run_program(st, tb, ctl, log, start, length, p, f, side, card):
    """Run ``length`` instruction rows from ``start``; return the ``add_move`` total.

    Stops early when the game ends or an effect ends the turn. An ``OP_NOP`` row whose
    condition fails skips the ``I_X`` rows after it (a guard: the compiler writes one before a
    step for each of its conditions after the first; ``I_X`` 0 otherwise). Each step's op runs in
    the handler of its family (``_OP_FAMILY``); ``add_move`` and ``choose`` (which runs
    the chosen branches as programs) are run here. A handler ``run_*_op(st, tb, ctl, log,
    ins, op, p, f, side, card)`` runs step ``ins`` (opcode ``op``) for player ``p``,
    fighter ``f``, combat side ``side`` and card ``card``; it returns False when the step
    stopped before acting (no target, no opponent, nothing to choose), and the game-end
    check is then skipped, as for a step whose condition failed.
    """
    acc = 0
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
            if op == OP_NOP:
                i += ins[I_X]     # a guard (a step's second, third, ... condition) fails: skip the step's rows
            continue
        ctl[CTL_CTX_OP] = op          # what the policy is being asked about
        ctl[CTL_CTX_ROW] = row
        ctl[CTL_CTX_END] = end
        ctl[CTL_CTX_N] = ins[I_N]
        ctl[CTL_CTX_P] = p
        ctl[CTL_CTX_F] = -1
        if (ins[I_FLAGS] & IF_MAY) != 0 and op != OP_DRAW and op != OP_MOVE_FOG and not uses_targets(op):
            if not ask_may(st, tb, ctl, p):
                continue
        fam = _OP_FAMILY[op]
        done = True
        if fam == FAM_VALUE:
            done = run_value_op(st, tb, ctl, log, ins, op, p, f, side, card)
        elif fam == FAM_FIGHTER:
            done = run_fighter_op(st, tb, ctl, log, ins, op, p, f, side, card)
        elif fam == FAM_MOVE:
            done = run_move_op(st, tb, ctl, log, ins, op, p, f, side, card)
        elif fam == FAM_CARD:
            done = run_card_op(st, tb, ctl, log, ins, op, p, f, side, card)
        elif fam == FAM_TURN:
            done = run_turn_op(st, tb, ctl, log, ins, op, p, f, side, card)
        elif op == OP_ADD_MOVE:
            acc += ins[I_N] * per_count(st, tb, p, f, side, ins[I_PER], ins[I_PARG])
        elif op == OP_CHOOSE:
            amt = ins[I_N]
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
                ctl[CTL_CTX_OP] = op      # a later pick is asked about this step again, not the last branch's
                ctl[CTL_CTX_ROW] = row
                ctl[CTL_CTX_END] = end
                ctl[CTL_CTX_N] = ins[I_N]
                ctl[CTL_CTX_P] = p
                ctl[CTL_CTX_F] = f        # (the fighter playing the card: "self" in an option's steps)
                k = decide(st, tb, ctl, D_OPTION, p, left, m)
                opt = left[k] - 1
                left[k] = left[m - 1]
                m -= 1
                log_ev(st, log, EV_CHOOSE, p, opt + 1, 0, 0, 0)
                run_program(st, tb, ctl, log, bstart[opt], blen[opt], p, f, side, card)
        if done and immediate_end:
            check_end(st, tb, log)
    return acc


#: most fighter_defeated abilities one :func:`defeat_hooks` call resolves: a homebrew ability that
#: brings its fighter back and defeats it again could otherwise loop for ever
MAX_DEFEAT_HOOKS = 16


@jit(V(ST, TB, CTL, LOG))
def defeat_hooks(st, tb, ctl, log):
    """Resolve the pending ``fighter_defeated`` abilities: each fighter that
    :func:`sim.engine.core.deal_damage` defeated and marked (``F_KO``: its owner's hero has the
    hook, for that fighter or for any), in fighter slot order, once the effect that defeated it is
    over; a fighter defeated by one of them is resolved after it.

    Called after each card window and ability program (:func:`run_card_window`,
    :func:`run_hook`), after combat damage and after the draws outside programs (maneuver,
    Unicorn Ally) in :mod:`sim.engine.rules`. Nothing resolves once the game is over or the turn
    was ended by an effect (ending the turn stops what has not resolved yet: docs/rules.md R73
    and "Ability hooks"). The ability runs for the owner with the hero as "self", outside any
    combat side. Logged as ``EV_ABILITY`` (player, hook, defeated fighter, 0) before its events
    and ``(..., 1)`` after them (unless the game ended); both are dropped when it did nothing.
    """
    runs = 0
    again = True
    while again:
        again = False
        for g in range(MAX_FIGHTERS):
            if st[fslot(g, F_KO)] == 0:
                continue
            st[fslot(g, F_KO)] = 0
            if st[G_OVER] != 0 or st[G_ENDTURN] != 0 or runs >= MAX_DEFEAT_HOOKS:
                continue
            runs += 1
            again = True
            p = st[fslot(g, F_OWNER)]
            h = st[pslot(p, P_HERO)]
            opp = st[G_OPPONENT]
            if st[G_NPLAYERS] > 2:
                st[G_OPPONENT] = -1   # an ability: "your opponent" is chosen afresh (choose_opponent)
            n0 = st[G_LOGN]
            log_ev(st, log, EV_ABILITY, p, HK_FIGHTER_DEFEATED, g, 0, 0)
            run_program(st, tb, ctl, log, tb.heroes[h, H_HOOKS + 2 * HK_FIGHTER_DEFEATED],
                        tb.heroes[h, H_HOOKS + 2 * HK_FIGHTER_DEFEATED + 1], p, hero_of(p), -1, -1)
            if st[G_LOGN] == n0 + 1:
                st[G_LOGN] = n0    # the ability did nothing: no line
            elif st[G_OVER] == 0:
                log_ev(st, log, EV_ABILITY, p, HK_FIGHTER_DEFEATED, g, 1, 0)   # (none after the game's end)
            st[G_OPPONENT] = opp   # back to the opponent of the card being resolved


@jit(V(ST, TB, CTL, LOG, I, I, I, I, I))
def run_card_window(st, tb, ctl, log, card, window, p, f, side):
    """Run the program of ``card`` for timing window ``window`` (``W_*``), then the
    ``fighter_defeated`` abilities it triggered (:func:`defeat_hooks`)."""
    s = tb.cards[card, C_PROG + 2 * window]
    n = tb.cards[card, C_PROG + 2 * window + 1]
    if st[G_NPLAYERS] > 2:
        st[G_OPPONENT] = -1   # a new card: "your opponent" is chosen afresh (choose_opponent)
    if n > 0:
        form = tb.cards[card, C_FORM]
        if form != 0 and tb.rules[R_OFF_FORM] != 0 and st[pslot(p, P_COUNTER0 + FORM_COUNTER)] != form - 1:
            return      # rules option off_form_cards: a form card's effects need its form (R44)
        run_program(st, tb, ctl, log, s, n, p, f, side, card)
        defeat_hooks(st, tb, ctl, log)


@jit(I(ST, TB, CTL, LOG, I, I, I, I))
def run_hook(st, tb, ctl, log, hook, p, f, side):
    """Run player ``p``'s hero ability hook ``hook`` (``HK_*``), then the ``fighter_defeated``
    abilities it triggered (:func:`defeat_hooks`); return its total."""
    h = st[pslot(p, P_HERO)]
    s = tb.heroes[h, H_HOOKS + 2 * hook]
    n = tb.heroes[h, H_HOOKS + 2 * hook + 1]
    if n == 0:
        return 0
    if st[G_NPLAYERS] > 2:
        st[G_OPPONENT] = -1   # an ability: "your opponent" is chosen afresh (choose_opponent)
    acc = run_program(st, tb, ctl, log, s, n, p, f, side, -1)
    defeat_hooks(st, tb, ctl, log)
    return acc
