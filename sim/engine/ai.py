"""The scripted AI: scores every legal option of a decision and picks the best.

Two modes use this module (``control.MODE_STANDARD`` and ``MODE_GREEDY``); the
weights of the deciding player's AI profile are in ``ctl[CTL_W + p * N_WEIGHTS:]``
(thousandths; names in :data:`WEIGHT_NAMES`, defaults in ``sim/ai_profiles``).

**Public information only.** The AI reads the board, health, its own hand, every
discard pile, the ongoing schemes, hand and deck *sizes*, and each hero's deck
*list*. What an opponent may hold is estimated from their unknown cards (deck list
minus discard pile minus ongoing scheme); it never reads an opponent's hand, nor
any deck order, nor the face-down card of a combat it has not seen revealed.

How it scores (units: "points", roughly one point = one damage to the opposing
hero at full health):

* **attack** (fighter, target, card): the expected value of the combat damage
  over the defender's best defense, where "best defense" is the highest value in
  a random hand of the defender's hand size drawn from their unknown cards
  (hypergeometric, exact); damage to the hero is worth more as its health falls;
  defeating the opposing hero is worth ``win``; defeating a sidekick adds
  ``kill_sidekick``; plus ``opp_card`` times the chance the defender holds a
  defense card (an attack usually costs them a card too), plus the card's effect
  worth, minus what the card is worth kept in hand.
* **maneuver**: the drawn card (nothing once the deck is empty: exhaustion
  damage instead) plus, for each fighter, the best position it can reach minus
  its current position, with or without a BOOST card (the plan is remembered for
  the BOOST decision that follows).
* **position** of a fighter on a space: opposing fighters it can attack from
  there (now, if actions remain), distance to them (melee and ranged alike), and
  the threat of opposing fighters that can reach it next turn (more for a
  damaged hero); ``fog`` per point of defense a hero gains on its fog (the
  Invisible Man).
* **scheme**: ``scheme`` + its effect worth (+ ``ongoing`` for an ongoing scheme).
* **defense**: minus the expected loss of health over the attacker's likely
  card (the best attack value in a random hand of their size from their unknown
  cards), with each defense card or none; losing the hero costs ``win``.
* effect choices (targets, destinations, "may", options, cards to discard or
  take) use the same pieces; the engine writes the context (which effect step,
  which fighter) into ``ctl`` before it asks.

**Team games** (more than two players, ``sim.teams``): damage is valued by
:func:`dmg_value_team` (defeating one hero of a team whose other hero stands is worth
``team_kill``, the last one ``win``; damage to the weaker opposing hero counts ``1 + focus``
times, to our weaker hero ``1 + guard`` times; defeating a player's last fighter after its
hero fell adds ``eliminate``), a position gains :func:`team_pos_bonus` for covering our
weaker hero, and "your opponent" outside a combat is picked by :func:`score_opponents`.
Duels never reach these functions.

Card effects are read once at compile time from the effect programs
(``sim.content.ai_features``); nothing here is specific to one hero. Steps whose
condition reads only the board, piles and turn (Source tiers, "on fog", a form or
size, ``conditions.LIVE_CONDITIONS``) are checked when a card is scored
(:func:`value_now`, :func:`live_delta`): a scheme whose condition fails is worth
no effect, and Ciri's cards are worth their current Source tier.
"""
import numpy as np
from numba import njit, types  # noqa: F401

from .sigs import A1, A2, B, CTL, F, FA1, I, LOG, ST, TB, V, f64_view, f64_view2, jit, stack_i64  # noqa: F401

from .codes import (
    A_ATTACK, A_MANEUVER, A_SCHEME, CN_ATTACKED, CN_COUNTER_EQ, CN_COUNTER_NE, CN_FIRST_ACTION,
    CN_HAND_AT_LEAST, CN_HERO_ATTACKED, CN_HERO_HP_AT_MOST, CN_LEFT_SPACE, CN_ON_FOG, CN_STARTED_ELSEWHERE,
    CN_STARTED_ON_FOG, CN_TAG_TIER, CT_ATTACK, CT_DEFENSE, CT_VERSATILE, D_ACTION, D_BOOST_ATTACK,
    D_BOOST_CARD, D_BOOST_MANEUVER, D_DEFENSE, D_DISCARD_EFFECT, D_DISCARD_LIMIT, D_FOG_DEST, D_FORCE_CARD,
    D_GUESS, D_MAY, D_MOVE_DEST, D_MOVE_STEP, D_OPPONENT, D_OPTION, D_PLACE, D_SETUP_SPACE, D_TAKE_CARD,
    D_TARGET, FS_DEFEATED, FS_IN_PLAY, HF_FOG_WALK, IF_NEGATE, MODE_GREEDY, N_WINDOWS, PILE_DISC, PILE_HAND,
    R_EXHAUST_DAMAGE, R_HAND_LIMIT, TAG_ONGOING, W_DURING, W_IMMEDIATELY, W_ON_PLAY, W_ONGOING_DISCARD,
    W_ONGOING_START, OP_CHOOSE_COUNTER, OP_DAMAGE, OP_DRAW, OP_FLIP_COUNTER, OP_RECOVER, OP_SET_HEALTH,
    OP_SET_VALUE, S_OWN, SEL_ONE_ADJ, SEL_ONE_ZONE,
)
from .control import (
    CTL_CTX_F, CTL_CTX_N, CTL_CTX_OP, CTL_CTX_OWNER, CTL_CTX_P, CTL_EXPLAIN, CTL_FU, CTL_FU_KEY, CTL_MODE0,
    CTL_PLAN_BOOST, CTL_PLAN_KEY, CTL_POS_KEY, CTL_POS_SIG, CTL_SIZE, CTL_TD_P, CTL_TD_SIG, CTL_W,
    EXPLAIN_REC, EXPLAIN_TOP, MAX_SCR_SCORES, N_WEIGHTS, SCR_ACTIONS, SCR_DEFENSE, SCR_FOLLOW, SCR_PLAN,
    SCR_PLAN_POS, SCR_POOL, SCR_SCORES, SCR_SPACES, SCR_TARGETS, SCR_WORTH, SCR_WORTH_SET,
)
from .core import count_tag_in_pile, fog_space, pile_base, reachable, team_of
from .layout import (
    AI_ACTION, AI_CANCEL, AI_DMG, AI_DRAW, AI_MOVE, AI_OPP_DISCARD, AI_OTHER, AI_RECOVER, AI_SELF_DMG,
    AI_VALUE_ATK, AI_VALUE_DEF, C_AI0, C_AI_LIVE, C_BOOST, C_FMASK, C_FORM, C_PROG, C_TAGS, C_TYPE, C_VALUE,
    CB_ABOOST, CB_ACTIVE, CB_ATT_F, CB_ATT_P, CB_CARD0, CB_CARD1, CB_DEF_F, CB_DEF_P, CB_MOD0, CB_OVR0,
    CB_PRINTED0, F_HP, F_KIND, F_LEFT, F_MAXHP, F_MOVE, F_OWNER, F_RANGED, F_SPACE, F_START_SPACE, F_STATUS,
    FIGHTERS_PER_PLAYER, fslot, G_ACTION_NO, G_ACTIONS, G_LOGN, G_NPLAYERS, G_TURN, H_AI_ATK0, H_AI_DEF0,
    H_AI_DEF_FOG, H_AI_HURT_FORM, H_AI_MOVE_N, H_AI_MOVE_TAG, H_DECK_LEN, H_DECK_START, H_FLAGS, I_AI0,
    I_AI_LIVE, I_CA, I_CB, I_COND, I_CREF, I_CTAG, I_FLAGS, I_N, I_OP, I_REF, I_SEL, I_SIDE, MAX_CARDS,
    MAX_FIGHTERS, MAX_SPACES, N_COUNTERS, N_FOG, OFF_CB, P_ATTACKED, P_COUNTER0, P_DECKN, P_DISCN, P_FOG0,
    P_HANDN, P_HERO, P_HERO_ATTACKED, P_ONGOING, P_START_FOG, pslot,
)
from .layout import G_OPPONENT  # team games
from .codes import W_SCHEME as WINDOW_SCHEME   # the scheme's program window (W_SCHEME here is a weight)

# ------------------------------------------------------------------ weights
WEIGHT_NAMES = (
    "dmg_hero", "hero_low", "dmg_sidekick", "kill_sidekick", "win",
    "hp_own", "hp_own_low", "hp_sidekick", "lose_sidekick",
    "card", "full_hand", "keep_value", "keep_boost", "keep_fx",
    "fx_damage", "fx_self_damage", "fx_draw", "fx_opp_discard", "fx_recover", "fx_move",
    "fx_cancel", "fx_action", "fx_other",
    "scheme", "ongoing", "reach_now", "reach_next", "approach", "threat", "threat_sidekick",
    "exhaustion", "boost_margin", "defend_margin", "opp_card", "fog",
    "team_kill", "focus", "guard", "eliminate",
)
"""Names of the AI weights, in their order in the weight vector (see sim/ai_profiles.py)."""
(W_DMG_HERO, W_HERO_LOW, W_DMG_SK, W_KILL_SK, W_WIN,
 W_HP_OWN, W_HP_LOW, W_HP_SK, W_LOSE_SK,
 W_CARD, W_FULL_HAND, W_KEEP_VALUE, W_KEEP_BOOST, W_KEEP_FX,
 W_FX_DMG, W_FX_SELF_DMG, W_FX_DRAW, W_FX_OPP_DISCARD, W_FX_RECOVER, W_FX_MOVE,
 W_FX_CANCEL, W_FX_ACTION, W_FX_OTHER,
 W_SCHEME, W_ONGOING, W_REACH_NOW, W_REACH_NEXT, W_APPROACH, W_THREAT, W_THREAT_SK,
 W_EXHAUST, W_BOOST_MARGIN, W_DEFEND_MARGIN, W_OPP_CARD, W_FOG,
 W_TEAM_KILL, W_FOCUS, W_GUARD, W_ELIMINATE) = range(len(WEIGHT_NAMES))
assert len(WEIGHT_NAMES) <= N_WEIGHTS

NEG = -1.0e18
FA2 = types.Array(types.float64, 2, "C")

# The AI's work arrays are views of regions of ``ctl`` (``control.SCR_*``), not
# allocated per decision: allocating and freeing them was a fifth of the AI's time.


@jit(FA1(CTL, I, I), inline=True)
def scratch_f1(ctl, off, n):
    """float64 (n,) view of ``ctl[off:off + n]`` (work space, see ``control.SCR_*``)."""
    return f64_view(ctl, off, n)


@jit(FA2(CTL, I, I, I), inline=True)
def scratch_f2(ctl, off, r, c):
    """float64 (r, c) view of ``ctl[off:off + r * c]`` (work space, see ``control.SCR_*``)."""
    return f64_view2(ctl, off, r, c)


@jit(A1(CTL, I, I), inline=True)
def scratch_i1(ctl, off, n):
    """int64 (n,) view of ``ctl[off:off + n]`` (work space, see ``control.SCR_*``)."""
    return ctl[off:off + n]


_DSZ = MAX_FIGHTERS * (MAX_CARDS + 1)


@jit(F(CTL, I, I))
def wv(ctl, p, k):
    """Weight ``k`` of player ``p``'s profile (float)."""
    return ctl[CTL_W + p * N_WEIGHTS + k] * 0.001


@jit(F(TB, I, I))
def feat(tb, c, k):
    """AI feature ``k`` (``layout.AI_*``) of card ``c``, in card-effect units."""
    return tb.cards[c, C_AI0 + k] * 0.01


@jit(F(TB, CTL, I, I))
def fx_worth(tb, ctl, p, c):
    """What the effects of card ``c`` are worth to player ``p`` (value changes and damage to
    opposing fighters excluded: callers add damage where it applies)."""
    return (wv(ctl, p, W_FX_SELF_DMG) * feat(tb, c, AI_SELF_DMG)
            + wv(ctl, p, W_FX_DRAW) * feat(tb, c, AI_DRAW)
            + wv(ctl, p, W_FX_OPP_DISCARD) * feat(tb, c, AI_OPP_DISCARD)
            + wv(ctl, p, W_FX_RECOVER) * feat(tb, c, AI_RECOVER) + wv(ctl, p, W_FX_MOVE) * feat(tb, c, AI_MOVE)
            + wv(ctl, p, W_FX_CANCEL) * feat(tb, c, AI_CANCEL) + wv(ctl, p, W_FX_ACTION) * feat(tb, c, AI_ACTION)
            + wv(ctl, p, W_FX_OTHER) * feat(tb, c, AI_OTHER))


@jit(F(TB, CTL, I, I))
def fx_row(tb, ctl, p, r):
    """Like :func:`fx_worth` for one live step ``r`` of a card program (its ``I_AI0 ..`` columns)."""
    x = tb.code[r]
    return 0.01 * (wv(ctl, p, W_FX_SELF_DMG) * x[I_AI0 + AI_SELF_DMG] + wv(ctl, p, W_FX_DRAW) * x[I_AI0 + AI_DRAW]
                   + wv(ctl, p, W_FX_OPP_DISCARD) * x[I_AI0 + AI_OPP_DISCARD]
                   + wv(ctl, p, W_FX_RECOVER) * x[I_AI0 + AI_RECOVER] + wv(ctl, p, W_FX_MOVE) * x[I_AI0 + AI_MOVE]
                   + wv(ctl, p, W_FX_CANCEL) * x[I_AI0 + AI_CANCEL] + wv(ctl, p, W_FX_ACTION) * x[I_AI0 + AI_ACTION]
                   + wv(ctl, p, W_FX_OTHER) * x[I_AI0 + AI_OTHER])


@jit(B(ST, TB, I, I, I, I))
def live_cond(st, tb, r, q, g, side):
    """Whether the live condition of step ``r`` holds for player ``q``'s fighter ``g`` on combat
    side ``side``: :func:`sim.engine.conditions.cond_ok` for the conditions in
    ``conditions.LIVE_CONDITIONS`` (the adjacency and zone ones count as holding), written out
    here without calls: calling the general checker from the AI's inner loops made them
    twice as slow."""
    c = tb.code[r, I_COND]
    ok = True
    if c == CN_TAG_TIER:
        n = 0
        b = pile_base(PILE_DISC, q)
        tag = tb.code[r, I_CTAG]
        for i in range(st[pslot(q, P_DISCN)]):
            if tb.cards[st[b + i], C_TAGS] & tag:
                n += 1
        ok = n >= tb.code[r, I_CA] and (tb.code[r, I_CB] == 0 or n < tb.code[r, I_CB])
    elif c == CN_COUNTER_EQ or c == CN_COUNTER_NE:
        role = tb.code[r, I_CREF]
        if (role == 1 and side != 0) or (role == 2 and side != 1):
            ok = False
        else:
            eq = st[pslot(q, P_COUNTER0 + tb.code[r, I_CA])] == tb.code[r, I_CB]
            ok = eq if c == CN_COUNTER_EQ else not eq
    elif c == CN_ON_FOG:
        h = q * FIGHTERS_PER_PLAYER
        ok = False
        if st[fslot(h, F_STATUS)] == FS_IN_PLAY:
            for i in range(N_FOG):
                if st[pslot(q, P_FOG0 + i)] == st[fslot(h, F_SPACE)]:
                    ok = True
    elif c == CN_STARTED_ON_FOG:
        ok = st[pslot(q, P_START_FOG)] != 0
    elif c == CN_HERO_HP_AT_MOST:
        h = q * FIGHTERS_PER_PLAYER
        ok = st[fslot(h, F_STATUS)] == FS_IN_PLAY and st[fslot(h, F_HP)] <= tb.code[r, I_CA]
    elif c == CN_HAND_AT_LEAST:
        ok = st[pslot(q, P_HANDN)] >= tb.code[r, I_CA]
    elif c == CN_FIRST_ACTION:
        ok = st[G_ACTION_NO] == 1
    elif c == CN_ATTACKED:
        ok = st[pslot(q, P_ATTACKED)] != 0
    elif c == CN_HERO_ATTACKED:
        ok = st[pslot(q, P_HERO_ATTACKED)] != 0
    elif c == CN_STARTED_ELSEWHERE:
        ok = g >= 0 and st[fslot(g, F_START_SPACE)] != st[fslot(g, F_SPACE)]
    elif c == CN_LEFT_SPACE:
        ok = g >= 0 and st[fslot(g, F_LEFT)] != 0
    if (tb.code[r, I_FLAGS] & IF_NEGATE) != 0:
        return not ok
    return ok


@jit(F(ST, TB, CTL, I, I, I, I))
def live_steps(st, tb, ctl, c, g, side, k):
    """Correction to card ``c``'s static feature ``k`` (``k`` < 0: to :func:`fx_worth` for its
    owner) when fighter ``g`` plays it now on combat side ``side`` (0 attacking, 1 defending,
    -1 a scheme): the static features count each live step at half; here a live step whose
    condition holds now (``conditions.cond_ok``) counts in full and one that fails not at all.
    Only called for cards with live steps (see :func:`live_delta`)."""
    q = st[fslot(g, F_OWNER)]
    d = 0.0
    for w in range(N_WINDOWS):
        if w == W_ONGOING_DISCARD:
            continue
        s0 = tb.cards[c, C_PROG + 2 * w]
        mult = 1.5 if w == W_ONGOING_START else 0.5
        for r in range(s0, s0 + tb.cards[c, C_PROG + 2 * w + 1]):
            if tb.code[r, I_AI_LIVE] == 0:
                continue
            x = tb.code[r, I_AI0 + k] * 0.01 if k >= 0 else fx_row(tb, ctl, q, r)
            if x != 0.0:
                d += mult * x if live_cond(st, tb, r, q, g, side) else -mult * x
    return d


@jit(F(ST, TB, CTL, I, I, I, I))
def live_delta(st, tb, ctl, c, g, side, k):
    """Correction to card ``c``'s static feature ``k`` from its live steps (see
    :func:`live_steps`); 0 for a card without live steps (most cards: checked here,
    so that the call stays small and inline)."""
    if tb.cards[c, C_AI_LIVE] == 0:
        return 0.0
    return live_steps(st, tb, ctl, c, g, side, k)


@jit(F(ST, TB, I, I, I))
def live_value(st, tb, c, g, side):
    """The value of live card ``c`` (see :func:`value_now`); only called for cards with live steps."""
    v = tb.cards[c, C_VALUE]
    q = st[fslot(g, F_OWNER)]
    for w in (W_IMMEDIATELY, W_ON_PLAY, W_DURING):
        s0 = tb.cards[c, C_PROG + 2 * w]
        for r in range(s0, s0 + tb.cards[c, C_PROG + 2 * w + 1]):
            if (tb.code[r, I_OP] == OP_SET_VALUE and tb.code[r, I_AI_LIVE] != 0
                    and live_cond(st, tb, r, q, g, side)):
                v = tb.code[r, I_N]
    return float(v)


@jit(F(ST, TB, I, I, I))
def value_now(st, tb, c, g, side):
    """Card ``c``'s value as fighter ``g`` would play it now: printed, or the "value N
    instead" of a live step whose condition holds (Ciri's Source tiers)."""
    if tb.cards[c, C_AI_LIVE] == 0:   # (checked here so that most calls stay small and inline)
        return float(tb.cards[c, C_VALUE])
    return live_value(st, tb, c, g, side)


@jit(F(ST, TB, CTL, I, I, I))
def dmg_now(st, tb, ctl, c, g, side):
    """Damage card ``c``'s effects deal to opposing fighters when ``g`` plays it now."""
    return feat(tb, c, AI_DMG) + live_delta(st, tb, ctl, c, g, side, AI_DMG)


@jit(F(ST, TB, CTL, I, I, I, I))
def fx_now(st, tb, ctl, p, c, g, side):
    """:func:`fx_worth` of card ``c`` when ``p``'s fighter ``g`` plays it now (live steps checked)."""
    return fx_worth(tb, ctl, p, c) + live_delta(st, tb, ctl, c, g, side, -1)


@jit(F(TB, CTL, I, I))
def keep_worth(tb, ctl, p, c):
    """What card ``c`` is worth to player ``p`` kept in hand (the cost of spending it)."""
    v = tb.cards[c, C_VALUE]
    if v < 0:
        v = 0
    return (wv(ctl, p, W_KEEP_VALUE) * v + wv(ctl, p, W_KEEP_BOOST) * tb.cards[c, C_BOOST]
            + wv(ctl, p, W_KEEP_FX) * fx_worth(tb, ctl, p, c))


@jit(B(ST, TB, I, I), inline=True)
def playable(st, tb, c, g):
    """Fighter ``g`` may play card ``c`` (banner and form; the AI's estimate of rules.can_play)."""
    if (tb.cards[c, C_FMASK] >> st[fslot(g, F_KIND)]) & 1 == 0:
        return False
    form = tb.cards[c, C_FORM]
    if form != 0 and st[pslot(st[fslot(g, F_OWNER)], P_COUNTER0)] != form - 1:
        return False
    return True


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


@jit(F(FA1, I, I, I, FA1))
def best_dist_plain(vals, m, N, h, probs):
    """:func:`best_dist` with no extras (ranked by ``vals`` alone)."""
    for i in range(1, m):
        x = vals[i]
        j = i - 1
        while j >= 0 and vals[j] < x:
            vals[j + 1] = vals[j]
            j -= 1
        vals[j + 1] = x
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


@jit(F(ST, TB, CTL, I, I, A1, I, FA1, FA1))
def defense_dist(st, tb, ctl, t, hand, pool, npool, vals, probs):
    """Likely best defense value of fighter ``t``'s owner: fills ``vals``/``probs``
    (see :func:`best_dist`) from their unknown cards ``pool`` and hand size
    ``hand``; returns (as float) P(no defense card), the count in ``vals[63]``."""
    m = 0
    bonus = hero_def_bonus(st, tb, t)
    # the opponent's cards by their static features (live steps at half): valuing live steps
    # here (a call in this inner loop) made every decision twice as slow
    for i in range(npool):
        c = pool[i]
        ty = tb.cards[c, C_TYPE]
        if (ty == CT_DEFENSE or ty == CT_VERSATILE) and playable(st, tb, c, t):
            vals[m] = tb.cards[c, C_VALUE] + feat(tb, c, AI_VALUE_DEF) + bonus
            m += 1
    pn = best_dist_plain(vals, m, npool, hand, probs)
    vals[MAX_CARDS] = m
    return pn


@jit(F(ST, TB, CTL, I, I, A1, I, FA1, FA1, FA1, F))
def attack_dist(st, tb, ctl, a, hand, pool, npool, vals, fxd, probs, extra):
    """Likely attack card of fighter ``a`` (the best in a hand of ``hand`` cards from
    ``pool``): its value plus ``extra`` in ``vals``, its effect damage in ``fxd``;
    like :func:`defense_dist`."""
    m = 0
    bonus = hero_atk_bonus(st, tb, a) + extra
    for i in range(npool):   # static features, as in defense_dist
        c = pool[i]
        ty = tb.cards[c, C_TYPE]
        if (ty == CT_ATTACK or ty == CT_VERSATILE) and playable(st, tb, c, a):
            vals[m] = tb.cards[c, C_VALUE] + feat(tb, c, AI_VALUE_ATK) + bonus
            fxd[m] = feat(tb, c, AI_DMG)
            m += 1
    pn = best_dist(vals, fxd, m, npool, hand, probs)
    vals[MAX_CARDS] = m
    return pn


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


@jit(I(ST, I, FA2))
def enemy_facts(st, tm, ef):
    """Facts about the fighters in play opposing team ``tm``, one row each (float64
    ``ef`` of shape (MAX_FIGHTERS, 6)): space, target worth (heroes more as their health
    falls), threat factor (1 hero, 0.6 sidekick), ranged (0/1), move + 1, fighter slot.
    Returns the number of rows. Read once by the callers of :func:`pos_score`."""
    n = 0
    for e in range(MAX_FIGHTERS):
        if st[fslot(e, F_STATUS)] != FS_IN_PLAY or team_of(st, st[fslot(e, F_OWNER)]) == tm:
            continue
        ehero = st[fslot(e, F_KIND)] == 0
        ehp = st[fslot(e, F_HP)]
        emx = st[fslot(e, F_MAXHP)]
        ef[n, 0] = st[fslot(e, F_SPACE)]
        ef[n, 1] = (1.0 + (1.0 - ehp / emx)) if ehero else 0.5
        ef[n, 2] = 1.0 if ehero else 0.6
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
    where the compiler hoists what does not depend on ``s``; a call inside made duels 20%
    slower).
    """
    ranged = st[fslot(g, F_RANGED)] != 0
    hero = st[fslot(g, F_KIND)] == 0
    hp = st[fslot(g, F_HP)]
    mx = st[fslot(g, F_MAXHP)]
    if hero:   # being attacked matters more as the hero's health falls
        low = 1.0 - hp / mx if mx > 0 else 0.0
        vuln = wv(ctl, p, W_THREAT) * (0.25 + 2.0 * low)
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
    h = 1 if st[G_ACTIONS] > 0 else 0
    tm = team_of(st, p)
    for e in range(MAX_FIGHTERS):
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


@jit(I(ST, I))
def action_key(st, p):
    """Key of the action in progress (turn, action number, player) for the plans cached in ``ctl``."""
    return ((st[G_TURN] * 64 + st[G_ACTION_NO]) * 4) + p


@jit(V(ST, TB, CTL, I, FA2, FA2, FA1))
def target_dists(st, tb, ctl, p, dvals, dprobs, pnone):
    """For each opposing fighter ``e`` of ``p``: its owner's likely best defense
    (``dvals[e]``, ``dprobs[e]``, ``pnone[e]``, see :func:`defense_dist`); ``pnone[e]``
    is -1 for fighters that are not opposing or not in play."""
    pool = scratch_i1(ctl, SCR_POOL, MAX_CARDS + 1)
    tm = team_of(st, p)
    last_q = -1
    npool = 0
    for e in range(MAX_FIGHTERS):
        pnone[e] = -1.0
        if st[fslot(e, F_STATUS)] != FS_IN_PLAY or team_of(st, st[fslot(e, F_OWNER)]) == tm:
            continue
        q = st[fslot(e, F_OWNER)]
        if q != last_q:
            npool = unknown_pool(st, tb, q, pool)
            last_q = q
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
            pnone[e] = defense_dist(st, tb, ctl, e, st[pslot(q, P_HANDN)], pool, npool, dvals[e], dprobs[e])


@jit(I(ST, I))
def dist_sig(st, p):
    """A hash of everything :func:`target_dists` reads for player ``p``: each fighter's
    status, owner, kind and (opposing) space; each opposing player's hand size, discard
    pile, ongoing scheme, counters and fog tokens. Equal signatures mean equal defense
    distributions (the opponent's unknown cards and hand size did not change)."""
    h = p + 1
    tm = team_of(st, p)
    for e in range(MAX_FIGHTERS):
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
    if tb.cards[c, C_AI_LIVE] == 0:   # (most cards: the static features, no calls)
        av = tb.cards[c, C_VALUE] + feat(tb, c, AI_VALUE_ATK) + hero_atk_bonus(st, tb, g)
        dmg = feat(tb, c, AI_DMG)
        fx = fx_worth(tb, ctl, p, c)
    else:
        av = att_value(st, tb, ctl, c, g, hero_atk_bonus(st, tb, g))
        dmg = dmg_now(st, tb, ctl, c, g, 0)
        fx = fx_now(st, tb, ctl, p, c, g, 0)
    return av, dmg, fx


@jit(F(ST, TB, CTL, I, I, I, I, FA2, FA2, FA1))
def attack_worth(st, tb, ctl, p, g, e, c, dvals, dprobs, pnone):
    """Worth of ``p``'s fighter ``g`` attacking ``e`` with card ``c`` (the attack action's score)."""
    av, dmg, fx = attack_parts(st, tb, ctl, p, g, c)
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
    for a in range(MAX_FIGHTERS):
        for b in range(MAX_FIGHTERS):
            fu[a, b] = -1.0
    hb = pile_base(PILE_HAND, p)
    hn = st[pslot(p, P_HANDN)]
    aw = scratch_f2(ctl, SCR_WORTH, FIGHTERS_PER_PLAYER * MAX_CARDS, MAX_FIGHTERS)
    for r in range(FIGHTERS_PER_PLAYER * MAX_CARDS):
        ctl[SCR_WORTH_SET + r] = 0
    w_opp = wv(ctl, p, W_OPP_CARD)
    tp = scratch_f2(ctl, SCR_TARGETS, MAX_FIGHTERS, 3)   # each target's dmg_params, read once
    for e in range(MAX_FIGHTERS):
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
            kw = keep_worth(tb, ctl, p, c)
            row = k * MAX_CARDS + i
            ctl[SCR_WORTH_SET + row] = 1
            for e in range(MAX_FIGHTERS):
                if pnone[e] < 0.0:
                    continue
                v = (exp_attack_hp(tp[e, 0], tp[e, 1], tp[e, 2], av, dmg, dvals[e], dprobs[e], pnone[e])
                     + w_opp * (1.0 - pnone[e]) + fx - kw)   # = attack_worth(.., g, e, c, ..)
                aw[row, e] = v
                if v > fu[g, e]:
                    fu[g, e] = v
    ctl[CTL_FU_KEY] = action_key(st, p)
    for a in range(MAX_FIGHTERS):
        for b in range(MAX_FIGHTERS):
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
    if ctl[CTL_FU_KEY] == action_key(st, p):
        for a in range(MAX_FIGHTERS):
            for b in range(MAX_FIGHTERS):
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
    if st[pslot(p, P_DECKN)] == 0:
        x = tb.rules[R_EXHAUST_DAMAGE]
        v = 0.0
        for k in range(FIGHTERS_PER_PLAYER):
            g = p * FIGHTERS_PER_PLAYER + k
            if st[fslot(g, F_STATUS)] == FS_IN_PLAY:
                v += dmg_value(st, ctl, p, g, float(x))
        return v - wv(ctl, p, W_EXHAUST)
    hand = st[pslot(p, P_HANDN)]
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
    dests = scratch_i1(ctl, SCR_PLAN + 512, S + 1)
    ef = scratch_f2(ctl, SCR_PLAN + 512 + MAX_SPACES + 1, MAX_FIGHTERS, 6)
    ne = enemy_facts(st, team_of(st, p), ef)
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


@jit(F(ST, TB, CTL, I, I))
def near_target_correction(st, tb, ctl, p, c):
    """For scheme ``c``'s unconditional "N damage to one fighter in the zone of / adjacent to
    X" steps, the best real target now instead of the static damage worth: returns the
    worth of the best fighter there (an opposing one, or the least harm to one of ours when
    only ours are there; 0 if none) minus the static worth (A Momentary Glance: never at
    her own fighters when no opponent is in her zone; lethal when one is)."""
    d = 0.0
    s0 = tb.cards[c, C_PROG + 2 * WINDOW_SCHEME]
    for r in range(s0, s0 + tb.cards[c, C_PROG + 2 * WINDOW_SCHEME + 1]):
        sel = tb.code[r, I_SEL]
        if (tb.code[r, I_OP] != OP_DAMAGE or tb.code[r, I_COND] != 0 or tb.code[r, I_SIDE] == S_OWN
                or (sel != SEL_ONE_ZONE and sel != SEL_ONE_ADJ)):
            continue
        ref = tb.code[r, I_REF]
        kind = 0 if ref < 0 else ref
        x = -1
        for k in range(FIGHTERS_PER_PLAYER):
            g = p * FIGHTERS_PER_PLAYER + k
            if st[fslot(g, F_STATUS)] == FS_IN_PLAY and st[fslot(g, F_KIND)] == kind:
                x = g
                break
        if x < 0:
            continue
        xs = st[fslot(x, F_SPACE)]
        n = float(tb.code[r, I_N])
        best = NEG
        for t in range(MAX_FIGHTERS):
            if st[fslot(t, F_STATUS)] != FS_IN_PLAY:
                continue
            ts = st[fslot(t, F_SPACE)]
            near = (tb.zmask[xs] & tb.zmask[ts]) != 0 if sel == SEL_ONE_ZONE else tb.adj[xs, ts] != 0
            if not near:
                continue
            if tb.code[r, I_SIDE] == 0 or team_of(st, st[fslot(t, F_OWNER)]) != team_of(st, p):
                v = dmg_value(st, ctl, p, t, n)
                if v > best:
                    best = v
        d += (best if best > NEG else 0.0) - wv(ctl, p, W_FX_DMG) * n
    return d


@jit(F(ST, TB, CTL, I, I))
def scheme_score(st, tb, ctl, p, c):
    """Score of playing scheme ``c``."""
    h = p * FIGHTERS_PER_PLAYER
    s = (wv(ctl, p, W_SCHEME) + fx_now(st, tb, ctl, p, c, h, -1)
         + wv(ctl, p, W_FX_DMG) * dmg_now(st, tb, ctl, c, h, -1) + near_target_correction(st, tb, ctl, p, c))
    if tb.cards[c, C_TAGS] & TAG_ONGOING:
        s += wv(ctl, p, W_ONGOING) if st[pslot(p, P_ONGOING)] < 0 else 0.2 * wv(ctl, p, W_ONGOING)
    return s


@jit(V(ST, TB, CTL, I, A1, I, FA1))
def score_actions(st, tb, ctl, p, opts, n, scores):
    """Scores of the packed actions ``opts[:n]`` for player ``p`` (see rules.pack_action)."""
    dvals = scratch_f2(ctl, SCR_ACTIONS, MAX_FIGHTERS, MAX_CARDS + 1)
    dprobs = scratch_f2(ctl, SCR_ACTIONS + _DSZ, MAX_FIGHTERS, MAX_CARDS + 1)
    pnone = scratch_f1(ctl, SCR_ACTIONS + 2 * _DSZ, MAX_FIGHTERS)
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
            scores[i] = scheme_score(st, tb, ctl, p, c)
        else:   # (follow_up computed most attacks already)
            v = known_attack_worth(st, ctl, p, g, t, c) if known else NEG
            scores[i] = v if v > NEG else attack_worth(st, tb, ctl, p, g, t, c, dvals, dprobs, pnone)


@jit(V(ST, TB, CTL, I, A1, I, FA1))
def score_defense(st, tb, ctl, q, opts, n, scores):
    """Scores of defense options ``opts[:n]`` (card ids, -1 none) for the defending player ``q``.

    Reads only public facts about the attack: the attacking fighter, the
    attacker's hand size and unknown cards, whether a face-down BOOST was added.
    """
    o = OFF_CB
    a = st[o + CB_ATT_F]
    t = st[o + CB_DEF_F]
    p = st[o + CB_ATT_P]
    pool = scratch_i1(ctl, SCR_DEFENSE, MAX_CARDS + 1)
    npool = unknown_pool(st, tb, p, pool)
    hand = st[pslot(p, P_HANDN)] + 1
    extra = 0.0
    if st[o + CB_ABOOST] >= 0:
        hand += 1
        tot = 0.0
        for i in range(npool):
            tot += tb.cards[pool[i], C_BOOST]
        extra = tot / npool if npool > 0 else 0.0
    vals = scratch_f1(ctl, SCR_DEFENSE + (MAX_CARDS + 1), MAX_CARDS + 1)
    fxd = scratch_f1(ctl, SCR_DEFENSE + 2 * (MAX_CARDS + 1), MAX_CARDS + 1)
    probs = scratch_f1(ctl, SCR_DEFENSE + 3 * (MAX_CARDS + 1), MAX_CARDS + 1)
    pn = attack_dist(st, tb, ctl, a, hand, pool, npool, vals, fxd, probs, extra)
    m = int(vals[MAX_CARDS])
    norm = 1.0 - pn
    bonus = hero_def_bonus(st, tb, t)
    hp, per, kill = dmg_params(st, ctl, q, t)
    for j in range(n):
        d = opts[j]
        vd = 0.0
        s = 0.0
        if d >= 0:
            vd = def_value(st, tb, ctl, d, t, bonus)
            s = (fx_now(st, tb, ctl, q, d, t, 1) + 0.5 * wv(ctl, q, W_FX_DMG) * dmg_now(st, tb, ctl, d, t, 1)
                 - keep_worth(tb, ctl, q, d) - wv(ctl, q, W_DEFEND_MARGIN))
        loss = 0.0
        if norm > 1e-9:
            for i in range(m):
                k = vals[i] - vd
                if k > 0.0 and probs[i] > 0.0:
                    k += fxd[i]
                    loss += probs[i] * (kill if k >= hp else k * per)
            loss /= norm
        else:
            loss = dmg_value(st, ctl, q, t, 3.0 - vd)
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
    """Scores of BOOST options (card ids, -1 none) for an attack (Arthur) or a card in combat."""
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
        pool = scratch_i1(ctl, SCR_DEFENSE, MAX_CARDS + 1)
        npool = unknown_pool(st, tb, q, pool)
        vals = scratch_f1(ctl, SCR_DEFENSE + (MAX_CARDS + 1), MAX_CARDS + 1)
        probs = scratch_f1(ctl, SCR_DEFENSE + 3 * (MAX_CARDS + 1), MAX_CARDS + 1)
        pn = defense_dist(st, tb, ctl, t, st[pslot(q, P_HANDN)], pool, npool, vals, probs)
        c = st[o + CB_CARD0]
        av = att_value(st, tb, ctl, c, st[o + CB_ATT_F], hero_atk_bonus(st, tb, st[o + CB_ATT_F]))
        fx = dmg_now(st, tb, ctl, c, st[o + CB_ATT_F], 0)
        base = exp_attack(st, ctl, p, t, av, fx, vals, probs, pn)
        for j in range(n):
            b = opts[j]
            if b >= 0:
                scores[j] = (exp_attack(st, ctl, p, t, av + tb.cards[b, C_BOOST], fx, vals, probs, pn) - base
                             - keep_worth(tb, ctl, p, b) - wv(ctl, p, W_BOOST_MARGIN))
        return
    av = combat_att_value(st, tb, 0)
    dv = combat_att_value(st, tb, 1) if st[o + CB_CARD1] >= 0 else 0.0
    for j in range(n):
        b = opts[j]
        if b < 0:
            continue
        bv = tb.cards[b, C_BOOST]
        if attacker:
            gain = dmg_value(st, ctl, p, t, av + bv - dv) - dmg_value(st, ctl, p, t, av - dv)
        else:
            gain = dmg_value(st, ctl, p, t, av - dv - bv) - dmg_value(st, ctl, p, t, av - dv)
        scores[j] = gain - keep_worth(tb, ctl, p, b) - wv(ctl, p, W_BOOST_MARGIN)


@jit(V(ST, TB, CTL, I, I, A1, I, FA1))
def score_spaces(st, tb, ctl, p, g, opts, n, scores):
    """Scores of spaces ``opts[:n]`` for fighter ``g``: its owner's position score,
    negated when ``g`` is an opposing fighter (``p`` moves or places it; then only
    public facts are used: no follow-up attack from the opponent's hand)."""
    q = st[fslot(g, F_OWNER)]
    own = team_of(st, q) == team_of(st, p)
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
            return
    fu = scratch_f2(ctl, SCR_SPACES, MAX_FIGHTERS, MAX_FIGHTERS)
    if now:
        cached_follow_up(st, tb, ctl, p, fu)
    ef = scratch_f2(ctl, SCR_SPACES + 256, MAX_FIGHTERS, 6)
    ne = enemy_facts(st, team_of(st, q), ef)
    team = st[G_NPLAYERS] > 2
    for j in range(n):
        v = pos_score(st, tb, ctl, p, g, opts[j], now, fu, ef, ne)
        if team:
            v += team_pos_bonus(st, tb, ctl, p, g, opts[j])
        scores[j] = v if own else -v


@jit(V(ST, TB, CTL, I, A1, I, FA1))
def score_targets(st, tb, ctl, p, opts, n, scores):
    """Scores of fighters ``opts[:n]`` as the target of the effect step in the context."""
    op = ctl[CTL_CTX_OP]
    amt = ctl[CTL_CTX_N]
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


@jit(V(ST, TB, CTL, I, I, A1, I, FA1))
def score_hand_cards(st, tb, ctl, p, kind, opts, n, scores):
    """Scores of hand cards to discard or take: discard what is worth least (ours) or most (theirs)."""
    owner = ctl[CTL_CTX_OWNER]
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
    bonuses it gives; other options keep their order."""
    op = ctl[CTL_CTX_OP]
    h = st[pslot(p, P_HERO)]
    for j in range(n):
        scores[j] = -0.001 * j
        if op == OP_CHOOSE_COUNTER and opts[j] <= 1:   # choose_counter
            v = opts[j]
            scores[j] += tb.heroes[h, H_AI_ATK0 + v] * 1.0 + tb.heroes[h, H_AI_DEF0 + v] * 1.2


@jit(F(ST, TB, CTL, I, I))
def form_worth(st, tb, ctl, p, form):
    """Worth of player ``p``'s hero being in ``form`` (hero counter 0): the hand cards it
    could play then, the ability's value bonuses, minus health lost to maneuvers (Hyde)."""
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


@jit(V(ST, TB, CTL, I, A1, I, FA1))
def score_may(st, tb, ctl, p, opts, n, scores):
    """"May" (option 1 yes, 0 no): yes, unless the step would damage our own fighter, or
    it flips our hero's form (Jekyll/Hyde) to the less useful one."""
    yes = True
    if ctl[CTL_CTX_P] == p and ctl[CTL_CTX_OP] == OP_DAMAGE:
        g = ctl[CTL_CTX_F]
        if g >= 0 and team_of(st, st[fslot(g, F_OWNER)]) == team_of(st, p):
            yes = False
    if ctl[CTL_CTX_P] == p and ctl[CTL_CTX_OP] == OP_FLIP_COUNTER:
        cur = 1 if st[pslot(p, P_COUNTER0)] == 1 else 0
        yes = form_worth(st, tb, ctl, p, 1 - cur) > form_worth(st, tb, ctl, p, cur) + 0.1
    for j in range(n):
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
    pool = scratch_i1(ctl, SCR_POOL, MAX_CARDS + 1)
    npool = unknown_pool(st, tb, q, pool)
    for i in range(npool):
        v = tb.cards[pool[i], C_VALUE]
        for j in range(n):
            if opts[j] == v:
                scores[j] += 1.0


@jit(V(ST, TB, CTL, I, I, A1, I, FA1))
def greedy_scores(st, tb, ctl, p, kind, opts, n, scores):
    """The greedy profile: best attack card, else close in; defend with the best card; no BOOSTs."""
    if kind == D_ACTION:
        for i in range(n):
            a = opts[i]
            k = a & 3
            t = ((a >> 7) & 31) - 1
            c = (a >> 12) - 1
            if k == A_ATTACK:
                scores[i] = 100.0 + 10.0 * tb.cards[c, C_VALUE] + (5.0 if st[fslot(t, F_KIND)] == 0 else 0.0)
                scores[i] -= 0.01 * st[fslot(t, F_HP)]
            elif k == A_MANEUVER:
                scores[i] = 0.0
            else:
                scores[i] = -1.0
    elif kind == D_DEFENSE or kind == D_DISCARD_LIMIT:
        for i in range(n):
            c = opts[i]
            v = tb.cards[c, C_VALUE] if c >= 0 else -1
            scores[i] = float(v) if kind == D_DEFENSE else -float(v)
    elif kind == D_BOOST_MANEUVER or kind == D_BOOST_ATTACK or kind == D_BOOST_CARD:
        for i in range(n):
            scores[i] = 1.0 if opts[i] < 0 else 0.0
    else:   # D_MOVE_DEST for its own fighter: toward the nearest opposing fighter
        tm = team_of(st, p)
        for i in range(n):
            s = opts[i]
            best = 99
            for e in range(MAX_FIGHTERS):
                if st[fslot(e, F_STATUS)] == FS_IN_PLAY and team_of(st, st[fslot(e, F_OWNER)]) != tm:
                    d = tb.dist[s, st[fslot(e, F_SPACE)]]
                    if d < best:
                        best = d
            scores[i] = -float(best) - 0.001 * i


@jit(V(CTL, I, I, I, I, A1, I, FA1))
def explain(ctl, logn, kind, p, chosen, opts, n, scores):
    """Record the top candidates of one decision in the explain buffer (if ``ctl`` has one)."""
    if ctl.shape[0] <= CTL_SIZE + 1:
        return
    cnt = ctl[CTL_EXPLAIN]
    base = CTL_EXPLAIN + 1 + cnt * EXPLAIN_REC
    if base + EXPLAIN_REC > ctl.shape[0]:
        return
    ctl[CTL_EXPLAIN] = cnt + 1
    ctl[base] = logn
    ctl[base + 1] = kind
    ctl[base + 2] = p
    ctl[base + 3] = n
    used = stack_i64(MAX_SCR_SCORES)
    for j in range(n):
        used[j] = 0
    shown = 0
    order0 = chosen
    for r in range(EXPLAIN_TOP):
        if r >= n:
            break
        bi = order0 if r == 0 else -1
        if r > 0:
            for j in range(n):
                if used[j] == 0 and (bi < 0 or scores[j] > scores[bi]):
                    bi = j
        used[bi] = 1
        ctl[base + 5 + 2 * r] = opts[bi]
        ctl[base + 6 + 2 * r] = int(scores[bi] * 1000.0)
        shown += 1
    ctl[base + 4] = shown


@jit(I(ST, TB, CTL, I, I, A1, I))
def ai_decide(st, tb, ctl, kind, p, opts, n):
    """Index of the option the scripted AI (standard or greedy) picks; ``n`` >= 2."""
    if n > MAX_SCR_SCORES:   # (no engine decision lists more: legal_actions' buffer is this size)
        return 0
    scores = scratch_f1(ctl, SCR_SCORES, n)
    for j in range(n):
        scores[j] = 0.0
    greedy = ctl[CTL_MODE0 + p] == MODE_GREEDY
    if greedy and (kind == D_ACTION or kind == D_DEFENSE or kind == D_DISCARD_LIMIT
                   or kind == D_BOOST_MANEUVER or kind == D_BOOST_ATTACK or kind == D_BOOST_CARD
                   or (kind == D_MOVE_DEST and ctl[CTL_CTX_F] >= 0
                       and team_of(st, st[fslot(ctl[CTL_CTX_F], F_OWNER)]) == team_of(st, p))):
        greedy_scores(st, tb, ctl, p, kind, opts, n, scores)
    elif kind == D_ACTION:
        score_actions(st, tb, ctl, p, opts, n, scores)
    elif kind == D_DEFENSE:
        score_defense(st, tb, ctl, p, opts, n, scores)
    elif kind == D_BOOST_MANEUVER:
        if ctl[CTL_PLAN_KEY] != action_key(st, p):
            plan_maneuver(st, tb, ctl, p, 1)
        plan = ctl[CTL_PLAN_BOOST]
        for j in range(n):
            scores[j] = 1.0 if opts[j] == plan else 0.0
    elif kind == D_BOOST_ATTACK or kind == D_BOOST_CARD:
        score_boost(st, tb, ctl, p, kind, opts, n, scores)
    elif kind == D_MOVE_DEST or kind == D_PLACE or kind == D_SETUP_SPACE or kind == D_MOVE_STEP:
        g = ctl[CTL_CTX_F]
        if g < 0:
            g = p * FIGHTERS_PER_PLAYER
        score_spaces(st, tb, ctl, p, g, opts, n, scores)
    elif kind == D_TARGET:
        score_targets(st, tb, ctl, p, opts, n, scores)
    elif kind == D_DISCARD_LIMIT or kind == D_DISCARD_EFFECT or kind == D_TAKE_CARD:
        score_hand_cards(st, tb, ctl, p, kind, opts, n, scores)
    elif kind == D_MAY:
        score_may(st, tb, ctl, p, opts, n, scores)
    elif kind == D_OPTION:
        score_options(st, tb, ctl, p, opts, n, scores)
    elif kind == D_GUESS:
        score_guess(st, tb, ctl, p, opts, n, scores)
    elif kind == D_OPPONENT:
        score_opponents(st, tb, ctl, p, opts, n, scores)
    elif kind == D_FORCE_CARD:   # the opponent must play this card instead: their weakest
        for j in range(n):
            scores[j] = -float(tb.cards[opts[j], C_VALUE]) if opts[j] >= 0 else 0.0
    elif kind == D_FOG_DEST:     # our fog near our hero (he walks and defends on it); theirs far
        mine = (tb.heroes[st[pslot(p, P_HERO)], H_FLAGS] & HF_FOG_WALK) != 0
        h = p * FIGHTERS_PER_PLAYER
        if not mine:    # the fog is the opposing Invisible Man's: keep it away from him
            for r in range(st[G_NPLAYERS]):
                if team_of(st, r) != team_of(st, p):
                    h = r * FIGHTERS_PER_PLAYER
                    if st[G_NPLAYERS] <= 2 or (tb.heroes[st[pslot(r, P_HERO)], H_FLAGS] & HF_FOG_WALK) != 0:
                        break
        hs = st[fslot(h, F_SPACE)]
        for j in range(n):
            d = float(tb.dist[hs, opts[j]]) if hs >= 0 else 0.0
            scores[j] = -d if mine else d
    best = 0
    for j in range(1, n):
        if scores[j] > scores[best]:
            best = j
    explain(ctl, st[G_LOGN], kind, p, best, opts, n, scores)
    return best


# The codes the AI reads from the decision context, under the names
# tests/test_ai.py compares with effects.OP_* (the same objects now, from codes).
(_OP_DAMAGE, _OP_DRAW, _OP_RECOVER, _OP_SET_HEALTH, _OP_FLIP_COUNTER, _OP_CHOOSE_COUNTER, _OP_SET_VALUE,
 _WIN_SCHEME, _SEL_ONE_ZONE, _SEL_ONE_ADJ, _S_OWN) = (
    OP_DAMAGE, OP_DRAW, OP_RECOVER, OP_SET_HEALTH, OP_FLIP_COUNTER, OP_CHOOSE_COUNTER, OP_SET_VALUE,
    WINDOW_SCHEME, SEL_ONE_ZONE, SEL_ONE_ADJ, S_OWN)
