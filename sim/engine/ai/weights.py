"""The AI's weights, its work arrays in ``ctl``, and what it reads about a card: effect
features, the conditions it checks live, the value and worth of a card now.
"""
from numba import types

from ..codes import (
    CN_ADJACENT, CT_ATTACK, CN_ATTACKING, CN_DEFENDING, CN_NOT_WON, CN_OPPOSING_IS_HERO, CN_WON, OP_MOVE, PER_ADJ_TO_SELF, PER_DISCARD_TAG, PER_KIND_ADJ_MOVED,
    PER_KIND_IN_ZONE_OF_OPPOSING, PER_ONE, PER_OWN_ADJ_OPPOSING, REF_OPPOSING, REF_SELF,
    CN_ATTACKED, CN_COUNTER_EQ, CN_COUNTER_NE, CN_FIRST_ACTION, CN_HAND_AT_LEAST, CN_HERO_ATTACKED,
    CN_HERO_HP_AT_MOST, CN_LEFT_SPACE, CN_ON_FOG, CN_STARTED_ELSEWHERE, CN_STARTED_ON_FOG, CN_TAG_TIER,
    FS_IN_PLAY, HF_ATTACK_BOOST, IF_NEGATE, N_WINDOWS, OP_SET_VALUE, PILE_DISC, W_DURING, W_IMMEDIATELY, W_ON_PLAY,
    W_ONGOING_DISCARD, W_ONGOING_START,
    CN_AWAY_FROM_START, CN_DISC_TOP_AT_LEAST, CN_DISC_TOP_TYPE, CN_KIND_DEFEATED, CN_KIND_ON_BOARD,
    CN_NO_OPP_IN_ZONE, CT_SCHEME, FS_DEFEATED, OP_NOP, PER_DAMAGE_TAKEN, PER_ZONES,
)
from ..control import (
    CTL_MODE0, CTL_W, MODE_EXPERT02, MODE_GREEDY, MODE_STANDARD02, N_PRICE, N_WEIGHTS, SCR_DESTS, SCR_PRICE,
)
from ..core import count_tag_in_pile, n_slots, pile_base, reachable, team_of
from ..layout import (
    AI_ACTION, AI_CANCEL, AI_DECK_TOP, AI_DMG, AI_DRAW, AI_MOVE, AI_OPP_DISCARD, AI_OTHER, AI_RECOVER, AI_SELF_DMG,
    AI_SUMMON,
    C_AI0, C_AI_LIVE, C_BOOST, C_FMASK, C_TYPE, C_FORM, C_PROG, C_TAGS, C_VALUE, F_HP, F_KIND, F_LEFT, F_OWNER,
    F_SPACE, F_START_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, fslot, G_ACTION_NO, H_FLAGS, I_AI0, I_AI_LIVE, I_CA,
    I_CB, I_COND, I_CREF, I_CTAG, I_FLAGS, I_N, I_OP, I_PARG, I_PER, MAX_CARDS, MAX_FIGHTERS, MAX_SPACES, N_FOG, P_ATTACKED,
    P_COUNTER0, P_DISCN, P_FOG0, P_HANDN, P_HERO, P_HERO_ATTACKED, P_START_FOG, pslot,
)
from ..sigs import A1, B, CTL, F, f64_view, f64_view2, FA1, I, jit, ST, TB


# ------------------------------------------------------------------ weights
WEIGHT_NAMES = (
    "dmg_hero", "hero_low", "dmg_sidekick", "kill_sidekick", "win",
    "hp_own", "hp_own_low", "hp_sidekick", "lose_sidekick",
    "card", "full_hand", "keep_value", "keep_boost", "keep_fx",
    "fx_damage", "fx_self_damage", "fx_draw", "fx_opp_discard", "fx_recover", "fx_move",
    "fx_cancel", "fx_action", "fx_other",
    "scheme", "ongoing", "reach_now", "reach_next", "approach", "threat", "threat_sidekick",
    "exhaustion", "boost_margin", "defend_margin", "opp_card", "fog",
    "threat_base", "threat_low", "sidekick_target", "sidekick_threat", "ongoing_again", "defense_fx",
    "unknown_attack",
    "team_kill", "focus", "guard", "eliminate",
    "search_samples", "search_candidates", "search_horizon", "eval_card",
    "guess_base", "keep_full", "keep_attack", "search_choices",
)
"""Names of the AI weights, in their order in the weight vector (see sim/content/profiles.py)."""
(W_DMG_HERO, W_HERO_LOW, W_DMG_SK, W_KILL_SK, W_WIN,
 W_HP_OWN, W_HP_LOW, W_HP_SK, W_LOSE_SK,
 W_CARD, W_FULL_HAND, W_KEEP_VALUE, W_KEEP_BOOST, W_KEEP_FX,
 W_FX_DMG, W_FX_SELF_DMG, W_FX_DRAW, W_FX_OPP_DISCARD, W_FX_RECOVER, W_FX_MOVE,
 W_FX_CANCEL, W_FX_ACTION, W_FX_OTHER,
 W_SCHEME, W_ONGOING, W_REACH_NOW, W_REACH_NEXT, W_APPROACH, W_THREAT, W_THREAT_SK,
 W_EXHAUST, W_BOOST_MARGIN, W_DEFEND_MARGIN, W_OPP_CARD, W_FOG,
 W_THREAT_BASE, W_THREAT_LOW, W_SIDEKICK_TARGET, W_SIDEKICK_THREAT, W_ONGOING_AGAIN, W_DEFENSE_FX,
 W_UNKNOWN_ATTACK,
 W_TEAM_KILL, W_FOCUS, W_GUARD, W_ELIMINATE,
 W_SEARCH_SAMPLES, W_SEARCH_CANDIDATES, W_SEARCH_HORIZON, W_EVAL_CARD,
 W_GUESS_BASE, W_KEEP_FULL, W_KEEP_ATTACK, W_SEARCH_CHOICES) = range(len(WEIGHT_NAMES))
#: The one-currency standard's weights (release 0.2's AI does not read them) and their values when
#: a profile leaves them out (see sim/content/profiles.py for their meanings).
NEW_DEFAULTS = {"guess_base": 0.5, "keep_full": 0.3, "keep_attack": 0.6}
#: Release 0.2's weights that the one-currency standard no longer reads: it prices an effect's
#: damage as damage (:func:`.estimate.dmg_price`) and an effect's draw as a card in hand
#: (:func:`card_price`). Training leaves them out (they would drift at random).
OLD_ONLY = ("fx_damage", "fx_draw")
#: The expert AI's weights (sim.engine.search) and their values when a profile leaves them out:
#: determinizations per decision, candidate actions, turns looked ahead after the current one,
#: worth of a card in hand at the horizon, which decisions inside an action are searched too (0:
#: none, release 0.2's expert; 1: BOOSTs, effect choices, named values, targets, places; 2: and
#: the destinations of moves). Other modes do not read them.
SEARCH_DEFAULTS = {"search_samples": 8.0, "search_candidates": 4.0, "search_horizon": 1.0, "eval_card": 2.5,
                   "search_choices": 0.0}
assert len(WEIGHT_NAMES) <= N_WEIGHTS

NEG = -1.0e18
FA2 = types.Array(types.float64, 2, "C")

# The AI's work arrays are views of regions of ``ctl`` (``control.SCR_*``), not
# allocated per decision: allocating and freeing them would cost about a fifth of the AI's time.


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


@jit(B(CTL, I), inline=True)
def frozen(ctl, p):
    """Player ``p`` plays the frozen AI of release 0.2 (``MODE_STANDARD02``, ``MODE_EXPERT02``;
    greedy's scripted choices too, so that the baseline stays as it was): the code path
    ``standard`` had at release 0.2, where the one-currency standard differs from it."""
    m = ctl[CTL_MODE0 + p]
    return m == MODE_STANDARD02 or m == MODE_EXPERT02 or m == MODE_GREEDY


@jit(F(TB, I, I))
def feat(tb, c, k):
    """AI feature ``k`` (``layout.AI_*``) of card ``c``, in card-effect units."""
    return tb.cards[c, C_AI0 + k] * 0.01


@jit(F(CTL, I), inline=True)
def card_price(ctl, p):
    """What a drawn card is worth to player ``p`` now: the frozen 0.2 AI's ``fx_draw``; the
    one-currency AI's price of a card in hand (:func:`.position.set_price`: the maneuver's
    drawn card, by the hand limit and the deck left), whatever draws it."""
    if frozen(ctl, p):
        return wv(ctl, p, W_FX_DRAW)
    return f64_view(ctl, SCR_PRICE, N_PRICE)[p]


@jit(F(CTL, I), inline=True)
def summon_price(ctl, p):
    """What a sidekick an effect brings back onto the board is worth to player ``p`` now (the
    one-currency AI, :func:`.position.set_price`): the worth of one of ``p``'s sidekicks off the
    board (``hp_sidekick`` x its health + ``lose_sidekick``), 0 when all are on it."""
    return f64_view(ctl, SCR_PRICE, N_PRICE)[9 + p]


@jit(F(TB, CTL, I, I))
def fx_worth(tb, ctl, p, c):
    """What the effects of card ``c`` are worth to player ``p`` (value changes and damage to
    opposing fighters excluded: callers add damage where it applies). The one-currency AI
    counts the cards its effects bring into the hand, not those put on top of the deck, and a
    sidekick an effect brings back onto the board as that sidekick (:func:`summon_price`)."""
    cards = feat(tb, c, AI_DRAW)
    back = 0.0
    if not frozen(ctl, p):
        cards -= feat(tb, c, AI_DECK_TOP)
        back = feat(tb, c, AI_SUMMON)
    return (back * (summon_price(ctl, p) - 2.0 * wv(ctl, p, W_FX_OTHER))
            + wv(ctl, p, W_FX_SELF_DMG) * feat(tb, c, AI_SELF_DMG)
            + card_price(ctl, p) * cards
            + wv(ctl, p, W_FX_OPP_DISCARD) * feat(tb, c, AI_OPP_DISCARD)
            + wv(ctl, p, W_FX_RECOVER) * feat(tb, c, AI_RECOVER) + wv(ctl, p, W_FX_MOVE) * feat(tb, c, AI_MOVE)
            + wv(ctl, p, W_FX_CANCEL) * feat(tb, c, AI_CANCEL) + wv(ctl, p, W_FX_ACTION) * feat(tb, c, AI_ACTION)
            + wv(ctl, p, W_FX_OTHER) * feat(tb, c, AI_OTHER))


@jit(F(TB, CTL, I, I))
def fx_row(tb, ctl, p, r):
    """Like :func:`fx_worth` for one live step ``r`` of a card program (its ``I_AI0 ..`` columns)."""
    x = tb.code[r]
    cards = x[I_AI0 + AI_DRAW]
    back = 0.0
    if not frozen(ctl, p):
        cards -= x[I_AI0 + AI_DECK_TOP]
        back = x[I_AI0 + AI_SUMMON] * (summon_price(ctl, p) - 2.0 * wv(ctl, p, W_FX_OTHER))
    return 0.01 * (back + wv(ctl, p, W_FX_SELF_DMG) * x[I_AI0 + AI_SELF_DMG] + card_price(ctl, p) * cards
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
    elif c == CN_KIND_DEFEATED or c == CN_KIND_ON_BOARD:
        want = FS_DEFEATED if c == CN_KIND_DEFEATED else FS_IN_PLAY
        ok = False
        for k in range(FIGHTERS_PER_PLAYER):
            f = q * FIGHTERS_PER_PLAYER + k
            if st[fslot(f, F_STATUS)] == want and st[fslot(f, F_KIND)] == tb.code[r, I_CREF]:
                ok = True
    elif c == CN_NO_OPP_IN_ZONE or c == CN_AWAY_FROM_START:
        ref = tb.code[r, I_CREF]   # (board_ref written out; -2: the opposing fighter, not known: holds)
        a = g if ref == REF_SELF else -2 if ref == REF_OPPOSING else -1
        if ref >= 0:
            for k in range(FIGHTERS_PER_PLAYER):
                f = q * FIGHTERS_PER_PLAYER + k
                if a < 0 and st[fslot(f, F_STATUS)] == FS_IN_PLAY and st[fslot(f, F_KIND)] == ref:
                    a = f
        if a >= 0 and st[fslot(a, F_STATUS)] != FS_IN_PLAY:
            a = -1
        if a >= 0 and c == CN_AWAY_FROM_START:
            sa = st[fslot(a, F_SPACE)]
            s0 = tb.starts[q]
            ok = not (s0 >= 0 and (tb.zmask[sa] & tb.zmask[s0]) != 0)
        elif a >= 0:
            sa = st[fslot(a, F_SPACE)]
            for f in range(n_slots(st)):
                if (st[fslot(f, F_STATUS)] == FS_IN_PLAY and team_of(st, st[fslot(f, F_OWNER)]) != team_of(st, q)
                        and (tb.zmask[st[fslot(f, F_SPACE)]] & tb.zmask[sa]) != 0):
                    ok = False
        elif a == -1:
            ok = False
    elif c == CN_DISC_TOP_AT_LEAST or c == CN_DISC_TOP_TYPE:
        n = st[pslot(q, P_DISCN)]
        ok = False
        if n > 0:
            top = st[pile_base(PILE_DISC, q) + n - 1]
            if c == CN_DISC_TOP_TYPE:
                ok = tb.cards[top, C_TYPE] == tb.code[r, I_CA]
            else:
                ok = tb.cards[top, C_TYPE] != CT_SCHEME and tb.cards[top, C_VALUE] >= tb.code[r, I_CA]
    if (tb.code[r, I_FLAGS] & IF_NEGATE) != 0:
        return not ok
    return ok


@jit(B(ST, TB, I, I, I, I, I))
def guards_hold(st, tb, r, s0, q, g, side):
    """Whether the guards of live step ``r`` (its conditions after the first: the ``OP_NOP``
    rows right before it, not before ``s0``, the start of its program) hold now; every guard
    of a live step is a live condition (``ai_features.step_features``)."""
    j = r - 1
    while j >= s0 and tb.code[j, I_OP] == OP_NOP:
        if not live_cond(st, tb, j, q, g, side):
            return False
        j -= 1
    return True


@jit(I(ST, I, I, I, I))
def board_ref(st, q, g, e, ref):
    """The fighter a step's reference points at when ``q``'s fighter ``g`` plays against
    opposing fighter ``e`` (``conditions.resolve_ref`` without a combat in progress): -1 none
    in play, -2 not known (the opposing fighter when ``e`` < 0)."""
    if ref == REF_SELF:
        return g
    if ref == REF_OPPOSING:
        return e if e >= 0 else -2
    for k in range(FIGHTERS_PER_PLAYER):
        f = q * FIGHTERS_PER_PLAYER + k
        if st[fslot(f, F_STATUS)] == FS_IN_PLAY and st[fslot(f, F_KIND)] == ref:
            return f
    return -1


@jit(I(ST, TB, I, I, I, I))
def kind_adjacent(st, tb, q, kind, s, skip):
    """How many of ``q``'s fighters of ``kind`` in play (not ``skip``) stand next to space ``s``."""
    n = 0
    for k in range(FIGHTERS_PER_PLAYER):
        f = q * FIGHTERS_PER_PLAYER + k
        if (f != skip and st[fslot(f, F_STATUS)] == FS_IN_PLAY and st[fslot(f, F_KIND)] == kind
                and tb.adj[st[fslot(f, F_SPACE)], s] != 0):
            n += 1
    return n


@jit(I(ST, TB, CTL, I, I, I, I))
def best_moved_count(st, tb, ctl, r, q, only, at):
    """Step ``r`` deals damage for each of ``q``'s fighters of its kind next to the fighter the
    step before moved: the most such fighters next to an opposing fighter after that move
    (of up to its amount; ``only`` >= 0: that fighter alone; ``at`` >= 0: on that space, not
    moved)."""
    mv = tb.code[r - 1, I_N] if r > 0 and tb.code[r - 1, I_OP] == OP_MOVE else 0
    kind = tb.code[r, I_PARG]
    dests = scratch_i1(ctl, SCR_DESTS, MAX_SPACES + 1)
    best = 0
    for f in range(n_slots(st)):
        if (st[fslot(f, F_STATUS)] != FS_IN_PLAY or (only >= 0 and f != only)
                or team_of(st, st[fslot(f, F_OWNER)]) == team_of(st, q)):
            continue
        if at >= 0:
            return kind_adjacent(st, tb, q, kind, at, f)
        n = reachable(st, tb, f, mv, False, dests)
        for i in range(n):
            x = kind_adjacent(st, tb, q, kind, dests[i], f)
            if x > best:
                best = x
    return best


@jit(F(ST, TB, CTL, I, I, I, I, I))
def board_count(st, tb, ctl, r, q, g, e, side):
    """How many times board step ``r`` (``ai_features.is_board``) applies when ``q``'s fighter
    ``g`` plays its card on combat side ``side`` (0 attacking, 1 defending, -1 a scheme)
    against opposing fighter ``e``: its "for each" count now (``targets.per_count`` read
    from the board), 1 or 0 for "if adjacent" (the attacker's and defender's spaces) and for
    "against a hero" (the opposing fighter ``e``'s kind), the
    chance of winning (or not) for "if you won" (set by the caller in ``SCR_PRICE``); -1 when
    it depends on something not known (``e`` < 0, no chance set). For "each of your X next to the moved
    fighter" (Ravening Seduction) the best over the opposing fighters and the spaces the step
    before may move them to (the AI then picks that fighter and space)."""
    c = tb.code[r, I_COND]
    if (c == CN_ATTACKING and side != 0) or (c == CN_DEFENDING and side != 1):
        return 0.0
    if c == CN_WON or c == CN_NOT_WON:   # the combat's chance, set by the caller (-1: not known)
        pw = f64_view(ctl, SCR_PRICE, N_PRICE)[8]
        if pw < 0.0:
            return -1.0
        return pw if c == CN_WON else 1.0 - pw
    if c == CN_OPPOSING_IS_HERO:   # ("value N against a hero")
        if e < 0:
            return -1.0
        ok = st[fslot(e, F_KIND)] == 0
        if (tb.code[r, I_FLAGS] & IF_NEGATE) != 0:
            ok = not ok
        return 1.0 if ok else 0.0
    if c == CN_ADJACENT:
        a = board_ref(st, q, g, e, tb.code[r, I_CREF])
        b = board_ref(st, q, g, e, tb.code[r, I_CA])
        if a == -2 or b == -2:
            return -1.0
        ok = a >= 0 and b >= 0 and tb.adj[st[fslot(a, F_SPACE)], st[fslot(b, F_SPACE)]] != 0
        if (tb.code[r, I_FLAGS] & IF_NEGATE) != 0:
            ok = not ok
        return 1.0 if ok else 0.0
    per = tb.code[r, I_PER]
    parg = tb.code[r, I_PARG]
    if per == PER_DISCARD_TAG:
        return float(count_tag_in_pile(st, tb, PILE_DISC, q, parg))
    if per == PER_ADJ_TO_SELF:
        n = 0
        for f in range(MAX_FIGHTERS):
            if f != g and st[fslot(f, F_STATUS)] == FS_IN_PLAY and tb.adj[st[fslot(f, F_SPACE)], st[fslot(g, F_SPACE)]] != 0:
                n += 1
        return float(n)
    if per == PER_KIND_ADJ_MOVED:
        return float(best_moved_count(st, tb, ctl, r, q, -1, -1))
    if per == PER_DAMAGE_TAKEN:   # the combat damage a defense card expects its fighter to take (score_defense)
        x = f64_view(ctl, SCR_PRICE, N_PRICE)[13]
        return x if x >= 0.0 else -1.0
    if per == PER_ZONES:      # the zones of that fighter's space now
        a = board_ref(st, q, g, e, parg)
        if a < 0:
            return -1.0 if a == -2 else 0.0
        z = tb.zmask[st[fslot(a, F_SPACE)]]
        n = 0
        for b in range(64):
            n += (z >> b) & 1
        return float(n)
    if e < 0:
        return -1.0
    n = 0
    for k in range(FIGHTERS_PER_PLAYER):
        f = q * FIGHTERS_PER_PLAYER + k
        if st[fslot(f, F_STATUS)] != FS_IN_PLAY:
            continue
        fs = st[fslot(f, F_SPACE)]
        es = st[fslot(e, F_SPACE)]
        if per == PER_OWN_ADJ_OPPOSING and tb.adj[fs, es] != 0:
            n += 1
        elif per == PER_KIND_IN_ZONE_OF_OPPOSING and st[fslot(f, F_KIND)] == parg and (tb.zmask[fs] & tb.zmask[es]) != 0:
            n += 1
    return float(n) if per == PER_OWN_ADJ_OPPOSING or per == PER_KIND_IN_ZONE_OF_OPPOSING else -1.0


@jit(F(ST, TB, CTL, I, I, I, I, I, I))
def step_corrections(st, tb, ctl, c, g, e, side, k, kind):
    """The sum of the corrections of card ``c``'s steps of ``kind`` (``I_AI_LIVE``: 1 live, 2
    board) to its static feature ``k``: see :func:`live_steps` and :func:`board_delta`."""
    q = st[fslot(g, F_OWNER)]
    d = 0.0
    for w in range(N_WINDOWS):
        if w == W_ONGOING_DISCARD:
            continue
        s0 = tb.cards[c, C_PROG + 2 * w]
        mult = 1.5 if w == W_ONGOING_START else 0.5
        for r in range(s0, s0 + tb.cards[c, C_PROG + 2 * w + 1]):
            if tb.code[r, I_AI_LIVE] != kind:
                continue
            x = tb.code[r, I_AI0 + k] * 0.01 if k >= 0 else fx_row(tb, ctl, q, r)
            if x == 0.0:
                continue
            if kind == 1:
                ok = live_cond(st, tb, r, q, g, side) and (r == s0 or tb.code[r - 1, I_OP] != OP_NOP
                                                           or guards_hold(st, tb, r, s0, q, g, side))
                d += mult * x if ok else -mult * x
                continue
            n = board_count(st, tb, ctl, r, q, g, e, side)
            if n >= 0.0:
                cn = tb.code[r, I_COND]
                s = (0.0 if cn == CN_OPPOSING_IS_HERO else 0.5 if cn == CN_ADJACENT or cn == CN_WON or cn == CN_NOT_WON
                     else 1.0) * (1.5 if tb.code[r, I_PER] != PER_ONE else 1.0)
                d += 2.0 * mult * x * (n - s)   # (2 x mult: 3 for an ongoing start-of-turn step, else 1)
    return d


@jit(F(ST, TB, CTL, I, I, I, I))
def live_steps(st, tb, ctl, c, g, side, k):
    """Correction to card ``c``'s static feature ``k`` (``k`` < 0: to :func:`fx_worth` for its
    owner) when fighter ``g`` plays it now on combat side ``side`` (0 attacking, 1 defending,
    -1 a scheme): the static features count each live step at half; here a live step whose
    condition holds now (``conditions.cond_ok``) counts in full and one that fails not at all.
    Only called for cards with live steps (see :func:`live_delta`)."""
    return step_corrections(st, tb, ctl, c, g, -1, side, k, 1)


@jit(F(ST, TB, CTL, I, I, I, I))
def live_delta(st, tb, ctl, c, g, side, k):
    """Correction to card ``c``'s static feature ``k`` from its live steps (see
    :func:`live_steps`); 0 for a card without live steps (most cards: checked here,
    so that the call stays small and inline)."""
    if (tb.cards[c, C_AI_LIVE] & 1) == 0:
        return 0.0
    return live_steps(st, tb, ctl, c, g, side, k)


@jit(F(ST, TB, CTL, I, I, I, I, I))
def board_delta(st, tb, ctl, c, g, e, side, k):
    """The one-currency AI's correction to card ``c``'s static feature ``k`` (``k`` < 0: to
    :func:`fx_worth` for its owner) from its board steps (:func:`board_count`) when fighter
    ``g`` plays it on side ``side`` against opposing fighter ``e`` (-1: not known; steps
    that depend on it keep their static count): what the step does now, counted in
    full, instead of the rules of thumb (a "for each" at 1.5, an "if" at half)."""
    if (tb.cards[c, C_AI_LIVE] & 2) == 0:
        return 0.0
    return step_corrections(st, tb, ctl, c, g, e, side, k, 2)


@jit(F(ST, TB, I, I, I))
def live_value(st, tb, c, g, side):
    """The value of live card ``c`` (see :func:`value_now`); only called for cards with live steps."""
    v = tb.cards[c, C_VALUE]
    q = st[fslot(g, F_OWNER)]
    for w in (W_IMMEDIATELY, W_ON_PLAY, W_DURING):
        s0 = tb.cards[c, C_PROG + 2 * w]
        for r in range(s0, s0 + tb.cards[c, C_PROG + 2 * w + 1]):
            if (tb.code[r, I_OP] == OP_SET_VALUE and tb.code[r, I_AI_LIVE] == 1
                    and live_cond(st, tb, r, q, g, side) and guards_hold(st, tb, r, s0, q, g, side)):
                v = tb.code[r, I_N]
    return float(v)


@jit(F(ST, TB, I, I, I))
def value_now(st, tb, c, g, side):
    """Card ``c``'s value as fighter ``g`` would play it now: printed, or the "value N
    instead" of a live step whose condition holds (Ciri's Source tiers)."""
    if (tb.cards[c, C_AI_LIVE] & 1) == 0:   # (checked here so that most calls stay small and inline)
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
    """What card ``c`` is worth to player ``p`` kept in hand (the cost of spending it); the
    one-currency AI takes ``keep_full`` of it when the hand is at the hand limit."""
    v = tb.cards[c, C_VALUE]
    if v < 0:
        v = 0
    k = (wv(ctl, p, W_KEEP_VALUE) * v + wv(ctl, p, W_KEEP_BOOST) * tb.cards[c, C_BOOST]
         + wv(ctl, p, W_KEEP_FX) * fx_worth(tb, ctl, p, c))
    if frozen(ctl, p):
        return k
    return k * f64_view(ctl, SCR_PRICE, N_PRICE)[4 + p]


@jit(F(ST, TB, CTL, I, I))
def attack_keep(st, tb, ctl, p, c):
    """The cost to player ``p`` of attacking with card ``c`` now: its :func:`keep_worth`, of which
    the one-currency AI takes ``keep_attack`` for an attack card (it cannot defend on the
    opponent's turn: kept, it waits for a later attack, which a versatile card also offers,
    and has no other use), unless ``p``'s hero may add a face-down BOOST to his attacks (the
    hero file's ``boost_attack``: King Arthur), for whom every card kept is also BOOST for his
    next attacks. Its other uses (a BOOST, a hand-limit discard, the cards a form can play)
    cost its full keep worth."""
    k = keep_worth(tb, ctl, p, c)
    if (not frozen(ctl, p) and tb.cards[c, C_TYPE] == CT_ATTACK
            and (tb.heroes[st[pslot(p, P_HERO)], H_FLAGS] & HF_ATTACK_BOOST) == 0):
        k *= wv(ctl, p, W_KEEP_ATTACK)
    return k   # (a full hand: a card kept may be discarded anyway)


@jit(B(ST, TB, I, I), inline=True)
def playable(st, tb, c, g):
    """Fighter ``g`` may play card ``c`` (banner and form; the AI's estimate of rules.can_play)."""
    if (tb.cards[c, C_FMASK] >> st[fslot(g, F_KIND)]) & 1 == 0:
        return False
    form = tb.cards[c, C_FORM]
    if form != 0 and st[pslot(st[fslot(g, F_OWNER)], P_COUNTER0)] != form - 1:
        return False
    return True
