"""Where fighters stand: position scores, the follow-up attack table, the maneuver plan
(how far each fighter moves, with or without a BOOST card) and the worth of a draw.
"""
from numba import types

from ..codes import (
    CT_ATTACK, CT_VERSATILE, FS_DEFEATED, FS_IN_PLAY, FS_REMOVED, HF_ATTACK_BOOST, HK_AFTER_ATTACK, PILE_DISC,
    PILE_HAND, R_EXHAUST_DAMAGE, R_HAND_LIMIT,
)
from ..control import (
    CTL_FU, CTL_FU_KEY, CTL_PLAN_BOOST, CTL_PLAN_KEY, CTL_POS_KEY, CTL_POS_SIG, CTL_TD_P, N_PRICE, SCR_FOLLOW, SCR_PLAN,
    SCR_PLAN_DESTS, SCR_PLAN_EF, SCR_PRICE, SCR_DIST_FX, SCR_PLAN_POS, SCR_TARGETS, SCR_WORTH, SCR_WORTH_SET,
)
from ..core import count_tag_in_pile, fog_space, n_slots, pile_base, reachable, team_of
from ..layout import (
    AI_DMG, AI_VALUE_ATK, C_AI_LIVE, C_BOOST, C_TYPE, C_VALUE, F_HP, F_KIND, F_MAXHP, F_MOVE, F_OWNER, F_RANGED,
    F_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, fslot, G_ACTION_NO, G_ACTIONS, G_NPLAYERS, G_TURN, H_AI_DEF_FOG,
    H_AI_HURT_FORM, H_FLAGS, H_AI_MOVE_N, H_AI_MOVE_TAG, MAX_CARDS, MAX_FIGHTERS, N_COUNTERS, N_FOG, P_COUNTER0,
    P_DECKN, P_DISCN, P_FOG0, P_HANDN, P_HERO, P_ONGOING, pslot,
)
from ..sigs import A1, B, CTL, F, f64_view, FA1, I, jit, ST, TB, V
from .weights import (
    _DSZ, attack_keep, board_delta, dmg_now, FA2, feat, frozen, fx_now, fx_worth, keep_worth, NEG, playable, scratch_f1, scratch_f2,
    scratch_i1, W_APPROACH, W_BOOST_MARGIN, W_CARD, W_EXHAUST, W_FOG, W_FULL_HAND, W_OPP_CARD,
    W_REACH_NEXT, W_REACH_NOW, W_SIDEKICK_TARGET, W_SIDEKICK_THREAT, W_THREAT, W_THREAT_BASE, W_THREAT_LOW,
    W_HP_SK, W_KEEP_FULL, W_LOSE_SK, W_THREAT_SK, wv,
)
from .hooks import has_hook, hook_worth
from .estimate import (
    att_value, dmg_params, dmg_value, exp_attack, exp_attack_hp, hero_atk_bonus, own_dmg_worth,
    team_pos_bonus, value_dist,
)


@jit(I(ST, CTL, I, I, FA2))
def enemy_facts(st, ctl, p, tm, ef):
    """Facts about the fighters in play opposing team ``tm``, one row each (float64
    ``ef`` of shape (MAX_FIGHTERS, 6)): space, target worth (heroes 1 + the share of
    health lost, sidekicks ``sidekick_target``), threat factor (1 hero, ``sidekick_threat``
    for a sidekick), ranged (0/1), move + 1, fighter slot; weights of player ``p``.
    Returns the number of rows. Read once by the callers of :func:`pos_score`."""
    nf = n_slots(st)
    n = 0
    for e in range(nf):
        if st[fslot(e, F_STATUS)] != FS_IN_PLAY or team_of(st, st[fslot(e, F_OWNER)]) == tm:
            continue
        ehero = st[fslot(e, F_KIND)] == 0
        ehp = st[fslot(e, F_HP)]
        emx = st[fslot(e, F_MAXHP)]
        ef[n, 0] = st[fslot(e, F_SPACE)]
        ef[n, 1] = (1.0 + (1.0 - ehp / emx)) if ehero else wv(ctl, p, W_SIDEKICK_TARGET)
        ef[n, 2] = 1.0 if ehero else wv(ctl, p, W_SIDEKICK_THREAT)
        ef[n, 3] = 1.0 if st[fslot(e, F_RANGED)] != 0 else 0.0
        ef[n, 4] = st[fslot(e, F_MOVE)] + 1
        ef[n, 5] = e
        n += 1
    return n


@jit(F(ST, TB, CTL, I, I, I, B, FA2, FA2, I), inline=True)
def pos_score(st, tb, ctl, p, g, s, now, fu, ef, ne):
    """How good space ``s`` is for fighter ``g`` (owned by ``p``'s team), in points.

    ``now``: an action remains this turn, and ``fu[g, e]`` is the worth of ``g``'s best
    attack on opposing fighter ``e`` (see :func:`follow_up`; < 0: no attack card).
    ``ef[:ne]``: the fighters opposing ``g`` (see :func:`enemy_facts`). Team games add
    :func:`team_pos_bonus` (in the callers: this stays small and inlined into their loops,
    where the compiler hoists what does not depend on ``s``; a call inside slows duels by
    about a fifth).
    """
    ranged = st[fslot(g, F_RANGED)] != 0
    hero = st[fslot(g, F_KIND)] == 0
    hp = st[fslot(g, F_HP)]
    mx = st[fslot(g, F_MAXHP)]
    if hero:   # being attacked matters more as the hero's health falls
        low = 1.0 - hp / mx if mx > 0 else 0.0
        vuln = wv(ctl, p, W_THREAT) * (wv(ctl, p, W_THREAT_BASE) + wv(ctl, p, W_THREAT_LOW) * low)
    else:
        vuln = wv(ctl, p, W_THREAT_SK)
    w_next = wv(ctl, p, W_REACH_NEXT)
    w_app = wv(ctl, p, W_APPROACH)
    zs = tb.zmask[s]
    sc = 0.0
    best_now = 0.0
    for i in range(ne):
        se = int(ef[i, 0])
        tw = ef[i, 1]
        adj = tb.adj[s, se] != 0
        zone = (zs & tb.zmask[se]) != 0
        if adj or (ranged and zone):
            sc += w_next * tw
            if now:
                x = fu[g, int(ef[i, 5])]
                if x > best_now:
                    best_now = x
        else:
            d = tb.dist[s, se]
            if d > 10:
                d = 10
            sc -= w_app * tw * d
        em = int(ef[i, 4])
        if ef[i, 3] != 0.0:
            thr = zone or tb.dist[se, s] <= em
        else:
            thr = adj or tb.dist[se, s] <= em + 1
        if thr:
            sc -= vuln * ef[i, 2]
    if hero:   # a hero who defends better on fog (the Invisible Man) wants to stand on it
        fogv = tb.heroes[st[pslot(st[fslot(g, F_OWNER)], P_HERO)], H_AI_DEF_FOG]
        if fogv != 0 and fog_space(st, st[fslot(g, F_OWNER)], s):
            sc += wv(ctl, p, W_FOG) * fogv
    return sc + wv(ctl, p, W_REACH_NOW) * best_now


@jit(I(ST, I))
def pos_sig(st, p):
    """A hash of everything :func:`pos_score` reads for a fighter of player ``p`` in a duel
    (each fighter's status, health, move, reach, kind; the opposing fighters' spaces; ``p``'s
    fog tokens; whether an action remains): equal signatures within one action mean equal
    position scores, so the maneuver plan's scores serve the move decisions after it."""
    nf = n_slots(st)
    h = 1 if st[G_ACTIONS] > 0 else 0
    tm = team_of(st, p)
    for e in range(nf):
        h = h * 1000003 + st[fslot(e, F_STATUS)]
        if st[fslot(e, F_STATUS)] != FS_IN_PLAY:
            continue
        h = h * 1000003 + st[fslot(e, F_HP)]
        h = h * 1000003 + st[fslot(e, F_MAXHP)]
        h = h * 1000003 + st[fslot(e, F_MOVE)]
        h = h * 1000003 + st[fslot(e, F_RANGED)]
        h = h * 1000003 + st[fslot(e, F_KIND)]
        if team_of(st, st[fslot(e, F_OWNER)]) != tm:
            h = h * 1000003 + st[fslot(e, F_SPACE)]
    for t in range(N_FOG):
        h = h * 1000003 + st[pslot(p, P_FOG0 + t)]
    return h


@jit(V(CTL))
def reset_plans(ctl):
    """Forget the AI's cached plans and tables (their keys): before a copy of the state plays
    on (search), or after the AI scored a state it changed in place (a form tried)."""
    ctl[CTL_PLAN_KEY] = -1
    ctl[CTL_FU_KEY] = -1
    ctl[CTL_POS_KEY] = -1
    ctl[CTL_TD_P] = -1


@jit(I(ST, I))
def action_key(st, p):
    """Key of the action in progress (turn, action number, player) for the plans cached in ``ctl``."""
    return ((st[G_TURN] * 64 + st[G_ACTION_NO]) * 4) + p


@jit(V(ST, TB, CTL, I, FA2, FA2, FA1))
def target_dists(st, tb, ctl, p, dvals, dprobs, pnone):
    """For each opposing fighter ``e`` of ``p``: its owner's likely best defense
    (``dvals[e]``, ``dprobs[e]``, ``pnone[e]``, see :func:`.estimate.value_dist`); ``pnone[e]``
    is -1 for fighters that are not opposing or not in play."""
    nf = n_slots(st)
    fxd = scratch_f1(ctl, SCR_DIST_FX, MAX_CARDS + 1)
    tm = team_of(st, p)
    for e in range(nf):
        pnone[e] = -1.0
        if st[fslot(e, F_STATUS)] != FS_IN_PLAY or team_of(st, st[fslot(e, F_OWNER)]) == tm:
            continue
        q = st[fslot(e, F_OWNER)]
        same = -1   # sidekicks of one kind share the distribution
        if st[fslot(e, F_KIND)] != 0:
            for e2 in range(q * FIGHTERS_PER_PLAYER, e):
                if pnone[e2] >= 0.0 and st[fslot(e2, F_KIND)] == st[fslot(e, F_KIND)]:
                    same = e2
                    break
        if same >= 0:
            for i in range(MAX_CARDS + 1):
                dvals[e, i] = dvals[same, i]
                dprobs[e, i] = dprobs[same, i]
            pnone[e] = pnone[same]
        else:
            pnone[e] = value_dist(st, tb, ctl, e, st[pslot(q, P_HANDN)], 1, 0.0, dvals[e], fxd, dprobs[e])


@jit(I(ST, I))
def dist_sig(st, p):
    """A hash of everything :func:`target_dists` reads for player ``p``: each fighter's
    status, owner, kind and (opposing) space; each opposing player's hand size, discard
    pile, ongoing scheme, counters and fog tokens. Equal signatures mean equal defense
    distributions (the opponent's unknown cards and hand size did not change)."""
    nf = n_slots(st)
    h = p + 1
    tm = team_of(st, p)
    for e in range(nf):
        h = h * 1000003 + st[fslot(e, F_STATUS)]
        h = h * 1000003 + st[fslot(e, F_OWNER)]
        h = h * 1000003 + st[fslot(e, F_KIND)]
        if team_of(st, st[fslot(e, F_OWNER)]) != tm:
            h = h * 1000003 + st[fslot(e, F_SPACE)]
    for q in range(st[G_NPLAYERS]):
        if team_of(st, q) == tm:
            continue
        h = h * 1000003 + st[pslot(q, P_HANDN)]
        h = h * 1000003 + st[pslot(q, P_ONGOING)]
        for i in range(N_COUNTERS):
            h = h * 1000003 + st[pslot(q, P_COUNTER0 + i)]
        for t in range(N_FOG):
            h = h * 1000003 + st[pslot(q, P_FOG0 + t)]
        b = pile_base(PILE_DISC, q)
        h = h * 1000003 + st[pslot(q, P_DISCN)]
        for i in range(st[pslot(q, P_DISCN)]):
            h = h * 1000003 + st[b + i]
    return h


@jit(types.UniTuple(F, 3)(ST, TB, CTL, I, I, I))
def attack_parts(st, tb, ctl, p, g, c):
    """(attack value, effect damage, effect worth less the worth of keeping it) of card ``c``
    played by ``p``'s fighter ``g`` now: the parts of :func:`attack_worth` that do not
    depend on the target."""
    if (tb.cards[c, C_AI_LIVE] & 1) == 0:   # (most cards: the static features, no calls)
        av = tb.cards[c, C_VALUE] + feat(tb, c, AI_VALUE_ATK) + hero_atk_bonus(st, tb, g)
        dmg = feat(tb, c, AI_DMG)
        fx = fx_worth(tb, ctl, p, c)
    else:
        av = att_value(st, tb, ctl, c, g, hero_atk_bonus(st, tb, g))
        dmg = dmg_now(st, tb, ctl, c, g, 0)
        fx = fx_now(st, tb, ctl, p, c, g, 0)
    return av, dmg, fx + own_dmg_worth(st, tb, ctl, p, c, g)


@jit(F(F, FA1, FA1, F))
def win_chance(av, dvals, dprobs, pn):
    """The chance that an attack of value ``av`` wins over the defense distribution ``dvals``,
    ``dprobs`` (``pn``: no defense card; see :func:`.estimate.value_dist`): its value beats the
    defense value (with no defense card, any value above 0)."""
    w = pn if av > 0.0 else 0.0
    for i in range(int(dvals[MAX_CARDS])):
        if av > dvals[i]:
            w += dprobs[i]
    return w


@jit(F(ST, TB, CTL, I, I, I, I, F, F, F, FA1, FA1, F, F, F, F))
def attack_now(st, tb, ctl, p, g, e, c, av, dmg, fx, dvals, dprobs, pn, hp, per, kill):
    """The one-currency worth of ``p``'s fighter ``g`` attacking ``e`` with card ``c`` over
    ``e``'s likely defense (``dvals``, ``dprobs``, ``pn``; ``e``'s :func:`.estimate.dmg_params`
    ``hp``, ``per``, ``kill``), from :func:`attack_parts` ``av``, ``dmg``, ``fx``: the expected
    damage and the effects, with the card's board steps counted against ``e``
    (:func:`.weights.board_delta`: Counterpunch's "if adjacent", "+1 for each X", "if you
    won" at the chance of winning, :func:`win_chance`), plus the
    best face-down BOOST a hero whose ability allows one (King Arthur) may add: its gain in
    expected damage (unless the defender cancels the card's effects, which loses it: the
    chance :func:`.estimate.value_dist` gives) less its keep worth and ``boost_margin``, if
    positive (what :func:`.choices.score_boost` will weigh); and the steps of the hero's
    ``after_attack`` hook (:func:`.hooks.hook_worth`; "if won" at :func:`win_chance`)."""
    q = st[fslot(g, F_OWNER)]
    if (tb.cards[c, C_AI_LIVE] & 2) != 0:
        av += board_delta(st, tb, ctl, c, g, e, 0, AI_VALUE_ATK)
        dmg += board_delta(st, tb, ctl, c, g, e, 0, AI_DMG)
        pw = f64_view(ctl, SCR_PRICE, N_PRICE)
        pw[8] = win_chance(av, dvals, dprobs, pn)   # ("if you won" steps: the chance, not half)
        fx += board_delta(st, tb, ctl, c, g, e, 0, -1)
        pw[8] = -1.0
    if has_hook(tb, st[pslot(q, P_HERO)], HK_AFTER_ATTACK) > 0:   # (after_attack: "if won" at the chance)
        fx += hook_worth(st, tb, ctl, q, g, e, HK_AFTER_ATTACK, 0, win_chance(av, dvals, dprobs, pn))
    base = exp_attack_hp(hp, per, kill, av, dmg, dvals, dprobs, pn)
    boost = 0.0
    if st[fslot(g, F_KIND)] == 0 and (tb.heroes[st[pslot(q, P_HERO)], H_FLAGS] & HF_ATTACK_BOOST) != 0:
        hb = pile_base(PILE_HAND, q)
        skipped = False
        for i in range(st[pslot(q, P_HANDN)]):
            b = st[hb + i]
            if b == c and not skipped:   # (the attack card itself leaves the hand)
                skipped = True
                continue
            if tb.cards[b, C_BOOST] <= 0:
                continue
            x = ((exp_attack_hp(hp, per, kill, av + tb.cards[b, C_BOOST], dmg, dvals, dprobs, pn) - base)
                 * (1.0 - dprobs[MAX_CARDS]) - keep_worth(tb, ctl, p, b) - wv(ctl, p, W_BOOST_MARGIN))
            if x > boost:
                boost = x
    return base + fx + boost


@jit(F(ST, TB, CTL, I, I, I, I, FA2, FA2, FA1))
def attack_worth(st, tb, ctl, p, g, e, c, dvals, dprobs, pnone):
    """Worth of ``p``'s fighter ``g`` attacking ``e`` with card ``c`` (the attack action's score)."""
    av, dmg, fx = attack_parts(st, tb, ctl, p, g, c)
    if not frozen(ctl, p):
        hp, per, kill = dmg_params(st, ctl, p, e)
        return (attack_now(st, tb, ctl, p, g, e, c, av, dmg, fx, dvals[e], dprobs[e], pnone[e], hp, per, kill)
                + wv(ctl, p, W_OPP_CARD) * (1.0 - pnone[e]) - attack_keep(st, tb, ctl, p, c))
    return (exp_attack(st, ctl, p, e, av, dmg, dvals[e], dprobs[e], pnone[e])
            + wv(ctl, p, W_OPP_CARD) * (1.0 - pnone[e]) + fx - keep_worth(tb, ctl, p, c))


@jit(V(ST, TB, CTL, I, FA2, FA2, FA1, FA2))
def follow_up(st, tb, ctl, p, dvals, dprobs, pnone, fu):
    """``fu[g, e]``: worth of the best attack ``p``'s fighter ``g`` could make on opposing
    fighter ``e`` with a card in hand (as scored for an attack action), -1 if none;
    cached in ``ctl`` for the rest of the action (the maneuver's moves reuse it).

    Also keeps every (fighter, card, target) worth it computes: ``ctl``'s ``SCR_WORTH``
    row ``k * MAX_CARDS + i`` (``p``'s k-th fighter, i-th hand card), column ``e``, written
    where ``SCR_WORTH_SET`` row is 1 (see :func:`known_attack_worth`)."""
    nf = n_slots(st)
    for a in range(nf):
        for b in range(nf):
            fu[a, b] = -1.0
    hb = pile_base(PILE_HAND, p)
    hn = st[pslot(p, P_HANDN)]
    aw = scratch_f2(ctl, SCR_WORTH, FIGHTERS_PER_PLAYER * MAX_CARDS, MAX_FIGHTERS)
    for k in range(FIGHTERS_PER_PLAYER):   # (rows of hand cards only: known_attack_worth reads no other)
        for i in range(hn):
            ctl[SCR_WORTH_SET + k * MAX_CARDS + i] = 0
    w_opp = wv(ctl, p, W_OPP_CARD)
    old = frozen(ctl, p)
    tp = scratch_f2(ctl, SCR_TARGETS, MAX_FIGHTERS, 3)   # each target's dmg_params, read once
    for e in range(nf):
        if pnone[e] >= 0.0:
            tp[e, 0], tp[e, 1], tp[e, 2] = dmg_params(st, ctl, p, e)
    for k in range(FIGHTERS_PER_PLAYER):   # (fighter, card) outside: their parts once, then each target
        g = p * FIGHTERS_PER_PLAYER + k
        if st[fslot(g, F_STATUS)] != FS_IN_PLAY:
            continue
        for i in range(hn):
            c = st[hb + i]
            ty = tb.cards[c, C_TYPE]
            if not ((ty == CT_ATTACK or ty == CT_VERSATILE) and playable(st, tb, c, g)):
                continue
            av, dmg, fx = attack_parts(st, tb, ctl, p, g, c)
            kw = attack_keep(st, tb, ctl, p, c)
            row = k * MAX_CARDS + i
            ctl[SCR_WORTH_SET + row] = 1
            for e in range(nf):
                if pnone[e] < 0.0:
                    continue
                if old:
                    v = (exp_attack_hp(tp[e, 0], tp[e, 1], tp[e, 2], av, dmg, dvals[e], dprobs[e], pnone[e])
                         + w_opp * (1.0 - pnone[e]) + fx - kw)   # = attack_worth(.., g, e, c, ..)
                else:
                    v = (attack_now(st, tb, ctl, p, g, e, c, av, dmg, fx, dvals[e], dprobs[e], pnone[e],
                                    tp[e, 0], tp[e, 1], tp[e, 2]) + w_opp * (1.0 - pnone[e]) - kw)
                aw[row, e] = v
                if v > fu[g, e]:
                    fu[g, e] = v
    ctl[CTL_FU_KEY] = action_key(st, p)
    for a in range(nf):
        for b in range(nf):
            ctl[CTL_FU + a * MAX_FIGHTERS + b] = int(fu[a, b] * 1000.0)


@jit(F(ST, CTL, I, I, I, I))
def known_attack_worth(st, ctl, p, g, e, c):
    """:func:`attack_worth` of ``p``'s fighter ``g`` attacking ``e`` with card ``c`` as
    :func:`follow_up` computed it this decision (the same numbers), or NEG if it did not
    (call it right after follow_up, before the hand changes)."""
    hb = pile_base(PILE_HAND, p)
    k = g - p * FIGHTERS_PER_PLAYER
    for i in range(st[pslot(p, P_HANDN)]):
        if st[hb + i] == c:
            row = k * MAX_CARDS + i
            if ctl[SCR_WORTH_SET + row] == 0:
                return NEG
            return scratch_f2(ctl, SCR_WORTH, FIGHTERS_PER_PLAYER * MAX_CARDS, MAX_FIGHTERS)[row, e]
    return NEG


@jit(V(ST, TB, CTL, I, FA2))
def cached_follow_up(st, tb, ctl, p, fu):
    """The follow-up table of this action (computed once per action, see :func:`follow_up`)."""
    nf = n_slots(st)
    if ctl[CTL_FU_KEY] == action_key(st, p):
        for a in range(nf):
            for b in range(nf):
                fu[a, b] = ctl[CTL_FU + a * MAX_FIGHTERS + b] * 0.001
        return
    dvals = scratch_f2(ctl, SCR_FOLLOW, MAX_FIGHTERS, MAX_CARDS + 1)
    dprobs = scratch_f2(ctl, SCR_FOLLOW + _DSZ, MAX_FIGHTERS, MAX_CARDS + 1)
    pnone = scratch_f1(ctl, SCR_FOLLOW + 2 * _DSZ, MAX_FIGHTERS)
    target_dists(st, tb, ctl, p, dvals, dprobs, pnone)
    follow_up(st, tb, ctl, p, dvals, dprobs, pnone, fu)


@jit(I(ST, TB, I))
def maneuver_bonus(st, tb, p):
    """Estimated extra move from the hero's maneuver ability (Sinbad's Voyages)."""
    h = st[pslot(p, P_HERO)]
    n = tb.heroes[h, H_AI_MOVE_N]
    if n == 0:
        return 0
    return n * count_tag_in_pile(st, tb, PILE_DISC, p, tb.heroes[h, H_AI_MOVE_TAG])


@jit(types.UniTuple(F, 2)(ST, TB, CTL, I, I, B, FA2, FA2, I, A1, FA2, I))
def move_gain(st, tb, ctl, p, extra, now, fu, cache, kmax, dests, ef, ne):
    """(Sum over ``p``'s fighters of (best reachable position - current position), the
    hero's part of it).

    ``cache[k, s]``: position score of ``p``'s k-th fighter on space ``s`` (NEG = not yet
    computed), shared between calls with different move budgets. Only the first
    ``kmax`` fighter slots count (1: the hero alone). ``dests``: scratch, int64 (spaces + 1,);
    ``ef[:ne]``: the opposing fighters (:func:`enemy_facts`)."""
    bonus = maneuver_bonus(st, tb, p)
    team = st[G_NPLAYERS] > 2
    gain = 0.0
    hero = 0.0
    for k in range(kmax):
        g = p * FIGHTERS_PER_PLAYER + k
        if st[fslot(g, F_STATUS)] != FS_IN_PLAY:
            continue
        n = reachable(st, tb, g, st[fslot(g, F_MOVE)] + extra + bonus, False, dests)
        c = cache[k]
        if c[dests[0]] == NEG:
            c[dests[0]] = pos_score(st, tb, ctl, p, g, dests[0], now, fu, ef, ne)
            if team:
                c[dests[0]] += team_pos_bonus(st, tb, ctl, p, g, dests[0])
        base = c[dests[0]]
        best = base
        for i in range(1, n):
            s = dests[i]
            if c[s] == NEG:
                c[s] = pos_score(st, tb, ctl, p, g, s, now, fu, ef, ne)
                if team:
                    c[s] += team_pos_bonus(st, tb, ctl, p, g, s)
            if c[s] > best:
                best = c[s]
        gain += best - base
        if k == 0:
            hero = best - base
    return gain, hero


@jit(F(ST, TB, CTL, I))
def draw_worth(st, tb, ctl, p):
    """Worth of drawing one card now (exhaustion damage when the deck is empty)."""
    return draw_worth_hand(st, tb, ctl, p, st[pslot(p, P_HANDN)])


@jit(V(ST, TB, CTL, I))
def set_price(st, tb, ctl, p):
    """The one-currency AI's prices for player ``p`` now, in ``ctl`` (``SCR_PRICE``): a drawn
    card is worth :func:`draw_worth_hand` with the card being played out of the hand, whatever
    draws it (a maneuver, a card's effect); a card kept in hand is worth ``keep_full`` of its
    keep worth when the hand is at the hand limit (it would be discarded at the end of the turn
    before a better one). Release 0.2's AI reads neither (``fx_draw``)."""
    v = f64_view(ctl, SCR_PRICE, N_PRICE)
    hand = st[pslot(p, P_HANDN)]
    v[p] = draw_worth_hand(st, tb, ctl, p, hand - 1 if hand > 0 else 0)
    v[4 + p] = wv(ctl, p, W_KEEP_FULL) if hand >= tb.rules[R_HAND_LIMIT] else 1.0
    v[8] = -1.0   # (no combat's chance of winning set: see attack_now)
    v[13] = -1.0  # (no expected combat damage taken set: see choices.score_defense)
    back = 0.0    # a sidekick off the board (defeated or removed) that an effect may bring back
    for k in range(1, FIGHTERS_PER_PLAYER):
        g = p * FIGHTERS_PER_PLAYER + k
        s = st[fslot(g, F_STATUS)]
        if s == FS_DEFEATED or s == FS_REMOVED:
            w = wv(ctl, p, W_HP_SK) * st[fslot(g, F_MAXHP)] + wv(ctl, p, W_LOSE_SK)
            if w > back:
                back = w
    v[9 + p] = back


@jit(F(ST, TB, CTL, I, I))
def draw_worth_hand(st, tb, ctl, p, hand):
    """Worth to ``p`` of drawing one card into a hand of ``hand`` cards (``card``, less as the
    hand nears the hand limit, ``full_hand`` at it; exhaustion damage when the deck is empty)."""
    if st[pslot(p, P_DECKN)] == 0:
        x = tb.rules[R_EXHAUST_DAMAGE]
        v = 0.0
        for k in range(FIGHTERS_PER_PLAYER):
            g = p * FIGHTERS_PER_PLAYER + k
            if st[fslot(g, F_STATUS)] == FS_IN_PLAY:
                v += dmg_value(st, ctl, p, g, float(x))
        return v - wv(ctl, p, W_EXHAUST)
    room = tb.rules[R_HAND_LIMIT] - hand
    if room <= 0:
        return wv(ctl, p, W_FULL_HAND)
    # a card is worth most when the hand is short; little when it is nearly full
    f = room / 4.0 if room < 4 else 1.0
    return wv(ctl, p, W_FULL_HAND) + (wv(ctl, p, W_CARD) - wv(ctl, p, W_FULL_HAND)) * f


@jit(I(ST, TB, CTL, I))
def best_boost_card(st, tb, ctl, p):
    """Hand card of ``p`` with the most BOOST (ties: least worth keeping), -1 if none has BOOST."""
    hb = pile_base(PILE_HAND, p)
    best = -1
    bv = 0
    bk = 0.0
    for i in range(st[pslot(p, P_HANDN)]):
        c = st[hb + i]
        b = tb.cards[c, C_BOOST]
        if b <= 0:
            continue
        k = keep_worth(tb, ctl, p, c)
        if b > bv or (b == bv and k < bk):
            best = c
            bv = b
            bk = k
    return best


@jit(F(ST, TB, CTL, I, I))
def plan_maneuver(st, tb, ctl, p, record):
    """Score of a maneuver for ``p`` now; with ``record`` remember the BOOST plan in ``ctl``."""
    now = st[G_ACTIONS] > 0
    fu = scratch_f2(ctl, SCR_PLAN, MAX_FIGHTERS, MAX_FIGHTERS)
    # the position scores below serve this action's move decisions too (score_spaces) when
    # they use the same follow-up numbers: those stored in ctl, not a fresh exact table
    shared = st[G_NPLAYERS] <= 2 and not (now and ctl[CTL_FU_KEY] != action_key(st, p))
    if now:
        cached_follow_up(st, tb, ctl, p, fu)
    S = tb.adj.shape[0]
    cache = scratch_f2(ctl, SCR_PLAN_POS, FIGHTERS_PER_PLAYER, S)
    for k in range(FIGHTERS_PER_PLAYER):
        for s in range(S):
            cache[k, s] = NEG
    dests = scratch_i1(ctl, SCR_PLAN_DESTS, S + 1)
    ef = scratch_f2(ctl, SCR_PLAN_EF, MAX_FIGHTERS, 6)
    ne = enemy_facts(st, ctl, p, team_of(st, p), ef)
    base, hero0 = move_gain(st, tb, ctl, p, 0, now, fu, cache, FIGHTERS_PER_PLAYER, dests, ef, ne)
    draw = draw_worth(st, tb, ctl, p)
    h = st[pslot(p, P_HERO)]
    if tb.heroes[h, H_AI_HURT_FORM] != 0 and tb.heroes[h, H_AI_HURT_FORM] == st[pslot(p, P_COUNTER0)] + 1:
        draw += dmg_value(st, ctl, p, p * FIGHTERS_PER_PLAYER, 1.0)   # Mr. Hyde: a maneuver costs him 1 health
    score = draw + base
    plan = -1
    bc = best_boost_card(st, tb, ctl, p)
    if bc >= 0:
        # a BOOST moves every fighter further, but it is the hero's move that decides it:
        # the sidekicks' gains are taken as unchanged (this keeps the search small)
        g2 = base - hero0 + move_gain(st, tb, ctl, p, tb.cards[bc, C_BOOST], now, fu, cache, 1, dests, ef, ne)[0]
        alt = draw + g2 - keep_worth(tb, ctl, p, bc) - wv(ctl, p, W_BOOST_MARGIN)
        if alt > score:
            score = alt
            plan = bc
    if record != 0:
        ctl[CTL_PLAN_KEY] = action_key(st, p)
        ctl[CTL_PLAN_BOOST] = plan
    ctl[CTL_POS_KEY] = action_key(st, p) if shared else -1
    ctl[CTL_POS_SIG] = pos_sig(st, p)
    return score
