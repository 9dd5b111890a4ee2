"""Decisions: every choice the rules or an effect offers is asked here.

The engine never hard-codes a choice. It lists the legal options as integers
(``opts[:n]``, values in the domain of the decision kind, see
``layout.D_*`` / ``layout.DOM_*``) and calls :func:`decide`, which returns
the index of the chosen option according to the deciding player's mode in the
control array ``ctl`` (int64, shape ``(CTL_SIZE,)``):

* ``MODE_RANDOM``: uniformly random legal option (the random policy);
* ``MODE_FIRST``: always the first option (deterministic, for debugging);
* ``MODE_SCRIPT``: the next scripted ``(domain, value)`` pair, used by the
  scenario API; when the script runs out, ``ctl[CTL_FALLBACK]`` says whether
  to fall back to random or to stop the game with ``ERR_SCRIPT_EMPTY``.

* ``MODE_STANDARD`` / ``MODE_GREEDY``: the scripted AI (:mod:`sim.engine.ai`)
  with the player's profile weights.

A decision with exactly one legal option is forced and never consumes a
script entry. The ``ctl`` layout is in :mod:`sim.engine.control`.
"""
import numpy as np
from numba import njit, types  # noqa: F401

from .sigs import A1, A2, B, CTL, FA1, I, LOG, ST, TB, V, jit, stack_i64  # noqa: F401

from .ai import ai_decide
from .ai.decide import ai_scores
from .capture import capture_begin
from .ai.weights import scratch_f1, wv, W_SEARCH_CHOICES
from .core import rand_below, rng_seed
from .codes import (
    NO_WINNER, D_ACTION, D_BOOST_ATTACK, D_BOOST_CARD, D_BOOST_MANEUVER, D_DEFENSE, D_DISCARD_EFFECT, D_DISCARD_LIMIT,
    D_FOG_DEST, D_FOG_TOKEN, D_FORCE_CARD, D_GUESS, D_MAY, D_MOVE_DEST, D_MOVE_WHICH, D_OPPONENT, D_OPTION,
    D_PLACE, D_REDIRECT, D_REDIRECT_N, D_SETUP_SPACE, D_TAKE_CARD, D_TARGET, DOM_BOOL, DOM_CARD, DOM_FIGHTER, DOM_INT, DOM_SPACE,
    END_ERROR, ERR_PROBE, ERR_REPLAY, ERR_SCRIPT_DOMAIN, ERR_SCRIPT_EMPTY, ERR_SCRIPT_ILLEGAL, MODE_FIRST,
    MODE_GREEDY, MODE_RANDOM, D_MOVE_STEP,
    MODE_EXPERT, MODE_EXPERT02, MODE_SCRIPT, MODE_STANDARD, MODE_STANDARD02, N_DECISIONS,
)
from .layout import G_DECISIONS, G_ERR, G_LOGN, G_OVER, G_REASON, G_WINNER

from .control import (  # noqa: F401  (re-exported: callers import them from here)
    CTL_CTX_F, CTL_CTX_N, CTL_CTX_OP, CTL_CTX_OWNER, CTL_CTX_P, CTL_ERR_KIND, CTL_ERR_N, CTL_ERR_OPTS,
    CTL_ERR_PLAYER, CTL_ERR_PRESET, CTL_ERR_VALUE, CTL_EXPLAIN, CTL_FALLBACK, CTL_HAS_NAMES, CTL_LEN,
    CTL_MODE0, CTL_NAMES, CTL_PLAN_KEY, CTL_POS, CTL_POS_KEY, CTL_PRESET, CTL_REC, CTL_SCRIPT, CTL_SIZE, CTL_TD_P,
    CTL_W, EXPLAIN_REC, EXPLAIN_TOP, MAX_CARD_IDS, MAX_SCRIPT, N_WEIGHTS,
    CTL_RP_CAND, CTL_RP_HIT, CTL_RP_HIT_P, CTL_RP_LIST, CTL_RP_N, CTL_RP_NCAND, CTL_RP_ON, CTL_RP_POS,
    CTL_RP_HIDDEN, CTL_RP_LOGN, CTL_RP_PROBE, CTL_RP_REC, CTL_RP_SEED, MAX_RP, MAX_RP_CAND, MAX_SCR_SCORES, SCR_SCORES,
)

# value domain of each decision kind, indexed by D_*
_DOMAINS = np.zeros(N_DECISIONS, np.int64)
_DOMAINS[D_ACTION] = DOM_INT
_DOMAINS[D_DEFENSE] = DOM_CARD
_DOMAINS[D_BOOST_MANEUVER] = DOM_CARD
_DOMAINS[D_BOOST_ATTACK] = DOM_CARD
_DOMAINS[D_BOOST_CARD] = DOM_CARD
_DOMAINS[D_DISCARD_LIMIT] = DOM_CARD
_DOMAINS[D_DISCARD_EFFECT] = DOM_CARD
_DOMAINS[D_MOVE_WHICH] = DOM_FIGHTER
_DOMAINS[D_MOVE_DEST] = DOM_SPACE
_DOMAINS[D_PLACE] = DOM_SPACE
_DOMAINS[D_TARGET] = DOM_FIGHTER
_DOMAINS[D_MAY] = DOM_BOOL
_DOMAINS[D_SETUP_SPACE] = DOM_SPACE
_DOMAINS[D_OPTION] = DOM_INT
_DOMAINS[D_TAKE_CARD] = DOM_CARD
_DOMAINS[D_GUESS] = DOM_INT
_DOMAINS[D_FOG_TOKEN] = DOM_SPACE
_DOMAINS[D_FOG_DEST] = DOM_SPACE
_DOMAINS[D_FORCE_CARD] = DOM_CARD
_DOMAINS[D_OPPONENT] = DOM_INT
_DOMAINS[D_REDIRECT] = DOM_FIGHTER
_DOMAINS[D_REDIRECT_N] = DOM_INT
DECISION_DOMAINS = _DOMAINS


def new_control(modes=(MODE_RANDOM,) * 4, script=(), fallback=0, presets=None, card_name_ids=None,
                weights=None, explain=0):
    """Build a control array (int64, shape ``(CTL_SIZE,)``).

    ``modes``: one ``MODE_*`` per player; ``script``: ``(domain, value)``
    pairs consumed in order by scripted players; ``fallback``: what a scripted
    player does when the script is used up (0 error, 1 random, 2 first).
    ``presets``: {decision kind: value} answered the first time that kind is
    asked, whoever asks (the scenario API's attack/defense/boost cards).
    ``card_name_ids``: per card id, an id shared by cards with the same name;
    when given, scripted and preset card values are name ids, so "Feint"
    matches either player's Feint. Raises ValueError on a script longer than
    ``MAX_SCRIPT`` entries.
    ``weights``: per player, a sequence of AI weights (floats, in the order of
    ``sim.engine.ai.WEIGHT_NAMES``) for the scripted AI modes; ``explain``: room
    for this many decision records (``duel --explain``) after ``CTL_SIZE``.
    """
    if len(script) > MAX_SCRIPT:
        raise ValueError(f"script has {len(script)} choices; at most {MAX_SCRIPT}")
    ctl = np.zeros(CTL_SIZE + (1 + explain * EXPLAIN_REC if explain else 0), np.int64)
    ctl[CTL_CTX_OP] = -1
    ctl[CTL_CTX_F] = -1
    ctl[CTL_CTX_OWNER] = -1
    ctl[CTL_PLAN_KEY] = -1
    ctl[CTL_POS_KEY] = -1
    ctl[CTL_TD_P] = -1
    for p, w in enumerate(weights or ()):
        if w is None:
            continue
        if len(w) > N_WEIGHTS:
            raise ValueError(f"{len(w)} AI weights; at most {N_WEIGHTS}")
        ctl[CTL_W + p * N_WEIGHTS:CTL_W + p * N_WEIGHTS + len(w)] = np.round(np.asarray(w, np.float64) * 1000)
    for i, m in enumerate(modes):
        ctl[CTL_MODE0 + i] = m
    ctl[CTL_LEN] = len(script)
    ctl[CTL_FALLBACK] = fallback
    for i, (dom, val) in enumerate(script):
        ctl[CTL_SCRIPT + 2 * i] = dom
        ctl[CTL_SCRIPT + 2 * i + 1] = val
    for kind, val in (presets or {}).items():
        ctl[CTL_PRESET + kind] = val + 2
    if card_name_ids is not None:
        ctl[CTL_HAS_NAMES] = 1
        ctl[CTL_NAMES:CTL_NAMES + len(card_name_ids)] = card_name_ids
    return ctl


def with_record(ctl, capacity=MAX_SCRIPT):
    """A copy of control array ``ctl`` that records, in a buffer after its end, the first
    ``capacity`` choices its players make that a script would hold (every decision with more
    than one option and no preset), as :func:`recorded` returns them. For
    :func:`sim.engine.game.play_duel` or ``setup_game`` and ``play_game`` (``play_games`` plays on a copy)."""
    b = len(ctl)
    out = np.zeros(b + 2 + 2 * capacity, np.int64)
    out[:b] = ctl
    out[CTL_REC] = b
    out[b] = capacity
    return out


def recorded(ctl):
    """The ``(domain, value)`` choices a :func:`with_record` control array recorded, in order
    (a script for ``new_control``); raises ValueError if there were more than it holds."""
    b = int(ctl[CTL_REC])
    cap, n = int(ctl[b]), int(ctl[b + 1])
    if n > cap:
        raise ValueError(f"{n} choices recorded; the buffer holds {cap}")
    return [(int(ctl[b + 2 + 2 * i]), int(ctl[b + 3 + 2 * i])) for i in range(n)]


@jit(V(CTL, I, I))
def _record(ctl, kind, value):
    """Append ``(domain of kind, value)`` to the record buffer (see :func:`with_record`);
    past its capacity only the count grows."""
    b = ctl[CTL_REC]
    n = ctl[b + 1]
    if n < ctl[b]:
        ctl[b + 2 + 2 * n] = DECISION_DOMAINS[kind]
        ctl[b + 3 + 2 * n] = value
    ctl[b + 1] = n + 1


@jit(B(CTL, I, I, I))
def _matches(ctl, kind, opt, val):
    """True if option value ``opt`` is the scripted value ``val``."""
    if DECISION_DOMAINS[kind] == DOM_CARD and ctl[CTL_HAS_NAMES] == 1 and opt >= 0:
        return ctl[CTL_NAMES + opt] == val
    return opt == val


@jit(I(ST, CTL, I, I, I, I, A1, I))
def _fail(st, ctl, code, kind, player, value, opts, n):
    st[G_ERR] = code
    st[G_OVER] = 1
    st[G_REASON] = END_ERROR
    st[G_WINNER] = NO_WINNER
    ctl[CTL_ERR_KIND] = kind
    ctl[CTL_ERR_PLAYER] = player
    ctl[CTL_ERR_VALUE] = value
    ctl[CTL_ERR_N] = n
    for i in range(min(n, 64)):
        ctl[CTL_ERR_OPTS + i] = opts[i]
    return 0


@jit(I(ST, TB, CTL, I, I, A1, I))
def decide(st, tb, ctl, kind, player, opts, n):
    """Index (0..n-1) of the option player ``player`` picks for decision ``kind``.

    ``opts``: int64 array whose first ``n`` (>= 1) entries are the legal option
    values. On a scripted failure the game is stopped (``st[G_OVER]`` with
    ``END_ERROR``, details in ``ctl``) and 0 is returned so the caller can
    unwind normally.
    """
    st[G_DECISIONS] += 1
    if st[G_OVER] != 0:
        return 0
    if ctl[CTL_RP_ON] != 0:
        return replay_decide(st, tb, ctl, kind, player, opts, n)
    return _decide(st, tb, ctl, kind, player, opts, n)


@jit(I(ST, TB, CTL, I, I, A1, I))
def _decide(st, tb, ctl, kind, player, opts, n):
    """:func:`decide` after its checks: a preset, a forced decision, then the player's mode."""
    pre = ctl[CTL_PRESET + kind]
    if pre != 0:
        ctl[CTL_PRESET + kind] = 0
        for i in range(n):
            if _matches(ctl, kind, opts[i], pre - 2):
                return i
        ctl[CTL_ERR_PRESET] = 1
        return _fail(st, ctl, ERR_SCRIPT_ILLEGAL, kind, player, pre - 2, opts, n)
    if n <= 1:
        return 0
    mode = ctl[CTL_MODE0 + player]
    if mode == MODE_SCRIPT:
        return _scripted(st, ctl, kind, player, opts, n)
    if mode == MODE_FIRST:
        i = 0
    elif (mode == MODE_STANDARD or mode == MODE_GREEDY or mode == MODE_EXPERT or mode == MODE_STANDARD02
          or mode == MODE_EXPERT02):
        i = ai_decide(st, tb, ctl, kind, player, opts, n)
    else:
        i = rand_below(st, n)
    if ctl[CTL_REC] != 0:
        _record(ctl, kind, opts[i])
    return i


@jit(I(ST, CTL, I, I, A1, I), inline=True)
def _scripted(st, ctl, kind, player, opts, n):
    """:func:`decide` for a scripted player: the next script entry's option, or the fallback."""
    pos = ctl[CTL_POS]
    if pos < ctl[CTL_LEN]:
        dom = ctl[CTL_SCRIPT + 2 * pos]
        val = ctl[CTL_SCRIPT + 2 * pos + 1]
        ctl[CTL_POS] = pos + 1
        if dom != DECISION_DOMAINS[kind]:
            return _fail(st, ctl, ERR_SCRIPT_DOMAIN, kind, player, val, opts, n)
        for i in range(n):
            if _matches(ctl, kind, opts[i], val):
                return i
        return _fail(st, ctl, ERR_SCRIPT_ILLEGAL, kind, player, val, opts, n)
    fb = ctl[CTL_FALLBACK]
    if fb == 0:
        return _fail(st, ctl, ERR_SCRIPT_EMPTY, kind, player, -1, opts, n)
    if fb == 2:
        return 0
    return rand_below(st, n)


# decision kinds an expert searches inside an action (search_choices >= 1; ``+ _MOVE_KINDS`` at 2):
# BOOSTs, discards and cards taken or forced, targets and places, "may"s, options, named values,
# fog tokens' destinations. Not D_MOVE_WHICH / D_FOG_TOKEN (the standard AI does not score them)
# nor the hand limit (end of turn, outside any action).
_CHOICE_KINDS = ((1 << D_BOOST_MANEUVER) | (1 << D_BOOST_ATTACK) | (1 << D_BOOST_CARD) | (1 << D_DISCARD_EFFECT)
                 | (1 << D_PLACE) | (1 << D_TARGET) | (1 << D_MAY) | (1 << D_OPTION) | (1 << D_TAKE_CARD)
                 | (1 << D_GUESS) | (1 << D_FOG_DEST) | (1 << D_FORCE_CARD))
_MOVE_KINDS = (1 << D_MOVE_DEST) | (1 << D_MOVE_STEP)


@jit(B(CTL, I, I, I))
def probes(ctl, kind, player, n):
    """The replay search stops the action at this decision: ``player`` is searching
    (``CTL_RP_PROBE``), the decision has 2 to ``MAX_SCR_SCORES`` options, no preset answers it,
    the list has room, and its kind is one of the player's profile's ``search_choices``.
    Never while a defense card's face-up effects run before the reveal (``CTL_RP_HIDDEN``,
    Elementary's prediction): the action is replayed from its start with the attack card it
    was played with, which the defender has not seen, so a search there would read it."""
    if n < 2 or n > MAX_SCR_SCORES or ((ctl[CTL_RP_PROBE] >> player) & 1) == 0 or ctl[CTL_PRESET + kind] != 0:
        return False
    if ctl[CTL_RP_HIDDEN] != 0:
        return False
    if ctl[CTL_RP_N] + 3 >= MAX_RP:   # (no room left in the list to play the action again)
        return False
    level = wv(ctl, player, W_SEARCH_CHOICES)
    if level >= 0.5 and ((_CHOICE_KINDS >> kind) & 1) != 0:
        return True
    return level >= 1.5 and ((_MOVE_KINDS >> kind) & 1) != 0


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


@jit(I(ST, TB, CTL, I, I, A1, I))
def replay_decide(st, tb, ctl, kind, player, opts, n):
    """:func:`decide` while an action is played for the expert's replay search
    (``sim.engine.search.play_action``; ``ctl[CTL_RP_ON]`` set).

    * Within the list (``CTL_RP_POS`` < ``CTL_RP_N``): the recorded option (an illegal one, in a
      determinized copy whose hidden cards do not allow it, stops the game with ``ERR_REPLAY``).
      In a rollout (``CTL_RP_REC`` 0) the list's last entry is the candidate searched: after it
      the copy's generator is seeded from ``CTL_RP_SEED`` and decisions go back to ``decide``.
    * A new decision that :func:`probes`: the standard AI's scores rank the options into
      ``CTL_RP_CAND`` and the action stops (``G_OVER`` with ``ERR_PROBE``, unwound as a scripted
      failure is); the search picks, and the action is played again from its start.
    * Any other new decision: :func:`_decide`, recorded when ``CTL_RP_REC`` is set.
    """
    pos = ctl[CTL_RP_POS]
    if pos < ctl[CTL_RP_N]:
        ctl[CTL_RP_POS] = pos + 1
        k = ctl[CTL_RP_LIST + 2 * pos]
        v = ctl[CTL_RP_LIST + 2 * pos + 1]
        if ctl[CTL_RP_REC] == 0 and pos + 1 == ctl[CTL_RP_N]:
            ctl[CTL_RP_ON] = 0
            rng_seed(st, ctl[CTL_RP_SEED])
        if k == kind:
            for i in range(n):
                if opts[i] == v:
                    return i
        return _fail(st, ctl, ERR_REPLAY, kind, player, v, opts, n)
    if ctl[CTL_RP_REC] != 0 and probes(ctl, kind, player, n):
        scores = scratch_f1(ctl, SCR_SCORES, n)
        ai_scores(st, tb, ctl, kind, player, opts, n, scores)
        idx = stack_i64(MAX_RP_CAND)
        nc = top_candidates(scores, n, idx, MAX_RP_CAND)
        for j in range(nc):
            ctl[CTL_RP_CAND + j] = opts[idx[j]]
        ctl[CTL_RP_NCAND] = nc
        capture_begin(st, ctl, kind, player, opts, n)
        ctl[CTL_RP_LOGN] = st[G_LOGN]   # (the rules log more while the stopped action unwinds)
        ctl[CTL_RP_HIT] = kind + 1
        ctl[CTL_RP_HIT_P] = player
        st[G_ERR] = ERR_PROBE
        st[G_OVER] = 1
        return 0
    i = _decide(st, tb, ctl, kind, player, opts, n)
    if ctl[CTL_RP_REC] != 0:
        rp_append(ctl, kind, opts[i])
    return i


@jit(V(CTL, I, I))
def rp_append(ctl, kind, value):
    """Append decision ``(kind, value)`` to the replay search's list (``CTL_RP_LIST``), the
    replay position with it; past ``MAX_RP`` entries only the count grows (:func:`probes` stops
    before the list could be played again from there)."""
    m = ctl[CTL_RP_N]
    if m < MAX_RP:
        ctl[CTL_RP_LIST + 2 * m] = kind
        ctl[CTL_RP_LIST + 2 * m + 1] = value
    ctl[CTL_RP_N] = m + 1
    ctl[CTL_RP_POS] = m + 1


@jit(V(CTL))
def rp_off(ctl):
    """The replay search off in ``ctl``: decisions go straight to :func:`_decide`, with no list,
    no probe, no recording and no stop pending."""
    ctl[CTL_RP_ON] = 0
    ctl[CTL_RP_PROBE] = 0
    ctl[CTL_RP_REC] = 0
    ctl[CTL_RP_N] = 0
    ctl[CTL_RP_POS] = 0
    ctl[CTL_RP_HIT] = 0
