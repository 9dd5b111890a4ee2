"""The scripted AI's choice of who takes damage in another fighter's place (a hero's
``before_damage`` ability, :mod:`sim.engine.damage`): by what the damage costs its player,
never by who the fighters are.
"""
from ..codes import D_REDIRECT
from ..control import CTL_CTX_F, CTL_CTX_N, CTL_CTX_OWNER
from ..layout import H_BD_SPLIT, P_HERO, pslot
from ..sigs import A1, CTL, F, FA1, I, jit, ST, TB, V
from .estimate import dmg_value


@jit(F(ST, CTL, I, I, I, I, I))
def share_worth(st, ctl, p, f, g, a, n):
    """Worth to player ``p`` (:func:`.estimate.dmg_value`, negative for its own fighters) of
    fighter ``g`` taking ``a`` of the ``n`` damage fighter ``f`` would take, ``f`` the rest
    (``g`` -1: ``f`` takes all of it)."""
    if g < 0:
        return dmg_value(st, ctl, p, f, float(n))
    return dmg_value(st, ctl, p, g, float(a)) + dmg_value(st, ctl, p, f, float(n - a))


@jit(V(ST, TB, CTL, I, I, A1, I, FA1))
def score_redirect(st, tb, ctl, p, kind, opts, n, scores):
    """Scores of a ``D_REDIRECT`` (which fighter takes part of fighter ``CTL_CTX_F``'s
    ``CTL_CTX_N`` damage, -1 none: each fighter by its best share, all of it or, with the
    ability's ``split``, any part) or ``D_REDIRECT_N`` decision (how much fighter
    ``CTL_CTX_OWNER`` takes) by :func:`share_worth`: the hero's health is protected because
    losing it costs more (a lethal blow to the hero costs the game), a sidekick is spent when
    its health is worth less than the damage it saves. The rest of the damage may still go to
    another fighter afterwards; each choice is scored as if it were the last."""
    f = ctl[CTL_CTX_F]
    left = ctl[CTL_CTX_N]
    split = tb.heroes[st[pslot(p, P_HERO)], H_BD_SPLIT] != 0
    for j in range(n):
        if kind == D_REDIRECT:
            g = opts[j]
            best = share_worth(st, ctl, p, f, g, left, left)
            if g >= 0 and split:
                for a in range(1, left):   # a part: only where the engine asks how much
                    w = share_worth(st, ctl, p, f, g, a, left)
                    if w > best:
                        best = w
            scores[j] = best
        else:
            scores[j] = share_worth(st, ctl, p, f, ctl[CTL_CTX_OWNER], opts[j], left)
