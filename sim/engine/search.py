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
again (:func:`deal_attack`).

With ``search_choices`` 1 (``expert``, ``expert-deep``) its decisions inside an action, its
own or the opponent's, are searched too (:func:`search_replay`): a maneuver's BOOST, King
Arthur's face-down BOOST, "you may BOOST", a discard or a card taken by an effect, an effect's
target or place, a "may", a "choose" option, a named value, a card forced on the opponent, a
fog token's destination; with 2 also each move's destination (``D_MOVE_DEST``,
``D_MOVE_STEP``). Its moves otherwise follow the standard AI's maneuver plan, made when it
scores the actions, and the hand limit (outside any action) is the standard AI's.

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

* anywhere inside an action (:func:`play_action`, the replay search): the action is played
  with every decision recorded; an expert's decision of a searched kind stops it
  (``policy.replay_decide``: ``G_OVER`` with ``ERR_PROBE``, unwound as a scripted failure
  is); the position goes back to the copy made before the action, and each candidate is
  played in copies of that position: the action again from its start, the decisions made so
  far forced, the candidate, then the standard AI. The real action is then played again
  with the chosen option forced, until it ends with no stop. A copy replays the game's own
  generator up to the decision (the random draws the decider saw happen again) and the
  search's stream after it. The determinization is the decider's at the decision, not at
  the action's start: the cards it has seen since (drawn, played, revealed, discarded) keep
  their places (:func:`known_pins`), the rest are dealt again, and a deal in which a forced
  decision is not legal is drawn again (the cards the opponent chose face down must fit).
  Making every rule call resumable at any decision would avoid replaying the action's start,
  but an action is short (a few decisions) against the turns a sample plays out.

**No peeking.** The determinizations are drawn from the multiset of the unseen cards,
sorted before it is shuffled (at a defense card the attacker's face-down attack card and
BOOST are among them: cards are chosen face down and revealed together), so they do not
depend on how the real cards lie; the search's random stream derives from the game seed,
the turn, the action, the player and the decision kind (never from the game's own
generator, whose state would tell the real deck order; a replayed action's copy uses it only
up to the decision searched, to draw again what the decider saw drawn), and each copy plays
on with a generator seeded from that stream. A game stays seed-exact, and the game's
own generator is untouched, so paired games still share their shuffles.
"""
import numpy as np

from .sigs import A1, B, CTL, f64_view, FA1, I, jit, LOG, ST, stack_i64, TB, V
from .codes import D_ACTION, D_DEFENSE, D_MAY, MODE_EXPERT, MODE_EXPERT02, MODE_SCRIPT
from .control import (
    CTL_CTX_OP, CTL_MODE0, CTL_PRESET, CTL_RP_CAND, CTL_RP_HIT, CTL_RP_HIT_P, CTL_RP_LIST, CTL_RP_LOGN, CTL_RP_N,
    CTL_RP_NCAND,
    CTL_RP_ON, CTL_RP_POS, CTL_RP_PROBE, CTL_RP_REC, CTL_RP_SEED, CTL_SIZE, EXPLAIN_TOP, MAX_RP, MAX_RP_CAND,
    N_DECISIONS, SCR_SCORES,
)
from .layout import (
    ACTION_OPTS, CARD_OPTS, CB_DEF_P, G_ACTIVE, G_DECISIONS, G_ERR, G_LOGN, G_NPLAYERS, G_OVER, OFF_CB, STATE_SIZE,
)
from .rules import action_due, begin_turn, defend, do_action, end_action, end_of_turn, legal_actions, start_action, take_turn
from .policy import decide, rp_append, rp_off, top_candidates
from .ai.choices import score_actions
from .ai.decide import ai_scores, explain_record
from .ai.position import reset_plans
from .capture import capture_begin, capture_drop, capture_end, played
from .ai.weights import scratch_f1, W_SEARCH_CHOICES, wv
from .sampling import (  # noqa: F401  (re-exported: the expert's tests and tools import them from here)
    _FBUF, _TMP, best_attack_card, budget, copy_into, deal_attack, deal_unseen, determinize, determinize_pinned,
    evaluate, health_worth, known_pins, MAX_CANDIDATES, MAX_SAMPLES, PIN_SIZE, play_out, rollout_control,
    search_seed, srng_next, start_copy,
)

_FBUF_R = 7 * MAX_CANDIDATES  # search_replay's: search_options', each candidate's value in one sample, and the
                              # sums and squares of its difference from the standard AI's best
_MARGIN_Z = 2.0               # search_replay leaves the standard AI's best only for a candidate better by this
                              # many standard errors of the paired difference


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


@jit(V(CTL, I, I, I, I, A1, A1, I, FA1, FA1, I, I))
def explain_search(ctl, logn, kind, p, n, opts, cand, nc, mean, se, samples, chosen):
    """Record a search of decision ``kind`` in the explain buffer (if ``ctl`` has one): the
    candidate taken (``chosen``, an index into ``cand``) first, then the others best mean
    first, each with its mean value and standard error (x 1000), and the samples."""
    base = explain_record(ctl, logn, kind, p, n, samples)
    if base < 0:
        return
    order = stack_i64(MAX_CANDIDATES)
    order[0] = chosen
    k = 1
    for j in range(nc):
        if j != chosen:
            order[k] = j
            k += 1
    for j in range(2, nc):   # the others: best mean first (stable)
        x = order[j]
        i = j - 1
        while i >= 1 and mean[order[i]] < mean[x]:
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
    capture_begin(st, ctl, kind, p, opts, n)
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
    explain_search(ctl, st[G_LOGN], kind, p, n, opts, cand, nc, mean, se, samples, best)
    cvals = stack_i64(MAX_CANDIDATES)
    for j in range(nc):
        cvals[j] = opts[cand[j]]
    capture_end(ctl, cvals, nc, mean, se, samples, best)
    return cand[played(ctl, best)]


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


@jit(I(ST, ST, TB, CTL, I, I, A1, A1, A1, LOG, A1))
def search_replay(st, s0, tb, ctl, mover, action, wst, w2, wctl, nolog, pin):
    """The option an expert player takes at a decision asked inside an action, by the replay
    search: value (not index) among the candidates the probe left in ``ctl``
    (``CTL_RP_CAND``, the standard AI's best first; ``policy.replay_decide``).

    ``st``: the action of player ``mover`` (packed ``action``) stopped at the decision;
    ``s0``: the position before the action; ``ctl[CTL_RP_LIST]``: the action's decisions
    before this one. In each of ``search_samples`` determinizations of ``s0`` as the deciding
    player sees the decision (:func:`determinize_pinned`: the cards it has seen since ``s0``
    keep their places), each of the best ``search_candidates`` is played: the action again
    from its start, its decisions so far forced, then the candidate, then the standard AI on
    both sides (the game's own generator up to the candidate, which replays the random draws
    seen, then the search's), the rest of the turn and ``search_horizon`` turns, scored by
    :func:`evaluate`. Halfway through the samples (4 or more), a candidate that has not done
    better than the standard AI's best over the same samples is dropped, and if none is left
    the search stops there (most choices: the standard AI's best is kept at half the cost).
    The best mean then wins if it beats the standard AI's best by more than ``_MARGIN_Z``
    standard errors of their paired difference (the same determinizations and random
    numbers), else the standard AI's best stays. A determinization
    in which a decision made so far is not legal (hidden cards that do not fit what was seen)
    is drawn again, at most ``2 x search_samples`` draws; none fitting: the standard AI's best.
    Arrays as :func:`search_options`'s; ``pin``: int64 (``PIN_SIZE``,) work space."""
    kind = ctl[CTL_RP_HIT] - 1
    q = ctl[CTL_RP_HIT_P]
    samples, c, horizon = budget(ctl, q)
    nc = min(c, ctl[CTL_RP_NCAND])
    if nc <= 1:
        capture_drop(ctl)
        return ctl[CTL_RP_CAND]
    m = ctl[CTL_RP_N]
    known_pins(s0, st, q, pin)
    rollout_control(wctl, ctl, st[G_NPLAYERS], q)
    r = stack_i64(1)
    r[0] = search_seed(s0, q) ^ ((kind << 1) | (m << 6))   # (stays odd)
    tmp = stack_i64(_TMP)
    fbuf = stack_i64(_FBUF_R)
    tot = f64_view(fbuf, 0, MAX_CANDIDATES)
    sq = f64_view(fbuf, MAX_CANDIDATES, MAX_CANDIDATES)
    mean = f64_view(fbuf, 2 * MAX_CANDIDATES, MAX_CANDIDATES)
    se = f64_view(fbuf, 3 * MAX_CANDIDATES, MAX_CANDIDATES)
    vals = f64_view(fbuf, 4 * MAX_CANDIDATES, MAX_CANDIDATES)
    dsum = f64_view(fbuf, 5 * MAX_CANDIDATES, MAX_CANDIDATES)
    dsq = f64_view(fbuf, 6 * MAX_CANDIDATES, MAX_CANDIDATES)
    for j in range(nc):
        tot[j] = 0.0
        sq[j] = 0.0
        dsum[j] = 0.0
        dsq[j] = 0.0
    alive = stack_i64(MAX_CANDIDATES)
    for j in range(nc):
        alive[j] = 1
    half = (samples + 1) // 2
    valid = 0
    tries = 0
    while valid < samples and tries < 2 * samples:
        if valid == half and samples >= 4:   # halfway: only what beats the standard AI's best so far goes on
            left = 0
            for j in range(1, nc):
                if alive[j] != 0 and dsum[j] <= 0.0:
                    alive[j] = 0
                left += alive[j]
            if left == 0:
                break
        tries += 1
        copy_into(wst, s0, STATE_SIZE)
        determinize_pinned(wst, q, r, tmp, pin)
        seed = srng_next(r)
        ok = True
        for j in range(nc):
            if alive[j] == 0:
                continue
            copy_into(w2, wst, STATE_SIZE)
            w2[G_LOGN] = 0
            reset_plans(wctl)
            for i in range(2 * m):
                wctl[CTL_RP_LIST + i] = ctl[CTL_RP_LIST + i]
            wctl[CTL_RP_LIST + 2 * m] = kind
            wctl[CTL_RP_LIST + 2 * m + 1] = ctl[CTL_RP_CAND + j]
            wctl[CTL_RP_N] = m + 1
            wctl[CTL_RP_POS] = 0
            wctl[CTL_RP_SEED] = seed
            wctl[CTL_RP_ON] = 1
            do_action(w2, tb, wctl, nolog, mover, action)
            wctl[CTL_RP_ON] = 0
            if w2[G_ERR] != 0 or wctl[CTL_RP_POS] < m + 1:   # (the copy did not reach the decision)
                ok = False
                break
            vals[j] = play_out(w2, tb, wctl, nolog, mover, q, horizon, ctl)
        if not ok:
            continue
        valid += 1
        for j in range(nc):
            if alive[j] == 0:
                continue
            tot[j] += vals[j]
            sq[j] += vals[j] * vals[j]
            dv = vals[j] - vals[0]
            dsum[j] += dv
            dsq[j] += dv * dv
    wctl[CTL_RP_N] = 0
    if valid == 0:
        capture_drop(ctl)
        return ctl[CTL_RP_CAND]
    best = 0
    for j in range(nc):   # (a candidate left halfway: its mean over the first half)
        k = valid if alive[j] != 0 else half
        mean[j] = tot[j] / k
        var = sq[j] / k - mean[j] * mean[j]
        se[j] = np.sqrt(max(var, 0.0) / k) if k > 1 else 0.0
        if alive[j] != 0 and mean[j] > mean[best]:
            best = j
    if best != 0:   # (a choice inside an action often differs little: noise alone must not move it)
        dm = dsum[best] / valid
        dvar = dsq[best] / valid - dm * dm
        if valid < 2 or dm <= _MARGIN_Z * np.sqrt(max(dvar, 0.0) / valid):
            best = 0
    vals_i = stack_i64(MAX_RP_CAND)
    cand = stack_i64(MAX_RP_CAND)
    for j in range(nc):
        vals_i[j] = ctl[CTL_RP_CAND + j]
        cand[j] = j
    explain_search(ctl, ctl[CTL_RP_LOGN], kind, q, ctl[CTL_RP_NCAND], vals_i, cand, nc, mean, se, valid, best)
    capture_end(ctl, vals_i, nc, mean, se, valid, best)
    return ctl[CTL_RP_CAND + played(ctl, best)]


@jit(I(ST, CTL))
def replay_mask(st, ctl):
    """Players (a bit each) whose decisions inside an action the replay search takes in this
    duel (:func:`play_action`): ``expert`` players (not ``expert-0.2``) whose profile's
    ``search_choices`` is 1 or more; 0 (no replay) in a team game, with a scripted player, or
    with a scenario's preset."""
    if st[G_NPLAYERS] != 2:
        return 0
    for k in range(N_DECISIONS):
        if ctl[CTL_PRESET + k] != 0:
            return 0
    mask = 0
    for q in range(2):
        m = ctl[CTL_MODE0 + q]
        if m == MODE_SCRIPT:
            return 0
        if m == MODE_EXPERT and wv(ctl, q, W_SEARCH_CHOICES) >= 0.5:
            mask |= 1 << q
    return mask


@jit(V(ST, TB, CTL, LOG, I, I, A1, A1, A1, LOG))
def act(st, tb, ctl, log, p, action, wst, w2, wctl, nolog):
    """:func:`sim.engine.rules.do_action` for player ``p``, an attack's defense card picked by
    :func:`search_defense` when the defender searches it (:func:`searches_defense`), has two
    or more options and no scenario preset fixes it (while the replay search replays the
    action, the card it picked before); else by ``decide``. Arrays as :func:`search_options`'s."""
    dopts = stack_i64(CARD_OPTS)
    n = start_action(st, tb, ctl, log, p, action, dopts)
    if n == 0:
        return
    q = st[OFF_CB + CB_DEF_P]
    if n >= 2 and searches_defense(st, ctl, q) and ctl[CTL_PRESET + D_DEFENSE] == 0 and st[G_OVER] == 0:
        st[G_DECISIONS] += 1   # (counted as decide counts the others)
        pos = ctl[CTL_RP_POS]
        if ctl[CTL_RP_ON] != 0 and pos < ctl[CTL_RP_N]:
            ctl[CTL_RP_POS] = pos + 1
            d = ctl[CTL_RP_LIST + 2 * pos + 1]
        else:
            d = dopts[search_defense(st, tb, ctl, q, dopts, n, wst, w2, wctl, nolog)]
            if ctl[CTL_RP_ON] != 0:   # (recorded: the action may be played again)
                rp_append(ctl, D_DEFENSE, d)
    else:
        d = defend(st, tb, ctl, dopts, n)
    end_action(st, tb, ctl, log, d)


@jit(V(ST, TB, CTL, LOG, I, I, A1, A1, A1, LOG, A1, A1))
def play_action(st, tb, ctl, log, p, action, wst, w2, wctl, nolog, s0, pin):
    """:func:`act`, with the replay search (:func:`replay_mask`) when a player of the duel
    searches its decisions inside actions: the action is played with its decisions recorded
    (``ctl[CTL_RP_LIST]``); when a searched decision stops it (``policy.replay_decide``),
    :func:`search_replay` picks the option, the position goes back to before the action
    (``s0``, its generator and log count included) and the action is played again, the
    decisions so far and the one searched forced; until it ends without a stop.

    Why replay: the rules ask these decisions from inside nested calls (a BOOST inside a
    maneuver, an option inside an effect inside a combat), where a copied state cannot be
    resumed; an action replayed from its start with its decisions and the game's generator
    reaches the same point (the module docstring). Arrays as :func:`search_options`'s; ``s0``:
    int64 (STATE_SIZE,), ``pin``: int64 (``PIN_SIZE``,) work space."""
    mask = replay_mask(st, ctl)
    if mask == 0:
        act(st, tb, ctl, log, p, action, wst, w2, wctl, nolog)
        return
    copy_into(s0, st, STATE_SIZE)
    ctl[CTL_RP_N] = 0
    ctl[CTL_RP_REC] = 1
    ctl[CTL_RP_PROBE] = mask
    for _t in range(MAX_RP):
        ctl[CTL_RP_POS] = 0
        ctl[CTL_RP_HIT] = 0
        ctl[CTL_RP_ON] = 1
        act(st, tb, ctl, log, p, action, wst, w2, wctl, nolog)
        ctl[CTL_RP_ON] = 0
        if ctl[CTL_RP_HIT] == 0:
            break
        m = ctl[CTL_RP_N]
        v = search_replay(st, s0, tb, ctl, p, action, wst, w2, wctl, nolog, pin)
        copy_into(st, s0, STATE_SIZE)
        rp_append(ctl, ctl[CTL_RP_HIT] - 1, v)
        if m + 3 >= MAX_RP:   # (no room to record another stop: the rest of the action unsearched)
            ctl[CTL_RP_PROBE] = 0
    rp_off(ctl)


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
    s0 = np.empty(STATE_SIZE, np.int64)
    pin = np.empty(PIN_SIZE, np.int64)
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
        play_action(st, tb, ctl, log, p, opts[i], wst, w2, wctl, nolog, s0, pin)
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
