"""Damage through a hero's ``before_damage`` ability: a cap on the damage one of the owner's
fighters would take, then other fighters of the owner taking some or all of it in its place.

The ability is declared in the hero file (``[ability] before_damage = { ... }``,
heroes/README.md "Ability hooks") and compiled into the hero table's ``H_BD_*`` fields; it has
no program. When the fighter it protects would take combat damage (and, unless it says
``damage = "combat"``, effect damage), :func:`plan_damage` first keeps off what exceeds the cap,
then asks the owner, one fighter at a time, which of their other fighters (adjacent to the
protected one, or anywhere; of one kind or any) takes part of what is left (``D_REDIRECT``,
-1 none) and how much (``D_REDIRECT_N``, only with ``split``; else all of it).
:func:`apply_plan` logs each share (``EV_REDIRECT``) and deals it. Damage from exhaustion is not
redirected (docs/rules.md, "Damage in another fighter's place").

A hero without the ability makes no decision and draws no random number here, so games
without it are unchanged.
"""
from .sigs import A1, CTL, I, jit, LOG, ST, stack_i64, TB
from .codes import D_REDIRECT, D_REDIRECT_N, EV_REDIRECT, FS_DEFEATED, FS_IN_PLAY, R_PREVENT_COMBAT_ONLY
from .core import adjacent, deal_damage, log_ev
from .layout import (
    F_KIND, F_OWNER, F_SPACE, F_STATUS, FIGHTERS_PER_PLAYER, fslot, G_LAST_DMG, G_LAST_KO, H_BD_CAP, H_BD_COMBAT,
    H_BD_KIND, H_BD_PROTECT, H_BD_SPLIT, H_BD_TAKE, MAX_SPACES, P_HERO, pslot,
)
from .prevent import card_cap
from .policy import CTL_CTX_F, CTL_CTX_N, CTL_CTX_OP, CTL_CTX_OWNER, CTL_CTX_P, decide

#: length of a plan array: the damage left for the protected fighter, then (fighter, amount) pairs:
#: the card's and the cap's shares (fighters -2, -1) and one per other fighter of the owner
PLAN_SIZE = 2 * FIGHTERS_PER_PLAYER + 5
#: options of one decision: "none" and each other fighter, or the amounts 1..the damage left
_OPTS = MAX_SPACES


@jit(I(ST, TB, CTL, I, I, I, A1))
def plan_damage(st, tb, ctl, f, n, combat, plan):
    """Plan ``n`` damage to fighter ``f`` through its owner's ``before_damage`` ability.

    ``combat``: 1 for the combat damage of an attack, 0 for effect damage. Fills ``plan``
    (int64, at least :data:`PLAN_SIZE`): ``plan[0]`` the damage ``f`` itself is to take, then
    ``k`` pairs ``(fighter, amount)`` from ``plan[1]``: fighter -2 is the part the fighter's card
    prevents (``prevent_damage``, its ``at_most``: effect damage in a combat), -1 the part the
    ability's cap keeps off, others take that part instead; returns ``k``. Decisions: ``D_REDIRECT`` (which other
    fighter takes a part, -1 none; the owner may decline), then with ``split`` ``D_REDIRECT_N``
    (how much, 1..what is left); without it the fighter takes all that is left. Each fighter
    takes at most one part. Without the ability (or not for ``f``, or effect damage to a
    combat-only ability) ``plan[0] = n`` and 0 is returned, with no decision asked."""
    plan[0] = n
    if n <= 0 or st[fslot(f, F_STATUS)] != FS_IN_PLAY:
        return 0
    p = st[fslot(f, F_OWNER)]
    h = st[pslot(p, P_HERO)]
    take = tb.heroes[h, H_BD_TAKE]
    cap = tb.heroes[h, H_BD_CAP]
    if (take == 0 and cap == 0) or st[fslot(f, F_KIND)] != tb.heroes[h, H_BD_PROTECT]:
        return 0
    if tb.heroes[h, H_BD_COMBAT] != 0 and combat == 0:
        return 0
    k = 0
    if combat == 0 and tb.rules[R_PREVENT_COMBAT_ONLY] == 0:
        # the fighter's card prevents (or caps) its damage for the rest of the combat: that comes first, so
        # that no prevented damage is moved (the combat damage was cut in rules.close_attack already)
        m = card_cap(st, f, n)
        if m < n:
            plan[1] = -2
            plan[2] = n - m
            k = 1
            n = m
    if cap > 0 and n > cap - 1:
        plan[1 + 2 * k] = -1          # "takes at most N": the rest is not dealt to anyone
        plan[2 + 2 * k] = n - (cap - 1)
        k += 1
        n = cap - 1
    opts = stack_i64(_OPTS)
    want = tb.heroes[h, H_BD_KIND]
    while take != 0 and n > 0:
        m = 1
        opts[0] = -1
        for j in range(FIGHTERS_PER_PLAYER):
            g = p * FIGHTERS_PER_PLAYER + j
            if g == f or st[fslot(g, F_STATUS)] != FS_IN_PLAY or (want != 0 and st[fslot(g, F_KIND)] + 1 != want):
                continue
            if take == 1 and not adjacent(tb, st[fslot(f, F_SPACE)], st[fslot(g, F_SPACE)]):
                continue
            dup = False
            for i in range(k):
                if plan[1 + 2 * i] == g:
                    dup = True
            if not dup:
                opts[m] = g
                m += 1
        if m == 1:
            break
        ctl[CTL_CTX_OP] = -1
        ctl[CTL_CTX_P] = p
        ctl[CTL_CTX_F] = f            # the fighter that would take the damage ...
        ctl[CTL_CTX_N] = n            # ... and how much is left (the AI's valuation reads both)
        g = opts[decide(st, tb, ctl, D_REDIRECT, p, opts, m)]
        if g < 0:
            break
        a = n
        if tb.heroes[h, H_BD_SPLIT] != 0 and n > 1:
            for i in range(min(n, _OPTS)):
                opts[i] = i + 1
            ctl[CTL_CTX_OWNER] = g    # the fighter taking the part
            a = opts[decide(st, tb, ctl, D_REDIRECT_N, p, opts, min(n, _OPTS))]
        plan[1 + 2 * k] = g
        plan[2 + 2 * k] = a
        k += 1
        n -= a
    plan[0] = n
    return k


@jit(I(ST, TB, LOG, I, A1, I, I))
def apply_plan(st, tb, log, f, plan, k, combat):
    """Log and deal the ``k`` parts of ``plan`` (:func:`plan_damage`) that fighter ``f`` does not
    take itself: one ``EV_REDIRECT`` line (f, fighter, or -1 / -2 for the ability's / card's cap, amount, ``combat``) each,
    followed by that fighter's damage. Returns the damage those fighters took; for effect damage
    (``combat`` 0) also adds it to ``G_LAST_DMG`` and their defeats to ``G_LAST_KO`` (the damage
    step's "if you do": damage taken in the target's place was dealt by the step)."""
    tot = 0
    for i in range(k):
        g = plan[1 + 2 * i]
        a = plan[2 + 2 * i]
        log_ev(st, log, EV_REDIRECT, f, g, a, combat, 0)
        if g >= 0:
            d = deal_damage(st, tb, log, g, a)
            tot += d
            if combat != 0:
                continue
            st[G_LAST_DMG] += d
            if d > 0 and st[fslot(g, F_STATUS)] == FS_DEFEATED:
                st[G_LAST_KO] += 1
    return tot


@jit(I(ST, TB, CTL, LOG, I, I))
def take_damage(st, tb, ctl, log, f, n):
    """``n`` effect damage to fighter ``f`` through its owner's ``before_damage`` ability
    (:func:`plan_damage`, :func:`apply_plan`), then :func:`sim.engine.core.deal_damage` of the
    rest to ``f``. Returns the damage ``f`` took; all damage taken (``f`` and those in its
    place) is added to ``G_LAST_DMG`` and the defeats to ``G_LAST_KO``."""
    plan = stack_i64(PLAN_SIZE)
    k = plan_damage(st, tb, ctl, f, n, 0, plan)
    apply_plan(st, tb, log, f, plan, k, 0)
    d = deal_damage(st, tb, log, f, plan[0])
    st[G_LAST_DMG] += d
    if d > 0 and st[fslot(f, F_STATUS)] == FS_DEFEATED:
        st[G_LAST_KO] += 1
    return d
