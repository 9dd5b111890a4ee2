"""What the steps of a hero's ability hooks are worth to the one-currency standard AI, in points.

A hook runs its program at a moment a decision leads to: ``after_defense`` after each combat
in which one of the owner's fighters defended, ``after_attack`` after each of their attacks,
``fighter_defeated`` when one of them falls (heroes/README.md, "Ability hooks"). The decision
that makes that combat counts the hook's steps (:func:`hook_worth`): :func:`.choices.score_defense`
adds the ``after_defense`` steps to each defense option, with the chance that this defense holds,
and the ``fighter_defeated`` steps to what losing the defender costs (:func:`defeat_worth`);
:func:`.position.attack_now` adds the ``after_attack`` steps to each attack, with its chance of
winning. A step is priced as a card's effect step is (:func:`.weights.fx_row`: a card drawn at
the price of a card in hand, ...; a discard from our own hand takes at most the cards there;
damage to a fighter it names, "self" or the opposing fighter of the combat, as damage to that
fighter, :func:`.estimate.dmg_value`), times the chance that its conditions hold: "if you won"
the combat's chance, "if you did not win" the rest, "attacking" / "defending" by the side, a
condition read from the board (``conditions.LIVE_CONDITIONS``: Achilles' "Patroclus is
defeated") checked now, any other at half. The features of the hooks' steps are read at
compile time (``sim.content.ai_features.hook_step_features``). Release 0.2's AI
(:func:`.weights.frozen`) does not read them. Not counted: ``end_of_turn`` (the same whatever
the decision, but for a condition on where the fighters end the turn, which the maneuver's plan
does not read), and the opponent's hooks.
"""
from ..codes import (
    CN_ALWAYS, CN_ATTACKING, CN_DEFENDING, CN_NOT_WON, CN_WON, FS_IN_PLAY, HK_FIGHTER_DEFEATED, IF_NEGATE, OP_BRANCH,
    OP_CHOOSE, OP_DAMAGE, OP_DISCARD, OP_NOP, PER_ONE, S_OWN, SEL_REF,
)
from ..conditions import LIVE_CONDITIONS
from ..layout import (
    AI_DMG, F_KIND, F_STATUS, FIGHTERS_PER_PLAYER, fslot, G_NPLAYERS, H_DEFEAT_KIND, H_HOOKS, I_AI0, I_COND,
    I_FLAGS, I_N, I_OP, I_PER, I_REF, I_SEL, I_SIDE, I_X, P_HANDN, P_HERO, pslot,
)
from ..sigs import CTL, F, I, jit, ST, TB
from .estimate import dmg_price, dmg_value
from .weights import board_ref, fx_row, live_cond


@jit(I(TB, I, I))
def has_hook(tb, hero, hk):
    """The number of steps of hero row ``hero``'s hook ``hk`` (0: none)."""
    return tb.heroes[hero, H_HOOKS + 2 * hk + 1]


@jit(F(ST, TB, I, I, I, I, F))
def cond_chance(st, tb, r, q, g, side, chance):
    """The chance that the condition on row ``r`` (a step's or a guard's) holds for player
    ``q``'s fighter ``g`` on combat side ``side`` (0 attacking, 1 defending), ``chance`` the
    chance of winning the combat (< 0: not known, counted at half)."""
    c = tb.code[r, I_COND]
    neg = (tb.code[r, I_FLAGS] & IF_NEGATE) != 0
    x = 0.5
    if c == CN_ALWAYS:
        return 1.0
    if c == CN_ATTACKING or c == CN_DEFENDING:
        if side < 0:
            return 0.5
        x = 1.0 if (side == 0) == (c == CN_ATTACKING) else 0.0
    elif c == CN_WON or c == CN_NOT_WON:
        if chance < 0.0:
            return 0.5
        x = chance if c == CN_WON else 1.0 - chance
    else:
        for k in LIVE_CONDITIONS:
            if c == k:
                return 1.0 if live_cond(st, tb, r, q, g, side) else 0.0   # (it reads the negation itself)
        return 0.5
    return 1.0 - x if neg else x


@jit(F(ST, TB, CTL, I, I, I, I, I, F))
def hook_worth(st, tb, ctl, p, g, e, hk, side, chance):
    """What the steps of hook ``hk`` of ``p``'s hero are worth to ``p`` when it runs for
    ``p``'s fighter ``g`` (its ``"self"``) against opposing fighter ``e`` (-1: none known) on
    combat side ``side``, the combat won with chance ``chance`` (< 0: not a combat's): each
    step at :func:`cond_chance` of its condition and of each of its guards (see the module's
    docstring); the steps of a "choose" at half each (one option is taken)."""
    hero = st[pslot(p, P_HERO)]
    s0 = tb.heroes[hero, H_HOOKS + 2 * hk]
    end = s0 + tb.heroes[hero, H_HOOKS + 2 * hk + 1]
    v = 0.0
    opt_end = -1     # the rows of "choose" options end here
    r = s0
    while r < end:
        op = tb.code[r, I_OP]
        if op == OP_CHOOSE:
            j = r + 1    # (past its options: the header rows, each followed by its steps)
            for _ in range(tb.code[r, I_X]):
                j += 1 + tb.code[j, I_X]
            opt_end = j
            r += 1
            continue
        if op == OP_NOP or op == OP_BRANCH:
            r += 1
            continue
        m = cond_chance(st, tb, r, p, g, side, chance)
        j = r - 1
        while m > 0.0 and j >= s0 and tb.code[j, I_OP] == OP_NOP and tb.code[j, I_X] > 0:
            m *= cond_chance(st, tb, j, p, g, side, chance)
            j -= 1
        if r < opt_end:
            m *= 0.5
        if m > 0.0:
            t = -1
            if op == OP_DAMAGE and tb.code[r, I_SEL] == SEL_REF and tb.code[r, I_PER] == PER_ONE:
                t = board_ref(st, p, g, e, tb.code[r, I_REF])
            if t >= 0 and st[fslot(t, F_STATUS)] == FS_IN_PLAY:
                w = dmg_value(st, ctl, p, t, float(tb.code[r, I_N]))
            else:
                w = fx_row(tb, ctl, p, r)
                if op == OP_DAMAGE:
                    w += 0.01 * tb.code[r, I_AI0 + AI_DMG] * dmg_price(st, ctl, p)
                n = tb.code[r, I_N]
                if op == OP_DISCARD and tb.code[r, I_SIDE] == S_OWN and n > st[pslot(p, P_HANDN)]:
                    w *= st[pslot(p, P_HANDN)] / n   # (a discard from our hand takes at most the cards there)
            v += m * w
        r += 1
    return v


@jit(F(ST, TB, CTL, I, I))
def defeat_worth(st, tb, ctl, q, f):
    """What the ``fighter_defeated`` hook of ``q``'s hero is worth to ``q`` when ``q``'s fighter
    ``f`` is defeated (its ``defeated_fighter``, if any, names ``f``'s kind; ``"self"`` is the
    hero; Achilles discards 2 cards at random when Patroclus falls: a cost): 0 without the hook,
    and for the hero in a duel (his defeat ends the game: the hook does not run)."""
    hero = st[pslot(q, P_HERO)]
    k = tb.heroes[hero, H_DEFEAT_KIND]
    if (tb.heroes[hero, H_HOOKS + 2 * HK_FIGHTER_DEFEATED + 1] == 0 or (k != 0 and k != st[fslot(f, F_KIND)] + 1)
            or (st[fslot(f, F_KIND)] == 0 and st[G_NPLAYERS] <= 2)):
        return 0.0
    return hook_worth(st, tb, ctl, q, q * FIGHTERS_PER_PLAYER, -1, HK_FIGHTER_DEFEATED, -1, -1.0)
