"""The rule of a combat card's ``prevent_damage`` (Bewilderment; with ``at_most`` N, a cap), in
one place for the three that apply it: the combat damage (:func:`sim.engine.rules.close_attack`),
effect damage dealt (:func:`sim.engine.core.deal_damage`) and effect damage planned through a
``before_damage`` ability (:func:`sim.engine.damage.plan_damage`).

A module of its own because ``core`` imports it and ``damage`` imports ``core``.
"""
from .sigs import I, jit, ST
from .layout import CB_ACTIVE, CB_CAP, CB_PREVENT, OFF_CB


@jit(I(ST, I, I), inline=True)
def card_cap(st, f, n):
    """The part of ``n`` damage to fighter ``f`` that the card in the combat lets through: all of
    it, unless that card prevents ``f``'s damage (``CB_PREVENT`` ``f`` + 1) in a combat in
    progress; then at most ``CB_CAP`` - 1 (``prevent_damage`` with ``at_most`` N is ``CB_CAP`` N +
    1; without it, 0: none) and never below 0. The rules option ``prevent_combat_damage_only`` is
    the callers' to check (effect damage only)."""
    if st[OFF_CB + CB_ACTIVE] == 0 or st[OFF_CB + CB_PREVENT] != f + 1:
        return n
    m = st[OFF_CB + CB_CAP] - 1
    return max(min(n, m), 0)
