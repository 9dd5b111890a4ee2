"""The expert's sampled games (:mod:`sim.engine.search`): the determinizations (the cards a
player has not seen dealt again at random, :func:`determinize`; at a defense card the
attacker's face-down cards too, :func:`deal_attack`; inside an action with the cards seen
since kept in place, :func:`determinize_pinned`), the policy and generator of a copy
(:func:`rollout_control`, :func:`start_copy`, :func:`search_seed`), the play to the horizon
(:func:`play_out`) and the worth of its end position (:func:`evaluate`). The rules of what
may be read are in :mod:`sim.engine.search`'s docstring ("No peeking").
"""
from numba import types

from .sigs import A1, CTL, F, I, jit, LOG, ST, TB, V
from .codes import (
    CT_ATTACK, CT_VERSATILE, FS_DEFEATED, FS_UNUSED, MODE_EXPERT02, MODE_STANDARD, MODE_STANDARD02, PILE_DECK,
    PILE_HAND, TURN_CAP_WINNER,
)
from .control import (
    CTL_MODE0, CTL_PRESET, CTL_SCRATCH, N_DECISIONS,
    N_PRICE, SCR_PRICE,
)
from .core import can_play, mix32, pile_base, rng_seed, team_of
from .layout import (
    C_LOCAL, C_TYPE, C_VALUE, CB_ABOOST, CB_ATT_F, CB_ATT_P, CB_CARD0, F_HP, F_KIND, F_MAXHP, F_OWNER, F_STATUS,
    FIGHTERS_PER_PLAYER, fslot, G_ACTION_NO, G_LOGN, G_NPLAYERS, G_OVER, G_SEED, G_TURN, G_WINNER, MAX_CARDS,
    MAX_HERO_CARDS, OFF_CB, OFF_PLAYED, P_DECKN, P_HANDN, pslot, STATE_SIZE,
)
from .rules import finish_turn, take_turn
from .policy import rp_off
from .ai.position import reset_plans
from .ai.weights import (
    W_DMG_HERO, W_DMG_SK, W_EVAL_CARD, W_HERO_LOW, W_HP_LOW, W_HP_OWN, W_HP_SK, W_KILL_SK, W_LOSE_SK,
    W_SEARCH_CANDIDATES, W_SEARCH_HORIZON, W_SEARCH_SAMPLES, W_WIN, wv,
)

MAX_CANDIDATES = 16    # most candidate actions a profile may ask for (profiles check it)
MAX_SAMPLES = 256      # most determinizations per decision
_FBUF = 4 * MAX_CANDIDATES   # float work space of search_options: sums, squares, means, errors
_DEAL_TRIES = 16             # deal_attack's deals of a hand holding a card the attacker may attack with
_TMP = 2 * MAX_CARDS         # determinize's work space: one opponent's hand and deck
PIN_SIZE = 2 * _TMP          # the replay search's pins: per player of a duel, its hand and deck positions


@jit(I(A1))
def srng_next(r):
    """Next number (0..2**32-1) of the search's own xorshift32 stream ``r[0]``."""
    x = r[0] & 0xFFFFFFFF
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    r[0] = x
    return mix32(x)


@jit(V(A1, I, I, A1))
def deal_unseen(st, base, n, r):
    """Shuffle the ``n`` cards at ``st[base:base + n]`` after sorting them: the result
    depends on the cards and the stream ``r`` only, not on their order."""
    for i in range(1, n):   # insertion sort (at most a deck)
        x = st[base + i]
        j = i - 1
        while j >= 0 and st[base + j] > x:
            st[base + j + 1] = st[base + j]
            j -= 1
        st[base + j + 1] = x
    for i in range(n - 1, 0, -1):
        j = srng_next(r) % (i + 1)
        t = st[base + i]
        st[base + i] = st[base + j]
        st[base + j] = t


@jit(V(A1, A1, I))
def copy_into(dst, src, n):
    """``dst[:n] = src[:n]`` (int64; a loop, which needs no reference counting)."""
    for i in range(n):
        dst[i] = src[i]


@jit(V(ST, I, A1, A1))
def determinize(st, p, r, tmp):
    """Deal the cards player ``p`` has not seen again at random (stream ``r``): each
    opponent's hand and deck together (the same sizes), and ``p``'s own deck. ``tmp``:
    int64 scratch of 2 * MAX_CARDS."""
    for q in range(st[G_NPLAYERS]):
        nd = st[pslot(q, P_DECKN)]
        db = pile_base(PILE_DECK, q)
        if q == p:
            deal_unseen(st, db, nd, r)
            continue
        nh = st[pslot(q, P_HANDN)]
        hb = pile_base(PILE_HAND, q)
        for i in range(nh):
            tmp[i] = st[hb + i]
        for i in range(nd):
            tmp[nh + i] = st[db + i]
        deal_unseen(tmp, 0, nh + nd, r)
        for i in range(nh):
            st[hb + i] = tmp[i]
        for i in range(nd):
            st[db + i] = tmp[nh + i]


@jit(V(ST, ST, I, A1))
def known_pins(s0, st, p, pin):
    """Mark in ``pin`` (int64, ``PIN_SIZE``) the hidden cards of ``s0`` that player ``p`` has
    seen since: per player ``x`` of the duel (positions ``x * _TMP`` on), for each card of
    what ``p`` had not seen in ``s0`` (another player's hand then deck, ``p``'s own deck), 1 if
    it is no longer among those cards in ``st`` (drawn by ``p``, played, discarded, revealed),
    else 0. ``s0``: a position; ``st``: the same game later in the same action."""
    for x in range(s0[G_NPLAYERS]):
        nh0 = 0 if x == p else s0[pslot(x, P_HANDN)]
        nd0 = s0[pslot(x, P_DECKN)]
        nh1 = 0 if x == p else st[pslot(x, P_HANDN)]
        nd1 = st[pslot(x, P_DECKN)]
        hb = pile_base(PILE_HAND, x)
        db = pile_base(PILE_DECK, x)
        for i in range(nh0 + nd0):
            c = s0[hb + i] if i < nh0 else s0[db + i - nh0]
            found = False
            for k in range(nh1):
                if st[hb + k] == c:
                    found = True
            for k in range(nd1):
                if st[db + k] == c:
                    found = True
            pin[x * _TMP + i] = 0 if found else 1


@jit(V(ST, I, A1, A1, A1))
def determinize_pinned(st, p, r, tmp, pin):
    """:func:`determinize`, except the cards marked in ``pin`` (:func:`known_pins`), which keep
    their places: the cards ``p`` has seen since ``st`` stay as they were, the rest are dealt
    again among the other places (the same stream ``r`` draws as :func:`determinize` when
    nothing is pinned)."""
    for x in range(st[G_NPLAYERS]):
        nh = 0 if x == p else st[pslot(x, P_HANDN)]
        nd = st[pslot(x, P_DECKN)]
        hb = pile_base(PILE_HAND, x)
        db = pile_base(PILE_DECK, x)
        m = 0
        for i in range(nh + nd):
            if pin[x * _TMP + i] == 0:
                tmp[m] = st[hb + i] if i < nh else st[db + i - nh]
                m += 1
        deal_unseen(tmp, 0, m, r)
        k = 0
        for i in range(nh + nd):
            if pin[x * _TMP + i] == 0:
                if i < nh:
                    st[hb + i] = tmp[k]
                else:
                    st[db + i - nh] = tmp[k]
                k += 1


@jit(I(ST, TB, A1, I, I, I))
def best_attack_card(st, tb, cards, n, a, first):
    """Index in ``cards[first:n]`` of the card of highest printed value that fighter ``a``
    may attack with (an attack or versatile card it may play; ties: the first); -1 if none."""
    best = -1
    for i in range(first, n):
        c = cards[i]
        ty = tb.cards[c, C_TYPE]
        if ((ty == CT_ATTACK or ty == CT_VERSATILE) and can_play(st, tb, c, a)
                and (best < 0 or tb.cards[c, C_VALUE] > tb.cards[cards[best], C_VALUE])):
            best = i
    return best


@jit(V(ST, TB, A1, A1))
def deal_attack(st, tb, r, tmp):
    """Deal the face-down cards of the combat open in ``st`` (an attack at its defense card)
    again, as the defender sees them (stream ``r``; ``tmp``: int64 scratch of 2 * MAX_CARDS).

    The attack card (and King Arthur's face-down BOOST) go back among the attacker's hand and
    deck; a hand one card larger (two with the BOOST) is dealt from them at random, again
    until it holds a card the attacking fighter may attack with (at most ``_DEAL_TRIES``
    deals; then the best such card of the rest is swapped in); the attack card is its best such
    card by printed value (the attacker's likely card, as the standard AI's defense score
    assumes), the BOOST a random other card of it, the rest the hand and the deck (the same
    sizes). The attack card's per-card play count (``OFF_PLAYED``) moves with it. The rules
    of play: both combat cards are chosen face down and revealed together (Battle of Legends
    Vol. 1, "Combat and damage")."""
    o = OFF_CB
    p = st[o + CB_ATT_P]
    a = st[o + CB_ATT_F]
    boosted = st[o + CB_ABOOST] >= 0
    nh = st[pslot(p, P_HANDN)]
    nd = st[pslot(p, P_DECKN)]
    hb = pile_base(PILE_HAND, p)
    db = pile_base(PILE_DECK, p)
    played = OFF_PLAYED + p * MAX_HERO_CARDS
    st[played + tb.cards[st[o + CB_CARD0], C_LOCAL]] -= 1
    n = 0
    for i in range(nh):
        tmp[n] = st[hb + i]
        n += 1
    for i in range(nd):
        tmp[n] = st[db + i]
        n += 1
    tmp[n] = st[o + CB_CARD0]
    n += 1
    if boosted:
        tmp[n] = st[o + CB_ABOOST]
        n += 1
    dealt = nh + (2 if boosted else 1)
    best = -1
    for _t in range(_DEAL_TRIES):
        deal_unseen(tmp, 0, n, r)
        best = best_attack_card(st, tb, tmp, dealt, a, 0)
        if best >= 0:
            break
    if best < 0:   # (unlikely hands: the best card of the rest of the pool it may attack with, into the hand)
        i = best_attack_card(st, tb, tmp, n, a, dealt)
        best = dealt - 1
        if i >= 0:   # (always: the real attack card is among them)
            x = tmp[i]
            tmp[i] = tmp[best]
            tmp[best] = x
    card = tmp[best]
    tmp[best] = tmp[dealt - 1]   # the rest of the dealt hand keeps its random order
    st[o + CB_CARD0] = card
    st[played + tb.cards[card, C_LOCAL]] += 1
    if boosted:
        st[o + CB_ABOOST] = tmp[dealt - 2]
    for i in range(nh):
        st[hb + i] = tmp[i]
    for i in range(nd):
        st[db + i] = tmp[dealt + i]


@jit(F(F, F, F, F))
def health_worth(h, m, a, b):
    """Worth of ``h`` health of ``m``: the sum over each health point ``x`` of ``a + b (1 - x / m)``,
    the per-damage worth the standard AI gives damage (more as the health falls)."""
    if h <= 0.0 or m <= 0.0:
        return 0.0
    return h * a + b * (h - h * (h + 1.0) / (2.0 * m))


@jit(F(ST, CTL, I))
def evaluate(st, ctl, p):
    """Static worth of the position to player ``p`` (points, the standard AI's weights of
    ``p``): ``win`` for a won game, ``-win`` for a lost one, 0 for a draw; else the health of
    ``p``'s fighters not defeated (on the board or off it, as after Vanish) (``hp_own``, ``hp_own_low``; sidekicks ``hp_sidekick`` + ``lose_sidekick``)
    minus the opposing fighters' (``dmg_hero``, ``hero_low``; ``dmg_sidekick`` + ``kill_sidekick``),
    plus ``eval_card`` per card in ``p``'s hand more than the opponents'."""
    tm = team_of(st, p)
    if st[G_OVER] != 0:
        w = st[G_WINNER]
        if w == TURN_CAP_WINNER or w < 0:
            return 0.0
        return wv(ctl, p, W_WIN) if w == tm else -wv(ctl, p, W_WIN)
    v = 0.0
    for f in range(st[G_NPLAYERS] * FIGHTERS_PER_PLAYER):
        status = st[fslot(f, F_STATUS)]
        if st[fslot(f, F_MAXHP)] <= 0 or status == FS_UNUSED:
            continue
        alive = status != FS_DEFEATED   # (off the board, e.g. after Vanish, is not defeated)
        hp = float(st[fslot(f, F_HP)]) if alive else 0.0
        mx = float(st[fslot(f, F_MAXHP)])
        own = team_of(st, st[fslot(f, F_OWNER)]) == tm
        if st[fslot(f, F_KIND)] == 0:
            if own:
                v += health_worth(hp, mx, wv(ctl, p, W_HP_OWN), wv(ctl, p, W_HP_LOW))
            else:
                v -= health_worth(hp, mx, wv(ctl, p, W_DMG_HERO), wv(ctl, p, W_HERO_LOW))
        elif own:
            v += hp * wv(ctl, p, W_HP_SK) + (wv(ctl, p, W_LOSE_SK) if alive else 0.0)
        else:
            v -= hp * wv(ctl, p, W_DMG_SK) + (wv(ctl, p, W_KILL_SK) if alive else 0.0)
    for q in range(st[G_NPLAYERS]):
        k = wv(ctl, p, W_EVAL_CARD) * st[pslot(q, P_HANDN)]
        v += k if team_of(st, q) == tm else -k
    return v


@jit(V(ST, ST, I, CTL))
def start_copy(w2, wst, seed, wctl):
    """``w2``: the determinization ``wst`` about to play on, with its own generator seeded
    from ``seed`` (the same for every candidate of a determinization), no log, and the
    rollout policy's plans forgotten."""
    copy_into(w2, wst, STATE_SIZE)
    rng_seed(w2, seed)
    w2[G_LOGN] = 0
    reset_plans(wctl)


@jit(types.UniTuple(I, 3)(CTL, I))
def budget(ctl, p):
    """(samples, candidates, horizon) of expert player ``p``'s profile, rounded and kept
    within 1..MAX_SAMPLES, 1..MAX_CANDIDATES and >= 0."""
    return (max(1, min(MAX_SAMPLES, int(wv(ctl, p, W_SEARCH_SAMPLES) + 0.5))),
            max(1, min(MAX_CANDIDATES, int(wv(ctl, p, W_SEARCH_CANDIDATES) + 0.5))),
            max(0, int(wv(ctl, p, W_SEARCH_HORIZON) + 0.5)))


@jit(F(ST, TB, CTL, LOG, I, I, I, CTL))
def play_out(w2, tb, wctl, nolog, mover, p, horizon, ctl):
    """Play the copy ``w2`` on from between two of ``mover``'s actions (the rest of the turn,
    then ``horizon`` turns) with ``wctl``'s policies; its :func:`evaluate` for ``p`` (``ctl``'s weights)."""
    finish_turn(w2, tb, wctl, nolog, mover)
    for _h in range(horizon):
        if w2[G_OVER] != 0:
            break
        take_turn(w2, tb, wctl, nolog)
    return evaluate(w2, ctl, p)


@jit(V(CTL, A1, I, I))
def rollout_control(wctl, ctl, nplayers, p):
    """``wctl``: ``ctl``'s first part (weights, rules of play) with every player on the standard
    AI and no presets: the policy of the copies the search plays on. The standard AI of the
    searching player ``p``'s release: ``MODE_STANDARD02`` for the frozen ``expert-0.2``."""
    copy_into(wctl, ctl, CTL_SCRATCH)   # (the AI's work space after it is written before it is read)
    for i in range(SCR_PRICE, SCR_PRICE + N_PRICE):   # except the prices: the game's, as last set
        wctl[i] = ctl[i]
    roll = MODE_STANDARD02 if ctl[CTL_MODE0 + p] == MODE_EXPERT02 else MODE_STANDARD
    for q in range(nplayers):
        wctl[CTL_MODE0 + q] = roll
    for k in range(N_DECISIONS):
        wctl[CTL_PRESET + k] = 0
    rp_off(wctl)   # (the real game's replay search: not the copies')


@jit(I(ST, I))
def search_seed(st, p):
    """Start of the search's random stream for player ``p`` now: from the game seed, the
    turn and the action (public), never from the game's own generator."""
    return mix32(st[G_SEED] ^ mix32((st[G_TURN] * 64 + st[G_ACTION_NO]) * 4 + p)) | 1


