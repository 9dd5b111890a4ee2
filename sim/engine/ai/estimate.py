"""Estimates from public information: the cards an opponent may hold, the best value in a
random hand of them (hypergeometric), ability bonuses, the worth of damage (duels and
team games), and the expected damage of an attack over the defender's likely defense.
"""
from numba import types

from ..codes import (
    CN_ALWAYS, CT_ATTACK, CT_DEFENSE, CT_VERSATILE, FS_DEFEATED, FS_IN_PLAY, N_WINDOWS, OP_CANCEL, OP_DAMAGE,
    OP_DRAW, PILE_DISC, R_EXHAUST_DAMAGE,
)
from ..control import CTL_CTX_N, CTL_CTX_OP, MAX_CARD_IDS, SCR_COUNTS, SCR_DIST_N
from ..core import fog_space, pile_base, team_of
from ..layout import (
    AI_CANCEL, AI_DMG, AI_OWN_DMG, AI_VALUE_ATK, AI_VALUE_DEF, C_PROG, C_TYPE, C_VALUE, I_COND, I_OP, F_HP, F_KIND, F_MAXHP, F_OWNER, F_RANGED,
    F_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, fslot, G_NPLAYERS, H_AI_ATK0, H_AI_DEF0, H_AI_DEF_FOG,
    H_DECK_LEN, H_DECK_START, MAX_CARDS, MAX_FIGHTERS, P_COUNTER0, P_DECKN, P_DISCN, P_HANDN, P_HERO,
    P_ONGOING, pslot,
)
from ..sigs import A1, B, CTL, F, FA1, I, jit, ST, TB, V
from .weights import (
    feat, frozen, live_delta, playable, scratch_i1, value_now, W_DMG_HERO, W_DMG_SK, W_ELIMINATE, W_FOCUS, W_FX_SELF_DMG, W_GUARD,
    W_HERO_LOW, W_HP_LOW, W_HP_OWN, W_HP_SK, W_KILL_SK, W_LOSE_SK, W_TEAM_KILL, W_WIN, wv,
)


@jit(I(A1, I, I))
def _remove_one(arr, n, v):
    for i in range(n):
        if arr[i] == v:
            arr[i] = arr[n - 1]
            return n - 1
    return n


@jit(I(ST, TB, I, A1))
def unknown_pool(st, tb, q, out):
    """Cards of player ``q`` hidden from the others: deck list minus discard pile and ongoing scheme.

    Writes card ids to ``out`` (int64, length >= deck size); returns how many.
    This is public information (the deck list is known), the same whatever the
    order or split of ``q``'s hand and deck.
    """
    h = st[pslot(q, P_HERO)]
    s0 = tb.heroes[h, H_DECK_START]
    n = tb.heroes[h, H_DECK_LEN]
    for i in range(n):
        out[i] = tb.decks[s0 + i]
    b = pile_base(PILE_DISC, q)
    for i in range(st[pslot(q, P_DISCN)]):
        n = _remove_one(out, n, st[b + i])
    og = st[pslot(q, P_ONGOING)]
    if og >= 0:
        n = _remove_one(out, n, og)
    return n


@jit(F(I, I, I))
def p_none_of(N, k, h):
    """Probability that a random hand of ``h`` cards from ``N`` misses ``k`` given cards."""
    if k <= 0:
        return 1.0
    if h > N - k:
        return 0.0
    r = 1.0
    for j in range(h):
        r *= (N - k - j) / (N - j)
    return r


@jit(F(FA1, FA1, I, I, I, FA1))
def best_dist(vals, extra, m, N, h, probs):
    """Distribution of the best of ``m`` cards held in a random hand of ``h`` from ``N`` cards.

    Cards are ranked by ``vals + extra`` (float64, first ``m`` used), both sorted
    in place together, best first; ``probs[i]`` = P(the best card held is card
    ``i``). Returns P(none of the ``m`` is held).
    """
    for i in range(1, m):
        x = vals[i]
        y = extra[i]
        j = i - 1
        while j >= 0 and vals[j] + extra[j] < x + y:
            vals[j + 1] = vals[j]
            extra[j + 1] = extra[j]
            j -= 1
        vals[j + 1] = x
        extra[j + 1] = y
    return best_probs(m, N, h, probs)


@jit(F(I, I, I, FA1))
def best_probs(m, N, h, probs):
    """``probs[i]`` = P(the best of ``m`` ranked cards held in a random hand of ``h`` from ``N``
    is card ``i``); returns P(none of them is held)."""
    prev = 1.0
    for i in range(m):
        cur = p_none_of(N, i + 1, h)
        probs[i] = prev - cur
        prev = cur
    return prev


@jit(F(ST, TB, I, I))
def ability_bonus(st, tb, g, col0):
    """The hero ability's value bonus to fighter ``g`` from hero-table columns ``col0``
    (counter 0 is 0) / ``col0 + 1`` (counter 0 is 1); 0 for sidekicks."""
    if st[fslot(g, F_KIND)] != 0:
        return 0.0
    p = st[fslot(g, F_OWNER)]
    c0 = 1 if st[pslot(p, P_COUNTER0)] == 1 else 0
    return float(tb.heroes[st[pslot(p, P_HERO)], col0 + c0])


@jit(F(ST, TB, I))
def hero_atk_bonus(st, tb, g):
    """The hero ability's bonus to fighter ``g``'s attack value (Alice big; 0 for sidekicks)."""
    return ability_bonus(st, tb, g, H_AI_ATK0)


@jit(F(ST, TB, I))
def hero_def_bonus(st, tb, g):
    """The hero ability's bonus to fighter ``g``'s defense value (Alice small, fog)."""
    v = ability_bonus(st, tb, g, H_AI_DEF0)
    if st[fslot(g, F_KIND)] == 0:
        p = st[fslot(g, F_OWNER)]
        h = st[pslot(p, P_HERO)]
        if tb.heroes[h, H_AI_DEF_FOG] != 0 and fog_space(st, p, st[fslot(g, F_SPACE)]):
            v += tb.heroes[h, H_AI_DEF_FOG]
    return v


@jit(F(ST, TB, CTL, I, I, F))
def att_value(st, tb, ctl, c, g, bonus):
    """Expected value of card ``c`` attacking with fighter ``g`` (value now, + effects, + ``bonus``:
    the ability's, :func:`hero_atk_bonus`, and any other)."""
    return (value_now(st, tb, c, g, 0) + feat(tb, c, AI_VALUE_ATK) + live_delta(st, tb, ctl, c, g, 0, AI_VALUE_ATK)
            + bonus)


@jit(F(ST, TB, CTL, I, I, F))
def def_value(st, tb, ctl, c, g, bonus):
    """Expected value of card ``c`` defending fighter ``g`` (value now, + effects, + ``bonus``)."""
    return (value_now(st, tb, c, g, 1) + feat(tb, c, AI_VALUE_DEF) + live_delta(st, tb, ctl, c, g, 1, AI_VALUE_DEF)
            + bonus)


@jit(F(ST, CTL, I, I, F))
def dmg_value(st, ctl, p, t, k):
    """Worth to player ``p`` of ``k`` damage to fighter ``t`` (negative if ``t`` is ``p``'s own)."""
    if k <= 0.0:
        return 0.0
    if st[G_NPLAYERS] > 2:
        return dmg_value_team(st, ctl, p, t, k)
    hp = st[fslot(t, F_HP)]
    mx = st[fslot(t, F_MAXHP)]
    own = team_of(st, st[fslot(t, F_OWNER)]) == team_of(st, p)
    hero = st[fslot(t, F_KIND)] == 0
    low = 1.0 - hp / mx if mx > 0 else 0.0
    if own:
        if hero:
            if k >= hp:
                return -wv(ctl, p, W_WIN)
            return -k * (wv(ctl, p, W_HP_OWN) + wv(ctl, p, W_HP_LOW) * low)
        if k >= hp:
            return -(hp * wv(ctl, p, W_HP_SK) + wv(ctl, p, W_LOSE_SK))
        return -k * wv(ctl, p, W_HP_SK)
    if hero:
        if k >= hp:
            return wv(ctl, p, W_WIN)
        return k * (wv(ctl, p, W_DMG_HERO) + wv(ctl, p, W_HERO_LOW) * low)
    if k >= hp:
        return hp * wv(ctl, p, W_DMG_SK) + wv(ctl, p, W_KILL_SK)
    return k * wv(ctl, p, W_DMG_SK)


@jit(F(ST, TB, CTL, I, I, I))
def own_dmg_worth(st, tb, ctl, p, c, g):
    """The one-currency AI's correction for the damage card ``c``'s steps surely deal to
    ``p``'s own fighters (``AI_OWN_DMG``: a "self" or own target) when fighter ``g`` plays it:
    that damage priced as damage to ``g`` (:func:`dmg_value`: its health, or the game if it
    would defeat the hero) in place of the static ``fx_self_damage`` price that
    :func:`.weights.fx_worth` counts. 0 for release 0.2's AI and for a card without such a
    step (no shipped card has one: Battle Frenzy's 2 damage to its own fighter, a homebrew's
    "take 5 damage, draw 2")."""
    k = feat(tb, c, AI_OWN_DMG)
    if k <= 0.0 or g < 0 or frozen(ctl, p):
        return 0.0
    return dmg_value(st, ctl, p, g, k) - wv(ctl, p, W_FX_SELF_DMG) * k


@jit(F(ST, CTL, I))
def dmg_price(st, ctl, p):
    """The one-currency AI's worth to ``p`` of one damage a card effect deals to an opposing
    fighter (its static damage feature; damage to a known target is priced by
    :func:`dmg_value`): one damage to the opposing hero, below its health (the first
    opposing hero in play; a sidekick's worth if none)."""
    for q in range(st[G_NPLAYERS]):
        h = q * FIGHTERS_PER_PLAYER
        if team_of(st, q) != team_of(st, p) and st[fslot(h, F_STATUS)] == FS_IN_PLAY:
            return dmg_value(st, ctl, p, h, 0.5) * 2.0
    return wv(ctl, p, W_DMG_SK)


@jit(I(ST, I))
def team_hero_low(st, t):
    """Index among heroes: 1 if hero ``t`` is the weaker (lower health share, ties: the
    later seat) of its team's two standing heroes, 0 if it is the stronger, -1 if its
    teammate's hero is defeated or absent (then it stands alone)."""
    q = st[fslot(t, F_OWNER)]
    for r in range(st[G_NPLAYERS]):
        if r == q or team_of(st, r) != team_of(st, q):
            continue
        h = r * FIGHTERS_PER_PLAYER
        if st[fslot(h, F_STATUS)] == FS_DEFEATED or st[fslot(h, F_MAXHP)] <= 0:
            return -1
        a = st[fslot(t, F_HP)] * st[fslot(h, F_MAXHP)]
        b = st[fslot(h, F_HP)] * st[fslot(t, F_MAXHP)]
        return 1 if a < b or (a == b and q > r) else 0
    return -1


@jit(F(ST, CTL, I, I, F))
def dmg_value_team(st, ctl, p, t, k):
    """:func:`dmg_value` in a team game (more than two players). A team loses only when
    both its heroes are defeated, so defeating a hero whose teammate's hero still stands
    is worth ``team_kill`` (losing one of ours costs as much), not ``win``; the last hero
    of a team is worth ``win``. Focus fire: damage to the weaker opposing hero (see
    :func:`team_hero_low`) is worth ``1 + focus`` times as much; damage to our weaker
    hero costs ``1 + guard`` times as much. Sidekicks as in a duel, plus ``eliminate`` for
    defeating the last fighter of a player whose hero is defeated (that player takes no
    more turns)."""
    hp = st[fslot(t, F_HP)]
    mx = st[fslot(t, F_MAXHP)]
    own = team_of(st, st[fslot(t, F_OWNER)]) == team_of(st, p)
    low = 1.0 - hp / mx if mx > 0 else 0.0
    if st[fslot(t, F_KIND)] != 0:
        # the last fighter of a player whose hero is defeated: defeating it ends that player's turns
        last = 0.0
        if k >= hp:
            q = st[fslot(t, F_OWNER)]
            last = wv(ctl, p, W_ELIMINATE)
            for j in range(FIGHTERS_PER_PLAYER):
                g = q * FIGHTERS_PER_PLAYER + j
                if g != t and st[fslot(g, F_STATUS)] == FS_IN_PLAY:
                    last = 0.0
        if own:
            if k >= hp:
                return -(hp * wv(ctl, p, W_HP_SK) + wv(ctl, p, W_LOSE_SK) + last)
            return -k * wv(ctl, p, W_HP_SK)
        if k >= hp:
            return hp * wv(ctl, p, W_DMG_SK) + wv(ctl, p, W_KILL_SK) + last
        return k * wv(ctl, p, W_DMG_SK)
    pos = team_hero_low(st, t)
    if own:
        if k >= hp:
            return -wv(ctl, p, W_WIN) if pos < 0 else -wv(ctl, p, W_TEAM_KILL)
        return -k * (wv(ctl, p, W_HP_OWN) + wv(ctl, p, W_HP_LOW) * low) * (1.0 + (wv(ctl, p, W_GUARD) if pos == 1 else 0.0))
    if k >= hp:
        return wv(ctl, p, W_WIN) if pos < 0 else wv(ctl, p, W_TEAM_KILL)
    return k * (wv(ctl, p, W_DMG_HERO) + wv(ctl, p, W_HERO_LOW) * low) * (1.0 + (wv(ctl, p, W_FOCUS) if pos == 1 else 0.0))


@jit(F(ST, TB, CTL, I, I, I))
def team_pos_bonus(st, tb, ctl, p, g, s):
    """Team games: worth of fighter ``g`` (of ``p``'s team) standing on space ``s`` to protect
    the weaker hero of its team: ``guard`` times that hero's lost health share for each
    opposing fighter within reach of that hero (adjacent to it, or sharing its zone when
    ranged) that ``g`` could attack from ``s`` (it can punish or block the attacker); 0 for
    the weaker hero itself and when no teammate's hero stands."""
    q = st[fslot(g, F_OWNER)]
    w = -1
    for r in range(st[G_NPLAYERS]):
        h = r * FIGHTERS_PER_PLAYER
        if team_of(st, r) == team_of(st, q) and st[fslot(h, F_STATUS)] == FS_IN_PLAY and team_hero_low(st, h) == 1:
            w = h
    if w < 0 or w == g:
        return 0.0
    ws = st[fslot(w, F_SPACE)]
    mx = st[fslot(w, F_MAXHP)]
    low = 1.0 - st[fslot(w, F_HP)] / mx if mx > 0 else 0.0
    ranged = st[fslot(g, F_RANGED)] != 0
    n = 0
    for e in range(MAX_FIGHTERS):
        if st[fslot(e, F_STATUS)] != FS_IN_PLAY or team_of(st, st[fslot(e, F_OWNER)]) == team_of(st, q):
            continue
        se = st[fslot(e, F_SPACE)]
        near = tb.adj[ws, se] != 0 or (st[fslot(e, F_RANGED)] != 0 and (tb.zmask[ws] & tb.zmask[se]) != 0)
        if near and (tb.adj[s, se] != 0 or (ranged and (tb.zmask[s] & tb.zmask[se]) != 0)):
            n += 1
    return wv(ctl, p, W_GUARD) * low * n


@jit(V(ST, TB, CTL, I, A1, I, FA1))
def score_opponents(st, tb, ctl, p, opts, n, scores):
    """Team games: which opposing player (``opts[:n]``, player indices) "your opponent" of
    the effect step in the context means. Damage to their hero: :func:`dmg_value`; an
    opponent who draws: the one whose deck is empty (exhaustion damage to each of their
    fighters), else the one with the fullest hand; anything else (discard, look at the
    hand, name a value, move a fog token): focus on the weaker opposing hero, then the
    bigger hand."""
    op = ctl[CTL_CTX_OP]
    amt = ctl[CTL_CTX_N]
    for j in range(n):
        q = opts[j]
        h = q * FIGHTERS_PER_PLAYER
        if op == OP_DAMAGE:
            scores[j] = dmg_value(st, ctl, p, h, float(amt if amt > 0 else 1)) if st[fslot(h, F_STATUS)] == FS_IN_PLAY else -1.0
        elif op == OP_DRAW:
            if st[pslot(q, P_DECKN)] < (amt if amt > 0 else 1):
                v = 0.0
                for k in range(FIGHTERS_PER_PLAYER):
                    if st[fslot(h + k, F_STATUS)] == FS_IN_PLAY:
                        v += dmg_value(st, ctl, p, h + k, float(tb.rules[R_EXHAUST_DAMAGE]))
                scores[j] = 10.0 + v
            else:
                scores[j] = 0.1 * st[pslot(q, P_HANDN)]
        else:
            mx = st[fslot(h, F_MAXHP)]
            low = 1.0 - st[fslot(h, F_HP)] / mx if mx > 0 and st[fslot(h, F_STATUS)] == FS_IN_PLAY else 0.0
            scores[j] = low + 0.01 * st[pslot(q, P_HANDN)]


@jit(I(FA1, FA1, FA1, A1, I, F, F, F, I, F))
def insert_best_first(vals, keys, extra, k, m, v, key, x, cnt, w):
    """Add ``cnt`` copies of an entry (value ``v``, key ``key``, companion ``x``) to the ``m``
    entries of ``vals``, ``keys``, ``extra`` (float64) and ``k`` (int64 copies), kept best
    first by value + ``w`` x key; an entry with the same value and key takes the copies.
    Returns the number of entries."""
    j = m
    for r in range(m):
        if vals[r] == v and keys[r] == key:
            k[r] += cnt
            return m
        if vals[r] + w * keys[r] < v + w * key:
            j = r
            break
    for r in range(m, j, -1):
        vals[r] = vals[r - 1]
        keys[r] = keys[r - 1]
        extra[r] = extra[r - 1]
        k[r] = k[r - 1]
    vals[j] = v
    keys[j] = key
    extra[j] = x
    k[j] = cnt
    return m + 1


@jit(F(ST, TB, CTL, I, I, I, F, FA1, FA1, FA1))
def value_dist(st, tb, ctl, t, hand, side, extra, vals, fxd, probs):
    """The best card fighter ``t``'s owner may play on combat side ``side`` (1 defense, 0
    attack) from a random hand of ``hand`` of their unknown cards (:func:`unknown_pool`),
    by distinct (value, effect damage) pairs: the pairs best first (ranked by value + effect
    damage) in ``vals``, ``fxd`` (float64, >= 65 long; the number of pairs in
    ``vals[MAX_CARDS]``), ``probs[i]`` = P(the best card held is pair ``i``). Returns
    P(no such card is held). Values: the printed value + the static value feature + the
    ability's bonus (:func:`hero_def_bonus`, :func:`hero_atk_bonus` + ``extra``); defense
    pairs have effect damage 0. The distribution :func:`best_dist` gives over the list of
    unknown cards, computed from copies per card id (a pass over the deck list and the
    discard pile) and one entry per distinct pair. For a defense (``side`` 1) also
    ``probs[MAX_CARDS]`` = P(the hand holds a card that cancels the attack card's effects,
    :func:`cancels`), which the one-currency AI reads (a face-down BOOST is lost with them)."""
    q = st[fslot(t, F_OWNER)]
    h = st[pslot(q, P_HERO)]
    s0 = tb.heroes[h, H_DECK_START]
    n = tb.heroes[h, H_DECK_LEN]
    cnt = scratch_i1(ctl, SCR_COUNTS, MAX_CARD_IDS)
    k = scratch_i1(ctl, SCR_DIST_N, MAX_CARDS + 1)
    for i in range(n):
        cnt[tb.decks[s0 + i]] = 0
    for i in range(n):
        cnt[tb.decks[s0 + i]] += 1
    b = pile_base(PILE_DISC, q)
    nd = st[pslot(q, P_DISCN)]
    for i in range(nd):   # (a card of another hero there is never read: not in this deck list)
        cnt[st[b + i]] -= 1
    og = st[pslot(q, P_ONGOING)]
    if og >= 0:
        cnt[og] -= 1
    if side == 1:
        bonus = hero_def_bonus(st, tb, t)
        ta, tc = CT_DEFENSE, AI_VALUE_DEF
    else:
        bonus = hero_atk_bonus(st, tb, t) + extra
        ta, tc = CT_ATTACK, AI_VALUE_ATK
    m = 0
    N = 0
    kc = 0
    for i in range(n):
        c = tb.decks[s0 + i]
        if cnt[c] <= 0:
            continue
        N += cnt[c]
        ty = tb.cards[c, C_TYPE]
        if (ty == ta or ty == CT_VERSATILE) and playable(st, tb, c, t):
            if side == 1 and cancels(tb, c):
                kc += cnt[c]
            v = tb.cards[c, C_VALUE] + feat(tb, c, tc) + bonus
            d = feat(tb, c, AI_DMG) if side == 0 else 0.0
            m = insert_best_first(vals, fxd, fxd, k, m, v, d, d, cnt[c], 1.0)   # (no companion: fxd twice)
        cnt[c] = 0   # (each card id once: the deck list repeats it per copy)
    prev = 1.0
    held = 0
    for r in range(m):
        held += k[r]
        cur = p_none_of(N, held, hand)
        probs[r] = prev - cur
        prev = cur
    vals[MAX_CARDS] = m
    if side == 1:
        probs[MAX_CARDS] = 1.0 - p_none_of(N, kc, hand)
    return prev


@jit(B(TB, I))
def cancels(tb, c):
    """Card ``c`` cancels the effects on the opponent's card whatever happens (an
    unconditional ``cancel`` step in any of its programs: Feint)."""
    if feat(tb, c, AI_CANCEL) <= 0.0:
        return False
    for w in range(N_WINDOWS):
        start, length = tb.cards[c, C_PROG + 2 * w], tb.cards[c, C_PROG + 2 * w + 1]
        for r in range(start, start + length):
            if tb.code[r, I_OP] == OP_CANCEL and tb.code[r, I_COND] == CN_ALWAYS:
                return True
    return False


@jit(types.UniTuple(F, 3)(ST, CTL, I, I))
def dmg_params(st, ctl, p, t):
    """(health, worth per damage, worth of defeating) of fighter ``t`` for player ``p``:
    :func:`dmg_value` (k) is ``k * per`` below the health and ``kill`` from it on."""
    hp = float(st[fslot(t, F_HP)])
    return hp, dmg_value(st, ctl, p, t, 0.5) * 2.0, dmg_value(st, ctl, p, t, hp)


@jit(F(ST, CTL, I, I, F, F, FA1, FA1, F))
def exp_attack(st, ctl, p, t, av, fxd, dvals, dprobs, pn):
    """Expected worth to ``p`` of an attack of value ``av`` on ``t`` over the defense
    distribution; ``fxd``: the card's effect damage, added when the attack wins."""
    hp, per, kill = dmg_params(st, ctl, p, t)
    return exp_attack_hp(hp, per, kill, av, fxd, dvals, dprobs, pn)


@jit(F(F, F, F, F, F, FA1, FA1, F), inline=True)
def exp_attack_hp(hp, per, kill, av, fxd, dvals, dprobs, pn):
    """:func:`exp_attack` with the target's :func:`dmg_params` given (read once per target)."""
    e = 0.0
    if av > 0.0:
        k = av + fxd
        e = pn * (kill if k >= hp else k * per)
    m = int(dvals[MAX_CARDS])
    for i in range(m):
        k = av - dvals[i]
        if k > 0.0 and dprobs[i] > 0.0:
            k += fxd
            e += dprobs[i] * (kill if k >= hp else k * per)
    return e
