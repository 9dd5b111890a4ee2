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

A decision with exactly one legal option is forced and never consumes a
script entry. The scripted AI (its own issue) adds modes here.
"""
import numpy as np
from numba import njit, types  # noqa: F401

from .sigs import A1, A2, B, CTL, I, LOG, ST, TB, V, jit  # noqa: F401

from .core import rand_below
from .layout import (
    D_ACTION, D_BOOST_ATTACK, D_BOOST_CARD, D_BOOST_MANEUVER, D_DEFENSE,
    D_DISCARD_EFFECT, D_DISCARD_LIMIT, D_MAY, D_MOVE_DEST, D_MOVE_WHICH,
    D_OPTION, D_PLACE, D_SETUP_SPACE, D_TAKE_CARD, D_TARGET, DOM_BOOL,
    D_GUESS, D_FOG_TOKEN, D_FOG_DEST, D_FORCE_CARD,
    DOM_CARD, DOM_FIGHTER, DOM_INT, DOM_SPACE, END_ERROR, ERR_SCRIPT_DOMAIN,
    ERR_SCRIPT_EMPTY, ERR_SCRIPT_ILLEGAL, G_DECISIONS, G_ERR, G_OVER, G_REASON,
    G_WINNER, N_DECISIONS,
)

MODE_RANDOM = 0
MODE_SCRIPT = 1
MODE_FIRST = 2

CTL_MODE0 = 0          # mode of players 0..3
CTL_POS = 4            # next script entry
CTL_LEN = 5            # script entries
CTL_FALLBACK = 6       # 0 stop with an error, 1 random, 2 first option
CTL_ERR_KIND = 7       # decision kind that failed
CTL_ERR_PLAYER = 8
CTL_ERR_VALUE = 9      # the scripted value that was refused
CTL_ERR_N = 10         # number of legal options at the failure
CTL_HAS_NAMES = 11     # 1: scripted card choices are card-name ids (see CTL_NAMES)
CTL_ERR_PRESET = 12    # 1 when the refused value was a preset, not a script entry
CTL_ERR_OPTS = 16      # up to 64 legal option values
CTL_PRESET = CTL_ERR_OPTS + 64   # per decision kind: preset value + 2, 0 = none
CTL_NAMES = CTL_PRESET + N_DECISIONS  # card id -> card-name id
MAX_CARD_IDS = 1024
CTL_SCRIPT = CTL_NAMES + MAX_CARD_IDS
MAX_SCRIPT = 512
CTL_SIZE = CTL_SCRIPT + 2 * MAX_SCRIPT

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
DECISION_DOMAINS = _DOMAINS


def new_control(modes=(MODE_RANDOM,) * 4, script=(), fallback=0, presets=None, card_name_ids=None):
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
    """
    if len(script) > MAX_SCRIPT:
        raise ValueError(f"script has {len(script)} choices; at most {MAX_SCRIPT}")
    ctl = np.zeros(CTL_SIZE, np.int64)
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
    st[G_WINNER] = -1
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
    if mode == MODE_FIRST:
        return 0
    return rand_below(st, n)
