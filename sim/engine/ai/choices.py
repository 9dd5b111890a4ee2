"""Scores of the options of each decision kind: actions, defense, BOOST, spaces, targets,
hand cards, options, "may" and guesses.
"""
from ..codes import (
    A_MANEUVER, A_SCHEME, CN_DEALT_DAMAGE, CN_DISCARDED, CT_ATTACK, CT_DEFENSE, CT_SCHEME, CT_VERSATILE,
    D_BOOST_ATTACK, D_TAKE_CARD, FS_IN_PLAY, HK_AFTER_DEFENSE, OP_ARRANGE_TOP, OP_CHOOSE, OP_CHOOSE_COUNTER, OP_DAMAGE,
    OP_DISCARD,
    OP_DISCARD_FOR_VALUE, OP_FLIP_COUNTER, OP_MOVE, OP_RECOVER, OP_SET_HEALTH, PER_KIND_ADJ_MOVED, PILE_HAND, S_OWN,
    TAG_ONGOING,
)
from ..control import (
    CTL_CTX_END, CTL_CTX_F, CTL_CTX_N, CTL_CTX_OP, CTL_CTX_OWNER, CTL_CTX_P, CTL_CTX_ROW, CTL_FU_KEY, CTL_POS_KEY, CTL_POS_SIG,
    CTL_TD_P, CTL_TD_SIG, N_PRICE, SCR_ACTIONS, SCR_DEFENSE, SCR_PLAN_POS, SCR_POOL, SCR_PRICE, SCR_SPACES, SCR_SPACES_EF,
)
from ..core import can_target, n_slots, pile_base, team_of
from ..layout import (
    AI_DMG, AI_VALUE_ATK, AI_VALUE_DEF, C_AI_LIVE, C_BOOST, C_FORM, C_TAGS, C_TYPE, C_VALUE, CB_ABOOST, CB_ACTIVE, CB_ATT_F, CB_ATT_P, CB_CARD0,
    CB_CARD1, CB_DEF_F, CB_DEF_P, CB_MOD0, CB_OVR0, CB_PRINTED0, F_HP, F_KIND, F_MAXHP, F_OWNER, F_STATUS, FIGHTERS_PER_PLAYER, fslot, G_ACTIONS, G_NPLAYERS, G_OPPONENT, H_AI_ATK0, H_AI_DEF0,
    H_AI_HURT_FORM, H_DECK_LEN, H_DECK_START, I_N, I_OP, I_PER, I_SIDE, MAX_CARDS, MAX_FIGHTERS, OFF_CB, P_COUNTER0,
    P_HANDN, P_HERO, P_ONGOING, pslot,
)
from ..sigs import A1, CTL, F, f64_view, FA1, I, jit, ST, TB, V
from .weights import (
    _DSZ, best_moved_count, board_delta, dmg_now, feat, frozen, fx_now, fx_worth, keep_worth, NEG, playable,
    scratch_f1, W_KEEP_BOOST, W_KEEP_FX, W_KEEP_VALUE,
    scratch_f2, scratch_i1, W_BOOST_MARGIN, W_DEFEND_MARGIN, W_DEFENSE_FX, W_FX_DMG,
    W_FX_OPP_DISCARD, W_GUESS_BASE, W_ONGOING, W_ONGOING_AGAIN, W_SCHEME, W_UNKNOWN_ATTACK, wv,
)
from .options import damage_row_worth, discard_cost, hanging_worth, option_worth
from .area import area_damage_correction, area_place_worth, near_target_correction
from .estimate import (
    att_value, def_value, dmg_params, dmg_price, dmg_value, exp_attack, hero_atk_bonus,
    hero_def_bonus, own_dmg_worth, p_none_of, team_pos_bonus, unknown_pool, value_dist,
)
from .hooks import defeat_worth, has_hook, hook_worth
from .position import (
    action_key, attack_worth, cached_follow_up, dist_sig, enemy_facts, follow_up, known_attack_worth,
    plan_maneuver, pos_score, pos_sig, reset_plans, set_price, target_dists,
)


@jit(F(ST, TB, CTL, I, I, I))
def scheme_score(st, tb, ctl, p, c, g):
    """Score of ``p``'s fighter ``g`` playing scheme ``c``. Release 0.2's AI prices its damage
    at ``fx_damage`` as played by the hero; the one-currency AI as damage to the opposing
    hero (:func:`.estimate.dmg_price`) with its board steps counted as ``g`` plays it, less
    the card's keep worth (a card spent now is not played later: as an attack or a BOOST
    costs its card; without it the standard AI played a scheme as soon as it was worth
    anything, where the expert's search waits, about 7 times in 10)."""
    h = p * FIGHTERS_PER_PLAYER
    if frozen(ctl, p):
        s = (wv(ctl, p, W_SCHEME) + fx_now(st, tb, ctl, p, c, h, -1)
             + wv(ctl, p, W_FX_DMG) * dmg_now(st, tb, ctl, c, h, -1)
             + near_target_correction(st, tb, ctl, p, c, wv(ctl, p, W_FX_DMG)))
    else:
        price = dmg_price(st, ctl, p)
        dmg = dmg_now(st, tb, ctl, c, g, -1) + board_delta(st, tb, ctl, c, g, -1, -1, AI_DMG)
        s = (wv(ctl, p, W_SCHEME) + fx_now(st, tb, ctl, p, c, g, -1) + board_delta(st, tb, ctl, c, g, -1, -1, -1)
             + price * dmg + near_target_correction(st, tb, ctl, p, c, price)
             + area_damage_correction(st, tb, ctl, p, c, g, price) - keep_worth(tb, ctl, p, c)
             + own_dmg_worth(st, tb, ctl, p, c, g))
    if tb.cards[c, C_TAGS] & TAG_ONGOING:
        s += wv(ctl, p, W_ONGOING) if st[pslot(p, P_ONGOING)] < 0 else wv(ctl, p, W_ONGOING_AGAIN) * wv(ctl, p, W_ONGOING)
    return s


@jit(V(ST, TB, CTL, I, A1, I, FA1))
def score_actions(st, tb, ctl, p, opts, n, scores):
    """Scores of the packed actions ``opts[:n]`` for player ``p`` (see rules.pack_action)."""
    dvals = scratch_f2(ctl, SCR_ACTIONS, MAX_FIGHTERS, MAX_CARDS + 1)
    dprobs = scratch_f2(ctl, SCR_ACTIONS + _DSZ, MAX_FIGHTERS, MAX_CARDS + 1)
    pnone = scratch_f1(ctl, SCR_ACTIONS + 2 * _DSZ, MAX_FIGHTERS)
    if not frozen(ctl, p):
        set_price(st, tb, ctl, p)
    sig = dist_sig(st, p)
    if ctl[CTL_TD_P] != p or ctl[CTL_TD_SIG] != sig:   # (else the last action decision's still hold)
        target_dists(st, tb, ctl, p, dvals, dprobs, pnone)
        ctl[CTL_TD_P] = p
        ctl[CTL_TD_SIG] = sig
    known = st[G_ACTIONS] > 0
    if known:   # a maneuver now may be followed by an attack: table of those
        fu = scratch_f2(ctl, SCR_ACTIONS + 2 * _DSZ + MAX_FIGHTERS, MAX_FIGHTERS, MAX_FIGHTERS)
        follow_up(st, tb, ctl, p, dvals, dprobs, pnone, fu)
    for i in range(n):
        a = opts[i]
        kind = a & 3
        g = (a >> 2) & 31
        t = ((a >> 7) & 31) - 1
        c = (a >> 12) - 1
        if kind == A_MANEUVER:
            scores[i] = plan_maneuver(st, tb, ctl, p, 1)
        elif kind == A_SCHEME:
            scores[i] = scheme_score(st, tb, ctl, p, c, g)
        else:   # (follow_up computed most attacks already)
            v = known_attack_worth(st, ctl, p, g, t, c) if known else NEG
            scores[i] = v if v > NEG else attack_worth(st, tb, ctl, p, g, t, c, dvals, dprobs, pnone)


@jit(F(FA1, FA1, I, F, F, F))
def defense_holds(vals, probs, m, norm, vd, unknown):
    """The chance that a defense of value ``vd`` wins its combat (the attack's value does not
    beat it) over the attack distribution ``vals[:m]``, ``probs`` (held with chance ``norm``;
    none held: an attack of value ``unknown``)."""
    if norm <= 1e-9:
        return 1.0 if unknown <= vd else 0.0
    w = 0.0
    for i in range(m):
        if vals[i] <= vd:
            w += probs[i]
    return w / norm


@jit(F(FA1, FA1, I, F, F, F))
def damage_taken(vals, probs, m, norm, vd, unknown):
    """The combat damage a defense of value ``vd`` expects its fighter to take over the attack
    distribution of :func:`defense_holds` (the attack's value beyond ``vd``; none held: an
    attack of value ``unknown``)."""
    if norm <= 1e-9:
        return max(unknown - vd, 0.0)
    w = 0.0
    for i in range(m):
        if vals[i] > vd:
            w += probs[i] * (vals[i] - vd)
    return w / norm


@jit(V(ST, TB, CTL, I, A1, I, FA1))
def score_defense(st, tb, ctl, q, opts, n, scores):
    """Scores of defense options ``opts[:n]`` (card ids, -1 none) for the defending player ``q``.

    Reads only public facts about the attack: the attacking fighter, the
    attacker's hand size and unknown cards, whether a face-down BOOST was added. The
    one-currency AI adds the steps of ``q``'s hero's ``after_defense`` hook to each option
    (:func:`.hooks.hook_worth`; "if won" at :func:`defense_holds` for that option), and those
    of its ``fighter_defeated`` hook to what losing the defender costs (:func:`.hooks.defeat_worth`).
    """
    o = OFF_CB
    a = st[o + CB_ATT_F]
    t = st[o + CB_DEF_F]
    p = st[o + CB_ATT_P]
    pool = scratch_i1(ctl, SCR_DEFENSE, MAX_CARDS + 1)
    boosted = st[o + CB_ABOOST] >= 0
    npool = unknown_pool(st, tb, p, pool) if boosted else 0
    hand = st[pslot(p, P_HANDN)] + 1
    extra = 0.0
    if boosted:   # the face-down BOOST: the mean BOOST of the attacker's unknown cards
        hand += 1
        tot = 0.0
        for i in range(npool):
            tot += tb.cards[pool[i], C_BOOST]
        extra = tot / npool if npool > 0 else 0.0
    vals = scratch_f1(ctl, SCR_DEFENSE + (MAX_CARDS + 1), MAX_CARDS + 1)
    fxd = scratch_f1(ctl, SCR_DEFENSE + 2 * (MAX_CARDS + 1), MAX_CARDS + 1)
    probs = scratch_f1(ctl, SCR_DEFENSE + 3 * (MAX_CARDS + 1), MAX_CARDS + 1)
    pn = value_dist(st, tb, ctl, a, hand, 0, extra, vals, fxd, probs)
    m = int(vals[MAX_CARDS])
    norm = 1.0 - pn
    bonus = hero_def_bonus(st, tb, t)
    hp, per, kill = dmg_params(st, ctl, q, t)
    old = frozen(ctl, q)
    hook = not old and has_hook(tb, st[pslot(q, P_HERO)], HK_AFTER_DEFENSE) > 0   # (after_defense: .hooks)
    if not old:   # (the fighter_defeated ability's steps, if losing this fighter runs them: .hooks)
        kill += defeat_worth(st, tb, ctl, q, t)
    pw = f64_view(ctl, SCR_PRICE, N_PRICE)
    for j in range(n):
        d = opts[j]
        vd = 0.0
        s = 0.0
        if d >= 0 and old:
            vd = def_value(st, tb, ctl, d, t, bonus)
            s = (fx_now(st, tb, ctl, q, d, t, 1) + wv(ctl, q, W_DEFENSE_FX) * wv(ctl, q, W_FX_DMG) * dmg_now(st, tb, ctl, d, t, 1)
                 - keep_worth(tb, ctl, q, d) - wv(ctl, q, W_DEFEND_MARGIN))
        elif d >= 0:   # one currency: its board steps against this attacker; its damage as damage to the attacker
            vd = def_value(st, tb, ctl, d, t, bonus) + board_delta(st, tb, ctl, d, t, a, 1, AI_VALUE_DEF)
            if (tb.cards[d, C_AI_LIVE] & 2) != 0:   # ("if you won": the chance that this defense holds;
                pw[8] = defense_holds(vals, probs, m, norm, vd, wv(ctl, q, W_UNKNOWN_ATTACK))   # "per damage taken")
                pw[13] = damage_taken(vals, probs, m, norm, vd, wv(ctl, q, W_UNKNOWN_ATTACK))
            dd = dmg_now(st, tb, ctl, d, t, 1) + board_delta(st, tb, ctl, d, t, a, 1, AI_DMG)
            s = (fx_now(st, tb, ctl, q, d, t, 1) + board_delta(st, tb, ctl, d, t, a, 1, -1)
                 + own_dmg_worth(st, tb, ctl, q, d, t)
                 + wv(ctl, q, W_DEFENSE_FX) * dmg_value(st, ctl, q, a, dd)
                 - keep_worth(tb, ctl, q, d) - wv(ctl, q, W_DEFEND_MARGIN))
            pw[8] = -1.0
            pw[13] = -1.0
        loss = 0.0
        if norm > 1e-9:
            for i in range(m):
                k = vals[i] - vd
                if k > 0.0 and probs[i] > 0.0:
                    k += fxd[i]
                    loss += probs[i] * (kill if k >= hp else k * per)
            loss /= norm
        else:
            loss = dmg_value(st, ctl, q, t, wv(ctl, q, W_UNKNOWN_ATTACK) - vd)
        if hook:   # the ability's after_defense steps, "if won" at the chance that this defense holds
            s += hook_worth(st, tb, ctl, q, t, a, HK_AFTER_DEFENSE, 1,
                            defense_holds(vals, probs, m, norm, vd, wv(ctl, q, W_UNKNOWN_ATTACK)))
        scores[j] = s + loss


@jit(F(ST, TB, I))
def combat_att_value(st, tb, side):
    """Current value of the card of ``side`` in the combat (printed or set, + changes, + ability)."""
    o = OFF_CB
    base = st[o + CB_OVR0 + side]
    if base < 0:
        base = st[o + CB_PRINTED0 + side]
    if st[o + CB_CARD0 + side] >= 0 and base == 0 and st[o + CB_PRINTED0 + side] == 0:
        base = tb.cards[st[o + CB_CARD0 + side], C_VALUE]
    g = st[o + CB_ATT_F + side]
    v = base + st[o + CB_MOD0 + side]
    if side == 0:
        v += hero_atk_bonus(st, tb, g)
        if st[o + CB_ABOOST] >= 0:
            v += tb.cards[st[o + CB_ABOOST], C_BOOST]
    else:
        v += hero_def_bonus(st, tb, g)
    return float(v)


@jit(V(ST, TB, CTL, I, I, A1, I, FA1))
def score_boost(st, tb, ctl, p, kind, opts, n, scores):
    """Scores of BOOST options (card ids, -1 none) for an attack (Arthur) or a card in combat;
    a card discarded for value (``discard_for_value``: Beastform) adds the step's amount, not
    its BOOST (the one-currency AI; release 0.2's reads the BOOST)."""
    o = OFF_CB
    for j in range(n):
        scores[j] = 0.0
    if st[o + CB_ACTIVE] == 0:
        for j in range(n):
            if opts[j] >= 0:
                scores[j] = -1.0
        return
    attacker = st[o + CB_ATT_P] == p
    t = st[o + CB_DEF_F]
    if kind == D_BOOST_ATTACK:
        q = st[fslot(t, F_OWNER)]
        vals = scratch_f1(ctl, SCR_DEFENSE + (MAX_CARDS + 1), MAX_CARDS + 1)
        probs = scratch_f1(ctl, SCR_DEFENSE + 3 * (MAX_CARDS + 1), MAX_CARDS + 1)
        fxd = scratch_f1(ctl, SCR_DEFENSE + 2 * (MAX_CARDS + 1), MAX_CARDS + 1)
        pn = value_dist(st, tb, ctl, t, st[pslot(q, P_HANDN)], 1, 0.0, vals, fxd, probs)
        c = st[o + CB_CARD0]
        a = st[o + CB_ATT_F]
        av = att_value(st, tb, ctl, c, a, hero_atk_bonus(st, tb, a))
        fx = dmg_now(st, tb, ctl, c, a, 0)
        if not frozen(ctl, p):
            av += board_delta(st, tb, ctl, c, a, t, 0, AI_VALUE_ATK)
            fx += board_delta(st, tb, ctl, c, a, t, 0, AI_DMG)
        base = exp_attack(st, ctl, p, t, av, fx, vals, probs, pn)
        kept = 1.0 if frozen(ctl, p) else 1.0 - probs[MAX_CARDS]   # (a cancel loses the face-down BOOST)
        for j in range(n):
            b = opts[j]
            if b >= 0:
                scores[j] = ((exp_attack(st, ctl, p, t, av + tb.cards[b, C_BOOST], fx, vals, probs, pn) - base) * kept
                             - keep_worth(tb, ctl, p, b) - wv(ctl, p, W_BOOST_MARGIN))
        return
    av = combat_att_value(st, tb, 0)
    dv = combat_att_value(st, tb, 1) if st[o + CB_CARD1] >= 0 else 0.0
    each = ctl[CTL_CTX_OP] == OP_DISCARD_FOR_VALUE and not frozen(ctl, p)   # (+N a card, whatever its BOOST)
    for j in range(n):
        b = opts[j]
        if b < 0:
            continue
        bv = ctl[CTL_CTX_N] if each else tb.cards[b, C_BOOST]
        if attacker:
            gain = dmg_value(st, ctl, p, t, av + bv - dv) - dmg_value(st, ctl, p, t, av - dv)
        else:
            gain = dmg_value(st, ctl, p, t, av - dv - bv) - dmg_value(st, ctl, p, t, av - dv)
        scores[j] = gain - keep_worth(tb, ctl, p, b) - wv(ctl, p, W_BOOST_MARGIN)


@jit(I(TB, CTL))
def moved_damage_row(tb, ctl):
    """The row of the step after the move step asking (``CTL_CTX_ROW``) when it deals damage
    for each of your fighters of a kind next to the moved fighter (Ravening Seduction), else -1."""
    r = ctl[CTL_CTX_ROW]
    if r < 0 or r + 1 >= tb.code.shape[0] or tb.code[r, I_OP] != OP_MOVE:
        return -1
    if tb.code[r + 1, I_OP] == OP_DAMAGE and tb.code[r + 1, I_PER] == PER_KIND_ADJ_MOVED:
        return r + 1
    return -1


@jit(V(ST, TB, CTL, I, I, A1, I, FA1))
def score_spaces(st, tb, ctl, p, g, opts, n, scores):
    """Scores of spaces ``opts[:n]`` for fighter ``g``: its owner's position score,
    negated when ``g`` is an opposing fighter (``p`` moves or places it; then only
    public facts are used: no follow-up attack from the opponent's hand). The one-currency
    AI placing its own fighter adds what an area damage step around it right after is worth
    there (:func:`area_place_worth`: Pure Evil)."""
    q = st[fslot(g, F_OWNER)]
    own = team_of(st, q) == team_of(st, p)
    r = moved_damage_row(tb, ctl) if ctl[CTL_CTX_OP] == OP_MOVE and not own and not frozen(ctl, p) else -1
    if r >= 0:   # one currency: where the moved fighter takes the most damage (Ravening Seduction)
        for j in range(n):
            k = best_moved_count(st, tb, ctl, r, ctl[CTL_CTX_P], g, opts[j])
            scores[j] = dmg_value(st, ctl, p, g, float(tb.code[r, I_N] * k)) - 0.001 * j
        return
    now = own and st[G_ACTIONS] > 0 and q == p
    key = action_key(st, p)
    if (q == p and ctl[CTL_POS_KEY] == key and ctl[CTL_POS_SIG] == pos_sig(st, p)
            and (not now or ctl[CTL_FU_KEY] == key)):
        # the maneuver plan of this action scored these positions already, with the same
        # follow-up table (another player's decision may have replaced it since): same numbers
        cache = scratch_f2(ctl, SCR_PLAN_POS, FIGHTERS_PER_PLAYER, tb.adj.shape[0])
        k = g - p * FIGHTERS_PER_PLAYER
        hit = True
        for j in range(n):
            scores[j] = cache[k, opts[j]]
            if scores[j] == NEG:
                hit = False
                break
        if hit:
            if own:
                for j in range(n):
                    scores[j] += area_place_worth(st, tb, ctl, p, g, opts, j)
            return
    fu = scratch_f2(ctl, SCR_SPACES, MAX_FIGHTERS, MAX_FIGHTERS)
    if now:
        cached_follow_up(st, tb, ctl, p, fu)
    ef = scratch_f2(ctl, SCR_SPACES_EF, MAX_FIGHTERS, 6)
    ne = enemy_facts(st, ctl, q, team_of(st, q), ef)
    team = st[G_NPLAYERS] > 2
    for j in range(n):
        v = pos_score(st, tb, ctl, p, g, opts[j], now, fu, ef, ne)
        if team:
            v += team_pos_bonus(st, tb, ctl, p, g, opts[j])
        scores[j] = v + area_place_worth(st, tb, ctl, p, g, opts, j) if own else -v


@jit(V(ST, TB, CTL, I, A1, I, FA1))
def score_targets(st, tb, ctl, p, opts, n, scores):
    """Scores of fighters ``opts[:n]`` as the target of the effect step in the context. The
    one-currency AI moves, for a step followed by "damage for each of your X next to the
    moved fighter" (Ravening Seduction), the fighter that damage is worth most on."""
    op = ctl[CTL_CTX_OP]
    amt = ctl[CTL_CTX_N]
    r = moved_damage_row(tb, ctl) if op == OP_MOVE and not frozen(ctl, p) else -1
    if r >= 0:
        q = ctl[CTL_CTX_P]
        for j in range(n):
            t = opts[j]
            scores[j] = -1.0
            if team_of(st, st[fslot(t, F_OWNER)]) != team_of(st, q):
                scores[j] = dmg_value(st, ctl, p, t, float(tb.code[r, I_N] * best_moved_count(st, tb, ctl, r, q, t, -1)))
        return
    for j in range(n):
        t = opts[j]
        own = team_of(st, st[fslot(t, F_OWNER)]) == team_of(st, p)
        hero = st[fslot(t, F_KIND)] == 0
        if op == OP_RECOVER or op == OP_SET_HEALTH:   # recover / set health: the most damaged of ours
            miss = st[fslot(t, F_MAXHP)] - st[fslot(t, F_HP)]
            scores[j] = miss * (2.0 if hero else 1.0) if own else -1.0 - miss
        elif op == OP_DAMAGE:   # damage
            scores[j] = dmg_value(st, ctl, p, t, float(amt if amt > 0 else 1))
        else:                    # anything else: opposing hero first, then opposing fighters
            scores[j] = (-1.0 if own else (2.0 if hero else 1.0))


@jit(F(TB, CTL, I, I))
def deck_card_worth(tb, ctl, p, c):
    """What card ``c`` is worth to player ``p``'s AI in a deck: its value, BOOST and effects weighed
    as for a card kept in hand (:func:`.weights.keep_worth` before the game's card price)."""
    v = tb.cards[c, C_VALUE]
    return (wv(ctl, p, W_KEEP_VALUE) * (v if v > 0 else 0) + wv(ctl, p, W_KEEP_BOOST) * tb.cards[c, C_BOOST]
            + wv(ctl, p, W_KEEP_FX) * fx_worth(tb, ctl, p, c))


@jit(F(ST, TB, CTL, I, I))
def deck_mean_worth(st, tb, ctl, p, q):
    """The mean :func:`deck_card_worth` to ``p`` of player ``q``'s deck list (public: the cards the
    hero's deck holds, not their order)."""
    h = st[pslot(q, P_HERO)]
    s0 = tb.heroes[h, H_DECK_START]
    nd = tb.heroes[h, H_DECK_LEN]
    tot = 0.0
    for i in range(nd):
        tot += deck_card_worth(tb, ctl, p, tb.decks[s0 + i])
    return tot / nd if nd > 0 else 0.0


@jit(V(ST, TB, CTL, I, I, A1, I, FA1))
def score_hand_cards(st, tb, ctl, p, kind, opts, n, scores):
    """Scores of hand cards to discard or take: discard what is worth least (ours) or most (theirs).
    The cards of an ``arrange_top`` step (the next card put back on top of ``CTL_CTX_OWNER``'s
    deck): the best first on top of ours, the worst first on top of an opponent's."""
    owner = ctl[CTL_CTX_OWNER]
    if kind == D_TAKE_CARD and ctl[CTL_CTX_OP] == OP_ARRANGE_TOP:
        mine = team_of(st, owner) == team_of(st, p)
        for j in range(n):
            w = deck_card_worth(tb, ctl, p, opts[j])
            scores[j] = w if mine else -w
        return
    for j in range(n):
        c = opts[j]
        if c < 0:
            scores[j] = 0.0
            continue
        k = keep_worth(tb, ctl, p, c) + 0.1 * tb.cards[c, C_VALUE]
        if kind == D_TAKE_CARD:
            scores[j] = k
        elif owner >= 0 and team_of(st, owner) != team_of(st, p):
            scores[j] = k
        else:
            scores[j] = -k


@jit(V(ST, TB, CTL, I, A1, I, FA1))
def score_options(st, tb, ctl, p, opts, n, scores):
    """Scores of numbered options: a hero counter choice (Alice's size) by the ability
    bonuses it gives; the one-currency AI's options of a "choose" step (option number
    ``opts[j]``, from 1; played by fighter ``CTL_CTX_F``) by what their steps are worth now
    (:func:`.options.option_worth`:
    Looking Glass recovers only what Alice is missing); release 0.2's keep their order."""
    op = ctl[CTL_CTX_OP]
    h = st[pslot(p, P_HERO)]
    priced = op == OP_CHOOSE and not frozen(ctl, p)
    for j in range(n):
        scores[j] = -0.001 * j
        if op == OP_CHOOSE_COUNTER and opts[j] <= 1:   # choose_counter
            v = opts[j]
            scores[j] += tb.heroes[h, H_AI_ATK0 + v] * 1.0 + tb.heroes[h, H_AI_DEF0 + v] * 1.2
        elif priced:
            scores[j] += option_worth(st, tb, ctl, p, ctl[CTL_CTX_F], ctl[CTL_CTX_ROW], opts[j] - 1)
        elif op == OP_ARRANGE_TOP and opts[j] == 2:
            # to the bottom: a card below the deck's average (ours), above it (an opponent's)
            q = ctl[CTL_CTX_OWNER]
            d = deck_card_worth(tb, ctl, p, ctl[CTL_CTX_N]) - deck_mean_worth(st, tb, ctl, p, q)
            scores[j] += -d if team_of(st, q) == team_of(st, p) else d


@jit(F(ST, TB, CTL, I, I))
def form_worth(st, tb, ctl, p, form):
    """Release 0.2's worth of player ``p``'s hero being in ``form`` (hero counter 0): the
    hand cards it could play then, the ability's value bonuses, minus health lost to
    maneuvers (Hyde). The one-currency AI uses :func:`form_action_worth`."""
    h = st[pslot(p, P_HERO)]
    hb = pile_base(PILE_HAND, p)
    g = p * FIGHTERS_PER_PLAYER
    v = 0.0
    cur = st[pslot(p, P_COUNTER0)]
    st[pslot(p, P_COUNTER0)] = form   # the cards' values in that form (Duality of Man), then put back
    for i in range(st[pslot(p, P_HANDN)]):
        c = st[hb + i]
        f = tb.cards[c, C_FORM]
        if f == 0 or f - 1 == form:
            ty = tb.cards[c, C_TYPE]
            best = 0.0
            if ty == CT_ATTACK or ty == CT_VERSATILE:
                best = att_value(st, tb, ctl, c, g, hero_atk_bonus(st, tb, g))
            if ty == CT_DEFENSE or ty == CT_VERSATILE:
                best = max(best, def_value(st, tb, ctl, c, g, 0.0))
            v += 0.5 + 0.2 * max(best, 0.0)
    st[pslot(p, P_COUNTER0)] = cur
    v += tb.heroes[h, H_AI_ATK0 + min(form, 1)] + tb.heroes[h, H_AI_DEF0 + min(form, 1)]
    if tb.heroes[h, H_AI_HURT_FORM] == form + 1:
        v += 0.7 * dmg_value(st, ctl, p, p * FIGHTERS_PER_PLAYER, 1.0)
    return v


@jit(F(ST, TB, CTL, I, I))
def form_action_worth(st, tb, ctl, p, form):
    """Worth of player ``p``'s hero being in ``form`` (hero counter 0) for the rest of the
    turn and the opponent's: the score of the best first action it allows (the maneuver,
    :func:`.position.plan_maneuver`, Mr. Hyde's cost included; a scheme; an attack on a
    fighter in range; each scored as the action decision scores it) plus the keep worth of
    the hand cards it can play (to attack later and to defend on the opponent's turn: a form
    card is playable only in its form, docs/rules.md R44). The one-currency AI's
    transformation choice (issue 32, misplay 4). The AI's cached plans are forgotten before
    and after (they assumed the real form)."""
    cur = st[pslot(p, P_COUNTER0)]
    st[pslot(p, P_COUNTER0)] = form
    reset_plans(ctl)
    fu = scratch_f2(ctl, SCR_ACTIONS + 2 * _DSZ + MAX_FIGHTERS, MAX_FIGHTERS, MAX_FIGHTERS)
    cached_follow_up(st, tb, ctl, p, fu)
    best = plan_maneuver(st, tb, ctl, p, 0)
    tm = team_of(st, p)
    hb = pile_base(PILE_HAND, p)
    for k in range(FIGHTERS_PER_PLAYER):
        g = p * FIGHTERS_PER_PLAYER + k
        if st[fslot(g, F_STATUS)] != FS_IN_PLAY:
            continue
        for i in range(st[pslot(p, P_HANDN)]):
            c = st[hb + i]
            if tb.cards[c, C_TYPE] == CT_SCHEME and playable(st, tb, c, g):
                best = max(best, scheme_score(st, tb, ctl, p, c, g))
        for e in range(n_slots(st)):
            if (st[fslot(e, F_STATUS)] == FS_IN_PLAY and team_of(st, st[fslot(e, F_OWNER)]) != tm and fu[g, e] > -1.0
                    and can_target(st, tb, g, e)):
                best = max(best, fu[g, e])
    hand = 0.0
    for i in range(st[pslot(p, P_HANDN)]):
        c = st[hb + i]
        f = tb.cards[c, C_FORM]
        if f == 0 or f - 1 == form:
            hand += keep_worth(tb, ctl, p, c)
    st[pslot(p, P_COUNTER0)] = cur
    reset_plans(ctl)
    return best + hand


@jit(F(ST, TB, CTL, I))
def may_damage_worth(st, tb, ctl, p):
    """For a "may" damage step of ``p`` (``CTL_CTX_ROW``) hitting one fighter next to or in the
    zone of one of ``p``'s fighters: the worth of its best target (:func:`.options.damage_row_worth`);
    NEG for other steps (not read here)."""
    return damage_row_worth(st, tb, ctl, p, -1, ctl[CTL_CTX_ROW])


@jit(F(ST, TB, CTL, I, I))
def may_step_worth(st, tb, ctl, p, cond):
    """The one-currency AI's worth to ``p`` of doing the "may" step in the context
    (``CTL_CTX_ROW`` of ``p``'s program, fighter ``CTL_CTX_F``) whose cost the caller adds: what
    the later steps of its window that hang on it (``cond``: ``if`` / ``unless``) are worth
    (:func:`.options.hanging_worth`)."""
    r = ctl[CTL_CTX_ROW]
    if r < 0 or ctl[CTL_CTX_END] <= r:
        return 0.0
    return hanging_worth(st, tb, ctl, p, ctl[CTL_CTX_F], r, ctl[CTL_CTX_END], cond)


@jit(V(ST, TB, CTL, I, A1, I, FA1))
def score_may(st, tb, ctl, p, opts, n, scores):
    """"May" (option 1 yes, 0 no): yes, unless the step would damage our own fighter, or
    it flips our hero's form (Jekyll/Hyde) to the less useful one. Release 0.2's AI reads
    "our own fighter" from the first fighter the step could hit; the one-currency AI from
    the best of them (:func:`may_damage_worth`: yes when it is an opposing fighter, whom the
    target choice then picks; Dracula's Bloodthirsty with a Sister and an opponent next to him).
    The one-currency AI weighs damage to our own fighter (:func:`.estimate.dmg_value`) and a
    discard from our own hand (``may`` or ``optional``: the keep worth of the cards it takes,
    :func:`.options.discard_cost`) against what the steps after it that hang on it are worth
    (``if`` / ``unless`` "dealt_damage", "discarded": :func:`may_step_worth`), yes when that
    pays. Scores: where a price decides, yes scores what it is worth over no (points) and no
    0 (``--explain`` shows it); else yes or no 1, the other 0."""
    yes = True
    m = NEG   # what yes is worth over no, in points, when a price decides it (NEG: none; --explain shows it)
    mine = ctl[CTL_CTX_P] == p and not frozen(ctl, p)
    if ctl[CTL_CTX_P] == p and ctl[CTL_CTX_OP] == OP_DAMAGE:
        g = ctl[CTL_CTX_F]
        w = NEG if frozen(ctl, p) else may_damage_worth(st, tb, ctl, p)
        if w > NEG:
            yes = w > 0.0
            m = w
        elif g >= 0 and team_of(st, st[fslot(g, F_OWNER)]) == team_of(st, p):
            yes = False
            if mine:
                m = (dmg_value(st, ctl, p, g, float(ctl[CTL_CTX_N]))
                     + may_step_worth(st, tb, ctl, p, CN_DEALT_DAMAGE))
                yes = m > 0.0
    r = ctl[CTL_CTX_ROW]
    if mine and ctl[CTL_CTX_OP] == OP_DISCARD and r >= 0 and tb.code[r, I_SIDE] == S_OWN:
        gain = may_step_worth(st, tb, ctl, p, CN_DISCARDED)
        cost = discard_cost(st, tb, ctl, p, r)
        yes = gain > cost
        m = gain - cost
    if ctl[CTL_CTX_P] == p and ctl[CTL_CTX_OP] == OP_FLIP_COUNTER:
        cur = 1 if st[pslot(p, P_COUNTER0)] == 1 else 0
        if frozen(ctl, p):
            a, b = form_worth(st, tb, ctl, p, 1 - cur), form_worth(st, tb, ctl, p, cur)
        else:
            a, b = form_action_worth(st, tb, ctl, p, 1 - cur), form_action_worth(st, tb, ctl, p, cur)
        yes = a > b + 0.1
        m = a - b - 0.1
    if m > NEG and yes != (m > 0.0):   # (rounding at a tie: the decision is yes's, as it was)
        m = 1e-9 if yes else -1e-9
    for j in range(n):
        if m > NEG:
            scores[j] = m if opts[j] == 1 else 0.0
        else:
            scores[j] = 1.0 if (opts[j] == 1) == yes else 0.0


@jit(V(ST, TB, CTL, I, A1, I, FA1))
def score_guess(st, tb, ctl, p, opts, n, scores):
    """A named or predicted printed value (Holmes): the value most frequent among the
    opponent's unknown cards (card counting from public piles, never their hand)."""
    o = OFF_CB
    q = -1
    if st[o + CB_ACTIVE] != 0:
        q = st[o + CB_DEF_P] if st[o + CB_ATT_P] == p else st[o + CB_ATT_P]
    elif st[G_NPLAYERS] > 2 and st[G_OPPONENT] >= 0:   # a team game: the opponent chosen for this card
        q = st[G_OPPONENT]
    else:
        for r in range(4):
            if r != p and st[pslot(r, P_HERO)] >= 0 and team_of(st, r) != team_of(st, p):
                q = r
                break
    for j in range(n):
        scores[j] = -0.001 * j
    if q < 0:
        return
    if not frozen(ctl, p):
        guess_now(st, tb, ctl, p, q, opts, n, scores)
        return
    pool = scratch_i1(ctl, SCR_POOL, MAX_CARDS + 1)
    npool = unknown_pool(st, tb, q, pool)
    for i in range(npool):
        v = tb.cards[pool[i], C_VALUE]
        for j in range(n):
            if opts[j] == v:
                scores[j] += 1.0


@jit(V(ST, TB, CTL, I, I, A1, I, FA1))
def guess_now(st, tb, ctl, p, q, opts, n, scores):
    """The one-currency AI's named values (``opts[:n]``) about opponent ``q``: each value's
    chance of being right times what being right gains, added to ``scores``.

    In a combat (Elementary's prediction of the attack card): over the cards the attacking
    fighter can play among ``q``'s unknown cards (its attack and versatile cards, banner and
    form), each as likely to be the one played, times ``guess_base`` plus the worth of the
    damage it would deal against the defense value now (its value beyond it, + its effect
    damage): a right guess ignores its value and cancels its effects. (Predicting a defense
    card: its defense value instead of the damage.) Outside a combat (Confirm Suspicion): the chance ``q`` holds a
    card of that printed value (a hand of their size from their unknown cards) times the card
    they lose (``fx_opp_discard``) plus the damage of the lowest BOOST among those cards,
    plus ``guess_base``."""
    pool = scratch_i1(ctl, SCR_POOL, MAX_CARDS + 1)
    npool = unknown_pool(st, tb, q, pool)
    o = OFF_CB
    base = wv(ctl, p, W_GUESS_BASE)
    if st[o + CB_ACTIVE] != 0:
        attack = st[o + CB_ATT_P] == q
        side = 0 if attack else 1
        f = st[o + CB_ATT_F + side]            # q's fighter in the combat
        t = st[o + CB_ATT_F + 1 - side]        # ours
        other = combat_att_value(st, tb, 1 - side) if st[o + CB_CARD0 + 1 - side] >= 0 else 0.0
        bonus = hero_atk_bonus(st, tb, f) if attack else hero_def_bonus(st, tb, f)
        # the card played: any of the cards f can play, each as likely (an AI attacker does not
        # play its best value: it weighs effects and keeps good cards; ranking by value named
        # the top values too often, right 41% of the time against Sinbad, this 51%)
        tot = 0
        for i in range(npool):
            c = pool[i]
            ty = tb.cards[c, C_TYPE]
            if (ty == (CT_ATTACK if attack else CT_DEFENSE) or ty == CT_VERSATILE) and playable(st, tb, c, f):
                tot += 1
        for i in range(npool):
            c = pool[i]
            ty = tb.cards[c, C_TYPE]
            if not ((ty == (CT_ATTACK if attack else CT_DEFENSE) or ty == CT_VERSATILE) and playable(st, tb, c, f)):
                continue
            v = tb.cards[c, C_VALUE]
            if attack:
                a = v + feat(tb, c, AI_VALUE_ATK) + board_delta(st, tb, ctl, c, f, t, 0, AI_VALUE_ATK) + bonus
                d = a - other
                w = base - dmg_value(st, ctl, p, t, (d if d > 0.0 else 0.0) + feat(tb, c, AI_DMG))   # (ours: < 0)
            else:
                w = base + max(v + feat(tb, c, AI_VALUE_DEF) + bonus, 0.0)
            for j in range(n):
                if opts[j] == v:
                    scores[j] += w / tot
        return
    hand = st[pslot(q, P_HANDN)]
    h = q * FIGHTERS_PER_PLAYER
    for j in range(n):
        cnt = 0
        low = 1 << 30
        for i in range(npool):
            c = pool[i]
            if tb.cards[c, C_VALUE] == opts[j] and tb.cards[c, C_TYPE] != CT_SCHEME:
                cnt += 1
                low = min(low, tb.cards[c, C_BOOST])
        if cnt == 0:
            continue
        hit = 1.0 - p_none_of(npool, cnt, hand)
        dmg = dmg_value(st, ctl, p, h, float(low)) if st[fslot(h, F_STATUS)] == FS_IN_PLAY else 0.0
        scores[j] += hit * (wv(ctl, p, W_FX_OPP_DISCARD) + dmg + base)
