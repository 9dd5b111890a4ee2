"""What the scripted AI knows about each card and hero, read from the effect programs.

The AI (``sim.engine.ai``) never runs per-hero code: it scores a card by a few
numbers taken from the card's compiled effect program once, at compile time.
Each card gets ``layout.N_AI_FEAT`` features in hundredths (``cards[:, C_AI0 + k]``,
``k`` one of ``layout.AI_*``): damage it deals to opposing fighters, damage to your
own, cards gained, cards the opponent loses, health recovered, movement, value
added when attacking / defending, cancel-type protection, actions gained, other.

Rules of thumb: a step under a condition other than "attacking"/"defending" counts
half (it may not happen); a step inside a "choose" counts half; an ongoing
scheme's start-of-turn effect counts three times (it repeats); "+N for each ..."
counts 1.5 N. These are estimates for scoring, not rules: the engine resolves
the real effect.

A step whose condition reads only the board, piles and turn (Ciri's Source tiers,
"on fog", a hero counter such as Alice's size or Jekyll's form, "first action",
...; ``sim.engine.conditions.LIVE_CONDITIONS``) is also read on its own into the
step's ``I_AI0 ..`` columns of ``code``: the AI checks that condition when it scores
the card and counts the step in full or not at all (and a "value N instead" step
sets the card's value), instead of the half of the card's static features.

Each hero (loadout) row gets its ability's attack/defense value bonus by the
value of hero counter 0 (Alice's size), its defense bonus on a fog space
(Invisible Man) and its maneuver bonus per tagged card in the discard (Sinbad).
"""
from __future__ import annotations

import numpy as np

from sim.engine import effects as E
from sim.engine import layout as L
from sim.engine.conditions import LIVE_CONDITIONS

_HALF_CONDS = {E.CN_ALWAYS, E.CN_ATTACKING, E.CN_DEFENDING}


def _window_rows(code: np.ndarray, start: int, length: int, with_index: bool = False):
    """Rows of one program with the multiplier of each (branches count half)."""
    i = start
    end = start + length
    branch_left = 0
    while i < end:
        r = code[i]
        m = 0.5 if branch_left > 0 else 1.0
        if branch_left > 0:
            branch_left -= 1
        if r[L.I_OP] == E.OP_BRANCH:
            branch_left = int(r[L.I_CA])
            i += 1
            continue
        yield (i, r, m) if with_index else (r, m)
        i += 1


def _option_rows(code: np.ndarray, start: int, length: int) -> set[int]:
    """Rows of the program ``start .. start + length - 1`` that are steps of a "choose"
    option (each option is an ``OP_BRANCH`` row whose ``I_X`` is its number of steps)."""
    rows = set()
    for i in range(start, start + length):
        if code[i, L.I_OP] == E.OP_BRANCH:
            rows.update(range(i + 1, i + 1 + int(code[i, L.I_X])))
    return rows


def is_live(r: np.ndarray) -> bool:
    """The step's condition is one the AI checks when it scores the card (``conditions.LIVE_CONDITIONS``)."""
    return int(r[L.I_COND]) in LIVE_CONDITIONS


def guards(code: np.ndarray, start: int, length: int) -> dict[int, list[int]]:
    """The guard rows of each step of a program that has more than one condition: {row of
    the step: [rows of its guards]}. A guard is an ``OP_NOP`` row with ``I_X`` > 0, written by
    the compiler right before the step it guards (``sim.content.vocab._guarded``); the step's
    own row holds its first condition, each guard one more."""
    out: dict[int, list[int]] = {}
    for i in range(start, start + length):
        if code[i, L.I_OP] == E.OP_NOP and code[i, L.I_X] > 0:
            j = i + 1
            while code[j, L.I_OP] == E.OP_NOP and code[j, L.I_X] > 0:
                j += 1
            out.setdefault(j, []).append(i)
    return out


def _guard_conds(code: np.ndarray, rows: list[int]) -> list[tuple[int, bool]]:
    """(condition, negated) of each guard row."""
    return [(int(code[g, L.I_COND]), bool(code[g, L.I_FLAGS] & L.IF_NEGATE)) for g in rows]


#: "+N for each ..." counts the one-currency standard AI reads from the board when it scores a card
BOARD_PERS = (E.PER_DISCARD_TAG, E.PER_OWN_ADJ_OPPOSING, E.PER_KIND_IN_ZONE_OF_OPPOSING, E.PER_ADJ_TO_SELF,
              E.PER_KIND_ADJ_MOVED, E.PER_ZONES, E.PER_DAMAGE_TAKEN)


def is_board(r: np.ndarray) -> bool:
    """A step the one-currency standard AI reads from the position where the card would apply
    (``sim.engine.ai.weights.board_delta``): "+N for each X" with X on the board or in a pile
    (:data:`BOARD_PERS`, unconditional or "attacking"/"defending"), "if adjacent" (the
    attacker's and defender's spaces), "if you won" / "if you did not win" (other than
    damage: the combat's chance of each), or "value N against a hero" (Claws That Catch: the
    opposing fighter's kind). Release 0.2's AI counts them by the rules of thumb (the last
    not at all: a value change is "other")."""
    if is_live(r):
        return False
    cond, per = int(r[L.I_COND]), int(r[L.I_PER])
    if cond == E.CN_OPPOSING_IS_HERO:   # ("value N against a hero": the card's value when its target is one)
        return per == E.PER_ONE and int(r[L.I_OP]) == E.OP_SET_VALUE
    if cond == E.CN_ADJACENT:
        return per == E.PER_ONE
    if cond in (E.CN_WON, E.CN_NOT_WON):   # (damage "if you won" is added to the winning outcomes already)
        return per == E.PER_ONE and int(r[L.I_OP]) not in (E.OP_DAMAGE, E.OP_DAMAGE_SPACES)
    return per in BOARD_PERS and cond in _HALF_CONDS


def _row_features(r: np.ndarray, m: float, f: np.ndarray, live_full: bool = False,
                  more: list[tuple[int, bool]] = ()) -> None:
    """Add step ``r``'s features (times ``m``) to ``f``. ``more``: the (condition, negated) of
    the step's guards (its conditions after the first): with any besides "attacking" /
    "defending" the step counts half, as a step under one such condition does; "attacking" or
    "defending" among them limits a value change to that side."""
    op = int(r[L.I_OP])
    cond = int(r[L.I_COND])
    board = live_full and is_board(r) and not more
    if live_full and (is_live(r) or board):
        pass       # the AI checks this condition (and a guarded step's others: all live) when it scores the card
    elif cond not in _HALF_CONDS and not (cond == E.CN_WON and op in (E.OP_DAMAGE, E.OP_DAMAGE_SPACES)):
        m *= 0.5   # (damage "if you won" is counted in full: the AI adds it only to winning outcomes)
    elif any(c not in _HALF_CONDS or neg for c, neg in more):
        m *= 0.5   # a further condition the AI does not check: it may not hold
    roles = {c for c, neg in more if not neg and c in (E.CN_ATTACKING, E.CN_DEFENDING)}
    n = float(r[L.I_N])
    if r[L.I_PER] != E.PER_ONE and not board:
        n *= 1.5   # (a board step's features are per X: the AI multiplies by the count now)
    sel, side, ref = int(r[L.I_SEL]), int(r[L.I_SIDE]), int(r[L.I_REF])
    own_only = sel in (E.SEL_EACH_KIND, E.SEL_EACH_OWN) or side == E.S_OWN or (
        sel == E.SEL_REF and ref != E.REF_OPPOSING)
    opp_only = side == E.S_OPPOSING or (sel == E.SEL_REF and ref == E.REF_OPPOSING)
    if op in (E.OP_DAMAGE, E.OP_DAMAGE_SPACES):
        if own_only:
            f[L.AI_SELF_DMG] += n * m
            if op == E.OP_DAMAGE:   # (damage_spaces' side, not its reference fighter, says whom it hits)
                f[L.AI_OWN_DMG] += n * m
        elif opp_only:
            f[L.AI_DMG] += n * m * (1.5 if sel in (E.SEL_ALL, E.SEL_EACH_ZONE, E.SEL_EACH_ADJ) else 1.0)
        else:
            f[L.AI_DMG] += n * m
            if sel in (E.SEL_ALL, E.SEL_EACH_ZONE, E.SEL_EACH_ADJ):
                f[L.AI_SELF_DMG] += 0.5 * n * m
    elif op == E.OP_DRAW:
        if side == E.S_OPPOSING:
            f[L.AI_OPP_DISCARD] -= n * m
        else:
            f[L.AI_DRAW] += n * m
    elif op == E.OP_DISCARD:
        if side == E.S_OWN:
            f[L.AI_DRAW] -= n * m
        else:
            f[L.AI_OPP_DISCARD] += n * m * (1.3 if r[L.I_FLAGS] & L.IF_YOU_CHOOSE else 1.0)
    elif op == E.OP_MOVE:
        if opp_only:
            f[L.AI_OTHER] += 0.5 * m
        else:
            f[L.AI_MOVE] += n * m
    elif op == E.OP_PLACE:
        f[L.AI_MOVE] += 2 * m
    elif op == E.OP_RECOVER:
        f[L.AI_RECOVER] += n * m
    elif op == E.OP_SET_HEALTH:
        f[L.AI_RECOVER] += 2 * m
    elif op in (E.OP_RETURN_DEFEATED, E.OP_SUMMON):
        f[L.AI_OTHER] += 2 * m
        f[L.AI_SUMMON] += m
    elif op == E.OP_GAIN_ACTION:
        f[L.AI_ACTION] += -n * m if side == E.S_OPPOSING else n * m   # who = "opponent": actions for them
    elif op == E.OP_ADD_VALUE:
        if cond != E.CN_DEFENDING and E.CN_DEFENDING not in roles:
            f[L.AI_VALUE_ATK] += n * m
        if cond != E.CN_ATTACKING and E.CN_ATTACKING not in roles:
            f[L.AI_VALUE_DEF] += n * m
    elif op in (E.OP_BOOST_THIS, E.OP_DISCARD_FOR_VALUE):
        f[L.AI_VALUE_ATK] += m
        f[L.AI_VALUE_DEF] += m
    elif op == E.OP_RECLAIM and r[L.I_X] == 2:   # shuffled into the deck: a card drawn again some day
        f[L.AI_OTHER] += 0.3 * m
    elif op in (E.OP_TAKE_FROM_DISCARD, E.OP_SEARCH, E.OP_RECLAIM):
        f[L.AI_DRAW] += m
        if op == E.OP_RECLAIM and r[L.I_X] == 0:   # onto the deck, not into the hand
            f[L.AI_DECK_TOP] += m
    elif op == E.OP_LOOK_TOP:
        f[L.AI_DRAW] += max(1.0, float(r[L.I_CA])) * m * 0.7
    elif op == E.OP_PREVENT_DAMAGE:
        f[L.AI_CANCEL] += 3 * m
    elif op == E.OP_IGNORE_VALUE:
        f[L.AI_CANCEL] += 2 * m
    elif op == E.OP_CANCEL:
        f[L.AI_CANCEL] += m
    elif op == E.OP_ZERO_VALUE:          # the opponent's card is worth 0: about an average card
        f[L.AI_VALUE_ATK] += 3 * m
        f[L.AI_VALUE_DEF] += 3 * m
    elif op in (E.OP_REPLACE_CARD, E.OP_SET_PRINTED):
        f[L.AI_VALUE_ATK] += 1.5 * m
        f[L.AI_VALUE_DEF] += 1.5 * m
    elif op in (E.OP_REVEAL_TOP, E.OP_TO_HAND):      # (return_to_hand: the card is kept, as a card drawn)
        f[L.AI_DRAW] += m
    elif op in (E.OP_PREDICT, E.OP_NAME_VALUE, E.OP_PLACE_FOG, E.OP_MOVE_FOG, E.OP_ARRANGE_TOP):
        f[L.AI_OTHER] += 0.5 * m
    elif op in (E.OP_PIN, E.OP_SWAP, E.OP_BECOME_DEFENDER, E.OP_DISCARD_TOP, E.OP_LOOK_AT_HAND, E.OP_SET_VALUE,
                E.OP_FLIP_COUNTER, E.OP_SET_COUNTER, E.OP_CHOOSE_COUNTER):
        f[L.AI_OTHER] += 0.3 * m


def card_features(cards: np.ndarray, code: np.ndarray) -> np.ndarray:
    """AI features of every card: int64 (n_cards, N_AI_FEAT), hundredths."""
    out = np.zeros((len(cards), L.N_AI_FEAT), np.int64)
    for cid, row in enumerate(cards):
        f = np.zeros(L.N_AI_FEAT)
        for w in range(L.N_WINDOWS):
            if w == L.W_ONGOING_DISCARD:
                continue
            start, length = int(row[L.C_PROG + 2 * w]), int(row[L.C_PROG + 2 * w + 1])
            g = np.zeros(L.N_AI_FEAT)
            gd = guards(code, start, length)
            for i, r, m in _window_rows(code, start, length, with_index=True):
                _row_features(r, m, g, more=_guard_conds(code, gd.get(i, [])))
            f += g * (3.0 if w == L.W_ONGOING_START else 1.0)
        out[cid] = np.round(f * 100).astype(np.int64)
    return out


def step_features(cards: np.ndarray, code: np.ndarray) -> np.ndarray:
    """The AI's reading of each step of every card program, for the steps whose condition the
    AI checks as it scores a card (see :func:`is_live`).

    Returns int64 (n_steps, N_AI_FEAT + 1): columns ``I_AI0 ..`` of ``code``: the step's
    features in hundredths, counted in full (its condition is checked, not guessed; a
    board step's per X, see :func:`is_board`), and in the last column 1 for a live step,
    2 for a board step; and fills ``cards[:, C_AI_LIVE]`` in place (bit 1: the card has a
    live step, bit 2 a board step). Other steps keep zero features: the card's static
    features (:func:`card_features`) already count them, except a step of a "choose"
    option: its features in full (kind 0), which the one-currency AI adds up when it picks
    an option (``sim.engine.ai.options.branch_worth``).
    """
    out = np.zeros((len(code), L.N_AI_FEAT + 1), np.int64)
    for cid, row in enumerate(cards):
        live = 0
        for w in range(L.N_WINDOWS):
            if w == L.W_ONGOING_DISCARD:
                continue
            start, length = int(row[L.C_PROG + 2 * w]), int(row[L.C_PROG + 2 * w + 1])
            in_option = _option_rows(code, start, length)
            gd = guards(code, start, length)
            for i, r, m in _window_rows(code, start, length, with_index=True):
                if r[L.I_OP] == E.OP_NOP:
                    continue     # a guard: read with the step it guards
                more = _guard_conds(code, gd.get(i, []))
                # a step with several conditions is live when all of them are (the AI checks its
                # guards too: sim.engine.ai.weights.guards_hold), and never a board step
                kind = (1 if is_live(r) and all(c in LIVE_CONDITIONS for c, _ in more)
                        else 2 if is_board(r) and not more else 0)
                if kind == 0:
                    if i in in_option:   # a step of a "choose" option: priced when the option is chosen
                        g = np.zeros(L.N_AI_FEAT)
                        _row_features(r, 1.0, g, more=more)
                        out[i, :L.N_AI_FEAT] = np.round(g * 100).astype(np.int64)
                    continue
                g = np.zeros(L.N_AI_FEAT)
                if kind == 2 and int(r[L.I_OP]) == E.OP_SET_VALUE:
                    # the value it sets, over the printed one, on either side of a combat
                    g[L.AI_VALUE_ATK] = g[L.AI_VALUE_DEF] = m * (int(r[L.I_N]) - max(int(row[L.C_VALUE]), 0))
                else:
                    _row_features(r, m, g, live_full=True, more=more)
                out[i, :L.N_AI_FEAT] = np.round(g * 100).astype(np.int64)
                out[i, L.N_AI_FEAT] = kind
                live |= kind
        cards[cid, L.C_AI_LIVE] = live
    return out


#: The ability hooks whose steps the one-currency standard AI prices (``sim.engine.ai.hooks``)
PRICED_HOOKS = (L.HK_AFTER_ATTACK, L.HK_AFTER_DEFENSE, L.HK_END_TURN, L.HK_FIGHTER_DEFEATED)


def hook_step_features(heroes: np.ndarray, code: np.ndarray) -> None:
    """Fill, in place, the ``I_AI0 ..`` columns of the steps of the ability hooks in
    :data:`PRICED_HOOKS` with each step's features counted in full, whatever its conditions
    (``I_AI_LIVE`` stays 0): the AI weighs each step by its conditions when it prices the hook
    (``sim.engine.ai.hooks.hook_worth``: "if you won" at the combat's chance, a live condition
    checked now, another at half). A step of a "choose" option is in full too, as a card's
    (``sim.engine.ai.options.branch_worth``). Other hooks keep zero features."""
    for h in heroes:
        for hook in PRICED_HOOKS:
            start, length = int(h[L.H_HOOKS + 2 * hook]), int(h[L.H_HOOKS + 2 * hook + 1])
            for i in range(start, start + length):
                r = code[i].copy()
                if r[L.I_OP] in (E.OP_NOP, E.OP_BRANCH, E.OP_CHOOSE):
                    continue
                r[L.I_COND] = E.CN_ALWAYS   # (its conditions are the AI's to weigh, not halved here)
                r[L.I_FLAGS] &= ~L.IF_NEGATE
                g = np.zeros(L.N_AI_FEAT)
                _row_features(r, 1.0, g)
                code[i, L.I_AI0:L.I_AI0 + L.N_AI_FEAT] = np.round(g * 100).astype(np.int64)


def hero_features(heroes: np.ndarray, code: np.ndarray) -> np.ndarray:
    """AI features of every hero row: int64 (n_rows, 8) for H_AI_ATK0 .. H_AI_HURT_FORM."""
    out = np.zeros((len(heroes), 8), np.int64)
    for i, h in enumerate(heroes):
        for hook, base in ((L.HK_ATTACK_VALUE, 0), (L.HK_DEFENSE_VALUE, 2)):
            start, length = int(h[L.H_HOOKS + 2 * hook]), int(h[L.H_HOOKS + 2 * hook + 1])
            for r, _ in _window_rows(code, start, length):
                if r[L.I_OP] != E.OP_ADD_VALUE or r[L.I_PER] != E.PER_ONE:
                    continue
                n, cond = int(r[L.I_N]), int(r[L.I_COND])
                neg = bool(r[L.I_FLAGS] & L.IF_NEGATE)
                if cond == E.CN_ALWAYS:
                    out[i, base] += n
                    out[i, base + 1] += n
                elif cond in (E.CN_COUNTER_EQ, E.CN_COUNTER_NE) and r[L.I_CA] == 0 and r[L.I_CB] in (0, 1):
                    hit = int(r[L.I_CB]) if (cond == E.CN_COUNTER_EQ) != neg else 1 - int(r[L.I_CB])
                    out[i, base + hit] += n
                elif cond == E.CN_ON_FOG and base == 2 and not neg:
                    out[i, 4] += n
        start, length = int(h[L.H_HOOKS + 2 * L.HK_MANEUVER_BONUS]), int(h[L.H_HOOKS + 2 * L.HK_MANEUVER_BONUS + 1])
        for r, _ in _window_rows(code, start, length):
            if r[L.I_OP] == E.OP_ADD_MOVE and r[L.I_PER] == E.PER_DISCARD_TAG:
                out[i, 5] = int(r[L.I_N])
                out[i, 6] = int(r[L.I_PARG])
        start, length = int(h[L.H_HOOKS + 2 * L.HK_AFTER_MANEUVER]), int(h[L.H_HOOKS + 2 * L.HK_AFTER_MANEUVER + 1])
        for r, _ in _window_rows(code, start, length):
            if (r[L.I_OP] == E.OP_DAMAGE and r[L.I_COND] == E.CN_COUNTER_EQ and r[L.I_CA] == 0
                    and not r[L.I_FLAGS] & L.IF_NEGATE):
                out[i, 7] = int(r[L.I_CB]) + 1
    return out
