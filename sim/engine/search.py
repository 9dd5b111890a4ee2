"""The expert AI: determinized Monte Carlo lookahead at each action decision and defense card.

In a duel with a player in ``MODE_EXPERT`` (or ``MODE_EXPERT02``) the turns go through
:func:`expert_turn`. At each of an expert player's action decisions with two or more legal
actions it

1. scores every legal action as the standard AI does and keeps the best
   ``search_candidates`` (ties: the order of the options);
2. draws ``search_samples`` determinizations: the cards it has not seen (the opponent's
   hand and deck together, and its own deck) dealt again at random, in the same numbers,
   from the same cards; nothing else of the position is hidden at an action decision;
3. plays every candidate forward in every determinization with the standard AI on both
   sides (each player's own weights), with the same random numbers for every candidate
   of one determinization (common random numbers): the rest of this turn, then
   ``search_horizon`` more turns (1: to the end of the opponent's next turn);
4. scores each end position with :func:`evaluate` and takes the candidate with the best
   mean (ties: the better standard score).

The start of an expert player's turn is searched the same way when it asks a "may" (Jekyll's
transformation, Medusa's gaze): both answers are played out (:func:`search_start`).

The defense card of an ``expert`` player (not ``expert-0.2``) is searched the same way
(:func:`search_defense`): the standard AI's best few defense options (a card or none), each
played out from the defense decision, the rest of the attacker's turn, then
``search_horizon`` turns; the determinization also deals the attacker's face-down cards
again (:func:`deal_attack`). Every other decision of an expert player (BOOST, destinations,
effect choices) is the standard AI's; the standard AI plans a maneuver's moves when it scores
the actions, so the maneuver a search picks moves where the standard plan puts it.

**Where the search resumes.** The engine asks decisions from inside nested rule calls, so
a copied state cannot resume at just any decision. It can where the rest of the rules read
everything from the state array:

* between two actions (the turn's loop holds only the player): the search copies the state
  there, applies a candidate with :func:`sim.engine.rules.do_action` and continues the copy
  with :func:`sim.engine.rules.finish_turn` and ``take_turn``;
* at an attack action's defense card: the rules split the action there
  (:func:`sim.engine.rules.start_action` up to the defense card, ``end_action`` from it),
  and the open combat is in the state (``OFF_CB``: the fighters, the face-down cards), so a
  copy resumes with ``end_action`` and the candidate card. The turns of a duel with an
  ``expert`` player go through :func:`expert_turn`, which plays each action that way
  (:func:`play_action`). An attack made by a card's effect, inside another action, is not
  searched (the standard AI defends).

Replaying from the start of the action with a preset script of the choices made so far
would also reach any decision, but each sample would replay the action, and the replay's
first choices (the attack card) are exactly what the defender may not know.

**No peeking.** The determinizations are drawn from the multiset of the unseen cards,
sorted before it is shuffled (at a defense card the attacker's face-down attack card and
BOOST are among them: cards are chosen face down and revealed together), so they do not
depend on how the real cards lie; the search's random stream derives from the game seed,
the turn, the action, the player and the decision kind (never from the game's own
generator, whose state would tell the real deck order), and each copy plays on with a
generator seeded from that stream. A game stays seed-exact, and the game's
own generator is untouched, so paired games still share their shuffles.
"""
import numpy as np
from numba import types

from .sigs import A1, B, CTL, F, f64_view, FA1, I, jit, LOG, ST, stack_i64, TB, V
from .codes import (
    CT_ATTACK, CT_VERSATILE, D_ACTION, D_DEFENSE, D_MAY, FS_DEFEATED, FS_UNUSED, MODE_EXPERT, MODE_EXPERT02,
    MODE_STANDARD, MODE_STANDARD02, PILE_DECK, PILE_HAND, TURN_CAP_WINNER,
)
from .control import (
    CTL_CTX_OP, CTL_MODE0, CTL_PRESET, CTL_SCRATCH, CTL_SIZE,
    EXPLAIN_TOP, N_DECISIONS, N_PRICE, SCR_PRICE, SCR_SCORES,
)
from .core import can_play, mix32, pile_base, rng_seed, team_of
from .layout import (
    ACTION_OPTS, C_LOCAL, C_TYPE, C_VALUE, CARD_OPTS, CB_ABOOST, CB_ATT_F, CB_ATT_P, CB_CARD0, CB_DEF_P,
    F_HP, F_KIND, F_MAXHP, F_OWNER, F_STATUS, FIGHTERS_PER_PLAYER, fslot, G_ACTION_NO, G_ACTIVE,
    G_DECISIONS, G_LOGN, G_NPLAYERS, G_OVER, G_SEED, G_TURN, G_WINNER, MAX_CARDS, MAX_HERO_CARDS, OFF_CB,
    OFF_PLAYED, P_DECKN, P_HANDN, pslot, STATE_SIZE,
)
from .rules import (
    action_due, begin_turn, defend, do_action, end_action, end_of_turn, finish_turn, legal_actions, start_action,
    take_turn,
)
from .policy import decide
from .ai.choices import score_actions
from .ai.decide import ai_scores, explain_record
from .ai.position import reset_plans
from .ai.weights import (
    scratch_f1, W_DMG_HERO, W_DMG_SK, W_EVAL_CARD, W_HERO_LOW, W_HP_LOW, W_HP_OWN, W_HP_SK, W_KILL_SK,
    W_LOSE_SK, W_SEARCH_CANDIDATES, W_SEARCH_HORIZON, W_SEARCH_SAMPLES, W_WIN, wv,
)

MAX_CANDIDATES = 16    # most candidate actions a profile may ask for (profiles check it)
MAX_SAMPLES = 256      # most determinizations per decision
_FBUF = 4 * MAX_CANDIDATES   # float work space of search_options: sums, squares, means, errors
_DEAL_TRIES = 16             # deal_attack's deals of a hand holding a card the attacker may attack with
_TMP = 2 * MAX_CARDS         # determinize's work space: one opponent's hand and deck


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


@jit(I(FA1, I, A1, I))
def top_candidates(scores, n, out, c):
    """Indices of the ``c`` best ``scores[:n]`` (best first, ties: lower index) in ``out``; returns how many."""
    k = 0
    for i in range(n):
        j = k
        while j > 0 and scores[out[j - 1]] < scores[i]:
            j -= 1
        if j >= c:
            continue
        last = k if k < c else c - 1
        for r in range(last, j, -1):
            out[r] = out[r - 1]
        out[j] = i
        if k < c:
            k += 1
    return k


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


@jit(I(ST, I))
def search_seed(st, p):
    """Start of the search's random stream for player ``p`` now: from the game seed, the
    turn and the action (public), never from the game's own generator."""
    return mix32(st[G_SEED] ^ mix32((st[G_TURN] * 64 + st[G_ACTION_NO]) * 4 + p)) | 1


@jit(I(ST, TB, CTL, I, A1, A1, A1, LOG))
def search_start(st, tb, ctl, p, wst, w2, wctl, nolog):
    """The start-of-turn "may" of expert player ``p`` (Jekyll's transformation, Medusa's
    gaze): 1 to do it, 0 not to, by the same lookahead as :func:`search_action` (each
    choice's turn played out, then ``search_horizon`` turns); -1 if the start of this turn
    asks no "may" (found by playing it in a copy). Call before ``begin_turn``."""
    samples, _, horizon = budget(ctl, p)
    rollout_control(wctl, ctl, st[G_NPLAYERS], p)
    r = stack_i64(1)
    r[0] = search_seed(st, p) ^ 0x5bd1e995
    tmp = stack_i64(_TMP)
    copy_into(wst, st, STATE_SIZE)
    determinize(wst, p, r, tmp)
    copy_into(w2, wst, STATE_SIZE)
    reset_plans(wctl)
    wctl[CTL_PRESET + D_MAY] = 1 + 2
    begin_turn(w2, tb, wctl, nolog)
    if wctl[CTL_PRESET + D_MAY] != 0:   # the preset was not used: no "may" at this start
        wctl[CTL_PRESET + D_MAY] = 0
        return -1
    tot0 = 0.0
    tot1 = 0.0
    for k in range(samples):
        if k > 0:
            copy_into(wst, st, STATE_SIZE)
            determinize(wst, p, r, tmp)
        seed = srng_next(r)
        for yes in range(2):
            start_copy(w2, wst, seed, wctl)
            wctl[CTL_PRESET + D_MAY] = yes + 2
            q = begin_turn(w2, tb, wctl, nolog)
            wctl[CTL_PRESET + D_MAY] = 0
            v = play_out(w2, tb, wctl, nolog, q, q, horizon, ctl)
            if yes == 1:
                tot1 += v
            else:
                tot0 += v
    return 1 if tot1 >= tot0 else 0


@jit(V(CTL, I, I, I, I, A1, A1, I, FA1, FA1, I))
def explain_search(ctl, logn, kind, p, n, opts, cand, nc, mean, se, samples):
    """Record a search of decision ``kind`` in the explain buffer (if ``ctl`` has one): the
    candidates best first, each with its mean value and standard error (x 1000), and the samples."""
    base = explain_record(ctl, logn, kind, p, n, samples)
    if base < 0:
        return
    order = stack_i64(MAX_CANDIDATES)
    for j in range(nc):
        order[j] = j
    for j in range(1, nc):   # best mean first (stable)
        x = order[j]
        i = j - 1
        while i >= 0 and mean[order[i]] < mean[x]:
            order[i + 1] = order[i]
            i -= 1
        order[i + 1] = x
    shown = min(nc, EXPLAIN_TOP)
    for r in range(shown):
        j = order[r]
        ctl[base + 6 + 3 * r] = opts[cand[j]]
        ctl[base + 7 + 3 * r] = int(mean[j] * 1000.0)
        ctl[base + 8 + 3 * r] = int(se[j] * 1000.0)
    ctl[base + 4] = shown


@jit(I(ST, TB, CTL, I, I, A1, I, FA1, A1, A1, A1, LOG))
def search_options(st, tb, ctl, kind, p, opts, n, scores, wst, w2, wctl, nolog):
    """Index (0..n-1) of the option player ``p`` takes among ``opts[:n]`` at decision ``kind``
    by determinized lookahead (module docstring), ``scores[:n]`` (float64) being the standard
    AI's scores of them: its best ``search_candidates`` are played out.

    ``kind``: ``D_ACTION`` (``st`` between two of ``p``'s actions, the options packed actions)
    or ``D_DEFENSE`` (``st`` at the defense card of an attack on ``p``'s fighter, stopped by
    :func:`sim.engine.rules.start_action`; the options card ids or -1). ``wst``, ``w2``: int64
    (STATE_SIZE,) work states; ``wctl``: int64 (CTL_SIZE,) work control array (its first part
    is overwritten with ``ctl``'s); ``nolog``: a log with 0 rows. Reads the real state only for
    what ``p`` may know (see :func:`determinize`, :func:`deal_attack`).
    """
    samples, c, horizon = budget(ctl, p)
    cand = stack_i64(MAX_CANDIDATES)
    nc = top_candidates(scores, n, cand, c)
    if nc == 1:
        return cand[0]
    rollout_control(wctl, ctl, st[G_NPLAYERS], p)
    r = stack_i64(1)
    r[0] = search_seed(st, p) ^ (kind << 1)   # (still odd; D_ACTION's stream is release 0.2's)
    mover = p if kind == D_ACTION else st[G_ACTIVE]
    tmp = stack_i64(_TMP)
    fbuf = stack_i64(_FBUF)
    tot = f64_view(fbuf, 0, MAX_CANDIDATES)
    sq = f64_view(fbuf, MAX_CANDIDATES, MAX_CANDIDATES)
    mean = f64_view(fbuf, 2 * MAX_CANDIDATES, MAX_CANDIDATES)
    se = f64_view(fbuf, 3 * MAX_CANDIDATES, MAX_CANDIDATES)
    for j in range(nc):
        tot[j] = 0.0
        sq[j] = 0.0
    for _k in range(samples):
        copy_into(wst, st, STATE_SIZE)
        determinize(wst, p, r, tmp)
        if kind == D_DEFENSE:
            deal_attack(wst, tb, r, tmp)
        seed = srng_next(r)
        for j in range(nc):
            start_copy(w2, wst, seed, wctl)
            if kind == D_DEFENSE:
                end_action(w2, tb, wctl, nolog, opts[cand[j]])
            else:
                do_action(w2, tb, wctl, nolog, p, opts[cand[j]])
            v = play_out(w2, tb, wctl, nolog, mover, p, horizon, ctl)
            tot[j] += v
            sq[j] += v * v
    best = 0
    for j in range(nc):
        mean[j] = tot[j] / samples
        var = sq[j] / samples - mean[j] * mean[j]
        se[j] = np.sqrt(max(var, 0.0) / samples) if samples > 1 else 0.0
        if mean[j] > mean[best]:
            best = j
    explain_search(ctl, st[G_LOGN], kind, p, n, opts, cand, nc, mean, se, samples)
    return cand[best]


@jit(I(ST, TB, CTL, I, A1, I, A1, A1, A1, LOG))
def search_action(st, tb, ctl, p, opts, n, wst, w2, wctl, nolog):
    """Index (0..n-1) of the action the expert player ``p`` takes among ``opts[:n]``
    (packed actions, ``n`` >= 2), by :func:`search_options` over the standard AI's action
    scores. Arrays as :func:`search_options`'s."""
    scores = scratch_f1(ctl, SCR_SCORES, n)
    for j in range(n):
        scores[j] = 0.0
    score_actions(st, tb, ctl, p, opts, n, scores)   # (also leaves the standard maneuver plan in ctl)
    return search_options(st, tb, ctl, D_ACTION, p, opts, n, scores, wst, w2, wctl, nolog)


@jit(I(ST, TB, CTL, I, A1, I, A1, A1, A1, LOG))
def search_defense(st, tb, ctl, q, opts, n, wst, w2, wctl, nolog):
    """Index (0..n-1) of the defense card (``opts[:n]``: card ids, -1 for none; ``n`` >= 2)
    the expert player ``q`` plays at the open combat of ``st`` (an attack action stopped at
    its defense card by :func:`sim.engine.rules.start_action`), by :func:`search_options` over
    the standard AI's defense scores. The attack card is not read: it is dealt again with the
    attacker's unseen cards (:func:`deal_attack`). Arrays as :func:`search_options`'s."""
    scores = scratch_f1(ctl, SCR_SCORES, n)
    ai_scores(st, tb, ctl, D_DEFENSE, q, opts, n, scores)
    return search_options(st, tb, ctl, D_DEFENSE, q, opts, n, scores, wst, w2, wctl, nolog)


@jit(B(ST, CTL, I))
def searches_defense(st, ctl, q):
    """Player ``q`` plays ``expert`` or ``expert-deep`` (not the frozen ``expert-0.2``) in a
    duel: the defense cards of its fighters are searched."""
    return st[G_NPLAYERS] == 2 and ctl[CTL_MODE0 + q] == MODE_EXPERT


@jit(V(ST, TB, CTL, LOG, I, I, A1, A1, A1, LOG))
def play_action(st, tb, ctl, log, p, action, wst, w2, wctl, nolog):
    """:func:`sim.engine.rules.do_action` for player ``p``, an attack's defense card picked by
    :func:`search_defense` when the defender searches it (:func:`searches_defense`), has two
    or more options and no scenario preset fixes it; else by ``decide``. Arrays as
    :func:`search_options`'s."""
    dopts = stack_i64(CARD_OPTS)
    n = start_action(st, tb, ctl, log, p, action, dopts)
    if n == 0:
        return
    q = st[OFF_CB + CB_DEF_P]
    if n >= 2 and searches_defense(st, ctl, q) and ctl[CTL_PRESET + D_DEFENSE] == 0 and st[G_OVER] == 0:
        st[G_DECISIONS] += 1   # (counted as decide counts the others)
        d = dopts[search_defense(st, tb, ctl, q, dopts, n, wst, w2, wctl, nolog)]
    else:
        d = defend(st, tb, ctl, dopts, n)
    end_action(st, tb, ctl, log, d)


@jit(B(ST, CTL))
def expert_to_move(st, ctl):
    """The active player plays the expert AI (or ``expert-0.2``) and the game is a duel (team
    games: standard)."""
    m = ctl[CTL_MODE0 + st[G_ACTIVE]]
    return (m == MODE_EXPERT or m == MODE_EXPERT02) and st[G_NPLAYERS] == 2


@jit(V(ST, TB, CTL, LOG))
def expert_turn(st, tb, ctl, log):
    """:func:`sim.engine.rules.take_turn` in a duel with an expert player: the same turn, with
    the active player's start-of-turn "may" (:func:`search_start`) and each action with two
    or more legal choices (:func:`search_action`) searched if it plays the expert AI (unless a
    scenario preset fixes them), each action played by :func:`play_action` (an expert
    defender's card searched), every other decision by ``decide``."""
    wst = np.empty(STATE_SIZE, np.int64)
    w2 = np.empty(STATE_SIZE, np.int64)
    wctl = np.empty(CTL_SIZE, np.int64)
    nolog = np.zeros((0, 6), np.int64)
    searching = expert_to_move(st, ctl)
    may = -1
    if searching and ctl[CTL_PRESET + D_MAY] == 0 and st[G_OVER] == 0:
        may = search_start(st, tb, ctl, st[G_ACTIVE], wst, w2, wctl, nolog)
        if may >= 0:
            ctl[CTL_PRESET + D_MAY] = may + 2   # (the first "may" of the turn's start takes it)
    p = begin_turn(st, tb, ctl, log)
    if may >= 0:
        ctl[CTL_PRESET + D_MAY] = 0
    opts = stack_i64(ACTION_OPTS)
    while action_due(st, p):
        n = legal_actions(st, tb, p, opts)
        ctl[CTL_CTX_OP] = -1
        if searching and n >= 2 and ctl[CTL_PRESET + D_ACTION] == 0 and st[G_OVER] == 0:
            st[G_DECISIONS] += 1   # (counted as decide counts the others)
            i = search_action(st, tb, ctl, p, opts, n, wst, w2, wctl, nolog)
        else:
            i = decide(st, tb, ctl, D_ACTION, p, opts, n)
        play_action(st, tb, ctl, log, p, opts[i], wst, w2, wctl, nolog)
    if st[G_OVER] == 0:
        end_of_turn(st, tb, ctl, log, p)


@jit(V(ST, TB, CTL, LOG))
def play_turn(st, tb, ctl, log):
    """One turn of the active player: :func:`expert_turn` in a duel where the active player
    plays the expert AI or the other one searches its defense cards, else
    :func:`sim.engine.rules.take_turn`."""
    if expert_to_move(st, ctl) or searches_defense(st, ctl, 1 - st[G_ACTIVE]):
        expert_turn(st, tb, ctl, log)
    else:
        take_turn(st, tb, ctl, log)
