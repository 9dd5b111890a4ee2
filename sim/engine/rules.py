"""Core rules: turns, the three actions, combat, end of turn.

Sources: Battle of Legends Vol. 1 rules ("Turn and actions", "Maneuver and
movement", "Scheme and attack", "Combat and damage", "Defeat and ending the
game", "Exhaustion and team play"); Cobble & Fog rules ("Resolve Combat",
"End of Turn"); ``docs/rules.md`` (cases R01-R18 and the project
decisions).
"""
from numba import njit, types  # noqa: F401

from .sigs import A1, A2, B, CTL, I, LOG, ST, TB, V, jit, stack_i64  # noqa: F401

from .codes import (
    TURN_CAP_WINNER,
    A_ATTACK, A_MANEUVER, A_SCHEME, CT_ATTACK, CT_DEFENSE, CT_SCHEME, CT_VERSATILE, D_ACTION, D_BOOST_ATTACK,
    D_BOOST_MANEUVER, D_DEFENSE, D_DISCARD_LIMIT, D_PLACE, END_TURN_CAP, EV_ABILITY, EV_ACTION, EV_ATTACK,
    EV_BOOST, EV_DEFENSE, EV_GAME_OVER, EV_ONGOING, EV_SCHEME, EV_TAKE, EV_TURN, EV_VALUES, FS_IN_PLAY,
    GF_SELF_TO_DECK, GF_TO_HAND0, GF_TO_HAND1, HF_ATTACK_BOOST, HK_AFTER_ATTACK, HK_AFTER_MANEUVER, HK_ATTACK_VALUE,
    HK_AFTER_DEFENSE, HK_DEFENSE_VALUE, HK_END_TURN, HK_MANEUVER_BONUS, HK_START_TURN, PILE_DECK, PILE_DISC, PILE_HAND, PL_ANY, PV_DRAW_AFTER_COMBAT,
    R_ACTIONS, R_END_AT_ACTION, R_HAND_LIMIT, R_TURN_CAP, R_ZERO_BLOCKS_BOOST, TAG_ONGOING, W_AFTER, W_DURING,
    W_IMMEDIATELY, W_ON_PLAY, W_ON_RETURN, W_ONGOING_DISCARD, W_ONGOING_START, W_SCHEME,
)
from .core import (
    add_unique, can_play, check_end, count_play, deal_damage, discard_from_hand, draw_cards,
    eliminated, fog_space, hero_of, log_ev, n_slots, pile_base, pile_push, pile_take, place_fighter,
    shuffle_deck, team_of,
)
from .policy import CTL_CTX_F, CTL_CTX_OP, CTL_RP_HIDDEN, decide
from .conditions import cond_ok
from .targets import choose_hand_card, has_passive
from .effect_ops import empty_spaces, move_group
from .effects import defeat_hooks, run_card_window, run_hook
from .damage import apply_plan, plan_damage, PLAN_SIZE
from .prevent import card_cap
from .layout import (
    ACTION_OPTS, C_BOOST, C_PROG, C_TAGS, C_TYPE, C_VALUE, CARD_OPTS, CB_ABOOST,
    CB_ACTIVE, CB_ATT_F, CB_ATT_P, CB_CANCEL0, CB_CANCEL1, CB_CARD0, CB_CARD1, CB_DEF_F, CB_DEF_P, CB_DMG,
    CB_FIELDS, CB_IGN0, CB_LOCK0, CB_MOD0, CB_OVR0, CB_OVR1, CB_PRINTED0,
    CB_PRINTED1, CB_VAL0, CB_VAL1, CB_WON, F_HP, F_KIND, F_LEFT, F_MOVE, F_NOLEAVE, F_OWNER, F_RANGED,
    F_SPACE, F_START_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, fslot, G_ACTION_NO, G_ACTIONS,
    G_ACTIVE, G_ENDTURN, G_FLAGS, G_LOGN, G_NPLAYERS, G_OVER, G_REASON, G_TURN, G_WINNER, H_FLAGS, H_HOOKS,
    MAX_FIGHTERS, MAX_SPACES, OFF_CB, OFF_SPACE_COMBATS, P_ATTACKED,
    P_HANDN, P_HERO, P_HERO_ATTACKED, P_ONGOING, P_RETURN, P_START_FOG, pslot,
)


@jit(I(I, I, I, I))
def pack_action(kind, fighter, target, card):
    """Encode an action as one int: kind | fighter<<2 | target<<7 | card<<12."""
    return kind | (fighter << 2) | ((target + 1) << 7) | ((card + 1) << 12)


@jit(types.UniTuple(I, 4)(I))
def unpack_action(a):
    """Inverse of :func:`pack_action`: (kind, fighter, target, card)."""
    return a & 3, (a >> 2) & 31, ((a >> 7) & 31) - 1, (a >> 12) - 1


@jit(I(ST, TB, I, A1))
def legal_actions(st, tb, p, out):
    """Legal actions of player ``p`` packed into ``out`` (int64); return count.

    Maneuver is always legal. A scheme needs a fighter in play allowed to
    play it; an attack needs a fighter in play, an opposing fighter in range
    and an attack or versatile card that fighter may play. Order: maneuver,
    then per fighter (slot order) its schemes (hand order), then per target
    (slot order) its attacks (hand order); copies of a card give one action.
    """
    n = 0
    out[n] = pack_action(A_MANEUVER, 0, -1, -1)
    n += 1
    hn = st[pslot(p, P_HANDN)]
    hb = pile_base(PILE_HAND, p)
    first = 0      # bit i: hand index i holds the first copy of its card
    for i in range(hn):
        c = st[hb + i]
        dup = False
        for j in range(i):
            if st[hb + j] == c:
                dup = True
                break
        if not dup:
            first |= 1 << i
    tp = team_of(st, p)
    nsl = n_slots(st)   # (slots past the game's players are never in play)
    adj = tb.adj        # table arrays read once, not per loop step
    zmask = tb.zmask
    for k in range(FIGHTERS_PER_PLAYER):
        g = p * FIGHTERS_PER_PLAYER + k
        if st[fslot(g, F_STATUS)] != FS_IN_PLAY:
            continue
        atk = 0    # bit i: fighter g may attack with the card at hand index i
        for i in range(hn):
            if (first >> i) & 1 == 0:
                continue
            c = st[hb + i]
            t = tb.cards[c, C_TYPE]
            if t == CT_SCHEME:
                if can_play(st, tb, c, g):
                    out[n] = pack_action(A_SCHEME, g, -1, c)
                    n += 1
            elif (t == CT_ATTACK or t == CT_VERSATILE) and can_play(st, tb, c, g):
                atk |= 1 << i
        if atk == 0:
            continue
        ga = st[fslot(g, F_SPACE)]
        ranged = st[fslot(g, F_RANGED)] != 0
        for tg in range(nsl):
            if st[fslot(tg, F_STATUS)] != FS_IN_PLAY:
                continue
            if team_of(st, st[fslot(tg, F_OWNER)]) == tp:
                continue
            ts = st[fslot(tg, F_SPACE)]
            # in range (core.can_target): adjacent, or ranged and in a shared zone
            if ga < 0 or ts < 0 or not (adj[ga, ts] != 0 or (ranged and (zmask[ga] & zmask[ts]) != 0)):
                continue
            for i in range(hn):
                if (atk >> i) & 1:
                    out[n] = pack_action(A_ATTACK, g, tg, st[hb + i])
                    n += 1
    return n


@jit(V(ST, TB, CTL, LOG, I))
def do_maneuver(st, tb, ctl, log, p):
    """Maneuver: draw 1 (mandatory), may BOOST with one card, move each fighter.

    Each fighter may move up to its move value + the BOOST + the hero's
    maneuver bonus (e.g. Sinbad's Voyages), in any order, zero included.
    Source: Battle of Legends Vol. 1 rules, "Maneuver and movement"; R10, R14.
    """
    draw_cards(st, tb, log, p, 1)
    if tb.rules[R_END_AT_ACTION] == 0:
        check_end(st, tb, log)
    if st[G_OVER]:
        return
    defeat_hooks(st, tb, ctl, log)   # a fighter the exhaustion damage defeated
    boost = 0
    c = choose_hand_card(st, tb, ctl, D_BOOST_MANEUVER, p, p, True)
    if c >= 0:
        discard_from_hand(st, log, p, c, 2)
        boost = tb.cards[c, C_BOOST]
        log_ev(st, log, EV_BOOST, p, c, 0, boost, 0)
    h = hero_of(p)
    bonus = run_hook(st, tb, ctl, log, HK_MANEUVER_BONUS, p, h, -1)
    fs = stack_i64(FIGHTERS_PER_PLAYER)
    bud = stack_i64(FIGHTERS_PER_PLAYER)
    n = 0
    for k in range(FIGHTERS_PER_PLAYER):
        g = p * FIGHTERS_PER_PLAYER + k
        if st[fslot(g, F_STATUS)] == FS_IN_PLAY:
            fs[n] = g
            bud[n] = st[fslot(g, F_MOVE)] + boost + bonus
            n += 1
    move_group(st, tb, ctl, log, p, fs, bud, n, False, False, False)
    if st[G_OVER] == 0:
        run_hook(st, tb, ctl, log, HK_AFTER_MANEUVER, p, h, -1)


@jit(V(ST, LOG, I, I, I))
def put_away(st, log, p, card, bit):
    """Player ``p``'s ``card`` has resolved: it goes to the discard pile, or back into the hand
    when its ``return_to_hand`` step set ``bit`` of ``G_FLAGS`` (``GF_TO_HAND0``: the attack card
    or a scheme, ``GF_TO_HAND1``: the defense card; cleared here), logged as ``EV_TAKE`` (p, card,
    -1, 5)."""
    if st[G_FLAGS] & bit:
        st[G_FLAGS] &= ~bit
        pile_push(st, PILE_HAND, p, card)
        log_ev(st, log, EV_TAKE, p, card, -1, 5, 0)
    else:
        pile_push(st, PILE_DISC, p, card)


@jit(V(ST, TB, LOG, I, I))
def finish_card(st, tb, log, p, card):
    """After a scheme resolves: discard it, keep it as the ongoing scheme, or (its own steps)
    shuffle it into the deck or put it back into the hand (:func:`put_away`).

    One ongoing scheme per hero; a new one discards the old (Witcher rules,
    "Ongoing Schemes"; docs/rules.md R58).
    """
    if st[G_FLAGS] & GF_SELF_TO_DECK:
        st[G_FLAGS] &= ~(GF_SELF_TO_DECK | GF_TO_HAND0)   # (shuffle_into_deck wins over return_to_hand)
        pile_push(st, PILE_DECK, p, card)
        shuffle_deck(st, p)
        log_ev(st, log, EV_TAKE, p, card, PILE_DISC, 2, 0)
    elif st[G_FLAGS] & GF_TO_HAND0:
        put_away(st, log, p, card, GF_TO_HAND0)
    elif tb.cards[card, C_TAGS] & TAG_ONGOING:
        old = st[pslot(p, P_ONGOING)]
        if old >= 0:
            pile_push(st, PILE_DISC, p, old)
            log_ev(st, log, EV_ONGOING, p, old, 0, 0, 0)
        st[pslot(p, P_ONGOING)] = card
        log_ev(st, log, EV_ONGOING, p, card, 1, 0, 0)
    else:
        pile_push(st, PILE_DISC, p, card)


@jit(V(ST, TB, CTL, LOG, I, I, I))
def do_scheme(st, tb, ctl, log, p, g, card):
    """Scheme: fighter ``g`` plays scheme ``card`` from hand and resolves it."""
    if not pile_take(st, PILE_HAND, p, card):
        return
    count_play(st, tb, p, card)
    st[G_FLAGS] = 0
    log_ev(st, log, EV_SCHEME, p, g, card, 0, 0)
    run_card_window(st, tb, ctl, log, card, W_SCHEME, p, g, -1)
    if st[G_OVER] != 0:
        pile_push(st, PILE_DISC, p, card)   # the game ended inside the effect: nothing stays in play
        st[G_FLAGS] = 0
    else:
        finish_card(st, tb, log, p, card)


@jit(I(ST, TB, CTL, LOG, I))
def side_value(st, tb, ctl, log, side):
    """Final value of the card of ``side`` (0 attack, 1 defense), >= 0.

    Layers: printed value (or "value is N instead"), + changes and boosts,
    + the hero's ability bonus; an ignored value is 0. Cancelling effects
    never changes the value (R08); King Arthur's face-down BOOST is lost if
    the attack card's effects were cancelled (R23, R24). A value locked at 0
    (Impossible to See: "cannot be changed by card effects") is 0 plus what
    the hero's ability adds: its bonus (Alice's size) and King Arthur's
    face-down BOOST, played through his ability (case R66; rules option
    ``zero_value_blocks_boost``: the BOOST is lost too). Card effects (a
    card's own BOOST, +value) do not count.
    """
    o = OFF_CB
    card = st[o + CB_CARD0 + side]
    if card < 0:
        return 0
    g = st[o + CB_ATT_F + side]
    p = st[fslot(g, F_OWNER)]
    before = st[o + CB_MOD0 + side]
    if st[fslot(g, F_KIND)] == 0:   # abilities change the hero's own card values only (R28)
        run_hook(st, tb, ctl, log, HK_ATTACK_VALUE if side == 0 else HK_DEFENSE_VALUE, p, g, side)
    if st[o + CB_IGN0 + side]:
        return 0
    if st[o + CB_LOCK0 + side]:
        a = st[o + CB_MOD0 + side] - before
        if (side == 0 and st[o + CB_ABOOST] >= 0 and st[o + CB_CANCEL0] == 0
                and tb.rules[R_ZERO_BLOCKS_BOOST] == 0):
            a += tb.cards[st[o + CB_ABOOST], C_BOOST]   # King Arthur's BOOST comes with his ability (R66)
        return a if a > 0 else 0
    base = st[o + CB_OVR0 + side]
    if base < 0:
        base = st[o + CB_PRINTED0 + side]
    v = base + st[o + CB_MOD0 + side]
    if side == 0 and st[o + CB_ABOOST] >= 0 and st[o + CB_CANCEL0] == 0:
        v += tb.cards[st[o + CB_ABOOST], C_BOOST]
    return v if v > 0 else 0


@jit(I(ST, TB, I, I, A1))
def defense_options(st, tb, q, t, out):
    """Distinct defense/versatile cards in ``q``'s hand fighter ``t`` may play, then -1."""
    n = 0
    hb = pile_base(PILE_HAND, q)
    for i in range(st[pslot(q, P_HANDN)]):
        c = st[hb + i]
        ty = tb.cards[c, C_TYPE]
        if (ty == CT_DEFENSE or ty == CT_VERSATILE) and can_play(st, tb, c, t):
            n = add_unique(out, n, c)
    out[n] = -1
    return n + 1


@jit(I(ST, TB, CTL, A1, I))
def defend(st, tb, ctl, opts, n):
    """The defense card (id, or -1 for none) the defender of the open combat picks among
    ``opts[:n]`` (:func:`open_attack`'s options), asked with ``decide``."""
    return opts[decide(st, tb, ctl, D_DEFENSE, st[OFF_CB + CB_DEF_P], opts, n)]


@jit(I(ST, TB, CTL, LOG, I, I, I, I, A1))
def open_attack(st, tb, ctl, log, p, a, t, card, opts):
    """:func:`do_attack` up to the defense card: the attack card played face down (and King
    Arthur's face-down BOOST); returns how many defense options it wrote to ``opts`` (int64,
    >= CARD_OPTS; the defender's cards, then -1 for none; >= 1). The state then holds the
    whole combat (``OFF_CB``): :func:`close_attack` resolves it from the defender's card,
    also in a copy of the state (the expert's defense search, ``sim.engine.search``).
    """
    o = OFF_CB
    for i in range(CB_FIELDS):
        st[o + i] = 0
    q = st[fslot(t, F_OWNER)]
    st[o + CB_ACTIVE] = 1
    st[o + CB_ATT_F] = a
    st[o + CB_DEF_F] = t
    st[o + CB_ATT_P] = p
    st[o + CB_DEF_P] = q
    st[o + CB_CARD0] = card
    st[o + CB_CARD1] = -1
    st[o + CB_ABOOST] = -1
    st[o + CB_OVR0] = -1
    st[o + CB_OVR1] = -1
    st[o + CB_WON] = -1
    pile_take(st, PILE_HAND, p, card)
    count_play(st, tb, p, card)
    st[OFF_SPACE_COMBATS + st[fslot(t, F_SPACE)]] += 1
    log_ev(st, log, EV_ATTACK, a, t, card, 0, 0)
    hrow = st[pslot(p, P_HERO)]
    if st[fslot(a, F_KIND)] == 0 and (tb.heroes[hrow, H_FLAGS] & HF_ATTACK_BOOST) != 0:
        b = choose_hand_card(st, tb, ctl, D_BOOST_ATTACK, p, p, True)
        if b >= 0:
            pile_take(st, PILE_HAND, p, b)
            st[o + CB_ABOOST] = b
            log_ev(st, log, EV_BOOST, p, b, 1, tb.cards[b, C_BOOST], 0)
    return defense_options(st, tb, q, t, opts)


@jit(V(ST, TB, CTL, LOG, I))
def close_attack(st, tb, ctl, log, d):
    """The rest of the combat :func:`open_attack` opened, from the defender's card ``d`` (-1:
    none): the reveal, the effects, damage, the discards (see :func:`do_attack`). Reads the
    attack from the state only (``OFF_CB``)."""
    o = OFF_CB
    p = st[o + CB_ATT_P]
    q = st[o + CB_DEF_P]
    a = st[o + CB_ATT_F]
    t = st[o + CB_DEF_F]
    card = st[o + CB_CARD0]
    st[G_FLAGS] &= ~(GF_TO_HAND0 | GF_TO_HAND1)   # set only by this combat's return_to_hand steps
    st[o + CB_PRINTED0] = tb.cards[card, C_VALUE]
    if d >= 0:
        pile_take(st, PILE_HAND, q, d)
        st[o + CB_CARD1] = d
        count_play(st, tb, q, d)
        st[o + CB_PRINTED1] = tb.cards[d, C_VALUE]
    log_ev(st, log, EV_DEFENSE, t, d, 0, 0, 0)
    if d >= 0:
        # a card played face up that decides something before the reveal (Elementary's prediction):
        # the attack card is still face down, so the expert's replay search does not stop there
        ctl[CTL_RP_HIDDEN] = 1
        run_card_window(st, tb, ctl, log, d, W_ON_PLAY, q, t, 1)
        ctl[CTL_RP_HIDDEN] = 0

    for w in range(2):
        window = W_IMMEDIATELY if w == 0 else W_DURING
        if d >= 0 and st[o + CB_CANCEL1] == 0 and st[G_OVER] == 0:
            run_card_window(st, tb, ctl, log, d, window, q, t, 1)
            t = st[o + CB_DEF_F]        # another fighter may defend now (become_defender)
        if st[o + CB_CANCEL0] == 0 and st[G_OVER] == 0:   # the attack card may have been replaced
            run_card_window(st, tb, ctl, log, st[o + CB_CARD0], window, p, a, 0)

    if st[G_OVER] == 0:
        av = side_value(st, tb, ctl, log, 0)
        dv = side_value(st, tb, ctl, log, 1) if d >= 0 else 0
        dmg = av - dv if d >= 0 else av
        dmg = card_cap(st, t, max(dmg, 0))   # Bewilderment: no combat damage to its fighter (R70); at_most: a cap
        # the defender's before_damage ability: a cap, other fighters taking parts in its place
        plan = stack_i64(PLAN_SIZE)
        k = plan_damage(st, tb, ctl, t, dmg, 1, plan)
        hp = st[fslot(t, F_HP)]
        dealt = plan[0] if plan[0] < hp else hp
        won = dealt
        for i in range(k):            # damage taken in its place counts as the attack's (docs/rules.md)
            g = plan[1 + 2 * i]
            if g >= 0:
                won += min(plan[2 + 2 * i], st[fslot(g, F_HP)])
        st[o + CB_DMG] = dealt
        st[o + CB_WON] = 1 if won >= 1 else 0
        st[o + CB_VAL0] = av
        st[o + CB_VAL1] = dv
        log_ev(st, log, EV_VALUES, av, dv, dealt, st[o + CB_WON], dmg)
        apply_plan(st, tb, log, t, plan, k, 1)
        deal_damage(st, tb, log, t, plan[0])
        if tb.rules[R_END_AT_ACTION] == 0:
            check_end(st, tb, log)
        defeat_hooks(st, tb, ctl, log)   # the defender's fighter_defeated ability, before After combat

    if st[G_OVER] == 0:
        if d >= 0 and st[o + CB_CANCEL1] == 0:
            run_card_window(st, tb, ctl, log, d, W_AFTER, q, t, 1)
        if st[o + CB_CANCEL0] == 0 and st[G_OVER] == 0:
            run_card_window(st, tb, ctl, log, st[o + CB_CARD0], W_AFTER, p, a, 0)

    for side in range(1, -1, -1):
        # the defender's after_defense ability (Achilles), then the attacker's after_attack (Robin Hood):
        # "other effects after combat", after the cards' After combat effects and before the discards,
        # defender first as for the cards; cancelled card or not, fighter on the board or not; not after a
        # combat that ended the turn (docs/rules.md, "Ability hooks")
        pl = p if side == 0 else q
        hk = HK_AFTER_ATTACK if side == 0 else HK_AFTER_DEFENSE
        g = a if side == 0 else t
        if st[G_OVER] == 0 and st[G_ENDTURN] == 0 and tb.heroes[st[pslot(pl, P_HERO)], H_HOOKS + 2 * hk + 1] > 0:
            n0 = st[G_LOGN]
            log_ev(st, log, EV_ABILITY, pl, hk, g, 0, 0)
            run_hook(st, tb, ctl, log, hk, pl, g, side)
            if st[G_LOGN] == n0 + 1:
                st[G_LOGN] = n0    # the ability did nothing: no narration line

    for side in range(2):
        # an ongoing "after each combat, draw 1" (Unicorn Ally) comes after the cards' After combat
        # effects; a combat that ended the turn stops it too (case R73)
        pl = p if side == 0 else q
        if st[G_OVER] == 0 and st[G_ENDTURN] == 0 and has_passive(st, tb, pl, PV_DRAW_AFTER_COMBAT):
            draw_cards(st, tb, log, pl, 1)
            if tb.rules[R_END_AT_ACTION] == 0:
                check_end(st, tb, log)
            defeat_hooks(st, tb, ctl, log)
    put_away(st, log, p, st[o + CB_CARD0], GF_TO_HAND0)
    if st[o + CB_ABOOST] >= 0:
        pile_push(st, PILE_DISC, p, st[o + CB_ABOOST])
    if d >= 0:
        put_away(st, log, q, d, GF_TO_HAND1)
    st[o + CB_ACTIVE] = 0
    st[pslot(p, P_ATTACKED)] = 1
    if st[fslot(a, F_KIND)] == 0:
        st[pslot(p, P_HERO_ATTACKED)] = 1


@jit(V(ST, TB, CTL, LOG, I, I, I, I))
def do_attack(st, tb, ctl, log, p, a, t, card):
    """Attack: fighter ``a`` attacks fighter ``t`` with ``card``; resolve combat.

    Order: attack card (and King Arthur's face-down BOOST), optional defense
    card, IMMEDIATELY, DURING COMBAT (defender first in each), combat damage
    and the combat winner (attacker wins only with >= 1 damage from the
    attack itself), AFTER COMBAT (defender first), other after-combat effects
    (the defender's after_defense ability, the attacker's after_attack ability,
    then an ongoing scheme's draw), then
    both cards to the discard piles. An effect that ends the turn skips
    everything after it but the discards. A fighter_defeated ability resolves
    after the combat damage or the window that defeated its fighter.
    Sources: Battle of Legends Vol. 1 "Combat and damage"; Cobble & Fog
    "Resolve Combat"; cases R01, R02, R04, R05, R07, R08, R57, R73;
    docs/rules.md "Ability hooks".
    """
    opts = stack_i64(CARD_OPTS)
    n = open_attack(st, tb, ctl, log, p, a, t, card, opts)
    close_attack(st, tb, ctl, log, defend(st, tb, ctl, opts, n))


@jit(I(ST, TB, CTL, LOG, I, I, A1))
def start_action(st, tb, ctl, log, p, action, opts):
    """:func:`do_action` up to an attack's defense card: an attack stops there (returns
    :func:`open_attack`'s option count, >= 1, options in ``opts``; finish it with
    :func:`end_action`); a maneuver or a scheme is performed whole (returns 0)."""
    kind, g, t, card = unpack_action(action)
    log_ev(st, log, EV_ACTION, p, kind, st[G_ACTION_NO], 0, 0)
    if kind == A_ATTACK:
        return open_attack(st, tb, ctl, log, p, g, t, card, opts)
    if kind == A_MANEUVER:
        do_maneuver(st, tb, ctl, log, p)
    else:
        do_scheme(st, tb, ctl, log, p, g, card)
    check_end(st, tb, log)
    return 0


@jit(V(ST, TB, CTL, LOG, I))
def end_action(st, tb, ctl, log, d):
    """The rest of the attack action :func:`start_action` stopped at its defense card, with
    the defender's card ``d`` (-1: none)."""
    close_attack(st, tb, ctl, log, d)
    check_end(st, tb, log)


@jit(V(ST, TB, CTL, LOG, I, I))
def do_action(st, tb, ctl, log, p, action):
    """Perform one packed action (see :func:`pack_action`) for player ``p``."""
    opts = stack_i64(CARD_OPTS)
    n = start_action(st, tb, ctl, log, p, action, opts)
    if n > 0:
        end_action(st, tb, ctl, log, defend(st, tb, ctl, opts, n))


@jit(V(ST, TB, CTL, LOG, I))
def start_of_turn(st, tb, ctl, log, p):
    """Start of ``p``'s turn: record start spaces, returns, start-of-turn abilities."""
    for f in range(MAX_FIGHTERS):
        st[fslot(f, F_START_SPACE)] = st[fslot(f, F_SPACE)]
        st[fslot(f, F_LEFT)] = 0
    st[pslot(p, P_ATTACKED)] = 0
    st[pslot(p, P_HERO_ATTACKED)] = 0
    st[G_ENDTURN] = 0
    h = hero_of(p)
    ret = st[pslot(p, P_RETURN)]
    if ret:
        sp = stack_i64(MAX_SPACES)
        k = empty_spaces(st, tb, PL_ANY, -1, sp)
        if k > 0:
            ctl[CTL_CTX_F] = h
            j = decide(st, tb, ctl, D_PLACE, p, sp, k)
            place_fighter(st, log, h, sp[j])
            st[fslot(h, F_START_SPACE)] = sp[j]
        st[pslot(p, P_RETURN)] = 0
        if ret >= 2:   # the card that removed the hero: its "when you come back" effect
            run_card_window(st, tb, ctl, log, ret - 2, W_ON_RETURN, p, h, -1)
    hs = st[fslot(h, F_SPACE)]
    st[pslot(p, P_START_FOG)] = 1 if st[fslot(h, F_STATUS)] == FS_IN_PLAY and fog_space(st, p, hs) else 0
    og = st[pslot(p, P_ONGOING)]
    if og >= 0 and st[G_OVER] == 0:
        run_card_window(st, tb, ctl, log, og, W_ONGOING_START, p, h, -1)
    hr = st[pslot(p, P_HERO)]
    if st[fslot(h, F_STATUS)] == FS_IN_PLAY and tb.heroes[hr, H_HOOKS + 2 * HK_START_TURN + 1] > 0:
        n0 = st[G_LOGN]
        log_ev(st, log, EV_ABILITY, p, HK_START_TURN, 0, 0, 0)
        run_hook(st, tb, ctl, log, HK_START_TURN, p, h, -1)
        if st[G_LOGN] == n0 + 1:
            st[G_LOGN] = n0    # the ability did nothing: no narration line
    check_end(st, tb, log)


@jit(I(ST, I))
def next_player(st, p):
    """The player who takes the turn after ``p``: the next seat in turn order (1, 2, 3, 4,
    so the teams alternate), skipping players with no fighters left (:func:`core.eliminated`).

    Sources: Battle of Legends Vol. 1 rules, "Exhaustion and team play" (players alternate
    turns by team) and "Defeat and ending the game" (a player whose hero is defeated keeps
    taking turns while they have a sidekick); Cobble & Fog rules, "Team Games".
    """
    npl = st[G_NPLAYERS]
    q = (p + 1) % npl
    for _ in range(npl - 1):
        if not eliminated(st, q):
            return q
        q = (q + 1) % npl
    return q


@jit(V(ST, TB, CTL, LOG, I))
def end_of_turn(st, tb, ctl, log, p):
    """End of ``p``'s turn: an ongoing scheme's discard condition, the hero's ``end_of_turn``
    ability, hand limit 7 (only for the active player), next player.

    The ability (Bigfoot's draw) runs while the hero is on the board, also after an effect
    ended the turn, and before the hand limit, so that cards it draws count towards the
    limit; a game it ends stops the turn there (docs/rules.md, "Ability hooks").

    In a team game (more than two players) the next player is :func:`next_player` and
    the turn cap (``R_TURN_CAP`` turns in all in a duel) is scaled to the same number of
    turns per player (``cap * players / 2``).

    Sources: Battle of Legends Vol. 1 "Turn and actions"; Cobble & Fog "End of Turn";
    case R13; turn cap (docs/rules.md project decision: a draw).
    """
    og = st[pslot(p, P_ONGOING)]
    if og >= 0 and tb.cards[og, C_PROG + 2 * W_ONGOING_DISCARD + 1] > 0:
        row = tb.code[tb.cards[og, C_PROG + 2 * W_ONGOING_DISCARD]]
        if cond_ok(st, tb, row, p, hero_of(p), -1):
            st[pslot(p, P_ONGOING)] = -1
            pile_push(st, PILE_DISC, p, og)
            log_ev(st, log, EV_ONGOING, p, og, 0, 0, 0)
    h = hero_of(p)
    if st[fslot(h, F_STATUS)] == FS_IN_PLAY and tb.heroes[st[pslot(p, P_HERO)], H_HOOKS + 2 * HK_END_TURN + 1] > 0:
        ended = st[G_ENDTURN]
        st[G_ENDTURN] = 0      # the end-of-turn steps still run after "end the turn" (R57, R73)
        n0 = st[G_LOGN]
        log_ev(st, log, EV_ABILITY, p, HK_END_TURN, 0, 0, 0)
        run_hook(st, tb, ctl, log, HK_END_TURN, p, h, -1)
        if st[G_LOGN] == n0 + 1:
            st[G_LOGN] = n0    # the ability did nothing: no narration line
        st[G_ENDTURN] = ended
        check_end(st, tb, log)
        if st[G_OVER] != 0:
            return
    lim = tb.rules[R_HAND_LIMIT]
    while st[pslot(p, P_HANDN)] > lim:
        c = choose_hand_card(st, tb, ctl, D_DISCARD_LIMIT, p, p, False)
        discard_from_hand(st, log, p, c, 1)
    for f in range(MAX_FIGHTERS):
        st[fslot(f, F_NOLEAVE)] = 0
    st[G_TURN] += 1
    npl = st[G_NPLAYERS]
    st[G_ACTIVE] = next_player(st, p) if npl > 2 else (p + 1) % npl
    cap = tb.rules[R_TURN_CAP]
    if npl > 2:
        cap = cap * npl // 2   # a team game: the same number of turns per player as a duel
    if st[G_TURN] >= cap and st[G_OVER] == 0:
        st[G_OVER] = 1
        st[G_WINNER] = TURN_CAP_WINNER
        st[G_REASON] = END_TURN_CAP
        log_ev(st, log, EV_GAME_OVER, TURN_CAP_WINNER, END_TURN_CAP, 0, 0, 0)


@jit(B(ST, I))
def dormant(st, p):
    """True if player ``p`` has no fighter on the board (cannot act; case R48, R64)."""
    for k in range(FIGHTERS_PER_PLAYER):
        if st[fslot(p * FIGHTERS_PER_PLAYER + k, F_STATUS)] == FS_IN_PLAY:
            return False
    return True


@jit(V(ST, TB, CTL, LOG))
def take_turn(st, tb, ctl, log):
    """Play the active player's whole turn: start, two (or more) actions, end.

    A turn has two actions that cannot be skipped; gained actions add to them;
    an effect that ends the turn stops the rest of it.
    """
    p = begin_turn(st, tb, ctl, log)
    finish_turn(st, tb, ctl, log, p)


@jit(I(ST, TB, CTL, LOG))
def begin_turn(st, tb, ctl, log):
    """The start of the active player's turn (its actions, start-of-turn effects); returns the player."""
    p = st[G_ACTIVE]
    log_ev(st, log, EV_TURN, p, st[G_TURN] + 1, 0, 0, 0)
    st[G_ACTIONS] = tb.rules[R_ACTIONS]
    st[G_ACTION_NO] = 0
    start_of_turn(st, tb, ctl, log, p)
    return p


#: most actions one turn may take: the rules set no limit, but a homebrew card that gains an
#: action and gives itself back (shuffle into the deck, draw) could loop for ever; shipped
#: heroes take at most 6 (docs/rules.md, project decisions: actions per turn)
MAX_TURN_ACTIONS = 60


@jit(B(ST, I))
def action_due(st, p):
    """Player ``p`` takes another action now: actions left, the game and the turn go on, a
    fighter on the board, fewer than ``MAX_TURN_ACTIONS`` actions taken this turn. Counts the
    action as started (``G_ACTIONS``, ``G_ACTION_NO``)."""
    if (st[G_ACTIONS] > 0 and st[G_OVER] == 0 and st[G_ENDTURN] == 0 and not dormant(st, p)
            and st[G_ACTION_NO] < MAX_TURN_ACTIONS):
        st[G_ACTIONS] -= 1
        st[G_ACTION_NO] += 1
        return True
    return False


@jit(V(ST, TB, CTL, LOG, I))
def finish_turn(st, tb, ctl, log, p):
    """The rest of player ``p``'s turn from between two actions: each action asked with
    ``decide``, then the end of the turn. (The expert AI's rollouts continue a copied
    game from here, ``sim.engine.search``.)"""
    opts = stack_i64(ACTION_OPTS)
    while action_due(st, p):
        n = legal_actions(st, tb, p, opts)
        ctl[CTL_CTX_OP] = -1
        i = decide(st, tb, ctl, D_ACTION, p, opts, n)
        do_action(st, tb, ctl, log, p, opts[i])
    if st[G_OVER] == 0:
        end_of_turn(st, tb, ctl, log, p)
